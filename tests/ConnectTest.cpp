// Connect runs (OPTIM's NEWCONNECT with Dijkstra) on an in-memory transition network: the network's
// bookkeeping, the Dijkstra choice of pairs, Mueller-Brown's two-step path, LJ7, and (slow) the
// LJ38 example of tests/data/lj38/optim.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/geometry/AlignmentTwin.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/minimisation/NumericalHessian.h"
#include "landscape/minimisation/ParallelLbfgs.h"
#include "landscape/network/TransitionNetwork.h"
#include "landscape/paths/Connect.h"
#include "potentials/LennardJones.h"
#include "potentials/PerStructureBatchedPotential.h"
#include "tests/Lj7Structures.h"
#include "tests/ModelSurfaces.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

TransitionNetworkParams planeNetwork() {
  TransitionNetworkParams p;
  p.alignStructures = false;
  p.geometryTolerance = 0.01;
  return p;
}

TEST(TransitionNetwork, DuplicatesNeedEqualEnergyAndGeometry) {
  TransitionNetwork net(planeNetwork());
  EXPECT_TRUE(net.addMinimum({0.0, 0.0}, -1.0).isNew);
  const TransitionNetwork::Added same = net.addMinimum({0.005, 0.0}, -1.0 + 1e-8);
  EXPECT_FALSE(same.isNew);
  EXPECT_EQ(same.index, 0);
  EXPECT_TRUE(net.addMinimum({0.5, 0.0}, -1.0).isNew);  // same energy, elsewhere
  EXPECT_TRUE(net.addMinimum({0.0, 0.0}, -2.0).isNew);  // same place, other energy
  EXPECT_EQ(net.minima().size(), 3u);
  EXPECT_NEAR(net.distance(0, 1), 0.5, 1e-15);
  EXPECT_THROW(net.addMinimum({1.0, 2.0, 3.0}, 0.0), std::invalid_argument);
  EXPECT_THROW(net.addTransitionState({0.2, 0.0}, 0.0, -1.0, 0, 7), std::invalid_argument);
}

TEST(TransitionNetwork, LennardJonesDuplicatesAreFoundAfterRotationAndPermutation) {
  TransitionNetwork net;
  const std::vector<double> pbp = lj7PentagonalBipyramid();
  std::vector<double> moved = pbp;
  std::swap(moved[0], moved[3]);
  std::swap(moved[1], moved[4]);
  std::swap(moved[2], moved[5]);
  for (std::size_t i = 0; i < moved.size(); i += 3) {
    const double y = moved[i + 1], z = moved[i + 2];
    moved[i + 1] = -z + 1.0;
    moved[i + 2] = y;
  }
  EXPECT_TRUE(net.addMinimum(pbp, -16.505384).isNew);
  EXPECT_FALSE(net.addMinimum(moved, -16.505384).isNew);
  EXPECT_TRUE(net.addMinimum(lj7CappedOctahedron(), -15.935043).isNew);
}

TEST(TransitionNetwork, PathsFollowTransitionStates) {
  TransitionNetwork net(planeNetwork());
  for (int i = 0; i < 5; ++i) net.addMinimum({static_cast<double>(i), 0.0}, -i * 1.0);
  EXPECT_FALSE(net.connected(0, 3));
  net.addTransitionState({0.5, 0.0}, 1.0, -1.0, 0, 1);
  net.addTransitionState({1.5, 0.0}, 1.0, -1.0, 2, 1);
  net.addTransitionState({2.5, 0.0}, 1.0, -1.0, 2, 3);
  EXPECT_FALSE(net.addTransitionState({2.5, 0.0}, 1.0, -1.0, 2, 3).isNew);
  EXPECT_TRUE(net.connected(0, 3));
  EXPECT_FALSE(net.connected(0, 4));
  EXPECT_TRUE(net.directlyConnected(1, 2));
  EXPECT_FALSE(net.directlyConnected(0, 2));
  const std::vector<PathStep> path = net.path(0, 3);
  ASSERT_EQ(path.size(), 3u);
  EXPECT_EQ(path[0].from, 0);
  EXPECT_EQ(path[1].transitionState, 1);
  EXPECT_EQ(path[2].to, 3);
  EXPECT_TRUE(net.path(0, 4).empty());
}

