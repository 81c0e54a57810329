// Benchmark (not a test): batched AMBER-GB and SOP energy + gradient on the GPU,
// gpu/BatchedAmberGbCuda and gpu/BatchedSopCuda, B structures of one protein per launch sequence,
// printed as Markdown tables for docs/benchmarks.md.
//
// Structures: the system's file structure with every coordinate moved by up to 0.1 A (a seed per
// structure), in its REFERENCE.md conditions (igb 2, 0.2 M, rgbmax 12 A). For each B (default
// 1, 8, 64, 256, 1024, where the scratch fits in device memory):
//   synced ms       wall time of one call of the device entry point followed by
//                   cudaDeviceSynchronize, median of --repeats (the latency a host-driven loop
//                   sees)
//   host ms         the same for the host entry point (host arrays in and out: the staging's
//                   page-locked copies and one wait, as a shared call of network growth pays)
//   pageable ms     the same through plain cudaMemcpy of pageable host arrays (x in, g and the
//                   energies out), as the host entry point copied before its staging was
//                   page-locked
//   queued ms       --repeats calls enqueued back to back, one synchronisation, / repeats (what a
//                   device-resident minimiser that never waits sees)
//   us/structure    queued ms / B; structures/s its inverse; "x B=1" the per-structure speed-up
//                   over B = 1 (queued)
//   floor us        the FP64 floor per structure, as docs/benchmarks.md's GB floor table counts
//                   it: 100 FP64 lane operations per pair (GB pair term, LJ, Coulomb; all N(N-1)/2
//                   pairs), 50 per ordered pair within rgbmax + max s (Born radii), 130 per pair
//                   within it (chain rule), over 132 SMs x 64 FP64 lanes x 1.98 GHz = 16.7e12
//                   operations/s (= 33.5 TFLOP/s counting an fma as 2); pairs within the cutoff
//                   counted on the unperturbed structure
//   x floor         us/structure / floor us
//   B=1 bits        whether structure 0's energy and gradient are the bits it had at the first
//                   B of --batches (B = 1 by default)
// "scratch" is the device memory per structure (Born radii, pair slots, energies, counters).
// Layouts (--layout): latency (AmberGbCuda's, tile pairs split over up to 8 blocks so that one
// structure fills the device) and throughput (a tile pair per block: fewer slots); their bits
// differ from each other, never with B.
//
// SOP rows (--models sop or both; gpu/BatchedSopCuda): the SOP test proteins (tests/data/sop:
// 1TIT, 89 beads; PF8, 6,900 beads) with every coordinate moved by up to 0.5 A, B = --sop-batches
// (default 1, 16, 128, 1024), the same columns; the floor is the larger of an FP64 floor (40 lane
// operations per FENE bond, 30 per native contact and per repulsive pair within rc on the
// unperturbed structure, each pair once, at 16.7e12 operations/s) and a byte floor (x read and
// g written, 48 bytes per bead, at 3.35 TB/s); "scratch" is in KB. A last row per protein
// is gpu/SopCuda (the single-structure potential, a Verlet list reused across calls) at B = 1
// with the same timing, to compare with the batched class's B = 1.
//
// Rigid rows (--rigid also|only): the GB system in the rigid coordinates of make_rigid_bodies'
// local groups (peptide bonds, rings, sp2 centres; Mantell et al. 2016, Table 4) through
// gpu/BatchedRigidBodyCuda over the batched GB potential: the columns as above (floor: the GB one,
// the rigid layer adds O(N) work), "scratch" the GB and rigid scratch together; each structure is
// the file structure's rigid coordinates with every centre and free atom moved by up to 0.1 A and
// every rotation vector by up to 0.05 rad.
//
// Water rows (--models water or all; gpu/BatchedSitePotentialCuda under gpu/BatchedRigidBodyCuda,
// through makeBatchedRigidPotential): rigid TIP4P clusters (H2O)N (--water-systems water20 =
// N = 20; potentials/WaterCluster, kJ/mol and Angstrom) in rigid coordinates (6N per structure),
// B = --water-batches (default 1, 64, 1024, 8192). Each structure is one hydrogen-bonded cluster
// (molecules on a 3.1 A grid with random orientations, quenched by L-BFGS on the CPU) with every
// rigid coordinate moved by up to 0.05 (A or rad). Columns: the cuda times as above; cpu
// us/structure the host entry point of the same factory on one CPU core (BatchedRigidBodyPotential
// over SitePotential, 1 thread), median over calls; "cuda / cpu" the per-structure speed-up;
// floor us the FP64 floor of the site pairs that interact (10 of a TIP4P molecule pair's 16),
// 60 FP64 lane operations per pair (distance, 1/r^2, sqrt, C12/r^12 - C6/r^6 + k q q / r, its
// derivative, the gradient; each pair once) at the 16.7e12 operations/s above; the rigid layer's
// O(N) work is not counted. Without a device only the cpu columns are printed. The same rows take
// Gay-Berne ellipsoids (ellipsoidsN in --water-systems or --systems: gpu/BatchedGayBerneCuda under
// the rigid layer, gmin's lattice start with every rigid coordinate moved by up to 0.05, reduced
// units), with a floor of about 200 FP64 lane operations per ellipsoid pair, each pair once.
//
// Usage: bench_batched_potential [--data DIR] [--systems trpcage,myoglobin] [--batches 1,8,...]
//                                [--repeats K] [--precision double|mixed|both]
//                                [--layout latency|throughput|both]
//                                [--models gb|sop|both|water|all] [--rigid off|also|only]
//                                [--sop-systems 1TIT,PF8] [--sop-batches 1,16,...]
//                                [--water-systems water20,...] [--water-batches 1,64,...]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "backends/BatchedPotentialFactory.h"
#include "gpu/BatchedAmberGbCuda.h"    // CUDA-free header; the class exists in CUDA builds
#include "gpu/BatchedRigidBodyCuda.h"  // likewise
#include "gpu/BatchedSopCuda.h"        // CUDA-free header; the class exists in CUDA builds
#include "gpu/GpuDevice.h"
#include "gpu/SopCuda.h"
#include "landscape/core/Precision.h"
#include "landscape/geometry/RigidBodyFinder.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "potentials/GayBerne.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/SitePotential.h"
#include "potentials/Sop.h"
#include "potentials/SopTopology.h"
#include "potentials/WaterCluster.h"
#include "src/common/OptionTable.h"
#include "tools/GbTestData.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#endif

