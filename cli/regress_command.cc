// geotrain regress: the CI regression check over reference scenarios.
#include <memory>

#include "cli/commands.h"
#include "cli/guarded.h"
#include "cli/regress.h"

namespace geotrain::cli {

void add_regress(CLI::App& app) {
  auto o = std::make_shared<RegressOptions>();
  o->dir = std::string(GEOTRAIN_SOURCE_DIR) + "/scenarios/regress";
  CLI::App* c = app.add_subcommand("regress", "Re-run the reference scenarios and compare with their expectations");
  c->footer(
      "Each DIR/<name>.json runs in simulation; its summary is compared with\n"
      "DIR/<name>.expected.json: counters (rounds, steps, bytes, events, simulated time)\n"
      "exactly, accuracy and loss within the stored tolerance. A readable table shows\n"
      "every metric of a failing scenario; exit 1 if any failed.\n"
      "After a deliberate change: geotrain regress --update, and commit the new expectations.");
  c->add_option("--dir", o->dir, "Directory of reference scenarios")->capture_default_str();
  c->add_flag("--update", o->update, "Rewrite the expectations from this run (keeps tolerances)");
  c->add_option("--set,-s", o->sets, "Apply path=value to every scenario (e.g. to try a changed default)");
  c->callback([o] { guarded([&] { return run_regress(*o) > 0 ? 1 : 0; }); });
}

}  // namespace geotrain::cli
