// Faults the launcher injects (`geotrain launch --fault SPEC`, repeatable), for
// tests, demos and the fault matrix. A spec is ACTION:NODE@WHEN:
//   ACTION  kill     SIGKILL, for good
//           restart  SIGKILL, then the same role started again (launch --restart-after)
//           stall    SIGSTOP, then SIGCONT (launch --stall-for)
//   NODE    a node id or name ("dc-a/local-server", "state-server", "global-server-1";
//           `geotrain validate SCENARIO` lists them)
//   WHEN    startup      as soon as the node's process is started, before it can join
//           S            S seconds after the job's start (the GO barrier; a number)
//           launch+S     S seconds after the launch itself (--kill-node/--kill-after)
//           checkpoint   when the global server's first snapshot is on disk
//                        (needs --checkpoint-every)
#pragma once
#include <string>

#include "core/topology/deployment.h"

namespace geotrain::real {

struct Fault {
  enum class Action { kKill, kRestart, kStall };
  enum class When { kAfterLaunch, kStartup, kAfterStart, kCheckpoint };
  Action action = Action::kKill;
  NodeId node = -1;
  When when = When::kAfterStart;
  double at_s = 0;  // kAfterLaunch, kAfterStart
};

// Parses a spec against the deployment; a ConfigError names the option and
// what was expected (the node names, when the node is unknown).
Fault parse_fault(const std::string& spec, const Deployment& dep);
const char* to_string(Fault::Action a);
// "stall dc-a/local-server at the first checkpoint", for logs and the summary.
std::string describe(const Fault& f, const Deployment& dep);

}  // namespace geotrain::real
