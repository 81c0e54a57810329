// The first DNEB run of OPTIM's LJ38 example (tests/data/lj38/optim: odata, finish, optim.out)
// with the example's settings: 50 images, 500 iterations, NEBK 10, RMS 0.025, L-BFGS m = 4, 0.2
// per image. OPTIM's optim.out: "Double-ended search iterations= 303 RMS= 0.0240 Dev= 7.22%
// S= 7.68", five candidates, refined to transition states of which the highest is
// -168.2771069, k 7.46 at the end. Before DNEB aligned its endpoints with a thorough search, it
// interpolated from a 3.149 alignment and stalled at RMS ~0.12 with S ~12.8 (docs/benchmarks.md).
// About 0.2 s.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/paths/Dneb.h"
#include "potentials/LennardJones.h"
#include "src/OdataFile.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

TEST(DnebLj38, ExampleFirstRunConvergesAsOptimsDoes) {
  const auto odata = testDataPath("lj38/optim/odata");
  const auto finishFile = testDataPath("lj38/optim/finish");
  if (!odata || !finishFile) GTEST_SKIP() << "tests/data/lj38/optim not found";
  const OptimRunConfig config = readOdataFile(*odata);
  std::vector<double> start = config.odataPoints, finish = readCoordinates(*finishFile);
  ASSERT_EQ(start.size(), 114u);
  LennardJones lj(38);
  const Lbfgs minimiser(config.settings.endpointMinimiser);  // REOPTIMISEENDPOINTS
  ASSERT_TRUE(minimiser.minimize(lj, start).status == LbfgsStatus::Converged);
  ASSERT_TRUE(minimiser.minimize(lj, finish).status == LbfgsStatus::Converged);

  DnebParams p = config.settings.connect.dneb;
  p.images = config.settings.connect.firstImages;  // NEWNEB 50 500 0.025
  p.iterations = config.settings.connect.firstIterations;
  ASSERT_EQ(p.images, 50);
  ASSERT_EQ(p.iterations, 500);
  const DnebResult r = Dneb(p).run(lj, start, finish);
  std::cout << "LJ38 example first DNEB: " << r.iterations << " iterations, RMS " << r.rmsGradient
            << ", Dev " << r.meanSpacingDeviation << "%, S " << r.pathLength << ", k "
            << r.springConstant << ", " << r.candidates.size() << " candidates, endpoint distance "
            << r.endpointDistance << " (OPTIM: 303, 0.0240, 7.22%, 7.68, 7.46, 5)\n";

  // The best permutational alignment known for this pair (1000 random orientations find no
  // better); the 3.141 and 3.149 ones lead the band onto paths 10.7 and 12.8 long.
  EXPECT_LT(r.endpointDistance, 3.137);
  EXPECT_TRUE(r.converged()) << "RMS " << r.rmsGradient << " after " << r.iterations;
  EXPECT_LT(r.rmsGradient, 0.025);
  EXPECT_LE(r.iterations, 450);             // OPTIM: 303; ours 276-374 over alignment seeds
  EXPECT_NEAR(r.pathLength, 7.68, 0.5);     // OPTIM's S
  EXPECT_LT(r.meanSpacingDeviation, 12.0);  // OPTIM's Dev 7.22%; the stalled band 15-40%
  EXPECT_LT(r.springConstant, 10.0);        // relaxed from NEBK 10 as OPTIM's (7.46)
  EXPECT_GE(r.candidates.size(), 3u);       // OPTIM: 5
  ASSERT_FALSE(r.candidates.empty());
  // The highest band maximum sits at OPTIM's highest transition state from this band.
  EXPECT_NEAR(r.energies[r.candidates.front()], -168.2771069, 0.05);
}

}  // namespace
}  // namespace landscape
