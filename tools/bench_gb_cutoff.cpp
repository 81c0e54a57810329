// Benchmark (not a test): AMBER-GB with sander's non-bonded cutoff on one large structure on the
// GPU, printed as Markdown tables for docs/benchmarks.md. Two paths:
//   tiles  gpu/AmberGbCuda (the batched kernels' batch of one): every 32 x 32 tile pair, those
//          whose bounding boxes lie farther apart than cut skipped, the pairs beyond cut dropped;
//   list   gpu/AmberGbListCuda: a Verlet list (gpu/PairKernels' cell-list build) of radius
//          max(rgbmax + largest screened radius, cut) + skin; finite cuts only.
//
// Table 1, per path, cut (A; "none" = every pair) and precision: the median wall time of
// energyGradientDevice over --repeats calls after two warm-up calls at the same coordinates (no
// rebuild; energy back on the host), the ratio to the tile path without a cut, and the energy
// with its EELEC and EGB parts (kcal/mol), which show what the cut leaves out (the two paths
// agree to rounding).
// Table 2, list path: the list's radius, its longest list, lanes per atom, the median time of a
// build alone (rebuildNeighbourList: cell sort, neighbours, exclusion marks), of an evaluation
// without a build, and of an evaluation after every atom moved by more than half the skin
// (build + evaluation, alternating between two coordinate sets).
//
// Usage: bench_gb_cutoff --prmtop FILE --inpcrd FILE [--cuts none,20,16,12] [--rgbmax 12]
//                        [--igb 2] [--precisions double,mixed] [--repeats 10]
//                        [--paths tiles,list] [--skin 2] [--lanes 0]
// A 100,000-atom system: build/make_prmtop_copies --prmtop
// tests/data/gb/myoglobin/prmtop.mbondi2 --inpcrd tests/data/gb/myoglobin/inpcrd --grid 4x5x2
// --copies 40 --output /tmp/mb40 (99,680 atoms).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "gpu/AmberGbCuda.h"  // CUDA-free headers; the classes exist in CUDA builds
#include "gpu/AmberGbListCuda.h"
#include "gpu/GpuDevice.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "src/common/OptionTable.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/DeviceBuffer.h"
#endif

