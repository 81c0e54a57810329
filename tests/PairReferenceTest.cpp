// Pair potentials against independent codes (tests/data/pair: LAMMPS, ASE, pele and numpy, with
// their measured mutual agreement in its README): energies to 1e-10 relative and gradients to
// 1e-10 of max(1, max |g|), on the CPU and, where a device is present, on CUDA.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/minimisation/LbfgsCpuWorkspace.h"
#include "potentials/PairPotential.h"
#include "tests/PairReferenceCases.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

struct ReferenceParam {
  std::string name;
  Backend backend;
};

void PrintTo(const ReferenceParam& p, std::ostream* os) {
  *os << p.name << " on " << backendName(p.backend);
}

class PairReferenceTest : public testing::TestWithParam<ReferenceParam> {};

TEST_P(PairReferenceTest, EnergyAndGradientMatchTheIndependentCode) {
  const ReferenceParam& p = GetParam();
  if (p.backend == Backend::Cuda && !gpuAvailable())
    GTEST_SKIP() << "CUDA backend not testable here: " << gpuDescription();
  const auto path = testDataPath("pair/" + p.name + ".txt");
  ASSERT_TRUE(path) << "tests/data/pair/" << p.name << ".txt is missing";
  const PairReferenceCase c = readPairReferenceCase(*path);
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Pair;
  spec.pairModel = c.model;
  const auto potential = makePotential(spec, p.backend);
  std::vector<double> g(c.x.size());
  const double e = potential->energyGradient(c.x.data(), g.data());
  EXPECT_NEAR(e, c.energy, 1e-10 * std::abs(c.energy)) << c.code;
  EXPECT_NEAR(potential->energy(c.x.data()), c.energy, 1e-10 * std::abs(c.energy));
  double scale = 1.0, worst = 0.0;
  for (double v : c.gradient) scale = std::max(scale, std::abs(v));
  for (std::size_t k = 0; k < g.size(); ++k) worst = std::max(worst, std::abs(g[k] - c.gradient[k]));
  EXPECT_LE(worst, 1e-10 * scale) << c.code;
  std::cout << p.name << " (" << backendName(p.backend) << "): energy relative difference "
            << std::abs(e - c.energy) / std::abs(c.energy) << ", gradient " << worst / scale
            << "\n";
}

std::vector<ReferenceParam> referenceParams() {
  std::vector<ReferenceParam> params;
  for (const std::string& name : pairReferenceCaseNames())
    for (Backend b : {Backend::Cpu, Backend::Cuda}) params.push_back({name, b});
  return params;
}

INSTANTIATE_TEST_SUITE_P(PairReference, PairReferenceTest, testing::ValuesIn(referenceParams()),
                         [](const testing::TestParamInfo<ReferenceParam>& info) {
                           return info.param.name + "_" + backendName(info.param.backend);
                         });

}  // namespace
}  // namespace landscape

namespace landscape {
namespace {

// The inherent structure of the Kob-Andersen liquid at T = 0.43 (Berthier's configuration
// co_043_0_1.ld5, N = 1000, density 1.2, truncated and shifted at 2.5 sigma_ab): GMIN's L-BFGS
// lands in the minimum an independent minimiser found (tests/data/ka/README.md: numpy energy and
// scipy L-BFGS to max |g| < 2e-5, e_IS / N = -7.6892444; it is our own number, not literature).
// About 300 L-BFGS iterations of 1000 atoms: 3 s.
TEST(PairInherentStructure, KobAndersenLiquidQuenchesToTheIndependentMinimum) {
  const auto path = testDataPath("pair/ka_n1000_co043.txt");
  ASSERT_TRUE(path);
  const PairReferenceCase c = readPairReferenceCase(*path);
  PairPotential potential(*c.model);
  LbfgsParams params;
  params.rmsTolerance = 1e-7;
  params.maxIterations = 20000;
  LbfgsCpuWorkspace workspace(potential, params.historySize);
  workspace.setCoordinates(c.x.data());
  const LbfgsResult result = Lbfgs(params).minimize(workspace);
  ASSERT_TRUE(result.converged()) << lbfgsStatusName(result.status);
  const double perAtom = result.energy / 1000.0;
  std::cout.precision(10);
  std::cout << "Kob-Andersen N = 1000, T = 0.43: e / N = " << c.energy / 1000.0
            << ", e_IS / N = " << perAtom << " after " << result.iterations << " iterations\n";
  EXPECT_NEAR(perAtom, -7.6892444, 1e-6);
}

}  // namespace
}  // namespace landscape
