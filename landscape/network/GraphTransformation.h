#pragma once
// Rate constants between two sets of minima by the graph transformation (Trygubenko and Wales,
// J. Chem. Phys. 124, 234110 (2006); the NGT variant with return to the starting minimum, Wales,
// J. Chem. Phys. 130, 204111 (2009)), as PATHSAMPLE's NGT keyword computes them
// (docs/pathsample.md):
//
//   Each minimum x has a waiting time tau_x = 1 / sum_y k(x -> y) and branching probabilities
//   P(x -> y) = k(x -> y) tau_x. Removing a minimum x renormalises its neighbours b and g:
//     P(b -> g) += P(b -> x) P(x -> g) / (1 - P(x -> x)),   tau_b += P(b -> x) tau_x / (1 - P(x -> x))
//   where 1 - P(x -> x) is formed as the sum of x's other branching probabilities, never by a
//   subtraction, so that networks whose rates span many orders of magnitude stay accurate
//   (Sharpe and Wales, Phil. Trans. R. Soc. A (2023)). After every intermediate minimum is gone:
//     kNSS(A<-B) = sum_b (p_b/p_B) P_A(b) / tau'_b   (tau'_b: renormalised waiting time)
//     kSS(A<-B)  = sum_b (p_b/p_B) P_A(b) / tau_b    (tau_b: the original waiting time)
//     k(A<-B)    = sum_b (p_b/p_B) / T_A(b)          (T_A(b): mean first-passage time b -> A, from
//                                                     removing the other minima of B too)
//   with P_A(b) the probability of reaching A before returning to B, p the equilibrium occupation
//   probabilities of the graph's nodes and p_B their sum over B. Committors come from the removed
//   minima's branching probabilities in reverse order of removal.
//
// Minima without connections, and minima not connected to both A and B, are left out (as
// PATHSAMPLE does); their committor is NaN. Degenerate rearrangements (self edges) are ignored.
#include <vector>

#include "landscape/network/RateGraph.h"

namespace landscape {

/// Rate constants in one direction, in the rate graph's inverse time unit.
struct SetToSetRates {
  double k = 0.0;     ///< k: inverse mean first-passage times, equilibrium-weighted over the source
  double kSS = 0.0;   ///< steady-state rate constant
  double kNSS = 0.0;  ///< non-steady-state rate constant
  /// Equilibrium-weighted mean first-passage time from the source set to the target set (time
  /// unit); +inf when no source minimum is connected.
  double meanFirstPassageTime = 0.0;
};

struct GraphTransformationResult {
  SetToSetRates aFromB;  ///< PATHSAMPLE's k(A<-B): from B to A
  SetToSetRates bFromA;  ///< k(B<-A)
  double logOccupationA = 0.0;  ///< ln p_A (unnormalised, same reference as the graph's weights)
  double logOccupationB = 0.0;  ///< ln p_B
  /// Per node: probability that a trajectory from it reaches A before B (1 on A, 0 on B); NaN for
  /// nodes left out.
  std::vector<double> committorA;
  int connectedNodes = 0;  ///< nodes kept (connected to both sets)

  /// PATHSAMPLE's detailed-balance ratios k(A<-B) p_B / (k(B<-A) p_A); 1 when detailed balance
  /// holds (exactly for k, kNSS; kSS only in the steady-state limit).
  double detailedBalanceK() const;
  double detailedBalanceKSS() const;
  double detailedBalanceKNSS() const;
};

/// Rates between sets A and B (node indices; non-empty, disjoint, in range) of `graph`. Throws
/// std::invalid_argument for bad sets or a bad graph (RateGraph::check), std::runtime_error when
/// no minimum of A is connected to one of B.
GraphTransformationResult graphTransformationRates(const RateGraph& graph,
                                                   const std::vector<int>& a,
                                                   const std::vector<int>& b);

}  // namespace landscape
