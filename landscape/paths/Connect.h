#pragma once
// Connect runs (OPTIM's NEWCONNECT with DIJKSTRA; Mantell, Pitt and Wales, J. Chem. Theory
// Comput. 2016, section 2.2): given two minima of a TransitionNetwork, find a chain of minima and
// transition states joining them.
// Each cycle
//   1. runs Dijkstra's algorithm from the start to the finish over the complete graph of the known
//      minima, where a pair joined by a known transition state costs 0, a missing link costs
//      distance^distancePower (the minimum distance of landscape/Alignment), and a pair that
//      already had maxTriesPerPair DNEB attempts is excluded, so that a failing pair is not picked
//      forever;
//   2. for every missing link on that shortest path: runs DNEB between the two minima (the very
//      first run with firstImages / firstIterations, OPTIM's NEWNEB line; later runs scaled with
//      the distance by DnebParams), refines every band maximum with hybrid eigenvector-following
//      (from the band tangent), descends from each new transition state to the two minima it
//      connects, and adds what is new to the network;
// and the run stops when the endpoints are connected, when no untried pair is left on any path,
// or after maxCycles cycles.
//
// Batched engines (ConnectBatching, docs/batched.md): the DNEB bands' images evaluated together,
// and the descents of all new transition states of one band minimised together (their searches
// first, then every side in one batch, then the network updated candidate by candidate as before),
// and with ConcurrentSearches the searches, and a cycle's bands, side by side (computed ahead,
// taken in order). With per-structure CPU engines (PerStructureBatchedPotential, ParallelLbfgs,
// SharedBatchedPotential over CPU potentials) the run adds the same minima and transition states
// in the same order as without them, bit for bit.
#include <functional>
#include <string>
#include <vector>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/network/TransitionNetwork.h"
#include "landscape/paths/ConcurrentSearches.h"
#include "landscape/paths/Dneb.h"
#include "landscape/paths/HybridEigenvectorFollowing.h"
#include "landscape/paths/TransitionStateDescent.h"
#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"

