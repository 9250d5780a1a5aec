// geotrain claims: every published claim measured on its scenarios over seeds,
// and the report saying, check by check, what was reproduced (analysis/claims.py).
#include <memory>
#include <thread>

#include "api/platform.h"
#include "cli/analysis_script.h"
#include "cli/commands.h"
#include "cli/guarded.h"

namespace geotrain::cli {

void add_claims(CLI::App& app) {
  struct Opts {
    std::string file, out, seeds;
    int jobs = int(std::max(1u, std::thread::hardware_concurrency()));
  };
  auto o = std::make_shared<Opts>();
  CLI::App* c = app.add_subcommand("claims", "Reproduce the published claims over seeds and report each one");
  c->footer(
      "FILE names rows (a scenario and --set overrides each) and claims, each with checks:\n"
      "a ratio or difference of one summary field between two rows, seed by seed, or one\n"
      "row's value, with the published figure and bounds (examples/claims/claims.json;\n"
      "schema scenarios/claims.schema.json). Every row runs once per seed in simulation;\n"
      "a rerun keeps finished runs. Writes OUT/claims.md and OUT/claims.html: per check the\n"
      "mean and 95% interval over seeds, and 'reproduced' only when the whole interval lies\n"
      "within the bounds. `geotrain report OUT` redraws them.\n\n"
      "  geotrain claims examples/claims/claims.json --out out/claims -j 2\n"
      "  geotrain claims examples/claims/claims.json --out out/claims-quick --seeds 1");
  c->add_option("file", o->file, "Claims file")->required()->check(CLI::ExistingFile);
  c->add_option("--out", o->out, "Output directory")->required();
  c->add_option("-j,--jobs", o->jobs, "Runs at a time (default: all cores)")->check(CLI::Range(1, 1024));
  c->add_option("--seeds", o->seeds, "Comma-separated seeds instead of the file's, e.g. 1,2,3");
  c->callback([o] {
    guarded([&] {
      std::vector<std::string> args = {"run",        o->file,         "--out", o->out, "-j", std::to_string(o->jobs),
                                       "--geotrain", real::self_exe()};
      if (!o->seeds.empty()) args.insert(args.end(), {"--seeds", o->seeds});
      return run_analysis_script("claims.py", args);
    });
  });
}

}  // namespace geotrain::cli
