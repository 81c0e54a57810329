// The graph transformation (landscape/network/GraphTransformation) against independent answers:
// pele's analytic cases (pele-python/pele, pele/rates/tests: tests/data/kinetics/README.md), a
// dense linear-algebra solution of the committor and first-passage equations on random networks,
// closed forms for an ill-conditioned birth-death chain whose rates span 1e-12 .. 1e-2, and the
// LJ38 example database at T = 0.1 (dense solution again).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <vector>

#include "landscape/formats/PathsampleExport.h"
#include "landscape/network/GraphTransformation.h"
#include "landscape/network/HarmonicRates.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

using Matrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
using Vector = Eigen::Matrix<long double, Eigen::Dynamic, 1>;

// ---- dense reference -------------------------------------------------------------------------

struct DenseRates {
  long double k = 0, kSS = 0, kNSS = 0;
  std::vector<long double> committorA;  // hit A before B
};

Matrix rateMatrix(const RateGraph& graph) {
  Matrix k = Matrix::Zero(graph.nodes, graph.nodes);
  for (const RateEdge& e : graph.edges) {
    if (e.from != e.to) k(e.from, e.to) += std::exp(static_cast<long double>(e.logRate));
  }
  return k;
}

/// Solves sum_j k_ij (x_j - x_i) = -source_i on the nodes where `free` holds, x = fixed elsewhere.
std::vector<long double> solveGenerator(const Matrix& k, const std::vector<bool>& free,
                                        const std::vector<long double>& fixed, long double source) {
  const int n = static_cast<int>(k.rows());
  std::vector<int> index(n, -1);
  int m = 0;
  for (int i = 0; i < n; ++i)
    if (free[i]) index[i] = m++;
  Matrix a = Matrix::Zero(m, m);
  Vector rhs = Vector::Constant(m, -source);
  for (int i = 0; i < n; ++i) {
    if (!free[i]) continue;
    for (int j = 0; j < n; ++j) {
      if (j == i || k(i, j) == 0) continue;
      a(index[i], index[i]) -= k(i, j);
      if (free[j]) a(index[i], index[j]) += k(i, j);
      else rhs(index[i]) -= k(i, j) * fixed[j];
    }
  }
  const Vector x = a.fullPivLu().solve(rhs);
  std::vector<long double> out = fixed;
  for (int i = 0; i < n; ++i)
    if (free[i]) out[i] = x(index[i]);
  return out;
}

/// Rates from `source` into `target` by dense linear algebra (every node connected).
DenseRates denseRates(const RateGraph& graph, const std::vector<int>& target,
                      const std::vector<int>& source) {
  const int n = graph.nodes;
  const Matrix k = rateMatrix(graph);
  std::vector<bool> inT(n, false), inS(n, false);
  for (int x : target) inT[x] = true;
  for (int x : source) inS[x] = true;
  std::vector<bool> intermediate(n), notTarget(n);
  std::vector<long double> boundary(n, 0);
  for (int i = 0; i < n; ++i) {
    intermediate[i] = !inT[i] && !inS[i];
    notTarget[i] = !inT[i];
    boundary[i] = inT[i] ? 1 : 0;
  }
  DenseRates r;
  r.committorA = solveGenerator(k, intermediate, boundary, 0);
  const std::vector<long double> passage = solveGenerator(k, notTarget, std::vector<long double>(n, 0), 1);
  const std::vector<long double> exitTime = solveGenerator(k, intermediate, std::vector<long double>(n, 0), 1);
  long double logNorm = 0, total = 0;
  for (int s : source) total += std::exp(static_cast<long double>(graph.logEquilibrium.empty() ? 0 : graph.logEquilibrium[s]));
  logNorm = std::log(total);
  for (int s : source) {
    const long double w = std::exp((graph.logEquilibrium.empty() ? 0 : graph.logEquilibrium[s]) - logNorm);
    long double escape = 0, toTarget = 0, afterExit = 0;
    for (int j = 0; j < n; ++j) {
      if (j == s) continue;
      escape += k(s, j);
      toTarget += k(s, j) * (inS[j] ? 0 : r.committorA[j]);
      afterExit += k(s, j) * exitTime[j];
    }
    const long double commit = toTarget / escape;
    const long double renormalisedTau = (1 + afterExit) / escape;
    r.kSS += w * commit * escape;
    r.kNSS += w * commit / renormalisedTau;
    r.k += w / passage[s];
  }
  return r;
}

