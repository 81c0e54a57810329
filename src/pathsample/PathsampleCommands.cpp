#include "src/pathsample/PathsampleCommands.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "landscape/formats/AtomicFile.h"
#include "landscape/formats/PathsampleExport.h"
#include "landscape/formats/PathsampleKineticsFiles.h"
#include "landscape/network/Database.h"
#include "landscape/network/FreeEnergyGroups.h"
#include "landscape/network/GraphTransformation.h"
#include "landscape/network/GroupRateGraph.h"
#include "landscape/network/HarmonicRates.h"
#include "landscape/network/KineticMonteCarlo.h"
#include "landscape/network/KineticsOnlyDatabase.h"
#include "landscape/network/TransitionNetwork.h"

namespace landscape {

namespace {

namespace fs = std::filesystem;

std::string format(const char* pattern, double a, double b = 0.0, double c = 0.0) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, a, b, c);
  return buffer;
}

bool molecular(const PathsampleConfig& c) { return c.units == PathsampleUnits::Molecular; }
/// kT in the energy unit for a temperature as the user gives it.
double kTOf(const PathsampleConfig& c, double t) {
  return molecular(c) ? kBoltzmannKcalPerMolK * t : t;
}
/// Rates of the graph (inverse frequency unit) -> the reported unit.
double rateFactor(const PathsampleConfig& c) {
  return molecular(c) ? kMolecularFrequencyPerSecond : 1.0;
}
std::string rateUnit(const PathsampleConfig& c) {
  return molecular(c) ? "s^-1" : "reduced time^-1";
}

// A network database; one without coordinates (atoms = 0) is a kinetics-only network.
StoredTransitionNetwork readNetworkDatabase(const std::string& path, DatabaseMetadata* metadata) {
  return KineticsOnlyDatabase::holdsOne(path) ? KineticsOnlyDatabase::read(path, metadata)
                                              : TransitionNetworkDatabase::read(path, metadata);
}
void writeNetworkDatabase(const std::string& path, const DatabaseMetadata& metadata,
                          const StoredTransitionNetwork& network) {
  if (metadata.atoms == 0)
    KineticsOnlyDatabase::write(path, metadata, network);
  else
    TransitionNetworkDatabase::write(path, metadata, network);
}

/// Runs a step of the library's kinetics on the network of `source` at temperature t; its errors
/// (a minimum without log product, disconnected sets, ...) come back naming the file and T.
template <class Step>
auto atTemperature(const std::string& source, double t, Step step) -> decltype(step()) {
  try {
    return step();
  } catch (const std::exception& e) {
    throw std::runtime_error(source + format(" at T= %.10g: ", t) + e.what());
  }
}

// ---- the network of the kinetics modes ------------------------------------------------------

/// What rates, committors and regroup work on: the network, where it came from and the factor
/// from its frequencies to the reported rate unit.
struct KineticsNetwork {
  StoredTransitionNetwork network;
  std::string source;       ///< the database, or "DIR/min.data" for PATHSAMPLE files
  std::string setNames;     ///< "min.A and min.B of DIR" or "the endpoint sets of DB"
  double rateFactor = 1.0;  ///< graph rates x this = reported rates
};

}  // namespace

bool readsPathsampleFolder(const PathsampleConfig& c) {
  return !c.databaseGiven && (!c.pathdataFile.empty() || c.noPoints) &&
         fs::exists(fs::path(c.directory) / "min.data");
}

