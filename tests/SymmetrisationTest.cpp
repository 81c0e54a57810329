// GMIN's symmetry-adapted basin-hopping moves (Oakley, Johnston and Wales, Phys. Chem. Chem. Phys.
// 15, 3965 (2013)): the Ci continuous symmetry measure and its symmetrised structure
// (landscape/geometry/CsmSymmetrisation) against geometry, the move schedule inside basin-hopping
// (landscape/search/Symmetrisation), LJ38 found about as fast as GMIN's SYMMETRISECSM example
// (37 +/- 43 quenches over 100 starts, against 2825 +/- 3093 without), and the GMIN keywords.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/geometry/CsmSymmetrisation.h"
#include "landscape/search/BasinHopping.h"
#include "potentials/LennardJones.h"
#include "src/gmin/GminDataFile.h"
#include "src/gmin/GminOptions.h"
#include "tests/GminLowestFile.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

constexpr double kLj38 = -173.928427;  // Cambridge Cluster Database, truncated octahedron (Oh)


std::vector<double> rotatedAndMoved(const std::vector<double>& x) {
  const Eigen::Matrix3d r =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d(1.0, -2.0, 0.5).normalized()).toRotationMatrix();
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size() / 3; ++i) {
    const Eigen::Vector3d p = r * Eigen::Vector3d(x[3 * i], x[3 * i + 1], x[3 * i + 2]) +
                              Eigen::Vector3d(0.3, -1.1, 2.0);
    for (int d = 0; d < 3; ++d) y[3 * i + d] = p[d];
  }
  return y;
}

TEST(CsmSymmetrisation, TheOhGlobalMinimumOfLj38IsCentrosymmetric) {
  const auto path = testDataPath("lj38/gmin/lowest");
  if (!path) GTEST_SKIP() << "tests/data/lj38/gmin/lowest is absent";
  const std::vector<double> x = readGminLowest(*path).front();
  ASSERT_EQ(x.size(), 3u * 38);
  // Oh contains the inversion: the measure vanishes and the average is the structure itself, to
  // within the file's convergence (GMIN's TIGHTCONV 1e-3 leaves atoms about 1e-5 off their
  // symmetric sites: CSM ~ 1e-10; a random cluster has 0.01 and more).
  const CsmSymmetrisation s = symmetriseByInversion(x);
  EXPECT_LT(s.csm, 1e-8);
  for (std::size_t k = 0; k < x.size(); ++k) EXPECT_NEAR(s.average[k], x[k], 1e-4);
  // An involution: every atom's partner has it as its partner.
  for (int i = 0; i < 38; ++i) EXPECT_EQ(s.permutation[s.permutation[i]], i);
}

TEST(CsmSymmetrisation, RegularTetrahedronHasMeasureOneThirdAndAveragesToASquare) {
  // Td has no inversion: -v_i is the cube vertex opposite v_i, at distance 2 from its three
  // neighbours v_j (cube edge 2), so the best assignment costs 4 per atom: CSM = 16 / (4 * 12).
  const std::vector<double> x = {1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1};
  const CsmSymmetrisation s = symmetriseByInversion(x);
  EXPECT_NEAR(s.csm, 1.0 / 3.0, 1e-14);
  // The average, (v_i - v_P(i)) / 2, is centrosymmetric: its own measure vanishes.
  EXPECT_LT(symmetriseByInversion(s.average).csm, 1e-28);
  // With an involution P the four points are two opposite pairs: a planar square of side sqrt 2.
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(s.permutation[s.permutation[i]], i);
    const int j = s.permutation[i];
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(s.average[3 * i + d], -s.average[3 * j + d], 1e-14);
  }
}

TEST(CsmSymmetrisation, MeasureIgnoresOrientationAndTheAverageIsCentrosymmetric) {
  Random random(11);
  const std::vector<double> x = randomCluster(20, 3.0, 0.7, random);
  const CsmSymmetrisation s = symmetriseByInversion(x);
  EXPECT_GT(s.csm, 0.01);  // a random cluster is far from centrosymmetric
  EXPECT_NEAR(symmetriseByInversion(rotatedAndMoved(x)).csm, s.csm, 1e-12);
  bool involution = true;
  for (int i = 0; i < 20; ++i) involution = involution && s.permutation[s.permutation[i]] == i;
  if (involution) EXPECT_LT(symmetriseByInversion(s.average).csm, 1e-20);
  // Nearer to centrosymmetric either way.
  EXPECT_LT(symmetriseByInversion(s.average).csm, s.csm);
}

TEST(CsmSymmetrisation, BadInputIsRefused) {
  EXPECT_THROW(symmetriseByInversion({1.0, 2.0, 3.0}), std::invalid_argument);
  EXPECT_THROW(symmetriseByInversion({1.0, 2.0, 3.0, 4.0}), std::invalid_argument);
  EXPECT_THROW(symmetriseByInversion({0, 0, 0, 1, 0, NAN}), std::invalid_argument);
}

