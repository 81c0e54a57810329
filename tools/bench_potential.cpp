// Benchmark (not a test): time per energy + gradient evaluation of a potential on the CPU and on
// CUDA, against the floor of its arithmetic and its peers, as Markdown tables for
// docs/benchmarks.md.
//
// --potential gb (the default): AMBER-GB on the GB test systems, each in the conditions of its
// REFERENCE.md row (igb 2, 0.2 M, rgbmax 12 A; ash: salt 0, rgbmax 25 A).
//   cuda: milliseconds per evaluation on the CUDA backend in double and mixed precision, next to
//     the CPU reference and OpenMM's CUDA platform on the same card. GPU times are wall time per
//     call of the device entry point (energyGradientDevice: coordinates and gradient stay on the
//     device; the eight energy components come back, so each call ends with a synchronisation),
//     median of --repeats calls after two warm-up calls; "host" adds the copies of a host caller.
//     The CPU column is one thread of this machine (processor time), for systems up to
//     --cpu-max-atoms atoms. The launch sequence per precision (2 warm-up, --repeats timed, then
//     max(3, repeats / 4) host calls) is what the ncu runs of tools/gpu_check.sh count on.
//     OpenMM figures (measured on an H200, deterministic forces, no Born-radius cutoff, i.e. our
//     model minus rgbmax): OBC-I with 0.2 M salt (our model's igb 2 + salt) and OBC-II; myoglobin
//     0.62 / 0.41 ms double, 0.24 / 0.21 ms mixed; myoglobin_x10 24.4 / 13.9 ms double, 5.30 /
//     3.83 ms mixed. Targets: trpcage 0.04 ms double; myoglobin 0.1 ms double, 0.08 ms mixed;
//     myoglobin_x10 3 ms double, 1.5 ms mixed.
//     Floor: the arithmetic of one evaluation at the device's peak rate (FP64 for double, FP32
//     lanes for mixed), counted from the formulas (docs/benchmarks.md, "Floors per evaluation"):
//     per pair i < j the GB pair term + LJ + Coulomb (kPairOps), per pair within the descreening
//     cutoff rgbmax + max s both descreening values (kBornOps) and both derivatives (kChainOps).
//     The pair counts come from the structure itself (an O(N^2) host loop). Memory traffic is far
//     below the arithmetic at every size (positions and parameters are read once per tile pair).
//   cpu: the CPU reference (potentials/AmberGb, one thread, double): energy + gradient and energy
//     alone, processor time of the thread (wall time in parentheses), ns per pair, and how far EGB
//     and TOTAL are from the REFERENCE.md row (uncorrected: docs/amber-gb.md gives the two known
//     reference offsets); for myoglobin_x4 and myoglobin_x10, too large for ctest, their only
//     check. Work per evaluation: all N(N-1)/2 pairs for LJ, Coulomb and the GB pair term, plus
//     the pairs within rgbmax + max screened radius twice more (Born radii, then their chain rule).
// --potential lj: Lennard-Jones energy + gradient per call (double) on random clusters at reduced
//   density ~0.8: the CPU reference and CUDA (host entry point with copies, and the
//   device-resident entry point), against the FP64 floor of the all-pairs work,
//   N(N-1)/2 pairs x kLjFlopsPerPair / --fp64-peak.
//
// Usage: bench_potential [--potential gb|lj] [--backend cpu,cuda] [--data DIR] [--systems a,b,...]
//                        [--repeats K] [--cpu-max-atoms N] [--min-seconds S] [--sizes 38,147,...]
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

#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Random.h"
#include "landscape/geometry/ClusterGeometry.h"
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

struct GbSystem {
  const char* name;
  const char* prmtop;  ///< relative to --data
  const char* inpcrd;
  double saltcon, rgbmax;
  double referenceEgb, referenceTotal;  ///< reference_json/<name>.json, amber_igb2_rgbmax<rgbmax>
  /// OpenMM ms per evaluation on an H200, 0 when not measured: OBC-I + 0.2 M salt (our model) and
  /// OBC-II, double then mixed.
  double openmmDouble, openmmDoubleObc2, openmmMixed, openmmMixedObc2;
  double targetDouble, targetMixed;  ///< ms; 0 where none was set
};

