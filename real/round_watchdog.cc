#include "real/round_watchdog.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace geotrain::real {

std::string RoundWatchdog::check(std::int64_t rounds, Clock::time_point now) {
  if (rounds != rounds_seen_) {
    if (rounds_seen_ >= 0)
      longest_gap_s_ = std::max(longest_gap_s_, std::chrono::duration<double>(now - last_progress_).count());
    rounds_seen_ = rounds;
    last_progress_ = now;
  }
  const double stuck = std::chrono::duration<double>(now - last_progress_).count();
  // Longer than a lost service is waited for, so that loss is the error given when it is the cause.
  if (stuck <= std::max(12 * failure_timeout_s_, 10 * longest_gap_s_)) return "";
  std::ostringstream o;
  o << "no round completed for " << std::setprecision(3) << stuck << " s (the last was round " << rounds
    << (faults_ > 0 ? "): the job is stuck after its faults (see faults in the summary) and cannot go on"
                    : "), with no fault seen: a round takes longer than the watchdog waits (12 x "
                      "--failure-timeout, or 10 x the longest round so far), or the job is stuck; a "
                      "larger --failure-timeout waits longer");
  return o.str();
}

}  // namespace geotrain::real
