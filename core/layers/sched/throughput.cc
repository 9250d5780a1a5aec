#include "core/layers/sched/throughput.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace geotrain {

void Throughput::set_prior(NodeId a, NodeId b, double bits_per_s, double latency_s, double initial_window_bytes) {
  prior_[{a, b}] = {bits_per_s, latency_s, initial_window_bytes};
}

void Throughput::record(NodeId a, NodeId b, std::uint64_t bytes, double seconds) {
  if (bytes == 0 || !(seconds > 0)) return;  // nothing to learn from
  measured_[{a, b}] = {double(bytes), seconds};
  ++samples_;
}

double Throughput::rate(NodeId a, NodeId b) const {
  const auto it = measured_.find({a, b});
  return it == measured_.end() ? 0.0 : it->second.bytes / it->second.seconds;
}

double Throughput::seconds(NodeId a, NodeId b, std::uint64_t bytes) const {
  if (const auto it = measured_.find({a, b}); it != measured_.end())
    return it->second.seconds * double(bytes) / it->second.bytes;
  if (const auto it = prior_.find({a, b}); it != prior_.end() && it->second.bits_per_s > 0) {
    const Prior& p = it->second;
    const double rtt = 2 * p.latency_s;
    const double window = std::min(double(bytes), p.bits_per_s / 8 * rtt);  // what the transfer needs
    const double doublings =
        p.initial_window_bytes > 0 ? std::ceil(std::log2(std::max(1.0, window / p.initial_window_bytes))) : 0;
    return p.latency_s + 8.0 * double(bytes) / p.bits_per_s + doublings * rtt;
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace geotrain
