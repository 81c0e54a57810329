// Benchmark (not a test): Lennard-Jones energy + gradient per call on the CPU reference and on
// CUDA (host entry point with copies, and the device-resident entry point), against the FP64
// floor of the all-pairs work: N(N-1)/2 pairs x kFlopsPerPair / peak FP64 rate.
//
// Usage: bench_lj_potential [--fp64-peak FLOPS] [--sizes 38,147,1000,10000]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Random.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "src/common/OptionTable.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/DeviceBuffer.h"
#endif

namespace {

using namespace landscape;

// Pair physics of potentials/LennardJonesTerms.h plus the gradient update: 3 sub, 5 for r^2,
// 1 reciprocal (counted as 1), 4 for r^-6/r^-12, 3 energy, 4 derivative, 6 gradient = 26.
constexpr double kFlopsPerPair = 26.0;

struct Options {
  double peak = 31e12;  // FP64 FLOP/s measured on an H200 (DESIGN.md); override with --fp64-peak
  std::vector<std::size_t> sizes = {38, 147, 1000, 10000};
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_lj_potential");
  t.about =
      "usage: bench_lj_potential [--fp64-peak FLOPS] [--sizes 38,147,1000,10000]\n"
      "Lennard-Jones energy + gradient per call (double) on the CPU reference and on CUDA (host\n"
      "entry point with copies, and the device-resident entry point), against the FP64 floor of\n"
      "the all-pairs work, N(N-1)/2 pairs x 26 FLOP / peak; as a Markdown table.\n";
  t.helpCommand();
  t.add("fp64-peak", "F", "peak FP64 rate for the floor (H200 measured: 31e12)",
        fieldOf(&Options::peak))
      .unit("FLOP/s")
      .positive();
  t.add("sizes", "LIST", "cluster sizes in atoms, comma-separated", fieldOf(&Options::sizes))
      .atLeast(2);
  return t;
}

template <class F>
double secondsPerCall(F&& call) {
  call();  // warm-up
  long reps = 1;
  for (;;) {
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < reps; ++i) call();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s > 0.3 || reps > (1L << 24)) return s / static_cast<double>(reps);
    reps *= 4;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  const double peak = o.peak;
  const std::vector<std::size_t>& sizes = o.sizes;
  const bool gpu = gpuAvailable();
  std::printf("Lennard-Jones energy+gradient, double precision; GPU: %s\n",
              gpuDescription().c_str());
  std::printf("floor = N(N-1)/2 pairs x %.0f FLOP / %.3g FLOP/s\n\n", kFlopsPerPair, peak);
  std::printf(
      "| atoms | CPU (us) | CUDA host entry (us) | CUDA device entry (us) | FP64 floor (us) "
      "| device / floor | CPU / device |\n|---|---|---|---|---|---|---|\n");
  for (std::size_t n : sizes) {
    Random random(n);
    const double radius = std::cbrt(static_cast<double>(n) / (0.8 * 4.18879));  // density ~0.8
    const std::vector<double> x = randomCluster(n, radius, 0.85, random);
    std::vector<double> g(x.size());
    PotentialSpec spec;
    spec.atoms = n;
    auto cpu = makePotential(spec, Backend::Cpu);
    const double tCpu = secondsPerCall([&] { cpu->energyGradient(x.data(), g.data()); });
    double tHost = NAN, tDevice = NAN;
#ifdef LANDSCAPE_HAVE_CUDA
    if (gpu) {
      auto cuda = makePotential(spec, Backend::Cuda);
      tHost = secondsPerCall([&] { cuda->energyGradient(x.data(), g.data()); });
      DeviceBuffer<double> dX(x), dG(x.size());
      tDevice = secondsPerCall([&] { cuda->energyGradientDevice(dX.data(), dG.data()); });
    }
#endif
    const double floor = 0.5 * n * (n - 1.0) * kFlopsPerPair / peak;
    std::printf("| %zu | %.2f | %.2f | %.2f | %.3f | %.1f | %.2f |\n", n, tCpu * 1e6, tHost * 1e6,
                tDevice * 1e6, floor * 1e6, tDevice / floor, tCpu / tDevice);
  }
  if (!gpu) std::printf("\n(no CUDA device: GPU columns are nan)\n");
  return 0;
}
