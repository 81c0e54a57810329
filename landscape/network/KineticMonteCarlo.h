#pragma once
// First-passage times between two sets of minima by kinetic Monte Carlo on a rate graph, as
// PATHSAMPLE's KMC keyword samples them without leapfrog moves (its pairthresh 1.0): a trajectory
// starts in a minimum of the source set B, chosen with probability p_b / p_B (equilibrium
// occupations of the graph), and at each step leaves its minimum x after an exponentially
// distributed waiting time of mean tau_x = 1 / sum_y k(x -> y), to y with probability
// k(x -> y) tau_x (Gillespie, J. Comput. Phys. 22, 403 (1976); Bortz, Kalos and Lebowitz,
// J. Comput. Phys. 17, 10 (1975)), until it reaches a minimum of the target set A. The mean of the
// times is the mean first-passage time the graph transformation gives (GraphTransformation.h),
// within the sampling error. Degenerate rearrangements (self edges) are ignored, as the graph
// transformation ignores them.
#include <cstdint>
#include <vector>

#include "landscape/network/RateGraph.h"

namespace landscape {

struct KmcPassage {
  long long steps = 0;  ///< transitions made
  double time = 0.0;    ///< first-passage time, the graph's time unit
};

/// `runs` first passages from B to A (node indices, non-empty, disjoint) with the random stream
/// of `seed` (same inputs, same times). Throws std::invalid_argument for bad sets or a bad graph,
/// std::runtime_error when no minimum of A can be reached from a minimum of B, or when a
/// trajectory makes more than `maxSteps` transitions (a low temperature: the graph transformation
/// gives the mean without sampling).
std::vector<KmcPassage> kmcFirstPassages(const RateGraph& graph, const std::vector<int>& a,
                                         const std::vector<int>& b, int runs, std::uint64_t seed,
                                         long long maxSteps = 1000000000LL);

}  // namespace landscape
