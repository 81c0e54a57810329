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
#include "src/pathsample/PathsampleImport.h"
#include "src/pathsample/PathsampleNetworkSource.h"

namespace landscape {

namespace {

namespace fs = std::filesystem;

std::string format(const char* pattern, double a, double b = 0.0, double c = 0.0) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, a, b, c);
  return buffer;
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

// Planck's constant in the energy unit x the rate graph's time unit (regroup's Eyring term):
// for molecules the energy unit x (1 / rateFactor) s.
double planckOf(const PathsampleConfig& c, const KineticsNetwork& k) {
  return usesMolecularUnits(c) ? (c.planck > 0.0 ? c.planck : k.planckSeconds) * k.rateFactor
                               : c.planck;
}

// NGT at temperature t: between minima, or (--regrouped) between the free-energy groups.
GraphTransformationResult ratesAt(const PathsampleConfig& c, const KineticsNetwork& k, double t,
                                  const ProgressPrinter& print) {
  const StoredTransitionNetwork& n = k.network;
  const RateGraph minima =
      atTemperature(k.source, t, [&] { return harmonicRateGraph(n, k.kT(t)); });
  if (!c.regrouped)
    return atTemperature(k.source, t,
                         [&] { return graphTransformationRates(minima, n.setA, n.setB); });
  const FreeEnergyGroups groups = atTemperature(k.source, t, [&] {
    return regroupFreeEnergy(n, k.kT(t), c.regroupThreshold, planckOf(c, k));
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

// The eight values of one temperature in the user's units: the logarithms always (the graph
// transformation works in them), the linear values where double precision holds them.
struct TemperatureRates {
  SetToSetRates side[2];  // A<-B, B<-A
  bool representable = true;
  LogRatesFileRow logs() const {
    LogRatesFileRow l;
    for (int i = 0; i < 2; ++i) {
      l.logK[i] = side[i].logK;
      l.logKSS[i] = side[i].logKSS;
      l.logKNSS[i] = side[i].logKNSS;
      l.logMfpt[i] = side[i].logMeanFirstPassageTime;
    }
    return l;
  }
};

TemperatureRates ratesInUnits(const GraphTransformationResult& r, double factor) {
  TemperatureRates out;
  out.side[0] = r.aFromB.inUnits(factor);
  out.side[1] = r.bFromA.inUnits(factor);
  out.representable = out.side[0].representable() && out.side[1].representable();
  return out;
}

void printRates(const PathsampleConfig& c, const TemperatureRates& x,
                const GraphTransformationResult& r, const ProgressPrinter& print) {
  const SetToSetRates& ab = x.side[0];
  const SetToSetRates& ba = x.side[1];
  if (x.representable) {
    print(format("NGT> k(A<-B)= %.10g   k(B<-A)= %.10g", ab.k, ba.k));
    // the files keep their columns: T, k(A<-B), k(B<-A)
    if (c.direction == PathsampleDirection::BA)
      print(format("NGT> DIRECTION BA (B the product): k(B<-A)= %.10g  kSS(B<-A)= %.10g  "
                   "kNSS(B<-A)= %.10g", ba.k, ba.kSS, ba.kNSS));
    print(format("NGT> kSS (A<-B)= %.10g   kSS (B<-A)= %.10g", ab.kSS, ba.kSS));
    print(format("NGT> kNSS(A<-B)= %.10g   kNSS(B<-A)= %.10g", ab.kNSS, ba.kNSS));
    print(format("NGT> MFPT(A<-B)= %.10g   MFPT(B<-A)= %.10g", ab.meanFirstPassageTime,
                 ba.meanFirstPassageTime));
  } else {
    print("NGT> beyond double precision at this temperature: natural logarithms");
    print(format("NGT> ln k(A<-B)= %.10g   ln k(B<-A)= %.10g", ab.logK, ba.logK));
    print(format("NGT> ln kSS (A<-B)= %.10g   ln kSS (B<-A)= %.10g", ab.logKSS, ba.logKSS));
    print(format("NGT> ln kNSS(A<-B)= %.10g   ln kNSS(B<-A)= %.10g", ab.logKNSS, ba.logKNSS));
    print(format("NGT> ln MFPT(A<-B)= %.10g   ln MFPT(B<-A)= %.10g", ab.logMeanFirstPassageTime,
                 ba.logMeanFirstPassageTime));
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
          reportedRateUnit(c));
    const TemperatureRates x = ratesInUnits(r, network.rateFactor);
    printRates(c, x, r, print);
    logs.push_back(x.logs());
    logs.back().temperature = t;
    if (!x.representable) {
      beyond += std::string(beyond.empty() ? "" : ",") +
                format(" T= %.10g (ln k(A<-B)= %.10g)", t, x.side[0].logK);
      continue;
    }
    k.push_back({t, x.side[0].k, x.side[1].k, x.side[0].meanFirstPassageTime,
                 x.side[1].meanFirstPassageTime});
    kss.push_back({t, x.side[0].kSS, x.side[1].kSS});
    knss.push_back({t, x.side[0].kNSS, x.side[1].kNSS});
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
    return graphTransformationRates(harmonicRateGraph(network, k.kT(t)),
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
  const FreeEnergyGroups groups = atTemperature(
      k.source, t, [&] { return regroupFreeEnergy(network, k.kT(t), c.regroupThreshold, planck); });
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
    return kmcFirstPassages(harmonicRateGraph(n, k.kT(t)), toB ? n.setB : n.setA,
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
  const std::string unit = usesMolecularUnits(c) ? "s" : "reduced time";
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
