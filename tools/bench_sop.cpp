// Benchmark (not a test): microseconds per Langevin step of the SOP model (Zhmurov, Rybnikov,
// Kholodov and Barsegov, J. Phys. Chem. B 2011, eq 1 and Appendix B) for the microtubule
// protofilament PF8 (6928 beads) with 1, 4 and 16 replicas, next to SOP-GPU on an H200 (SOP-GPU's
// published figures: 38 us/step for one protofilament, 82 us/step for 16 replicas).
//
// Settings measured:
//   sop-gpu   SOP-GPU's arithmetic and pair list: FP32, repulsion over pairs within 20 A (cut and
//             force-shifted at 20 A here), list rebuilt every 1000 steps -- the comparison column;
//   default   this library's defaults in FP32 and in double: repulsion cut at 8 A, skin 3 A, the
//             list rebuilt when any bead has moved more than half the skin.
// With --graphs, settings ending in +G replay steps as CUDA Graphs
// (SopDynamicsParams::cudaGraphSteps) instead of one host launch per kernel: 166 steps per graph
// for sop-gpu (6 graphs fill the 999 steps between two forced rebuilds), 100 for default. The
// graph path crashed on its first real-GPU run (H100, 2026-11-22; fixed since, see docs/sop.md);
// it stays opt-in. With --persistent, sop-gpu+P runs the 999 steps between two forced rebuilds
// as one persistent cooperative kernel (SopDynamicsParams::cudaPersistentSteps; fixed rebuild
// interval only, so no default+P). Step kernels are programmatic dependent launches on sm_90+
// (SopDynamicsParams::cudaProgrammaticLaunches); --ordinary-launches adds sop-gpu rows without
// (-L).
// Two floors per row: the byte floor, the memory traffic of one step (neighbour indices of every
// row read once, plus positions, native list and the output) over the copy bandwidth
// (docs/benchmarks.md, "Method"), and the issue floor, the warp instructions of the pair loops
// (every list and native pair from both beads, kIssuePerPair and kIssuePerNative instructions each,
// estimated from the float pair loop) over the device's issue rate (SMs x 4 schedulers x
// clock). Rows of the sop-gpu setting also print SOP-GPU's time on an H200 (the anchor), the
// speedup over it and the kernel target (1 replica <= 4 us, 16 replicas <= 20 us per step).
// The table is Markdown, ready to paste into docs/benchmarks.md.
// One CPU reference line (double, one replica, a few steps) shows the serial cost.
//
// Usage: bench_sop [--pdb FILE] [--replicas 1,4,16] [--steps N] [--cpu-steps N]
//                  [--bandwidth BYTES_PER_S] [--sms N] [--clock-ghz F] [--graphs] [--persistent]
//                  [--ordinary-launches]
//   --pdb        default $LANDSCAPE_TEST_DATA/sop/PF8_protofilament_ca.pdb, else
//                <source>/tests/data/sop/PF8_protofilament_ca.pdb
//   --steps      timed steps per cell (default 20000, after 2000 warm-up steps)
//   --bandwidth  default 3.2e12 (H200 copy, measured)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "landscape/dynamics/SopDynamics.h"
#include "potentials/Sop.h"
#include "potentials/SopTopology.h"
#include "src/common/OptionTable.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/SopDynamicsCuda.h"
#endif

