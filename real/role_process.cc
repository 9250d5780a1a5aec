#include "real/role_process.h"

#include <sys/resource.h>

#include <csignal>
#include <cstdio>
#include <filesystem>

#include "core/base/atomic_file.h"
#include "core/config/scenario.h"
#include "core/job/job.h"
#include "core/run/monitor.h"
#include "core/run/progress.h"
#include "core/run/results.h"
#include "real/auth.h"
#include "real/file_checkpoint.h"
#include "real/frame_limits.h"
#include "real/real_node.h"

namespace geotrain::real {

int run_role(const RealConfig& cfg, NodeId id) {
  const Scenario sc = load_scenario(cfg.scenario, cfg.sets);
  if (!learner_info(sc).caps.real_mode)
    throw ConfigError(cfg.scenario, "/model",
                      sc.model.kind + " runs only in simulation (a workload profile's tensors are stand-ins)");
  if (!sc.dataset.per_dc.empty())
    throw ConfigError(cfg.scenario, "/dataset/per_dc",
                      "each data centre's own files (per_dc) are read in simulation only so far: in real mode every "
                      "process would load every DC's files, which per_dc exists to prevent");
  const TrainingJob job(sc);
  check_frame_limit(job, cfg.max_frame_bytes, cfg.scenario);
  const auto& dep = job.deployment();
  if (id < 0 || id >= NodeId(dep.nodes.size()))
    throw std::runtime_error("--role " + std::to_string(id) + ": the scenario has nodes 0.." +
                             std::to_string(dep.nodes.size() - 1));
  if (cfg.nodes.size() != dep.nodes.size())
    throw ConfigError(cfg.file, "/nodes", "expected " + std::to_string(dep.nodes.size()) + " endpoints, one per node");
  const NodeSpec& spec = dep.nodes[id];

  boost::asio::io_context io;
  RealNode node(io, cfg, job, id, read_secret_file(cfg.secret_file));
  std::unique_ptr<RunMonitor> monitor;
  if (id == dep.global_server)
    monitor = std::make_unique<RunMonitor>(job.learner(), job.data().test, sc.stop, sc.eval,
                                           [&node] { return node.counters().sent; });
  Progress progress(monitor != nullptr, "real", sc.stop.rounds, job.learner().metrics().at(0).name, "wan sent by gs");
  if (monitor) monitor->on_eval([&progress](const TimelineRow& r) { progress(r); });
  // The global server checkpoints when asked to; finding an epoch file from an
  // earlier start means this process is a restart: resume, do not start over.
  // MultiGPS's other shard servers checkpoint their shards the same way; a
  // restarted one joins the running job as any node does, and resumes from it.
  std::unique_ptr<FileCheckpointStore> store;
  bool restore = false;
  if (spec.role == Role::kGlobalServer && cfg.checkpoint_every > 0) {
    const bool first = id == dep.global_server;
    restore = first && std::filesystem::exists(cfg.epoch_file()) && std::filesystem::exists(cfg.out + "/checkpoint");
    store = std::make_unique<FileCheckpointStore>(cfg.out + "/checkpoint" + (first ? "" : "/" + spec.name));
  }
  std::unique_ptr<Actor> actor = job.make_actor(id, node, monitor.get(), nullptr, store.get(), cfg.checkpoint_every);
  if (monitor) node.watch_progress([&monitor] { return monitor->rounds_applied(); });
  node.run(*actor, restore);
  // The node has left its event loop and only reports now: a second SIGTERM or a
  // Ctrl-C must not cut the report short (the launcher's SIGKILL still ends a hung one).
  std::signal(SIGTERM, SIG_IGN);
  std::signal(SIGINT, SIG_IGN);
  progress.done();

  nlohmann::json report;
  report["id"] = id;
  report["name"] = spec.name;
  report["role"] = to_string(spec.role);
  report["dc"] = spec.dc;
  report["run_time_s"] = to_seconds(node.now());
  report["epoch_unix_ns"] = node.epoch_unix_ns();
  const NodeCounters& c = node.counters();
  report["sent"] = {{"wan", c.sent.wan_bytes}, {"lan", c.sent.lan_bytes}};
  report["steps_too_slow"] = c.steps_too_slow;
  report["overrun_s"] = c.overrun_s;
  report["rejected_links"] = c.rejected_links;
  report["rejected_datagrams"] = c.rejected_datagrams;
  report["tls_links"] = c.tls_links;
  report["error"] = node.error();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  report["peak_rss_mb"] = double(usage.ru_maxrss) / 1024;  // Linux reports KiB
  report["events"] = nlohmann::json::array();
  for (const auto& e : node.events()) report["events"].push_back({{"time_s", e.time_s}, {"event", e.what}});
  actor->finish(node.now());
  report.update(actor->report(node.now()));  // what the role did: core/job/role_stats.h reads it
  if (monitor) {
    if (!monitor->failure().empty()) report["error"] = monitor->failure();
    report["time_to_target_s"] = monitor->time_to_target_s() ? nlohmann::json(*monitor->time_to_target_s()) : nullptr;
    nlohmann::json tl = nlohmann::json::array();
    for (const auto& r : monitor->timeline()) tl.push_back(timeline_row_json(r));
    report["timeline"] = tl;
  }
  const std::string dir = cfg.out + "/nodes";
  std::filesystem::create_directories(dir);
  write_file_atomically(dir + "/" + std::to_string(id) + ".json", report.dump(2) + "\n");
  if (!node.error().empty()) {
    std::fprintf(stderr, "error: node %d (%s): %s\n", id, spec.name.c_str(), node.error().c_str());
    return node.exit_code();
  }
  return 0;
}

}  // namespace geotrain::real
