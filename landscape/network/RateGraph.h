#pragma once
// A continuous-time Markov chain between minima: the input of the graph transformation (NGT) and
// of its dense cross-check. Rates are kept as natural logarithms so that networks whose rates span
// hundreds of orders of magnitude (low temperatures, high barriers) neither overflow nor lose the
// small rates; each node carries the log of its unnormalised equilibrium occupation probability.
#include <vector>

namespace landscape {

struct RateEdge {
  int from = 0;          ///< node index (0-based)
  int to = 0;            ///< node index; from == to is a degenerate rearrangement (ignored)
  double logRate = 0.0;  ///< ln k(from -> to), rate in the network's time unit (inverse)
};

struct RateGraph {
  int nodes = 0;
  /// Several edges between one ordered pair add their rates (several transition states).
  std::vector<RateEdge> edges;
  /// ln of the unnormalised equilibrium probability of each node; empty = all equal (pele's
  /// convention for a bare rate map). Used to weight the nodes of A and B in rate constants.
  std::vector<double> logEquilibrium;

  /// Throws std::invalid_argument naming the first bad edge or weight (index out of range,
  /// non-finite log rate, wrong number of weights).
  void check() const;
};

}  // namespace landscape