void expectRelative(double value, long double reference, double tolerance, const char* what) {
  EXPECT_NEAR(value / static_cast<double>(reference), 1.0, tolerance)
      << what << ": " << value << " vs " << static_cast<double>(reference);
}

// ---- pele's analytic cases -------------------------------------------------------------------

TEST(GraphTransformation, PeleThreeNodesAllRatesOne) {
  for (auto [i, j] : {std::pair{0, 1}, {1, 2}, {0, 2}}) {
    RateGraph graph;
    graph.nodes = 3;
    for (int x = 0; x < 3; ++x)
      for (int y = 0; y < 3; ++y)
        if (x != y) graph.edges.push_back({x, y, 0.0});
    const GraphTransformationResult r = graphTransformationRates(graph, {i}, {j});
    // pele: rate_AB (our k(B<-A)) = 1, rate_AB_SS = 1.5; the same both ways by symmetry.
    EXPECT_NEAR(r.bFromA.k, 1.0, 1e-12);
    EXPECT_NEAR(r.bFromA.kSS, 1.5, 1e-12);
    EXPECT_NEAR(r.aFromB.k, 1.0, 1e-12);
    EXPECT_NEAR(r.aFromB.kSS, 1.5, 1e-12);
    const int third = 3 - i - j;
    EXPECT_NEAR(r.committorA[third], 0.5, 1e-12);  // pele: committors[2] = 0.5
  }
}

TEST(GraphTransformation, PeleTenNodesCompleteGraph) {
  RateGraph graph;
  graph.nodes = 10;
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j)
      if (i != j) graph.edges.push_back({i, j, std::log(double(i + j) / (i + 1))});
  const GraphTransformationResult r = graphTransformationRates(graph, {0, 1, 2}, {3, 4, 5});
  // pele's rate_AB is from A to B: our bFromA (tests/data/kinetics/README.md).
  EXPECT_NEAR(r.bFromA.k, 5.1013138820442565, 1e-9);
  EXPECT_NEAR(r.aFromB.k, 3.0, 1e-9);
  EXPECT_NEAR(r.bFromA.kSS, 19.933950145409426, 1e-9);
  EXPECT_NEAR(r.aFromB.kSS, 6.970856553435547, 1e-9);
}

// ---- dense cross-check -----------------------------------------------------------------------

RateGraph randomNetwork(int nodes, int extraEdges, bool detailedBalance, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(-3.0, 3.0);
  RateGraph graph;
  graph.nodes = nodes;
  std::vector<double> energy(nodes);
  for (double& e : energy) e = uniform(random);
  if (detailedBalance) {
    for (int i = 0; i < nodes; ++i) graph.logEquilibrium.push_back(-energy[i]);
  }
  auto connect = [&](int a, int b) {
    if (detailedBalance) {
      const double barrier = std::max(energy[a], energy[b]) + 1.0 + std::abs(uniform(random));
      graph.edges.push_back({a, b, energy[a] - barrier});
      graph.edges.push_back({b, a, energy[b] - barrier});
    } else {
      graph.edges.push_back({a, b, uniform(random)});
      graph.edges.push_back({b, a, uniform(random)});
    }
  };
  for (int i = 1; i < nodes; ++i) connect(std::uniform_int_distribution<int>(0, i - 1)(random), i);
  for (int e = 0; e < extraEdges; ++e) {
    const int a = std::uniform_int_distribution<int>(0, nodes - 1)(random);
    const int b = std::uniform_int_distribution<int>(0, nodes - 1)(random);
    if (a != b) connect(a, b);  // repeated pairs: parallel transition states
  }
  return graph;
}

