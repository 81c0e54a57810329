// Benchmark (not a test): batched AMBER-GB energy + gradient on the GPU (issues 16 and 17),
// gpu/BatchedAmberGbCuda, B structures of one protein per launch sequence, printed as a Markdown
// table for docs/benchmarks.md.
//
// Structures: the system's file structure with every coordinate moved by up to 0.1 A (a seed per
// structure), in its REFERENCE.md conditions (igb 2, 0.2 M, rgbmax 12 A). For each B (default
// 1, 8, 64, 256, 1024, where the scratch fits in device memory):
//   synced ms       wall time of one call of the device entry point followed by
//                   cudaDeviceSynchronize, median of --repeats (the latency a host-driven loop
//                   sees)
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
// Rigid rows (--rigid also|only, issue 16 item 1): the same system in the rigid coordinates of
// make_rigid_bodies' local groups (peptide bonds, rings, sp2 centres; seed 001 Table 4) through
// gpu/BatchedRigidBodyCuda over the batched GB potential: the columns as above (floor: the GB
// one, the rigid layer adds O(N) work), "scratch" the GB and rigid scratch together; each
// structure is the file structure's rigid coordinates with every centre and free atom moved by up
// to 0.1 A and every rotation vector by up to 0.05 rad.
//
// Usage: bench_batched_potential [--data DIR] [--systems trpcage,myoglobin] [--batches 1,8,...]
//                                [--repeats K] [--precision double|mixed|both]
//                                [--layout latency|throughput|both] [--rigid off|also|only]
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

#include "gpu/BatchedAmberGbCuda.h"    // CUDA-free header; the class exists in CUDA builds
#include "gpu/BatchedRigidBodyCuda.h"  // likewise
#include "gpu/GpuDevice.h"
#include "landscape/geometry/RigidBodyFinder.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "potentials/Precision.h"
#include "src/OptionTable.h"
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
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_batched_potential");
  t.about =
      "usage: bench_batched_potential [--data DIR] [--systems a,b] [--batches 1,8,...] [--repeats "
      "K]\n                               [--precision double|mixed|both]\n"
      "Batched AMBER-GB energy + gradient on the GPU (gpu/BatchedAmberGbCuda): time per launch\n"
      "sequence and per structure against B, the speed-up over B = 1 and the FP64 floor per\n"
      "structure, as a Markdown table. Needs a CUDA device.\n";
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
        "off (atomistic rows), also (atomistic then rigid rows) or only (rigid rows): local rigid "
        "bodies over the batched GB potential (default off)",
        fieldOf(&Options::rigid));
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

#ifdef LANDSCAPE_HAVE_CUDA
/// One table's rows for one potential: times B structures of `x` ([B x n], the first B rows) per
/// device-entry call, keeps B = 1's time and the first B's bits of structure 0 as references.
struct Series {
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
    for (int w = 0; w < 2; ++w)
      potential.energyGradientDevice(B, dX.data(), dG.data(), dE.data(), nullptr, nullptr);
    LANDSCAPE_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> synced;
    for (int r = 0; r < repeats; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      potential.energyGradientDevice(B, dX.data(), dG.data(), dE.data(), nullptr, nullptr);
      LANDSCAPE_CUDA_CHECK(cudaDeviceSynchronize());
      synced.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
              .count());
    }
    std::sort(synced.begin(), synced.end());
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < repeats; ++r)
      potential.energyGradientDevice(B, dX.data(), dG.data(), dE.data(), nullptr, nullptr);
    LANDSCAPE_CUDA_CHECK(cudaDeviceSynchronize());
    const double queuedMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
        repeats;
    const double perStructureUs = 1e3 * queuedMs / static_cast<double>(B);
    std::vector<double> e(1), g(n);
    dE.copyToHost(e.data(), 1);
    dG.copyToHost(g.data(), n);
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
        "| %s | %s | %s | %zu | %.4f | %.4f | %.3f | %.3g | %s | %.3f | %.1f | %s | %.2f |\n",
        system.c_str(), precision.c_str(), layout.c_str(), B, synced[synced.size() / 2], queuedMs,
        perStructureUs, 1e6 / perStructureUs, speedup, floorUs, perStructureUs / floorUs,
        sameBits ? "yes" : "NO", static_cast<double>(scratchBytes) / (1 << 20));
    std::fflush(stdout);
  }
};
#endif

}  // namespace

int main(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  std::vector<long> batches;
  for (const std::string& b : o.batches) {
    char* end = nullptr;
    const long value = std::strtol(b.c_str(), &end, 10);
    if (b.empty() || *end != '\0' || value < 1) {
      std::fprintf(stderr, "bench_batched_potential: --batches needs positive integers, not '%s'\n",
                   b.c_str());
      return 1;
    }
    batches.push_back(value);
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
#ifndef LANDSCAPE_HAVE_CUDA
  std::fprintf(stderr, "bench_batched_potential: this build has no CUDA support\n");
  return 1;
#else
  if (!gpuAvailable()) {
    std::fprintf(stderr, "bench_batched_potential: no CUDA device (%s)\n",
                 gpuDescription().c_str());
    return 1;
  }
  try {
    std::printf("device: %s\n\n", gpuDescription().c_str());
    std::printf(
        "| system | precision | layout | B | synced ms | queued ms | us/structure | structures/s "
        "| x B=1 | floor us | x floor | B=1 bits | scratch MB/structure |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const BenchSystem& s : kSystems) {
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
          std::mt19937_64 rng(2000 + static_cast<std::uint64_t>(b));
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
          Series series{s.name, precisionName(precision), mode, floorUs};
          for (long batch : batches) {
            const std::size_t B = static_cast<std::size_t>(batch);
            try {
              gpu.reserve(B);
            } catch (const std::runtime_error& e) {
              series.doesNotFit(batch, e.what());
              continue;
            }
            series.row(gpu, B, x, o.repeats, gpu.scratchBytesPerStructure());
          }
        }
        if (rigid) {
          BatchedRigidBodyCuda rigidGpu(gpu, bodies, 1);
          Series series{rigidName, precisionName(precision), mode, floorUs};
          for (long batch : batches) {
            const std::size_t B = static_cast<std::size_t>(batch);
            try {
              gpu.reserve(B);
              rigidGpu.reserve(B);
            } catch (const std::runtime_error& e) {
              series.doesNotFit(batch, e.what());
              continue;
            }
            series.row(rigidGpu, B, q, o.repeats,
                       gpu.scratchBytesPerStructure() + rigidGpu.scratchBytesPerStructure());
          }
        }
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_batched_potential: %s\n", e.what());
    return 1;
  }
  return 0;
#endif
}
