#include "cli/commands.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "api/catalog.h"
#include "api/platform.h"
#include "api/runs.h"
#include "api/scenarios.h"
#include "cli/environment.h"
#include "cli/guarded.h"
#include "cli/output_dir.h"
#include "cli/reference_markdown.h"

namespace geotrain::cli {
namespace {

int g_exit = 0;

struct SimArgs {
  std::string scenario, out, save_model;
  std::vector<std::string> sets;
  bool quiet = false;
  int threads = sim::ComputePool::all_cores();
};

}  // namespace

int exit_code() { return g_exit; }
void set_exit_code(int code) { g_exit = code; }

void add_sim(CLI::App& app) {
  auto args = std::make_shared<SimArgs>();
  CLI::App* c = app.add_subcommand("sim", "Run a scenario in the ns-3 simulation of the WAN");
  c->footer(
      "Writes OUT/summary.json (final accuracy, time to target, bytes on WAN and LAN,\n"
      "per-DC busy/blocked fractions, the resolved scenario) and OUT/timeline.csv\n"
      "(time_s, round, the learner's metrics, loss, wan_bytes, lan_bytes at each evaluation).\n"
      "Every learner (model.kind) and its metrics: geotrain list.\n\n"
      "Examples:\n"
      "  geotrain sim scenarios/quickstart.json --out out/q\n"
      "  geotrain sim scenarios/quickstart.json --out out/q-flat --set architecture=flat\n"
      "  geotrain sim scenarios/quickstart.json --out out/q9k --set network.segment_bytes=9000");
  c->add_option("scenario", args->scenario, "Scenario JSON file (see scenarios/ and scenario.schema.json)")->required();
  c->add_option("--out,-o", args->out, "Output directory (created if missing)")->required();
  c->add_option("--set,-s", args->sets,
                "Override a scenario value before validation: path=value, dots between keys,\n"
                "value parsed as JSON (else a string). Repeatable.");
  c->add_flag("--quiet,-q", args->quiet, "No progress lines on stderr");
  c->add_option("--save-model", args->save_model,
                "Write the final model's parameters to this file (a learner may read it back,\n"
                "e.g. the GAN's feature classifier; format in core/payload/params_file.h)");
  c->add_option("--threads,-t", args->threads,
                "Threads for the workers' training steps (default: every core). Steps that overlap\n"
                "in simulated time run at once; the results are the same for any number.")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  c->callback([args] {
    guarded([&] {
      const Scenario sc = load_scenario(args->scenario, args->sets);
      check_writable_dir(args->out, "--out " + args->out);
      sim::SimOptions opt;
      opt.progress = !args->quiet;
      opt.save_model = args->save_model;
      opt.threads = args->threads;
      opt.memory_limit_mb = memory_limit_mb_from_environment();
      const RunResult r = sim::run_simulation(sc, opt);
      write_run_outputs(args->out, r);
      std::printf("%s: %lld rounds, %.2f s simulated in %.2f s wall, %s, WAN %.2f MB -> %s\n", sc.name.c_str(),
                  static_cast<long long>(r.rounds), r.sim_time_s, r.wall_time_s, final_primary_metric(r).c_str(),
                  r.bytes.wan_bytes / 1e6, (args->out + "/summary.json").c_str());
      return run_exit_code(r, args->out);
    });
  });
}

namespace {
void validate_deployment(const std::string& f) {
  const real::RealConfig c = real::load_real_config(f);
  auto ok = [&] {
    std::printf("%s: ok (deployment of %zu nodes, TLS %s)\n", f.c_str(), c.nodes.size(), real::to_string(c.tls.links));
  };
  if (!std::filesystem::exists(c.scenario)) {
    ok();
    std::printf("  scenario %s is not on this machine: node count and roles not checked\n", c.scenario.c_str());
    return;
  }
  const Scenario s = load_scenario(c.scenario, c.sets);
  const Deployment d = plan_deployment(s);
  if (d.nodes.size() != c.nodes.size())
    throw ConfigError(f, "/nodes",
                      "expected " + std::to_string(d.nodes.size()) + " endpoints, one per node of scenario \"" +
                          s.name + "\" (" + s.architecture + "), got " + std::to_string(c.nodes.size()));
  ok();
  for (const auto& n : d.nodes)
    std::printf("  node %d  %-24s %s:%u\n", n.id, n.name.c_str(), c.nodes[std::size_t(n.id)].host.c_str(),
                unsigned(c.nodes[std::size_t(n.id)].tcp_port));
}
}  // namespace

void add_validate(CLI::App& app) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto sets = std::make_shared<std::vector<std::string>>();
  CLI::App* c = app.add_subcommand("validate", "Check scenario, topology and deployment files without running them");
  c->footer(
      "A file with a top-level \"dcs\" key is read as a topology, one with \"nodes\" as a real-mode\n"
      "deployment (geotrain real --config), one with \"base\" as a sweep (every point's scenario is\n"
      "checked), any other as a scenario (its topology is checked too).\n"
      "For a deployment whose scenario is on this machine, it also checks one endpoint per node\n"
      "and prints which role each node id runs. Exit 2 on the first error.\n"
      "--set edits scenarios as geotrain sim does, so a run's overrides can be checked first.");
  c->add_option("files", *files, "JSON files")->required();
  c->add_option("-s,--set", *sets, "Override a scenario value (as in geotrain sim). Repeatable.");
  c->callback([files, sets] {
    guarded([&] {
      for (const auto& f : *files) {
        const nlohmann::json j = load_json_file(f);
        const bool scenario = !(j.is_object() && (j.contains("dcs") || j.contains("nodes") || j.contains("base")));
        if (!sets->empty() && !scenario) throw ConfigError(f, "", "--set applies to scenario files only");
        if (j.is_object() && j.contains("dcs")) {
          const Topology t = load_topology(f);
          std::printf("%s: ok (topology \"%s\", %zu DCs, %d workers)\n", f.c_str(), t.name.c_str(), t.dcs.size(),
                      t.total_workers());
        } else if (j.is_object() && j.contains("nodes")) {
          validate_deployment(f);
        } else if (j.is_object() && j.contains("base")) {
          const SweepPlan p = load_sweep(f);  // every point's scenario is loaded and checked
          std::printf("%s: ok (sweep \"%s\", %zu points over %s)\n", f.c_str(), p.name.c_str(), p.points.size(),
                      p.base_scenario.c_str());
        } else {
          const Scenario s = load_scenario(f, *sets);
          std::printf("%s: ok (scenario \"%s\", %s/%s on \"%s\")\n", f.c_str(), s.name.c_str(), s.architecture.c_str(),
                      s.policy.c_str(), s.topology.name.c_str());
        }
      }
      return 0;
    });
  });
}

