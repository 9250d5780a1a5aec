// Simulated or real time as integer nanoseconds (never floating point: event
// order must not depend on rounding). Helpers convert at the edges only.
#pragma once
#include <cstdint>

namespace geotrain {

using TimeNs = std::int64_t;

constexpr TimeNs kNsPerSecond = 1'000'000'000;

inline double to_seconds(TimeNs t) { return static_cast<double>(t) / 1e9; }
inline TimeNs from_seconds(double s) { return static_cast<TimeNs>(s * 1e9 + (s >= 0 ? 0.5 : -0.5)); }

}  // namespace geotrain
