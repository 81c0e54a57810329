// Benchmark (not a test): AMBER-GB with sander's non-bonded cutoff on one large structure on the
// GPU (gpu/AmberGbCuda, the batched kernels' batch of one), printed as a Markdown table for
// docs/benchmarks.md. With a finite cut the pair kernel skips every 32 x 32 tile pair whose
// bounding boxes lie farther apart than cut (the boxes the Born-radius kernels already use for
// rgbmax), and drops the pairs beyond cut inside the tiles it visits (potentials/AmberGb.h).
//
// Columns: cut (A; "none" = every pair), precision, the median wall time of energyGradientDevice
// over --repeats calls after two warm-up calls (energy back on the host), the ratio to the row
// without a cut, and the energy with its EELEC and EGB parts (kcal/mol), which show what the
// cut leaves out.
//
// Usage: bench_gb_cutoff --prmtop FILE --inpcrd FILE [--cuts none,20,16,12] [--rgbmax 12]
//                        [--igb 2] [--precisions double,mixed] [--repeats 10]
// A 100,000-atom system: tools/utilities/make_prmtop_copies --prmtop
// tests/data/gb/myoglobin/prmtop.mbondi2 --inpcrd tests/data/gb/myoglobin/inpcrd --grid 4x5x2
// --copies 40 --output /tmp/mb40 (99,680 atoms).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "gpu/AmberGbCuda.h"  // CUDA-free header; the class exists in CUDA builds
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
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_gb_cutoff");
  t.about =
      "usage: bench_gb_cutoff --prmtop FILE --inpcrd FILE [--cuts none,20,16,12] [--rgbmax 12]\n"
      "                       [--igb 2] [--precisions double,mixed] [--repeats 10]\n"
      "AMBER-GB energy + gradient of one structure on the GPU with sander's non-bonded cutoff "
      "(kcal/mol, Angstrom): median time per call for each cut against every pair.\n";
  t.helpCommand();
  t.add("prmtop", "FILE", "AMBER topology", fieldOf(&Options::prmtop)).file();
  t.add("inpcrd", "FILE", "its coordinates", fieldOf(&Options::inpcrd)).file();
  t.add("cuts", "LIST", "cuts in Angstrom, 'none' for every pair", fieldOf(&Options::cuts));
  t.add("precisions", "LIST", "double, mixed", fieldOf(&Options::precisions));
  t.add("rgbmax", "A", "Born-radius cutoff", fieldOf(&Options::rgbmax)).unit("Angstrom").positive();
  t.add("igb", "", "GB model (1, 2 or 5)", fieldOf(&Options::igb)).oneOf({1, 2, 5});
  t.add("repeats", "K", "timed calls per row", fieldOf(&Options::repeats)).atLeast(1);
  return t;
}

#ifdef LANDSCAPE_HAVE_CUDA
void run(const Options& o) {
  const AmberTopology topology = readAmberTopology(o.prmtop);
  const std::vector<double> x = readAmberCoordinates(o.inpcrd, topology).positions;
  std::printf("%zu atoms (%s), igb %d, rgbmax %g A\n\n", x.size() / 3, o.prmtop.c_str(), o.igb,
              o.rgbmax);
  std::printf("| cut A | precision | E+G us (median) | / no cut | E | EELEC | EGB |\n"
              "|---|---|---|---|---|---|---|\n");
  DeviceBuffer<double> dx(x), dg(x.size());
  for (const std::string& precisionName : o.precisions) {
    const Precision precision = parsePrecision(precisionName);
    double uncutUs = 0.0;
    for (const std::string& cutText : o.cuts) {
      AmberGbParams params;
      params.igb = o.igb;
      params.rgbmax = o.rgbmax;
      params.cut = cutText == "none" ? std::numeric_limits<double>::infinity() : std::stod(cutText);
      AmberGbCuda gb(topology, params, precision);
      double energy = 0.0;
      for (int w = 0; w < 2; ++w) energy = gb.energyGradientDevice(dx.data(), dg.data());
      std::vector<double> us;
      for (int k = 0; k < o.repeats; ++k) {
        const auto start = std::chrono::steady_clock::now();
        gb.energyGradientDevice(dx.data(), dg.data());
        us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() -
                                                               start).count());
      }
      std::sort(us.begin(), us.end());
      const double median = us[us.size() / 2];
      if (cutText == "none") uncutUs = median;
      const AmberEnergyBreakdown parts = gb.lastBreakdown();
      std::printf("| %s | %s | %.0f | %s | %.4f | %.4f | %.4f |\n", cutText.c_str(),
                  precisionName.c_str(), median,
                  uncutUs > 0.0 ? std::to_string(median / uncutUs).substr(0, 5).c_str() : "-",
                  energy, parts.eel, parts.egb);
      std::fflush(stdout);
    }
  }
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