TEST(GraphTransformation, AgreesWithDenseLinearAlgebraOnRandomNetworks) {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const bool balanced = seed % 2 == 0;
    const RateGraph graph = randomNetwork(15, 20, balanced, seed);
    const std::vector<int> a = {0, 3}, b = {7, 11, 14};
    const GraphTransformationResult r = graphTransformationRates(graph, a, b);
    ASSERT_EQ(r.connectedNodes, 15);
    const DenseRates toA = denseRates(graph, a, b), toB = denseRates(graph, b, a);
    expectRelative(r.aFromB.k, toA.k, 1e-10, "k(A<-B)");
    expectRelative(r.aFromB.kSS, toA.kSS, 1e-10, "kSS(A<-B)");
    expectRelative(r.aFromB.kNSS, toA.kNSS, 1e-10, "kNSS(A<-B)");
    expectRelative(r.bFromA.k, toB.k, 1e-10, "k(B<-A)");
    expectRelative(r.bFromA.kSS, toB.kSS, 1e-10, "kSS(B<-A)");
    expectRelative(r.bFromA.kNSS, toB.kNSS, 1e-10, "kNSS(B<-A)");
    for (int x = 0; x < graph.nodes; ++x) {
      EXPECT_NEAR(r.committorA[x], static_cast<double>(toA.committorA[x]), 1e-11) << x;
    }
    if (balanced) {
      // With microscopic reversibility the reactive flux is the same both ways, so kSS obeys
      // detailed balance exactly; k and kNSS only when the sets are internally equilibrated
      // (PATHSAMPLE: "ratio should be one if SS applies").
      EXPECT_NEAR(r.detailedBalanceKSS(), 1.0, 1e-10);
    }
  }
}

// ---- ill-conditioned chain -------------------------------------------------------------------

TEST(GraphTransformation, IllConditionedChainMatchesClosedForms) {
  // Birth-death chain 0 - 1 - ... - n-1, A = {n-1}, B = {0}; rates log-uniform in 1e-12 .. 1e-2,
  // fast and slow side by side. Closed forms with positive terms only (long double) are the
  // reference: committor to A q_i = sum_{j<i} rho_j / sum_j rho_j, rho_j = prod_{m=1..j} mu_m /
  // lambda_m, and the first-passage time 0 -> n-1 is sum_i sum_{j<=i} (1/lambda_j) prod_{m=j+1..i}
  // mu_m / lambda_m (lambda = rate up, mu = rate down).
  const int n = 40;
  std::mt19937 random(2023);
  std::uniform_real_distribution<double> exponent(-12.0, -2.0);
  std::vector<long double> up(n), down(n);
  RateGraph graph;
  graph.nodes = n;
  for (int i = 0; i + 1 < n; ++i) {
    const double lu = exponent(random) * std::log(10.0), ld = exponent(random) * std::log(10.0);
    up[i] = std::exp(static_cast<long double>(lu));
    down[i + 1] = std::exp(static_cast<long double>(ld));
    graph.edges.push_back({i, i + 1, lu});
    graph.edges.push_back({i + 1, i, ld});
  }
  const GraphTransformationResult r = graphTransformationRates(graph, {n - 1}, {0});
  std::vector<long double> rho(n - 1, 1);
  for (int j = 1; j < n - 1; ++j) rho[j] = rho[j - 1] * down[j] / up[j];
  long double total = 0;
  for (long double v : rho) total += v;
  long double partial = 0;
  for (int i = 1; i < n - 1; ++i) {
    partial += rho[i - 1];
    EXPECT_NEAR(r.committorA[i] / static_cast<double>(partial / total), 1.0, 1e-10) << i;
  }
  long double passage = 0;
  for (int i = 0; i < n - 1; ++i) {
    long double product = 1;
    for (int j = i; j >= 0; --j) {
      passage += product / up[j];
      product *= down[j] / up[j];
    }
  }
  EXPECT_NEAR(r.aFromB.k * static_cast<double>(passage), 1.0, 1e-10);
  EXPECT_NEAR(r.aFromB.meanFirstPassageTime / static_cast<double>(passage), 1.0, 1e-10);
}

