// A connect run on a molecule: Ace-Ash-Nme on AMBER-GB (25 atoms), between the minimised rst7
// structure and the rotamer reached by turning chi1 by 120 degrees, with optim's molecule
// defaults (alignment without inversion). Every transition state on the path has exactly one
// negative Hessian eigenvalue (finite differences, rigid-body modes removed), and descending from
// it along that eigenvector gives back the two minima the path step joins.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "landscape/geometry/Alignment.h"
#include "landscape/minimisation/NumericalHessian.h"
#include "landscape/network/TransitionNetwork.h"
#include "landscape/paths/Connect.h"
#include "landscape/paths/TransitionStateDescent.h"
#include "potentials/AmberGb.h"
#include "src/optim/OptimConfig.h"
#include "tests/AshMinima.h"

namespace landscape {
namespace {

TEST(AmberConnect, AshChi1RotamersThroughTransitionStatesWithOneNegativeEigenvalue) {
  const std::optional<AshMinima> ash = makeAshMinima();
  if (!ash) GTEST_SKIP() << "gb/ash not found";
  AmberGb amber(ash->topology);
  const OptimSettings settings = optimAmberDefaultSettings();
  EXPECT_FALSE(settings.network.alignment.inversion);
  EXPECT_FALSE(settings.connect.dneb.alignment.inversion);

  TransitionNetwork network(settings.network);
  const int a = network.addMinimum(ash->first, ash->firstEnergy).index;
  const int b = network.addMinimum(ash->second, ash->secondEnergy).index;
  ASSERT_NE(a, b) << "the rotamers should be distinct minima (E " << ash->firstEnergy << " and "
                  << ash->secondEnergy << " kcal/mol)";
  std::printf("ash minima: %.6f and %.6f kcal/mol, %.4f Angstrom apart\n", ash->firstEnergy,
              ash->secondEnergy, network.distance(a, b));

  const ConnectResult r = Connect(settings.connect).connect(amber, network, a, b);
  ASSERT_TRUE(r.connected()) << connectStatusName(r.status);
  ASSERT_FALSE(r.path.empty());
  EXPECT_EQ(r.path.front().from, a);
  EXPECT_EQ(r.path.back().to, b);
  std::printf("connected in %d cycles, %zu transition states on the path, %ld gradient calls\n",
              r.cycles, r.path.size(), r.gradientCalls);

  const TransitionStateDescent descent(settings.connect.descent);
  for (const PathStep& step : r.path) {
    const NetworkTransitionState& ts = network.transitionStates()[step.transitionState];
    EXPECT_LT(ts.eigenvalue, 0.0);
    EXPECT_GT(ts.energy, network.minima()[step.from].energy);
    EXPECT_GT(ts.energy, network.minima()[step.to].energy);
    const HessianSpectrum spectrum = hessianSpectrumWithoutRigidBodyModes(
        numericalHessian(amber, ts.coordinates), ts.coordinates);
    EXPECT_EQ(spectrum.negativeCount(), 1)
        << "lowest eigenvalues " << spectrum.eigenvalues[0] << " " << spectrum.eigenvalues[1];
    EXPECT_GT(spectrum.eigenvalues[1], 0.0);
    // Down both sides along the unstable mode: the two minima of this step, nothing else.
    Eigen::VectorXd mode = spectrum.eigenvectors.col(0);
    const TransitionStateDescentResult down = descent.descend(
        amber, ts.coordinates, std::vector<double>(mode.data(), mode.data() + mode.size()));
    ASSERT_TRUE(down.converged());
    const int plus = network.findMinimum(down.plus.coordinates, down.plus.energy);
    const int minus = network.findMinimum(down.minus.coordinates, down.minus.energy);
    EXPECT_TRUE((plus == step.from && minus == step.to) || (plus == step.to && minus == step.from))
        << "descent reached minima " << plus << " and " << minus << ", the step joins " << step.from
        << " and " << step.to;
  }
  for (const NetworkMinimum& m : network.minima()) {
    EXPECT_EQ(
        hessianSpectrumWithoutRigidBodyModes(numericalHessian(amber, m.coordinates), m.coordinates)
            .negativeCount(),
        0);
  }
}

}  // namespace
}  // namespace landscape
