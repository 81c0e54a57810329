// The graph transformation (landscape/network/GraphTransformation) against independent answers:
// pele's analytic cases (pele-python/pele, pele/rates/tests: tests/data/kinetics/README.md), a
// dense linear-algebra solution of the committor and first-passage equations on random networks,
// closed forms for an ill-conditioned birth-death chain whose rates span 1e-12 .. 1e-2, the
// LJ38 example database at T = 0.1 (dense solution again), the LJ38 networks at low temperatures
// (kT = 0.002 .. 0.1) against an arbitrary-precision dense solution (tools/checks/ngt_reference.py,
// numbers in tests/data/kinetics/lj38_low_temperature.tsv), and PATHSAMPLE's own NGT output on its
// 9-community kinetics-only network (tests/data/kinetics/9comm).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cfloat>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
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

// ---- low temperatures: the arbitrary-precision reference --------------------------------------

/// A PATHSAMPLE folder's min.data, ts.data, min.A and min.B (no points needed).
StoredTransitionNetwork kineticsOnlyNetwork(const std::string& dir) {
  StoredTransitionNetwork n;
  n.minima = readMinData(dir + "/min.data");
  n.transitionStates = readTsData(dir + "/ts.data");
  n.setA = readEndpointSet(dir + "/min.A", n.minima.size());
  n.setB = readEndpointSet(dir + "/min.B", n.minima.size());
  return n;
}

/// (network, kT) -> quantity -> ln value, from tests/data/kinetics/lj38_low_temperature.tsv.
std::map<std::pair<std::string, std::string>, std::map<std::string, double>> lowTemperatureTable(
    const std::string& path) {
  std::map<std::pair<std::string, std::string>, std::map<std::string, double>> table;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string network, kT, quantity, value;
    fields >> network >> kT >> quantity >> value;
    // strtod, not stod: ln q of a committor within 1e-6000 of 1 underflows to 0, as it should.
    table[{network, kT}][quantity] =
        value == "-inf" ? -HUGE_VAL : std::strtod(value.c_str(), nullptr);
  }
  return table;
}

void expectLogRates(const SetToSetRates& r, const std::map<std::string, double>& ref,
                    const std::string& direction, const std::string& where) {
  // 1e-9 in the logarithm is 1e-9 relative in the rate; the log-space transformation agrees with
  // the 60+ digit reference to about 1e-12 (rounding of ln values of magnitude up to 2600).
  const double tolerance = 1e-9;
  EXPECT_NEAR(r.logK, ref.at("lnk_" + direction), tolerance) << where;
  EXPECT_NEAR(r.logKSS, ref.at("lnkSS_" + direction), tolerance) << where;
  EXPECT_NEAR(r.logKNSS, ref.at("lnkNSS_" + direction), tolerance) << where;
  EXPECT_NEAR(r.logMeanFirstPassageTime, ref.at("lnMFPT_" + direction), tolerance) << where;
  const bool inRange = ref.at("lnk_" + direction) > std::log(DBL_MIN) + 1.0 &&
                       ref.at("lnMFPT_" + direction) < std::log(DBL_MAX) - 1.0 &&
                       ref.at("lnkSS_" + direction) > std::log(DBL_MIN) + 1.0 &&
                       ref.at("lnkNSS_" + direction) > std::log(DBL_MIN) + 1.0;
  EXPECT_EQ(r.representable(), inRange) << where;
  for (double v : {r.k, r.kSS, r.kNSS, r.meanFirstPassageTime})
    EXPECT_FALSE(std::isnan(v)) << where;
  if (inRange) {
    EXPECT_NEAR(r.k / std::exp(ref.at("lnk_" + direction)), 1.0, tolerance) << where;
    EXPECT_NEAR(r.kSS / std::exp(ref.at("lnkSS_" + direction)), 1.0, tolerance) << where;
    EXPECT_NEAR(r.kNSS / std::exp(ref.at("lnkNSS_" + direction)), 1.0, tolerance) << where;
  } else {
    EXPECT_EQ(r.k, 0.0) << where;  // ln k < -708: below double precision, the log carries it
  }
}

