// Benchmark (not a test): pair potentials on the GPU, printed as Markdown tables for
// docs/benchmarks.md. The system is the Kob-Andersen 80:20 mixture (Kob and Andersen, Phys. Rev.
// E 51, 4626 (1995)) at density 1.2, cut at 2.5 sigma_ab and shifted, in a periodic cube; a
// configuration is a lattice (fcc when N = 4 c^3, else N sites of a simple cubic grid) with the
// sites dealt to the atoms in random order (so atom index order is not spatial order) and every
// coordinate moved by up to 0.1 (0.2 for the quench starts).
//
// 1. One structure (gpu/PairPotentialCuda, Verlet list with skin --skin), N = --sizes:
//    lanes       threads per atom of the list's evaluation (PairPotentialCuda's choice);
//    call us     wall time of energyGradientDevice (energy back on the host, one synchronisation,
//                the list kept), mean over calls for --min-seconds;
//    device us   CUDA events on the legacy stream around each call: the two kernels and the gap
//                between them, without the host's launch and wake-up latency;
//    ns/atom     call us / N (and device us / N); "x 16k" the ratio to the row nearest 10^4 atoms;
//    build us    wall time of one list build (rebuildNeighbourList: bounds, grid, cell sort,
//                ranges, gather, list, and the synchronisation that reads the longest list);
//    list        the mean list length (analytic: density x 4/3 pi (rc_ab + skin)^3 over the
//                species fractions) and the capacity the build chose;
//    floor us    the larger of an FP64 floor, 40 FP64 lane operations per listed pair (the
//                image 12, r^2 and the cutoff test 4, the reciprocal 8, the Lennard-Jones terms
//                and the shift 12, the sums 4) over 132 SMs x 64 FP64 lanes x 1.98 GHz = 1.67e13
//                operations/s, and a byte floor, 4 bytes per listed pair plus 152 per atom (x read
//                twice, the slot positions written and read, the gradient, the slot energy, the
//                order and the count) at --bandwidth bytes/s (4.3e12, the device-to-device copy
//                measured on this H200). "x floor": call us / floor us (device us / floor us).
//    With --lanes L1,L2,... a second table times every size at each lanes per atom.
// 2. Tabulated against analytic: the same model with each species pair's law in a table of 1024
//    pieces (potentials/PairTable, quadratic interpolation) from 0.5 to the cutoff, on the single
//    structure (N = --table-size) and the batched kernel (N = 256): time ratio tabulated /
//    analytic.
// 3. Batched Kob-Andersen N = --batched-sizes (256 and 1,000; gpu/BatchedPairPotentialCuda, a
//    block of 256 threads per structure), over every pair under the minimum image and over each
//    row's Verlet list (skin --skin, where the potential's automatic choice takes one), at
//    B = --batches (N > 256: the first of them, at most 1,024):
//    evals/s     structures evaluated per second, device entry point, launches queued back to
//                back on a stream (CUDA events), B / (time per launch), the same coordinates at
//                every launch (the lists built once);
//    rebuild evals/s  likewise, the launches alternating between the starts and the starts with
//                atom 0 of each structure moved by the skin: every row rebuilds its list at every
//                launch (a pass over every pair that also stores the partners);
//    floor       FP64: 40 operations per ordered pair, N (N - 1) ordered pairs per structure (each
//                pair is evaluated from both atoms; the same floor for both paths), at 1.67e13
//                operations/s;
//    quenches/s  the rounds engine (makeBatchedMinimiserOver, BatchedEngine::Rounds) from B
//                starts, GMIN's L-BFGS defaults (m = 4, maxStep 0.4, maxRise 1e-4, RMS 1e-5) and
//                at most --max-iterations steps, timed on a second run of the same batch (the
//                first captures the graphs); calls/quench and the converged fraction; the quench
//                floor is the evaluation floor over the calls per quench; rebuilds/quench the
//                list builds per structure in the timed run (the L-BFGS vector work,
//                (5 + 2m) 768 doubles per structure and round, adds ~17 ns at 4.8 TB/s and is left
//                out).
//    A second table gives the lists' ratios to every pair at each (N, B): evaluations, the
//    rebuild launch's time over the every-pair launch's, and quenches.
//
// Usage: bench_pair_potential [--sizes 4000,16000,...] [--batches 1024,4096] [--skin S]
//                             [--min-seconds S] [--table-size N] [--max-iterations I]
//                             [--fp64-peak F] [--bandwidth B] [--no-quench] [--lanes 1,2,4,8]
//                             [--batched-sizes 256,1000] [--batched-only]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/BatchedMinimiserFactory.h"
#include "gpu/BatchedPairPotentialCuda.h"  // CUDA-free header; the class exists in CUDA builds
#include "gpu/GpuDevice.h"
#include "gpu/PairPotentialCuda.h"  // likewise
#include "landscape/geometry/BoxGeometry.h"
#include "potentials/PairModel.h"
#include "src/common/OptionTable.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#endif

