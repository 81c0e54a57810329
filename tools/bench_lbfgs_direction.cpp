// Benchmark (not a test): time of one L-BFGS direction p = -H g with a full history of m pairs in
// n = 3N dimensions, on the GPU workspace (compact representation: two GEMMs over S and Y, O(m^2)
// small-matrix work, two GEMVs) and on the CPU workspace (two-loop recursion), against the byte
// floor: every step must read S and Y at least once (2 m n doubles); the compact form reads them
// twice (dot products, then the combination), so its own floor is twice that.
//
// Usage: bench_lbfgs_direction [--atoms 2492,24920] [--m 4,10,100,1000] [--bandwidth B/s]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Random.h"
#include "potentials/Potential.h"
#include "src/common/SharedOptions.h"

namespace {

using namespace landscape;

// A cheap well-conditioned quadratic, f = sum k_i x_i^2 / 2 with k_i in [1, 10]: filling the
// history costs almost nothing, and the direction's cost does not depend on the function.
class Quadratic : public Potential {
 public:
  explicit Quadratic(std::size_t n) : m_k(n) {
    Random r(17);
    for (double& k : m_k) k = 1.0 + 9.0 * r.uniform();
  }
  std::size_t dimension() const override { return m_k.size(); }
  std::string name() const override { return "quadratic"; }
  double energy(const double* x) override {
    double e = 0;
    for (std::size_t i = 0; i < m_k.size(); ++i) e += 0.5 * m_k[i] * x[i] * x[i];
    return e;
  }
  double energyGradient(const double* x, double* g) override {
    for (std::size_t i = 0; i < m_k.size(); ++i) g[i] = m_k[i] * x[i];
    return energy(x);
  }

 private:
  std::vector<double> m_k;
};

struct Options {
  std::vector<long> atoms = {2492, 24920}, ms = {4, 10, 100, 1000};
  double bandwidth = 3.2e12;  // H200 copy bandwidth (docs/benchmarks.md)
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_lbfgs_direction");
  t.about =
      "usage: bench_lbfgs_direction [--atoms 2492,24920] [--m 4,10,100,1000] [--bandwidth B/s]\n"
      "Time of one L-BFGS direction p = -H g with a full history of m pairs in n = 3N dimensions,\n"
      "on the GPU workspace (compact representation) and the CPU workspace (two-loop recursion),\n"
      "against the byte floor of one read of S and Y (2 m n doubles); as a Markdown table.\n";
  t.helpCommand();
  t.add("atoms", "LIST", "atom counts N, comma-separated", fieldOf(&Options::atoms)).atLeast(1);
  addLbfgsHistoryOption(t, "L-BFGS history sizes m, comma-separated", fieldOf(&Options::ms))
      .alias("m");
  t.add("bandwidth", "B", "copy bandwidth for the floor (H200: 3.2e12)",
        fieldOf(&Options::bandwidth))
      .unit("bytes/s")
      .positive();
  return t;
}

// Seconds per computeDirection() on a workspace whose history holds m pairs.
double directionSeconds(LbfgsBackend backend, std::size_t n, int m) {
  Quadratic f(n);
  auto ws = lbfgsWorkspaceFactory(backend)(f, m);
  std::vector<double> x(n);
  Random r(3);
  for (double& v : x) v = r.symmetric();
  ws->setCoordinates(x.data());
  ws->evaluateCurrent();
  for (int k = 0; k < m; ++k) {  // fill the history with genuine pairs
    ws->computeDirection(0.1);
    ws->evaluateTrial(1e-3);
    ws->acceptTrial();
  }
  ws->computeDirection(0.1);  // warm-up
  long reps = 1;
  for (;;) {
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < reps; ++i) ws->computeDirection(0.1);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s > 0.25 || reps >= 4096) return s / static_cast<double>(reps);
    reps *= 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    const std::vector<long>&atoms = o.atoms, &ms = o.ms;
    const double bandwidth = o.bandwidth;
    const bool gpu = gpuAvailable();
    std::printf("L-BFGS direction with a full history; GPU: %s; bandwidth %.3g B/s\n",
                gpuDescription().c_str(), bandwidth);
    std::printf("floor = one read of S and Y (2 m n doubles) / bandwidth\n\n");
    std::printf(
        "| atoms | m | GPU compact (us) | floor (us) | GPU / floor | GPU / 2 x floor | CPU "
        "two-loop (us) | CPU / GPU |\n|---|---|---|---|---|---|---|---|\n");
    for (long a : atoms) {
      const std::size_t n = 3 * static_cast<std::size_t>(a);
      for (long m : ms) {
        const double floor = 2.0 * m * n * 8.0 / bandwidth;
        const double tGpu = gpu ? directionSeconds(LbfgsBackend::Gpu, n, static_cast<int>(m)) : NAN;
        const double tCpu = directionSeconds(LbfgsBackend::Cpu, n, static_cast<int>(m));
        std::printf("| %ld | %ld | %.1f | %.1f | %.2f | %.2f | %.1f | %.1f |\n", a, m, tGpu * 1e6,
                    floor * 1e6, tGpu / floor, tGpu / (2 * floor), tCpu * 1e6, tCpu / tGpu);
        std::fflush(stdout);
      }
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_lbfgs_direction: error: %s\n", e.what());
    return 1;
  }
}
