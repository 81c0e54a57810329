// The CUDA AMBER-GB potential over a Verlet list (gpu/AmberGbListCuda, sander's finite cut)
// against its CPU reference potentials/AmberGb with the same cut: every component, the gradient,
// the Born radii, run-to-run bit identity, the host and device entry points, the rebuild when an
// atom moves more than half the skin, in double and mixed precision. Without a CUDA device every
// test that needs one skips.
//
// Tolerances (those of tests/AmberGbCudaTest.cpp, whose tile kernels compute the same terms): a
// component within 1e-10 (double) / 1e-5 (mixed) of the sum of the absolute values of its terms
// (EELEC and EGB cancel heavily); the gradient difference norm within 1e-9 / 1e-4 of the CPU
// gradient norm; Born radii within 1e-12 / 1e-5 relative.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Precision.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "tests/TestData.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/AmberGbCuda.h"
#include "gpu/AmberGbListCuda.h"
#include "gpu/DeviceBuffer.h"
#endif

namespace landscape {
namespace {

struct ListCase {
  const char* name;
  const char* prmtop;
  const char* inpcrd;
  int igb;
  double rgbmax;  ///< A
  double cut;     ///< sander's cut, A
  /// Random displacement of every coordinate, A (0: the file's structure).
  double jiggle;
};

std::string caseName(const testing::TestParamInfo<std::tuple<ListCase, Precision>>& info) {
  return std::string(std::get<0>(info.param).name) + "_" + precisionName(std::get<1>(info.param));
}

double norm(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

struct Loaded {
  AmberTopology topology;
  std::vector<double> x;
  AmberGbParams params;
};

bool loadCase(const ListCase& c, Loaded* out, std::string* why) {
  const auto prmtop = testDataPath(c.prmtop), inpcrd = testDataPath(c.inpcrd);
  if (!prmtop || !inpcrd) {
    *why = std::string("GB test system not found under ") + testDataRoot() + " (" + c.prmtop +
           "); set LANDSCAPE_TEST_DATA";
    return false;
  }
  out->topology = readAmberTopology(*prmtop);
  out->x = readAmberCoordinates(*inpcrd, out->topology).positions;
  out->params.igb = c.igb;
  out->params.saltcon = 0.2;
  out->params.rgbmax = c.rgbmax;
  out->params.cut = c.cut;
  if (c.jiggle > 0.0) {
    std::mt19937_64 rng(20261129);
    std::uniform_real_distribution<double> u(-c.jiggle, c.jiggle);
    for (double& v : out->x) v += u(rng);
  }
  return true;
}

// Argument checks come before any device work, so they run without a device too.
TEST(AmberGbListCuda, RefusesAnInfiniteCutABadSkinOrLaneCount) {
#ifdef LANDSCAPE_HAVE_CUDA
  const auto prmtop = testDataPath("gb/trpcage/prmtop");
  if (!prmtop) GTEST_SKIP() << "gb/trpcage/prmtop not found under " << testDataRoot();
  const AmberTopology topology = readAmberTopology(*prmtop);
  AmberGbParams params;
  EXPECT_THROW(AmberGbListCuda(topology, params), std::invalid_argument);  // cut = infinity
  params.cut = 12.0;
  EXPECT_THROW(AmberGbListCuda(topology, params, Precision::Double, 0.0), std::invalid_argument);
  EXPECT_THROW(AmberGbListCuda(topology, params, Precision::Double, 2.0, 3), std::invalid_argument);
  EXPECT_THROW(AmberGbListCuda(topology, params, Precision::Single), std::invalid_argument);
#else
  GTEST_SKIP() << "this build has no CUDA support";
#endif
}

class AmberGbListCudaVsCpu : public testing::TestWithParam<std::tuple<ListCase, Precision>> {};

#ifdef LANDSCAPE_HAVE_CUDA

/// Components, gradient and Born radii of `gpu` at x against the CPU reference.
void expectMatchesCpu(AmberGbListCuda& gpu, AmberGb& cpu, const std::vector<double>& x,
                      Precision precision, const std::string& what) {
  const double componentTolerance = precision == Precision::Double ? 1e-10 : 1e-5;
  const double gradientTolerance = precision == Precision::Double ? 1e-9 : 1e-4;
  const std::size_t n = cpu.dimension();
  std::vector<double> gCpu(n);
  const double eCpu = cpu.energyGradient(x.data(), gCpu.data());
  const AmberEnergyBreakdown partsCpu = cpu.breakdown(x.data());
  const AmberEnergyBreakdown scale = cpu.absoluteSums(x.data());
  std::vector<double> gGpu(n, 12345.0);  // overwritten, never accumulated
  const double eGpu = gpu.energyGradient(x.data(), gGpu.data());
  const AmberEnergyBreakdown partsGpu = gpu.lastBreakdown();
  EXPECT_EQ(eGpu, partsGpu.total()) << what;
  const struct {
    const char* name;
    double cpu, gpu, scale;
  } components[] = {{"BOND", partsCpu.bond, partsGpu.bond, scale.bond},
                    {"ANGLE", partsCpu.angle, partsGpu.angle, scale.angle},
                    {"DIHED", partsCpu.dihedral, partsGpu.dihedral, scale.dihedral},
                    {"VDWAALS", partsCpu.vdw, partsGpu.vdw, scale.vdw},
                    {"EELEC", partsCpu.eel, partsGpu.eel, scale.eel},
                    {"1-4_VDW", partsCpu.vdw14, partsGpu.vdw14, scale.vdw14},
                    {"1-4_EEL", partsCpu.eel14, partsGpu.eel14, scale.eel14},
                    {"EGB", partsCpu.egb, partsGpu.egb, scale.egb}};
  double scaleSum = 0.0;
  for (const auto& k : components) {
    EXPECT_LE(std::abs(k.gpu - k.cpu), componentTolerance * k.scale)
        << what << " " << k.name << ": cpu " << k.cpu << " gpu " << k.gpu << " sum|terms| "
        << k.scale;
    scaleSum += k.scale;
  }
  EXPECT_LE(std::abs(eGpu - eCpu), componentTolerance * scaleSum) << what;
  std::vector<double> difference(n);
  for (std::size_t k = 0; k < n; ++k) difference[k] = gGpu[k] - gCpu[k];
  EXPECT_LE(norm(difference), gradientTolerance * norm(gCpu))
      << what << ": |g_gpu - g_cpu| = " << norm(difference) << ", |g_cpu| = " << norm(gCpu);
  std::printf("[ deviation] %-40s |dE| %.2e (sum|terms| %.3g)  |dg|/|g| %.2e\n", what.c_str(),
              std::abs(eGpu - eCpu), scaleSum, norm(difference) / norm(gCpu));

  const std::vector<double> bornCpu = cpu.bornRadii(x.data());
  const std::vector<double> bornGpu = gpu.bornRadii(x.data());
  double worst = 0.0;
  for (std::size_t a = 0; a < bornCpu.size(); ++a)
    worst = std::max(worst, std::abs(bornGpu[a] - bornCpu[a]) / bornCpu[a]);
  EXPECT_LE(worst, precision == Precision::Double ? 1e-12 : 1e-5) << what;
}

void checkAgainstCpu(const ListCase& c, Precision precision) {
  Loaded sys;
  std::string why;
  if (!loadCase(c, &sys, &why)) GTEST_SKIP() << why;
  AmberGb cpu(sys.topology, sys.params);
  const std::size_t n = cpu.dimension();
  const double skin = 1.0;
  AmberGbListCuda gpu(sys.topology, sys.params, precision, skin);
  ASSERT_EQ(gpu.dimension(), n);
  EXPECT_NEAR(gpu.listRadius(),
              std::max(sys.params.rgbmax + cpu.tables().gbScreenedMax, sys.params.cut) + skin,
              1e-12);
  expectMatchesCpu(gpu, cpu, sys.x, precision, std::string(c.name) + " at the build");
  EXPECT_EQ(gpu.rebuilds(), 1);

  // Deterministic: a second call gives the same bits; the device entry point too.
  std::vector<double> g(n), gAgain(n, -1.0);
  const double e = gpu.energyGradient(sys.x.data(), g.data());
  const double eAgain = gpu.energyGradient(sys.x.data(), gAgain.data());
  EXPECT_EQ(std::memcmp(&eAgain, &e, sizeof e), 0);
  EXPECT_EQ(std::memcmp(gAgain.data(), g.data(), n * sizeof(double)), 0);
  DeviceBuffer<double> dX(sys.x), dG(n);
  EXPECT_EQ(gpu.energyGradientDevice(dX.data(), dG.data()), e);
  EXPECT_EQ(std::memcmp(dG.toHost().data(), g.data(), n * sizeof(double)), 0);
  EXPECT_EQ(gpu.rebuilds(), 1);

  // Every atom moved by less than half the skin (0.25 A along each axis at most: at most
  // 0.43 A): no build, and the list still holds every pair within reach.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> small(-0.25, 0.25);
  std::vector<double> near = sys.x;
  for (double& v : near) v += small(rng);
  expectMatchesCpu(gpu, cpu, near, precision, std::string(c.name) + " within half the skin");
  EXPECT_EQ(gpu.rebuilds(), 1);

  // One atom 0.6 A from its build position (more than half the skin): a build, then the same
  // agreement.
  std::vector<double> far = near;
  for (int axis = 0; axis < 3; ++axis) far[axis] = sys.x[axis];
  far[0] += 0.6;
  expectMatchesCpu(gpu, cpu, far, precision, std::string(c.name) + " after a rebuild");
  EXPECT_EQ(gpu.rebuilds(), 2);

  const std::vector<EnergyComponent> named = gpu.energyComponents(sys.x.data());
  ASSERT_EQ(named.size(), 8u);
  EXPECT_EQ(named[3].name, "VDWAALS");
  EXPECT_EQ(named[7].name, "EGB");
}

TEST_P(AmberGbListCudaVsCpu, ComponentsGradientBornRadiiAndRebuilds) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  checkAgainstCpu(std::get<0>(GetParam()), std::get<1>(GetParam()));
}

// Lanes per atom fix the summation order only: 1 and 32 agree to rounding.
TEST(AmberGbListCuda, LaneCountsAgreeToRounding) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  Loaded sys;
  std::string why;
  if (!loadCase({"trx", "gb/trx/prmtop.gb2", "gb/trx/trxox.2.4ns.x", 2, 12.0, 12.0, 0.0}, &sys,
                &why))
    GTEST_SKIP() << why;
  AmberGbListCuda one(sys.topology, sys.params, Precision::Double, 2.0, 1);
  AmberGbListCuda many(sys.topology, sys.params, Precision::Double, 2.0, 32);
  const std::size_t n = sys.x.size();
  std::vector<double> g1(n), g32(n);
  const double e1 = one.energyGradient(sys.x.data(), g1.data());
  const double e32 = many.energyGradient(sys.x.data(), g32.data());
  EXPECT_NEAR(e1, e32, 1e-9 * std::abs(e1));
  std::vector<double> difference(n);
  for (std::size_t k = 0; k < n; ++k) difference[k] = g1[k] - g32[k];
  EXPECT_LE(norm(difference), 1e-11 * norm(g1));
}

// makePotential on cuda: the list with a finite cut, the tile kernels without one.
TEST(AmberGbListCuda, FactoryPicksTheListWhenTheCutIsFinite) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  const auto prmtop = testDataPath("gb/trpcage/prmtop");
  if (!prmtop) GTEST_SKIP() << "gb/trpcage/prmtop not found under " << testDataRoot();
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::AmberGb;
  spec.amberTopology = std::make_shared<const AmberTopology>(readAmberTopology(*prmtop));
  spec.amber.cut = 12.0;
  const std::unique_ptr<Potential> list = makePotential(spec, Backend::Cuda);
  EXPECT_NE(dynamic_cast<AmberGbListCuda*>(list.get()), nullptr) << list->name();
  spec.amber.cut = std::numeric_limits<double>::infinity();
  const std::unique_ptr<Potential> tiles = makePotential(spec, Backend::Cuda);
  EXPECT_NE(dynamic_cast<AmberGbCuda*>(tiles.get()), nullptr) << tiles->name();
}

