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