TEST(GraphTransformation, Lj38AtLowTemperaturesMatchesArbitraryPrecisionReference) {
  const auto tablePath = testDataPath("kinetics/lj38_low_temperature.tsv");
  if (!tablePath) GTEST_SKIP() << "tests/data/kinetics/lj38_low_temperature.tsv missing";
  const auto table = lowTemperatureTable(*tablePath);
  ASSERT_EQ(table.size(), 10u);
  for (const auto& [key, ref] : table) {
    const auto& [folder, kTText] = key;
    const std::string where = folder + " at kT = " + kTText;
    const StoredTransitionNetwork network =
        kineticsOnlyNetwork(testDataRoot() + "/lj38/pathsample-untrap/" + folder);
    const GraphTransformationResult r =
        graphTransformationRates(harmonicRateGraph(network, std::stod(kTText)), network.setA,
                                 network.setB);
    expectLogRates(r.aFromB, ref, "AB", where + ", A<-B");
    expectLogRates(r.bFromA, ref, "BA", where + ", B<-A");
    // Committors to A and to B on every connected minimum, relative where double holds them.
    int compared = 0;
    for (int x = 0; x < static_cast<int>(network.minima.size()); ++x) {
      const auto qa = ref.find("lnqA_" + std::to_string(x + 1));
      if (qa == ref.end()) {
        EXPECT_TRUE(std::isnan(r.committorA[x])) << where << ", minimum " << x + 1;
        continue;
      }
      const double lnqB = ref.at("lnqB_" + std::to_string(x + 1));
      for (auto [value, lnq] : {std::pair{r.committorA[x], qa->second}, {r.committorB[x], lnqB}}) {
        if (lnq > std::log(DBL_MIN)) {
          EXPECT_NEAR(std::log(value), lnq, 1e-9) << where << ", minimum " << x + 1;
          ++compared;
        } else {
          EXPECT_LE(value, DBL_MIN) << where << ", minimum " << x + 1;
        }
      }
    }
    EXPECT_GE(compared, 12) << where;
  }
}

// ---- PATHSAMPLE's own NGT output -------------------------------------------------------------

/// The numbers of one line of an NGT.rates file (T, then rates and times).
std::vector<double> ratesFileLine(const std::string& path) {
  std::ifstream in(path);
  std::vector<double> values;
  double v;
  while (in >> v) values.push_back(v);
  return values;
}

std::vector<double> columnFile(const std::string& path) {
  return ratesFileLine(path);  // one G20.10 number per line
}

