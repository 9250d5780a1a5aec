// geotrain report: plots and an HTML page for a run, a sweep or a claims run
// (analysis/report.py, analysis/claims.py).
#include <filesystem>
#include <memory>

#include "api/scenarios.h"
#include "cli/analysis_script.h"
#include "cli/commands.h"
#include "cli/guarded.h"

namespace geotrain::cli {

void add_report(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  CLI::App* c =
      app.add_subcommand("report", "Plots (PNG) and one self-contained HTML page for a run, a sweep or a claims run");
  c->footer(
      "DIR is a run (geotrain sim/launch --out DIR) or a sweep (geotrain sweep --out DIR).\n"
      "Writes DIR/report/: accuracy_vs_time.png, time_to_target.png (per architecture/policy),\n"
      "bytes.png (WAN/LAN per run), dc_fractions.png (per-DC compute-busy and blocked) and\n"
      "index.html (summary table, plots embedded).\n"
      "A claims run (geotrain claims --out DIR): DIR/claims.md, DIR/claims.html and\n"
      "DIR/claims/<claim>.png, redrawn from the runs that finished.\n"
      "Needs python3-matplotlib (scripts/setup.sh).");
  c->add_option("dir", *dir, "Run, sweep or claims output directory")->required();
  c->callback([dir] {
    guarded([&] {
      if (std::filesystem::exists(*dir + "/claims.json")) return run_analysis_script("claims.py", {"render", *dir});
      if (!std::filesystem::exists(*dir + "/summary.json") && !std::filesystem::exists(*dir + "/results.csv"))
        throw ConfigError(*dir, "", "neither a run (summary.json), a sweep (results.csv) nor claims (claims.json)");
      return run_analysis_script("report.py", {*dir});
    });
  });
}

}  // namespace geotrain::cli