// ---- harmonic rates and the LJ38 example ---------------------------------------------------

TEST(HarmonicRates, SatisfyDetailedBalanceAndPathsampleFormula) {
  const double kT = 0.1;
  const double lnk = harmonicLogRate(-170.0, 520.0, 2, -169.0, 515.0, 1, kT);
  const double pi = 3.14159265358979323846;
  EXPECT_NEAR(lnk, std::log(2.0 / (2 * pi)) + 0.5 * (520.0 - 515.0) - 1.0 / kT, 1e-12);
  const double back = harmonicLogRate(-169.5, 518.0, 1, -169.0, 515.0, 1, kT);
  const double forwardFlux = harmonicLogOccupation(-170.0, 520.0, 2, kT) + lnk;
  const double backwardFlux = harmonicLogOccupation(-169.5, 518.0, 1, kT) + back;
  EXPECT_NEAR(forwardFlux, backwardFlux, 1e-9);
}

TEST(GraphTransformation, Lj38ExampleAtTemperatureOneTenth) {
  const auto minData = testDataPath("lj38/pathsample-untrap/input/min.data");
  if (!minData) GTEST_SKIP() << "tests/data/lj38/pathsample-untrap missing";
  const std::string dir = testDataRoot() + "/lj38/pathsample-untrap/input";
  const StoredTransitionNetwork network = readPathsampleFiles(dir, pathsampleAtomCount(dir));
  ASSERT_EQ(network.setA, std::vector<int>{1});
  ASSERT_EQ(network.setB, std::vector<int>{7});
  const RateGraph graph = harmonicRateGraph(network, 0.1);
  const GraphTransformationResult r = graphTransformationRates(graph, network.setA, network.setB);
  EXPECT_EQ(r.connectedNodes, 12);
  const DenseRates toA = denseRates(graph, network.setA, network.setB);
  const DenseRates toB = denseRates(graph, network.setB, network.setA);
  expectRelative(r.aFromB.k, toA.k, 1e-8, "k(A<-B)");
  expectRelative(r.aFromB.kSS, toA.kSS, 1e-8, "kSS(A<-B)");
  expectRelative(r.aFromB.kNSS, toA.kNSS, 1e-8, "kNSS(A<-B)");
  expectRelative(r.bFromA.k, toB.k, 1e-8, "k(B<-A)");
  EXPECT_NEAR(r.detailedBalanceKSS(), 1.0, 1e-8);
  // A single-minimum source: kNSS = P_A(b) / tau'_b is the inverse first-passage time, k.
  EXPECT_NEAR(r.aFromB.kNSS / r.aFromB.k, 1.0, 1e-10);
  RecordProperty("kAB", std::to_string(r.aFromB.k));
  std::printf("LJ38 example, T = 0.1: k(A<-B) = %.10g, k(B<-A) = %.10g, kSS(A<-B) = %.10g, "
              "kNSS(A<-B) = %.10g\n",
              r.aFromB.k, r.bFromA.k, r.aFromB.kSS, r.aFromB.kNSS);
}

TEST(GraphTransformation, RejectsBadSetsAndDisconnectedNetworks) {
  RateGraph graph;
  graph.nodes = 4;
  graph.edges = {{0, 1, 0.0}, {1, 0, 0.0}, {2, 3, 0.0}, {3, 2, 0.0}};
  EXPECT_THROW(graphTransformationRates(graph, {}, {1}), std::invalid_argument);
  EXPECT_THROW(graphTransformationRates(graph, {0}, {0}), std::invalid_argument);
  EXPECT_THROW(graphTransformationRates(graph, {0}, {9}), std::invalid_argument);
  EXPECT_THROW(graphTransformationRates(graph, {0}, {3}), std::runtime_error);
  const GraphTransformationResult r = graphTransformationRates(graph, {0}, {1});
  EXPECT_EQ(r.connectedNodes, 2);
  EXPECT_TRUE(std::isnan(r.committorA[2]));
  graph.edges.push_back({0, 1, std::nan("")});
  EXPECT_THROW(graphTransformationRates(graph, {0}, {1}), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