namespace {

using namespace landscape;

struct BenchSystem {
  const char* name;
  const char* prmtop;  ///< relative to --data
  const char* inpcrd;
};

const BenchSystem kSystems[] = {
    {"trpcage", "trpcage/prmtop", "trpcage/inpcrd"},
    {"trx", "trx/prmtop.gb2", "trx/trxox.2.4ns.x"},
    {"myoglobin", "myoglobin/prmtop", "myoglobin/inpcrd"},
};

constexpr double kFp64OperationsPerSecond = 132.0 * 64.0 * 1.98e9;  // H100 SXM

struct Options {
  std::string data = std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/gb";
  std::vector<std::string> systems{"trpcage", "myoglobin"};
  std::vector<std::string> batches{"1", "8", "64", "256", "1024"};
  int repeats = 20;
  std::string precision = "both";
  std::string layout = "both";
  std::string rigid = "off";
  std::string models = "both";
  std::vector<std::string> sopSystems{"1TIT", "PF8"};
  std::vector<std::string> sopBatches{"1", "16", "128", "1024"};
  std::vector<std::string> waterSystems{"water20"};
  std::vector<std::string> waterBatches{"1", "64", "1024", "8192"};
};

struct SopBenchSystem {
  const char* name;
  const char* pdb;  ///< relative to <source>/tests/data/sop
};

const SopBenchSystem kSopSystems[] = {{"1TIT", "1TIT.pdb"}, {"PF8", "PF8_protofilament_ca.pdb"}};
constexpr double kBytesPerSecond = 3.35e12;  // H100 SXM HBM3

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_batched_potential");
  t.about =
      "usage: bench_batched_potential [--data DIR] [--systems a,b] [--batches 1,8,...] [--repeats "
      "K]\n                               [--precision double|mixed|both]\n"
      "                               [--models gb|sop|both|water|all]\n"
      "Batched AMBER-GB (gpu/BatchedAmberGbCuda), SOP (gpu/BatchedSopCuda) and rigid TIP4P water\n"
      "(gpu/BatchedSitePotentialCuda under gpu/BatchedRigidBodyCuda) energy + gradient on the GPU:\n"
      "time per launch sequence and per structure against B, the speed-up over B = 1 and the floor\n"
      "per structure, as Markdown tables; water rows also time one CPU core. Needs a CUDA device\n"
      "(water rows without one print the CPU columns only).\n";
  t.helpCommand();
  t.add("data", "DIR", "GB test systems (default <source>/tests/data/gb)", fieldOf(&Options::data));
  t.add("systems", "LIST",
        "comma-separated subset of trpcage,trx,myoglobin (default "
        "trpcage,myoglobin)",
        fieldOf(&Options::systems));
  t.add("batches", "LIST", "batch sizes B (default 1,8,64,256,1024)", fieldOf(&Options::batches));
  t.add("repeats", "K", "timed calls per cell", fieldOf(&Options::repeats)).atLeast(1);
  t.add("precision", "P", "double, mixed or both (default both)", fieldOf(&Options::precision));
  t.add("layout", "L", "latency, throughput or both (default both)", fieldOf(&Options::layout));
  t.add("rigid", "R",
        "GB rows: off (atomistic), also (atomistic then rigid) or only (rigid): local rigid bodies "
        "over the batched GB potential (default off)",
        fieldOf(&Options::rigid));
  t.add("models", "M",
        "gb, sop, both (gb and sop), water (rigid TIP4P clusters) or all (default both)",
        fieldOf(&Options::models));
  t.add("sop-systems", "LIST", "comma-separated subset of 1TIT,PF8 (default both)",
        fieldOf(&Options::sopSystems));
  t.add("sop-batches", "LIST", "SOP batch sizes B (default 1,16,128,1024)",
        fieldOf(&Options::sopBatches));
  t.add("water-systems", "LIST",
        "rigid clusters, comma-separated: waterN, N TIP4P molecules (kJ/mol, Angstrom), or "
        "ellipsoidsN, N Gay-Berne ellipsoids (reduced units); N >= 2 (default water20)",
        fieldOf(&Options::waterSystems));
  t.add("water-batches", "LIST", "water batch sizes B (default 1,64,1024,8192)",
        fieldOf(&Options::waterBatches));
  return t;
}

