#include "core/config/network_models.h"

namespace geotrain {

const std::vector<NetworkModelInfo>& network_model_registry() {
  static const std::vector<NetworkModelInfo> registry = {
      {{"ns3",
        "packet level: ns-3's TCP (Cubic, SACK) and UDP over point-to-point links with drop-tail switch queues "
        "(sim/sim_network)",
        {{"segment_bytes", "64000", "TCP segment and link MTU less headers (536 to 65000; lossy paths use 1448)"},
         {"tcp_buffer_bytes", "0", "send buffer; 0: each path's bandwidth-delay product"},
         {"initial_cwnd_bytes", "14600", "TCP's first window, 10 x 1460 B as in Linux"},
         {"queue_bytes", "0", "switch port queues; 0: max(1 MiB, the link's bandwidth-delay product)"},
         {"min_rto_ms", "200", "TCP's retransmission timeout floor"}}},
       true,
       false},
      {{"flow",
        "flow level: each connection a flow, max-min fair shares recomputed per connected component, TCP's "
        "handshake and slow start; for thousands of DCs (sim/flow_network)",
        {{"segment_bytes", "64000", "segment size, for the headers charged per segment"},
         {"initial_cwnd_bytes", "14600", "the first window, for slow start"},
         {"min_rto_ms", "200", "the retransmission timeout floor, for the segment rule of lossy links"}}},
       false,
       true},
  };
  return registry;
}

const NetworkModelInfo* find_network_model(const std::string& name) {
  return find_entry(network_model_registry(), name);
}

}  // namespace geotrain