// GMIN's LJ38 MFET example input with SYMMETRISECSM 1 CI 1.0D-6 30 1 50 and TEMPERATURE 3.0
// (wales-group/examples, LJ38/02_Calculating_MFET/input_SYMMETRISECSM/data).
BasinHoppingParams csmExampleParams(std::uint64_t seed) {
  BasinHoppingParams p = gminLj38ExampleParams();
  p.temperature = 3.0;
  p.symmetrisation.scheme = SymmetrisationParams::Scheme::Csm;
  p.symmetrisation.interval = 1;
  p.symmetrisation.csmEpsilon = 1e-6;
  p.symmetrisation.csmSteps = 30;
  p.symmetrisation.csmQuenches = 1;
  p.symmetrisation.csmMaxIterations = 50;
  p.targetEnergy = kLj38;
  p.steps = 3000;
  p.dumpInterval = 0;
  p.seed = seed;
  return p;
}

// Records quenches, symmetrisation episodes and step-size adjustments.
class Recorder : public BasinHoppingObserver {
 public:
  void onQuench(const QuenchReport& q) override { quenches.push_back(q); }
  void onSymmetrisation(const SymmetrisationReport& r) override { episodes.push_back(r); }
  void onStepAdjust(const StepAdjustReport& s) override { adjusts.push_back(s); }
  std::vector<QuenchReport> quenches;
  std::vector<SymmetrisationReport> episodes;
  std::vector<StepAdjustReport> adjusts;
};

TEST(SymmetrisationMoves, CsmFindsTheLj38GlobalMinimumAsFastAsGminsExample) {
  // GMIN's example: 37 +/- 43 quenches (mean, standard deviation over 100 starts); the same input
  // without SYMMETRISECSM (and kT 1) needs 2825 +/- 3093. Twenty starts here: every one must hit
  // within 3000 steps and the mean must stay far below the run without symmetrisation.
  LennardJones lj(38);
  double total = 0.0;
  const int runs = 20;
  for (int seed = 1; seed <= runs; ++seed) {
    const BasinHoppingResult r = BasinHopping(lj, csmExampleParams(seed)).run({});
    ASSERT_TRUE(r.targetReached) << "seed " << seed;
    total += static_cast<double>(r.targetQuench);
  }
  const double mean = total / runs;
  EXPECT_LT(mean, 200.0) << "GMIN: 37 +/- 43 (s.e. of 20 runs about 10)";
  std::printf("LJ38 with SYMMETRISECSM: mean %.1f quenches to the global minimum over %d starts "
              "(GMIN 37 +/- 43)\n",
              mean, runs);
}

TEST(SymmetrisationMoves, EpisodesFollowGminsSchedule) {
  LennardJones lj(13);
  BasinHoppingParams p = csmExampleParams(3);
  p.targetEnergy.reset();
  p.temperature = 1.0;
  p.steps = 120;
  p.symmetrisation.interval = 3;
  p.symmetrisation.csmQuenches = 2;  // the averaged structure, then one downhill step
  p.stepAdjustInterval = 10;
  Recorder rec;
  BasinHopping(lj, p).run({}, &rec);
  ASSERT_GT(rec.episodes.size(), 5u);
  long ordinary = 0;
  bool previousWasCandidate = false;
  std::size_t episode = 0;
  int inEpisode = 0;
  double markovBefore = 0.0;
  for (std::size_t i = 1; i < rec.quenches.size(); ++i) {
    const QuenchReport& q = rec.quenches[i];
    if (!q.symmetrisation) {
      EXPECT_EQ(inEpisode, 0) << "an ordinary step inside an episode at quench " << q.quench;
      ++ordinary;
      previousWasCandidate = false;
      markovBefore = q.markovEnergy;
      continue;
    }
    if (inEpisode == 0) {
      // An episode starts only after an ordinary step, at a step s with (s - 1) divisible by 3.
      EXPECT_FALSE(previousWasCandidate) << "quench " << q.quench;
      EXPECT_EQ((q.quench - 1) % 3, 0) << "quench " << q.quench;
    }
    ++inEpisode;
    EXPECT_FALSE(q.accepted);
    previousWasCandidate = true;
    if (inEpisode == 2) {  // csmQuenches: the episode ends here
      ASSERT_LT(episode, rec.episodes.size());
      const SymmetrisationReport& r = rec.episodes[episode++];
      EXPECT_EQ(r.quench, q.quench);
      EXPECT_EQ(r.candidates, 2);
      // Downhill only: the Markov energy never rises through an episode, and it changes only to
      // the episode's lowest minimum when that is more than EDIFF below.
      EXPECT_LE(r.markovEnergy, markovBefore);
      if (r.changedMarkov) {
        EXPECT_EQ(r.markovEnergy, r.bestEnergy);
        EXPECT_LT(r.bestEnergy, markovBefore - p.energyDifference);
      } else {
        EXPECT_EQ(r.markovEnergy, markovBefore);
      }
      inEpisode = 0;
    }
  }
  EXPECT_EQ(episode, rec.episodes.size());
  // The step size adapts every 10 ordinary steps; candidate quenches do not count.
  EXPECT_EQ(static_cast<long>(rec.adjusts.size()), ordinary / 10);
}

