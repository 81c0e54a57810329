// The CUDA AMBER-GB potential against its CPU reference: every component, the gradient,
// run-to-run bit identity, the host and device entry points, in double and mixed precision, on the
// GB systems of the test data. Without a CUDA device every test skips.
//
// Tolerances: a component agrees within 1e-10 (double) / 1e-5 (mixed) of the sum of the
// absolute values of its terms (EELEC and EGB cancel heavily, so relative-to-value would be
// meaningless for them); the gradient difference norm is within 1e-9 / 1e-4 of the CPU gradient
// norm.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "landscape/core/Precision.h"
#include "tests/TestData.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/AmberGbCuda.h"
#include "gpu/DeviceBuffer.h"
#endif

namespace landscape {
namespace {

struct GbCudaCase {
  const char* name;
  const char* prmtop;
  const char* inpcrd;
  double saltcon;
  double rgbmax;
  int igb;
  /// Random displacement of every coordinate, Angstrom (0: the file's structure), so that close
  /// contacts and all descreening branches are exercised away from a relaxed geometry.
  double jiggle;
  /// sander's cut, Angstrom (AmberGbParams::cut; infinity: every pair).
  double cut = std::numeric_limits<double>::infinity();
};

std::string caseName(const testing::TestParamInfo<std::tuple<GbCudaCase, Precision>>& info) {
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

/// Reads the case's files; returns false (and why) when the test data are absent.
bool loadCase(const GbCudaCase& c, Loaded* out, std::string* why) {
  const auto prmtop = testDataPath(c.prmtop), inpcrd = testDataPath(c.inpcrd);
  if (!prmtop || !inpcrd) {
    *why = std::string("GB test system not found under ") + testDataRoot() + " (" + c.prmtop +
           "); set LANDSCAPE_TEST_DATA";
    return false;
  }
  out->topology = readAmberTopology(*prmtop);
  out->x = readAmberCoordinates(*inpcrd, out->topology).positions;
  out->params.igb = c.igb;
  out->params.saltcon = c.saltcon;
  out->params.rgbmax = c.rgbmax;
  out->params.cut = c.cut;
  if (c.jiggle > 0.0) {
    std::mt19937_64 rng(20261122);
    std::uniform_real_distribution<double> u(-c.jiggle, c.jiggle);
    for (double& v : out->x) v += u(rng);
  }
  return true;
}

class AmberGbCudaVsCpu : public testing::TestWithParam<std::tuple<GbCudaCase, Precision>> {};

#ifdef LANDSCAPE_HAVE_CUDA

void checkAgainstCpu(const GbCudaCase& c, Precision precision) {
  Loaded sys;
  std::string why;
  if (!loadCase(c, &sys, &why)) GTEST_SKIP() << why;
  const double componentTolerance = precision == Precision::Double ? 1e-10 : 1e-5;
  const double gradientTolerance = precision == Precision::Double ? 1e-9 : 1e-4;

  AmberGb cpu(sys.topology, sys.params);
  const std::size_t n = cpu.dimension();
  std::vector<double> gCpu(n);
  const double eCpu = cpu.energyGradient(sys.x.data(), gCpu.data());
  const AmberEnergyBreakdown partsCpu = cpu.breakdown(sys.x.data());
  const AmberEnergyBreakdown scale = cpu.absoluteSums(sys.x.data());

  AmberGbCuda gpu(sys.topology, sys.params, precision);
  ASSERT_EQ(gpu.dimension(), n);
  std::vector<double> gGpu(n, 12345.0);  // overwritten, never accumulated
  const double eGpu = gpu.energyGradient(sys.x.data(), gGpu.data());
  const AmberEnergyBreakdown partsGpu = gpu.lastBreakdown();
  EXPECT_EQ(eGpu, partsGpu.total());

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
        << k.name << ": cpu " << k.cpu << " gpu " << k.gpu << " sum|terms| " << k.scale;
    scaleSum += k.scale;
  }
  EXPECT_LE(std::abs(eGpu - eCpu), componentTolerance * scaleSum);

  std::vector<double> difference(n);
  for (std::size_t k = 0; k < n; ++k) difference[k] = gGpu[k] - gCpu[k];
  EXPECT_LE(norm(difference), gradientTolerance * norm(gCpu))
      << "|g_gpu - g_cpu| = " << norm(difference) << ", |g_cpu| = " << norm(gCpu);

  // Born radii: the intermediate every GB term depends on.
  const std::vector<double> bornCpu = cpu.bornRadii(sys.x.data());
  const std::vector<double> bornGpu = gpu.bornRadii(sys.x.data());
  double worst = 0.0;
  for (std::size_t a = 0; a < bornCpu.size(); ++a)
    worst = std::max(worst, std::abs(bornGpu[a] - bornCpu[a]) / bornCpu[a]);
  EXPECT_LE(worst, precision == Precision::Double ? 1e-12 : 1e-5);

  // Deterministic: a second call gives the same bits, energy() the same energy.
  std::vector<double> gAgain(n, -1.0);
  const double eAgain = gpu.energyGradient(sys.x.data(), gAgain.data());
  EXPECT_EQ(std::memcmp(&eAgain, &eGpu, sizeof eGpu), 0);
  EXPECT_EQ(std::memcmp(gAgain.data(), gGpu.data(), n * sizeof(double)), 0);
  EXPECT_EQ(gpu.energy(sys.x.data()), eGpu);

  // The device entry point: the same bits with nothing but the energy crossing to the host.
  DeviceBuffer<double> dX(sys.x), dG(n);
  const double eDevice = gpu.energyGradientDevice(dX.data(), dG.data());
  EXPECT_EQ(eDevice, eGpu);
  EXPECT_EQ(std::memcmp(dG.toHost().data(), gGpu.data(), n * sizeof(double)), 0);

  const std::vector<EnergyComponent> named = gpu.energyComponents(sys.x.data());
  ASSERT_EQ(named.size(), 8u);
  EXPECT_EQ(named[0].name, "BOND");
  EXPECT_EQ(named[7].name, "EGB");
  EXPECT_EQ(named[7].value, partsGpu.egb);
}

TEST_P(AmberGbCudaVsCpu, ComponentsGradientAndBitIdentity) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  checkAgainstCpu(std::get<0>(GetParam()), std::get<1>(GetParam()));
}

#else

TEST_P(AmberGbCudaVsCpu, ComponentsGradientAndBitIdentity) {
  GTEST_SKIP() << "this build has no CUDA support";
}

#endif

// ash at sander's conditions (salt 0, rgbmax 25) and jiggled so that atoms overlap descreening
// spheres; the proteins at the REFERENCE.md conditions (igb 2, 0.2 M, rgbmax 12), trpcage also
// with igb 1 and 5 and jiggled.
const GbCudaCase kCases[] = {
    {"ash", "gb/ash/ash.parm7", "gb/ash/ash.rst7", 0.0, 25.0, 2, 0.0},
    {"ash_jiggled_igb5", "gb/ash/ash.parm7", "gb/ash/ash.rst7", 1.0, 25.0, 5, 0.3},
    {"trpcage", "gb/trpcage/prmtop", "gb/trpcage/inpcrd", 0.2, 12.0, 2, 0.0},
    {"trpcage_igb1_jiggled", "gb/trpcage/prmtop", "gb/trpcage/inpcrd", 0.2, 12.0, 1, 0.2},
    {"trpcage_igb5", "gb/trpcage/prmtop.mbondi2", "gb/trpcage/inpcrd", 0.0, 15.0, 5, 0.0},
    {"trx", "gb/trx/prmtop.gb2", "gb/trx/trxox.2.4ns.x", 0.2, 12.0, 2, 0.0},
    {"myoglobin", "gb/myoglobin/prmtop", "gb/myoglobin/inpcrd", 0.2, 12.0, 2, 0.0},
    {"myoglobin_x4", "gb/myoglobin_x4/prmtop", "gb/myoglobin_x4/inpcrd", 0.2, 12.0, 2, 0.0},
    // sander's cut: pairs beyond it left out, and tile pairs whose boxes lie beyond it skipped.
    {"trpcage_cut10", "gb/trpcage/prmtop", "gb/trpcage/inpcrd", 0.2, 9.0, 2, 0.2, 10.0},
    {"trx_igb5_cut14", "gb/trx/prmtop.gb2", "gb/trx/trxox.2.4ns.x", 0.2, 12.0, 5, 0.0, 14.0},
    {"myoglobin_x4_cut12", "gb/myoglobin_x4/prmtop", "gb/myoglobin_x4/inpcrd", 0.2, 12.0, 2, 0.0,
     12.0},
};

INSTANTIATE_TEST_SUITE_P(AmberGbCuda, AmberGbCudaVsCpu,
                         testing::Combine(testing::ValuesIn(kCases),
                                          testing::Values(Precision::Double, Precision::Mixed)),
                         caseName);

// myoglobin_x10: one CPU reference evaluation takes about 17 s, so it is in the slow suite.
class SlowAmberGbCudaVsCpu : public AmberGbCudaVsCpu {};

#ifdef LANDSCAPE_HAVE_CUDA
TEST_P(SlowAmberGbCudaVsCpu, ComponentsGradientAndBitIdentity) {
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription();
  checkAgainstCpu(std::get<0>(GetParam()), std::get<1>(GetParam()));
}
#else
TEST_P(SlowAmberGbCudaVsCpu, ComponentsGradientAndBitIdentity) {
  GTEST_SKIP() << "this build has no CUDA support";
}
#endif

const GbCudaCase kSlowCases[] = {
    {"myoglobin_x10", "gb/myoglobin_x10/prmtop", "gb/myoglobin_x10/inpcrd", 0.2, 12.0, 2, 0.0},
};

INSTANTIATE_TEST_SUITE_P(AmberGbCuda, SlowAmberGbCudaVsCpu,
                         testing::Combine(testing::ValuesIn(kSlowCases),
                                          testing::Values(Precision::Double, Precision::Mixed)),
                         caseName);

}  // namespace
}  // namespace landscape