// Known connections cost 0, missing ones distance^power, and tried-out pairs are excluded.
TEST(Connect, DijkstraPrefersKnownConnectionsAndSkipsTriedPairs) {
  TransitionNetwork net(planeNetwork());
  net.addMinimum({0.0, 0.0}, 0.0);   // 0 start
  net.addMinimum({10.0, 0.0}, 0.0);  // 1 finish
  net.addMinimum({4.0, 3.0}, -1.0);  // 2
  net.addMinimum({5.0, 0.0}, -2.0);  // 3, on the straight line
  ConnectParams p;
  const Connect connect(p);
  std::vector<int> tries(16, 0);
  // Straight line via 3 (5 + 5) beats via 2 (5 + sqrt(45)) and equals the direct link (10);
  // with power 2 the two short links win clearly.
  ConnectParams squared;
  squared.distancePower = 2.0;
  EXPECT_EQ(Connect(squared).shortestPath(net, 0, 1, tries), (std::vector<int>{0, 3, 1}));
  // A known transition state 0-2 makes that link free: via 2 now costs sqrt(45) = 6.7 < 10.
  net.addTransitionState({2.0, 1.5}, 1.0, -1.0, 0, 2);
  EXPECT_EQ(connect.shortestPath(net, 0, 1, tries), (std::vector<int>{0, 2, 1}));
  // Once 2-1 has been tried, the next best avoids it.
  tries[2 * 4 + 1] = tries[1 * 4 + 2] = 1;
  const std::vector<int> next = connect.shortestPath(net, 0, 1, tries);
  ASSERT_FALSE(next.empty());
  for (std::size_t k = 0; k + 1 < next.size(); ++k) {
    EXPECT_FALSE((next[k] == 2 && next[k + 1] == 1)) << "excluded pair used";
  }
  // Everything into 1 tried: no path.
  for (int m : {0, 2, 3}) tries[m * 4 + 1] = tries[1 * 4 + m] = 1;
  EXPECT_TRUE(connect.shortestPath(net, 0, 1, tries).empty());
}

ConnectParams surfaceConnect() {
  ConnectParams p;
  p.firstImages = 0;
  p.firstIterations = 0;
  p.dneb.alignEndpoints = false;
  p.dneb.springConstant = 100.0;  // Mueller-Brown's energies are ~100x Lennard-Jones'
  p.dneb.rmsTolerance = 0.1;
  p.dneb.maxStepPerImage = 0.05;
  p.transitionStateSearch.rayleighRitz.removeRigidBodyModes = false;
  p.transitionStateSearch.maxUphillStep = 0.1;
  p.transitionStateSearch.initialUphillStep = 0.05;
  p.descent.pushoff = 0.01;
  p.descent.minimiser.maxStep = 0.05;
  return p;
}