namespace {
template <class Entry>
void print_registry(const char* title, const std::vector<Entry>& registry) {
  std::printf("%s\n", title);
  for (const auto& e : registry) {
    std::printf("  %-16s %s\n", e.doc.name.c_str(), e.doc.description.c_str());
    for (const auto& p : e.doc.params)
      std::printf("      %-16s %s (default %s)\n", p.name.c_str(), p.help.c_str(), p.default_value.c_str());
  }
}
void print_numeric_params(const std::vector<NumericParam>& params) {
  for (const auto& q : params)
    std::printf("      %-16s %s (default %g, %g to %g)\n", q.name.c_str(), q.help.c_str(), q.default_value, q.min,
                q.max);
}
// Each learner: what it learns and from what, its parameters and metrics, and
// what it runs under (computed from its declared capabilities by the loader's rules).
void print_learners() {
  std::printf("models (model.kind): the learners, by family\n");
  std::vector<std::string> families;
  const std::vector<const LearnerInfo*> all = learners();  // the built-ins, then any registered
  for (const LearnerInfo* l : all)
    if (std::find(families.begin(), families.end(), l->family) == families.end()) families.push_back(l->family);
  for (const auto& f : families) {
    std::printf("  [%s]\n", f.c_str());
    for (const LearnerInfo* lp : all) {
      const LearnerInfo& l = *lp;
      if (l.family != f) continue;
      std::printf("  %-16s %s\n", l.doc.name.c_str(), l.doc.description.c_str());
      std::printf("      %-16s %s\n", "learns from", (joined(l.data, " or ") + " data").c_str());
      for (const auto& p : l.doc.params)
        std::printf("      %-16s %s (default %s)\n", p.name.c_str(), p.help.c_str(), p.default_value.c_str());
      print_numeric_params(l.params);
      std::vector<std::string> metrics;
      for (std::size_t i = 0; i < l.metrics.size(); ++i)
        metrics.push_back(l.metrics[i].name +
                          (l.metrics[i].higher_is_better ? " (higher is better" : " (lower is better") +
                          (i == 0 ? ", primary)" : ")"));
      std::printf("      %-16s %s\n", "metrics", joined(metrics).c_str());
      std::printf("      %-16s %s\n", "policies", joined(accepted_policies(l)).c_str());
      const auto push = accepted_codecs(l), pull = accepted_codecs(l, true);
      if (push == pull)
        std::printf("      %-16s %s\n", "codecs", joined(push).c_str());
      else
        std::printf("      %-16s %s\n      %-16s %s\n", "push codecs", joined(push).c_str(), "pull codecs",
                    joined(pull).c_str());
      std::printf("      %-16s %s%s\n", "runs", l.caps.real_mode ? "in simulation and real mode" : "in simulation only",
                  l.caps.cuttable ? "; with dgt, p3, multigps" : "; no dgt, p3 or multigps");
    }
  }
}
}  // namespace

