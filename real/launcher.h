// `geotrain launch`: runs every role of a scenario as its own process on this
// machine (loopback), with the WAN between data centres emulated in user space
// by relays in the launcher process, then merges the processes' node reports
// into the same summary.json / timeline.csv as `geotrain sim` (runtime "real").
#pragma once
#include <string>
#include <vector>

#include "core/run/results.h"
#include "real/real_config.h"

namespace geotrain::real {

struct LaunchOptions {
  bool emulate_wan = true;
  bool progress = true;
  double timeout_s = 0;  // kill everything after this long (0 = no limit)
  // Faults to inject, as --fault specs (real/fault_plan.h); parsed against the
  // deployment, so a wrong node name fails before anything starts.
  std::vector<std::string> faults;
  double restart_after_s = 1;  // a restart starts the node again this long after the kill
  double stall_s = 0;          // a stall lasts this long (0 = 3 x the failure timeout)
  double heartbeat_s = 0.5, failure_timeout_s = 5;
  double startup_timeout_s = 60;  // see RealConfig::startup_timeout_s
  std::int64_t checkpoint_every = 0;
  // TLS on these links, with a fresh self-signed certificate in OUT/launch/tls/.
  TlsLinks tls = TlsLinks::kOff;
  // Root only: each DC in its own network namespace, WAN bandwidth shaped by
  // the kernel (htb) instead of the relays (see real/netns.h).
  bool netns = false;
  double memory_limit_mb = 0;  // refuse a job estimated above it (0: 80% of the available memory)
};

RunResult launch(const std::string& scenario, const std::vector<std::string>& sets, const std::string& out,
                 const LaunchOptions& opt);

// Something the launcher did to a node (a kill, a restart), stamped with the
// system clock so it lands on the job's time axis next to the nodes' own events.
struct LauncherEvent {
  int node = -1;
  std::int64_t unix_ns = 0;
  std::string event;
};

// Merges OUT/nodes/*.json into a RunResult (used by launch and by `geotrain
// collect` for multi-host runs). A node without a report was lost: it is listed
// as a fault and its steps are not counted. Without the global server's report
// the result is partial (rounds as far as the workers got) and has an error.
// `events` become fault events on the run's clock: seconds since the job's
// start (its epoch), or since `launch_unix_ns` when the job never started; an
// event before the start is at 0 and says so.
RunResult merge_node_reports(const std::string& scenario, const std::vector<std::string>& sets, const std::string& out,
                             const std::vector<LauncherEvent>& events = {}, std::int64_t launch_unix_ns = 0);

}  // namespace geotrain::real
