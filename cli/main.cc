// geotrain: one binary, one subcommand per task. Exit status: 0 success,
// 1 runtime failure, 2 bad input (command line, scenario or topology).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "api/platform.h"
#include "cli/commands.h"

int main(int argc, char** argv) {
  geotrain::real::die_with_parent_if_asked();
  (void)geotrain::configure_allocator();  // before anything large is allocated
  CLI::App app{
      "geotrain: train machine-learning models across geo-distributed data centres.\n"
      "The same parameter-server roles and sync policies run in an ns-3 simulation\n"
      "of a WAN (geotrain sim) and over real sockets (geotrain launch / geotrain real).\n\n"
      "Quickstart:\n"
      "  geotrain sim scenarios/quickstart.json --out out/quickstart\n"
      "  geotrain launch scenarios/quickstart.json --out out/quickstart-real\n"
      "  geotrain validate scenarios/*.json topologies/*.json\n"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "geotrain 0.1.0");
  geotrain::cli::add_sim(app);
  geotrain::cli::add_validate(app);
  geotrain::cli::add_data(app);
  geotrain::cli::add_sweep(app);
  geotrain::cli::add_regress(app);
  geotrain::cli::add_report(app);
  geotrain::cli::add_claims(app);
  geotrain::cli::add_profile(app);
  geotrain::cli::add_launch(app);
  geotrain::cli::add_real(app);
  geotrain::cli::add_collect(app);
  geotrain::cli::add_list(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::fprintf(stderr, "error: %s (see geotrain --help, or geotrain <command> --help)\n", e.what());
    return 2;
  }
  return geotrain::cli::exit_code();
}
