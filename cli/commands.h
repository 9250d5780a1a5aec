// The subcommands of the geotrain binary. Each add_* registers one subcommand
// with its help text; the callback runs it and stores the exit code.
#pragma once
#include <CLI/CLI.hpp>

namespace geotrain::cli {

void add_sim(CLI::App& app);
void add_validate(CLI::App& app);
void add_list(CLI::App& app);
void add_launch(CLI::App& app);
void add_real(CLI::App& app);
void add_collect(CLI::App& app);
void add_sweep(CLI::App& app);
void add_regress(CLI::App& app);
void add_report(CLI::App& app);
void add_claims(CLI::App& app);
void add_profile(CLI::App& app);
void add_data(CLI::App& app);
int exit_code();

}  // namespace geotrain::cli
