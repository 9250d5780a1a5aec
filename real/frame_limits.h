// How large a frame an authenticated peer of a job may send: derived from the
// learner's footprint (TrainingJob::max_message_bytes), never above the
// configured cap. Before authentication the cap is kPreAuthMaxFrameBytes (frame.h).
#pragma once
#include <cstdint>
#include <string>

#include "core/job/job.h"

namespace geotrain::real {

// The job's largest message and room for the frame's own bytes, at most `max_frame_bytes`.
std::uint64_t frame_limit(const TrainingJob& job, std::uint64_t max_frame_bytes);
// Refuses (ConfigError naming `file` and /model) a job whose expected largest
// message cannot fit in a frame of `max_frame_bytes`. (The bound itself may be
// far above what the data lets a run reach, a deep tree's last levels: then the
// limit is the cap, and a message above it ends the job naming it.)
void check_frame_limit(const TrainingJob& job, std::uint64_t max_frame_bytes, const std::string& file);

}  // namespace geotrain::real
