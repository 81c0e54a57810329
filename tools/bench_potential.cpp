// Benchmark (not a test): milliseconds per AMBER-GB energy + gradient evaluation on the CUDA
// backend in double and mixed precision, next to the CPU reference and to OpenMM's CUDA platform
// on the same card (issue 4), printed as a Markdown table for docs/benchmarks.md.
//
// Each system runs in the conditions of its REFERENCE.md row (igb 2, 0.2 M, rgbmax 12 A). GPU
// times are wall time per call of the device entry point (energyGradientDevice: coordinates and
// gradient stay on the device; the eight energy components come back, so each call ends with a
// synchronisation), median of --repeats calls after two warm-up calls; "host" adds the copies of a
// host caller. The CPU column is one thread of this machine (processor time), measured for systems
// up to --cpu-max-atoms atoms.
//
// OpenMM figures (issue 17's anchors, measured on an H200, deterministic forces, no Born-radius
// cutoff, i.e. our model minus rgbmax): OBC-I with 0.2 M salt (our model's igb 2 + salt) and
// OBC-II; myoglobin 0.62 / 0.41 ms double, 0.24 / 0.21 ms mixed; myoglobin_x10 24.4 / 13.9 ms
// double, 5.30 / 3.83 ms mixed. Issue 17's targets: trpcage 0.04 ms double; myoglobin 0.1 ms
// double, 0.08 ms mixed; myoglobin_x10 3 ms double, 1.5 ms mixed.
//
// Floor: the arithmetic of one evaluation at the device's peak rate (FP64 for double, FP32 lanes
// for mixed), counted from the formulas (docs/benchmarks.md, "Floors per evaluation"): per pair
// i < j the GB pair term + LJ + Coulomb (kPairOps), per pair within the descreening cutoff
// rgbmax + max s both descreening values (kBornOps) and both derivatives (kChainOps). The pair
// counts come from the structure itself (an O(N^2) host loop). Memory traffic is far below the
// arithmetic at every size (positions and parameters are read once per tile pair).
//
// Usage: bench_potential [--data DIR] [--systems trpcage,trx,...] [--repeats K]
//                        [--cpu-max-atoms N]
//   DIR defaults to <source>/tests/data/gb; myoglobin_x4 and myoglobin_x10 come from the build
//   tree (build/data/gb) when DIR lacks them.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "src/common/OptionTable.h"
#include "tools/GbTestData.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/AmberGbCuda.h"
#include "gpu/DeviceBuffer.h"
#endif

namespace {

using namespace landscape;

struct BenchSystem {
  const char* name;
  const char* prmtop;  ///< relative to --data
  const char* inpcrd;
  double referenceTotal;  ///< REFERENCE.md amber_igb2_rgbmax12 TOTAL, kcal/mol
  /// OpenMM ms per evaluation on an H200 (issue 17), 0 when not measured: OBC-I + 0.2 M salt
  /// (our model) and OBC-II, double then mixed.
  double openmmDouble, openmmDoubleObc2, openmmMixed, openmmMixedObc2;
  double targetDouble, targetMixed;  ///< issue 17, ms; 0 where none was set
};

const BenchSystem kSystems[] = {
    {"trpcage", "trpcage/prmtop", "trpcage/inpcrd", -504.2317823287122, 0, 0, 0, 0, 0.04, 0},
    {"trx", "trx/prmtop.gb2", "trx/trxox.2.4ns.x", -2367.9980976132206, 0, 0, 0, 0, 0, 0},
    {"myoglobin", "myoglobin/prmtop", "myoglobin/inpcrd", -3301.0820803263387, 0.62, 0.41, 0.24,
     0.21, 0.1, 0.08},
    {"myoglobin_x4", "myoglobin_x4/prmtop", "myoglobin_x4/inpcrd", -12597.624360207486, 0, 0, 0, 0,
     0, 0},
    {"myoglobin_x10", "myoglobin_x10/prmtop", "myoglobin_x10/inpcrd", -31488.880295594478, 24.4,
     13.9, 5.30, 3.83, 3.0, 1.5},
};

/// Operations per pair of the floor (docs/benchmarks.md, "Floors per evaluation"): an FP64
/// division, sqrt or rsqrt counts about 8-10 operations after its seed, exp or log 20-25; in FP32
/// (mixed) each is one MUFU instruction plus a few FMAs, which the mixed counts use.
constexpr double kPairOpsDouble = 100, kBornOpsDouble = 70, kChainOpsDouble = 130;
constexpr double kPairOpsMixed = 45, kBornOpsMixed = 40, kChainOpsMixed = 70;

/// Pairs i < j of the structure, and those within the descreening cutoff.
struct PairCounts {
  double all = 0, descreening = 0;
};

PairCounts countPairs(const std::vector<double>& x, double cutoff) {
  PairCounts c;
  const std::size_t n = x.size() / 3;
  const double cut2 = cutoff * cutoff;
  c.all = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1],
                   dz = x[3 * i + 2] - x[3 * j + 2];
      if (dx * dx + dy * dy + dz * dz < cut2) c.descreening += 1;
    }
  return c;
}

double threadSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string cell(double ms) {
  if (ms <= 0.0) return "-";
  char b[32];
  std::snprintf(b, sizeof b, ms < 1.0 ? "%.3f" : ms < 100.0 ? "%.2f" : "%.0f", ms);
  return b;
}

struct Options {
  std::string data = std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/gb";
  std::vector<std::string> wanted;  ///< --systems; empty = all
  int repeats = 20;
  long cpuMaxAtoms = 3000;
  double fp64Rate = 132 * 64 * 1.98e9;   ///< H100/H200 SXM FP64 lane operations per second
  double fp32Rate = 132 * 128 * 1.98e9;  ///< FP32 lane operations per second
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_potential");
  t.about =
      "usage: bench_potential [--data DIR] [--systems a,b,...] [--repeats K] [--cpu-max-atoms N]\n"
      "Milliseconds per AMBER-GB energy + gradient evaluation (igb 2, 0.2 M, rgbmax 12 A) on the\n"
      "CUDA backend in double and mixed precision (device entry point, median of K calls after "
      "two\n"
      "warm-up calls; \"host call\" adds the copies), next to the CPU reference (one thread) and\n"
      "OpenMM's CUDA platform on an H200 (OBC-I + salt, our model, and OBC-II), the arithmetic\n"
      "floor of one evaluation and issue 17's targets, as Markdown tables. Needs a CUDA device.\n";
  t.helpCommand();
  t.add("data", "DIR",
        "GB test systems (default <source>/tests/data/gb; myoglobin_x4/_x10 from build/data/gb "
        "when DIR lacks them)",
        fieldOf(&Options::data));
  t.add("systems", "LIST",
        "comma-separated subset of trpcage,trx,myoglobin,myoglobin_x4,myoglobin_x10 (default all)",
        fieldOf(&Options::wanted));
  t.add("repeats", "K", "timed calls per cell", fieldOf(&Options::repeats)).atLeast(1);
  t.add("cpu-max-atoms", "N", "largest system, in atoms, timed on the CPU",
        fieldOf(&Options::cpuMaxAtoms));
  t.add("fp64-rate", "OPS", "FP64 lane operations per second for the floor (H100/H200 SXM: "
        "132 SMs x 64 x 1.98 GHz)", fieldOf(&Options::fp64Rate)).above(0);
  t.add("fp32-rate", "OPS", "FP32 lane operations per second for the mixed floor (132 x 128 x "
        "1.98 GHz)", fieldOf(&Options::fp32Rate)).above(0);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  const std::string& data = o.data;
  const std::vector<std::string>& wanted = o.wanted;
  const int repeats = o.repeats;
  const long cpuMaxAtoms = o.cpuMaxAtoms;
#ifndef LANDSCAPE_HAVE_CUDA
  std::fprintf(stderr, "bench_potential: this build has no CUDA support\n");
  return 1;
#else
  if (!gpuAvailable()) {
    std::fprintf(stderr, "bench_potential: no CUDA device (%s)\n", gpuDescription().c_str());
    return 1;
  }
  try {
    std::printf("device: %s\n\n", gpuDescription().c_str());
    std::printf(
        "| system | atoms | CPU 1 thread (ms) | CUDA double (ms) | host call | CUDA mixed (ms) | "
        "host call | OpenMM double | OpenMM mixed | double/OpenMM | mixed/OpenMM | dTOTAL double "
        "| dTOTAL mixed |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    std::string floorTable;  // printed after the main table
    for (const BenchSystem& s : kSystems) {
      if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), s.name) == wanted.end())
        continue;
      const AmberTopology topology = readAmberTopology(gbDataFile(data, s.prmtop));
      const std::vector<double> x =
          readAmberCoordinates(gbDataFile(data, s.inpcrd), topology).positions;
      AmberGbParams params;  // igb 2, 0.2 M, rgbmax 12
      std::vector<double> g(x.size());