const GbSystem kGbSystems[] = {
    {"ash", "ash/ash.parm7", "ash/ash.rst7", 0.0, 25.0, -28.168908603314772, -25.71454886505877, 0,
     0, 0, 0, 0, 0},
    {"trpcage", "trpcage/prmtop", "trpcage/inpcrd", 0.2, 12.0, -455.454876466049,
     -504.2317823287122, 0, 0, 0, 0, 0.04, 0},
    {"trx", "trx/prmtop.gb2", "trx/trxox.2.4ns.x", 0.2, 12.0, -2151.0720376773279,
     -2367.9980976132206, 0, 0, 0, 0, 0, 0},
    {"myoglobin", "myoglobin/prmtop", "myoglobin/inpcrd", 0.2, 12.0, -12866.722747315987,
     -3301.0820803263387, 0.62, 0.41, 0.24, 0.21, 0.1, 0.08},
    {"myoglobin_x4", "myoglobin_x4/prmtop", "myoglobin_x4/inpcrd", 0.2, 12.0, -94142.3097952072,
     -12597.624360207486, 0, 0, 0, 0, 0, 0},
    {"myoglobin_x10", "myoglobin_x10/prmtop", "myoglobin_x10/inpcrd", 0.2, 12.0, -394313.3253076776,
     -31488.880295594478, 24.4, 13.9, 5.30, 3.83, 3.0, 1.5},
};

/// Operations per pair of the GB floor (docs/benchmarks.md, "Floors per evaluation"): an FP64
/// division, sqrt or rsqrt counts about 8-10 operations after its seed, exp or log 20-25; in FP32
/// (mixed) each is one MUFU instruction plus a few FMAs, which the mixed counts use.
constexpr double kPairOpsDouble = 100, kBornOpsDouble = 70, kChainOpsDouble = 130;
constexpr double kPairOpsMixed = 45, kBornOpsMixed = 40, kChainOpsMixed = 70;

/// Pair physics of potentials/LennardJonesTerms.h plus the gradient update: 3 sub, 5 for r^2,
/// 1 reciprocal (counted as 1), 4 for r^-6/r^-12, 3 energy, 4 derivative, 6 gradient = 26.
constexpr double kLjFlopsPerPair = 26.0;

