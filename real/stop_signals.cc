#include "real/stop_signals.h"

namespace geotrain::real {

namespace {
volatile std::sig_atomic_t g_caught = 0;
extern "C" void on_stop_signal(int sig) { g_caught = sig; }
}  // namespace

StopSignals::StopSignals() {
  g_caught = 0;
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

int StopSignals::caught() { return g_caught; }

}  // namespace geotrain::real
