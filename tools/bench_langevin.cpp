// Benchmark (not a test): time per oscillator-step of overdamped Langevin dynamics for N Brownian
// oscillators in 3D (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, section IV.B,
// Figs. 3-4) with every generator, against each generator's own memory floor (docs/benchmarks.md,
// "Method"; the floors are defined in gpu/BrownianOscillatorsCuda.h), beside cuRAND's
// Philox writing the same Gaussians to memory.
//
// Usage: bench_langevin [--sizes 1000,10000,...] [--bandwidth BYTES_PER_S] [--seconds S]
//                       [--cpu-max N] [--steps-per-call K] [--no-library]
//                       [--generators LIST] [--lagfib-access LIST]
//   --bandwidth  the device's copy bandwidth (default 3.2e12, measured on an H200)
//   --seconds    minimum timed wall time per cell (default 0.2)
//   --cpu-max    largest N for the CPU reference column (default 100000)
//   --steps-per-call  GPU steps enqueued between two synchronisations (default 100; the old
//                table used 10 at N >= 1e6, so one host synchronisation and the first launch's
//                latency, some 10 us, were spread over 10 steps: about 1 us of a 10 us step)
//   --generators  the generators to time (default all)
//   --lagfib-access  the lagged-Fibonacci fused kernels to time, one row each (default streaming-keep;
//                sequential, batched, streaming, streaming-keep: gpu/LaggedFibonacciAccess.h)
//
// Anchor and target: the byte floor; every generator at most 1.25x it at N = 1e6 and
// 1e7 (the target column says met / missed there).
//
// Columns: fused = one kernel per step (draw + Box-Muller + update, float4 positions);
// floor = bytes / bandwidth; cuRAND gen = curandGenerateNormal of 3N floats (Philox4_32_10),
// whose floor is writing them; cuRAND+update = that plus a kernel reading them (unfused);
// library = LangevinCuda (double precision, HarmonicWellCuda through the Potential interface);
// CPU = LangevinCpu with HarmonicWell (double). cuRAND is loaded at run time with dlopen
// (libcurand.so), so that the build links nothing new; without it the column reads "n/a".
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "gpu/LaggedFibonacciAccess.h"
#include "landscape/dynamics/Langevin.h"
#include "potentials/HarmonicWell.h"
#include "landscape/dynamics/RngKind.h"
#include "src/common/OptionTable.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <curand.h>
#include <dlfcn.h>

#include "gpu/BrownianOscillatorsCuda.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/HarmonicWellCuda.h"
#include "gpu/LangevinCuda.h"
#endif

