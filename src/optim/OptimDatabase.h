#pragma once
// optim's transition-network database: what an earlier run stored is loaded into the network
// before the endpoints, and everything is written back afterwards with the new stationary points
// characterised (docs/database.md).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "landscape/network/Database.h"
#include "landscape/network/StoredNetwork.h"
#include "landscape/network/TransitionNetwork.h"
#include "landscape/paths/Characterisation.h"
#include "src/optim/OptimSystem.h"

namespace landscape {

/// The database's entries as they entered the network: entry i is network index i (the network is
/// empty before loading), so these keep what the file said about the first minima and states.
struct KnownEntries {
  std::vector<StoredNetworkMinimum> minima;
  std::vector<StoredTransitionState> states;
  /// The file's endpoint sets and growth record, mapped to network indices (minima the run's
  /// tolerances merge appear once), so that a rewrite keeps them.
  std::vector<int> setA, setB;
  GrowthRecord growth;
};

/// Adds the minima and transition states of the database at path to the (empty) network, in the
/// search's coordinates; throws when its units or atom count differ from this run's. Properties
/// computed with other masses than this run's (DatabaseMetadata::hessianMasses: a molecule's
/// database from before optim mass-weighted its Hessians) are dropped, to be computed again. Only the
/// first keepMinima minima and keepStates transition states are loaded (optim --resume: a
/// database saved one cycle after its connect checkpoint holds that cycle's entries at the end).
KnownEntries loadDatabase(const std::string& path, const OptimSystem& system, std::size_t atoms,
                          TransitionNetwork& network, DatabaseMetadata& metadata, bool quiet,
                          std::size_t keepMinima = SIZE_MAX, std::size_t keepStates = SIZE_MAX);

/// Characterises `points` on `potential` (characteriseTogether, or spread over the ranks of a run:
/// src/common/DistributedCharacterisation.h), the properties in the points' order.
using PointCharacteriser = std::function<std::vector<StationaryPointProperties>(
    Potential& potential, const std::vector<std::vector<double>>& points,
    const CharacterisationParams& params)>;

/// Everything in the network as stored records: loaded entries keep what the file said (endpoint
/// sets and growth record included), new ones are characterised now (Hessian up to the size cap,
/// mass-weighted for molecules; point group, moments of inertia), and so are loaded entries that
/// never were (gmin's minima) or whose properties loadDatabase dropped. With rigid bodies the
/// records hold atoms, characterised on the atomistic potential, by `characteriseAll` when given.
StoredTransitionNetwork completeNetwork(const OptimSystem& system, const TransitionNetwork& network,
                                        const KnownEntries& known,
                                        const CharacterisationParams& params,
                                        const PointCharacteriser& characteriseAll = {});

}  // namespace landscape