TEST(GraphTransformation, ReproducesPathsampleNgtOnNineCommunityNetwork) {
  // wales-group/examples Kinetics: 994 minima, 4320 transition states, A = minimum 144, B =
  // minimum 4, T = 1 (pathdata: NGT 0 T, so PATHSAMPLE computes k, kSS and kNSS).
  const auto minData = testDataPath("kinetics/9comm/min.data");
  if (!minData) GTEST_SKIP() << "tests/data/kinetics/9comm missing";
  const std::string dir = testDataRoot() + "/kinetics/9comm";
  const StoredTransitionNetwork network = kineticsOnlyNetwork(dir);
  ASSERT_EQ(network.minima.size(), 994u);
  ASSERT_EQ(network.setA, std::vector<int>{143});
  ASSERT_EQ(network.setB, std::vector<int>{3});
  const GraphTransformationResult r =
      graphTransformationRates(harmonicRateGraph(network, 1.0), network.setA, network.setB);
  // NGT.rates.kSS and .kNSS: T, k(A<-B), k(B<-A); NGT.rates.new: T, k(A<-B), k(B<-A), MFPT(A<-B),
  // MFPT(B<-A). PATHSAMPLE prints 10 significant digits.
  const std::vector<double> kss = ratesFileLine(dir + "/expected_output/NGT.rates.kSS");
  const std::vector<double> knss = ratesFileLine(dir + "/expected_output/NGT.rates.kNSS");
  const std::vector<double> k = ratesFileLine(dir + "/expected_output/NGT.rates.new");
  ASSERT_EQ(kss.size(), 3u);
  ASSERT_EQ(knss.size(), 3u);
  ASSERT_EQ(k.size(), 5u);
  const double tolerance = 1e-6;
  expectRelative(r.aFromB.kSS, kss[1], tolerance, "kSS(A<-B)");
  expectRelative(r.bFromA.kSS, kss[2], tolerance, "kSS(B<-A)");
  expectRelative(r.aFromB.kNSS, knss[1], tolerance, "kNSS(A<-B)");
  expectRelative(r.bFromA.kNSS, knss[2], tolerance, "kNSS(B<-A)");
  expectRelative(r.aFromB.k, k[1], tolerance, "k(A<-B)");
  expectRelative(r.bFromA.k, k[2], tolerance, "k(B<-A)");
  expectRelative(r.aFromB.meanFirstPassageTime, k[3], tolerance, "MFPT(A<-B)");
  expectRelative(r.bFromA.meanFirstPassageTime, k[4], tolerance, "MFPT(B<-A)");
  // commit.ngt.AB: 1 - P_Ba on A, P_Ab on B, 0 elsewhere; commit.ngt.BA: P_Ba on A, 1 - P_Ab on B.
  const std::vector<double> ab = columnFile(dir + "/expected_output/commit.ngt.AB");
  const std::vector<double> ba = columnFile(dir + "/expected_output/commit.ngt.BA");
  ASSERT_EQ(ab.size(), network.minima.size());
  ASSERT_EQ(ba.size(), network.minima.size());
  const int a = network.setA[0], b = network.setB[0];
  EXPECT_NEAR(1.0 - r.otherSetBeforeReturn[a], ab[a], 1e-9);
  EXPECT_NEAR(r.otherSetBeforeReturn[a] / ba[a], 1.0, tolerance);  // 2.931563673e-08
  EXPECT_NEAR(r.otherSetBeforeReturn[b] / ab[b], 1.0, tolerance);  // 0.4067542180
  EXPECT_NEAR(1.0 - r.otherSetBeforeReturn[b], ba[b], 1e-9);
  for (std::size_t x = 0; x < ab.size(); ++x) {
    if (static_cast<int>(x) == a || static_cast<int>(x) == b) continue;
    EXPECT_EQ(ab[x], 0.0) << x;  // PATHSAMPLE's NGT writes end-point values only
    EXPECT_EQ(ba[x], 0.0) << x;
    EXPECT_TRUE(std::isnan(r.otherSetBeforeReturn[x])) << x;
  }
  // PATHSAMPLE writes no committors for the intermediate minima here; ours solve the committor
  // equations q_x = sum_y k(x -> y) q_y / sum_y k(x -> y), and the committors to A and B add to 1.
  EXPECT_TRUE(r.aFromB.representable());
  EXPECT_TRUE(r.bFromA.representable());
  EXPECT_EQ(r.committorA[a], 1.0);
  EXPECT_EQ(r.committorB[b], 1.0);
  const RateGraph graph = harmonicRateGraph(network, 1.0);
  std::vector<double> flux(network.minima.size(), 0.0), total(network.minima.size(), 0.0);
  for (const RateEdge& e : graph.edges) {
    if (e.from == e.to) continue;
    flux[e.from] += std::exp(e.logRate) * r.committorA[e.to];
    total[e.from] += std::exp(e.logRate);
  }
  for (std::size_t x = 0; x < network.minima.size(); ++x) {
    if (std::isnan(r.committorA[x])) continue;
    EXPECT_NEAR(r.committorA[x] + r.committorB[x], 1.0, 1e-12) << x;
    if (static_cast<int>(x) != a && static_cast<int>(x) != b)
      EXPECT_NEAR(flux[x] / total[x], r.committorA[x], 1e-12) << x;
  }
  std::printf("9comm, T = 1: %d minima connected; kSS(A<-B) = %.10g, kNSS(A<-B) = %.10g, "
              "kSS(B<-A) = %.10g, kNSS(B<-A) = %.10g\n",
              r.connectedNodes, r.aFromB.kSS, r.aFromB.kNSS, r.bFromA.kSS, r.bFromA.kNSS);
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
