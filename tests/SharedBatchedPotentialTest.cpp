// potentials/SharedBatchedPotential: the evaluations of many threads gathered into shared
// batched calls give each thread the bits it would get alone, and the calls really are shared.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "backends/BatchedPotentialFactory.h"
#include "landscape/core/Random.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/minimisation/BatchedLbfgs.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/paths/RayleighRitz.h"
#include "potentials/BatchedLennardJones.h"
#include "potentials/LennardJones.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/SharedBatchedPotential.h"
#include "potentials/SitePotential.h"
#include "potentials/WaterCluster.h"

namespace landscape {
namespace {

std::vector<std::vector<double>> starts(std::size_t count, std::size_t atoms) {
  Random random(20261128);
  std::vector<std::vector<double>> x;
  for (std::size_t i = 0; i < count; ++i) x.push_back(randomCluster(atoms, 2.0, 0.8, random));
  return x;
}

// Four threads minimise LJ13 clusters through members of one shared potential; each result is
// Lbfgs on the single-structure LennardJones bit for bit (BatchedLennardJones gives its bits).
// The members exist before any thread starts and the patience is long, so the first call waits
// for all four: fewer calls than requests, whatever the machine's load.
TEST(SharedBatchedPotential, ThreadsGetTheirOwnBitsInSharedCalls) {
  const std::size_t atoms = 13;
  const auto x0 = starts(4, atoms);
  LbfgsParams params;
  params.rmsTolerance = 1e-6;
  const Lbfgs lbfgs(params);
  std::vector<std::vector<double>> alone = x0;
  std::vector<LbfgsResult> aloneResults;
  LennardJones lj(atoms);
  for (auto& x : alone) aloneResults.push_back(lbfgs.minimize(lj, x));

  BatchedLennardJones batched(atoms, 1);
  SharedBatchedPotential shared(batched, {64, std::chrono::seconds(30)});
  std::vector<std::unique_ptr<SharedBatchedPotential::Member>> members;
  for (int t = 0; t < 4; ++t)
    members.push_back(std::make_unique<SharedBatchedPotential::Member>(shared));
  EXPECT_EQ(shared.members(), 4);
  std::vector<std::vector<double>> together = x0;
  std::vector<LbfgsResult> results(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      std::unique_ptr<Potential> mine = members[t]->potential();
      results[t] = lbfgs.minimize(*mine, together[t]);
      members[t].reset();  // leaves: the others' calls stop waiting for it
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(shared.members(), 0);
  for (int t = 0; t < 4; ++t) {
    EXPECT_TRUE(results[t].converged());
    EXPECT_EQ(results[t].energy, aloneResults[t].energy) << t;
    EXPECT_EQ(results[t].iterations, aloneResults[t].iterations) << t;
    EXPECT_EQ(together[t], alone[t]) << t;
  }
  const SharedBatchStatistics s = shared.statistics();
  long calls = 0;
  for (const LbfgsResult& r : aloneResults) calls += r.functionCalls;
  EXPECT_EQ(s.requests, calls);
  EXPECT_EQ(s.structures, calls);
  EXPECT_LT(s.calls, s.requests);
  EXPECT_GT(s.meanBatch(), 1.0);
}

// Patience that follows the calls (a member busy on the host longer than a call takes joins the
// next call): only which structures share a call changes, never a structure's bits. The time in
// calls is counted.
TEST(SharedBatchedPotential, PatienceFollowingTheCallsChangesNoBits) {
  const std::size_t atoms = 13;
  const auto x0 = starts(6, atoms);
  LbfgsParams params;
  params.rmsTolerance = 1e-6;
  const Lbfgs lbfgs(params);
  LennardJones lj(atoms);
  BatchedLennardJones batched(atoms, 1);
  SharedBatchedPotential::Options options;
  options.patienceFollowsCalls = true;
  SharedBatchedPotential shared(batched, options);
  std::vector<std::unique_ptr<SharedBatchedPotential::Member>> members;
  for (std::size_t t = 0; t < x0.size(); ++t)
    members.push_back(std::make_unique<SharedBatchedPotential::Member>(shared));
  std::vector<std::vector<double>> together = x0;
  std::vector<LbfgsResult> results(x0.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < x0.size(); ++t)
    threads.emplace_back([&, t] {
      std::unique_ptr<Potential> mine = members[t]->potential();
      results[t] = lbfgs.minimize(*mine, together[t]);
      members[t].reset();
    });
  for (std::thread& t : threads) t.join();
  long calls = 0;
  for (std::size_t t = 0; t < x0.size(); ++t) {
    std::vector<double> alone = x0[t];
    const LbfgsResult expected = lbfgs.minimize(lj, alone);
    EXPECT_TRUE(results[t].converged()) << t;
    EXPECT_EQ(results[t].energy, expected.energy) << t;
    EXPECT_EQ(together[t], alone) << t;
    calls += expected.functionCalls;
  }
  const SharedBatchStatistics s = shared.statistics();
  EXPECT_EQ(s.structures, calls);
  EXPECT_GT(s.callSeconds, 0.0);
}

// A call of 2.5 MB copies its members' structures in and the answers out in four pieces, taken by
// the calling thread and the threads waiting for the call: every member gets the rows of its own
// request, the bits of the batched potential evaluating that request alone.
TEST(SharedBatchedPotential, CopiesOnSeveralThreadsPutEveryRowInItsPlace) {
  const std::size_t atoms = 200, perMember = 128, n = 3 * atoms;
  const int memberCount = 4;
  ASSERT_GE(memberCount * perMember * n * sizeof(double),
            4 * SharedBatchedPotential::kBytesPerCopyPiece);
  std::vector<std::vector<double>> x(memberCount);
  Random random(20261201);
  for (auto& xi : x)
    for (std::size_t b = 0; b < perMember; ++b) {
      const std::vector<double> c = randomCluster(atoms, 6.0, 0.8, random);
      xi.insert(xi.end(), c.begin(), c.end());
    }
  BatchedLennardJones batched(atoms, 1);
  SharedBatchedPotential::Options options;
  options.patience = std::chrono::seconds(30);  // the first call waits for all four
  options.copyPieces = 4;
  SharedBatchedPotential shared(batched, options);
  std::vector<std::unique_ptr<SharedBatchedPotential::Member>> members;
  for (int t = 0; t < memberCount; ++t)
    members.push_back(std::make_unique<SharedBatchedPotential::Member>(shared));
  std::vector<std::vector<double>> g(memberCount, std::vector<double>(perMember * n));
  std::vector<std::vector<double>> e(memberCount, std::vector<double>(perMember));
  std::vector<std::thread> threads;
  for (int t = 0; t < memberCount; ++t)
    threads.emplace_back([&, t] {
      members[t]->evaluate(perMember, x[t].data(), g[t].data(), e[t].data());
      members[t].reset();
    });
  for (std::thread& t : threads) t.join();
  const SharedBatchStatistics s = shared.statistics();
  EXPECT_EQ(s.calls, 1);
  EXPECT_EQ(s.structures, static_cast<long>(memberCount * perMember));
  EXPECT_GT(s.copySeconds, 0.0);
  EXPECT_LE(s.copySeconds, s.callSeconds);
  for (int t = 0; t < memberCount; ++t) {
    std::vector<double> gAlone(perMember * n), eAlone(perMember);
    batched.energyGradient(perMember, x[t].data(), gAlone.data(), eAlone.data(), nullptr);
    EXPECT_EQ(g[t], gAlone) << t;
    EXPECT_EQ(e[t], eAlone) << t;
  }
}

// Copies cut into no pieces are refused with a sentence naming the field.
TEST(SharedBatchedPotential, RefusesCopiesInNoPieces) {
  BatchedLennardJones batched(13, 1);
  SharedBatchedPotential::Options options;
  options.copyPieces = 0;
  try {
    SharedBatchedPotential shared(batched, options);
    FAIL() << "accepted copyPieces = 0";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("copyPieces"), std::string::npos) << e.what();
  }
}

// The batched view: a request of several structures with an active mask evaluates the active
// ones only (the rows of the others keep their values), as BatchedPotential promises; a batched
// minimiser over the view is BatchedLbfgs over the potential itself.
TEST(SharedBatchedPotential, BatchedViewHonoursTheMaskAndDrivesBatchedLbfgs) {
  const std::size_t atoms = 7, n = 3 * atoms;
  const auto x0 = starts(3, atoms);
  BatchedLennardJones batched(atoms, 1);
  SharedBatchedPotential shared(batched);
  SharedBatchedPotential::Member member(shared);
  std::unique_ptr<BatchedPotential> view = member.batched();
  std::vector<double> x;
  for (const auto& s : x0) x.insert(x.end(), s.begin(), s.end());
  std::vector<double> g(3 * n, -7.0), e(3, -7.0), gDirect(3 * n), eDirect(3);
  const std::vector<std::uint8_t> active{1, 0, 1};
  view->energyGradient(3, x.data(), g.data(), e.data(), active.data());
  batched.energyGradient(3, x.data(), gDirect.data(), eDirect.data(), nullptr);
  EXPECT_EQ(e[0], eDirect[0]);
  EXPECT_EQ(e[1], -7.0);
  EXPECT_EQ(e[2], eDirect[2]);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(g[i], gDirect[i]);
    EXPECT_EQ(g[n + i], -7.0);
    EXPECT_EQ(g[2 * n + i], gDirect[2 * n + i]);
  }
  EXPECT_EQ(shared.statistics().structures, 2);