namespace {

using namespace landscape;
using Clock = std::chrono::steady_clock;

struct Setting {
  const char* name;
  Precision precision;
  double cutoff, skin;
  long rebuildInterval;
  int graphSteps;           ///< 0: one host launch per kernel; n: n steps per CUDA Graph launch
  int persistentSteps = 0;  ///< n > 0: up to n steps per persistent cooperative launch
  bool programmatic = true;  ///< SopDynamicsParams::cudaProgrammaticLaunches
};

/// Thread instructions per list pair in the float pair loop, estimated from sopStepKernel<float,
/// uint16>'s body (3 FADD, FMUL + 2 FFMA for r^2, MUFU.RSQ, 3 FMUL for r^-8, FMUL, FFMA, FMNMX,
/// 3 FFMA, the 16 B position load, the index extraction and the address), and per native pair
/// (the same plus the r0^2 load and the Lennard-Jones terms, about 28).
constexpr double kIssuePerPair = 20.0, kIssuePerNative = 28.0;

/// The kernel target per step (us) for the sop-gpu setting, or 0 where none was set.
double targetMicroseconds(int replicas) {
  if (replicas == 1) return 4.0;
  if (replicas == 16) return 20.0;
  return 0.0;
}

/// SOP-GPU's published time per step on an H200, or 0 where none was given.
double sopGpuMicroseconds(int replicas) {
  if (replicas == 1) return 38.0;
  if (replicas == 16) return 82.0;
  return 0.0;
}

/// Bytes one step must move at least: each row's neighbour indices (2 or 4 B) and the partner
/// positions they name are read through caches, so count the indices once plus the positions in
/// and out (16 or 32 B per bead), the bond and native lists (shared by replicas, read once).
double floorBytes(const SopTopology& t, long pairs, int replicas, Precision precision) {
  const double pos = precision == Precision::Single ? 16.0 : 32.0;
  const double n = static_cast<double>(t.beadCount());
  const double index = t.beadCount() <= 65536 ? 2.0 : 4.0;  // 16-bit Verlet-list indices
  const double rowIndices = 2.0 * pairs * index + n * 4.0;  // both directions, plus counts
  const double natives = 2.0 * t.contacts.size() * (4.0 + (precision == Precision::Single ? 4 : 8));
  return replicas * (rowIndices + 2.0 * n * pos) + natives + n * 24.0;
}

std::string defaultPdb() {
  if (const char* root = std::getenv("LANDSCAPE_TEST_DATA"); root && *root)
    return std::string(root) + "/sop/PF8_protofilament_ca.pdb";
  return std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/sop/PF8_protofilament_ca.pdb";
}

struct Options {
  std::string pdb = defaultPdb();
  std::vector<int> replicaCounts{1, 4, 16};
  long steps = 20000, cpuSteps = 20;
  double bandwidth = 3.2e12;
  int sms = 132;
  double clockGhz = 1.98;
  bool graphs = false, persistent = false, ordinaryLaunches = false;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_sop");
  t.about =
      "usage: bench_sop [--pdb FILE] [--replicas 1,4,16] [--steps N] [--cpu-steps N]\n"
      "                 [--bandwidth BYTES_PER_S] [--sms N] [--clock-ghz F] [--graphs]\n"
      "                 [--persistent] [--ordinary-launches]\n"
      "Microseconds per Langevin step of the SOP model for the PF8 protofilament (6928 beads), "
      "with\n"
      "SOP-GPU's settings (FP32, repulsion cut at 20 A, list rebuilt every 1000 steps) and this\n"
      "library's defaults (FP32 and double, cut at 8 A, skin 3 A), next to SOP-GPU on an H200 and\n"
      "the memory-traffic floor of one step; then one CPU reference line (double, one replica).\n";
  t.helpCommand();
  t.add("pdb", "FILE",
        "Calpha PDB ($LANDSCAPE_TEST_DATA/sop/PF8_protofilament_ca.pdb, else "
        "<source>/tests/data/sop/PF8_protofilament_ca.pdb)",
        fieldOf(&Options::pdb));
  t.add("replicas", "LIST", "replica counts, comma-separated", fieldOf(&Options::replicaCounts))
      .atLeast(1);
  t.add("steps", "N", "timed steps per cell, after 2000 warm-up steps", fieldOf(&Options::steps))
      .atLeast(1);
  t.add("cpu-steps", "N", "timed steps of the CPU reference", fieldOf(&Options::cpuSteps))
      .atLeast(0);
  t.add("bandwidth", "B", "copy bandwidth for the floor (H200 measured: 3.2e12)",
        fieldOf(&Options::bandwidth))
      .unit("bytes/s")
      .positive();
  t.add("sms", "N", "streaming multiprocessors for the issue floor (H100/H200 SXM: 132)",
        fieldOf(&Options::sms))
      .atLeast(1);
  t.add("clock-ghz", "F", "SM clock for the issue floor (H100/H200 SXM boost: 1.98)",
        fieldOf(&Options::clockGhz))
      .unit("GHz")
      .positive();
  t.flag("graphs", "also time steps replayed as CUDA Graphs (settings ending in +G)",
         fieldOf(&Options::graphs));
  t.flag("persistent",
         "also time sop-gpu with 999 steps per persistent cooperative launch (sop-gpu+P)",
         fieldOf(&Options::persistent));
  t.flag("ordinary-launches",
         "also time sop-gpu (and sop-gpu+G with --graphs) with ordinary launches instead of "
         "programmatic dependent ones (settings ending in -L)",
         fieldOf(&Options::ordinaryLaunches));
  return t;
}

int run(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  const std::string& pdb = o.pdb;
  const std::vector<int>& replicaCounts = o.replicaCounts;
  const long steps = o.steps, cpuSteps = o.cpuSteps;
  const double bandwidth = o.bandwidth;
  const bool graphs = o.graphs;
  std::vector<Setting> settings = {
      {"sop-gpu", Precision::Single, 20.0, 1e-3, 1000, 0},
      {"default", Precision::Single, 8.0, 3.0, 0, 0},
      {"default", Precision::Double, 8.0, 3.0, 0, 0},
  };
  if (graphs) {
    settings.push_back({"sop-gpu+G", Precision::Single, 20.0, 1e-3, 1000, 166});
    settings.push_back({"default+G", Precision::Single, 8.0, 3.0, 0, 100});
  }
  if (o.persistent) settings.push_back({"sop-gpu+P", Precision::Single, 20.0, 1e-3, 1000, 0, 999});
  if (o.ordinaryLaunches) {
    settings.push_back({"sop-gpu-L", Precision::Single, 20.0, 1e-3, 1000, 0, 0, false});
    if (graphs)
      settings.push_back({"sop-gpu+G-L", Precision::Single, 20.0, 1e-3, 1000, 166, 0, false});
  }
  const double issueRate = 4.0 * o.sms * o.clockGhz * 1e9;  // warp instructions per second
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each row reaches a pipe as soon as it is measured
  std::printf("# bench_sop: %s\n# device: %s\n", pdb.c_str(), gpuDescription().c_str());
  std::printf(
      "# byte floor: bytes per step / %.3g B/s; issue floor: pair-loop warp instructions / "
      "(4 x %d SMs x %.3g GHz); anchor: SOP-GPU on an H200\n\n",
      bandwidth, o.sms, o.clockGhz);
  std::printf(
      "| setting | precision | replicas | beads | us/step | byte floor (us) | x byte floor | issue "
      "floor (us) | x issue floor | rebuilds | SOP-GPU anchor (us) | speedup | target (us) | "
      "met |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");

  for (const Setting& s : settings) {
    SopParams params;
    params.repulsiveCutoff = s.cutoff;
    const SopTopology topology = readSopTopology(pdb, params);
    const std::vector<double> start = topology.nativeCoordinates();
    const long pairs =
        static_cast<long>(Sop(topology).repulsivePairs(start.data(), s.cutoff + s.skin).size());
    for (int replicas : replicaCounts) {
      SopDynamicsParams dp;
      dp.replicas = replicas;
      dp.precision = s.precision;
      dp.skin = s.skin;
      dp.rebuildInterval = s.rebuildInterval;
      dp.cudaGraphSteps = s.graphSteps;
      dp.cudaPersistentSteps = s.persistentSteps;
      dp.cudaProgrammaticLaunches = s.programmatic;
      const double floorUs = 1e6 * floorBytes(topology, pairs, replicas, s.precision) / bandwidth;
      const double issueUs =
          1e6 * replicas *
          (2.0 * pairs * kIssuePerPair + 2.0 * topology.contacts.size() * kIssuePerNative) / 32.0 /
          issueRate;
      const double beads = static_cast<double>(topology.beadCount()) * replicas;
      const bool anchored = s.rebuildInterval > 0;  // the sop-gpu rows
      const double reference = anchored ? sopGpuMicroseconds(replicas) : 0.0;
      const double target = anchored ? targetMicroseconds(replicas) : 0.0;
      char ref[32] = "-", tgt[32] = "-";
      if (reference > 0) std::snprintf(ref, sizeof ref, "%.0f", reference);
      if (target > 0) std::snprintf(tgt, sizeof tgt, "<= %.0f", target);
#ifdef LANDSCAPE_HAVE_CUDA
      if (gpuAvailable()) {
        SopDynamicsCuda md(topology, start, dp);
        md.run(2000);  // warm-up, includes the first list builds
        const long before = md.rebuilds();
        const auto t0 = Clock::now();
        md.run(steps);
        const double us = 1e6 * std::chrono::duration<double>(Clock::now() - t0).count() / steps;
        char speed[32] = "-", met[32] = "-";
        if (reference > 0) std::snprintf(speed, sizeof speed, "%.2fx", reference / us);
        if (target > 0)
          std::snprintf(met, sizeof met, "%s (gap %.2fx)", us <= target ? "yes" : "no",
                        us / target);
        std::printf(
            "| %s | %s | %d | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %ld | %s | %s | %s "
            "| %s |\n",
            s.name, precisionName(s.precision).c_str(), replicas, beads, us, floorUs, us / floorUs,
            issueUs, us / issueUs, md.rebuilds() - before, ref, speed, tgt, met);
        continue;
      }
#endif
      std::printf("| %s | %s | %d | %.0f | no GPU | %.2f | - | %.2f | - | - | %s | - | %s | - |\n",
                  s.name, precisionName(s.precision).c_str(), replicas, beads, floorUs, issueUs,
                  ref, tgt);
    }
  }

  // CPU reference: double, one replica, default settings (cell list every step).
  {
    const SopTopology topology = readSopTopology(pdb);
    SopDynamicsCpu md(topology, topology.nativeCoordinates(), SopDynamicsParams{});
    md.run(2);
    const auto t0 = Clock::now();
    md.run(cpuSteps);
    const double us = 1e6 * std::chrono::duration<double>(Clock::now() - t0).count() / cpuSteps;
    std::printf("\nCPU reference (double, one replica, one core): %.1f us/step (%.3f ns/bead)\n",
                us, 1e3 * us / topology.beadCount());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_sop: error: %s\n", e.what());
    return 1;
  }
}
