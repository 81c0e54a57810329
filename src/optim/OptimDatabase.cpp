#include "src/optim/OptimDatabase.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "landscape/core/InputChecks.h"
#include "landscape/network/DatabaseCompatibility.h"

namespace landscape {

namespace {

void checkCompatible(const std::string& path, const DatabaseMetadata& metadata, const Units& units,
                     std::size_t atoms, const std::string& potential) {
  if (metadata.energyUnit != units.energy || metadata.lengthUnit != units.length) {
    throw std::runtime_error("database '" + path + "' is in units '" + metadata.energyUnit +
                             "' and '" + metadata.lengthUnit + "', not '" + units.energy +
                             "' and '" + units.length + "' as this run");
  }
  if (metadata.atoms != atoms) {
    throw std::runtime_error("database '" + path + "' holds " + std::to_string(metadata.atoms) +
                             "-atom structures, but the endpoints have " + std::to_string(atoms) +
                             " atoms");
  }
  DatabaseMetadata run = metadata;
  run.potential = potential;
  const std::string different = databaseIncompatibility(metadata, run);
  if (!different.empty())
    throw std::runtime_error("database '" + path + "' is another system's: " + different);
}

// A structure a search starts from is at most kMaxInputCoordinate in magnitude, as one the user
// gives (docs/reliability.md): beyond it the file is damaged, and squared distances would overflow
// in the alignment of the network's duplicate check.
void requireSearchableCoordinates(const std::string& path, const StoredTransitionNetwork& stored) {
  auto check = [&](const std::vector<double>& x, const std::string& what) {
    for (std::size_t k = 0; k < x.size(); ++k)
      if (std::abs(x[k]) > kMaxInputCoordinate) {
        char value[64];
        std::snprintf(value, sizeof value, "%.6g, beyond the %g", x[k], kMaxInputCoordinate);
        throw std::runtime_error("database '" + path + "': " + what + " has coordinate " +
                                 std::to_string(k + 1) + " = " + value +
                                 " length units of any structure (a damaged file?)");
      }
  };
  for (std::size_t i = 0; i < stored.minima.size(); ++i)
    check(stored.minima[i].coordinates, "minimum " + std::to_string(i + 1));
  for (std::size_t t = 0; t < stored.transitionStates.size(); ++t)
    check(stored.transitionStates[t].coordinates, "transition state " + std::to_string(t + 1));
}

// Every entry of the file that names a minimum must name one of the first `kept` (the network
// this run's connect checkpoint saw): a database replaced since then (another run's, or one grown
// by pathsample) is refused rather than read through an index cut to that count.
void requireWithinKept(const std::string& path, const StoredTransitionNetwork& stored,
                       std::size_t kept) {
  auto beyond = [kept](int row) { return row < 0 || static_cast<std::size_t>(row) >= kept; };
  auto refuse = [&](const std::string& what, int row) {
    throw std::runtime_error(
        "database '" + path + "': " + what + " names minimum " + std::to_string(row + 1) +
        ", but the connect checkpoint of this run saved a network of " + std::to_string(kept) +
        " minima: the database was replaced after the checkpoint (not the network this run "
        "saved); resume with the database it wrote, or start a new run with --database");
  };
  for (std::size_t i = 0; i < stored.transitionStates.size(); ++i) {
    const StoredTransitionState& ts = stored.transitionStates[i];
    for (int row : {ts.plusMinimum, ts.minusMinimum})
      if (beyond(row)) refuse("transition state " + std::to_string(i + 1), row);
  }
  for (const auto* set : {&stored.setA, &stored.setB})
    for (int row : *set)
      if (beyond(row))
        refuse(std::string("endpoint set ") + (set == &stored.setA ? "A" : "B"), row);
  for (const auto* pairs : {&stored.growth.triedPairs, &stored.growth.pendingPairs})
    for (const std::array<int, 2>& pair : *pairs)
      for (int row : pair)
        if (beyond(row)) refuse("a growth pair", row);
}

// The file holds atoms; a rigid search works on their best-fit rigid coordinates.
std::vector<double> searchCoordinates(const OptimSystem& system, const std::vector<double>& x) {
  return system.rigid ? system.rigid->fromAtoms(x) : x;
}

// Moments of inertia are computed for every characterised point: unknown ones mark a point that
// was never characterised (gmin's minima) or whose properties were dropped below.
bool characterised(const StationaryPointProperties& p) {
  return !std::isnan(p.principalMoments[0]);
}

// Properties computed with other masses than this run's (a database written before optim
// mass-weighted molecules' Hessians) are dropped, so that completeNetwork computes them again.
template <typename Point>
void dropPropertiesOfOtherMasses(std::vector<Point>& points, DatabaseMetadata& metadata,
                                 const OptimSystem& system) {
  if (metadata.hessianMasses == system.hessianMasses()) return;
  for (Point& p : points) p.properties = StationaryPointProperties{};
}

// A set of file rows as network indices, in file order, each once.
std::vector<int> mappedSet(const std::vector<int>& rows, const std::vector<int>& index) {
  std::vector<int> set;
  for (int row : rows) {
    const int m = index[row];
    if (std::find(set.begin(), set.end(), m) == set.end()) set.push_back(m);
  }
  return set;
}

}  // namespace

KnownEntries loadDatabase(const std::string& path, const OptimSystem& system, std::size_t atoms,
                          TransitionNetwork& network, DatabaseMetadata& metadata, bool quiet,
                          std::size_t keepMinima, std::size_t keepStates) {
  KnownEntries known;
  StoredTransitionNetwork stored = TransitionNetworkDatabase::read(path, &metadata);
  checkCompatible(path, metadata, system.units, atoms, system.searched().name());
  dropPropertiesOfOtherMasses(stored.minima, metadata, system);
  dropPropertiesOfOtherMasses(stored.transitionStates, metadata, system);
  metadata.hessianMasses = system.hessianMasses();
  // Entries are appended in the order they were found, so the first ones are an earlier state.
  if (stored.minima.size() > keepMinima) stored.minima.resize(keepMinima);
  if (stored.transitionStates.size() > keepStates) stored.transitionStates.resize(keepStates);
  requireWithinKept(path, stored, stored.minima.size());
  requireSearchableCoordinates(path, stored);
  std::vector<int> index(stored.minima.size());
  for (std::size_t i = 0; i < stored.minima.size(); ++i) {
    TransitionNetwork::Added added{};
    try {  // the alignment refuses what no structure of this system can be (e.g. 1e300 Angstrom)
      added = network.addMinimum(searchCoordinates(system, stored.minima[i].coordinates),
                                 stored.minima[i].energy);
    } catch (const std::exception& e) {
      throw std::runtime_error("database '" + path + "': minimum " + std::to_string(i + 1) +
                               " cannot be compared with the network's minima (a damaged "
                               "file?): " + e.what());
    }
    index[i] = added.index;
    if (added.isNew) known.minima.push_back(stored.minima[i]);
  }
  for (std::size_t t = 0; t < stored.transitionStates.size(); ++t) {
    const StoredTransitionState& ts = stored.transitionStates[t];
    const int plus = index[ts.plusMinimum], minus = index[ts.minusMinimum];
    if (plus == minus) continue;  // its two minima merged under this run's tolerances
    TransitionNetwork::Added added{};
    try {
      added = network.addTransitionState(searchCoordinates(system, ts.coordinates), ts.energy,
                                         ts.eigenvalue, plus, minus);
    } catch (const std::exception& e) {
      throw std::runtime_error("database '" + path + "': transition state " +
                               std::to_string(t + 1) +
                               " cannot be compared with the network's transition states (a "
                               "damaged file?): " + e.what());
    }
    if (added.isNew) {
      known.states.push_back(ts);
      known.states.back().plusMinimum = plus;
      known.states.back().minusMinimum = minus;
    }
  }
  known.setA = mappedSet(stored.setA, index);
  known.setB = mappedSet(stored.setB, index);
  known.growth = stored.growth;
  for (auto* pairs : {&known.growth.triedPairs, &known.growth.pendingPairs})
    for (std::array<int, 2>& pair : *pairs) pair = {index[pair[0]], index[pair[1]]};
  if (!quiet) {
    std::printf(
        " database> '%s': %zu minima and %zu transition states loaded (%zu and %zu "
        "distinct under EDIFFTOL/GEOMDIFFTOL)\n",
        path.c_str(), stored.minima.size(), stored.transitionStates.size(), network.minima().size(),
        network.transitionStates().size());
  }
  return known;
}

StoredTransitionNetwork completeNetwork(const OptimSystem& system, const TransitionNetwork& network,
                                        const KnownEntries& known,
                                        const CharacterisationParams& params,
                                        const PointCharacteriser& characteriseAll) {
  Potential& potential = system.characterisation();
  StoredTransitionNetwork out;
  out.setA = known.setA;
  out.setB = known.setB;
  out.growth = known.growth;
  // Loaded entries keep what the file said; those never characterised (or dropped by
  // loadDatabase), and the new ones, get their properties now, all together
  // (characteriseTogether: their Hessians share batched calls where the backend has them).
  std::vector<StationaryPointProperties*> pending;
  std::vector<std::vector<double>> points;
  for (std::size_t i = 0; i < network.minima().size(); ++i) {
    if (i < known.minima.size()) {
      out.minima.push_back(known.minima[i]);
    } else {
      StoredNetworkMinimum m;
      m.energy = network.minima()[i].energy;
      m.coordinates = system.atoms(network.minima()[i].coordinates);
      out.minima.push_back(std::move(m));
    }
  }
  for (std::size_t i = 0; i < network.transitionStates().size(); ++i) {
    if (i < known.states.size()) {
      out.transitionStates.push_back(known.states[i]);
      continue;
    }
    const NetworkTransitionState& t = network.transitionStates()[i];
    StoredTransitionState ts;
    ts.energy = t.energy;
    ts.coordinates = system.atoms(t.coordinates);
    ts.plusMinimum = t.plusMinimum;
    ts.minusMinimum = t.minusMinimum;
    ts.eigenvalue = t.eigenvalue;
    out.transitionStates.push_back(std::move(ts));
  }
  for (std::size_t i = 0; i < out.minima.size(); ++i)
    if (i >= known.minima.size() || !characterised(out.minima[i].properties)) {
      pending.push_back(&out.minima[i].properties);
      points.push_back(out.minima[i].coordinates);
    }
  for (std::size_t i = 0; i < out.transitionStates.size(); ++i)
    if (i >= known.states.size() || !characterised(out.transitionStates[i].properties)) {
      pending.push_back(&out.transitionStates[i].properties);
      points.push_back(out.transitionStates[i].coordinates);
    }
  std::vector<StationaryPointProperties> found =
      characteriseAll ? characteriseAll(potential, points, params)
                      : characteriseTogether(potential, points, params);
  if (found.size() != points.size())
    throw std::logic_error("characterisation returned " + std::to_string(found.size()) +
                           " results for " + std::to_string(points.size()) + " points");
  for (std::size_t k = 0; k < pending.size(); ++k) *pending[k] = std::move(found[k]);
  return out;
}

}  // namespace landscape