struct Options {
  std::string potential = "gb";
  std::vector<std::string> backends;  ///< empty: see backendsOrDefault
  // gb
  std::string data = std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/gb";
  std::vector<std::string> systems;  ///< empty = all
  int repeats = 20;
  long cpuMaxAtoms = 3000;
  double minSeconds = 1.0;
  double fp64Rate = 132 * 64 * 1.98e9;   ///< H100/H200 SXM FP64 lane operations per second
  double fp32Rate = 132 * 128 * 1.98e9;  ///< FP32 lane operations per second
  // lj
  std::vector<std::size_t> sizes = {38, 147, 1000, 10000};
  double fp64Peak = 31e12;  ///< FP64 FLOP/s measured on an H200 (docs/benchmarks.md)
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_potential");
  t.about =
      "usage: bench_potential [--potential gb|lj] [--backend cpu,cuda] [--data DIR]\n"
      "                       [--systems a,b,...] [--repeats K] [--cpu-max-atoms N]\n"
      "                       [--min-seconds S] [--sizes 38,147,...] [--fp64-peak F]\n"
      "Time per energy + gradient evaluation of a potential on the CPU and on CUDA, as Markdown\n"
      "tables. gb (AMBER-GB, igb 2, each system in its REFERENCE.md conditions): cuda gives ms\n"
      "per evaluation in double and mixed precision (device entry point, median of K calls after\n"
      "two warm-up calls; \"host call\" adds the copies) next to the CPU reference (one thread),\n"
      "OpenMM's CUDA platform on an H200 (OBC-I + salt, our model, and OBC-II), the arithmetic\n"
      "floor and the targets; cpu gives the CPU reference alone (E+G and E only, processor time\n"
      "with wall time in parentheses, ns per pair, EGB and TOTAL against the reference rows).\n"
      "lj (random clusters): CPU, CUDA host and device entry points against the FP64 floor of the\n"
      "all-pairs work, N(N-1)/2 pairs x 26 FLOP / peak.\n";
  t.helpCommand();
  t.add("potential", "", "the potential: gb (AMBER-GB test systems) or lj (Lennard-Jones clusters)",
        fieldOf(&Options::potential))
      .choices(std::vector<std::string>{"gb", "lj"});
  t.add("backend", "LIST",
        "backends, comma-separated: gb cuda = the CUDA tables, gb cpu = the CPU reference table; "
        "lj cpu,cuda = the columns timed (default gb: cuda with a GPU, else cpu; lj: cpu,cuda with "
        "a GPU, else cpu)",
        fieldOf(&Options::backends))
      .choices(std::vector<std::string>{"cpu", "cuda"});
  t.section("gb");
  t.add("data", "DIR",
        "GB test systems (default <source>/tests/data/gb; myoglobin_x4/_x10 from build/data/gb "
        "when DIR lacks them)",
        fieldOf(&Options::data));
  t.add("systems", "LIST",
        "comma-separated subset of ash,trpcage,trx,myoglobin,myoglobin_x4,myoglobin_x10 "
        "(default all)",
        fieldOf(&Options::systems));
  t.add("repeats", "K", "cuda: timed calls per cell", fieldOf(&Options::repeats)).atLeast(1);
  t.add("cpu-max-atoms", "N", "cuda: largest system, in atoms, timed in the CPU column",
        fieldOf(&Options::cpuMaxAtoms));
  t.add("min-seconds", "S",
        "cpu: minimum timed processor time per cell (a call over 0.2 s is timed once)",
        fieldOf(&Options::minSeconds))
      .unit("s")
      .positive();
  t.add("fp64-rate", "OPS",
        "cuda: FP64 lane operations per second for the floor (H100/H200 SXM: 132 SMs x 64 x "
        "1.98 GHz)",
        fieldOf(&Options::fp64Rate))
      .above(0);
  t.add("fp32-rate", "OPS",
        "cuda: FP32 lane operations per second for the mixed floor (132 x 128 x 1.98 GHz)",
        fieldOf(&Options::fp32Rate))
      .above(0);
  t.section("lj");
  t.add("sizes", "LIST", "cluster sizes in atoms, comma-separated", fieldOf(&Options::sizes))
      .atLeast(2);
  t.add("fp64-peak", "F", "peak FP64 rate for the floor (H200 measured: 31e12)",
        fieldOf(&Options::fp64Peak))
      .unit("FLOP/s")
      .positive();
  return t;
}

bool has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

/// Processor time of this thread, seconds: unlike wall time it does not count the time other
/// processes on a shared machine take from this core.
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

std::string ratio(double ours, double theirs) {
  if (theirs <= 0.0) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", ours / theirs);
  return b;
}

/// Pairs i < j of the structure within `cutoff` (the descreening pairs).
double pairsWithin(const std::vector<double>& x, double cutoff) {
  const std::size_t n = x.size() / 3;
  const double cut2 = cutoff * cutoff;
  double count = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1],
                   dz = x[3 * i + 2] - x[3 * j + 2];
      if (dx * dx + dy * dy + dz * dz < cut2) count += 1;
    }
  return count;
}

/// One GB system as read: topology, coordinates and the parameters of its reference row.
struct GbInput {
  AmberTopology topology;
  std::vector<double> x;
  AmberGbParams params;
};

