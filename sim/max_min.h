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

// The solver, with its working arrays kept between calls: the flow network
// re-rates a component at every change, and a call then allocates nothing once
// it has seen its largest.
class MaxMinSolver {
 public:
  // rates[i] for the first n flows[i], in the capacities' unit, valid until the
  // next call. Links not crossed by any flow are ignored; a flow that crosses no
  // link gets its cap (0 if none).
  const std::vector<double>& solve(const MaxMinFlow* flows, std::size_t n, const std::vector<double>& capacity);

 private:
  std::vector<double> rate_, left_;
  std::vector<int> users_;  // unfrozen flows on each link
  std::vector<char> frozen_;
};

// The same, once: rates[i] for flows[i].
std::vector<double> max_min_rates(const std::vector<MaxMinFlow>& flows, const std::vector<double>& capacity);

}  // namespace geotrain::sim
