#include "real/frame_limits.h"

#include <algorithm>

#include "core/json/json_reader.h"

namespace geotrain::real {

namespace {
constexpr std::uint64_t kFrameRoom = 1 << 20;  // beyond the message: headers, a margin
}  // namespace

std::uint64_t frame_limit(const TrainingJob& job, std::uint64_t max_frame_bytes) {
  return std::min(max_frame_bytes, job.max_message_bytes() + kFrameRoom);
}

void check_frame_limit(const TrainingJob& job, std::uint64_t max_frame_bytes, const std::string& file) {
  const std::uint64_t need = job.expected_message_bytes() + kFrameRoom;
  if (need <= max_frame_bytes) return;
  throw ConfigError(file, "/model",
                    job.scenario().model.kind + "'s largest message would be about " + std::to_string(need) +
                        " bytes, more than a real-mode frame may carry (" + std::to_string(max_frame_bytes) +
                        " bytes): a smaller model (fewer bins, features, a shallower tree or a smaller batch of "
                        "queries) fits");
}

}  // namespace geotrain::real
