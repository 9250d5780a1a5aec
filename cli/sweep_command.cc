// geotrain sweep: many scenarios from one sweep file.
#include <cstdio>
#include <memory>

#include "api/platform.h"
#include "api/scenarios.h"
#include "cli/commands.h"
#include "cli/guarded.h"
#include "cli/output_dir.h"
#include "cli/sweep_runner.h"

namespace geotrain::cli {

namespace {
struct SweepArgs {
  std::string file, out, shard = "0/1";
  int jobs = 1;
  bool quiet = false;
};
}  // namespace

void add_sweep(CLI::App& app) {
  auto a = std::make_shared<SweepArgs>();
  CLI::App* c = app.add_subcommand("sweep", "Run every point of a sweep (grid x zip x seeds over a base scenario)");
  c->footer(
      "Each point runs as its own process (geotrain sim, or geotrain launch with\n"
      "\"runtime\": \"real\") into OUT/runs/<point>/. Rerunning the same command resumes:\n"
      "finished points are skipped, broken ones redone. OUT/results.csv has one row per\n"
      "finished point: swept values, then summary fields.\n\n"
      "Spread a sweep over machines with --shard i/n (points with index % n == i), into a\n"
      "shared OUT or merged afterwards; rerun without --shard to rebuild results.csv.\n"
      "Slurm job array: examples/sweeps/slurm-array.sh; GNU parallel: examples/sweeps/parallel.sh.\n\n"
      "Example: geotrain sweep examples/sweeps/arch-bandwidth.json --out out/sweep -j 2");
  c->add_option("sweep", a->file, "Sweep JSON file (schema: scenarios/sweep.schema.json)")->required();
  c->add_option("--out,-o", a->out, "Output directory")->required();
  c->add_option("-j,--jobs", a->jobs, "Points run at once (1)")->check(CLI::Range(1, 1024));
  c->add_option("--shard", a->shard, "i/n: run only this shard of the points (0/1)");
  c->add_flag("--quiet,-q", a->quiet, "No progress lines");
  c->callback([a] {
    guarded([&] {
      SweepOptions opt;
      opt.jobs = a->jobs;
      opt.progress = !a->quiet;
      if (std::sscanf(a->shard.c_str(), "%d/%d", &opt.shard, &opt.shards) != 2 || opt.shards < 1 || opt.shard < 0 ||
          opt.shard >= opt.shards)
        throw ConfigError("--shard " + a->shard, "", "expected i/n with 0 <= i < n, e.g. 0/4");
      const SweepPlan plan = load_sweep(a->file);
      check_writable_dir(a->out, "--out " + a->out);
      const SweepOutcome o = run_sweep(plan, a->out, opt);
      const int rows = write_results_csv(plan, a->out);
      std::printf("%s: %d points in this shard run, %d already finished, %d failed; %d rows -> %s/results.csv\n",
                  plan.name.c_str(), o.ran, o.skipped, o.failed, rows, a->out.c_str());
      return o.failed > 0 ? 1 : 0;
    });
  });
}

}  // namespace geotrain::cli
