// Benchmark (not a test): time per energy + gradient evaluation of the AMBER GB CPU reference
// (potentials/AmberGb, one thread, double precision) on the GB test systems, printed as a Markdown
// table for docs/benchmarks.md. Each system runs in the conditions of its REFERENCE.md row (igb 2,
// 0.2 M, rgbmax 12 A; ash: salt 0, rgbmax 25 A), and the table also shows how far EGB and TOTAL are
// from that row (uncorrected: see docs/amber-gb.md for the two known reference offsets), which for
// myoglobin_x4 and myoglobin_x10 is their only check (they are too large for ctest).
//
// Work per evaluation: all N(N-1)/2 pairs for LJ, Coulomb and the GB pair term, plus the pairs
// within rgbmax + max screened radius twice more (Born radii, then their chain rule).
//
// Usage: bench_amber_cpu [--data DIR] [--systems ash,trpcage,...] [--min-seconds S]
//   DIR defaults to <source>/tests/data/gb; myoglobin_x4 and myoglobin_x10 come from the build
//   tree (build/data/gb) when DIR lacks them.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "src/common/OptionTable.h"
#include "tools/GbTestData.h"

namespace {

using namespace landscape;

struct BenchSystem {
  const char* name;
  const char* prmtop;  ///< relative to --data
  const char* inpcrd;
  double saltcon, rgbmax;
  double referenceEgb, referenceTotal;  ///< reference_json/<name>.json, amber_igb2_rgbmax<rgbmax>
};

const BenchSystem kSystems[] = {
    {"ash", "ash/ash.parm7", "ash/ash.rst7", 0.0, 25.0, -28.168908603314772, -25.71454886505877},
    {"trpcage", "trpcage/prmtop", "trpcage/inpcrd", 0.2, 12.0, -455.454876466049,
     -504.2317823287122},
    {"trx", "trx/prmtop.gb2", "trx/trxox.2.4ns.x", 0.2, 12.0, -2151.0720376773279,
     -2367.9980976132206},
    {"myoglobin", "myoglobin/prmtop", "myoglobin/inpcrd", 0.2, 12.0, -12866.722747315987,
     -3301.0820803263387},
    {"myoglobin_x4", "myoglobin_x4/prmtop", "myoglobin_x4/inpcrd", 0.2, 12.0, -94142.3097952072,
     -12597.624360207486},
    {"myoglobin_x10", "myoglobin_x10/prmtop", "myoglobin_x10/inpcrd", 0.2, 12.0, -394313.3253076776,
     -31488.880295594478},
};

struct Options {
  std::string data = std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/gb";
  std::vector<std::string> only;  ///< --systems; empty = all
  double minSeconds = 1.0;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_amber_cpu");
  t.about =
      "usage: bench_amber_cpu [--data DIR] [--systems ash,trpcage,...] [--min-seconds S]\n"
      "Time per energy + gradient (and energy-only) evaluation of the AMBER GB CPU reference (one\n"
      "thread, double) on the GB test systems in their REFERENCE.md conditions (igb 2, 0.2 M,\n"
      "rgbmax 12 A; ash: salt 0, rgbmax 25 A), with EGB and TOTAL against the reference rows; as "
      "a\n"
      "Markdown table. Times are thread processor time, wall time in parentheses.\n";
  t.helpCommand();
  t.add("data", "DIR",
        "GB test systems (default <source>/tests/data/gb; myoglobin_x4/_x10 from build/data/gb "
        "when DIR lacks them)",
        fieldOf(&Options::data));
  t.add("systems", "LIST",
        "comma-separated subset of ash,trpcage,trx,myoglobin,myoglobin_x4,myoglobin_x10 "
        "(default all)",
        fieldOf(&Options::only));
  t.add("min-seconds", "S",
        "minimum timed processor time per cell (a call over 0.2 s is timed once)",
        fieldOf(&Options::minSeconds))
      .unit("s")
      .positive();
  return t;
}

/// Processor time of this thread, seconds: unlike wall time it does not count the time other
/// processes on a shared machine take from this core.
double threadSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Timing {
  double cpu;   ///< thread processor seconds per call
  double wall;  ///< wall-clock seconds per call
};

/// Seconds per call: one call first; if it took under 0.2 s, calls repeated for minSeconds.
template <class F>
Timing secondsPerCall(F&& call, double minSeconds) {
  auto wall0 = std::chrono::steady_clock::now();
  double cpu0 = threadSeconds();
  call();
  const double first = threadSeconds() - cpu0;
  if (first > 0.2)
    return {first, std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count()};
  const long reps = std::max(1L, static_cast<long>(minSeconds / std::max(first, 1e-7)));
  wall0 = std::chrono::steady_clock::now();
  cpu0 = threadSeconds();
  for (long i = 0; i < reps; ++i) call();
  const double cpu = threadSeconds() - cpu0;
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return {cpu / static_cast<double>(reps), wall / static_cast<double>(reps)};
}

std::size_t descreeningPairs(const AmberGb& gb, const std::vector<double>& x) {
  const double cut = gb.tables().model.rgbmax + gb.tables().gbScreenedMax;
  const std::size_t n = x.size() / 3;
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1],
                   dz = x[3 * i + 2] - x[3 * j + 2];
      if (dx * dx + dy * dy + dz * dz <= cut * cut) ++count;
    }
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  const std::string& data = o.data;
  const std::vector<std::string>& only = o.only;
  const double minSeconds = o.minSeconds;
  std::printf("AMBER GB (igb 2) CPU reference, one thread, double precision; data %s\n",
              data.c_str());
  std::printf(
      "Times per call: processor time of the benchmark thread, wall time in parentheses "
      "(larger when the machine is shared).\n\n");
  std::printf(
      "| system | atoms | pairs | pairs within rgbmax+s | E+G (ms) | E only (ms) | "
      "E+G ns/pair | TOTAL (kcal/mol) | dEGB vs ref | dTOTAL vs ref |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n");
  try {
    for (const BenchSystem& s : kSystems) {
      if (!only.empty() && std::find(only.begin(), only.end(), s.name) == only.end()) continue;
      const std::string prmtop = gbDataFile(data, s.prmtop);
      const std::string inpcrd = gbDataFile(data, s.inpcrd);
      if (!std::filesystem::exists(prmtop) || !std::filesystem::exists(inpcrd)) {
        std::printf("| %s | (files not found under %s) |\n", s.name, data.c_str());
        continue;
      }
      const AmberTopology topology = readAmberTopology(prmtop);
      const std::vector<double> x = readAmberCoordinates(inpcrd, topology).positions;
      AmberGbParams params;
      params.saltcon = s.saltcon;
      params.rgbmax = s.rgbmax;
      AmberGb gb(topology, params);
      std::vector<double> g(x.size());
      double total = 0.0;
      const Timing tGradient =
          secondsPerCall([&] { total = gb.energyGradient(x.data(), g.data()); }, minSeconds);
      const Timing tEnergy = secondsPerCall([&] { gb.energy(x.data()); }, minSeconds);
      const double egb = gb.breakdown(x.data()).egb;
      const double n = static_cast<double>(topology.atomCount);
      const double pairs = n * (n - 1.0) / 2.0;
      std::printf(
          "| %s | %d | %.0f | %zu | %.4g (%.4g) | %.4g (%.4g) | %.1f | %.4f | %.1e | %.1e |\n",
          s.name, topology.atomCount, pairs, descreeningPairs(gb, x), 1e3 * tGradient.cpu,
          1e3 * tGradient.wall, 1e3 * tEnergy.cpu, 1e3 * tEnergy.wall, 1e9 * tGradient.cpu / pairs,
          total, egb - s.referenceEgb, total - s.referenceTotal);
      std::fflush(stdout);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_amber_cpu: %s\n", error.what());
    return 1;
  }
  return 0;
}
