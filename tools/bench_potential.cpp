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
// OpenMM figures (issue 4, measured on an H200, deterministic forces): OBC with 0.2 M salt, no
// Born-radius cutoff, i.e. our model minus rgbmax: myoglobin 0.62 ms double / 0.24 ms mixed,
// myoglobin_x10 24.4 / 5.3 ms. Targets for myoglobin_x10: 5 ms double, 2.5 ms mixed.
//
// Usage: bench_potential [--data DIR] [--systems trpcage,trx,...] [--repeats K]
//                        [--cpu-max-atoms N] [--chain gather,pairs] [--born-layout Q,P]
//                        [--chain-layout Q,P]
//   --chain: the chain-rule passes to time, one row each (issue 17 step 3's A/B: the per-tile
//   gather, default, or the older symmetric pass over the pair grid); --born-layout and
//   --chain-layout override the gathers' column parts Q and blocks per tile P (0 = the size-based
//   choice; BatchedAmberGbCuda::setGatherShape).
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
#include "src/OptionTable.h"
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
  double referenceTotal;             ///< REFERENCE.md amber_igb2_rgbmax12 TOTAL, kcal/mol
  double openmmDouble, openmmMixed;  ///< ms per evaluation (issue 4), 0 when not measured
};

const BenchSystem kSystems[] = {
    {"trpcage", "trpcage/prmtop", "trpcage/inpcrd", -504.2317823287122, 0, 0},
    {"trx", "trx/prmtop.gb2", "trx/trxox.2.4ns.x", -2367.9980976132206, 0, 0},
    {"myoglobin", "myoglobin/prmtop", "myoglobin/inpcrd", -3301.0820803263387, 0.62, 0.24},
    {"myoglobin_x4", "myoglobin_x4/prmtop", "myoglobin_x4/inpcrd", -12597.624360207486, 0, 0},
    {"myoglobin_x10", "myoglobin_x10/prmtop", "myoglobin_x10/inpcrd", -31488.880295594478, 24.4,
     5.3},
};

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
  std::vector<std::string> chains = {"gather"};  ///< chain-rule passes, one row each
  std::vector<int> bornLayout, chainLayout;      ///< Q,P overrides (empty: the defaults)
};

/// Q,P of a --born-layout or --chain-layout value (empty: 0,0), or an error naming the option.
bool layoutPair(const std::vector<int>& v, const char* option, int* q, int* p) {
  *q = *p = 0;
  if (v.empty()) return true;
  if (v.size() != 2 || v[0] < 0 || v[1] < 0) {
    std::fprintf(stderr, "bench_potential: --%s takes Q,P (two counts >= 0), e.g. 8,3\n", option);
    return false;
  }
  *q = v[0];
  *p = v[1];
  return true;
}

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_potential");
  t.about =
      "usage: bench_potential [--data DIR] [--systems a,b,...] [--repeats K] [--cpu-max-atoms N]\n"
      "Milliseconds per AMBER-GB energy + gradient evaluation (igb 2, 0.2 M, rgbmax 12 A) on the\n"
      "CUDA backend in double and mixed precision (device entry point, median of K calls after "
      "two\n"
      "warm-up calls; \"host call\" adds the copies), next to the CPU reference (one thread) and\n"
      "OpenMM's CUDA platform on an H200, as a Markdown table. Needs a CUDA device.\n";
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
  t.add("chain", "LIST",
        "chain-rule passes to time, a row each: gather (per-tile gather, the default) and/or "
        "pairs (the older symmetric pass over the pair grid)",
        fieldOf(&Options::chains));
  t.add("born-layout", "Q,P",
        "Born-radius gather: column parts Q (power of two <= 32) and blocks per tile P "
        "(0 = size-based)",
        fieldOf(&Options::bornLayout));
  t.add("chain-layout", "Q,P", "chain-rule gather: Q and P as --born-layout",
        fieldOf(&Options::chainLayout));
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
  for (const std::string& c : o.chains)
    if (c != "gather" && c != "pairs") {
      std::fprintf(stderr, "bench_potential: --chain takes gather and/or pairs, not '%s'\n",
                   c.c_str());
      return 1;
    }
  struct {
    int bornParts = 0, bornBlocks = 0, chainParts = 0, chainBlocks = 0;
  } shape;
  if (!layoutPair(o.bornLayout, "born-layout", &shape.bornParts, &shape.bornBlocks) ||
      !layoutPair(o.chainLayout, "chain-layout", &shape.chainParts, &shape.chainBlocks))
    return 1;
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
        "| system | atoms | chain (Born Q,P; chain Q,P) | CPU 1 thread (ms) | CUDA double (ms) | "
        "host call | CUDA mixed (ms) | host call | OpenMM double | OpenMM mixed | double/OpenMM | "
        "mixed/OpenMM | dTOTAL double | dTOTAL mixed |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const BenchSystem& s : kSystems) {
      if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), s.name) == wanted.end())
        continue;
      const AmberTopology topology = readAmberTopology(data + "/" + s.prmtop);
      const std::vector<double> x = readAmberCoordinates(data + "/" + s.inpcrd, topology).positions;
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

      for (const std::string& chain : o.chains) {
        double deviceMs[2] = {0, 0}, hostMs[2] = {0, 0}, total[2] = {0, 0};
        AmberGbGatherShape used;
        const Precision modes[2] = {Precision::Double, Precision::Mixed};
        for (int m = 0; m < 2; ++m) {
          AmberGbCuda gpu(topology, params, modes[m]);
          gpu.setChainGather(chain == "gather");
          gpu.setGatherShape(
              {shape.bornParts, shape.bornBlocks, shape.chainParts, shape.chainBlocks});
          used = gpu.gatherShape();
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
        char chainCell[96];
        std::snprintf(chainCell, sizeof chainCell, "%s (%d,%d; %d,%d)", chain.c_str(),
                      used.bornParts, used.bornBlocks, used.chainParts, used.chainBlocks);
        std::printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2e | %.2e |\n",
                    s.name, topology.atomCount, chainCell, cell(cpuMs).c_str(),
                    cell(deviceMs[0]).c_str(), cell(hostMs[0]).c_str(), cell(deviceMs[1]).c_str(),
                    cell(hostMs[1]).c_str(), cell(s.openmmDouble).c_str(),
                    cell(s.openmmMixed).c_str(), ratio(deviceMs[0], s.openmmDouble).c_str(),
                    ratio(deviceMs[1], s.openmmMixed).c_str(), total[0] - s.referenceTotal,
                    total[1] - s.referenceTotal);
        std::fflush(stdout);
        if (std::string(s.name) == "myoglobin_x10")
          std::printf(
              "\nmyoglobin_x10 targets: double %.2f ms / 5 ms = %.2fx target, mixed %.2f ms "
              "/ 2.5 ms = %.2fx target\n\n",
              deviceMs[0], deviceMs[0] / 5.0, deviceMs[1], deviceMs[1] / 2.5);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_potential: %s\n", e.what());
    return 1;
  }
  return 0;
#endif
}