namespace {

void checkPathdataAtoms(const PathsampleConfig& c, std::size_t atoms, const std::string& where) {
  if (c.pathdataAtoms == 0 || c.noPoints || atoms == 0 || atoms == c.pathdataAtoms) return;
  throw std::runtime_error(c.pathdataAtomsWhere + ": NATOMS " + std::to_string(c.pathdataAtoms) +
                           ", but " + where + " holds " + std::to_string(atoms) + " atoms");
}

/// min.data and ts.data of `dir` with min.A and min.B (required when `needSets`); transition
/// states must name lines of min.data (ts.data line named otherwise).
StoredTransitionNetwork readKineticsFiles(const std::string& dir, bool needSets) {
  const fs::path d(dir);
  StoredTransitionNetwork n;
  n.minima = readMinData((d / "min.data").string());
  if (n.minima.empty()) throw std::runtime_error((d / "min.data").string() + ": no minima");
  const std::string tsPath = (d / "ts.data").string();
  n.transitionStates = readTsData(tsPath, n.minima.size());
  const bool hasA = fs::exists(d / "min.A"), hasB = fs::exists(d / "min.B");
  if (hasA && hasB) {
    n.setA = readEndpointSet((d / "min.A").string(), n.minima.size());
    n.setB = readEndpointSet((d / "min.B").string(), n.minima.size());
  } else if (needSets || hasA || hasB) {
    throw std::runtime_error((d / (hasA ? "min.B" : "min.A")).string() +
                             ": missing; the endpoint sets need min.A and min.B (a count, then "
                             "that many 1-based lines of min.data)");
  }
  return n;
}

/// Checks the endpoint sets before the graph transformation sees them, in the user's words.
void checkEndpointSets(const KineticsNetwork& k) {
  const StoredTransitionNetwork& n = k.network;
  if (n.setA.empty() || n.setB.empty())
    throw std::runtime_error(k.source + ": no endpoint sets A and B (" + k.setNames +
                             "); import a database with min.A and min.B");
  for (int a : n.setA)
    if (std::find(n.setB.begin(), n.setB.end(), a) != n.setB.end())
      throw std::runtime_error(k.setNames + ": minimum " + std::to_string(a + 1) +
                               " (1-based, as in min.data) is in both A and B; the sets must be "
                               "disjoint");
}

KineticsNetwork kineticsNetwork(const PathsampleConfig& c, bool needSets) {
  KineticsNetwork k;
  if (readsPathsampleFolder(c)) {
    k.network = readKineticsFiles(c.directory, needSets);
    k.source = (fs::path(c.directory) / "min.data").string();
    k.setNames = "min.A and min.B of " + c.directory;
    // The files' frequencies are PATHSAMPLE's: reduced, or rad/s for molecules (s^-1 rates).
    k.rateFactor = 1.0;
  } else {
    DatabaseMetadata metadata;
    k.network = readNetworkDatabase(c.database, &metadata);
    checkPathdataAtoms(c, metadata.atoms, c.database);
    k.source = c.database;
    k.setNames = "the endpoint sets A and B of " + c.database;
    // A kinetics-only network keeps its files' frequencies (KineticsOnlyDatabase.h).
    k.rateFactor = metadata.atoms == 0 ? 1.0 : rateFactor(c);
  }
  if (std::isfinite(c.maxTsEnergy)) {
    std::vector<StoredTransitionState>& ts = k.network.transitionStates;
    ts.erase(std::remove_if(ts.begin(), ts.end(),
                            [&](const StoredTransitionState& t) { return t.energy > c.maxTsEnergy; }),
             ts.end());
  }
  if (needSets) checkEndpointSets(k);
  return k;
}

// ---- import and export -----------------------------------------------------------------------

DatabaseMetadata importMetadata(const PathsampleConfig& c, std::size_t atoms) {
  DatabaseMetadata metadata;
  metadata.atoms = atoms;
  metadata.energyUnit = molecular(c) ? "kcal/mol" : "reduced (epsilon)";
  metadata.lengthUnit = molecular(c) ? "Angstrom" : "reduced (sigma)";
  // Molecular files follow OPTIM/PATHSAMPLE for AMBER: mass-weighted, frequencies in rad/s.
  metadata.hessianMasses = molecular(c) ? kAtomicMassesAmu : kUnitMasses;
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
  params.alignment.permutations = !molecular(c);
  params.alignment.inversion = !molecular(c);
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
    writeNetworkDatabase(c.database, metadata, network);
    print("pathsample: imported " + what + " into " + c.database);
    return;
  }
  // An existing database is extended, never replaced.
  DatabaseMetadata storedMetadata;
  StoredTransitionNetwork stored = readNetworkDatabase(c.database, &storedMetadata);
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
  writeNetworkDatabase(c.database, storedMetadata, merged);
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
  const StoredTransitionNetwork network = readNetworkDatabase(c.database, &metadata);
  if (metadata.atoms == 0)
    writePathsampleKineticsFiles(c.directory, network);
  else
    writePathsampleFiles(c.directory, network, pathsampleFrequencyConversion(metadata));
  print("pathsample: exported " + std::to_string(network.minima.size()) + " minima and " +
        std::to_string(network.transitionStates.size()) + " transition states of " + c.database +
        " to " + c.directory + (metadata.atoms == 0 ? " (kinetics only: no points files)" : ""));
}

