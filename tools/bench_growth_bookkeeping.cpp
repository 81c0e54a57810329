// Benchmark (not a test): the bookkeeping of `pathsample grow` between its connect runs, on
// networks of the size a long growth reaches. It runs on the main thread while no new cycle can
// start, so on the GPU the device waits for it.
// 1. Choosing a list of candidate pairs (PATHSAMPLE's UNTRAP, SHORTCUT and DIJPAIR;
//    landscape/network/UntrapPairs.h, KineticPathPairs.h) without the minimum distances
//    themselves: those are asked of a cheap stand-in (a hash of the pair), so that the table shows
//    the selection's own work.
// 2. Merging: looking up a cycle's points in the network (TransitionNetwork::findMinimum and
//    findTransitionState, GMIN/OPTIM's energy then geometry test), points it does not hold (new)
//    and copies of points it holds (known), without alignments (Euclidean geometry test).
// The networks are synthetic: minima with energies spread over 8 units above the lowest, a random
// spanning tree of transition states plus random extra ones (2.25 per minimum), 1.7 tried pairs
// per minimum (a growth of 256 pairs per cycle has tried that many by 12,000 minima). The hash
// columns (FNV-1a) hash the chosen lists (pairs and scores) and the points found: a change meant
// to leave the results as they are must leave them as they are.
//
// Usage: bench_growth_bookkeeping [--minima LIST] [--repeats N]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "landscape/core/Checksum.h"
#include "landscape/core/Random.h"
#include "landscape/network/KineticPathPairs.h"
#include "landscape/network/MinimumDistanceCache.h"
#include "landscape/network/TransitionNetwork.h"
#include "landscape/network/UntrapPairs.h"
#include "src/common/OptionTable.h"

