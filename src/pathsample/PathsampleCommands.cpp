#include "src/pathsample/PathsampleCommands.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "landscape/formats/AtomicFile.h"
#include "landscape/formats/PathsampleExport.h"
#include "landscape/formats/PathsampleKineticsFiles.h"
#include "landscape/network/Database.h"
#include "landscape/network/FreeEnergyGroups.h"
#include "landscape/network/GraphTransformation.h"
#include "landscape/network/GroupRateGraph.h"
#include "landscape/network/HarmonicRates.h"

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

void importDatabase(const PathsampleConfig& c, const ProgressPrinter& print) {
  const std::size_t atoms = pathsampleAtomCount(c.directory);
  DatabaseMetadata metadata;
  metadata.atoms = atoms;
  metadata.energyUnit = molecular(c) ? "kcal/mol" : "reduced (epsilon)";
  metadata.lengthUnit = molecular(c) ? "Angstrom" : "reduced (sigma)";
  // Molecular files follow OPTIM/PATHSAMPLE for AMBER: mass-weighted, frequencies in rad/s.
  metadata.hessianMasses = molecular(c) ? kAtomicMassesAmu : kUnitMasses;
  const StoredTransitionNetwork network =
      readPathsampleFiles(c.directory, atoms, pathsampleFrequencyConversion(metadata));
  metadata.potential = "imported from PATHSAMPLE files in " + c.directory;
  metadata.program = "pathsample";
  TransitionNetworkDatabase::write(c.database, metadata, network);
  print("pathsample: imported " + std::to_string(network.minima.size()) + " minima, " +
        std::to_string(network.transitionStates.size()) + " transition states, " +
        std::to_string(atoms) + " atoms, sets A/B of " + std::to_string(network.setA.size()) +
        "/" + std::to_string(network.setB.size()) + " minima from " + c.directory + " into " +
        c.database);
}

void exportDatabase(const PathsampleConfig& c, const ProgressPrinter& print) {
  DatabaseMetadata metadata;
  const StoredTransitionNetwork network = TransitionNetworkDatabase::read(c.database, &metadata);
  writePathsampleFiles(c.directory, network, pathsampleFrequencyConversion(metadata));
  print("pathsample: exported " + std::to_string(network.minima.size()) + " minima and " +
        std::to_string(network.transitionStates.size()) + " transition states of " + c.database +
        " to " + c.directory);
}

StoredTransitionNetwork networkWithSets(const PathsampleConfig& c) {
  StoredTransitionNetwork network = TransitionNetworkDatabase::read(c.database);
  if (network.setA.empty() || network.setB.empty()) {
    throw std::runtime_error(c.database + ": no endpoint sets A and B (import a database with "
                                          "min.A and min.B)");
  }
  return network;
}

// Planck's constant in the energy unit x the rate graph's time unit (regroup's Eyring term):
// for molecules kcal/mol x (1 / kMolecularFrequencyPerSecond) s.
double planckOf(const PathsampleConfig& c) {
  return molecular(c) ? (c.planck > 0.0 ? c.planck : kPlanckKcalPerMolSecond) * rateFactor(c)
                      : c.planck;
}

// NGT at temperature t: between minima, or (--regrouped) between the free-energy groups.
GraphTransformationResult ratesAt(const PathsampleConfig& c, const StoredTransitionNetwork& n,
                                  double t, const ProgressPrinter& print) {
  const RateGraph minima = harmonicRateGraph(n, kTOf(c, t));
  if (!c.regrouped) return graphTransformationRates(minima, n.setA, n.setB);
  const FreeEnergyGroups groups =
      regroupFreeEnergy(n, kTOf(c, t), c.regroupThreshold, planckOf(c));
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
  return graphTransformationRates(groupRateGraph(minima, groups), a, b);
}