namespace {

using namespace landscape;

constexpr double kPi = 3.14159265358979323846;
constexpr double kFlopsPerPair = 40.0;
constexpr double kBytesPerListedPair = 4.0;
constexpr double kBytesPerAtom = 152.0;

struct Options {
  std::vector<std::size_t> sizes{4000, 16000, 64000, 256000, 1000000};
  std::vector<std::size_t> batches{1024, 4096};
  std::vector<std::size_t> batchedSizes{256, 1000};
  double skin = 0.3;
  double minSeconds = 0.3;
  std::size_t tableSize = 64000;
  int maxIterations = 10000;
  double peak = 132.0 * 64.0 * 1.98e9;
  double bandwidth = 4.3e12;
  bool noQuench = false;
  bool batchedOnly = false;
  std::vector<int> lanes;  ///< lanes per atom of the sweep (empty: no sweep)
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_pair_potential");
  t.about =
      "usage: bench_pair_potential [--sizes 4000,16000,64000,256000,1000000] [--batches "
      "1024,4096]\n"
      "                            [--skin S] [--min-seconds S] [--table-size N]\n"
      "                            [--max-iterations I] [--fp64-peak F] [--bandwidth B] "
      "[--no-quench]\n"
      "                            [--lanes 1,2,4,8] [--batched-sizes 256,1000] "
      "[--batched-only]\n"
      "Kob-Andersen 80:20 at density 1.2, shifted at 2.5 sigma_ab, on the GPU: one structure "
      "over its Verlet list (time per call, per atom, list build), tabulated against analytic, "
      "and batched N = 256 and 1,000 over every pair and over each row's Verlet list "
      "(evaluations, list rebuilds and rounds-engine quenches per second, and their ratios), "
      "with floors. Lengths in sigma_AA, times in seconds.\n";
  t.helpCommand();
  t.add("sizes", "LIST", "atoms of the single-structure rows", fieldOf(&Options::sizes)).atLeast(2);
  t.add("batches", "LIST",
        "batch sizes of the batched rows (N > 256: the first, at most 1024)",
        fieldOf(&Options::batches))
      .atLeast(1);
  t.add("batched-sizes", "LIST", "atoms of the batched rows (Kob-Andersen boxes)",
        fieldOf(&Options::batchedSizes))
      .atLeast(2);
  t.flag("batched-only", "measure the batched rows alone (no single-structure or table rows)",
         fieldOf(&Options::batchedOnly));
  t.add("skin", "S", "Verlet-list skin", fieldOf(&Options::skin)).positive();
  t.add("min-seconds", "S", "time each measurement for at least S seconds",
        fieldOf(&Options::minSeconds))
      .unit("s")
      .positive();
  t.add("table-size", "N", "atoms of the single-structure tabulated row",
        fieldOf(&Options::tableSize))
      .atLeast(2);
  t.add("max-iterations", "I", "L-BFGS step cap of the quenches", fieldOf(&Options::maxIterations))
      .atLeast(1);
  t.add("fp64-peak", "F", "FP64 lane operations per second of the floors",
        fieldOf(&Options::peak))
      .positive();
  t.add("bandwidth", "B", "memory bandwidth of the byte floor (bytes/s)",
        fieldOf(&Options::bandwidth))
      .positive();
  t.flag("no-quench", "skip the rounds-engine quenches", fieldOf(&Options::noQuench));
  t.add("lanes", "LIST", "also time the single structure at these lanes per atom (1, 2, 4, ...)",
        fieldOf(&Options::lanes));
  return t;
}


PairModel kobAndersenBox(std::size_t n, double edge) {
  PeriodicBox box;
  box.length[0] = box.length[1] = box.length[2] = edge;
  return kobAndersenModel(n, 2.5, PairCutoff::Shifted, box);
}

/// The model's Lennard-Jones law tabulated per species pair: 1024 pieces from 0.5 to the cutoff.
PairModel tabulated(PairModel m) {
  m.law = PairLaw::Tabulated;
  for (int a = 0; a < m.speciesCount(); ++a)
    for (int b = a; b < m.speciesCount(); ++b) {
      PairParameters p = m.pair(a, b);
      const double eps = p.epsilon, sigma = p.sigma;
      p.table = static_cast<int>(m.tables.size());
      m.tables.push_back(tabulatePairFunction(
          [eps, sigma](double r) {
            const double s6 = std::pow(sigma / r, 6);
            return 4.0 * eps * (s6 * s6 - s6);
          },
          0.5, p.cutoff, 1024, "LJ table"));
      m.setPair(a, b, p);
    }
  return m;
}

/// Mean pairs per atom within `radius(a, b)`: density x 4/3 pi r^3 over the species fractions.
template <class Radius>
double meanPairsWithin(const PairModel& m, double density, Radius radius) {
  std::vector<double> fraction(m.speciesCount(), 0.0);
  for (int s : m.species) fraction[s] += 1.0 / m.atoms();
  double sum = 0.0;
  for (int a = 0; a < m.speciesCount(); ++a)
    for (int b = 0; b < m.speciesCount(); ++b) {
      const double r = radius(m.pair(a, b));
      sum += fraction[a] * fraction[b] * density * 4.0 / 3.0 * kPi * r * r * r;
    }
  return sum;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

#ifdef LANDSCAPE_HAVE_CUDA

struct SingleTiming {
  double callUs = 0.0, deviceUs = 0.0, buildUs = 0.0;
  std::size_t capacity = 0;
  int lanes = 0;
};

/// Mean wall time of energyGradientDevice over the device copy of x, its device time (events on
/// the legacy stream around each call: the kernels and the gaps between them, not the host's
/// wake-up), and the wall time of one list build (withBuild).
SingleTiming timeSingle(const PairModel& model, const std::vector<double>& x, const Options& o,
                        int lanes = 0, bool withBuild = true) {
  PairPotentialCuda potential(model, o.skin, lanes);
  DeviceBuffer<double> dx(x), dg(x.size());
  potential.energyGradientDevice(dx.data(), dg.data());  // the first build
  potential.energyGradientDevice(dx.data(), dg.data());
  SingleTiming t;
  t.lanes = potential.lanesPerAtom();
  cudaEvent_t begin = nullptr, end = nullptr;
  LANDSCAPE_CUDA_CHECK(cudaEventCreate(&begin));
  LANDSCAPE_CUDA_CHECK(cudaEventCreate(&end));
  long calls = 0;
  double deviceMs = 0.0;
  auto start = std::chrono::steady_clock::now();
  while (calls < 5 || secondsSince(start) < o.minSeconds) {
    LANDSCAPE_CUDA_CHECK(cudaEventRecord(begin, nullptr));
    potential.energyGradientDevice(dx.data(), dg.data());
    LANDSCAPE_CUDA_CHECK(cudaEventRecord(end, nullptr));
    LANDSCAPE_CUDA_CHECK(cudaEventSynchronize(end));
    float ms = 0.0f;
    LANDSCAPE_CUDA_CHECK(cudaEventElapsedTime(&ms, begin, end));
    deviceMs += ms;
    ++calls;
  }
  const double wall = secondsSince(start);
  LANDSCAPE_CUDA_CHECK(cudaEventDestroy(begin));
  LANDSCAPE_CUDA_CHECK(cudaEventDestroy(end));
  t.deviceUs = 1e3 * deviceMs / calls;
  // The events' own cost is in the loop: time the calls alone again.
  calls = 0;
  start = std::chrono::steady_clock::now();
  while (calls < 5 || secondsSince(start) < std::min(o.minSeconds, wall)) {
    potential.energyGradientDevice(dx.data(), dg.data());
    ++calls;
  }
  t.callUs = 1e6 * secondsSince(start) / calls;
  t.capacity = potential.neighbourCapacity();
  if (!withBuild) return t;
  long builds = 0;
  start = std::chrono::steady_clock::now();
  while (builds < 3 || secondsSince(start) < o.minSeconds) {
    potential.rebuildNeighbourList(dx.data());
    ++builds;
  }
  t.buildUs = 1e6 * secondsSince(start) / builds;
  return t;
}

/// Seconds per launch of the batched device entry point over B structures (events). With
/// `other` (the same size as x), the launches alternate between x and other.
double timeBatchedLaunch(BatchedPairPotentialCuda& potential, const std::vector<double>& x,
                         std::size_t batch, const Options& o,
                         const std::vector<double>* other = nullptr) {
  DeviceBuffer<double> dx(x), dy(other ? *other : std::vector<double>(1)), dg(x.size()),
      de(batch);
  const double* inputs[2] = {dx.data(), other ? dy.data() : dx.data()};
  cudaStream_t stream = nullptr;
  cudaEvent_t begin = nullptr, end = nullptr;
  LANDSCAPE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  LANDSCAPE_CUDA_CHECK(cudaEventCreate(&begin));
  LANDSCAPE_CUDA_CHECK(cudaEventCreate(&end));
  potential.energyGradientDevice(batch, inputs[1], dg.data(), de.data(), nullptr, stream);
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
  int launches = 10;
  double seconds = 0.0;
  for (;;) {
    LANDSCAPE_CUDA_CHECK(cudaEventRecord(begin, stream));
    for (int k = 0; k < launches; ++k)
      potential.energyGradientDevice(batch, inputs[k & 1], dg.data(), de.data(), nullptr, stream);
    LANDSCAPE_CUDA_CHECK(cudaEventRecord(end, stream));
    LANDSCAPE_CUDA_CHECK(cudaEventSynchronize(end));
    float ms = 0.0f;
    LANDSCAPE_CUDA_CHECK(cudaEventElapsedTime(&ms, begin, end));
    seconds = 1e-3 * ms;
    if (seconds >= o.minSeconds || launches >= 100000) break;
    launches *= 4;
  }
  LANDSCAPE_CUDA_CHECK(cudaEventDestroy(begin));
  LANDSCAPE_CUDA_CHECK(cudaEventDestroy(end));
  LANDSCAPE_CUDA_CHECK(cudaStreamDestroy(stream));
  return seconds / launches;
}

void singleRows(const Options& o) {
  std::printf(
      "## One structure (gpu/PairPotentialCuda): Kob-Andersen, density 1.2, shifted at 2.5 "
      "sigma_ab, skin %.2f\n\n",
      o.skin);
  std::printf(
      "| N | lanes | call us | device us | ns/atom | x 16k | device ns/atom | x 16k | build us | "
      "build / call | list mean / capacity | floor us (FP64 / bytes) | x floor (device) |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  struct Row {
    std::size_t n;
    double nsPerAtom, deviceNsPerAtom;
  };
  std::vector<Row> rows;
  std::vector<SingleTiming> timings;
  for (std::size_t n : o.sizes) {
    double edge = 0.0;
    const std::vector<double> x = perturbedLatticeInBox(n, 1.2, 0.1, 7, &edge);
    const PairModel model = kobAndersenBox(n, edge);
    timings.push_back(timeSingle(model, x, o));
    rows.push_back({n, 1e3 * timings.back().callUs / n, 1e3 * timings.back().deviceUs / n});
  }
  // The row nearest 10^4 atoms (log scale) is the reference of "x 16k".
  std::size_t ref = 0;
  for (std::size_t k = 1; k < rows.size(); ++k)
    if (std::abs(std::log(rows[k].n / 1e4)) < std::abs(std::log(rows[ref].n / 1e4))) ref = k;
  double worstRatio = 0.0, bestRatio = 1e300, worstDevice = 0.0, bestDevice = 1e300;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::size_t n = rows[k].n;
    const PairModel model = kobAndersenBox(n, std::cbrt(n / 1.2));
    const double listed = meanPairsWithin(model, 1.2, [&](const PairParameters& p) { return p.cutoff + o.skin; });
    const double flopFloor = 1e6 * n * listed * kFlopsPerPair / o.peak;
    const double byteFloor = 1e6 * n * (listed * kBytesPerListedPair + kBytesPerAtom) / o.bandwidth;
    const double floorUs = std::max(flopFloor, byteFloor);
    const double ratio = rows[k].nsPerAtom / rows[ref].nsPerAtom;
    const double deviceRatio = rows[k].deviceNsPerAtom / rows[ref].deviceNsPerAtom;
    if (n >= rows[ref].n) {
      worstRatio = std::max(worstRatio, ratio);
      bestRatio = std::min(bestRatio, ratio);
      worstDevice = std::max(worstDevice, deviceRatio);
      bestDevice = std::min(bestDevice, deviceRatio);
    }
    const SingleTiming& t = timings[k];
    std::printf(
        "| %zu | %d | %.1f | %.1f | %.3f | %.2f | %.3f | %.2f | %.1f | %.1f | %.1f / %zu | %.1f "
        "(%.1f / %.1f) | %.2f (%.2f) |\n",
        n, t.lanes, t.callUs, t.deviceUs, rows[k].nsPerAtom, ratio, rows[k].deviceNsPerAtom,
        deviceRatio, t.buildUs, t.buildUs / t.callUs, listed, t.capacity, floorUs, flopFloor,
        byteFloor, t.callUs / floorUs, t.deviceUs / floorUs);
  }
  std::printf(
      "\ncost per atom from N = %zu up, largest / smallest: %.2f per call, %.2f device time\n\n",
      rows[ref].n, worstRatio / bestRatio, worstDevice / bestDevice);
  if (o.lanes.empty()) return;
  std::printf("### Lanes per atom (call us / device us)\n\n| N |");
  for (int lanes : o.lanes) std::printf(" %d |", lanes);
  std::printf("\n|---|");
  for (std::size_t k = 0; k < o.lanes.size(); ++k) std::printf("---|");
  std::printf("\n");
  for (std::size_t n : o.sizes) {
    double edge = 0.0;
    const std::vector<double> x = perturbedLatticeInBox(n, 1.2, 0.1, 7, &edge);
    const PairModel model = kobAndersenBox(n, edge);
    std::printf("| %zu |", n);
    for (int lanes : o.lanes) {
      const SingleTiming t = timeSingle(model, x, o, lanes, false);
      std::printf(" %.1f / %.1f |", t.callUs, t.deviceUs);
    }
    std::printf("\n");
  }
  std::printf("\n");
}

void tableRows(const Options& o) {
  std::printf("## Tabulated (1024 pieces per species pair) against analytic Lennard-Jones\n\n");
  std::printf("| kernel | N | B | analytic us | tabulated us | tabulated / analytic |\n"
              "|---|---|---|---|---|---|\n");
  double edge = 0.0;
  const std::vector<double> x = perturbedLatticeInBox(o.tableSize, 1.2, 0.1, 8, &edge);
  const PairModel model = kobAndersenBox(o.tableSize, edge);
  const double analytic = timeSingle(model, x, o, 0, false).callUs;
  const double table = timeSingle(tabulated(model), x, o, 0, false).callUs;
  std::printf("| single (Verlet list) | %zu | 1 | %.1f | %.1f | %.3f |\n", o.tableSize, analytic,
              table, table / analytic);
  const std::size_t batch = 4096;
  std::vector<double> xs;
  for (std::size_t b = 0; b < batch; ++b) {
    const std::vector<double> s = perturbedLatticeInBox(256, 1.2, 0.1, 100 + b, &edge);
    xs.insert(xs.end(), s.begin(), s.end());
  }
  const PairModel small = kobAndersenBox(256, edge);
  // Every pair, as the first tables of this program measured it.
  BatchedPairPotentialCuda a(small, 0, BatchedPairList::Never),
      t(tabulated(small), 0, BatchedPairList::Never);
  const double ta = 1e6 * timeBatchedLaunch(a, xs, batch, o);
  const double tt = 1e6 * timeBatchedLaunch(t, xs, batch, o);
  std::printf("| batched (all pairs) | 256 | %zu | %.1f | %.1f | %.3f |\n\n", batch, ta, tt, tt / ta);
}

/// One row of the batched table: a path (every pair or the rows' lists) at (N, B).
struct BatchedRow {
  std::size_t atoms = 0, batch = 0;
  bool list = false;
  double evalRate = 0.0;     ///< structures per second, the same coordinates every launch
  double rebuildRate = 0.0;  ///< structures per second, every row rebuilt at every launch (list)
  double quenchRate = 0.0, calls = 0.0, rebuilds = 0.0, converged = 0.0;
};

void batchedRows(const Options& o) {
  std::printf("## Batched Kob-Andersen (gpu/BatchedPairPotentialCuda): every pair against each "
              "row's Verlet list\n\n");
  std::printf(
      "| N | path | B | evals/s | rebuild evals/s | floor evals/s | x floor | quenches/s | "
      "calls/quench | rebuilds/quench | converged | quench floor/s | x floor |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::vector<BatchedRow> rows;
  for (std::size_t atoms : o.batchedSizes) {
    // The floor counts every ordered pair (the path over every pair), for both paths.
    const double evalFloor = o.peak / (kFlopsPerPair * atoms * (atoms - 1));
    std::vector<std::size_t> batches = o.batches;
    if (atoms > 256) batches = {std::min<std::size_t>(o.batches.front(), 1024)};
    for (std::size_t batch : batches) {
      double edge = 0.0;
      std::vector<double> starts;
      for (std::size_t b = 0; b < batch; ++b) {
        const std::vector<double> s = perturbedLatticeInBox(atoms, 1.2, 0.2, 1000 + b, &edge);
        starts.insert(starts.end(), s.begin(), s.end());
      }
      // The starts with atom 0 of every structure moved by the whole skin: launches alternating
      // between the two rebuild every row each time.
      std::vector<double> moved = starts;
      for (std::size_t b = 0; b < batch; ++b) moved[3 * atoms * b] += o.skin;
      const PairModel model = kobAndersenBox(atoms, edge);
      for (BatchedPairList path : {BatchedPairList::Never, BatchedPairList::Automatic}) {
        BatchedPairPotentialCuda potential(model, 0, path, o.skin);
        BatchedRow row;
        row.atoms = atoms;
        row.batch = batch;
        row.list = potential.usesNeighbourList();
        const char* name = row.list ? "Verlet lists" : "every pair";
        row.evalRate = batch / timeBatchedLaunch(potential, starts, batch, o);
        if (row.list) row.rebuildRate = batch / timeBatchedLaunch(potential, starts, batch, o, &moved);
        char rebuildText[32] = "";
        if (row.list) std::snprintf(rebuildText, sizeof rebuildText, "%.3g", row.rebuildRate);
        if (o.noQuench) {
          std::printf("| %zu | %s | %zu | %.3g | %s | %.3g | %.2f | | | | | | |\n", atoms, name,
                      batch, row.evalRate, rebuildText, evalFloor, evalFloor / row.evalRate);
          rows.push_back(row);
          continue;
        }
        LbfgsParams params;  // GMIN's defaults
        params.maxIterations = o.maxIterations;
        BatchedEngineOptions engine;
        engine.engine = BatchedEngine::Rounds;
        auto minimiser = makeBatchedMinimiserOver(potential, params, Backend::Cuda, engine);
        std::vector<LbfgsResult> results(batch);
        std::vector<double> x = starts;
        minimiser->minimise(batch, x.data(), results.data());  // captures the graphs
        x = starts;
        const long rebuildsBefore = potential.listRebuilds();
        const auto start = std::chrono::steady_clock::now();
        minimiser->minimise(batch, x.data(), results.data());
        const double seconds = secondsSince(start);
        row.rebuilds = static_cast<double>(potential.listRebuilds() - rebuildsBefore) / batch;
        for (const LbfgsResult& r : results) {
          row.calls += static_cast<double>(r.functionCalls) / batch;
          row.converged += r.converged() ? 1.0 / batch : 0.0;
        }
        row.quenchRate = batch / seconds;
        std::printf("| %zu | %s | %zu | %.3g | %s | %.3g | %.2f | %.0f | %.0f | %.1f | %.3f | %.0f "
                    "| %.2f |\n",
                    atoms, name, batch, row.evalRate, rebuildText, evalFloor,
                    evalFloor / row.evalRate, row.quenchRate, row.calls, row.rebuilds,
                    row.converged, evalFloor / row.calls, evalFloor / row.calls / row.quenchRate);
        rows.push_back(row);
      }
    }
  }
  // The lists against every pair at each (N, B): evaluations without rebuilds, launches in which
  // every row rebuilds (the list's build: a pass over every pair that also stores the partners),
  // and quenches.
  std::printf(
      "\n### Verlet lists / every pair\n\n"
      "| N | B | list | evals/s ratio | rebuild launch / every-pair launch | quenches/s ratio |\n"
      "|---|---|---|---|---|---|\n");
  for (std::size_t k = 0; k + 1 < rows.size(); k += 2) {
    const BatchedRow& every = rows[k];
    const BatchedRow& listed = rows[k + 1];
    if (!listed.list) {
      std::printf("| %zu | %zu | not chosen | | | |\n", every.atoms, every.batch);
      continue;
    }
    char quench[32] = "";
    if (!o.noQuench) std::snprintf(quench, sizeof quench, "%.2f", listed.quenchRate / every.quenchRate);
    std::printf("| %zu | %zu | yes | %.2f | %.2f | %s |\n", every.atoms, every.batch,
                listed.evalRate / every.evalRate, every.evalRate / listed.rebuildRate, quench);
  }
  std::printf("\n");
}

#endif  // LANDSCAPE_HAVE_CUDA

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    std::printf("device: %s\n\n", gpuDescription().c_str());
#ifdef LANDSCAPE_HAVE_CUDA
    if (!gpuAvailable()) {
      std::printf("no CUDA device: nothing to measure\n");
      return 0;
    }
    if (!o.batchedOnly) {
      singleRows(o);
      tableRows(o);
    }
    batchedRows(o);
    return 0;
#else
    std::printf("this build has no CUDA support: nothing to measure\n");
    return 0;
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_pair_potential: %s\n", e.what());
    return 1;
  }
}
