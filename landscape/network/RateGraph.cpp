#include "landscape/network/RateGraph.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace landscape {

void RateGraph::check() const {
  if (nodes < 0) throw std::invalid_argument("RateGraph: nodes must be >= 0");
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const RateEdge& e = edges[i];
    if (e.from < 0 || e.from >= nodes || e.to < 0 || e.to >= nodes) {
      throw std::invalid_argument("RateGraph: edge " + std::to_string(i) + " joins nodes " +
                                  std::to_string(e.from) + " and " + std::to_string(e.to) +
                                  ", outside 0.." + std::to_string(nodes - 1));
    }
    // -inf is a zero rate (allowed); +inf and NaN are not rates.
    if (std::isnan(e.logRate) || e.logRate == HUGE_VAL) {
      throw std::invalid_argument("RateGraph: edge " + std::to_string(i) +
                                  " has a log rate that is not a number or +inf");
    }
  }
  if (!logEquilibrium.empty()) {
    if (static_cast<int>(logEquilibrium.size()) != nodes) {
      throw std::invalid_argument("RateGraph: " + std::to_string(logEquilibrium.size()) +
                                  " equilibrium weights for " + std::to_string(nodes) + " nodes");
    }
    for (std::size_t i = 0; i < logEquilibrium.size(); ++i) {
      if (!std::isfinite(logEquilibrium[i])) {
        throw std::invalid_argument("RateGraph: node " + std::to_string(i) +
                                    " has a non-finite log equilibrium weight");
      }
    }
  }
}

}  // namespace landscape
