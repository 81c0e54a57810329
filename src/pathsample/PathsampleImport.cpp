#include "src/pathsample/PathsampleImport.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "landscape/formats/PathsampleExport.h"
#include "landscape/network/KineticsOnlyDatabase.h"
#include "landscape/network/TransitionNetwork.h"
#include "src/pathsample/PathsampleNetworkSource.h"

namespace landscape {

namespace {

namespace fs = std::filesystem;

DatabaseMetadata importMetadata(const PathsampleConfig& c, std::size_t atoms) {
  DatabaseMetadata metadata;
  metadata.atoms = atoms;
  metadata.energyUnit = usesMolecularUnits(c) ? "kcal/mol" : "reduced (epsilon)";
  metadata.lengthUnit = usesMolecularUnits(c) ? "Angstrom" : "reduced (sigma)";
  // Molecular files follow OPTIM/PATHSAMPLE for AMBER: mass-weighted, frequencies in rad/s.
  metadata.hessianMasses = usesMolecularUnits(c) ? kAtomicMassesAmu : kUnitMasses;
  metadata.potential = "imported from PATHSAMPLE files in " + c.directory;
  metadata.program = "pathsample";
  return metadata;
}

/// Refuses to merge into a database of another system; names what differs.
void requireSameSystem(const PathsampleConfig& c, const DatabaseMetadata& stored,
                       const DatabaseMetadata& imported) {
  auto differ = [&](const std::string& what, const std::string& a, const std::string& b) {
    if (a == b) return;
    throw std::runtime_error(c.database + " holds another system (" + what + " " + a +
                             ", the files of " + c.directory + " " + b +
                             "): import adds to a database of the same system only; give another "
                             "--database (the file is unchanged)");
  };
  differ("atoms", std::to_string(stored.atoms), std::to_string(imported.atoms));
  differ("energy unit", stored.energyUnit, imported.energyUnit);
  differ("length unit", stored.lengthUnit, imported.lengthUnit);
  differ("Hessian masses", stored.hessianMasses, imported.hessianMasses);
}

/// Adds `imported` to `stored` (whose entries keep their places): minima and transition states
/// equal to known ones within --energy-tolerance and --geometry-tolerance (after alignment) are
/// duplicates, as in a connect run's network (TransitionNetwork.h).
StoredTransitionNetwork mergedNetwork(const PathsampleConfig& c, StoredTransitionNetwork stored,
                                      const StoredTransitionNetwork& imported, int& newMinima,
                                      int& newTransitionStates, const ProgressPrinter& print) {
  TransitionNetworkParams params;
  params.energyTolerance = c.energyTolerance;
  params.geometryTolerance = c.geometryTolerance;
  // Clusters: any atom may swap with any other; molecules keep their atom order and chirality.
  params.alignment.permutations = !usesMolecularUnits(c);
  params.alignment.inversion = !usesMolecularUnits(c);
  TransitionNetwork net(params);
  std::vector<int> storedOf;  // network index -> stored index
  auto remember = [&](int networkIndex, int storedIndex) {
    if (networkIndex >= static_cast<int>(storedOf.size())) storedOf.resize(networkIndex + 1, -1);
    if (storedOf[networkIndex] < 0) storedOf[networkIndex] = storedIndex;
  };
  std::vector<int> networkOfStored;
  for (std::size_t i = 0; i < stored.minima.size(); ++i) {
    const TransitionNetwork::Added a =
        net.addMinimum(stored.minima[i].coordinates, stored.minima[i].energy);
    remember(a.index, static_cast<int>(i));
    networkOfStored.push_back(a.index);
  }
  for (const StoredTransitionState& ts : stored.transitionStates)
    net.addTransitionState(ts.coordinates, ts.energy, -1.0, networkOfStored[ts.plusMinimum],
                           networkOfStored[ts.minusMinimum]);
  std::vector<int> networkOfImported, storedOfImported;
  newMinima = newTransitionStates = 0;
  for (const StoredNetworkMinimum& m : imported.minima) {
    const TransitionNetwork::Added a = net.addMinimum(m.coordinates, m.energy);
    if (a.isNew) {
      stored.minima.push_back(m);
      ++newMinima;
    }
    remember(a.index, static_cast<int>(stored.minima.size()) - 1);
    networkOfImported.push_back(a.index);
    storedOfImported.push_back(storedOf[a.index]);
  }
  for (const StoredTransitionState& ts : imported.transitionStates) {
    const TransitionNetwork::Added a =
        net.addTransitionState(ts.coordinates, ts.energy, -1.0, networkOfImported[ts.plusMinimum],
                               networkOfImported[ts.minusMinimum]);
    if (!a.isNew) continue;
    StoredTransitionState added = ts;
    added.plusMinimum = storedOfImported[ts.plusMinimum];
    added.minusMinimum = storedOfImported[ts.minusMinimum];
    stored.transitionStates.push_back(std::move(added));
    ++newTransitionStates;
  }
  auto mapped = [&](const std::vector<int>& set) {
    std::vector<int> out;
    for (int m : set) out.push_back(storedOfImported[m]);
    std::sort(out.begin(), out.end());
    return out;
  };
  if (!imported.setA.empty()) {
    if (stored.setA.empty() && stored.setB.empty()) {
      stored.setA = mapped(imported.setA);
      stored.setB = mapped(imported.setB);
    } else {
      std::vector<int> a = stored.setA, b = stored.setB;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      if (a != mapped(imported.setA) || b != mapped(imported.setB))
        print("pathsample: note: the endpoint sets of " + c.database +
              " are kept; min.A and min.B of " + c.directory + " name other minima");
    }
  }
  return stored;
}

// OPTIM's path.info as PATHSAMPLE's STARTFROMPATH and ADDPATH read it: the triples' minima with
// duplicates merged (first appearance kept, in order), A and B the --path-set-a/-b-th of them.
StoredTransitionNetwork pathInfoNetwork(const PathsampleConfig& c, const DatabaseMetadata& metadata,
                                        const ProgressPrinter& print) {
  const StoredTransitionNetwork listed =
      networkFromPathInfo(readPathInfo(c.pathInfoFile, metadata.atoms), c.pathInfoFile,
                          pathsampleFrequencyConversion(metadata));
  int newMinima = 0, newTs = 0;
  StoredTransitionNetwork network =
      mergedNetwork(c, StoredTransitionNetwork{}, listed, newMinima, newTs, print);
  const int minima = static_cast<int>(network.minima.size());
  for (const auto& [m, name] : {std::pair<int, const char*>{c.pathInfoSetA, "--path-set-a"},
                                std::pair<int, const char*>{c.pathInfoSetB, "--path-set-b"}})
    if (m > minima)
      throw std::runtime_error(c.pathInfoFile + " has " + std::to_string(minima) +
                               " distinct minima: " + name + " (STARTFROMPATH) " +
                               std::to_string(m) + " is not one of them");
  if ((c.pathInfoSetA > 0) != (c.pathInfoSetB > 0))
    throw std::runtime_error("--path-set-a and --path-set-b (STARTFROMPATH m1 m2) go together");
  if (c.pathInfoSetA > 0 && c.pathInfoSetA == c.pathInfoSetB)
    throw std::runtime_error(c.pathInfoFile + ": minimum " + std::to_string(c.pathInfoSetA) +
                             " cannot be both A and B (STARTFROMPATH m1 m2)");
  if (c.pathInfoSetA > 0) {
    network.setA = {c.pathInfoSetA - 1};
    network.setB = {c.pathInfoSetB - 1};
  }
  return network;
}

}  // namespace

void importDatabase(const PathsampleConfig& c, const ProgressPrinter& print) {
  StoredTransitionNetwork network;
  DatabaseMetadata metadata;
  std::string source = c.directory;
  if (!c.pathInfoFile.empty()) {
    const std::size_t atoms = c.atoms > 0 ? c.atoms : c.pathdataAtoms;
    if (atoms == 0)
      throw std::runtime_error("--path-info " + c.pathInfoFile +
                               ": give the number of atoms (--atoms N, or NATOMS in pathdata)");
    metadata = importMetadata(c, atoms);
    metadata.potential = "imported from OPTIM's " + c.pathInfoFile;
    network = pathInfoNetwork(c, metadata, print);
    source = c.pathInfoFile;
  } else if (c.noPoints) {
    // PATHSAMPLE's NOPOINTS: kinetics only, no coordinates (docs/database.md).
    network = readKineticsFiles(c.directory, false);
    metadata = importMetadata(c, 0);
  } else {
    const std::size_t atoms = pathsampleAtomCount(c.directory);
    checkPathdataAtoms(c, atoms, (fs::path(c.directory) / "points.min").string());
    metadata = importMetadata(c, atoms);
    network = readPathsampleFiles(c.directory, atoms, pathsampleFrequencyConversion(metadata));
  }
  if (!network.setA.empty()) {
    KineticsNetwork k{network, c.directory, "min.A and min.B of " + c.directory, 1.0};
    checkEndpointSets(k);
  }
  const std::string what = std::to_string(network.minima.size()) + " minima, " +
                           std::to_string(network.transitionStates.size()) +
                           " transition states, " +
                           (c.noPoints ? std::string("no coordinates (kinetics only)")
                                       : std::to_string(metadata.atoms) + " atoms") +
                           ", sets A/B of " + std::to_string(network.setA.size()) + "/" +
                           std::to_string(network.setB.size()) + " minima from " + source;
  if (!fs::exists(c.database)) {
    writeNetworkOfEitherKind(c.database, metadata, network);
    print("pathsample: imported " + what + " into " + c.database);
    return;
  }
  // An existing database is extended, never replaced.
  DatabaseMetadata storedMetadata;
  StoredTransitionNetwork stored = readNetworkOfEitherKind(c.database, &storedMetadata);
  if (storedMetadata.atoms == 0 || metadata.atoms == 0)
    throw std::runtime_error(
        c.database + " exists and " +
        (metadata.atoms == 0 ? std::string("the imported network has no coordinates")
                             : std::string("holds a network without coordinates")) +
        ": duplicates cannot be recognised without structures, so import does not add to it; "
        "give another --database (the file is unchanged)");
  requireSameSystem(c, storedMetadata, metadata);
  const std::size_t before = stored.minima.size(), beforeTs = stored.transitionStates.size();
  int newMinima = 0, newTs = 0;
  StoredTransitionNetwork merged =
      mergedNetwork(c, std::move(stored), network, newMinima, newTs, print);
  writeNetworkOfEitherKind(c.database, storedMetadata, merged);
  print("pathsample: imported " + what + " into " + c.database + ", which held " +
        std::to_string(before) + " minima and " + std::to_string(beforeTs) +
        " transition states: " + std::to_string(newMinima) + " minima and " +
        std::to_string(newTs) + " transition states are new, " +
        std::to_string(network.minima.size() - newMinima) + " and " +
        std::to_string(network.transitionStates.size() - newTs) + " were known; now " +
        std::to_string(merged.minima.size()) + " minima, " +
        std::to_string(merged.transitionStates.size()) + " transition states");
}

void exportDatabase(const PathsampleConfig& c, const ProgressPrinter& print) {
  DatabaseMetadata metadata;
  const StoredTransitionNetwork network = readNetworkOfEitherKind(c.database, &metadata);
  if (metadata.atoms == 0)
    writePathsampleKineticsFiles(c.directory, network);
  else
    writePathsampleFiles(c.directory, network, pathsampleFrequencyConversion(metadata));
  print("pathsample: exported " + std::to_string(network.minima.size()) + " minima and " +
        std::to_string(network.transitionStates.size()) + " transition states of " + c.database +
        " to " + c.directory + (metadata.atoms == 0 ? " (kinetics only: no points files)" : ""));
}

}  // namespace landscape