namespace landscape {
namespace {

struct Options {
  std::string prmtop, inpcrd;
  std::vector<std::string> cuts{"none", "20", "16", "12"};
  std::vector<std::string> precisions{"double", "mixed"};
  double rgbmax = 12.0;
  int igb = 2;
  int repeats = 10;
  std::vector<std::string> paths{"tiles", "list"};
  double skin = 2.0;
  int lanes = 0;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_gb_cutoff");
  t.about =
      "usage: bench_gb_cutoff --prmtop FILE --inpcrd FILE [--cuts none,20,16,12] [--rgbmax 12]\n"
      "                       [--igb 2] [--precisions double,mixed] [--repeats 10]\n"
      "                       [--paths tiles,list] [--skin 2] [--lanes 0]\n"
      "AMBER-GB energy + gradient of one structure on the GPU with sander's non-bonded cutoff "
      "(kcal/mol, Angstrom): median time per call for each cut against every pair, over the "
      "tile kernels and over a Verlet list (build and evaluation apart).\n";
  t.helpCommand();
  t.add("prmtop", "FILE", "AMBER topology", fieldOf(&Options::prmtop)).file();
  t.add("inpcrd", "FILE", "its coordinates", fieldOf(&Options::inpcrd)).file();
  t.add("cuts", "LIST", "cuts in Angstrom, 'none' for every pair", fieldOf(&Options::cuts));
  t.add("precisions", "LIST", "double, mixed", fieldOf(&Options::precisions));
  t.add("rgbmax", "A", "Born-radius cutoff", fieldOf(&Options::rgbmax)).unit("Angstrom").positive();
  t.add("igb", "", "GB model (1, 2 or 5)", fieldOf(&Options::igb)).oneOf({1, 2, 5});
  t.add("repeats", "K", "timed calls per row", fieldOf(&Options::repeats)).atLeast(1);
  t.add("paths", "LIST", "tiles (gpu/AmberGbCuda), list (gpu/AmberGbListCuda)",
        fieldOf(&Options::paths));
  t.add("skin", "A", "Verlet list skin", fieldOf(&Options::skin)).unit("Angstrom").positive();
  t.add("lanes", "L", "threads per atom's list: 1, 2, 4, 8, 16, 32; 0 chooses from N",
        fieldOf(&Options::lanes))
      .nonNegative();
  return t;
}

#ifdef LANDSCAPE_HAVE_CUDA
template <typename Call>
double medianUs(int repeats, Call call) {
  std::vector<double> us;
  for (int k = 0; k < repeats; ++k) {
    const auto start = std::chrono::steady_clock::now();
    call(k);
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

bool wants(const std::vector<std::string>& list, const char* name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

void run(const Options& o) {
  const AmberTopology topology = readAmberTopology(o.prmtop);
  const std::vector<double> x = readAmberCoordinates(o.inpcrd, topology).positions;
  std::printf("%zu atoms (%s), igb %d, rgbmax %g A, skin %g A\n\n", x.size() / 3, o.prmtop.c_str(),
              o.igb, o.rgbmax, o.skin);
  // A second coordinate set: every atom 0.6 skin away along x, so that each call rebuilds.
  std::vector<double> moved = x;
  for (std::size_t k = 0; k < moved.size(); k += 3) moved[k] += 0.6 * o.skin;
  DeviceBuffer<double> dx(x), dMoved(moved), dg(x.size());
  struct ListRow {
    std::string cut, precision;
    double radius;
    int longest, lanes;
    double buildUs, evaluateUs, rebuildUs;
  };
  std::vector<ListRow> listRows;
  std::printf(
      "| path | cut A | precision | E+G us (median) | / tiles, no cut | E | EELEC | EGB |\n"
      "|---|---|---|---|---|---|---|---|\n");
  for (const std::string& precisionName : o.precisions) {
    const Precision precision = parsePrecision(precisionName);
    double uncutUs = 0.0;
    for (const std::string& cutText : o.cuts) {
      AmberGbParams params;
      params.igb = o.igb;
      params.rgbmax = o.rgbmax;
      params.cut = cutText == "none" ? std::numeric_limits<double>::infinity() : std::stod(cutText);
      auto row = [&](const char* path, double median, double energy,
                     const AmberEnergyBreakdown& parts) {
        std::printf("| %s | %s | %s | %.0f | %s | %.4f | %.4f | %.4f |\n", path, cutText.c_str(),
                    precisionName.c_str(), median,
                    uncutUs > 0.0 ? std::to_string(median / uncutUs).substr(0, 5).c_str() : "-",
                    energy, parts.eel, parts.egb);
        std::fflush(stdout);
      };
      if (wants(o.paths, "tiles")) {
        AmberGbCuda gb(topology, params, precision);
        double energy = 0.0;
        for (int w = 0; w < 2; ++w) energy = gb.energyGradientDevice(dx.data(), dg.data());
        const double median =
            medianUs(o.repeats, [&](int) { gb.energyGradientDevice(dx.data(), dg.data()); });
        if (cutText == "none") uncutUs = median;
        row("tiles", median, energy, gb.lastBreakdown());
      }
      if (wants(o.paths, "list") && std::isfinite(params.cut)) {
        AmberGbListCuda gb(topology, params, precision, o.skin, o.lanes);
        double energy = 0.0;
        for (int w = 0; w < 2; ++w) energy = gb.energyGradientDevice(dx.data(), dg.data());
        const double median =
            medianUs(o.repeats, [&](int) { gb.energyGradientDevice(dx.data(), dg.data()); });
        row("list", median, energy, gb.lastBreakdown());
        ListRow r{cutText, precisionName, gb.listRadius(), 0, gb.lanesPerAtom(), 0.0, median, 0.0};
        r.buildUs = medianUs(o.repeats, [&](int) { gb.rebuildNeighbourList(dx.data()); });
        r.longest = gb.longestList();
        r.rebuildUs = medianUs(o.repeats, [&](int k) {
          gb.energyGradientDevice(k % 2 == 0 ? dMoved.data() : dx.data(), dg.data());
        });
        listRows.push_back(r);
      }
    }
  }
  if (listRows.empty()) return;
  std::printf(
      "\n| cut A | precision | list radius A | longest list | lanes | build us | "
      "E+G us, no build | E+G us with a build |\n|---|---|---|---|---|---|---|---|\n");
  for (const ListRow& r : listRows)
    std::printf("| %s | %s | %.2f | %d | %d | %.0f | %.0f | %.0f |\n", r.cut.c_str(),
                r.precision.c_str(), r.radius, r.longest, r.lanes, r.buildUs, r.evaluateUs,
                r.rebuildUs);
}
#endif

}  // namespace
}  // namespace landscape

int main(int argc, char** argv) {
  using namespace landscape;
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    if (o.prmtop.empty() || o.inpcrd.empty()) {
      std::fprintf(stderr, "bench_gb_cutoff: error: --prmtop and --inpcrd are required\n");
      return 2;
    }
#ifdef LANDSCAPE_HAVE_CUDA
    if (!gpuAvailable()) {
      std::fprintf(stderr, "bench_gb_cutoff: no CUDA device (%s)\n", gpuDescription().c_str());
      return 1;
    }
    std::printf("device: %s\n", gpuDescription().c_str());
    run(o);
    return 0;
#else
    std::fprintf(stderr, "bench_gb_cutoff: this build has no CUDA support\n");
    return 1;
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gb_cutoff: error: %s\n", e.what());
    return 1;
  }
}