namespace {

using namespace landscape;
using Clock = std::chrono::steady_clock;

// Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, section IV.A, in reduced form:
// decay 1 - k dt / xi, amplitude sqrt(2 kT dt / xi).
constexpr double kDecay = 0.999;
constexpr double kAmplitude = 0.0447;

/// Seconds per call of `step` (which performs `stepsPerCall` steps and synchronises), repeated
/// until at least minSeconds have passed.
template <class F>
double secondsPerStep(F&& step, long stepsPerCall, double minSeconds) {
  step();  // warm-up
  long calls = 1;
  for (;;) {
    const auto t0 = Clock::now();
    for (long c = 0; c < calls; ++c) step();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (s >= minSeconds || calls >= (1L << 20))
      return s / static_cast<double>(calls * stepsPerCall);
    calls *= 4;
  }
}

std::string cell(double value, const char* format) {
  if (!std::isfinite(value)) return "n/a";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

struct Options {
  double bandwidth = 3.2e12, minSeconds = 0.2;
  std::size_t cpuMax = 100000;
  long stepsPerCall = 100;
  bool noLibrary = false;
  std::vector<std::size_t> sizes = {1000, 10000, 100000, 1000000, 10000000};
  std::vector<RngKind> generators = allRngKinds();
  std::vector<LaggedFibonacciAccess> lagfibAccess = {kDefaultLaggedFibonacciAccess};
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_langevin");
  t.about =
      "usage: bench_langevin [--sizes 1000,10000,...] [--bandwidth BYTES_PER_S] [--seconds S]\n"
      "                      [--cpu-max N] [--steps-per-call K] [--no-library]\n"
      "                      [--generators LIST] [--lagfib-access LIST]\n"
      "Time per oscillator-step of overdamped Langevin dynamics for N Brownian oscillators in 3D\n"
      "with every generator, against each generator's memory floor, beside cuRAND's Philox; as a\n"
      "Markdown table (GPU columns n/a without a CUDA device).\n";
  t.helpCommand();
  t.add("sizes", "LIST", "oscillator counts N, comma-separated", fieldOf(&Options::sizes))
      .atLeast(1);
  t.add("bandwidth", "B", "the device's copy bandwidth (measured on an H200: 3.2e12)",
        fieldOf(&Options::bandwidth))
      .unit("bytes/s")
      .positive();
  t.add("seconds", "S", "minimum timed wall time per cell", fieldOf(&Options::minSeconds))
      .unit("s")
      .positive();
  t.add("cpu-max", "N", "largest N for the CPU reference column", fieldOf(&Options::cpuMax));
  t.add("steps-per-call", "K", "GPU steps enqueued between two synchronisations",
        fieldOf(&Options::stepsPerCall))
      .atLeast(1);
  t.flag("no-library", "skip the LangevinCuda (library double) column",
         fieldOf(&Options::noLibrary));
  t.add("generators", "LIST", "the generators to time, comma-separated",
        fieldOf(&Options::generators))
      .choices(allRngKinds(), rngKindName);
  t.add("lagfib-access", "LIST",
        "lagged-Fibonacci fused kernels, one row each: sequential, batched, streaming, "
        "streaming-keep (gpu/LaggedFibonacciAccess.h)",
        fieldOf(&Options::lagfibAccess))
      .choices(allLaggedFibonacciAccesses(), laggedFibonacciAccessName);
  return t;
}

#ifdef LANDSCAPE_HAVE_CUDA
/// cuRAND through dlopen: the tool links only what the library links.
class Curand {
 public:
  Curand() {
    for (const char* name : {"libcurand.so", "libcurand.so.10", "libcurand.so.11"}) {
      m_handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (m_handle) break;
    }
    if (!m_handle) {
      m_why = "libcurand.so not found (" + std::string(dlerror()) + ")";
      return;
    }
    m_create = reinterpret_cast<decltype(m_create)>(dlsym(m_handle, "curandCreateGenerator"));
    m_seed =
        reinterpret_cast<decltype(m_seed)>(dlsym(m_handle, "curandSetPseudoRandomGeneratorSeed"));
    m_normal = reinterpret_cast<decltype(m_normal)>(dlsym(m_handle, "curandGenerateNormal"));
    m_destroy = reinterpret_cast<decltype(m_destroy)>(dlsym(m_handle, "curandDestroyGenerator"));
    if (!m_create || !m_seed || !m_normal || !m_destroy) {
      m_why = "libcurand.so lacks the expected symbols";
      return;
    }
    if (m_create(&m_generator, CURAND_RNG_PSEUDO_PHILOX4_32_10) != CURAND_STATUS_SUCCESS ||
        m_seed(m_generator, 1234ULL) != CURAND_STATUS_SUCCESS) {
      m_why = "curandCreateGenerator(PHILOX4_32_10) failed";
      m_generator = nullptr;
    }
  }
  ~Curand() {
    if (m_generator) m_destroy(m_generator);
    if (m_handle) dlclose(m_handle);
  }
  Curand(const Curand&) = delete;
  Curand& operator=(const Curand&) = delete;

  bool ok() const { return m_generator != nullptr; }
  const std::string& why() const { return m_why; }
  /// count must be even (cuRAND's normal generators make pairs).
  void normal(float* d_out, std::size_t count) {
    if (m_normal(m_generator, d_out, count, 0.0f, 1.0f) != CURAND_STATUS_SUCCESS)
      throw std::runtime_error("curandGenerateNormal failed");
  }

 private:
  void* m_handle = nullptr;
  curandGenerator_t m_generator = nullptr;
  std::string m_why;
  curandStatus_t (*m_create)(curandGenerator_t*, curandRngType_t) = nullptr;
  curandStatus_t (*m_seed)(curandGenerator_t, unsigned long long) = nullptr;
  curandStatus_t (*m_normal)(curandGenerator_t, float*, size_t, float, float) = nullptr;
  curandStatus_t (*m_destroy)(curandGenerator_t) = nullptr;
};
#endif

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    const double bandwidth = o.bandwidth, minSeconds = o.minSeconds;
    const std::size_t cpuMax = o.cpuMax;
    const bool library = !o.noLibrary;
    const std::vector<std::size_t>& sizes = o.sizes;
    const bool gpu = gpuAvailable();
    std::printf("Overdamped Langevin, N Brownian oscillators in 3D; GPU: %s\n",
                gpuDescription().c_str());
    std::printf(
        "floor = bytes per step / %.3g B/s (fused: positions 2 x 16 B + generator state; "
        "gpu/BrownianOscillatorsCuda.h)\n\n",
        bandwidth);

#ifdef LANDSCAPE_HAVE_CUDA
    std::unique_ptr<Curand> curand;
    if (gpu) {
      curand = std::make_unique<Curand>();
      if (!curand->ok()) std::printf("cuRAND column: %s\n\n", curand->why().c_str());
    }
#endif

    std::printf(
        "| N | generator | state (MB) | fused (us/step) | ns/oscillator-step | floor (us) "
        "| fused / floor | target | library double (us/step) | CPU "
        "(ns/oscillator-step) |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (std::size_t n : sizes) {
      // One row per generator; lagged Fibonacci one per --lagfib-access kernel (the library and
      // CPU columns in its first row only).
      struct Row {
        RngKind kind;
        LaggedFibonacciAccess access;
        bool first;
      };
      std::vector<Row> rows;
      for (RngKind kind : o.generators) {
        if (kind != RngKind::LaggedFibonacci) {
          rows.push_back({kind, kDefaultLaggedFibonacciAccess, true});
          continue;
        }
        for (std::size_t a = 0; a < o.lagfibAccess.size(); ++a)
          rows.push_back({kind, o.lagfibAccess[a], a == 0});
      }
      for (const Row& row : rows) {
        const RngKind kind = row.kind;
        double fused = NAN, floorSeconds = NAN, libraryStep = NAN, cpu = NAN;
        const double stateMb = static_cast<double>(rngStateBytes(kind, n)) / 1e6;
        const std::string name =
            kind == RngKind::LaggedFibonacci
                ? rngKindName(kind) + " [" + laggedFibonacciAccessName(row.access) + "]"
                : rngKindName(kind);
#ifdef LANDSCAPE_HAVE_CUDA
        if (gpu) {
          BrownianOscillatorsCuda oscillators(n, kind, 1, static_cast<float>(kDecay),
                                              static_cast<float>(kAmplitude));
          oscillators.setLaggedFibonacciAccess(row.access);
          const long steps = o.stepsPerCall;
          fused = secondsPerStep(
              [&] {
                oscillators.run(steps);
                oscillators.synchronize();
              },
              steps, minSeconds);
          floorSeconds = oscillators.floorBytesPerStep() / bandwidth;
          if (library && row.first) {
            HarmonicWellCuda well(n, 1.0);
            LangevinParams p;
            p.generator = kind;
            p.friction = 1.0;
            p.timeStep = 1.0 - kDecay;
            p.kT = kAmplitude * kAmplitude / (2.0 * p.timeStep);
            LangevinCuda integrator(well, p);
            DeviceBuffer<double> x(std::vector<double>(3 * n, 0.0));
            libraryStep = secondsPerStep([&] { integrator.runDevice(x.data(), o.stepsPerCall); },
                                         o.stepsPerCall, minSeconds);
          }
        }
#endif
        if (n <= cpuMax && row.first) {
          HarmonicWell well(n, 1.0);
          LangevinParams p;
          p.generator = kind;
          p.timeStep = 1.0 - kDecay;
          LangevinCpu integrator(well, p);
          std::vector<double> x(3 * n, 0.0);
          cpu =
              secondsPerStep([&] { integrator.run(x, 1); }, 1, minSeconds) / static_cast<double>(n);
        }
        // The target: at most 1.25x the byte floor at N = 1e6 and 1e7.
        std::string target = "-";
        if (n == 1000000 || n == 10000000) {
          const double ratio = fused / floorSeconds;
          target = !std::isfinite(ratio) ? std::string("<= 1.25x")
                   : ratio <= 1.25       ? "<= 1.25x: met"
                                   : "<= 1.25x: missed (gap " + cell(ratio / 1.25, "%.2f") + "x)";
        }
        std::printf("| %zu | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n, name.c_str(),
                    cell(stateMb, "%.3g").c_str(), cell(fused * 1e6, "%.2f").c_str(),
                    cell(fused * 1e9 / static_cast<double>(n), "%.3f").c_str(),
                    cell(floorSeconds * 1e6, "%.2f").c_str(),
                    cell(fused / floorSeconds, "%.2f").c_str(), target.c_str(),
                    cell(libraryStep * 1e6, "%.2f").c_str(), cell(cpu * 1e9, "%.1f").c_str());
      }
#ifdef LANDSCAPE_HAVE_CUDA
      if (gpu && curand && curand->ok()) {
        // cuRAND writes 3N (rounded up to even) Gaussians; the update kernel then reads them.
        const std::size_t count = 3 * n + (3 * n) % 2;
        DeviceBuffer<float> gaussians(count);
        const long steps = o.stepsPerCall;
        const double gen = secondsPerStep(
            [&] {
              for (long s = 0; s < steps; ++s) curand->normal(gaussians.data(), count);
              LANDSCAPE_CUDA_CHECK(cudaDeviceSynchronize());
            },
            steps, minSeconds);
        BrownianOscillatorsCuda oscillators(n, RngKind::Philox, 1, static_cast<float>(kDecay),
                                            static_cast<float>(kAmplitude));
        const double both = secondsPerStep(
            [&] {
              for (long s = 0; s < steps; ++s) {
                curand->normal(gaussians.data(), count);
                oscillators.stepWithGaussians(gaussians.data());
              }
              oscillators.synchronize();
            },
            steps, minSeconds);
        const double genFloor = 4.0 * static_cast<double>(count) / bandwidth;
        const double bothFloor = genFloor + oscillators.floorBytesPerGaussianStep() / bandwidth;
        std::printf(
            "| %zu | cuRAND Philox gen only | 0 | %.2f | %.3f | %.2f | %.2f | - | n/a | n/a |\n", n,
            gen * 1e6, gen * 1e9 / static_cast<double>(n), genFloor * 1e6, gen / genFloor);
        std::printf(
            "| %zu | cuRAND Philox + update | 0 | %.2f | %.3f | %.2f | %.2f | - | n/a | n/a |\n", n,
            both * 1e6, both * 1e9 / static_cast<double>(n), bothFloor * 1e6, both / bothFloor);
      }
#endif
    }
    if (!gpu)
      std::printf("\n(no CUDA device: %s; GPU columns are n/a)\n", gpuDescription().c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_langevin: %s\n", e.what());
    return 1;
  }
}