// Planck's constant in the energy unit x the rate graph's time unit (regroup's Eyring term):
// for molecules kcal/mol x (1 / rateFactor) s.
double planckOf(const PathsampleConfig& c, const KineticsNetwork& k) {
  return molecular(c) ? (c.planck > 0.0 ? c.planck : kPlanckKcalPerMolSecond) * k.rateFactor
                      : c.planck;
}

// NGT at temperature t: between minima, or (--regrouped) between the free-energy groups.
GraphTransformationResult ratesAt(const PathsampleConfig& c, const KineticsNetwork& k, double t,
                                  const ProgressPrinter& print) {
  const StoredTransitionNetwork& n = k.network;
  const RateGraph minima = atTemperature(k.source, t, [&] { return harmonicRateGraph(n, kTOf(c, t)); });
  if (!c.regrouped)
    return atTemperature(k.source, t,
                         [&] { return graphTransformationRates(minima, n.setA, n.setB); });
  const FreeEnergyGroups groups = atTemperature(k.source, t, [&] {
    return regroupFreeEnergy(n, kTOf(c, t), c.regroupThreshold, planckOf(c, k));
  });
  const std::vector<int> a = groupsOf(n.setA, groups), b = groupsOf(n.setB, groups);
  for (int g : a)
    if (std::find(b.begin(), b.end(), g) != b.end())
      throw std::runtime_error(format("regrouping at T= %.10g and threshold %.10g puts minima of A "
                                      "and B into one group (group %.0f); lower "
                                      "--regroup-threshold",
                                      t, c.regroupThreshold, g + 1.0));
  print(format("NGT> regrouped at T= %.10g: %.0f free-energy groups from %.0f minima", t,
               static_cast<double>(groups.members.size()), static_cast<double>(n.minima.size())) +
        format(", A %.0f groups, B %.0f groups", static_cast<double>(a.size()),
               static_cast<double>(b.size())));
  return atTemperature(k.source, t,
                       [&] { return graphTransformationRates(groupRateGraph(minima, groups), a, b); });
}

// The eight values of one temperature in the user's units: linear where double precision holds
// them, and always as logarithms (the graph transformation works in logarithms).
struct TemperatureRates {
  LogRatesFileRow logs;
  double k[2], kSS[2], kNSS[2], mfpt[2];
  bool representable = true;
};

TemperatureRates ratesInUnits(double t, const GraphTransformationResult& r, double factor) {
  TemperatureRates out;
  out.logs.temperature = t;
  const double lnFactor = std::log(factor);
  const SetToSetRates* sides[2] = {&r.aFromB, &r.bFromA};
  for (int i = 0; i < 2; ++i) {
    const SetToSetRates& x = *sides[i];
    out.logs.logK[i] = x.logK + lnFactor;
    out.logs.logKSS[i] = x.logKSS + lnFactor;
    out.logs.logKNSS[i] = x.logKNSS + lnFactor;
    out.logs.logMfpt[i] = x.logMeanFirstPassageTime - lnFactor;
    out.k[i] = std::exp(out.logs.logK[i]);
    out.kSS[i] = std::exp(out.logs.logKSS[i]);
    out.kNSS[i] = std::exp(out.logs.logKNSS[i]);
    out.mfpt[i] = std::exp(out.logs.logMfpt[i]);
    for (double v : {out.k[i], out.kSS[i], out.kNSS[i], out.mfpt[i]})
      out.representable = out.representable && std::isnormal(v);
  }
  return out;
}

void printRates(const PathsampleConfig& c, const TemperatureRates& x,
                const GraphTransformationResult& r, const ProgressPrinter& print) {
  const LogRatesFileRow& l = x.logs;
  if (x.representable) {
    print(format("NGT> k(A<-B)= %.10g   k(B<-A)= %.10g", x.k[0], x.k[1]));
    // the files keep their columns: T, k(A<-B), k(B<-A)
    if (c.direction == PathsampleDirection::BA)
      print(format("NGT> DIRECTION BA (B the product): k(B<-A)= %.10g  kSS(B<-A)= %.10g  "
                   "kNSS(B<-A)= %.10g", x.k[1], x.kSS[1], x.kNSS[1]));
    print(format("NGT> kSS (A<-B)= %.10g   kSS (B<-A)= %.10g", x.kSS[0], x.kSS[1]));
    print(format("NGT> kNSS(A<-B)= %.10g   kNSS(B<-A)= %.10g", x.kNSS[0], x.kNSS[1]));
    print(format("NGT> MFPT(A<-B)= %.10g   MFPT(B<-A)= %.10g", x.mfpt[0], x.mfpt[1]));
  } else {
    print("NGT> beyond double precision at this temperature: natural logarithms");
    print(format("NGT> ln k(A<-B)= %.10g   ln k(B<-A)= %.10g", l.logK[0], l.logK[1]));
    print(format("NGT> ln kSS (A<-B)= %.10g   ln kSS (B<-A)= %.10g", l.logKSS[0], l.logKSS[1]));
    print(format("NGT> ln kNSS(A<-B)= %.10g   ln kNSS(B<-A)= %.10g", l.logKNSS[0], l.logKNSS[1]));
    print(format("NGT> ln MFPT(A<-B)= %.10g   ln MFPT(B<-A)= %.10g", l.logMfpt[0], l.logMfpt[1]));
  }
  print(format("NGT> detailed balance, ratios should be one: k %.10g  kSS %.10g  kNSS %.10g",
               r.detailedBalanceK(), r.detailedBalanceKSS(), r.detailedBalanceKNSS()));
}

