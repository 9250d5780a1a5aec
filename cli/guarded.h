// Runs a subcommand body: input errors (ConfigError) exit 2, other failures
// exit 1, each as one line on stderr.
#pragma once
#include <cstdio>
#include <exception>

#include "core/config/json_reader.h"

namespace geotrain::cli {

void set_exit_code(int code);

template <class Fn>
void guarded(Fn fn) {
  try {
    set_exit_code(fn());
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    set_exit_code(2);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    set_exit_code(1);
  }
}

}  // namespace geotrain::cli