/// Pairs i < j of x closer than `cutoff` (A).
long long pairsWithin(const std::vector<double>& x, double cutoff) {
  const std::size_t n = x.size() / 3;
  long long count = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      double r2 = 0.0;
      for (int c = 0; c < 3; ++c)
        r2 += (x[3 * i + c] - x[3 * j + c]) * (x[3 * i + c] - x[3 * j + c]);
      count += r2 <= cutoff * cutoff ? 1 : 0;
    }
  return count;
}

/// Positive integers from a list option; false (after a message) for anything else.
bool parseBatches(const std::vector<std::string>& list, const char* option,
                  std::vector<long>& out) {
  for (const std::string& b : list) {
    char* end = nullptr;
    const long value = std::strtol(b.c_str(), &end, 10);
    if (b.empty() || *end != '\0' || value < 1) {
      std::fprintf(stderr, "bench_batched_potential: --%s needs positive integers, not '%s'\n",
                   option, b.c_str());
      return false;
    }
    out.push_back(value);
  }
  return true;
}

#ifdef LANDSCAPE_HAVE_CUDA
/// Median of `repeats` synchronised calls and the mean of `repeats` queued ones (ms).
template <class Call>
std::pair<double, double> timeCalls(int repeats, Call call) {
  for (int w = 0; w < 2; ++w) call();
  LANDSCAPE_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> synced;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    LANDSCAPE_CUDA_CHECK(cudaDeviceSynchronize());
    synced.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(synced.begin(), synced.end());
  const auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < repeats; ++r) call();
  LANDSCAPE_CUDA_CHECK(cudaDeviceSynchronize());
  const double queued =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
      repeats;
  return {synced[synced.size() / 2], queued};
}

/// The rows of one GB table series (one potential, one precision and layout): times B structures
/// of `x` ([B x n], the first B rows) per device-entry call and keeps B = 1's time and the first
/// B's bits of structure 0 as references.
struct GbSeries {
  std::string system, precision, layout;
  double floorUs;
  double perStructureAtOne = 0.0;
  std::vector<double> eOne, gOne;

  void doesNotFit(long batch, const char* why) const {
    std::printf("| %s | %s | %s | %ld | does not fit: %s |\n", system.c_str(), precision.c_str(),
                layout.c_str(), batch, why);
  }