/// The system's files, or false (and a table row saying so) when --data lacks them.
bool readGbSystem(const Options& o, const GbSystem& s, GbInput& in) {
  const std::string prmtop = gbDataFile(o.data, s.prmtop), inpcrd = gbDataFile(o.data, s.inpcrd);
  if (!std::filesystem::exists(prmtop) || !std::filesystem::exists(inpcrd)) {
    std::printf("| %s | (files not found under %s) |\n", s.name, o.data.c_str());
    return false;
  }
  in.topology = readAmberTopology(prmtop);
  in.x = readAmberCoordinates(inpcrd, in.topology).positions;
  in.params = AmberGbParams{};
  in.params.saltcon = s.saltcon;
  in.params.rgbmax = s.rgbmax;
  return true;
}

struct Timing {
  double cpu;   ///< thread processor seconds per call
  double wall;  ///< wall-clock seconds per call
};

/// Seconds per call: one call first; if it took under 0.2 s, calls repeated for minSeconds.
template <class F>
Timing cpuSecondsPerCall(F&& call, double minSeconds) {
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

/// The CPU reference table (gb, backend cpu).
void gbCpuTable(const Options& o) {
  std::printf("AMBER GB (igb 2) CPU reference, one thread, double precision; data %s\n",
              o.data.c_str());
  std::printf(
      "Times per call: processor time of the benchmark thread, wall time in parentheses "
      "(larger when the machine is shared).\n\n");
  std::printf(
      "| system | atoms | pairs | pairs within rgbmax+s | E+G (ms) | E only (ms) | "
      "E+G ns/pair | TOTAL (kcal/mol) | dEGB vs ref | dTOTAL vs ref |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n");
  for (const GbSystem& s : kGbSystems) {
    GbInput in;
    if ((!o.systems.empty() && !has(o.systems, s.name)) || !readGbSystem(o, s, in)) continue;
    AmberGb gb(in.topology, in.params);
    std::vector<double> g(in.x.size());
    double total = 0.0;
    const Timing tGradient =
        cpuSecondsPerCall([&] { total = gb.energyGradient(in.x.data(), g.data()); }, o.minSeconds);
    const Timing tEnergy = cpuSecondsPerCall([&] { gb.energy(in.x.data()); }, o.minSeconds);
    const double egb = gb.breakdown(in.x.data()).egb;
    const double n = static_cast<double>(in.topology.atomCount);
    const double pairs = n * (n - 1.0) / 2.0;
    const double descreening =
        pairsWithin(in.x, gb.tables().model.rgbmax + gb.tables().gbScreenedMax);
    std::printf(
        "| %s | %d | %.0f | %.0f | %.4g (%.4g) | %.4g (%.4g) | %.1f | %.4f | %.1e | %.1e |\n",
        s.name, in.topology.atomCount, pairs, descreening, 1e3 * tGradient.cpu,
        1e3 * tGradient.wall, 1e3 * tEnergy.cpu, 1e3 * tEnergy.wall, 1e9 * tGradient.cpu / pairs,
        total, egb - s.referenceEgb, total - s.referenceTotal);
    std::fflush(stdout);
  }
}

#ifdef LANDSCAPE_HAVE_CUDA
/// Wall-clock milliseconds of each of `count` calls, their median.
template <class F>
double medianMs(int count, F&& call) {
  std::vector<double> times;
  for (int r = 0; r < count; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return median(times);
}

/// The CUDA tables (gb, backend cuda): milliseconds per evaluation, then against the floor,
/// OpenMM and the targets.
void gbCudaTables(const Options& o) {
  std::printf("device: %s\n\n", gpuDescription().c_str());
  std::printf(
      "| system | atoms | CPU 1 thread (ms) | CUDA double (ms) | host call | CUDA mixed (ms) | "
      "host call | OpenMM double | OpenMM mixed | double/OpenMM | mixed/OpenMM | dTOTAL double "
      "| dTOTAL mixed |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::string floorTable;  // printed after the main table
  for (const GbSystem& s : kGbSystems) {
    GbInput in;
    if ((!o.systems.empty() && !has(o.systems, s.name)) || !readGbSystem(o, s, in)) continue;
    const std::vector<double>& x = in.x;
    std::vector<double> g(x.size());

    double cpuMs = 0.0;
    if (in.topology.atomCount <= o.cpuMaxAtoms) {
      AmberGb cpu(in.topology, in.params);
      const double start = threadSeconds();
      int calls = 0;
      do {
        cpu.energyGradient(x.data(), g.data());
        ++calls;
      } while (threadSeconds() - start < 1.0 && calls < o.repeats);
      cpuMs = 1e3 * (threadSeconds() - start) / calls;
    }

    double deviceMs[2] = {0, 0}, hostMs[2] = {0, 0}, total[2] = {0, 0};
    const Precision modes[2] = {Precision::Double, Precision::Mixed};
    for (int m = 0; m < 2; ++m) {
      AmberGbCuda gpu(in.topology, in.params, modes[m]);
      DeviceBuffer<double> dX(x), dG(x.size());
      for (int w = 0; w < 2; ++w) total[m] = gpu.energyGradientDevice(dX.data(), dG.data());
      deviceMs[m] = medianMs(o.repeats, [&] { gpu.energyGradientDevice(dX.data(), dG.data()); });
      hostMs[m] =
          medianMs(std::max(3, o.repeats / 4), [&] { gpu.energyGradient(x.data(), g.data()); });
    }
    std::printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2e | %.2e |\n", s.name,
                in.topology.atomCount, cell(cpuMs).c_str(), cell(deviceMs[0]).c_str(),
                cell(hostMs[0]).c_str(), cell(deviceMs[1]).c_str(), cell(hostMs[1]).c_str(),
                cell(s.openmmDouble).c_str(), cell(s.openmmMixed).c_str(),
                ratio(deviceMs[0], s.openmmDouble).c_str(),
                ratio(deviceMs[1], s.openmmMixed).c_str(), total[0] - s.referenceTotal,
                total[1] - s.referenceTotal);
    std::fflush(stdout);

    const AmberGbTables tables = buildAmberGbTables(in.topology, in.params);
    const double n = static_cast<double>(in.topology.atomCount);
    const double all = 0.5 * n * (n - 1.0);
    const double descreening = pairsWithin(x, in.params.rgbmax + tables.gbScreenedMax);
    const double floorMs[2] = {
        1e3 * (kPairOpsDouble * all + (kBornOpsDouble + kChainOpsDouble) * descreening) /
            o.fp64Rate,
        1e3 * (kPairOpsMixed * all + (kBornOpsMixed + kChainOpsMixed) * descreening) / o.fp32Rate};
    const double openmm[2][2] = {{s.openmmDouble, s.openmmDoubleObc2},
                                 {s.openmmMixed, s.openmmMixedObc2}};
    const double target[2] = {s.targetDouble, s.targetMixed};
    for (int m = 0; m < 2; ++m) {
      char line[512], met[64] = "-";
      if (target[m] > 0)
        std::snprintf(met, sizeof met, deviceMs[m] <= target[m] ? "yes" : "no (gap %.2fx)",
                      deviceMs[m] / target[m]);
      std::snprintf(
          line, sizeof line, "| %s | %s | %s | %.3g | %.1f | %s | %s | %s | %s | %s | %s |\n",
          s.name, m == 0 ? "double" : "mixed", cell(deviceMs[m]).c_str(), floorMs[m],
          deviceMs[m] / floorMs[m], cell(openmm[m][0]).c_str(), cell(openmm[m][1]).c_str(),
          ratio(deviceMs[m], openmm[m][0]).c_str(), ratio(deviceMs[m], openmm[m][1]).c_str(),
          target[m] > 0 ? ("<= " + cell(target[m])).c_str() : "-", met);
      floorTable += line;
    }
  }
  std::printf(
      "\nAgainst the floor, OpenMM and the targets (floor: %.3g FP64 / %.3g FP32 lane operations "
      "per second; pair counts from the structure; OpenMM on an H200, OBC-I + 0.2 M salt = our "
      "model, and OBC-II):\n\n"
      "| system | precision | device call (ms) | floor (ms) | x floor | OpenMM OBC-I+salt (ms) | "
      "OpenMM OBC-II (ms) | x OpenMM OBC-I | x OpenMM OBC-II | target (ms) | met |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n%s",
      o.fp64Rate, o.fp32Rate, floorTable.c_str());
}
#endif

/// Wall seconds per call: one warm-up call, then repetitions growing 4x until they last 0.3 s.
template <class F>
double wallSecondsPerCall(F&& call) {
  call();
  long reps = 1;
  for (;;) {
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < reps; ++i) call();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s > 0.3 || reps > (1L << 24)) return s / static_cast<double>(reps);
    reps *= 4;
  }
}

