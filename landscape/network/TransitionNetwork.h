#pragma once
// The in-memory transition network of a connect run: the minima and transition states found so
// far, each transition state with the two minima it connects (PATHSAMPLE's min.data / ts.data
// rows, without the Hessian-derived columns). Two stationary points are the same when their
// energies differ by less than energyTolerance (OPTIM's EDIFFTOL) and their minimum distance is
// below geometryTolerance (GEOMDIFFTOL); the distance is the one of landscape/Alignment (over
// translation, rotation, permutation and, optionally, inversion), or the plain Euclidean distance
// for coordinates that are not Cartesian 3N (model surfaces).
//
// This is the state the HDF5 database will persist (/minima plus /transition_states, see
// docs/database.md); a later run loads it and extends it.
#include <functional>
#include <utility>
#include <vector>

#include "landscape/core/ThreadPool.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/geometry/BatchedAlignment.h"
#include "landscape/network/EnergyWindowIndex.h"
#include "landscape/network/MinimumDistanceCache.h"

namespace landscape {

struct TransitionNetworkParams {
  double energyTolerance = 1e-6;   ///< same energy when |E1 - E2| < this (energy; EDIFFTOL)
  double geometryTolerance = 0.2;  ///< same structure when the distance is < this (length)
  /// Minimum distance over rigid-body motions and permutations (needs 3N coordinates); false =
  /// Euclidean distance of the coordinates as given.
  bool alignStructures = true;
  AlignmentParams alignment;  ///< permutations and inversion allowed by default (LJ clusters)
  /// When set, coordinates are mapped to 3N Cartesians before every distance (rigid bodies: the
  /// atoms of rigid coordinates), so that alignment sees atoms; empty = coordinates as given.
  std::function<std::vector<double>(const std::vector<double>&)> toCartesian;

  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

struct NetworkMinimum {
  double energy = 0.0;
  std::vector<double> coordinates;
};

struct NetworkTransitionState {
  double energy = 0.0;
  std::vector<double> coordinates;
  double eigenvalue = 0.0;  ///< the negative Hessian eigenvalue (energy/length^2)
  int plusMinimum = -1;     ///< index into minima() reached along +eigenvector
  int minusMinimum = -1;    ///< ... and along -eigenvector
};

/// One step of a path: from minimum `from` over transition state `transitionState` to `to`.
struct PathStep {
  int from;
  int transitionState;
  int to;
};

class TransitionNetwork {
 public:
  /// Throws std::invalid_argument if params.check() fails.
  explicit TransitionNetwork(const TransitionNetworkParams& params = {});
  const TransitionNetworkParams& params() const { return m_params; }

  struct Added {
    int index;  ///< of the new entry, or of the existing one it duplicates
    bool isNew;
  };
  /// What a lookup made ahead found among the network's first `held` entries of its kind (`found`:
  /// the first equal one, or -1): with it, an add compares only the entries added since. A merge
  /// makes its lookups ahead on many threads, then adds in order (landscape/paths/ConnectJobs.h).
  struct EarlierLookup {
    int found = -1;
    int held = 0;
  };
  /// Adds a minimum unless an equal one (energy and geometry) is known. All coordinate vectors
  /// must have the size of the first one added (throws std::invalid_argument otherwise).
  Added addMinimum(std::vector<double> coordinates, double energy,
                   const EarlierLookup* earlier = nullptr);
  /// Adds a transition state between two known minima unless an equal one is known.
  Added addTransitionState(std::vector<double> coordinates, double energy, double eigenvalue,
                           int plusMinimum, int minusMinimum,
                           const EarlierLookup* earlier = nullptr);
  /// Index of the first known minimum / transition state equal to the given one, or -1.
  int findMinimum(const std::vector<double>& coordinates, double energy) const;
  int findTransitionState(const std::vector<double>& coordinates, double energy) const;
  /// The lookup of findMinimum / findTransitionState as an EarlierLookup of the network as it is.
  EarlierLookup lookUpMinimum(const std::vector<double>& coordinates, double energy) const;
  EarlierLookup lookUpTransitionState(const std::vector<double>& coordinates, double energy) const;

  const std::vector<NetworkMinimum>& minima() const { return m_minima; }
  const std::vector<NetworkTransitionState>& transitionStates() const { return m_transitionStates; }

  /// Distance between minima a and b (cached; the alignment's when alignStructures).
  double distance(int a, int b) const;
  /// How many distances are known (computed once, kept for the rest of the run).
  std::size_t knownDistances() const { return m_distances.size(); }
  /// distance() of each of `pairs` not known yet, computed together on `pool`'s threads (each a
  /// function of its two structures alone, so every later distance() is what it would have been).
  /// `stop`, when given, is asked before each; returns false when it said stop (the distances
  /// finished by then are kept).
  bool precomputeDistances(const std::vector<std::pair<int, int>>& pairs, ThreadPool& pool,
                           const std::function<bool()>& stop = {}) const;
  /// The same with `alignment` (on the GPU a block per pair; the same search as alignStructures
  /// to round-off: landscape/geometry/BatchedAlignment.h), in calls of up to 2,048 pairs, `stop`
  /// asked before each call. For a network that aligns its structures as a cluster's of the
  /// alignment's atoms (alignStructures, no toCartesian, no permutation groups or box); throws
  /// std::invalid_argument otherwise. A distance precomputed so may differ from the one
  /// distance() would compute by round-off: a run must choose one way for good.
  bool precomputeDistances(const std::vector<std::pair<int, int>>& pairs,
                           BatchedAlignment& alignment,
                           const std::function<bool()>& stop = {}) const;
  /// Whether the network aligns its structures as a cluster's (alignStructures, Cartesian
  /// coordinates, no permutation groups or box): what a batched alignment can align.
  bool alignsClusters() const {
    return m_params.alignStructures && !m_params.toCartesian &&
           batchedAlignmentFits(m_params.alignment);
  }
  /// True when a chain of known transition states joins minima a and b.
  bool connected(int a, int b) const;
  /// A path with the fewest transition states from a to b; empty when not connected or a == b.
  std::vector<PathStep> path(int a, int b) const;
  /// True when some transition state joins a and b directly.
  bool directlyConnected(int a, int b) const;

 private:
  double structureDistance(const std::vector<double>& a, const std::vector<double>& b) const;
  // The first of `entries` (minima or transition states) from index `from` on equal to the given
  // one (energy within EDIFFTOL by `energies`, then geometry), or -1.
  template <class Entry>
  int findFrom(const std::vector<Entry>& entries, const EnergyWindowIndex& energies,
               const std::vector<double>& coordinates, double energy, int from) const;

  void checkMinimum(int index, const char* what) const;
  // The pairs of `pairs` whose distance is not known yet, as (smaller, larger), sorted, unique.
  std::vector<std::pair<int, int>> missingDistances(
      const std::vector<std::pair<int, int>>& pairs) const;
  TransitionNetworkParams m_params;
  std::vector<NetworkMinimum> m_minima;
  std::vector<NetworkTransitionState> m_transitionStates;
  std::vector<std::vector<std::pair<int, int>>> m_edges;  // per minimum: (neighbour, TS index)
  EnergyWindowIndex m_minimumEnergies;                    // the candidates of findMinimum
  EnergyWindowIndex m_transitionStateEnergies;
  mutable MinimumDistanceCache m_distances;
};

}  // namespace landscape
