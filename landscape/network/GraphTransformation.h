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
//   subtraction (Sharpe and Wales, Phil. Trans. R. Soc. A (2023)). Every branching probability,
//   waiting time, rate and committor is kept as its natural logarithm and sums are log-sum-exp,
//   so nothing underflows or overflows however many orders of magnitude the rates span (low
//   temperatures, high barriers): the results are accurate to rounding in their logarithms.
//   After every intermediate minimum is gone:
//     kNSS(A<-B) = sum_b (p_b/p_B) P_A(b) / tau'_b   (tau'_b: renormalised waiting time)
//     kSS(A<-B)  = sum_b (p_b/p_B) P_A(b) / tau_b    (tau_b: the original waiting time)
//     k(A<-B)    = sum_b (p_b/p_B) / T_A(b)          (T_A(b): mean first-passage time b -> A, from
//                                                     removing the other minima of B too)
//   with P_A(b) the probability of reaching A before returning to B, p the equilibrium occupation
//   probabilities of the graph's nodes and p_B their sum over B. Committors come from the removed
//   minima's branching probabilities in reverse order of removal.
//
// The log fields (logK, ...) always hold the answer. The linear ones are their exponentials and
// are 0 or +inf where the value is outside double precision's range (e.g. LJ38 at kT = 0.005:
// ln k(A<-B) = -887); SetToSetRates::representable() says whether they can be used, and a caller
// that prints rates prints the logarithm where they cannot (docs/pathsample.md).
//
// Minima without connections, and minima not connected to both A and B, are left out (as
// PATHSAMPLE does); their committor is NaN. Degenerate rearrangements (self edges) are ignored.
#include <cmath>
#include <vector>

#include "landscape/network/RateGraph.h"

namespace landscape {

/// Rate constants in one direction, in the rate graph's inverse time unit. Each linear value is
/// exp of its log field: 0 when it underflows, +inf when it overflows double precision.
struct SetToSetRates {
  double k = 0.0;     ///< k: inverse mean first-passage times, equilibrium-weighted over the source
  double kSS = 0.0;   ///< steady-state rate constant
  double kNSS = 0.0;  ///< non-steady-state rate constant
  /// Equilibrium-weighted mean first-passage time from the source set to the target set (time
  /// unit); +inf when no source minimum is connected.
  double meanFirstPassageTime = 0.0;
  double logK = -HUGE_VAL;                    ///< ln k (finite whenever A and B are connected)
  double logKSS = -HUGE_VAL;                  ///< ln kSS
  double logKNSS = -HUGE_VAL;                 ///< ln kNSS
  double logMeanFirstPassageTime = HUGE_VAL;  ///< ln of meanFirstPassageTime

  /// True when k, kSS, kNSS and the mean first-passage time are all normal doubles (between
  /// DBL_MIN and DBL_MAX), i.e. the linear fields carry full precision; otherwise only the log
  /// fields do.
  bool representable() const;
  /// The same rates in another unit: rates x rateFactor (> 0) and the time / rateFactor, shifted
  /// in the logarithms and the linear fields formed from them again (molecules: s^-1).
  SetToSetRates inUnits(double rateFactor) const;
};

struct GraphTransformationResult {
  SetToSetRates aFromB;  ///< PATHSAMPLE's k(A<-B): from B to A
  SetToSetRates bFromA;  ///< k(B<-A)
  double logOccupationA = 0.0;  ///< ln p_A (unnormalised, same reference as the graph's weights)
  double logOccupationB = 0.0;  ///< ln p_B
  /// Per node: probability that a trajectory from it reaches A before B (1 on A, 0 on B); NaN for
  /// nodes left out.
  std::vector<double> committorA;
  /// Per node: probability of reaching B before A (0 on A, 1 on B), computed on its own rather
  /// than as 1 - committorA so that values near 0 keep their digits; NaN for nodes left out.
  std::vector<double> committorB;
  /// Per node of A: the probability that a trajectory leaving it reaches B before returning to A
  /// (PATHSAMPLE's C_{Ba} or P_{Ba}); per node of B: reaching A before returning to B (P_{Ab}).
  /// NaN for intermediate minima and nodes left out. PATHSAMPLE's commit.ngt.AB holds 1 - P_{Ba}
  /// on A and P_{Ab} on B, commit.ngt.BA the complements (0 on intermediate minima).
  std::vector<double> otherSetBeforeReturn;
  int connectedNodes = 0;  ///< nodes kept (connected to both sets)

  /// PATHSAMPLE's detailed-balance ratios k(A<-B) p_B / (k(B<-A) p_A), formed from the log
  /// fields; 1 for kSS exactly, for k and kNSS only when the sets equilibrate internally.
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