/// The Lennard-Jones table: CPU and CUDA columns (the latter nan without cuda).
void ljTable(const Options& o, bool cuda) {
  std::printf("Lennard-Jones energy+gradient, double precision; GPU: %s\n",
              gpuDescription().c_str());
  std::printf("floor = N(N-1)/2 pairs x %.0f FLOP / %.3g FLOP/s\n\n", kLjFlopsPerPair, o.fp64Peak);
  std::printf(
      "| atoms | CPU (us) | CUDA host entry (us) | CUDA device entry (us) | FP64 floor (us) "
      "| device / floor | CPU / device |\n|---|---|---|---|---|---|---|\n");
  for (std::size_t n : o.sizes) {
    Random random(n);
    const double radius = std::cbrt(static_cast<double>(n) / (0.8 * 4.18879));  // density ~0.8
    const std::vector<double> x = randomCluster(n, radius, 0.85, random);
    std::vector<double> g(x.size());
    PotentialSpec spec;
    spec.atoms = n;
    auto cpu = makePotential(spec, Backend::Cpu);
    const double tCpu = wallSecondsPerCall([&] { cpu->energyGradient(x.data(), g.data()); });
    double tHost = NAN, tDevice = NAN;
#ifdef LANDSCAPE_HAVE_CUDA
    if (cuda) {
      auto gpu = makePotential(spec, Backend::Cuda);
      tHost = wallSecondsPerCall([&] { gpu->energyGradient(x.data(), g.data()); });
      DeviceBuffer<double> dX(x), dG(x.size());
      tDevice = wallSecondsPerCall([&] { gpu->energyGradientDevice(dX.data(), dG.data()); });
    }
#endif
    const double floor = 0.5 * n * (n - 1.0) * kLjFlopsPerPair / o.fp64Peak;
    std::printf("| %zu | %.2f | %.2f | %.2f | %.3f | %.1f | %.2f |\n", n, tCpu * 1e6, tHost * 1e6,
                tDevice * 1e6, floor * 1e6, tDevice / floor, tCpu / tDevice);
  }
  if (!cuda) std::printf("\n(no CUDA device: GPU columns are nan)\n");
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  const bool gpu = gpuAvailable();
  if (o.backends.empty()) {
    if (!gpu)
      o.backends = {"cpu"};
    else
      o.backends = o.potential == "lj" ? std::vector<std::string>{"cpu", "cuda"}
                                       : std::vector<std::string>{"cuda"};
  }
  const bool cuda = has(o.backends, "cuda");
  if (cuda && !gpu) {
    std::fprintf(stderr, "bench_potential: no CUDA device (%s)\n", gpuDescription().c_str());
    return 1;
  }
  try {
    if (o.potential == "lj") {
      ljTable(o, cuda);
      return 0;
    }
    if (has(o.backends, "cpu")) gbCpuTable(o);
    if (cuda) {
#ifdef LANDSCAPE_HAVE_CUDA
      if (has(o.backends, "cpu")) std::printf("\n");
      gbCudaTables(o);
#endif
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_potential: %s\n", e.what());
    return 1;
  }
  return 0;
}
