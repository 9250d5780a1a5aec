// Max-min fair rates for flows sharing links (progressive filling): every
// flow gets the largest rate such that no link is over capacity and no flow
// could gain without taking from a flow with a smaller or equal rate. A flow
// may carry its own cap (a TCP window over its round trip, a loss-limited
// rate), which acts as a private link. Pure arithmetic: the flow network
// (sim/flow_network.h) calls it on the flows one change can affect.
#pragma once
#include <cstddef>
#include <vector>

namespace geotrain::sim {

struct MaxMinFlow {
  std::vector<int> links;  // indices into the capacities, each once
  double cap = 0;          // 0: none
};

// rates[i] for flows[i], in the capacities' unit. Links not crossed by any
// flow are ignored; a flow that crosses no link gets its cap (0 if none).
std::vector<double> max_min_rates(const std::vector<MaxMinFlow>& flows, const std::vector<double>& capacity);
// The same for the first n entries of `flows` (a caller's scratch list, kept
// at its largest size so that its entries' link lists keep their storage).
std::vector<double> max_min_rates(const MaxMinFlow* flows, std::size_t n, const std::vector<double>& capacity);

}  // namespace geotrain::sim
