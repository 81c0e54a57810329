// Failed quenches (docs/reliability.md): a quench whose minimiser failed (non-finite energy or
// gradient, the iteration cap, cold fusion far below the lowest minimum) is rejected and counted,
// never accepted into the Markov chain and never saved; the count survives a checkpoint.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "CheckpointTexts.h"
#include "landscape/formats/CheckpointFile.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/search/BasinHopping.h"
#include "potentials/LennardJones.h"

namespace landscape {
namespace {

class Recorder : public BasinHoppingObserver {
 public:
  void onQuench(const QuenchReport& q) override { quenches.push_back(q); }
  std::vector<QuenchReport> quenches;
};

BasinHoppingParams smallRun(long steps) {
  BasinHoppingParams p;
  p.steps = steps;
  p.saveCount = 3;
  p.seed = 7;
  return p;
}

// LJ13 from a well-spread random cluster with atom 12 placed on atom 0: the energy of the start
// is not finite, so quench 0 fails at once.
std::vector<double> startWithTwoIdenticalAtoms() {
  Random random(5);
  std::vector<double> x = randomCluster(13, defaultContainerRadius(13), 0.9, random);
  for (int k = 0; k < 3; ++k) x[36 + k] = x[k];
  return x;
}

TEST(FailedQuench, StartWithTwoIdenticalAtomsIsRejectedAndTheChainMovesOn) {
  LennardJones lj(13);
  Recorder rec;
  const BasinHoppingResult r = BasinHopping(lj, smallRun(30)).run(startWithTwoIdenticalAtoms(), &rec);
  ASSERT_EQ(rec.quenches.size(), 31u);
  EXPECT_FALSE(std::isfinite(rec.quenches[0].energy));
  EXPECT_FALSE(rec.quenches[0].accepted);
  EXPECT_TRUE(rec.quenches[0].failed);
  // The first good quench replaces the failed start (Markov energy +infinity until then), and
  // the chain then runs on finite energies; the old code kept a NaN Markov energy and accepted
  // nothing.
  std::size_t first = 1;
  while (first < rec.quenches.size() && !rec.quenches[first].accepted) ++first;
  ASSERT_LT(first, rec.quenches.size()) << "no quench was accepted";
  for (std::size_t i = first; i < rec.quenches.size(); ++i)
    EXPECT_TRUE(std::isfinite(rec.quenches[i].markovEnergy)) << "quench " << i;
  EXPECT_EQ(r.failedQuenches, 1);
  ASSERT_FALSE(r.lowest.empty());
  for (const StoredMinimum& m : r.lowest) {
    EXPECT_TRUE(std::isfinite(m.energy));
    EXPECT_GT(m.firstFoundStep, 0) << "the failed start must never be saved";
  }
}

TEST(FailedQuench, QuenchesAtTheIterationCapAreRejectedAndNothingIsSaved) {
  LennardJones lj(13);
  BasinHoppingParams p = smallRun(5);
  p.sloppyMaxIterations = 3;  // no LJ13 quench converges to RMS 1e-3 in 3 iterations
  Recorder rec;
  const BasinHoppingResult r = BasinHopping(lj, p).run({}, &rec);
  ASSERT_EQ(rec.quenches.size(), 6u);
  for (const QuenchReport& q : rec.quenches) {
    EXPECT_EQ(q.status, LbfgsStatus::MaxIterations);
    EXPECT_TRUE(q.failed);
    EXPECT_FALSE(q.accepted);
    EXPECT_NE(q.rejectReason.find("iterations"), std::string::npos) << q.rejectReason;
  }
  EXPECT_EQ(r.failedQuenches, 6);
  EXPECT_TRUE(r.lowest.empty());
}

// A Lennard-Jones cluster with a sink: closer than r = 0.9 atoms 0 and 1 also feel
// -D (1/r^2 - 1/0.81), D = 1e6, as an AMBER hydrogen falls into a charge it is not shielded from.
// The pair then collapses to r = 0.35, a minimum near -6e6 that is perfectly converged and far
// below every minimum of the cluster: cold fusion.
class LennardJonesWithSink : public LennardJones {
 public:
  using LennardJones::LennardJones;
  std::string name() const override { return "Lennard-Jones with a sink"; }
  double energyGradient(const double* x, double* g) override {
    double e = LennardJones::energyGradient(x, g);
    double d[3], r2 = 0.0;
    for (int k = 0; k < 3; ++k) {
      d[k] = x[k] - x[3 + k];
      r2 += d[k] * d[k];
    }
    if (r2 < kReach2) {
      e -= kDepth * (1.0 / r2 - 1.0 / kReach2);
      for (int k = 0; k < 3; ++k) {
        g[k] += 2.0 * kDepth * d[k] / (r2 * r2);
        g[3 + k] -= 2.0 * kDepth * d[k] / (r2 * r2);
      }
    }
    return e;
  }
  double energy(const double* x) override {
    std::vector<double> g(dimension());
    return energyGradient(x, g.data());
  }
  bool perAtomEnergies(const double*, double*) override { return false; }