namespace {

using namespace landscape;

struct Options {
  std::vector<std::size_t> minima = {3000, 12000};
  int repeats = 1;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_growth_bookkeeping");
  t.about =
      "usage: bench_growth_bookkeeping [--minima LIST] [--repeats N]\n"
      "On synthetic networks of LIST minima (reduced units), one thread: seconds per candidate\n"
      "list of at most 1000 pairs, the minimum distances from a stand-in (UNTRAP einc 0.035\n"
      "ethresh 3 as the LJ38 example, SHORTCUT 2, DIJPAIR with B not yet joined to A), and\n"
      "microseconds per lookup of a new or known point in the network (no alignments).\n";
  t.helpCommand();
  t.add("minima", "LIST", "network sizes (minima)", fieldOf(&Options::minima));
  t.add("repeats", "N", "selections timed per cell (the fastest is shown)",
        fieldOf(&Options::repeats))
      .atLeast(1);
  return t;
}

// A network of `n` joined minima and 2.25 n transition states, and one minimum more that no
// transition state touches; setA = {0} (the lowest), setB = {n - 1} (joined to A by a path of
// several steps).
StoredTransitionNetwork syntheticNetwork(std::size_t n, Random& random) {
  StoredTransitionNetwork net;
  net.minima.resize(n + 1);
  for (std::size_t m = 0; m <= n; ++m) {
    net.minima[m].energy = m == 0 ? -173.928 : -173.9 + 8.0 * random.uniform();
    net.minima[m].properties.logProductOfPositiveEigenvalues = 200.0 + random.uniform();
    net.minima[m].properties.pointGroupOrder = 1;
  }
  const auto join = [&](int a, int b) {
    StoredTransitionState ts;
    ts.plusMinimum = a;
    ts.minusMinimum = b;
    ts.energy = std::max(net.minima[a].energy, net.minima[b].energy) + 0.05 + random.uniform();
    ts.properties.logProductOfPositiveEigenvalues = 195.0 + random.uniform();
    ts.properties.pointGroupOrder = 1;
    net.transitionStates.push_back(ts);
  };
  for (std::size_t m = 1; m < n; ++m)
    join(static_cast<int>(m), static_cast<int>(random.uniform() * static_cast<double>(m)));
  const std::size_t extra = n + n / 4;
  for (std::size_t k = 0; k < extra; ++k) {
    const int a = static_cast<int>(random.uniform() * static_cast<double>(n));
    const int b = static_cast<int>(random.uniform() * static_cast<double>(n));
    if (a != b) join(a, b);
  }
  net.setA = {0};
  net.setB = {static_cast<int>(n - 1)};
  return net;
}

TriedPairs syntheticTried(std::size_t n, Random& random) {
  TriedPairs tried;
  for (std::size_t k = 0; k < n + (7 * n) / 10; ++k) {
    const int a = static_cast<int>(random.uniform() * static_cast<double>(n));
    const int b = static_cast<int>(random.uniform() * static_cast<double>(n));
    if (a != b) tried.push_back({a, b});
  }
  return tried;
}

// A stand-in distance between 0.5 and 3.5, the same for (a, b) and (b, a).
double standInDistance(int a, int b) {
  std::uint64_t z = (static_cast<std::uint64_t>(std::min(a, b)) << 32) ^
                    static_cast<std::uint64_t>(std::max(a, b));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return 0.5 + 3.0 * static_cast<double>(z >> 11) * 0x1.0p-53;
}

struct Cell {
  double seconds = 1e300;
  std::size_t pairs = 0;
  std::size_t distances = 0;  // distinct pairs asked for
  std::uint64_t hash = 0;
};

template <class Select>
Cell timeSelection(int repeats, Select select) {
  Cell cell;
  for (int r = 0; r < repeats; ++r) {
    MinimumDistanceCache asked;  // as TransitionNetwork keeps them
    const MinimumDistance distance = [&asked](int a, int b) {
      if (const double* known = asked.find(a, b)) return *known;
      const double d = standInDistance(a, b);
      asked.add(a, b, d);
      return d;
    };
    const auto start = std::chrono::steady_clock::now();
    const std::vector<CandidatePair> pairs = select(distance);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cell.seconds = std::min(cell.seconds, seconds);
    cell.pairs = pairs.size();
    cell.distances = asked.size();
    cell.hash = kFnv1aOffsetBasis;
    for (const CandidatePair& p : pairs) {
      cell.hash = fnv1a(&p.first, sizeof p.first, cell.hash);
      cell.hash = fnv1a(&p.second, sizeof p.second, cell.hash);
      cell.hash = fnv1a(&p.score, sizeof p.score, cell.hash);
    }
  }
  return cell;
}

// The stored network's points with random coordinates (38 atoms), in a TransitionNetwork that
// compares geometries without alignments.
TransitionNetwork lookupNetwork(const StoredTransitionNetwork& stored, Random& random,
                                std::vector<std::vector<double>>& minima,
                                std::vector<std::vector<double>>& states) {
  TransitionNetworkParams params;
  params.alignStructures = false;
  TransitionNetwork network(params);
  const auto structure = [&random] {
    std::vector<double> x(114);
    for (double& v : x) v = 4.0 * random.uniform();
    return x;
  };
  for (const StoredNetworkMinimum& m : stored.minima) {
    minima.push_back(structure());
    network.addMinimum(minima.back(), m.energy);
  }
  for (const StoredTransitionState& t : stored.transitionStates) {
    states.push_back(structure());
    network.addTransitionState(states.back(), t.energy, -1.0, t.plusMinimum, t.minusMinimum);
  }
  return network;
}

struct LookupCell {
  double microseconds = 1e300;  // per lookup
  std::uint64_t hash = 0;
};

// 2 x `count` lookups (a minimum and a transition state each): new points (random energies in the
// range of the network's) or copies of random points the network holds.
LookupCell timeLookups(const TransitionNetwork& network, const StoredTransitionNetwork& stored,
                       const std::vector<std::vector<double>>& minima,
                       const std::vector<std::vector<double>>& states, bool known, int repeats) {
  constexpr int count = 1000;
  LookupCell cell;
  for (int r = 0; r < repeats; ++r) {
    Random random(known ? 17 : 23);
    std::vector<std::pair<std::vector<double>, double>> asked;  // minimum, state alternately
    for (int k = 0; k < count; ++k) {
      if (known) {
        const std::size_t m = static_cast<std::size_t>(random.uniform() * minima.size());
        const std::size_t t = static_cast<std::size_t>(random.uniform() * states.size());
        asked.emplace_back(minima[m], stored.minima[m].energy);
        asked.emplace_back(states[t], stored.transitionStates[t].energy);
      } else {
        asked.emplace_back(minima[0], -173.9 + 8.0 * random.uniform());
        asked.emplace_back(states[0], -173.0 + 8.0 * random.uniform());
      }
    }
    std::vector<int> found(asked.size());
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t k = 0; k < asked.size(); k += 2) {
      found[k] = network.findMinimum(asked[k].first, asked[k].second);
      found[k + 1] = network.findTransitionState(asked[k + 1].first, asked[k + 1].second);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cell.microseconds = std::min(cell.microseconds, 1e6 * seconds / (2.0 * count));
    cell.hash = fnv1a(found.data(), found.size() * sizeof(int));
  }
  return cell;
}

void run(const Options& o) {
  std::printf(
      "candidate lists of at most 1000 pairs, seconds per list (one thread; distances "
      "from a stand-in)\n\n");
  std::printf(
      "| minima | transition states | tried pairs | selection | seconds | pairs | "
      "distances asked | lists' hash |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (std::size_t n : o.minima) {
    Random random(0x5e1ec7 + n);
    const StoredTransitionNetwork net = syntheticNetwork(n, random);
    StoredTransitionNetwork unjoined = net;  // DIJPAIR: B not yet joined to A
    unjoined.setB = {static_cast<int>(n)};
    const TriedPairs tried = syntheticTried(n, random);
    UntrapParams untrap;
    untrap.energyIncrement = 0.035;
    untrap.energyThreshold = 3.0;
    untrap.listSize = 1000;
    const double kT = 0.1;
    const std::pair<const char*, std::function<std::vector<CandidatePair>(const MinimumDistance&)>>
        selections[] = {
            {"UNTRAP",
             [&](const MinimumDistance& d) {
               return untrapPairs(net, net.setA, untrap, tried, d).pairs;
             }},
            {"SHORTCUT",
             [&](const MinimumDistance& d) {
               return shortcutPairs(net, kT, 2, false, 1000, tried, d);
             }},
            {"DIJPAIR",
             [&](const MinimumDistance& d) { return dijkstraPairs(unjoined, kT, 2.0, tried, d); }},
        };
    for (const auto& [name, select] : selections) {
      const Cell c = timeSelection(o.repeats, select);
      std::printf("| %zu | %zu | %zu | %s | %.3f | %zu | %zu | %016llx |\n", n,
                  net.transitionStates.size(), tried.size(), name, c.seconds, c.pairs, c.distances,
                  static_cast<unsigned long long>(c.hash));
      std::fflush(stdout);
    }
  }
  std::printf(
      "\nlooking up a cycle's points, microseconds per lookup (one thread; half minima, half "
      "transition states; no alignments)\n\n");
  std::printf("| minima | transition states | points | us per lookup | found points' hash |\n");
  std::printf("|---|---|---|---|---|\n");
  for (std::size_t n : o.minima) {
    Random random(0x5e1ec7 + n);
    const StoredTransitionNetwork stored = syntheticNetwork(n, random);
    std::vector<std::vector<double>> minima, states;
    const TransitionNetwork network = lookupNetwork(stored, random, minima, states);
    for (const bool known : {false, true}) {
      const LookupCell c = timeLookups(network, stored, minima, states, known, o.repeats);
      std::printf("| %zu | %zu | %s | %.3f | %016llx |\n", n, stored.transitionStates.size(),
                  known ? "known" : "new", c.microseconds, static_cast<unsigned long long>(c.hash));
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    parseToolCommandLine(optionTable(), argc, argv, o);
    run(o);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_growth_bookkeeping: %s\n", error.what());
    return 1;
  }
  return 0;
}
