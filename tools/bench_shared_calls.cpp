// Benchmark (not a test): structures per second through shared calls
// (potentials/SharedBatchedPotential, as network growth's connect runs in flight use them) against
// the batched potential alone at the same batch, for docs/benchmarks.md.
//
// M members, fibres spread over T threads as growth spreads its runs (landscape/paths/ConnectJobs),
// each asks for one structure at a time and takes a host step between its requests: a small
// steepest-descent move (at most 0.001 A per coordinate) and --host-passes passes over its vectors,
// about what a tangent-space L-BFGS step of hybrid eigenvector-following costs. For each M and each
// --copy-pieces C (SharedBatchedPotential::Options::copyPieces; 1 = the calling thread alone):
//   calls, per call        the shared calls made and their mean structures
//   structures/s           structures evaluated per second of wall time
//   in calls               share of the wall time with a call under way
//   copying                share of the wall time the calls spent copying structures in and out
//   alone ms               the batched potential's host entry point (its own page-locked arrays,
//                          BatchedPotential::hostArrays, as a shared call uses them) for B = the
//                          mean per call, median of 5 after a warm-up: a call without its copies
//   of alone               structures/s over the potential alone's B / (alone ms)
//
// System: trpcage (tests/data/gb/trpcage, AMBER-GB igb 2, 0.2 M, rgbmax 12 A, double) or lj38 (a
// random LJ38 cluster, reduced units), each member's start moved by up to 0.1 (a seed per member).
//
// Usage: bench_shared_calls [--system trpcage|lj38] [--backend cuda|cpu] [--members 64,256,1024]
//                           [--threads T] [--steps S] [--copy-pieces 1,16] [--host-passes P]
//                           [--data DIR]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "backends/BatchedPotentialFactory.h"
#include "backends/PotentialFactory.h"
#include "landscape/core/Fibres.h"
#include "landscape/core/Random.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberTopology.h"
#include "potentials/SharedBatchedPotential.h"
#include "tools/GbTestData.h"

using namespace landscape;

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string system = "trpcage";
  std::string backend = "cuda";
  std::vector<int> members{64, 256, 1024};
  int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  int steps = 200;
  std::vector<int> copyPieces{1, 16};
  int hostPasses = 16;
  std::string data = LANDSCAPE_SOURCE_DIR "/tests/data/gb";
};

std::vector<int> parseList(const std::string& text, const std::string& option, int least) {
  std::vector<int> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    std::size_t used = 0;
    int value = 0;
    try {
      value = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || value < least)
      throw std::invalid_argument(option + ": '" + item +
                                  "' is not an integer >= " + std::to_string(least));
    values.push_back(value);
    start = comma + 1;
  }
  return values;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::printf(
          "bench_shared_calls: structures per second through shared calls against the batched\n"
          "potential alone (see the comment at the top of tools/bench_shared_calls.cpp)\n"
          "  --system trpcage|lj38   (default trpcage)\n"
          "  --backend cuda|cpu      (default cuda)\n"
          "  --members LIST          members (fibres) sharing the calls (default 64,256,1024)\n"
          "  --threads T             threads running the members (default: the host's)\n"
          "  --steps S               requests per member (default 200)\n"
          "  --copy-pieces LIST      copyPieces of the shared calls (default 1,16)\n"
          "  --host-passes P         passes over a member's vectors per host step (default 16)\n"
          "  --data DIR              GB test data (default tests/data/gb)\n");
      std::exit(0);
    }
    if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--system") {
      if (v != "trpcage" && v != "lj38") throw std::invalid_argument("--system: trpcage or lj38");
      o.system = v;
    } else if (a == "--backend") {
      o.backend = v;
    } else if (a == "--members") {
      o.members = parseList(v, a, 1);
    } else if (a == "--threads") {
      o.threads = parseList(v, a, 1).front();
    } else if (a == "--steps") {
      o.steps = parseList(v, a, 1).front();
    } else if (a == "--copy-pieces") {
      o.copyPieces = parseList(v, a, 1);
    } else if (a == "--host-passes") {
      o.hostPasses = parseList(v, a, 0).front();
    } else if (a == "--data") {
      o.data = v;
    } else {
      throw std::invalid_argument("unknown option " + a + " (--help lists them)");
    }
  }
  return o;
}