 private:
  static constexpr double kDepth = 1e6, kReach2 = 0.81;
};

TEST(FailedQuench, ColdFusionFarBelowTheLowestMinimumIsRejected) {
  LennardJonesWithSink lj(7);
  BasinHoppingParams p = smallRun(100);
  p.stepSize = 0.6;  // big steps put atoms 0 and 1 inside the sink now and then
  Recorder rec;
  const BasinHoppingResult r = BasinHopping(lj, p).run({}, &rec);
  int coldFusions = 0;
  for (const QuenchReport& q : rec.quenches) {
    if (q.energy < -1e5) {
      ++coldFusions;
      EXPECT_TRUE(q.failed) << "quench " << q.quench;
      EXPECT_NE(q.rejectReason.find("cold fusion"), std::string::npos) << q.rejectReason;
    }
    EXPECT_GT(q.markovEnergy, -100.0) << "quench " << q.quench << " took the chain into the sink";
  }
  EXPECT_GT(coldFusions, 0) << "the test needs quenches that find the sink";
  EXPECT_GE(r.failedQuenches, coldFusions);
  ASSERT_FALSE(r.lowest.empty());
  for (const StoredMinimum& m : r.lowest) EXPECT_GT(m.energy, -100.0);

  // The guard off, and iterations enough to converge in the stiff sink: the sink wins.
  p.coldFusionDrop = std::numeric_limits<double>::infinity();
  p.sloppyMaxIterations = p.tightMaxIterations = 100000;
  const BasinHoppingResult off = BasinHopping(lj, p).run({});
  EXPECT_LT(off.lowest.front().energy, -1e5);
}

TEST(FailedQuench, CountSurvivesACheckpoint) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("landscape-failed-quench-" + std::to_string(::getpid())))
                               .string();
  Checkpoint c;
  c.fingerprint = basinHoppingFingerprint(BasinHoppingParams{});
  c.steps = 10;
  c.state.quench = 4;
  c.state.stepSize = 0.4;
  c.state.failedQuenches = 3;
  c.state.markov = {0.0, 0.0, 0.0};
  c.state.markovEnergy = std::numeric_limits<double>::infinity();  // the start's quench failed
  c.state.random = Random(1).state();
  writeCheckpointFile(path, c);
  const Checkpoint back = readCheckpointFile(path);
  EXPECT_EQ(back.state.failedQuenches, 3);
  EXPECT_TRUE(std::isinf(back.state.markovEnergy));
  EXPECT_TRUE(back.state.lowest.empty());

  // A checkpoint written before failed quenches were counted has no such line: none failed.
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string old = asVersion1(text.str(), "landscape-basin-hopping-checkpoint");
  old.erase(old.find("failed-quenches 3\n"), std::string("failed-quenches 3\n").size());
  std::ofstream(path) << old;
  EXPECT_EQ(readCheckpointFile(path).state.failedQuenches, 0);
  std::filesystem::remove(path);
}

TEST(FailedQuench, ResumesFromAStateWithoutASavedMinimum) {
  LennardJones lj(13);
  BasinHoppingParams p = smallRun(0);
  BasinHoppingState state;
  class Last : public BasinHoppingObserver {
   public:
    void onState(const BasinHoppingState& s) override { state = s; }
    BasinHoppingState state;
  } last;
  BasinHopping(lj, p).run(startWithTwoIdenticalAtoms(), &last);
  ASSERT_TRUE(last.state.lowest.empty());
  EXPECT_EQ(last.state.failedQuenches, 1);
  p.steps = 10;
  const BasinHoppingResult r = BasinHopping(lj, p).resume(last.state);
  EXPECT_EQ(r.quenches, 10);
  EXPECT_EQ(r.failedQuenches, 1);
  ASSERT_FALSE(r.lowest.empty());
  EXPECT_TRUE(std::isfinite(r.lowest.front().energy));
}

}  // namespace
}  // namespace landscape