TEST(Connect, MullerBrownMinimaAAndBThroughTheIntermediateMinimum) {
  MullerBrown f;
  LbfgsParams lp;
  lp.maxStep = 0.05;
  lp.rmsTolerance = 1e-9;
  std::vector<double> ma = {-0.55, 1.45}, mb = {0.62, 0.03};
  const double ea = Lbfgs(lp).minimize(f, ma).energy;
  const double eb = Lbfgs(lp).minimize(f, mb).energy;
  TransitionNetwork net(planeNetwork());
  net.addMinimum(ma, ea);
  net.addMinimum(mb, eb);
  std::vector<ConnectCycle> cycles;
  ConnectObserver observer;
  observer.onCycle = [&](const ConnectCycle& c) { cycles.push_back(c); };
  const ConnectResult r = Connect(surfaceConnect()).connect(f, net, 0, 1, observer);
  ASSERT_TRUE(r.connected()) << connectStatusName(r.status);
  ASSERT_EQ(r.path.size(), 2u);
  EXPECT_NEAR(net.transitionStates()[r.path[0].transitionState].energy, -40.665, 1e-3);
  EXPECT_NEAR(net.transitionStates()[r.path[1].transitionState].energy, -72.249, 1e-3);
  EXPECT_NEAR(net.minima()[r.path[0].to].energy, -80.767, 1e-3);
  for (const NetworkTransitionState& ts : net.transitionStates()) {
    EXPECT_EQ(hessianSpectrum(numericalHessian(f, ts.coordinates)).negativeCount(), 1);
  }
  EXPECT_EQ(r.cycles, 1);
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(cycles[0].missingLinks.size(), 1u);
}

TEST(Connect, Lj7PentagonalBipyramidToCappedOctahedron) {
  LennardJones lj(7);
  TransitionNetwork net;
  net.addMinimum(lj7PentagonalBipyramid(), -16.505384);
  net.addMinimum(lj7CappedOctahedron(), -15.935043);
  ConnectParams p;
  p.firstImages = 0;  // distance-scaled from the first run
  p.firstIterations = 0;
  const ConnectResult r = Connect(p).connect(lj, net, 0, 1);
  ASSERT_TRUE(r.connected()) << connectStatusName(r.status);
  ASSERT_FALSE(r.path.empty());
  EXPECT_EQ(r.path.front().from, 0);
  EXPECT_EQ(r.path.back().to, 1);
  for (const PathStep& step : r.path) {
    const NetworkTransitionState& ts = net.transitionStates()[step.transitionState];
    EXPECT_LT(ts.eigenvalue, 0.0);
    EXPECT_GT(ts.energy, net.minima()[step.from].energy);
    EXPECT_GT(ts.energy, net.minima()[step.to].energy);
  }
  // Every stationary point found is what it claims to be (finite-difference Hessian without the
  // six zero modes): one negative eigenvalue at each transition state, none at each minimum.
  for (const NetworkTransitionState& ts : net.transitionStates()) {
    EXPECT_EQ(
        hessianSpectrumWithoutRigidBodyModes(numericalHessian(lj, ts.coordinates), ts.coordinates)
            .negativeCount(),
        1);
  }
  for (const NetworkMinimum& m : net.minima()) {
    EXPECT_EQ(
        hessianSpectrumWithoutRigidBodyModes(numericalHessian(lj, m.coordinates), m.coordinates)
            .negativeCount(),
        0);
  }
}

// ParallelLbfgs that records the size of every batch it is handed.
class RecordingMinimiser : public ParallelLbfgs {
 public:
  using ParallelLbfgs::ParallelLbfgs;
  void minimise(std::size_t batch, double* x, LbfgsResult* results) override {
    batches.push_back(batch);
    ParallelLbfgs::minimise(batch, x, results);
  }
  std::vector<std::size_t> batches;
};

void expectSameNetwork(const TransitionNetwork& a, const TransitionNetwork& b) {
  ASSERT_EQ(a.minima().size(), b.minima().size());
  ASSERT_EQ(a.transitionStates().size(), b.transitionStates().size());
  for (std::size_t i = 0; i < a.minima().size(); ++i) {
    EXPECT_EQ(a.minima()[i].energy, b.minima()[i].energy) << "minimum " << i;
    EXPECT_EQ(a.minima()[i].coordinates, b.minima()[i].coordinates) << "minimum " << i;
  }
  for (std::size_t t = 0; t < a.transitionStates().size(); ++t) {
    const NetworkTransitionState &x = a.transitionStates()[t], &y = b.transitionStates()[t];
    EXPECT_EQ(x.energy, y.energy) << "transition state " << t;
    EXPECT_EQ(x.eigenvalue, y.eigenvalue) << "transition state " << t;
    EXPECT_EQ(x.coordinates, y.coordinates) << "transition state " << t;
    EXPECT_EQ(x.plusMinimum, y.plusMinimum);
    EXPECT_EQ(x.minusMinimum, y.minusMinimum);
  }
}