  void row(BatchedPotential& potential, std::size_t B, const std::vector<double>& x, int repeats,
           std::size_t scratchBytes) {
    const std::size_t n = potential.dimension();
    DeviceBuffer<double> dX(B * n), dG(B * n), dE(B);
    dX.copyFromHost(x.data(), B * n);
    const auto [syncedMs, queuedMs] = timeCalls(repeats, [&] {
      potential.energyGradientDevice(B, dX.data(), dG.data(), dE.data(), nullptr, nullptr);
    });
    const double perStructureUs = 1e3 * queuedMs / static_cast<double>(B);
    std::vector<double> e(1), g(n);
    dE.copyToHost(e.data(), 1);
    dG.copyToHost(g.data(), n);
    std::vector<double> hostG(B * n), hostE(B);
    const double hostMs =
        timeCalls(repeats, [&] {
          potential.energyGradient(B, x.data(), hostG.data(), hostE.data(), nullptr);
        }).first;
    // The same through pageable cudaMemcpy, as the host entry point copied before its staging
    // became page-locked: x in, the device entry point, g and the energies out.
    const double pageableMs =
        timeCalls(repeats, [&] {
          LANDSCAPE_CUDA_CHECK(
              cudaMemcpy(dX.data(), x.data(), B * n * sizeof(double), cudaMemcpyHostToDevice));
          potential.energyGradientDevice(B, dX.data(), dG.data(), dE.data(), nullptr, nullptr);
          LANDSCAPE_CUDA_CHECK(
              cudaMemcpy(hostG.data(), dG.data(), B * n * sizeof(double), cudaMemcpyDeviceToHost));
          LANDSCAPE_CUDA_CHECK(
              cudaMemcpy(hostE.data(), dE.data(), B * sizeof(double), cudaMemcpyDeviceToHost));
        }).first;
    if (eOne.empty()) {  // the first B is the reference for the bits column
      eOne = e;
      gOne = g;
    }
    if (B == 1) perStructureAtOne = perStructureUs;
    const bool sameBits = std::memcmp(e.data(), eOne.data(), sizeof(double)) == 0 &&
                          std::memcmp(g.data(), gOne.data(), n * sizeof(double)) == 0;
    char speedup[32] = "-";
    if (perStructureAtOne > 0.0)
      std::snprintf(speedup, sizeof speedup, "%.1f", perStructureAtOne / perStructureUs);
    std::printf(
        "| %s | %s | %s | %zu | %.4f | %.4f | %.4f | %.4f | %.3f | %.3g | %s | %.3f | %.1f | %s "
        "| %.2f |\n",
        system.c_str(), precision.c_str(), layout.c_str(), B, syncedMs, hostMs, pageableMs,
        queuedMs, perStructureUs, 1e6 / perStructureUs, speedup, floorUs, perStructureUs / floorUs,
        sameBits ? "yes" : "NO", static_cast<double>(scratchBytes) / (1 << 20));
    std::fflush(stdout);
  }
};

/// The SOP rows (gpu/BatchedSopCuda, then gpu/SopCuda at B = 1).
void benchSop(const Options& o, const std::vector<long>& batches) {
  std::printf(
      "\n| SOP system | beads | B | synced ms | queued ms | us/structure | structures/s | x B=1 "
      "| floor us | x floor | B=1 bits | scratch KB/structure |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const SopBenchSystem& s : kSopSystems) {
    if (std::find(o.sopSystems.begin(), o.sopSystems.end(), s.name) == o.sopSystems.end()) continue;
    const SopTopology topology =
        readSopTopology(std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/sop/" + s.pdb);
    const std::vector<double> x0 = topology.nativeCoordinates();
    const std::size_t n = x0.size();
    const double beads = static_cast<double>(topology.beadCount());
    Sop cpu(topology);
    const double pairs =
        static_cast<double>(cpu.repulsivePairs(x0.data(), topology.params.repulsiveCutoff).size());
    const double flopUs =
        1e6 * (40.0 * topology.bonds.size() + 30.0 * topology.contacts.size() + 30.0 * pairs) /
        kFp64OperationsPerSecond;
    const double byteUs = 1e6 * 48.0 * beads / kBytesPerSecond;
    const double floorUs = std::max(flopUs, byteUs);
    const long largest = *std::max_element(batches.begin(), batches.end());
    std::vector<double> x;
    x.reserve(static_cast<std::size_t>(largest) * n);
    for (long b = 0; b < largest; ++b) {
      std::mt19937_64 rng(2000 + static_cast<std::uint64_t>(b));
      std::uniform_real_distribution<double> u(-0.5, 0.5);
      for (double v : x0) x.push_back(v + u(rng));
    }
    BatchedSopCuda gpu(topology);
    double perStructureAtOne = 0.0;
    std::vector<double> eOne, gOne;
    for (long batch : batches) {
      const std::size_t B = static_cast<std::size_t>(batch);
      try {
        gpu.reserve(B);
      } catch (const std::runtime_error& e) {
        std::printf("| %s | %.0f | %ld | does not fit: %s |\n", s.name, beads, batch, e.what());
        continue;
      }
      DeviceBuffer<double> dX(B * n), dG(B * n), dE(B);
      dX.copyFromHost(x.data(), B * n);
      const auto [syncedMs, queuedMs] = timeCalls(o.repeats, [&] {
        gpu.energyGradientDevice(B, dX.data(), dG.data(), dE.data(), nullptr, nullptr);
      });
      const double perStructureUs = 1e3 * queuedMs / static_cast<double>(B);
      std::vector<double> e(1), g(n);
      dE.copyToHost(e.data(), 1);
      dG.copyToHost(g.data(), n);
      if (eOne.empty()) {
        eOne = e;
        gOne = g;
      }
      if (B == 1) perStructureAtOne = perStructureUs;
      const bool sameBits = std::memcmp(e.data(), eOne.data(), sizeof(double)) == 0 &&
                            std::memcmp(g.data(), gOne.data(), n * sizeof(double)) == 0;
      char speedup[32] = "-";
      if (perStructureAtOne > 0.0)
        std::snprintf(speedup, sizeof speedup, "%.1f", perStructureAtOne / perStructureUs);
      std::printf(
          "| %s | %.0f | %ld | %.4f | %.4f | %.3f | %.3g | %s | %.4f (%s) | %.1f | %s | %.1f |\n",
          s.name, beads, batch, syncedMs, queuedMs, perStructureUs, 1e6 / perStructureUs, speedup,
          floorUs, flopUs >= byteUs ? "FP64" : "bytes", perStructureUs / floorUs,
          sameBits ? "yes" : "NO", static_cast<double>(gpu.bytesPerStructure()) / 1024.0);
      std::fflush(stdout);
    }
    // The single-structure potential (Verlet list, skin 2 A) at the first structure: its
    // device entry point synchronises (it returns the energy), so synced = queued.
    SopCuda single(topology);
    DeviceBuffer<double> dX(n), dG(n);
    dX.copyFromHost(x.data(), n);
    const auto [syncedMs, queuedMs] =
        timeCalls(o.repeats, [&] { single.energyGradientDevice(dX.data(), dG.data()); });
    std::printf(
        "| %s (SopCuda) | %.0f | 1 | %.4f | %.4f | %.3f | %.3g | - | %.4f | %.1f | - | - |\n",
        s.name, beads, syncedMs, queuedMs, 1e3 * queuedMs, 1e3 / queuedMs, floorUs,
        1e3 * queuedMs / floorUs);
    std::fflush(stdout);
  }
}
#endif

/// N of a rigid-cluster system name: "waterN" (TIP4P molecules) or "ellipsoidsN" (Gay-Berne
/// ellipsoids), N >= 2; 0 for anything else.
std::size_t clusterCount(const std::string& name, const std::string& prefix) {
  if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) return 0;
  char* end = nullptr;
  const long n = std::strtol(name.c_str() + prefix.size(), &end, 10);
  return *end == '\0' && n >= 2 ? static_cast<std::size_t>(n) : 0;
}
std::size_t waterMolecules(const std::string& name) { return clusterCount(name, "water"); }
std::size_t ellipsoidCount(const std::string& name) { return clusterCount(name, "ellipsoids"); }