namespace landscape {

class BatchedAlignment;

struct ConnectParams {
  int maxCycles = 100;         ///< connect cycles (OPTIM's NEWCONNECT NConMax)
  int maxTriesPerPair = 1;     ///< DNEB attempts per pair of minima (NTriesMax)
  double distancePower = 1.0;  ///< Dijkstra cost of a missing link: distance^power (DIJKSTRA n)
  int firstImages = 50;        ///< images of the first DNEB run (NEWNEB); 0 = scaled as later runs
  int firstIterations = 500;   ///< iterations of the first DNEB run (NEWNEB); 0 = scaled
  DnebParams dneb;             ///< later runs: OPTIM's image/iteration densities 20/20, cap 30
  HybridEigenvectorFollowingParams transitionStateSearch;
  TransitionStateDescentParams descent;

  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

enum class ConnectStatus {
  Connected,    ///< a chain of transition states joins the endpoints
  MaxCycles,    ///< cycle cap reached
  NoPairsLeft,  ///< every path from start to finish uses a pair already tried maxTriesPerPair times
  /// A stop was requested (landscape/core/StopRequest.h) during cycle `cycles`: what that cycle
  /// added to the network is not part of the last ConnectProgress, which a resume continues.
  Stopped,
};
std::string connectStatusName(ConnectStatus status);

/// Start of a cycle: the missing links on Dijkstra's shortest path (OPTIM's "decide>" lines).
struct ConnectCycle {
  int cycle;  ///< 1-based
  std::size_t minima;
  std::size_t transitionStates;
  double pathWeight;                              ///< sum of the missing links' costs
  std::vector<std::pair<int, int>> missingLinks;  ///< minima indices, in path order
  std::vector<double> distances;                  ///< of each missing link
};

/// One DNEB attempt and what it yielded (OPTIM's "tryconnect>" and "Path run" lines).
struct ConnectAttempt {
  int cycle;
  int from, to;  ///< minima indices
  double distance;
  int images, iterationLimit, iterations;
  double dnebRms;
  int candidates;           ///< band maxima refined by hybrid EF
  int convergedSearches;    ///< of those, converged to a transition state
  int newTransitionStates;  ///< added to the network
  int newMinima;            ///< added to the network
};

/// Everything a connect run carries from one cycle to the next besides the network itself, so
/// that a run saved after a cycle (network and progress) continues exactly as if never stopped.
struct ConnectProgress {
  int cycles = 0;  ///< cycles completed
  int dnebRuns = 0;
  int transitionStateSearches = 0;
  long gradientCalls = 0;
  /// DNEB attempts per pair of minima, row-major triesSize x triesSize (triesSize <= the network's
  /// minima; pairs beyond it have no attempts yet).
  std::size_t triesSize = 0;
  std::vector<int> tries;
};

struct ConnectObserver {
  std::function<void(const ConnectCycle&)> onCycle;
  std::function<void(const ConnectAttempt&)> onAttempt;
  /// After every completed cycle that did not connect the endpoints yet or did (not after a
  /// stopped one): the network and this progress are what a resume needs.
  std::function<void(const ConnectProgress&)> onCycleEnd;
};

/// Batched engines of a connect run, each optional (null: one structure at a time, as before); not
/// owned, of the potential's dimension.
struct ConnectBatching {
  /// Evaluates the interior images of every DNEB band evaluation as one batch.
  BatchedPotential* images = nullptr;
  /// Minimises both sides of every transition state of a band that needs a descent as one batch;
  /// its parameters should be descent.minimiser's. Used when a band has any candidate. Its calls
  /// count in gradientCalls, including a side descended from a transition state that an earlier
  /// candidate of the same band added first (then left out, as before).
  BatchedMinimiser* descents = nullptr;
  /// With descents: runs the hybrid EF searches of a band's candidates side by side, and when a
  /// cycle has several missing links, every link's DNEB band with its searches side by side
  /// before the links are taken in order (each depends on its band, or its two minima, only, so
  /// the network is the one of one search after the other; the links after the one that
  /// connects the endpoints are computed for nothing).
  ConcurrentSearches* searches = nullptr;
  /// Relaxes every DNEB band whole (landscape/paths/DnebBands.h: on the GPU a block per band)
  /// instead of through images; with searches, each search engine's own bands are used.
  DnebBands* bands = nullptr;
  /// Runs every hybrid EF search whole (landscape/paths/TransitionStateSearches.h: on the GPU a
  /// block per search), a band's candidates in one call, instead of through the potential; with
  /// searches, each search engine's own are used. The transition states agree with the host
  /// search's to round-off.
  TransitionStateSearches* transitionStates = nullptr;
  /// Before each cycle's Dijkstra, the distances the run's network lacks between its minima (the
  /// pairs not joined and not tried enough) in one call of this batched alignment (clusters:
  /// landscape/geometry/BatchedAlignment.h; on the GPU a block per pair) instead of one at a
  /// time on the run's thread as the Dijkstra asks; the same distances to round-off.
  BatchedAlignment* alignments = nullptr;
};

struct ConnectResult {
  ConnectStatus status = ConnectStatus::MaxCycles;
  int cycles = 0;
  int dnebRuns = 0;
  int transitionStateSearches = 0;
  long gradientCalls = 0;      ///< DNEB, hybrid EF and descent together
  std::vector<PathStep> path;  ///< from start to finish when connected
  bool connected() const { return status == ConnectStatus::Connected; }
};

class Connect {
 public:
  /// Throws std::invalid_argument if params.check() fails.
  explicit Connect(const ConnectParams& params);
  const ConnectParams& params() const { return m_params; }

  /// Connects minima `start` and `finish` of `network` (indices), adding every minimum and
  /// transition state found to it. Throws std::invalid_argument for unknown indices.
  ConnectResult connect(Potential& potential, TransitionNetwork& network, int start, int finish,
                        const ConnectObserver& observer = {},
                        const ConnectBatching& batching = {}) const;
  /// Continues a run saved after a cycle: `network` as it was then (same indices), `progress` as
  /// onCycleEnd reported it. Throws std::invalid_argument when the progress does not fit.
  ConnectResult resume(Potential& potential, TransitionNetwork& network, int start, int finish,
                       const ConnectProgress& progress, const ConnectObserver& observer = {},
                       const ConnectBatching& batching = {}) const;

  /// The Dijkstra step alone: the shortest path from start to finish under the costs above, as a
  /// list of minima (start first); empty when every path is excluded. `tries` counts the DNEB
  /// attempts per pair (row-major, network.minima().size() squared).
  std::vector<int> shortestPath(const TransitionNetwork& network, int start, int finish,
                                const std::vector<int>& tries) const;

 private:
  /// Throws std::invalid_argument for unknown endpoint indices or a network of another dimension.
  void checkEndpoints(const Potential& potential, const TransitionNetwork& network, int start,
                      int finish) const;

  ConnectParams m_params;
};

}  // namespace landscape