TEST(SymmetrisationMoves, ParamsCheckNamesTheBadField) {
  SymmetrisationParams p;
  p.scheme = SymmetrisationParams::Scheme::Csm;
  p.csmGroup = "C2V";
  try {
    p.check();
    ADD_FAILURE() << "C2V accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'C2V' is not implemented"), std::string::npos)
        << e.what();
  }
  p.csmGroup = "CI";
  p.interval = 0;
  EXPECT_THROW(p.check(), std::invalid_argument);
  p.interval = 1;
  p.csmQuenches = 0;
  EXPECT_THROW(p.check(), std::invalid_argument);
  p.csmQuenches = 1;
  EXPECT_NO_THROW(p.check());
  p.scheme = SymmetrisationParams::Scheme::CoreCompletion;
  p.core.overlapDistance = -1.0;
  EXPECT_THROW(p.check(), std::invalid_argument);
}

GminConfig applyText(const std::string& text) {
  GminConfig config = gminKeywordDefaults();
  std::istringstream in(text);
  applyGminKeywords(in, "data", config);
  return config;
}

TEST(SymmetrisationKeywords, GminExampleLinesSetEveryField) {
  const GminConfig csm = applyText("PERMDIST\nSYMMETRISECSM 1 CI 1.0D-6 30 1 50\n");
  const SymmetrisationParams& c = csm.basinHopping.symmetrisation;
  EXPECT_EQ(c.scheme, SymmetrisationParams::Scheme::Csm);
  EXPECT_EQ(c.interval, 1);
  EXPECT_EQ(c.csmGroup, "CI");
  EXPECT_EQ(c.csmEpsilon, 1e-6);
  EXPECT_EQ(c.csmSteps, 30);
  EXPECT_EQ(c.csmQuenches, 1);
  EXPECT_EQ(c.csmMaxIterations, 50);
  ASSERT_EQ(csm.warnings.size(), 1u);  // PERMDIST: always on for clusters
  EXPECT_NE(csm.warnings[0].find("PERMDIST ignored"), std::string::npos) << csm.warnings[0];

  const GminConfig core = applyText("SYMMETRISE 1 0.02 0.040 0.09 0.1 0.5 18 0.32 2.0\n");
  const SymmetrisationParams& s = core.basinHopping.symmetrisation;
  EXPECT_EQ(s.scheme, SymmetrisationParams::Scheme::CoreCompletion);
  EXPECT_EQ(s.interval, 1);
  EXPECT_EQ(s.core.orbitTolerance, 0.02);
  EXPECT_EQ(s.core.symmetryTolerance, 0.04);
  EXPECT_EQ(s.core.occupiedTolerance, 0.09);
  EXPECT_EQ(s.core.holeMergeTolerance, 0.1);
  EXPECT_EQ(s.core.overlapDistance, 0.5);
  EXPECT_EQ(s.core.maxCandidates, 18);
  EXPECT_EQ(s.matrixDifference, 0.32);
  EXPECT_EQ(s.core.centreDecay, 2.0);

  // GMIN reads every field only when present: a bare keyword keeps GMIN's defaults.
  const SymmetrisationParams bare = applyText("SYMMETRISE\n").basinHopping.symmetrisation;
  EXPECT_EQ(bare.scheme, SymmetrisationParams::Scheme::CoreCompletion);
  EXPECT_EQ(bare.interval, 10);
  EXPECT_EQ(bare.core.maxCandidates, 20);
}

void expectParseError(const std::vector<std::string>& args, const std::string& piece) {
  try {
    parseGminCommandLine(args);
    ADD_FAILURE() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(piece), std::string::npos) << e.what();
  }
}

TEST(SymmetrisationKeywords, UnsupportedGroupsAndSystemsAreRefusedByName) {
  expectParseError({"--symmetrise", "csm", "--csm-group", "C2V"}, "csm-group");
  expectParseError({"--symmetrise", "csm", "--kob-andersen", "--lj", "256", "--box", "6.0"},
                   "symmetry-adapted moves need a cluster of identical atoms");
  expectParseError({"--symmetrise", "core", "--binary-lj", "3,1.5,0.5,0.8,0.88", "--lj", "10"},
                   "command line: --symmetrise: symmetry-adapted moves need a cluster");
  EXPECT_NO_THROW(parseGminCommandLine({"--symmetrise", "csm", "--lj", "38"}));
}

}  // namespace
}  // namespace landscape