void computeRates(const PathsampleConfig& c, const ProgressPrinter& print) {
  const StoredTransitionNetwork network = networkWithSets(c);
  std::vector<RatesFileRow> k, kss, knss;
  const double factor = rateFactor(c);
  for (double t : c.temperatures) {
    const GraphTransformationResult r = ratesAt(c, network, t, print);
    const SetToSetRates ab = r.aFromB, ba = r.bFromA;
    print(format("NGT> T= %.10g  connected minima= %.0f  rates in ", t, r.connectedNodes) +
          rateUnit(c));
    print(format("NGT> k(A<-B)= %.10g   k(B<-A)= %.10g", ab.k * factor, ba.k * factor));
    // the files keep their columns: T, k(A<-B), k(B<-A)
    if (c.direction == PathsampleDirection::BA)
      print(format("NGT> DIRECTION BA (B the product): k(B<-A)= %.10g  kSS(B<-A)= %.10g  "
                   "kNSS(B<-A)= %.10g", ba.k * factor, ba.kSS * factor, ba.kNSS * factor));
    print(format("NGT> kSS (A<-B)= %.10g   kSS (B<-A)= %.10g", ab.kSS * factor, ba.kSS * factor));
    print(format("NGT> kNSS(A<-B)= %.10g   kNSS(B<-A)= %.10g", ab.kNSS * factor,
                 ba.kNSS * factor));
    print(format("NGT> MFPT(A<-B)= %.10g   MFPT(B<-A)= %.10g", ab.meanFirstPassageTime / factor,
                 ba.meanFirstPassageTime / factor));
    print(format("NGT> detailed balance, ratios should be one: k %.10g  kSS %.10g  kNSS %.10g",
                 r.detailedBalanceK(), r.detailedBalanceKSS(), r.detailedBalanceKNSS()));
    k.push_back({t, ab.k * factor, ba.k * factor});
    kss.push_back({t, ab.kSS * factor, ba.kSS * factor});
    knss.push_back({t, ab.kNSS * factor, ba.kNSS * factor});
  }
  fs::create_directories(c.directory);
  const fs::path dir(c.directory);
  writeFileAtomically((dir / "NGT.rates.new").string(), formatRatesFile(k), "NGT.rates.new");
  writeFileAtomically((dir / "NGT.rates.kSS").string(), formatRatesFile(kss), "NGT.rates.kSS");
  writeFileAtomically((dir / "NGT.rates.kNSS").string(), formatRatesFile(knss), "NGT.rates.kNSS");
  print("pathsample: wrote NGT.rates.new, NGT.rates.kSS and NGT.rates.kNSS to " + c.directory);
}

void computeCommittors(const PathsampleConfig& c, const ProgressPrinter& print) {
  const StoredTransitionNetwork network = networkWithSets(c);
  const double t = c.temperatures.front();
  // DIRECTION AB: committors to A (reaching A before B); BA: to B.
  const bool toB = c.direction == PathsampleDirection::BA;
  const GraphTransformationResult r =
      graphTransformationRates(harmonicRateGraph(network, kTOf(c, t)),
                               toB ? network.setB : network.setA, toB ? network.setA : network.setB);
  fs::create_directories(c.directory);
  const std::string path = (fs::path(c.directory) / "commit.data").string();
  writeFileAtomically(path, formatCommitData(r.committorA), "commit.data");
  print(std::string("pathsample: committors to ") + (toB ? "B" : "A") +
        format(" at T= %.10g for %.0f connected minima written to ", t, r.connectedNodes) + path);
}

void regroup(const PathsampleConfig& c, const ProgressPrinter& print) {
  const StoredTransitionNetwork network = TransitionNetworkDatabase::read(c.database);
  const double t = c.temperatures.front();
  const double planck = planckOf(c);
  const FreeEnergyGroups groups =
      regroupFreeEnergy(network, kTOf(c, t), c.regroupThreshold, planck);
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

}  // namespace

void runPathsampleMode(const PathsampleConfig& c, const ProgressPrinter& print) {
  if (c.mode == PathsampleMode::Import) return importDatabase(c, print);
  if (c.mode == PathsampleMode::Export) return exportDatabase(c, print);
  if (c.mode == PathsampleMode::Rates) return computeRates(c, print);
  if (c.mode == PathsampleMode::Committors) return computeCommittors(c, print);
  if (c.mode == PathsampleMode::Regroup) return regroup(c, print);
  throw std::runtime_error("unknown mode '" + (c.mode ? pathsampleModeName(*c.mode) : "") + "'");
}

}  // namespace landscape