double medianMs(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// The batched potential alone at batch B through its host entry point and its own arrays.
double aloneMs(BatchedPotential& potential, const std::vector<std::vector<double>>& starts,
               std::size_t batch) {
  const std::size_t n = potential.dimension();
  BatchedPotential::HostArrays arrays = potential.hostArrays(batch);
  std::vector<double> x, g, e;
  if (arrays.x == nullptr) {
    x.resize(batch * n);
    g.resize(batch * n);
    e.resize(batch);
    arrays = {x.data(), g.data(), e.data()};
  }
  for (std::size_t b = 0; b < batch; ++b)
    std::copy(starts[b % starts.size()].begin(), starts[b % starts.size()].end(), arrays.x + b * n);
  potential.energyGradient(batch, arrays.x, arrays.g, arrays.energy, nullptr);  // warm-up
  std::vector<double> ms;
  for (int r = 0; r < 5; ++r) {
    const auto t0 = Clock::now();
    potential.energyGradient(batch, arrays.x, arrays.g, arrays.energy, nullptr);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return medianMs(ms);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    const Backend backend = parseBackend(o.backend);
    PotentialSpec spec;
    std::vector<double> start;
    if (o.system == "trpcage") {
      const auto topology = std::make_shared<const AmberTopology>(
          readAmberTopology(gbDataFile(o.data, "trpcage/prmtop")));
      spec.kind = PotentialSpec::Kind::AmberGb;
      spec.amberTopology = topology;
      spec.amber.igb = 2;
      spec.amber.saltcon = 0.2;
      spec.amber.rgbmax = 12.0;
      spec.atoms = static_cast<std::size_t>(topology->atomCount);
      start = readAmberCoordinates(gbDataFile(o.data, "trpcage/inpcrd"), *topology).positions;
    } else {
      spec.kind = PotentialSpec::Kind::LennardJones;
      spec.atoms = 38;
      Random random(38);
      for (std::size_t k = 0; k < 3 * spec.atoms; ++k) start.push_back(1.7 * random.symmetric());
    }
    const std::unique_ptr<BatchedPotential> potential =
        makeSharedBatchedBase(spec, backend, o.threads);
    const std::size_t n = potential->dimension();

    const int largest = *std::max_element(o.members.begin(), o.members.end());
    std::vector<std::vector<double>> starts(static_cast<std::size_t>(largest), start);
    for (std::size_t m = 0; m < starts.size(); ++m) {
      Random random(1000 + m);
      for (double& v : starts[m]) v += 0.1 * random.symmetric();
    }

    std::printf("Shared calls, %s on %s, %d threads, %d requests per member, %d host passes\n\n",
                o.system.c_str(), o.backend.c_str(), o.threads, o.steps, o.hostPasses);
    std::printf(
        "| members | copy pieces | calls | per call | structures/s | in calls | copying | alone ms "
        "| of alone |\n|---|---|---|---|---|---|---|---|---|\n");
    for (const int members : o.members) {
      for (const int copyPieces : o.copyPieces) {
        SharedBatchedPotential::Options options;
        options.patienceFollowsCalls = true;  // as growth's default --call-patience 0
        options.copyPieces = copyPieces;
        SharedBatchedPotential shared(*potential, options);
        std::vector<std::vector<double>> x(starts.begin(), starts.begin() + members);
        std::vector<double> energies(static_cast<std::size_t>(members), 0.0);
        std::atomic<int> next{0};
        const FibreScheduler::Task member = [&] {
          for (int i; (i = next.fetch_add(1)) < members;) {
            SharedBatchedPotential::Member view(shared);
            const std::unique_ptr<Potential> p = view.potential();
            std::vector<double>& xi = x[static_cast<std::size_t>(i)];
            std::vector<double> g(n), d(n, 0.0);
            for (int s = 0; s < o.steps; ++s) {
              energies[static_cast<std::size_t>(i)] = p->energyGradient(xi.data(), g.data());
              double largestComponent = 0.0;
              for (double v : g) largestComponent = std::max(largestComponent, std::abs(v));
              const double scale = largestComponent > 0 ? 1e-3 / largestComponent : 0.0;
              for (int pass = 0; pass < o.hostPasses; ++pass)
                for (std::size_t k = 0; k < n; ++k) d[k] = 0.5 * d[k] + g[k];
              for (std::size_t k = 0; k < n; ++k) xi[k] -= scale * g[k];
            }
          }
        };
        const int threads = std::min(o.threads, members);
        const int perThread = (members + threads - 1) / threads;
        const auto t0 = Clock::now();
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t)
          pool.emplace_back(
              [&] { FibreScheduler::run(std::vector<FibreScheduler::Task>(perThread, member)); });
        for (std::thread& t : pool) t.join();
        const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
        for (double e : energies)
          if (!std::isfinite(e)) throw std::runtime_error("a member's energy is not finite");
        const SharedBatchStatistics s = shared.statistics();
        const std::size_t batch =
            std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(s.meanBatch())));
        const double alone = aloneMs(*potential, starts, batch);
        const double rate = static_cast<double>(s.structures) / wall;
        const double aloneRate = static_cast<double>(batch) / (alone * 1e-3);
        std::printf("| %d | %d | %ld | %.1f | %.0f | %.0f%% | %.0f%% | %.3f | %.2f |\n", members,
                    copyPieces, s.calls, s.meanBatch(), rate, 100.0 * s.callSeconds / wall,
                    100.0 * s.copySeconds / wall, alone, rate / aloneRate);
        std::fflush(stdout);
      }
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_shared_calls: %s\n", e.what());
    return 1;
  }
}