  LbfgsParams params;
  params.rmsTolerance = 1e-6;
  std::vector<double> viaView = x, direct = x;
  std::vector<LbfgsResult> a(3), b(3);
  BatchedLbfgs(*view, params, 1).minimise(3, viaView.data(), a.data());
  BatchedLbfgs(batched, params, 1).minimise(3, direct.data(), b.data());
  EXPECT_EQ(viaView, direct);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(a[k].energy, b[k].energy);
}

// Rigid coordinates through a member (network growth of rigid water): with Options::geometry the
// views report the rigid potential's angle-axis RMS gradient, L-BFGS metric and overall motions
// while their energies come from the shared calls; without it, those of plain Cartesians.
TEST(SharedBatchedPotential, ViewsTakeTheMetricAndOverallMotionsOfTheirGeometry) {
  const WaterCluster water = tip4pCluster(2);
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Sites;
  spec.siteModel = std::make_shared<const SiteModel>(water.model);
  spec.atoms = water.model.siteCount();
  const std::unique_ptr<BatchedPotential> batched =
      makeBatchedRigidPotential(spec, water.rigidSystem(), Backend::Cpu);
  SitePotential sites(water.model);
  RigidBodyPotential rigid(sites, water.rigidSystem());
  Random random(5);
  std::vector<double> q(12);
  for (std::size_t i = 0; i < 12; ++i)
    q[i] = (i < 3 ? 0.0 : i < 6 ? 3.0 : 1.0) + random.symmetric();
  std::vector<double> g(12), gRigid(12);
  SharedBatchedPotential::Options options;
  options.geometry = &rigid;
  SharedBatchedPotential shared(*batched, options);
  SharedBatchedPotential::Member member(shared);
  const std::unique_ptr<Potential> view = member.potential();
  const double e = view->energyGradient(q.data(), g.data());
  EXPECT_NEAR(e, rigid.energyGradient(q.data(), gRigid.data()), 1e-10);
  EXPECT_TRUE(view->hasGradientMetric());
  EXPECT_EQ(view->rmsGradient(q.data(), g.data()), rigid.rmsGradient(q.data(), g.data()));
  std::vector<double> modes, rigidModes, w, rigidW;
  ASSERT_TRUE(view->overallMotionModes(q.data(), modes));
  rigid.overallMotionModes(q.data(), rigidModes);
  EXPECT_EQ(modes, rigidModes);
  ASSERT_TRUE(view->diagonalMetric(w));
  rigid.diagonalMetric(rigidW);
  EXPECT_EQ(w, rigidW);
  const std::unique_ptr<BatchedPotential> images = member.batched();
  EXPECT_TRUE(images->hasGradientMetric());
  double rms = 0.0;
  images->rmsGradients(1, q.data(), g.data(), &rms, nullptr);
  EXPECT_EQ(rms, rigid.rmsGradient(q.data(), g.data()));

  SharedBatchedPotential plain(*batched);
  SharedBatchedPotential::Member other(plain);
  const std::unique_ptr<Potential> cartesian = other.potential();
  EXPECT_FALSE(cartesian->hasGradientMetric());
  EXPECT_FALSE(cartesian->overallMotionModes(q.data(), modes));
}

// The Rayleigh-Ritz ratio asks for its two displaced gradients together (Potential::
// energyGradients): through a member they are one request of two structures, and the eigenpair is
// the one found on the single-structure potential, bit for bit.
TEST(SharedBatchedPotential, RayleighRitzSendsItsTwoGradientsAsOneRequest) {
  const std::size_t atoms = 13;
  std::vector<double> x = starts(1, atoms)[0];
  LennardJones lj(atoms);
  const Lbfgs lbfgs(LbfgsParams{});
  lbfgs.minimize(lj, x);
  const RayleighRitz search(RayleighRitzParams{});
  const std::vector<double> guess = randomUnitVector(x.size(), 7);
  const RayleighRitzResult alone = search.smallestEigenvector(lj, x, guess);
  BatchedLennardJones batched(atoms, 1);
  SharedBatchedPotential shared(batched);
  SharedBatchedPotential::Member member(shared);
  std::unique_ptr<Potential> view = member.potential();
  const RayleighRitzResult through = search.smallestEigenvector(*view, x, guess);
  EXPECT_EQ(through.eigenvalue, alone.eigenvalue);
  EXPECT_EQ(through.eigenvector, alone.eigenvector);
  EXPECT_GT(alone.eigenvalue, 0.0);  // a minimum: the smallest non-zero eigenvalue is positive
  const SharedBatchStatistics s = shared.statistics();
  EXPECT_EQ(s.structures, through.gradientCalls);
  EXPECT_EQ(s.structures, 2 * s.requests);
}

// Many threads joining and leaving at random, asking for one to five structures at a time, some
// stepping aside meanwhile: the patience is long, so a call happens only when every member waits
// (or the batch is full). Every answer is the batched potential's own (a deadlock would hang the
// test; none may).
TEST(SharedBatchedPotential, MembersComingAndGoingAlwaysGetTheirAnswers) {
  const std::size_t atoms = 5, n = 3 * atoms;
  BatchedLennardJones batched(atoms, 1);
  SharedBatchedPotential shared(batched, {8, std::chrono::seconds(60)});
  const auto x0 = starts(5, atoms);
  std::vector<double> x;
  for (const auto& s : x0) x.insert(x.end(), s.begin(), s.end());
  std::vector<double> g(5 * n), e(5);
  batched.energyGradient(5, x.data(), g.data(), e.data(), nullptr);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 12; ++t)
    threads.emplace_back([&, t] {
      Random random(static_cast<std::uint64_t>(100 + t));
      for (int round = 0; round < 6; ++round) {
        SharedBatchedPotential::Member member(shared);
        const int asks = 1 + static_cast<int>(random.uniform() * 20);
        for (int a = 0; a < asks; ++a) {
          const std::size_t count = 1 + static_cast<std::size_t>(random.uniform() * 5) % 5;
          std::vector<double> gm(count * n), em(count);
          member.evaluate(count, x.data(), gm.data(), em.data());
          for (std::size_t b = 0; b < count; ++b)
            if (em[b] != e[b] || !std::equal(gm.begin() + b * n, gm.begin() + (b + 1) * n,
                                             g.begin() + b * n))
              ++wrong;
          if (random.uniform() < 0.2) {
            const SharedBatchedPotential::Member::Aside aside(member);
            std::this_thread::yield();
          }
        }
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(shared.members(), 0);
  const SharedBatchStatistics s = shared.statistics();
  EXPECT_LE(s.meanBatch(), 8.0);  // a call takes requests up to maxBatch structures
}

// A batched potential that throws: every member whose structures were in the failed call gets
// the exception on its own thread, and the next call works again.
class FailingOnce : public BatchedPotential {
 public:
  std::size_t dimension() const override { return 3; }
  std::string name() const override { return "failing once"; }
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t*) override {
    if (!m_failed) {
      m_failed = true;
      throw std::runtime_error("device lost");
    }
    for (std::size_t b = 0; b < batch; ++b) {
      energy[b] = x[3 * b];
      for (int i = 0; i < 3; ++i) g[3 * b + i] = 1.0;
    }
  }

 private:
  bool m_failed = false;
};

TEST(SharedBatchedPotential, ErrorsReachEveryMemberOfTheFailedCall) {
  FailingOnce failing;
  SharedBatchedPotential shared(failing, {16, std::chrono::seconds(30)});
  std::vector<std::unique_ptr<SharedBatchedPotential::Member>> members;
  for (int t = 0; t < 3; ++t)
    members.push_back(std::make_unique<SharedBatchedPotential::Member>(shared));
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&, t] {
      const double x[3] = {1.0 + t, 0.0, 0.0};
      double g[3], e = 0.0;
      try {
        members[t]->evaluate(1, x, g, &e);
      } catch (const std::runtime_error& error) {
        if (std::string(error.what()) == "device lost") ++errors;
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(errors.load(), 3);  // all three waited for one call, which failed
  members.resize(1);            // the others leave: the next call waits for nobody
  const double x[3] = {5.0, 0.0, 0.0};
  double g[3], e = 0.0;
  members[0]->evaluate(1, x, g, &e);
  EXPECT_EQ(e, 5.0);
  EXPECT_THROW(SharedBatchedPotential(failing, {0, std::chrono::seconds(1)}),
               std::invalid_argument);
}

// A batched potential with host arrays of its own (as a device potential's page-locked
// staging): the shared calls assemble their batch there and pass those arrays, so no other copy
// is made; the answers are the potential's bits. A call larger than maxBatch is split and goes
// through the shared potential's own arrays.
class WithHostArrays : public BatchedPotential {
 public:
  explicit WithHostArrays(std::size_t atoms) : m_lj(atoms, 1) {}
  std::size_t dimension() const override { return m_lj.dimension(); }
  std::string name() const override { return "with host arrays"; }
  HostArrays hostArrays(std::size_t batch) override {
    asked.push_back(batch);
    if (m_x.size() < batch * dimension()) {
      m_x.resize(batch * dimension());
      m_g.resize(batch * dimension());
      m_energy.resize(batch);
    }
    return {m_x.data(), m_g.data(), m_energy.data()};
  }
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override {
    (x == m_x.data() && g == m_g.data() && energy == m_energy.data() ? inPlace : copied) += 1;
    m_lj.energyGradient(batch, x, g, energy, active);
  }
  int inPlace = 0, copied = 0;
  std::vector<std::size_t> asked;  // the batches hostArrays was asked for

 private:
  BatchedLennardJones m_lj;
  std::vector<double> m_x, m_g, m_energy;
};

TEST(SharedBatchedPotential, CallsAssembleTheirBatchInThePotentialsHostArrays) {
  const std::size_t atoms = 7, n = 3 * atoms;
  WithHostArrays potential(atoms);
  BatchedLennardJones reference(atoms, 1);
  const auto x0 = starts(6, atoms);
  std::vector<double> x;
  for (const auto& s : x0) x.insert(x.end(), s.begin(), s.end());
  std::vector<double> g(6 * n), e(6);
  reference.energyGradient(6, x.data(), g.data(), e.data(), nullptr);
  for (const std::size_t maxBatch : {8, 4}) {
    SharedBatchedPotential shared(potential, {maxBatch, std::chrono::seconds(1)});
    SharedBatchedPotential::Member member(shared);
    std::vector<double> gm(6 * n, -1.0), em(6, -1.0);
    member.evaluate(6, x.data(), gm.data(), em.data());
    EXPECT_EQ(gm, g) << "maxBatch " << maxBatch;
    EXPECT_EQ(em, e) << "maxBatch " << maxBatch;
  }
  EXPECT_EQ(potential.inPlace, 1);  // 6 structures in one call of at most 8
  EXPECT_EQ(potential.copied, 2);   // 4 + 2 in calls of at most 4
  // The split call asks for no arrays it would not use.
  EXPECT_EQ(potential.asked, std::vector<std::size_t>{6});
}

}  // namespace
}  // namespace landscape