// Connects minima 0 and 1 of makeNetwork() on `single` without batching, then with the band
// images and the descents batched over each list of threads (one potential each): the same
// minima and transition states in the same order, bit for bit, and the same counts. Returns the
// largest descent batch (2 x the transition states of one band descended together).
std::size_t expectBatchedConnectIsTheSame(const ConnectParams& p,
                                          const std::function<TransitionNetwork()>& makeNetwork,
                                          Potential& single,
                                          const std::vector<std::vector<Potential*>>& threadLists) {
  TransitionNetwork alone = makeNetwork();
  const ConnectResult reference = Connect(p).connect(single, alone, 0, 1);
  EXPECT_TRUE(reference.connected());
  std::size_t largest = 0;
  for (const std::vector<Potential*>& copies : threadLists) {
    PerStructureBatchedPotential images(copies);
    RecordingMinimiser descents(copies, p.descent.minimiser);
    SCOPED_TRACE(images.name());
    TransitionNetwork batched = makeNetwork();
    const ConnectResult r = Connect(p).connect(single, batched, 0, 1, {}, {&images, &descents});
    expectSameNetwork(batched, alone);
    EXPECT_EQ(r.status, reference.status);
    EXPECT_EQ(r.cycles, reference.cycles);
    EXPECT_EQ(r.dnebRuns, reference.dnebRuns);
    EXPECT_EQ(r.transitionStateSearches, reference.transitionStateSearches);
    EXPECT_GE(r.gradientCalls, reference.gradientCalls);  // + any descent an earlier one made moot
    EXPECT_EQ(r.path.size(), reference.path.size());
    std::size_t sides = 0;
    for (std::size_t batch : descents.batches) {
      EXPECT_EQ(batch % 2, 0u);
      sides += batch;
      largest = std::max(largest, batch);
    }
    EXPECT_GE(sides, 2 * alone.transitionStates().size());
  }
  return largest;
}

// LJ7 (aligned, permuted clusters) and Mueller-Brown, whose first band holds both saddles, so that
// their four descents go through the minimiser as one batch.
TEST(Connect, BatchedEnginesAddTheSameNetworkBitForBit) {
  ConnectParams p;
  p.firstImages = 0;
  p.firstIterations = 0;
  LennardJones lj(7), a(7), b(7), c(7);
  const auto lj7 = [] {
    TransitionNetwork net;
    net.addMinimum(lj7PentagonalBipyramid(), -16.505384);
    net.addMinimum(lj7CappedOctahedron(), -15.935043);
    return net;
  };
  EXPECT_GE(expectBatchedConnectIsTheSame(p, lj7, lj, {{&a}, {&a, &b}, {&a, &b, &c}}), 2u);

  MullerBrown f, fa, fb;
  LbfgsParams lp;
  lp.maxStep = 0.05;
  lp.rmsTolerance = 1e-9;
  std::vector<double> ma = {-0.55, 1.45}, mb = {0.62, 0.03};
  const double ea = Lbfgs(lp).minimize(f, ma).energy;
  const double eb = Lbfgs(lp).minimize(f, mb).energy;
  const auto plane = [&] {
    TransitionNetwork net(planeNetwork());
    net.addMinimum(ma, ea);
    net.addMinimum(mb, eb);
    return net;
  };
  EXPECT_GE(expectBatchedConnectIsTheSame(surfaceConnect(), plane, f, {{&fa, &fb}}), 4u)
      << "no band had two transition states to descend together";
}