/// `count` rigid structures of (H2O)N (rigid coordinates of `system`): molecules on a 3.1 A grid
/// with random orientations, quenched by L-BFGS (a hydrogen-bonded cluster), then each structure
/// with every coordinate moved by up to 0.05 A or rad.
std::vector<double> waterStructures(const WaterCluster& water, const RigidBodySystem& system,
                                    std::size_t count) {
  const std::size_t n = water.moleculeCount();
  std::mt19937_64 rng(4000 + n);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::size_t side = 1;
  while (side * side * side < n) ++side;
  std::vector<double> q0(system.dimension());
  for (std::size_t m = 0; m < n; ++m) {
    const std::size_t cell[3] = {m % side, (m / side) % side, m / (side * side)};
    for (int c = 0; c < 3; ++c) q0[3 * m + c] = 3.1 * static_cast<double>(cell[c]) + 0.2 * unit(rng);
    for (int c = 0; c < 3; ++c) q0[3 * n + 3 * m + c] = 1.8 * unit(rng);  // |p| < pi
  }
  SitePotential sites(water.model);
  RigidBodyPotential rigid(sites, system);
  LbfgsParams params;
  params.maxIterations = 5000;
  params.rmsTolerance = 1e-3;
  Lbfgs(params).minimize(rigid, q0);
  std::vector<double> q;
  q.reserve(count * q0.size());
  for (std::size_t b = 0; b < count; ++b)
    for (double v : q0) q.push_back(v + 0.05 * unit(rng));
  return q;
}

