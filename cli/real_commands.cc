// geotrain launch / geotrain real: the real-mode subcommands.
#include <cstdio>
#include <memory>
#include <sstream>

#include "api/platform.h"
#include "api/runs.h"
#include "cli/commands.h"
#include "cli/environment.h"
#include "cli/guarded.h"
#include "cli/output_dir.h"

namespace geotrain::cli {

namespace {
struct LaunchArgs {
  std::string scenario, out;
  std::vector<std::string> sets;
  bool quiet = false, no_wan = false;
  double timeout = 0;
  int kill_node = -1;
  double kill_after = 0;
  bool restart = false;
  double restart_after = 1;
  std::vector<std::string> faults;
  double stall_for = 0;
  double failure_timeout = 5;
  double startup_timeout = 60;
  std::int64_t checkpoint_every = 0;
  std::string tls = "off";
  bool netns = false;
};
}  // namespace

void add_launch(CLI::App& app) {
  auto a = std::make_shared<LaunchArgs>();
  CLI::App* c = app.add_subcommand("launch", "Run every role of a scenario as real processes on this machine");
  c->footer(
      "Each role (global server, local servers, workers) is its own process talking over\n"
      "authenticated TCP/UDP on loopback. Traffic between data centres passes through\n"
      "relays in this process that emulate the topology's WAN (bandwidth, latency, loss,\n"
      "bandwidth traces). Writes the same OUT/summary.json and OUT/timeline.csv as\n"
      "geotrain sim (runtime \"real\"), plus OUT/nodes/*.json and OUT/logs/*.log.\n\n"
      "Examples:\n"
      "  geotrain launch scenarios/quickstart.json --out out/q-real\n"
      "  geotrain launch scenarios/quickstart.json --out out/q-kill --kill-node 3 --kill-after 5\n"
      "  geotrain launch scenarios/quickstart.json --out out/q-tls --tls wan\n"
      "  geotrain launch scenarios/quickstart.json --out out/q-ns --netns   # as root");
  c->add_option("scenario", a->scenario, "Scenario JSON file")->required();
  c->add_option("--out,-o", a->out, "Output directory")->required();
  c->add_option("--set,-s", a->sets, "Override a scenario value (as in geotrain sim). Repeatable.");
  c->add_flag("--quiet,-q", a->quiet, "No progress on stderr (the global server logs to OUT/logs too)");
  c->add_flag("--no-wan-emulation", a->no_wan, "Connect nodes directly (plain loopback everywhere)");
  c->add_option("--timeout", a->timeout, "Kill everything after this many seconds (0 = none)")
      ->check(CLI::Range(0.0, 1e9));
  CLI::Option* kill_node =
      c->add_option("--kill-node", a->kill_node,
                    "Fault injection: SIGKILL this node id mid-run (0 = global server; a wrong id lists them)")
          ->check(CLI::Range(0.0, 1e9));
  c->add_option("--kill-after", a->kill_after, "... this many seconds after launch")
      ->check(CLI::Range(0.0, 1e9))
      ->needs(kill_node);
  c->add_flag("--restart", a->restart, "... and start it again afterwards")->needs(kill_node);
  c->add_option("--restart-after", a->restart_after,
                "A restarted node starts again this many seconds after the kill (1)")
      ->check(CLI::Range(0.0, 1e9));
  c->add_option("--fault", a->faults,
                "Fault injection, ACTION:NODE@WHEN (repeatable): ACTION kill, restart or stall (SIGSTOP for\n"
                "--stall-for s, then SIGCONT); NODE an id or name (a wrong one lists them); WHEN startup\n"
                "(before it joins), S (seconds after the job's start), launch+S (after the launch) or\n"
                "checkpoint (the first snapshot; needs --checkpoint-every). E.g. stall:state-server@5");
  c->add_option("--stall-for", a->stall_for, "A stall lasts this many seconds (default 3 x --failure-timeout)")
      ->check(CLI::Range(0.0, 1e9));
  c->add_option("--failure-timeout", a->failure_timeout, "Seconds of silence before a worker is dropped (5)")
      ->check(CLI::Range(0.05, 3600.0));
  c->add_option("--startup-timeout", a->startup_timeout,
                "Seconds the global server waits for every node to join; then missing workers are left out\n"
                "(they may join later) and a missing server ends the job with an error naming it (60)")
      ->check(CLI::Range(0.05, 86400.0));
  c->add_option("--checkpoint-every", a->checkpoint_every, "Global server checkpoints every N rounds (0 = never)")
      ->check(CLI::Range(0.0, 1e9));
  c->add_option("--tls", a->tls,
                "TLS 1.3 on links between data centres (wan), on every link (all), or none (off, the default);\n"
                "uses a fresh self-signed certificate in OUT/launch/tls/")
      ->check(CLI::IsMember({"off", "wan", "all"}));
  c->add_flag("--netns", a->netns,
              "Root only: run each DC in its own network namespace and let the kernel (tc htb) shape\n"
              "WAN bandwidth; the relays keep latency and loss (netem is unavailable here)");
  c->callback([a] {
    guarded([&] {
      real::LaunchOptions opt;
      opt.memory_limit_mb = memory_limit_mb_from_environment();
      opt.emulate_wan = !a->no_wan;
      opt.progress = !a->quiet;
      opt.timeout_s = a->timeout;
      opt.faults = a->faults;
      if (a->kill_node >= 0) {
        std::ostringstream spec;
        spec << (a->restart ? "restart:" : "kill:") << a->kill_node << "@launch+" << a->kill_after;
        opt.faults.push_back(spec.str());
      }
      opt.restart_after_s = a->restart_after;
      opt.stall_s = a->stall_for;
      opt.failure_timeout_s = a->failure_timeout;
      opt.startup_timeout_s = a->startup_timeout;
      opt.checkpoint_every = a->checkpoint_every;
      opt.netns = a->netns;
      opt.tls = a->tls == "all" ? real::TlsLinks::kAll : a->tls == "wan" ? real::TlsLinks::kWan : real::TlsLinks::kOff;
      check_writable_dir(a->out, "--out " + a->out);
      const RunResult r = real::launch(a->scenario, a->sets, a->out, opt);
      write_run_outputs(a->out, r);
      std::printf("%s (real): %lld rounds in %.2f s, %.3f s/round, %s -> %s\n", r.scenario_name.c_str(),
                  static_cast<long long>(r.rounds), r.sim_time_s, r.rounds ? r.sim_time_s / double(r.rounds) : 0.0,
                  final_primary_metric(r).c_str(), (a->out + "/summary.json").c_str());
      return run_exit_code(r, a->out);
    });
  });
}

void add_real(CLI::App& app) {
  auto role = std::make_shared<int>(-1);
  auto config = std::make_shared<std::string>();
  CLI::App* c = app.add_subcommand("real", "Run one role of a multi-host real-mode deployment");
  c->footer(
      "CONFIG (JSON) names the scenario, every node's host and ports, the shared-secret\n"
      "file and the output directory; see docs/user-guide.md, 'Multi-host deployment'. Start one\n"
      "process per node id under any process manager (systemd, Slurm srun, ...); the\n"
      "global server (node 0) starts everyone together once all are connected.");
  c->add_option("--role", *role, "Node id to run (geotrain validate prints the plan)")->required();
  c->add_option("--config", *config, "Deployment config JSON")->required();
  c->callback([role, config] {
    guarded([&] {
      real::RealConfig cfg = real::load_real_config(*config);
      cfg.trace_messages = std::getenv("GEOTRAIN_TRACE") != nullptr;  // every message logged
      return real::run_role(cfg, *role);
    });
  });
}

void add_collect(CLI::App& app) {
  auto config = std::make_shared<std::string>();
  CLI::App* c = app.add_subcommand("collect", "Merge a multi-host run's node reports into summary.json");
  c->footer(
      "After every `geotrain real` process of a deployment has ended, with their\n"
      "OUT/nodes/<id>.json reports gathered in the config's output directory (a shared\n"
      "filesystem does this by itself), writes OUT/summary.json and OUT/timeline.csv.");
  c->add_option("--config", *config, "The deployment config JSON all processes used")->required();
  c->callback([config] {
    guarded([&] {
      const real::RealConfig cfg = real::load_real_config(*config);
      const RunResult r = real::merge_node_reports(cfg.scenario, cfg.sets, cfg.out);
      write_run_outputs(cfg.out, r);
      std::printf("%s: %lld rounds -> %s/summary.json\n", r.scenario_name.c_str(), static_cast<long long>(r.rounds),
                  cfg.out.c_str());
      return run_exit_code(r, cfg.out);
    });
  });
}

}  // namespace geotrain::cli