// LJ7 with each cycle's missing distances aligned in one call of the alignment twin (as growth's
// runs do on the device with --alignments whole): every distance the Dijkstra used is the twin's,
// within round-off of the host search's, so the run takes the same paths and adds the same
// network bit for bit.
TEST(Connect, DistancesAlignedInBatchesGiveTheSameNetwork) {
  ConnectParams p;
  p.firstImages = 0;
  p.firstIterations = 0;
  LennardJones lj(7);
  const auto lj7 = [] {
    TransitionNetwork net;
    net.addMinimum(lj7PentagonalBipyramid(), -16.505384);
    net.addMinimum(lj7CappedOctahedron(), -15.935043);
    return net;
  };
  TransitionNetwork alone = lj7();
  const ConnectResult reference = Connect(p).connect(lj, alone, 0, 1);
  ASSERT_TRUE(reference.connected());
  // The twin, counting what it is asked.
  class Counting : public BatchedAlignment {
   public:
    std::string name() const override { return "counting twin"; }
    void align(const AlignmentParams& params, const std::vector<AlignmentPair>& pairs,
               std::vector<AlignmentResult>& out) override {
      ++calls;
      asked += pairs.size();
      twin.align(params, pairs, out);
    }
    AlignmentTwin twin{7};
    int calls = 0;
    std::size_t asked = 0;
  } counting;
  AlignmentTwin& twin = counting.twin;
  ConnectBatching batching;
  batching.alignments = &counting;
  TransitionNetwork batched = lj7();
  const ConnectResult r = Connect(p).connect(lj, batched, 0, 1, {}, batching);
  expectSameNetwork(batched, alone);
  EXPECT_EQ(r.cycles, reference.cycles);
  EXPECT_EQ(r.dnebRuns, reference.dnebRuns);
  EXPECT_GE(counting.calls, 1);  // at most one call per cycle: the pairs the network lacked
  EXPECT_LE(counting.calls, r.cycles);
  EXPECT_GE(counting.asked, 1u);
  std::vector<AlignmentResult> out;
  twin.align(batched.params().alignment,
             {{&batched.minima()[0].coordinates, &batched.minima()[1].coordinates}}, out);
  EXPECT_EQ(batched.distance(0, 1), out[0].distance);
  EXPECT_NEAR(batched.distance(0, 1), alone.distance(0, 1), 1e-12);
}

// The odata POINTS block: "label x y z" lines after the POINTS keyword.
std::vector<double> readOdataPoints(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  bool points = false;
  std::vector<double> x;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string first;
    if (!(fields >> first)) continue;
    if (!points) {
      points = first == "POINTS";
      continue;
    }
    double v[3];
    if (!(fields >> v[0] >> v[1] >> v[2])) break;
    x.insert(x.end(), v, v + 3);
  }
  return x;
}

