#include "core/run/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace geotrain {

Progress::Progress(bool on, std::string label, std::int64_t total_rounds, std::string metric, std::string wan_label)
    : on_(on),
      tty_(isatty(STDERR_FILENO) != 0),
      label_(std::move(label)),
      metric_(std::move(metric)),
      wan_label_(std::move(wan_label)),
      rounds_(total_rounds),
      t0_(std::chrono::steady_clock::now()) {
  if (on_) watcher_ = std::thread([this] { watch(); });
}

Progress::~Progress() { done(); }

double Progress::wall() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

void Progress::watch() {
  constexpr double kQuiet = 10;  // seconds without a line
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, std::chrono::seconds(1));
    if (stop_ || wall() - last_line_ < kQuiet) continue;
    last_line_ = wall();
    std::fprintf(stderr, "%s[%s] working on round %lld (no evaluation for %.0f s)  wall %.1f s%s", tty_ ? "\r" : "",
                 label_.c_str(), static_cast<long long>(last_round_ + 1), wall() - std::max(0.0, last_), wall(),
                 tty_ ? "   " : "\n");
    std::fflush(stderr);
  }
}

void Progress::operator()(const TimelineRow& r) {
  if (!on_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  const double wall = this->wall();
  last_round_ = r.round;
  if (!tty_ && wall - last_ < 5.0) return;
  last_ = last_line_ = wall;
  const std::string of = rounds_ > 0 ? "/" + std::to_string(rounds_) : "";
  std::fprintf(stderr, "%s[%s] round %lld%s  t %.1f s  %s %.4f  loss %.4f  %s %.1f MB  wall %.1f s%s", tty_ ? "\r" : "",
               label_.c_str(), static_cast<long long>(r.round), of.c_str(), r.time_s, metric_.c_str(),
               r.metrics.empty() ? 0.0 : r.metrics[0], r.loss, wan_label_.c_str(), double(r.net.wan_bytes) / 1e6, wall,
               tty_ ? "   " : "\n");
  std::fflush(stderr);
}

void Progress::done() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stop_) return;
    stop_ = true;
  }
  wake_.notify_all();
  if (watcher_.joinable()) watcher_.join();
  if (on_ && tty_) std::fprintf(stderr, "\n");
}

}  // namespace geotrain
