#include "core/runtime/role.h"

namespace geotrain {

const char* to_string(Role r) {
  switch (r) {
    case Role::kWorker: return "worker";
    case Role::kLocalServer: return "local_server";
    case Role::kGlobalServer: return "global_server";
    case Role::kStateServer: return "state_server";
  }
  return "?";
}

}  // namespace geotrain