void computeRates(const PathsampleConfig& c, const ProgressPrinter& print) {
  const KineticsNetwork network = kineticsNetwork(c, true);
  if (readsPathsampleFolder(c))
    print("pathsample: rates of the PATHSAMPLE files in " + c.directory + " (" +
          std::to_string(network.network.minima.size()) + " minima, " +
          std::to_string(network.network.transitionStates.size()) + " transition states)");
  std::vector<RatesFileRow> kss, knss;
  std::vector<PassageRatesFileRow> k;
  std::vector<LogRatesFileRow> logs;
  std::string beyond;  // temperatures whose rates double precision cannot hold
  for (double t : c.temperatures) {
    const GraphTransformationResult r = ratesAt(c, network, t, print);
    print(format("NGT> T= %.10g  connected minima= %.0f  rates in ", t, r.connectedNodes) +
          rateUnit(c));
    const TemperatureRates x = ratesInUnits(t, r, network.rateFactor);
    printRates(c, x, r, print);
    logs.push_back(x.logs);
    if (!x.representable) {
      beyond += std::string(beyond.empty() ? "" : ",") +
                format(" T= %.10g (ln k(A<-B)= %.10g)", t, x.logs.logK[0]);
      continue;
    }
    k.push_back({t, x.k[0], x.k[1], x.mfpt[0], x.mfpt[1]});
    kss.push_back({t, x.kSS[0], x.kSS[1]});
    knss.push_back({t, x.kNSS[0], x.kNSS[1]});
  }
  fs::create_directories(c.directory);
  const fs::path dir(c.directory);
  writeFileAtomically((dir / "NGT.rates.new").string(), formatPassageRatesFile(k), "NGT.rates.new");
  writeFileAtomically((dir / "NGT.rates.kSS").string(), formatRatesFile(kss), "NGT.rates.kSS");
  writeFileAtomically((dir / "NGT.rates.kNSS").string(), formatRatesFile(knss), "NGT.rates.kNSS");
  writeFileAtomically((dir / "NGT.rates.log").string(), formatLogRatesFile(logs), "NGT.rates.log");
  print("pathsample: wrote NGT.rates.new, NGT.rates.kSS, NGT.rates.kNSS and NGT.rates.log to " +
        c.directory);
  // Never a 0 or an infinity where a rate belongs: the run fails, naming the temperatures.
  if (!beyond.empty())
    throw std::runtime_error(
        "the rates at" + beyond + " lie beyond double precision (below " +
        format("%.3g", std::numeric_limits<double>::min()) +
        " or above its largest value): their natural logarithms are printed above and written to " +
        (dir / "NGT.rates.log").string() +
        "; NGT.rates.new, .kSS and .kNSS hold only the other temperatures");
}

void computeCommittors(const PathsampleConfig& c, const ProgressPrinter& print) {
  const KineticsNetwork k = kineticsNetwork(c, true);
  const StoredTransitionNetwork& network = k.network;
  const double t = c.temperatures.front();
  // DIRECTION AB: committors to A (reaching A before B); BA: to B.
  const bool toB = c.direction == PathsampleDirection::BA;
  const GraphTransformationResult r = atTemperature(k.source, t, [&] {
    return graphTransformationRates(harmonicRateGraph(network, kTOf(c, t)),
                                    toB ? network.setB : network.setA,
                                    toB ? network.setA : network.setB);
  });
  fs::create_directories(c.directory);
  const std::string path = (fs::path(c.directory) / "commit.data").string();
  writeFileAtomically(path, formatCommitData(r.committorA), "commit.data");
  print(std::string("pathsample: committors to ") + (toB ? "B" : "A") +
        format(" at T= %.10g for %.0f connected minima written to ", t, r.connectedNodes) + path);
}

