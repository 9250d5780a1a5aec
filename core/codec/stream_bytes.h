// What one stream's payloads cost: how many, their bytes had they travelled
// dense, and their bytes as sent. Summed per tier and direction into the
// summary's compression ratios, and sampled over time into the timeline.
#pragma once
#include <cstdint>

namespace geotrain {

struct StreamBytes {
  std::uint64_t payloads = 0, dense_bytes = 0, sent_bytes = 0;
  StreamBytes& operator+=(const StreamBytes& o) {
    payloads += o.payloads;
    dense_bytes += o.dense_bytes;
    sent_bytes += o.sent_bytes;
    return *this;
  }
};

}  // namespace geotrain