      double cpuMs = 0.0;
      if (topology.atomCount <= cpuMaxAtoms) {
        AmberGb cpu(topology, params);
        const double start = threadSeconds();
        int calls = 0;
        do {
          cpu.energyGradient(x.data(), g.data());
          ++calls;
        } while (threadSeconds() - start < 1.0 && calls < repeats);
        cpuMs = 1e3 * (threadSeconds() - start) / calls;
      }

      double deviceMs[2] = {0, 0}, hostMs[2] = {0, 0}, total[2] = {0, 0};
      const Precision modes[2] = {Precision::Double, Precision::Mixed};
      for (int m = 0; m < 2; ++m) {
        AmberGbCuda gpu(topology, params, modes[m]);
        DeviceBuffer<double> dX(x), dG(x.size());
        for (int w = 0; w < 2; ++w) total[m] = gpu.energyGradientDevice(dX.data(), dG.data());
        std::vector<double> times;
        for (int r = 0; r < repeats; ++r) {
          const auto t0 = std::chrono::steady_clock::now();
          gpu.energyGradientDevice(dX.data(), dG.data());
          times.push_back(
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                  .count());
        }
        deviceMs[m] = median(times);
        times.clear();
        for (int r = 0; r < std::max(3, repeats / 4); ++r) {
          const auto t0 = std::chrono::steady_clock::now();
          gpu.energyGradient(x.data(), g.data());
          times.push_back(
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                  .count());
        }
        hostMs[m] = median(times);
      }
      const auto ratio = [](double ours, double theirs) -> std::string {
        if (theirs <= 0.0) return "-";
        char b[32];
        std::snprintf(b, sizeof b, "%.2f", ours / theirs);
        return b;
      };
      std::printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2e | %.2e |\n",
                  s.name, topology.atomCount, cell(cpuMs).c_str(), cell(deviceMs[0]).c_str(),
                  cell(hostMs[0]).c_str(), cell(deviceMs[1]).c_str(), cell(hostMs[1]).c_str(),
                  cell(s.openmmDouble).c_str(), cell(s.openmmMixed).c_str(),
                  ratio(deviceMs[0], s.openmmDouble).c_str(),
                  ratio(deviceMs[1], s.openmmMixed).c_str(), total[0] - s.referenceTotal,
                  total[1] - s.referenceTotal);
      std::fflush(stdout);

      const AmberGbTables tables = buildAmberGbTables(topology, params);
      const PairCounts pairs = countPairs(x, params.rgbmax + tables.gbScreenedMax);
      const double floorMs[2] = {
          1e3 *
              (kPairOpsDouble * pairs.all +
               (kBornOpsDouble + kChainOpsDouble) * pairs.descreening) /
              o.fp64Rate,
          1e3 * (kPairOpsMixed * pairs.all + (kBornOpsMixed + kChainOpsMixed) * pairs.descreening) /
              o.fp32Rate};
      const double openmm[2][2] = {{s.openmmDouble, s.openmmDoubleObc2},
                                   {s.openmmMixed, s.openmmMixedObc2}};
      const double target[2] = {s.targetDouble, s.targetMixed};
      for (int m = 0; m < 2; ++m) {
        char line[512], met[64] = "-";
        if (target[m] > 0)
          std::snprintf(met, sizeof met, deviceMs[m] <= target[m] ? "yes" : "no (gap %.2fx)",
                        deviceMs[m] / target[m]);
        std::snprintf(line, sizeof line,
                      "| %s | %s | %s | %.3g | %.1f | %s | %s | %s | %s | %s | %s |\n", s.name,
                      m == 0 ? "double" : "mixed", cell(deviceMs[m]).c_str(), floorMs[m],
                      deviceMs[m] / floorMs[m], cell(openmm[m][0]).c_str(),
                      cell(openmm[m][1]).c_str(), ratio(deviceMs[m], openmm[m][0]).c_str(),
                      ratio(deviceMs[m], openmm[m][1]).c_str(),
                      target[m] > 0 ? ("<= " + cell(target[m])).c_str() : "-", met);
        floorTable += line;
      }
    }
    std::printf(
        "\nAgainst the floor, OpenMM and issue 17 (floor: %.3g FP64 / %.3g FP32 lane operations "
        "per second; pair counts from the structure; OpenMM on an H200, OBC-I + 0.2 M salt = our "
        "model, and OBC-II):\n\n"
        "| system | precision | device call (ms) | floor (ms) | x floor | OpenMM OBC-I+salt (ms) | "
        "OpenMM OBC-II (ms) | x OpenMM OBC-I | x OpenMM OBC-II | target (ms) | met |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n%s",
        o.fp64Rate, o.fp32Rate, floorTable.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_potential: %s\n", e.what());
    return 1;
  }
  return 0;
#endif
}