void regroup(const PathsampleConfig& c, const ProgressPrinter& print) {
  const KineticsNetwork k = kineticsNetwork(c, false);
  const StoredTransitionNetwork& network = k.network;
  const double t = c.temperatures.front();
  const double planck = planckOf(c, k);
  const FreeEnergyGroups groups = atTemperature(k.source, t, [&] {
    return regroupFreeEnergy(network, kTOf(c, t), c.regroupThreshold, planck);
  });
  std::string text;
  for (std::size_t g = 0; g < groups.members.size(); ++g) {
    std::string line = format("group %.0f  F= %.10g  minima:", g + 1.0, groups.freeEnergy[g]);
    for (int m : groups.members[g]) line += " " + std::to_string(m + 1);
    text += line + "\n";
    print("regroup> " + line);
  }
  fs::create_directories(c.directory);
  const std::string path = (fs::path(c.directory) / "minima_groups").string();
  writeFileAtomically(path, text, "minima_groups");
  print(format("pathsample: %.0f minima in %.0f free-energy groups at T= %.10g written to ",
               static_cast<double>(network.minima.size()),
               static_cast<double>(groups.members.size()), t) +
        path);
  if (planck == 0.0)
    print("pathsample: note: no --planck (PATHSAMPLE's PLANCK) for reduced units: transition-state "
          "free energies leave out kT ln(kT/h) (docs/pathsample.md, Regrouping)");
}

// Kinetic Monte Carlo first passages into the product set (DIRECTION AB: from B to A), written
// one per line to KMC.data: steps, first-passage time (time unit), steps again (PATHSAMPLE's
// expected steps, the same without leapfrog moves): the columns of the wales-group example's
// KMC.data, which its readme extracts from PATHSAMPLE's output.
void kineticMonteCarlo(const PathsampleConfig& c, const ProgressPrinter& print) {
  const KineticsNetwork k = kineticsNetwork(c, true);
  const StoredTransitionNetwork& n = k.network;
  const double t = c.temperatures.front();
  const bool toB = c.direction == PathsampleDirection::BA;
  const std::vector<KmcPassage> passages = atTemperature(k.source, t, [&] {
    return kmcFirstPassages(harmonicRateGraph(n, kTOf(c, t)), toB ? n.setB : n.setA,
                            toB ? n.setA : n.setB, c.kmcRuns, static_cast<std::uint64_t>(c.seed));
  });
  std::string text;
  double sum = 0.0, squares = 0.0, steps = 0.0;
  char line[128];
  for (const KmcPassage& p : passages) {
    const double time = p.time / k.rateFactor;
    std::snprintf(line, sizeof line, "%lld %.10g %lld\n", p.steps, time, p.steps);
    text += line;
    sum += time;
    squares += time * time;
    steps += static_cast<double>(p.steps);
  }
  const double runs = static_cast<double>(passages.size());
  const double mean = sum / runs;
  const double spread = std::sqrt(std::max(0.0, squares / runs - mean * mean));
  fs::create_directories(c.directory);
  const std::string path = (fs::path(c.directory) / "KMC.data").string();
  writeFileAtomically(path, text, "KMC.data");
  const std::string unit = molecular(c) ? "s" : "reduced time";
  print(std::string("KMC> ") + (toB ? "B<-A" : "A<-B") +
        format(" at T= %.10g: %.0f runs, mean first-passage time %.10g", t, runs, mean) + " " +
        unit + format(" +- %.3g (standard error), mean steps %.10g", spread / std::sqrt(runs),
                      steps / runs));
  print("pathsample: first-passage times written to " + path);
}

}  // namespace

void runPathsampleMode(const PathsampleConfig& c, const ProgressPrinter& print) {
  if (c.mode == PathsampleMode::Import) return importDatabase(c, print);
  if (c.mode == PathsampleMode::Export) return exportDatabase(c, print);
  if (c.mode == PathsampleMode::Rates) return computeRates(c, print);
  if (c.mode == PathsampleMode::Committors) return computeCommittors(c, print);
  if (c.mode == PathsampleMode::Regroup) return regroup(c, print);
  if (c.mode == PathsampleMode::Kmc) return kineticMonteCarlo(c, print);
  throw std::runtime_error("unknown mode '" + (c.mode ? pathsampleModeName(*c.mode) : "") + "'");
}

}  // namespace landscape