/// Median wall time (ms) of the host entry point over calls, at least 3 and until 0.5 s.
double cpuCallMs(BatchedPotential& potential, std::size_t batch, const std::vector<double>& q) {
  std::vector<double> g(batch * potential.dimension()), e(batch);
  potential.energyGradient(batch, q.data(), g.data(), e.data(), nullptr);  // warm-up
  std::vector<double> times;
  double total = 0.0;
  while (times.size() < 3 || (total < 500.0 && times.size() < 50)) {
    const auto t0 = std::chrono::steady_clock::now();
    potential.energyGradient(batch, q.data(), g.data(), e.data(), nullptr);
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    total += times.back();
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// One rigid-cluster row set: what the factories build, the structures and the floor.
struct RigidCluster {
  PotentialSpec spec;
  RigidBodySystem system;
  double count = 0.0;    ///< molecules or ellipsoids
  double floorUs = 0.0;  ///< FP64 floor per structure
  std::vector<double> structures;
};

RigidCluster rigidCluster(const std::string& name, std::size_t largest) {
  if (const std::size_t molecules = waterMolecules(name)) {
    const WaterCluster water = tip4pCluster(molecules);
    RigidCluster c{PotentialSpec(), water.rigidSystem(), static_cast<double>(molecules), 0.0, {}};
    c.spec.kind = PotentialSpec::Kind::Sites;
    c.spec.siteModel = std::make_shared<const SiteModel>(water.model);
    // TIP4P: O-O, 4 H-H, 4 H-M and M-M of every molecule pair interact.
    const double pairs = 10.0 * c.count * (c.count - 1.0) / 2.0;
    c.floorUs = 1e6 * 60.0 * pairs / kFp64OperationsPerSecond;
    c.structures = waterStructures(water, c.system, largest);
    return c;
  }
  const std::size_t n = ellipsoidCount(name);
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), n);
  RigidCluster c{PotentialSpec(), cluster.rigidSystem(), static_cast<double>(n), 0.0, {}};
  c.spec.kind = PotentialSpec::Kind::GayBerne;
  c.spec.atoms = kGayBerneMarkers * n;
  // About 200 FP64 lane operations per ellipsoid pair (potentials/GayBerneTerms.h: the unit
  // vector, a, b, c, H and its derivatives twice, two pow, R^-12 and R^-6, the derivatives in r,
  // u_i, u_j), each pair once.
  c.floorUs = 1e6 * 200.0 * c.count * (c.count - 1.0) / 2.0 / kFp64OperationsPerSecond;
  // gmin's lattice start, every rigid coordinate moved by up to 0.05 (sigma0 or rad).
  const std::vector<double> q0 = c.system.fromAtoms(cluster.referenceMarkers);
  std::mt19937_64 rng(5000 + n);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (std::size_t b = 0; b < largest; ++b)
    for (double v : q0) c.structures.push_back(v + 0.05 * unit(rng));
  return c;
}

