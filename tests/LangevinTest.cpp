// Overdamped Langevin dynamics (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011,
// eq 1) on both backends: parameter checks, the Ornstein-Uhlenbeck test of their section IV.A
// against the exact discretised process, CPU vs CUDA agreement, the basin-hopping move, and (suite
// Slow*) the long-run variance test that the short-period LCG fails (their Fig. 2). CUDA cases
// skip without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/LangevinFactory.h"
#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Random.h"
#include "landscape/dynamics/Langevin.h"
#include "landscape/dynamics/RandomStreams.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/search/LangevinMove.h"
#include "potentials/HarmonicWell.h"
#include "potentials/LennardJones.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BrownianOscillatorsCuda.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/HarmonicWellCuda.h"
#include "gpu/LangevinCuda.h"
#endif

namespace landscape {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

std::unique_ptr<Potential> makeHarmonicWell(Backend backend, std::size_t atoms, double k) {
  if (backend == Backend::Cpu) return std::make_unique<HarmonicWell>(atoms, k);
#ifdef LANDSCAPE_HAVE_CUDA
  return std::make_unique<HarmonicWellCuda>(atoms, k);
#else
  throw std::runtime_error("no CUDA support in this build");
#endif
}

std::string generatorTestName(RngKind kind) {
  std::string name = rngKindName(kind);
  name.erase(std::remove(name.begin(), name.end(), '-'), name.end());
  return name;
}

// ---- parameters ----------------------------------------------------------------------------

TEST(LangevinParamsTest, DefaultsPassAndEachBadFieldIsNamed) {
  EXPECT_NO_THROW(LangevinParams{}.check());
  const std::pair<const char*, void (*)(LangevinParams&)> cases[] = {
      {"timeStep", [](LangevinParams& p) { p.timeStep = 0.0; }},
      {"timeStep", [](LangevinParams& p) { p.timeStep = NAN; }},
      {"friction", [](LangevinParams& p) { p.friction = -1.0; }},
      {"kT", [](LangevinParams& p) { p.kT = -0.1; }},
      {"kT", [](LangevinParams& p) { p.kT = INFINITY; }},
      {"steps", [](LangevinParams& p) { p.steps = -3; }},
  };
  for (const auto& [field, spoil] : cases) {
    LangevinParams p;
    spoil(p);
    try {
      p.check();
      ADD_FAILURE() << field << " was not rejected";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  }
}

TEST(LangevinParamsTest, NoiseAmplitudeIsSqrtTwoKtDtOverXi) {
  LangevinParams p;
  p.kT = 0.6;
  p.timeStep = 0.002;
  p.friction = 3.0;
  EXPECT_DOUBLE_EQ(p.noiseAmplitude(), std::sqrt(2.0 * 0.6 * 0.002 / 3.0));
  EXPECT_DOUBLE_EQ(p.mobilityStep(), 0.002 / 3.0);
}

TEST(LangevinCpuTest, RejectsADimensionThatIsNotThreeTimesTheParticles) {
  struct TwoD : Potential {
    std::size_t dimension() const override { return 2; }
    std::string name() const override { return "2d"; }
    double energy(const double*) override { return 0; }
    double energyGradient(const double*, double* g) override { return g[0] = g[1] = 0.0; }
  } potential;
  EXPECT_THROW(LangevinCpu(potential, LangevinParams{}), std::invalid_argument);
}

// ---- the integrator on the CPU ---------------------------------------------------------------

TEST(LangevinCpuTest, ZeroTemperatureIsSteepestDescent) {
  HarmonicWell well(4, 2.5);
  LangevinParams p;
  p.kT = 0.0;
  p.timeStep = 0.01;
  p.friction = 0.5;
  LangevinCpu integrator(well, p);
  std::vector<double> x = {1, -2, 3, 0.5, 0.25, -0.125, 4, 5, 6, -1, -1, -1}, expected = x;
  integrator.run(x, 3);
  for (double& v : expected) v *= std::pow(1.0 - 2.5 * 0.01 / 0.5, 3);  // x' = (1 - k dt / xi) x
  for (std::size_t k = 0; k < x.size(); ++k) EXPECT_NEAR(x[k], expected[k], 1e-15 * 6);
}

TEST(LangevinCpuTest, OneStepFromTheOriginDrawsTheGaussiansOfTheStreams) {
  // x = 0 and U = k x^2 / 2 give g = 0, so one step is exactly amplitude x Gaussians.
  const std::size_t atoms = 50;
  HarmonicWell well(atoms, 1.0);
  LangevinParams p;
  p.kT = 0.5;  // amplitude sqrt(2 kT dt / xi) = 1 for dt = xi = 1
  p.timeStep = 1.0;
  p.friction = 1.0;
  p.generator = RngKind::HybridTaus;
  p.seed = 8;
  LangevinCpu integrator(well, p);
  std::vector<double> x(3 * atoms, 0.0);
  integrator.run(x, 1);
  RandomStreams streams(RngKind::HybridTaus, 8, atoms);
  std::vector<std::uint32_t> words(4 * atoms);
  streams.nextStep(words.data());
  for (std::size_t i = 0; i < atoms; ++i) {
    const std::uint32_t w[4] = {words[i], words[atoms + i], words[2 * atoms + i],
                                words[3 * atoms + i]};
    double g[3];
    rng::particleGaussians(w, g);
    for (int c = 0; c < 3; ++c) EXPECT_EQ(x[3 * i + c], g[c]);
  }
}

TEST(LangevinCpuTest, ConsecutiveRunsContinueOneTrajectoryAndReseedRestarts) {
  LennardJones lj(13);
  Random random(4);
  const std::vector<double> start = randomCluster(13, 1.4, 0.9, random);
  LangevinParams p;
  p.kT = 0.3;
  p.timeStep = 2e-4;
  LangevinCpu a(lj, p), b(lj, p);
  std::vector<double> xa = start, xb = start;
  a.run(xa, 40);
  b.run(xb, 15);
  b.run(xb, 25);
  EXPECT_EQ(xa, xb);
  EXPECT_EQ(b.stepsDone(), 40);
  b.reseed(p.seed);
  std::vector<double> xc = start;
  b.run(xc, 40);
  EXPECT_EQ(xc, xa);
}

// ---- Ornstein-Uhlenbeck test (Zhmurov et al. 2011, section IV.A) --------------------------------

/// Zhmurov et al.'s oscillators in its units (pN, nm, ps): kT = 4.1164 pN nm (298.15 K), D = kT /
/// xi = 0.25 nm^2/ns, dt = 1 ps, with the spring stiffened from 0.01 to 329.3 pN/nm so that the
/// relaxation time xi / k is 50 steps instead of 1.6 x 10^6 (a test that runs in seconds).
struct OrnsteinUhlenbeck {
  double kT = 4.1164;                      // pN nm
  double friction = 4.1164 / 2.5e-4;       // xi = kT / D, pN ps / nm
  double timeStep = 1.0;                   // ps
  double spring = 4.1164 / 2.5e-4 / 50.0;  // k_sp, pN / nm: xi / k = 50 ps
  double start = 1.0;                      // R(0) in every coordinate, nm (about 9 sigma)

  /// The exact discretised process R_{n+1} = rho R_n + a g_n (an AR(1) recursion).
  double rho() const { return 1.0 - spring * timeStep / friction; }
  double a2() const { return 2.0 * kT * timeStep / friction; }
  double mean(long n) const { return std::pow(rho(), n) * start; }
  double variance(long n) const {
    return a2() * (1.0 - std::pow(rho(), 2 * n)) / (1.0 - rho() * rho());
  }
  /// <R_n R_{n+m}> = rho^m <R_n^2>.
  double correlation(long n, long m) const {
    return std::pow(rho(), m) * (variance(n) + mean(n) * mean(n));
  }
  LangevinParams params(RngKind kind, std::uint64_t seed) const {
    LangevinParams p;
    p.kT = kT;
    p.friction = friction;
    p.timeStep = timeStep;
    p.generator = kind;
    p.seed = seed;
    return p;
  }
};

/// Every check is reported and must lie within this many standard errors.
constexpr double kStandardErrors = 4.5;

struct OuParam {
  RngKind kind;
  Backend backend;
};

void PrintTo(const OuParam& param, std::ostream* os) {
  *os << param.kind << " on " << backendName(param.backend);
}

class LangevinOrnsteinUhlenbeckTest : public testing::TestWithParam<OuParam> {};

TEST_P(LangevinOrnsteinUhlenbeckTest, MeanVarianceAndCorrelationMatchTheExactAr1Process) {
  const OuParam param = GetParam();
  if (param.backend == Backend::Cuda) SKIP_WITHOUT_GPU();
  const OrnsteinUhlenbeck ou;
  const std::size_t atoms = 10000, m = 3 * atoms;  // 3 x 10^4 independent coordinates
  std::unique_ptr<Potential> well = makeHarmonicWell(param.backend, atoms, ou.spring);
  std::unique_ptr<LangevinIntegrator> integrator =
      makeLangevinIntegrator(*well, ou.params(param.kind, 20110131), param.backend);
  std::vector<double> x(m, ou.start);

  const long meanTimes[] = {1, 2, 5, 10, 25, 50, 100, 200};
  const long n0 = 200, lags[] = {10, 25, 50, 100};
  double worst = 0.0;
  const auto check = [&](const std::string& what, double estimate, double exact, double se) {
    const double z = (estimate - exact) / se;
    worst = std::max(worst, std::abs(z));
    EXPECT_LT(std::abs(z), kStandardErrors)
        << what << ": " << estimate << " vs exact " << exact << " (" << z << " standard errors)";
  };
  const auto checkMoments = [&](long n) {
    double sum = 0.0, sq = 0.0;
    for (double v : x) {
      sum += v;
      sq += (v - ou.mean(n)) * (v - ou.mean(n));
    }
    check("<R(" + std::to_string(n) + ")>", sum / m, ou.mean(n), std::sqrt(ou.variance(n) / m));
    check("var R(" + std::to_string(n) + ")", sq / m, ou.variance(n),
          ou.variance(n) * std::sqrt(2.0 / m));
  };

  long done = 0;
  for (long n : meanTimes) {
    integrator->run(x, n - done);
    done = n;
    checkMoments(n);
  }
  const std::vector<double> atN0 = x;
  const auto checkCorrelation = [&](long lag) {
    double sum = 0.0, sum2 = 0.0;
    for (std::size_t k = 0; k < m; ++k) {
      const double product = atN0[k] * x[k];
      sum += product;
      sum2 += product * product;
    }
    const double meanProduct = sum / m, sd = std::sqrt(sum2 / m - meanProduct * meanProduct);
    check("C(" + std::to_string(n0) + ", " + std::to_string(lag) + ")", meanProduct,
          ou.correlation(n0, lag), sd / std::sqrt(static_cast<double>(m)));
  };
  checkCorrelation(0);
  for (long lag : lags) {
    integrator->run(x, n0 + lag - done);
    done = n0 + lag;
    checkCorrelation(lag);
    checkMoments(done);
  }
  std::cout << "[ OU       ] " << rngKindName(param.kind) << " on " << backendName(param.backend)
            << ": largest deviation " << worst << " standard errors\n";
}

std::vector<OuParam> ouParams() {
  std::vector<OuParam> params;
  for (Backend backend : {Backend::Cpu, Backend::Cuda})
    for (RngKind kind :
         {RngKind::Philox, RngKind::HybridTaus, RngKind::LaggedFibonacci, RngKind::Ran2})
      params.push_back({kind, backend});
  return params;
}

INSTANTIATE_TEST_SUITE_P(SeedZeroSectionIVA, LangevinOrnsteinUhlenbeckTest,
                         testing::ValuesIn(ouParams()),
                         [](const testing::TestParamInfo<OuParam>& info) {
                           return generatorTestName(info.param.kind) + "_" +
                                  backendName(info.param.backend);
                         });

// ---- CUDA twin against the CPU ----------------------------------------------------------------

class LangevinCudaTest : public testing::TestWithParam<RngKind> {};

TEST_P(LangevinCudaTest, GaussiansEqualTheCpuToOneInTenToTheTwelve) {
  SKIP_WITHOUT_GPU();
  // One step from the origin with amplitude 1 writes the Gaussians themselves (see the CPU test).
  const std::size_t atoms = 20000;
  LangevinParams p;
  p.kT = 0.5;
  p.timeStep = 1.0;
  p.friction = 1.0;
  p.generator = GetParam();
  p.seed = 31;
  HarmonicWell cpuWell(atoms, 1.0);
  std::unique_ptr<Potential> gpuWell = makeHarmonicWell(Backend::Cuda, atoms, 1.0);
  auto cpu = makeLangevinIntegrator(cpuWell, p, Backend::Cpu);
  auto gpu = makeLangevinIntegrator(*gpuWell, p, Backend::Cuda);
  for (int step = 0; step < 3; ++step) {
    std::vector<double> a(3 * atoms, 0.0), b(3 * atoms, 0.0);
    cpu->run(a, 1);
    gpu->run(b, 1);
    for (std::size_t k = 0; k < a.size(); ++k)
      ASSERT_NEAR(b[k], a[k], 1e-12 * std::abs(a[k]) + 1e-300)
          << rngKindName(GetParam()) << ", step " << step << ", coordinate " << k;
  }
}

TEST_P(LangevinCudaTest, TrajectoriesAgreeWithTheCpu) {
  SKIP_WITHOUT_GPU();
  // Lennard-Jones 38 (device-resident potential) at kT = 0.4 for 200 steps: the same random
  // numbers, forces equal to 1e-12, the update contracted to FMAs on the device only.
  PotentialSpec spec;
  spec.atoms = 38;
  auto cpuLj = makePotential(spec, Backend::Cpu);
  auto gpuLj = makePotential(spec, Backend::Cuda);
  Random random(38);
  const std::vector<double> start =
      randomCluster(38, 2.6, 0.95, random);  // 38 atoms 0.95 apart need room
  LangevinParams p;
  p.kT = 0.4;
  p.timeStep = 1e-4;
  p.generator = GetParam();
  auto cpu = makeLangevinIntegrator(*cpuLj, p);
  auto gpu = makeLangevinIntegrator(*gpuLj, p);
  std::vector<double> a = start, b = start;
  cpu->run(a, 200);
  gpu->run(b, 200);
  EXPECT_EQ(gpu->stepsDone(), 200);
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_NEAR(b[k], a[k], 1e-10) << "coordinate " << k;
#ifdef LANDSCAPE_HAVE_CUDA
  // The device entry point continues the same trajectory.
  LangevinCuda device(*gpuLj, p);
  DeviceBuffer<double> d_x(start);
  device.runDevice(d_x.data(), 120);
  device.runDevice(d_x.data(), 80);
  EXPECT_EQ(d_x.toHost(), b);
#endif
}

TEST_P(LangevinCudaTest, HostOnlyPotentialOnTheCudaIntegrator) {
  SKIP_WITHOUT_GPU();
  HarmonicWell well(500, 3.0);
  LangevinParams p;
  p.generator = GetParam();
  p.kT = 0.7;
  auto cpu = makeLangevinIntegrator(well, p, Backend::Cpu);
  auto gpu = makeLangevinIntegrator(well, p, Backend::Cuda);
  std::vector<double> a(1500, 0.3), b(1500, 0.3);
  cpu->run(a, 50);
  gpu->run(b, 50);
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_NEAR(b[k], a[k], 1e-12);
}

TEST_P(LangevinCudaTest, FusedFloatOscillatorsMatchASinglePrecisionReference) {
  SKIP_WITHOUT_GPU();
  // The benchmark kernel (single precision, float4, uniforms from the high 24 bits) against the
  // same recursion x' = decay x + amplitude g evaluated here from the same words: the uniforms are
  // identical, the Box-Muller functions and the update differ by a few ulp (device logf and
  // sincospif, FMA), so 20 steps agree to 1e-5 with positions of order 1. (The double-precision
  // integrator is no reference here: 24-bit uniforms change g by ~2^-24 / u near u = 0.)
  const std::size_t n = 5000;
  const float decay = 0.98f, amplitude = 0.1f;
  RandomStreams streams(GetParam(), 3, n);
  std::vector<std::uint32_t> words(4 * n);
  std::vector<float> x(3 * n, 0.5f);
  const double kTwoPi = 6.283185307179586;
  for (int step = 0; step < 20; ++step) {
    streams.nextStep(words.data());
    for (std::size_t i = 0; i < n; ++i) {
      const double u[4] = {rng::uniformFloat(words[i]), rng::uniformFloat(words[n + i]),
                           rng::uniformFloat(words[2 * n + i]),
                           rng::uniformFloat(words[3 * n + i])};
      const double r0 = std::sqrt(-2.0 * std::log(u[0])), r1 = std::sqrt(-2.0 * std::log(u[2]));
      const double g[3] = {r0 * std::cos(kTwoPi * u[1]), r0 * std::sin(kTwoPi * u[1]),
                           r1 * std::cos(kTwoPi * u[3])};
      for (int c = 0; c < 3; ++c)
        x[3 * i + c] = decay * x[3 * i + c] + amplitude * static_cast<float>(g[c]);
    }
  }
#ifdef LANDSCAPE_HAVE_CUDA
  BrownianOscillatorsCuda oscillators(n, GetParam(), 3, decay, amplitude);
  oscillators.setPositions(std::vector<float>(3 * n, 0.5f));
  oscillators.run(20);
  const std::vector<float> y = oscillators.positions();
  for (std::size_t k = 0; k < x.size(); ++k) EXPECT_NEAR(y[k], x[k], 1e-5) << "coordinate " << k;
#endif
}

TEST(BrownianOscillatorsCudaTest, EveryLaggedFibonacciAccessGivesTheSamePositions) {
  SKIP_WITHOUT_GPU();
#ifdef LANDSCAPE_HAVE_CUDA
  // The access variants of the fused kernel differ in memory traffic only: same words, same
  // float arithmetic, so the positions agree bit for bit (the default one is checked against a
  // reference above).
  const std::size_t n = 5000;
  std::vector<float> reference;
  for (LaggedFibonacciAccess access : allLaggedFibonacciAccesses()) {
    BrownianOscillatorsCuda oscillators(n, RngKind::LaggedFibonacci, 3, 0.98f, 0.1f);
    oscillators.setLaggedFibonacciAccess(access);
    EXPECT_EQ(oscillators.laggedFibonacciAccess(), access);
    oscillators.setPositions(std::vector<float>(3 * n, 0.5f));
    oscillators.run(20);
    const std::vector<float> y = oscillators.positions();
    if (reference.empty())
      reference = y;
    else
      EXPECT_EQ(y, reference) << laggedFibonacciAccessName(access);
  }
#endif
}

INSTANTIATE_TEST_SUITE_P(AllGenerators, LangevinCudaTest, testing::ValuesIn(allRngKinds()),
                         [](const testing::TestParamInfo<RngKind>& info) {
                           return generatorTestName(info.param);
                         });

TEST(HarmonicWellCudaTest, AgreesWithTheCpuReference) {
  SKIP_WITHOUT_GPU();
  const std::size_t atoms = 3001;  // several blocks and a partial one
  HarmonicWell cpu(atoms, 0.75);
  std::unique_ptr<Potential> gpu = makeHarmonicWell(Backend::Cuda, atoms, 0.75);
  EXPECT_TRUE(gpu->isDeviceResident());
  std::vector<double> x(3 * atoms);
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = std::sin(0.37 * k) * 2.0;
  std::vector<double> gCpu(x.size()), gGpu(x.size(), NAN);
  const double eCpu = cpu.energyGradient(x.data(), gCpu.data());
  const double eGpu = gpu->energyGradient(x.data(), gGpu.data());
  EXPECT_NEAR(eGpu, eCpu, 1e-12 * eCpu);
  EXPECT_EQ(gGpu, gCpu);
  EXPECT_EQ(gpu->energy(x.data()), eGpu);
}

TEST(HarmonicWellTest, EnergyAndGradient) {
  HarmonicWell well(2, 4.0);
  const std::vector<double> x = {1, 2, 3, -1, 0, 0.5};
  std::vector<double> g(6);
  EXPECT_DOUBLE_EQ(well.energyGradient(x.data(), g.data()), 2.0 * (1 + 4 + 9 + 1 + 0 + 0.25));
  EXPECT_EQ(g, (std::vector<double>{4, 8, 12, -4, 0, 2}));
  EXPECT_THROW(HarmonicWell(0, 1.0), std::invalid_argument);
  EXPECT_THROW(HarmonicWell(3, -1.0), std::invalid_argument);
}

// ---- the basin-hopping move ---------------------------------------------------------------------

LangevinParams ljMoveParams() {
  LangevinParams p;
  p.kT = 0.5;  // T_md in epsilon
  p.steps = 100;
  p.timeStep = 5e-4;
  p.friction = 1.0;
  p.seed = 77;
  return p;
}

std::vector<double> lj13Minimum() {
  LennardJones lj(13);
  Random random(13);
  std::vector<double> x = randomCluster(13, 1.5, 0.9, random);
  LbfgsParams lp;
  lp.rmsTolerance = 1e-8;
  lp.maxIterations = 5000;
  Lbfgs(lp).minimize(lj, x);
  return x;
}

TEST(LangevinMoveTest, IsAPureFunctionOfSeedAndStream) {
  LennardJones lj(13);
  const std::vector<double> minimum = lj13Minimum();
  LangevinMove move(ljMoveParams());
  std::vector<double> a = minimum, b = minimum, c = minimum;
  move.perturb(lj, a, 5);
  move.perturb(lj, c, 6);
  LangevinMove other(ljMoveParams());
  other.perturb(lj, b, 5);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::vector<double> again = minimum;
  move.perturb(lj, again, 5);  // the same stream again, after another one
  EXPECT_EQ(again, a);
  EXPECT_NE(move.streamSeed(5), move.streamSeed(6));
}

TEST(LangevinMoveTest, DisplacesTheClusterByTheDiffusionLength) {
  // Mean squared displacement per coordinate ~ 2 D t = 2 (kT / xi) n dt = 0.05 for free particles;
  // in the cluster the forces hold it below that, but well above zero.
  LennardJones lj(13);
  const std::vector<double> minimum = lj13Minimum();
  LangevinMove move(ljMoveParams());
  std::vector<double> x = minimum;
  move.perturb(lj, x, 1);
  double msd = 0.0;
  for (std::size_t k = 0; k < x.size(); ++k) msd += (x[k] - minimum[k]) * (x[k] - minimum[k]);
  msd /= static_cast<double>(x.size());
  EXPECT_GT(msd, 0.002);
  EXPECT_LT(msd, 0.2);
  std::vector<double> g(x.size());
  EXPECT_GT(lj.energyGradient(x.data(), g.data()), lj.energyGradient(minimum.data(), g.data()));
}

TEST(LangevinMoveTest, RejectsBadInputsWithSentences) {
  LangevinParams p = ljMoveParams();
  p.friction = 0.0;
  EXPECT_THROW(LangevinMove{p}, std::invalid_argument);
  LennardJones lj(13);
  LangevinMove move(ljMoveParams());
  std::vector<double> wrong(12, 0.0);
  EXPECT_THROW(move.perturb(lj, wrong, 0), std::invalid_argument);
  // A force that is not finite (as when the time step is far too large for the potential) must
  // not pass silently into the quench.
  struct Broken : Potential {
    std::size_t dimension() const override { return 3; }
    std::string name() const override { return "broken"; }
    double energy(const double*) override { return 0.0; }
    double energyGradient(const double*, double* g) override {
      g[0] = g[1] = g[2] = NAN;
      return 0.0;
    }
  } broken;
  std::vector<double> x(3, 0.0);
  EXPECT_THROW(move.perturb(broken, x, 0), std::runtime_error);
}

TEST(LangevinMoveTest, CudaBackendMatchesCpu) {
  SKIP_WITHOUT_GPU();
  PotentialSpec spec;
  spec.atoms = 13;
  auto cpu = makePotential(spec, Backend::Cpu);
  auto gpu = makePotential(spec, Backend::Cuda);
  const std::vector<double> minimum = lj13Minimum();
  const auto onItsBackend = [](Potential& potential, const LangevinParams& params) {
    return makeLangevinIntegrator(potential, params);
  };
  LangevinMove cpuMove(ljMoveParams(), onItsBackend), gpuMove(ljMoveParams(), onItsBackend);
  for (std::uint64_t stream = 0; stream < 3; ++stream) {
    std::vector<double> a = minimum, b = minimum;
    cpuMove.perturb(*cpu, a, stream);
    gpuMove.perturb(*gpu, b, stream);
    for (std::size_t k = 0; k < a.size(); ++k) EXPECT_NEAR(b[k], a[k], 1e-10);
  }
}

// ---- long-run variance test (Zhmurov et al. 2011, Fig. 2)
// ------------------------------------------------------

/// Variance of the mean of `block` consecutive particles (one coordinate direction at a time),
/// times block, over the exact single-coordinate variance: 1 for independent oscillators; inflated
/// by 1 + 2 sum_d (1 - d / block) corr_d when particle i and i + d are correlated.
double blockVarianceRatio(const std::vector<double>& x, std::size_t block, double variance) {
  const std::size_t particles = x.size() / 3;
  double sum = 0.0;
  long blocks = 0;
  for (int c = 0; c < 3; ++c) {
    for (std::size_t first = 0; first + block <= particles; first += block) {
      double mean = 0.0;
      for (std::size_t i = first; i < first + block; ++i) mean += x[3 * i + c];
      mean /= static_cast<double>(block);
      sum += mean * mean * static_cast<double>(block);
      ++blocks;
    }
  }
  return sum / static_cast<double>(blocks) / variance;
}

TEST(SlowLangevinVarianceTest, LcgFailsOnceTheEnsembleExhaustsItsPeriodAndPhiloxPasses) {
  // The LCG streams divide one cycle of 2^32 words: with N particles drawing 4 words a step,
  // particle i + 1 replays particle i's noise L0 = 2^30 / N steps later. Once a run is longer than
  // L0 and the relaxation time tau = xi / k is comparable to L0 (N tau ~ 2^30, as in the 10^4
  // oscillators of Zhmurov et al. 2011 with tau = 1.6 x 10^6 steps), neighbours are correlated,
  // corr = rho^L0, and the ensemble mean <R(t)> fluctuates far more than kT / (k N) (their
  // Fig. 2b). Here tau = L0 and the run is 3 L0 steps; Philox, with no period in reach, must give
  // ratio 1.
  //
  // The LCG's period sets the cost: about 3 x 2^30 particle-steps per generator, a second on a
  // GPU but some 10 minutes per generator on one CPU core, so without a device the test runs only
  // when LANDSCAPE_SLOW_CPU is set.
  const bool cpuRequested = std::getenv("LANDSCAPE_SLOW_CPU") != nullptr;
  if (!gpuAvailable() && !cpuRequested)
    GTEST_SKIP() << "no CUDA device (" << gpuDescription()
                 << "); set LANDSCAPE_SLOW_CPU=1 to run it on the CPU (about 20 minutes)";
  const Backend backend = gpuAvailable() ? Backend::Cuda : Backend::Cpu;
  const std::size_t particles = backend == Backend::Cuda ? (1u << 16) : (1u << 14);
  const long l0 = static_cast<long>((std::uint64_t(1) << 30) / particles);
  const long steps = 3 * l0;
  const std::size_t block = 16;
  LangevinParams p;
  p.kT = 1.0;
  p.friction = 1.0;
  p.timeStep = 1.0;
  const double spring = 1.0 / static_cast<double>(l0);  // tau = xi / k = L0 steps
  const double rho = 1.0 - spring, a2 = 2.0;
  const double variance = a2 * (1.0 - std::pow(rho, 2 * steps)) / (1.0 - rho * rho);

  // Prediction for the LCG: corr_d = rho^(d L0) (1 - rho^(2 (t - d L0))) / (1 - rho^(2 t)).
  double predicted = 1.0;
  for (std::size_t d = 1; d < block && static_cast<long>(d) * l0 < steps; ++d) {
    const double corr = std::pow(rho, d * l0) * (1.0 - std::pow(rho, 2 * (steps - d * l0))) /
                        (1.0 - std::pow(rho, 2 * steps));
    predicted += 2.0 * (1.0 - static_cast<double>(d) / block) * corr;
  }
  const double blocks = 3.0 * static_cast<double>(particles / block);
  const double se = std::sqrt(2.0 / blocks);  // of the ratio for independent oscillators

  double ratios[2];
  const RngKind kinds[2] = {RngKind::Lcg, RngKind::Philox};
  for (int k = 0; k < 2; ++k) {
    p.generator = kinds[k];
    p.seed = 1;
    std::unique_ptr<Potential> well = makeHarmonicWell(backend, particles, spring);
    auto integrator = makeLangevinIntegrator(*well, p, backend);
    std::vector<double> x(3 * particles, 0.0);
    integrator->run(x, steps);
    ratios[k] = blockVarianceRatio(x, block, variance);
    std::cout << "[ variance ] " << rngKindName(kinds[k]) << " on " << backendName(backend) << ", "
              << particles << " particles, " << steps << " steps: N var<R> / (kT/k) = " << ratios[k]
              << " (independent: 1 +- " << se << ", LCG predicted " << predicted << ")\n";
  }
  EXPECT_GT(ratios[0], 1.0 + 10.0 * se) << "the LCG should fail: its streams overlap";
  EXPECT_NEAR(ratios[0], predicted, 0.15 * predicted) << "the LCG's failure is the predicted one";
  EXPECT_NEAR(ratios[1], 1.0, kStandardErrors * se) << "Philox should pass";
}

}  // namespace
}  // namespace landscape
