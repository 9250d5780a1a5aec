#include "core/policies/nbsync.h"

#include "core/policies/esync.h"

namespace geotrain {

PolicyInfo nbsync_policy() {
  return {
      "nbsync",
      {},
      "esync's balanced local rounds, pipelined: workers step on while the aggregate is in flight and merge it",
      {{"eps", 0.5, 0.0, 1e6, false, "seconds of slack: stop when one more step would end within eps of the slowest"},
       {"transfer_aware", 0, 0, 1, true, "0: balance compute time; 1: compute plus transfer time"},
       {"global_lr", 1.0, 0.0, 100.0, false, "the server's step on the mean model change"},
       {"depth", 1, 1, 1, true,
        "rounds a worker may run ahead of the global model; only 1 so far (servers collect one round at a time)"}},
      {"hips", "flat"},
      [](const PolicyParams& p, Role) { return make_balanced_local_rounds(p, true); }};
}

}  // namespace geotrain