void add_list(CLI::App& app) {
  CLI::App* c = app.add_subcommand("list",
                                   "List the built-in models, architectures, network models, policies, codecs, DGT's "
                                   "settings, schedulers, optimisers, datasets");
  auto markdown = std::make_shared<bool>(false);
  c->add_flag("--markdown", *markdown,
              "Write the full parameter reference as Markdown instead (every scenario and topology field from the "
              "JSON Schemas, then every registered component): docs/reference.md is this output");
  c->callback([markdown] {
    if (*markdown) {
      std::printf("%s", reference_markdown(GEOTRAIN_SOURCE_DIR).c_str());
      return;
    }
    print_registry("architectures (architecture):", architecture_registry());
    print_registry("network models (network.model, the network.* keys each reads; sim/network_model.h):",
                   network_model_registry());
    std::printf("policies (policy.kind, its parameters; core/policies/):\n");
    for (const auto& p : policy_registry()) {
      std::string names = p.name;
      for (const auto& a : p.aliases) names += " (alias " + a + ")";
      std::string archs;
      for (const auto& a : p.architectures) archs += (archs.empty() ? "" : ", ") + a;
      std::printf("  %-16s %s [%s]\n", names.c_str(), p.description.c_str(), archs.c_str());
      print_numeric_params(p.params);
    }
    std::printf(
        "codecs (compression.lan_push / lan_pull / wan_push / wan_pull .kind, its parameters; core/codec/;\n"
        "  tensors under compression.dense_below entries, default 200000, travel dense):\n");
    for (const auto& c : codec_registry()) {
      std::printf("  %-16s %s%s\n", c.doc.name.c_str(), c.doc.description.c_str(), c.lossless ? " [lossless]" : "");
      print_numeric_params(c.params);
    }
    std::printf(
        "schedulers (schedule.lan / schedule.wan .kind, its parameters; core/layers/sched/; a scheduled tier needs\n"
        "  policy bsp, no codec on its streams and no dgt):\n");
    for (const auto& s : scheduler_registry()) {
      std::printf("  %-16s %s\n", s.doc.name.c_str(), s.doc.description.c_str());
      print_numeric_params(s.params);
    }
    const DgtSpec dgt;
    std::printf(
        "dgt (differential transmission of WAN pushes; core/layers/dgt/):\n"
        "      %-16s 0 off, 1 unimportant blocks over UDP (paced), 2 over TCP at lower priority, 3 as 2 in 4 bits "
        "(default %d)\n"
        "      %-16s fraction of blocks sent reliably, K0 (default %g)\n"
        "      %-16s adaptive K never below (default %g)\n"
        "      %-16s K_t = max(K0 loss_t / loss_0, k_min) (default %s)\n"
        "      %-16s best-effort channels, descending priority (default %d, 1 to 7)\n"
        "      %-16s contribution EMA weight of the past (default %g)\n"
        "      %-16s bytes per block (default %d)\n"
        "      %-16s assemble after this much silence from the last part (default %g)\n"
        "      %-16s mode 1 pacing, fraction of the WAN path's bandwidth (default %g)\n",
        "mode", dgt.mode, "k", dgt.k, "k_min", dgt.k_min, "adaptive", dgt.adaptive ? "true" : "false", "channels",
        dgt.channels, "alpha", dgt.alpha, "block_bytes", dgt.block_bytes, "deadline_ms", dgt.deadline_ms,
        "rate_fraction", dgt.rate_fraction);
    print_learners();
    print_registry("optimizers (optimizer.kind):", optimizer_registry());
    print_registry("datasets (dataset.kind):", dataset_registry());
    std::printf(
        "partitions (partition.kind):\n"
        "  iid, by_class (classes_per_unit), dirichlet (alpha); level worker or dc\n");
  });
}

}  // namespace geotrain::cli