// The wales-group LJ38 example (tests/data/lj38/optim): global minimum (odata POINTS, Oh) to the
// second-lowest minimum (finish, C5v), with the example's odata settings. OPTIM needed 5 cycles
// and found 8 transition states on the path, the highest at -168.7591078.
TEST(SlowConnect, Lj38ExampleGlobalMinimumToSecondLowest) {
  const auto odata = testDataPath("lj38/optim/odata");
  const auto finishFile = testDataPath("lj38/optim/finish");
  if (!odata || !finishFile) GTEST_SKIP() << "tests/data/lj38/optim not found";
  LennardJones lj(38);
  std::vector<double> start = readOdataPoints(*odata);
  std::vector<double> finish = readCoordinates(*finishFile);
  ASSERT_EQ(start.size(), 114u);
  ASSERT_EQ(finish.size(), 114u);
  LbfgsParams tight;  // REOPTIMISEENDPOINTS, BFGSMIN 1e-6
  tight.rmsTolerance = 1e-6;
  tight.maxIterations = 5000;
  tight.maxStep = 0.2;
  tight.historySize = 10;
  const double e0 = Lbfgs(tight).minimize(lj, start).energy;
  const double e1 = Lbfgs(tight).minimize(lj, finish).energy;
  EXPECT_NEAR(e0, -173.9284266, 1e-6);
  EXPECT_NEAR(e1, -173.2523784, 1e-6);

  TransitionNetworkParams np;  // EDIFFTOL 1e-6, GEOMDIFFTOL 0.2
  TransitionNetwork net(np);
  net.addMinimum(start, e0);
  net.addMinimum(finish, e1);
  ConnectParams p;  // NEWCONNECT 100 1 20.0 20.0 30, NEWNEB 50 500 0.025, NEBK 10, DIJKSTRA 1
  p.transitionStateSearch.rayleighRitz.lbfgs.maxIterations = 50;  // BFGSTS 50 3 25 0.0001
  p.transitionStateSearch.rayleighRitz.lbfgs.rmsTolerance = 1e-4;
  p.transitionStateSearch.tangentIterationsBefore = 3;
  p.transitionStateSearch.tangentIterationsAfter = 25;
  p.transitionStateSearch.maxIterations = 200;      // STEPS 200
  p.transitionStateSearch.initialUphillStep = 0.1;  // MAXSTEP 0.1, MAXMAX 0.2, TRAD 0.2
  p.transitionStateSearch.maxUphillStep = 0.2;
  p.transitionStateSearch.trustRatio = 0.2;
  p.descent.pushoff = 0.02;  // PUSHOFF 0.02
  ConnectObserver observer;
  observer.onCycle = [](const ConnectCycle& c) {
    std::cout << "cycle " << c.cycle << ": " << c.minima << " minima, " << c.transitionStates
              << " ts; missing links";
    for (std::size_t k = 0; k < c.missingLinks.size(); ++k) {
      std::cout << " " << c.missingLinks[k].first + 1 << "-" << c.missingLinks[k].second + 1 << " ("
                << c.distances[k] << ")";
    }
    std::cout << "\n";
  };
  observer.onAttempt = [](const ConnectAttempt& a) {
    std::cout << "  DNEB " << a.from + 1 << "-" << a.to + 1 << ": " << a.images << " images, "
              << a.iterations << "/" << a.iterationLimit << " iterations, RMS " << a.dnebRms << ", "
              << a.candidates << " candidates, " << a.convergedSearches << " converged, "
              << a.newTransitionStates << " new ts, " << a.newMinima << " new minima\n";
  };
  const ConnectResult r = Connect(p).connect(lj, net, 0, 1, observer);
  ASSERT_TRUE(r.connected()) << connectStatusName(r.status) << " after " << r.cycles << " cycles";
  double highest = -1e300;
  std::cout << std::setprecision(10);
  for (const PathStep& step : r.path) {
    const NetworkTransitionState& ts = net.transitionStates()[step.transitionState];
    highest = std::max(highest, ts.energy);
    std::cout << "  " << net.minima()[step.from].energy << " -> ts " << ts.energy << " -> "
              << net.minima()[step.to].energy << "\n";
  }
  std::cout << "LJ38 connect: " << r.cycles << " cycles, " << r.path.size()
            << " transition states on the path, highest " << highest << " (OPTIM: 5 cycles, 8, "
            << "-168.7591078); " << net.minima().size() << " minima and "
            << net.transitionStates().size() << " transition states known, " << r.dnebRuns
            << " DNEB runs, " << r.transitionStateSearches << " TS searches, " << r.gradientCalls
            << " gradient calls\n";
  EXPECT_LT(highest, -168.0);
  for (const PathStep& step : r.path) {
    const NetworkTransitionState& ts = net.transitionStates()[step.transitionState];
    EXPECT_EQ(
        hessianSpectrumWithoutRigidBodyModes(numericalHessian(lj, ts.coordinates), ts.coordinates)
            .negativeCount(),
        1)
        << "transition state " << step.transitionState;
  }
}

}  // namespace
}  // namespace landscape
