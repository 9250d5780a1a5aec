// geotrain report: plots and an HTML page for a run or a sweep (analysis/report.py).
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "cli/commands.h"
#include "cli/guarded.h"
#include "core/config/json_reader.h"

namespace geotrain::cli {

void add_report(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  CLI::App* c = app.add_subcommand("report", "Plots (PNG) and one self-contained HTML page for a run or a sweep");
  c->footer(
      "DIR is a run (geotrain sim/launch --out DIR) or a sweep (geotrain sweep --out DIR).\n"
      "Writes DIR/report/: accuracy_vs_time.png, time_to_target.png (per architecture/policy),\n"
      "bytes.png (WAN/LAN per run), dc_fractions.png (per-DC compute-busy and blocked) and\n"
      "index.html (summary table, plots embedded). Needs python3-matplotlib (scripts/setup.sh).");
  c->add_option("dir", *dir, "Run or sweep output directory")->required();
  c->callback([dir] {
    guarded([&] {
      if (!std::filesystem::exists(*dir + "/summary.json") && !std::filesystem::exists(*dir + "/results.csv"))
        throw ConfigError(*dir, "", "neither a run (summary.json) nor a sweep (results.csv)");
      const std::string script = std::string(GEOTRAIN_SOURCE_DIR) + "/analysis/report.py";
      // Debian's python3 (with python3-matplotlib) even when another python3 comes first on PATH.
      const std::string python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
      const std::string cmd = python + " '" + script + "' '" + *dir + "'";
      const int rc = std::system(cmd.c_str());
      return WIFEXITED(rc) ? WEXITSTATUS(rc) : 1;
    });
  });
}

}  // namespace geotrain::cli