/// The rigid-cluster rows: rigid TIP4P (H2O)N and Gay-Berne ellipsoids on cuda (when a device is
/// present) and on one CPU core.
void benchRigidClusters(const Options& o, const std::vector<long>& batches, bool gpu) {
  std::printf(
      "\n| rigid cluster | molecules | B | cuda synced ms | cuda queued ms | cuda us/structure | "
      "cuda structures/s | cpu us/structure (1 core) | cpu structures/s | cuda / cpu | floor us "
      "| x floor | B=1 bits |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  const long largest = *std::max_element(batches.begin(), batches.end());
  for (const std::string& name : o.waterSystems) {
    const RigidCluster cluster = rigidCluster(name, static_cast<std::size_t>(largest));
    const RigidBodySystem& system = cluster.system;
    const PotentialSpec& spec = cluster.spec;
    const std::size_t n = system.dimension();
    const double molecules = cluster.count, floorUs = cluster.floorUs;
    const std::vector<double>& q = cluster.structures;
    BatchedPotentialOptions cpuOptions;  // one thread
    auto cpu = makeBatchedRigidPotential(spec, system, Backend::Cpu, cpuOptions);
    std::vector<double> eOne, gOne;
    for (long batch : batches) {
      const std::size_t B = static_cast<std::size_t>(batch);
      const double cpuUs = 1e3 * cpuCallMs(*cpu, B, q) / static_cast<double>(B);
      char cudaCells[160] = "- | - | - | - ", ratio[32] = "-", xFloor[32] = "-", bits[8] = "-";
#ifdef LANDSCAPE_HAVE_CUDA
      if (gpu) {
        BatchedPotentialOptions options;
        options.reserveBatch = B;
        auto device = makeBatchedRigidPotential(spec, system, Backend::Cuda, options);
        DeviceBuffer<double> dQ(B * n), dG(B * n), dE(B);
        dQ.copyFromHost(q.data(), B * n);
        const auto [syncedMs, queuedMs] = timeCalls(o.repeats, [&] {
          device->energyGradientDevice(B, dQ.data(), dG.data(), dE.data(), nullptr, nullptr);
        });
        const double us = 1e3 * queuedMs / static_cast<double>(B);
        std::vector<double> e(1), g(n);
        dE.copyToHost(e.data(), 1);
        dG.copyToHost(g.data(), n);
        if (eOne.empty()) {
          eOne = e;
          gOne = g;
        }
        const bool same = std::memcmp(e.data(), eOne.data(), sizeof(double)) == 0 &&
                          std::memcmp(g.data(), gOne.data(), n * sizeof(double)) == 0;
        std::snprintf(cudaCells, sizeof cudaCells, "%.4f | %.4f | %.4f | %.3g ", syncedMs,
                      queuedMs, us, 1e6 / us);
        std::snprintf(ratio, sizeof ratio, "%.1f", cpuUs / us);
        std::snprintf(xFloor, sizeof xFloor, "%.0f", us / floorUs);
        std::snprintf(bits, sizeof bits, "%s", same ? "yes" : "NO");
      }
#else
      (void)gpu;
      (void)n;
#endif
      std::printf("| %s | %.0f | %zu | %s| %.3f | %.3g | %s | %.5f | %s | %s |\n", name.c_str(),
                  molecules, B, cudaCells, cpuUs, 1e6 / cpuUs, ratio, floorUs, xFloor, bits);
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  std::vector<long> batches, sopBatches, waterBatches;
  if (!parseBatches(o.batches, "batches", batches) ||
      !parseBatches(o.sopBatches, "sop-batches", sopBatches) ||
      !parseBatches(o.waterBatches, "water-batches", waterBatches))
    return 1;
  bool gb = o.models == "gb" || o.models == "both" || o.models == "all";
  bool sop = o.models == "sop" || o.models == "both" || o.models == "all";
  bool water = o.models == "water" || o.models == "all";
  if (!gb && !sop && !water) {
    std::fprintf(stderr,
                 "bench_batched_potential: --models must be gb, sop, both, water or all, not '%s'\n",
                 o.models.c_str());
    return 1;
  }
  // --systems waterN: the water rows of those clusters (alone when --systems names no GB system).
  std::vector<std::string> gbNames, waterNames;
  for (const std::string& name : o.systems)
    (name.rfind("water", 0) == 0 || name.rfind("ellipsoids", 0) == 0 ? waterNames : gbNames)
        .push_back(name);
  if (!waterNames.empty()) {
    water = true;
    o.waterSystems = waterNames;
    o.systems = gbNames;
    if (gbNames.empty()) gb = sop = false;
  }
  for (const std::string& name : o.waterSystems)
    if (waterMolecules(name) == 0 && ellipsoidCount(name) == 0) {
      std::fprintf(stderr,
                   "bench_batched_potential: unknown rigid cluster '%s' (waterN or ellipsoidsN, N "
                   ">= 2)\n",
                   name.c_str());
      return 1;
    }
  for (const std::string& name : o.sopSystems)
    if (std::none_of(std::begin(kSopSystems), std::end(kSopSystems),
                     [&](const SopBenchSystem& s) { return name == s.name; })) {
      std::fprintf(stderr, "bench_batched_potential: unknown SOP system '%s'\n", name.c_str());
      return 1;
    }
  std::vector<Precision> precisions;
  if (o.precision == "double" || o.precision == "both") precisions.push_back(Precision::Double);
  if (o.precision == "mixed" || o.precision == "both") precisions.push_back(Precision::Mixed);
  std::vector<AmberGbCudaLayout> layouts;
  if (o.layout == "latency" || o.layout == "both") layouts.push_back(AmberGbCudaLayout::Latency);
  if (o.layout == "throughput" || o.layout == "both")
    layouts.push_back(AmberGbCudaLayout::Throughput);
  if (layouts.empty()) {
    std::fprintf(stderr, "bench_batched_potential: --layout must be latency, throughput or both\n");
    return 1;
  }
  if (o.rigid != "off" && o.rigid != "also" && o.rigid != "only") {
    std::fprintf(stderr, "bench_batched_potential: --rigid must be off, also or only\n");
    return 1;
  }
  if (precisions.empty()) {
    std::fprintf(stderr, "bench_batched_potential: --precision must be double, mixed or both\n");
    return 1;
  }
  for (const std::string& name : o.systems)
    if (std::none_of(std::begin(kSystems), std::end(kSystems),
                     [&](const BenchSystem& s) { return name == s.name; })) {
      std::fprintf(stderr, "bench_batched_potential: unknown system '%s'\n", name.c_str());
      return 1;
    }
  const bool device = gpuAvailable();
  if ((gb || sop) && !device) {
    std::fprintf(stderr, "bench_batched_potential: no CUDA device (%s)\n",
                 gpuDescription().c_str());
    return 1;
  }
#ifndef LANDSCAPE_HAVE_CUDA
  if (water) {
    try {
      benchRigidClusters(o, waterBatches, false);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bench_batched_potential: %s\n", e.what());
      return 1;
    }
  }
  return 0;
#else
  try {
    std::printf("device: %s\n\n", gpuDescription().c_str());
    if (gb)
      std::printf(
          "| system | precision | layout | B | synced ms | host ms | pageable ms | queued ms "
          "| us/structure | structures/s | x B=1 | floor us | x floor | B=1 bits "
          "| scratch MB/structure |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const BenchSystem& s : kSystems) {
      if (!gb) break;
      if (std::find(o.systems.begin(), o.systems.end(), s.name) == o.systems.end()) continue;
      const AmberTopology topology = readAmberTopology(gbDataFile(o.data, s.prmtop));
      const std::vector<double> x0 =
          readAmberCoordinates(gbDataFile(o.data, s.inpcrd), topology).positions;
      const AmberGbParams params;  // igb 2, 0.2 M, rgbmax 12
      const std::size_t n = x0.size();
      const double atoms = static_cast<double>(topology.atomCount);
      const AmberGbTables tables = buildAmberGbTables(topology, params);
      const double near =
          static_cast<double>(pairsWithin(x0, params.rgbmax + tables.gbScreenedMax));
      const double floorUs =
          1e6 * (100.0 * atoms * (atoms - 1.0) / 2.0 + 50.0 * 2.0 * near + 130.0 * near) /
          kFp64OperationsPerSecond;
      const long largest = *std::max_element(batches.begin(), batches.end());
      std::vector<double> x;
      x.reserve(static_cast<std::size_t>(largest) * n);
      for (long b = 0; b < largest; ++b) {
        std::mt19937_64 rng(1000 + static_cast<std::uint64_t>(b));
        std::uniform_real_distribution<double> u(-0.1, 0.1);
        for (double v : x0) x.push_back(v + u(rng));
      }
      std::vector<std::pair<Precision, AmberGbCudaLayout> > modes;
      for (Precision precision : precisions)
        for (AmberGbCudaLayout layout : layouts) modes.emplace_back(precision, layout);
      const bool atomistic = o.rigid != "only", rigid = o.rigid != "off";
      // Rigid coordinates of make_rigid_bodies' local groups, each structure moved a little.
      const RigidBodySystem bodies(findRigidBodies(topology, x0, {}).set, x0);
      std::vector<double> q;
      if (rigid) {
        const std::vector<double> q0 = bodies.fromAtoms(x0);
        const std::size_t nb = bodies.bodyCount();
        q.reserve(static_cast<std::size_t>(largest) * q0.size());
        for (long b = 0; b < largest; ++b) {
          std::mt19937_64 rng(3000 + static_cast<std::uint64_t>(b));
          std::uniform_real_distribution<double> u(-1.0, 1.0);
          for (std::size_t i = 0; i < q0.size(); ++i)
            q.push_back(q0[i] + (i >= 3 * nb && i < 6 * nb ? 0.05 : 0.1) * u(rng));
        }
      }
      const std::string rigidName = std::string(s.name) + " rigid (" +
                                    std::to_string(bodies.bodyCount()) + " bodies, " +
                                    std::to_string(bodies.freeAtomCount()) + " free atoms)";
      for (const auto& [precision, layout] : modes) {
        BatchedAmberGbCuda gpu(topology, params, precision, 1, layout);
        const std::string mode = amberGbCudaLayoutName(layout);
        if (atomistic) {
          GbSeries series{s.name, precisionName(precision), mode, floorUs};
          for (long batch : batches) {
            const std::size_t B = static_cast<std::size_t>(batch);
            try {
              gpu.reserve(B);
            } catch (const std::runtime_error& e) {
              series.doesNotFit(batch, e.what());
              continue;
            }
            series.row(gpu, B, x, o.repeats, gpu.bytesPerStructure());
          }
        }
        if (rigid) {
          BatchedRigidBodyCuda rigidGpu(gpu, bodies, 1);
          GbSeries series{rigidName, precisionName(precision), mode, floorUs};
          for (long batch : batches) {
            const std::size_t B = static_cast<std::size_t>(batch);
            try {
              gpu.reserve(B);
              rigidGpu.reserve(B);
            } catch (const std::runtime_error& e) {
              series.doesNotFit(batch, e.what());
              continue;
            }
            series.row(rigidGpu, B, q, o.repeats, rigidGpu.bytesPerStructure());
          }
        }
      }
    }
    if (sop) benchSop(o, sopBatches);
    if (water) benchRigidClusters(o, waterBatches, device);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_batched_potential: %s\n", e.what());
    return 1;
  }
  return 0;
#endif
}