#else

TEST_P(AmberGbListCudaVsCpu, ComponentsGradientBornRadiiAndRebuilds) {
  GTEST_SKIP() << "this build has no CUDA support";
}

#endif

// trpcage jiggled (close contacts, every descreening branch) with cut 8 < rgbmax; trx with cut
// 12 and 16 (igb 2 and 5); four myoglobin copies (9,968 atoms) at cut 12.
const ListCase kCases[] = {
    {"trpcage_igb2_cut8", "gb/trpcage/prmtop", "gb/trpcage/inpcrd", 2, 12.0, 8.0, 0.2},
    {"trx_igb5_cut12", "gb/trx/prmtop.gb2", "gb/trx/trxox.2.4ns.x", 5, 12.0, 12.0, 0.0},
    {"trx_igb2_cut16", "gb/trx/prmtop.gb2", "gb/trx/trxox.2.4ns.x", 2, 12.0, 16.0, 0.0},
    {"myoglobin_x4_cut12", "gb/myoglobin_x4/prmtop", "gb/myoglobin_x4/inpcrd", 2, 12.0, 12.0, 0.0},
};

INSTANTIATE_TEST_SUITE_P(AmberGbListCuda, AmberGbListCudaVsCpu,
                         testing::Combine(testing::ValuesIn(kCases),
                                          testing::Values(Precision::Double, Precision::Mixed)),
                         caseName);

}  // namespace
}  // namespace landscape
