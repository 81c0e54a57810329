// What the programs need from the library to search pair systems: random starts in a periodic box
// and coordinates wrapped into it (landscape/geometry/BoxGeometry.h), the basin-hopping hooks that
// replace the cluster's random start and AVOID distance, the translations as the only zero modes
// of a box (RigidBodyModes::translations, Characterisation and Rayleigh-Ritz with
// translationsOnly), species labels in XYZ and `lowest` files, database identity of pair
// potentials, and the programs' shared pair-system options (src/common/PairSystem.h).
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/formats/LowestFile.h"
#include "landscape/geometry/BoxGeometry.h"
#include "landscape/geometry/RigidBodyModes.h"
#include "landscape/minimisation/NumericalHessian.h"
#include "landscape/network/DatabaseCompatibility.h"
#include "landscape/paths/Characterisation.h"
#include "landscape/paths/RayleighRitz.h"
#include "landscape/search/BasinHopping.h"
#include "landscape/search/NewRestart.h"
#include "potentials/PairPotential.h"
#include "landscape/geometry/PairModelAlignment.h"
#include "src/common/PairSystem.h"
#include "tests/TempFile.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

PeriodicBox cube(double edge) {
  PeriodicBox box;
  box.length[0] = box.length[1] = box.length[2] = edge;
  return box;
}

double minimumImageDistance(const std::vector<double>& x, std::size_t i, std::size_t j,
                            const PeriodicBox& box) {
  double d[3] = {x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1], x[3 * i + 2] - x[3 * j + 2]};
  box.minimumImage(d);
  return std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

// The two minima of tests/data/ka64-connect and their model (README there).
constexpr double kKa64Edge = 3.7644;
PairModel ka64Model() {
  return kobAndersenModel(64, 1.8, PairCutoff::QuadraticSmoothed, cube(kKa64Edge));
}
std::vector<double> ka64Start() {
  const auto path = testDataPath("ka64-connect/start.xyz");
  if (!path) return {};
  return readCoordinates(*path);
}

// ---- BoxGeometry ----

TEST(BoxGeometry, RandomStructureFillsTheBoxAndKeepsItsSeparationAtTheMinimumImage) {
  // Kob-Andersen's density 1.2 with 256 atoms: the box of GMIN's LJPSHIFT comment.
  const PeriodicBox box = cube(5.975206);
  Random random(7);
  const std::vector<double> x = randomBoxStructure(256, box, 0.7, random);
  ASSERT_EQ(x.size(), 3u * 256);
  for (double v : x) {
    EXPECT_GE(v, 0.0);
    EXPECT_LT(v, 5.975206);
  }
  double closest = 1e9;
  for (std::size_t i = 0; i < 256; ++i)
    for (std::size_t j = i + 1; j < 256; ++j)
      closest = std::min(closest, minimumImageDistance(x, i, j, box));
  EXPECT_GE(closest, 0.7);
  Random again(7);
  EXPECT_EQ(randomBoxStructure(256, box, 0.7, again), x);  // the seed decides

  PeriodicBox slab = box;
  slab.length[2] = 0.0;
  EXPECT_THROW(randomBoxStructure(4, slab, 0.7, random), std::invalid_argument);
  Random dense(1);
  EXPECT_THROW(randomBoxStructure(100, cube(2.0), 0.9, dense), std::runtime_error);
}

TEST(BoxGeometry, WrappingIntoTheBoxKeepsEnergyAndGradient) {
  const PairModel model = kobAndersenModel(150, 2.5, PairCutoff::Shifted, cube(5.0));
  PairPotential potential(model);
  Random random(3);
  std::vector<double> x = randomBoxStructure(150, model.box, 0.8, random);
  // The whole structure moved by many box edges and a fraction, then some atoms by whole edges.
  for (std::size_t i = 0; i < x.size(); ++i) x[i] += (i % 3 == 0 ? 37.0 : -12.0) * 5.0 + 0.3;
  for (std::size_t a = 0; a < 150; a += 7) x[3 * a + 1] += 5.0 * static_cast<double>(a % 5);
  std::vector<double> g(x.size()), gw(x.size());
  const double e = potential.energyGradient(x.data(), g.data());
  std::vector<double> w = x;
  wrapIntoBox(w, model.box);
  for (double v : w) {
    EXPECT_GE(v, 0.0);
    EXPECT_LT(v, 5.0);
  }
  const double ew = potential.energyGradient(w.data(), gw.data());
  EXPECT_NEAR(ew, e, 1e-10 * std::abs(e));
  for (std::size_t k = 0; k < g.size(); ++k) EXPECT_NEAR(gw[k], g[k], 1e-9);
}

// ---- the basin-hopping hooks ----

TEST(BasinHoppingHooks, RandomStructureHookDrawsEveryStartFromTheChainsGenerator) {
  const PairModel model = kobAndersenModel(150, 2.5, PairCutoff::QuadraticSmoothed, cube(5.0));
  PairPotential potential(model);
  BasinHoppingParams p;
  p.steps = 3;
  p.centre = false;
  p.container = false;
  p.saveCount = 2;
  p.newRestartSteps = 1;  // reseed after every step without improvement: more random starts
  p.seed = 11;
  int drawn = 0;
  BasinHoppingHooks hooks;
  hooks.randomStructure = [&](Random& random) {
    ++drawn;
    return randomBoxStructure(150, model.box, 0.7, random);
  };
  BasinHopping search(potential, p, {}, hooks);
  const BasinHoppingResult r = search.run({});
  EXPECT_GE(drawn, 1);
  EXPECT_EQ(drawn, 1 + r.restarts);  // the start and every reseed, nothing else
  ASSERT_FALSE(r.lowest.empty());
  // A cluster start in an infinite container would not be finite; a box start has energies of a
  // dense liquid's inherent structures.
  EXPECT_LT(r.lowest.front().energy / 150.0, -6.0);
}

TEST(BasinHoppingHooks, AvoidMeasuresWithTheDistanceHook) {
  BasinHoppingParams p;
  p.newRestartSteps = 100;
  p.avoidDistance = 0.5;
  p.avoidMaxSaved = 5;
  p.energyDifference = 0.01;
  int calls = 0;
  // A distance that calls every pair identical: the taboo structure is found at once.
  NewRestart restart(p, [&](const std::vector<double>&, const std::vector<double>&) {
    ++calls;
    return 0.0;
  });
  const std::vector<double> a = {0, 0, 0, 1, 0, 0}, b = {5, 5, 5, 9, 9, 9};
  NewRestart::State s;
  s.best = s.previousBest = -1.0;
  s.bestCoords = s.previousBestCoords = a;
  s.tabooEnergies = {-2.0};
  s.tabooCoords = {a};
  s.tabooNext = 1;
  restart.restore(s);
  const NewRestart::Decision d = restart.afterQuench(1, -2.0, b);  // a new best: compared
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(d.reason, NewRestart::Reason::Taboo);
  // Without the hook the cluster distance of these far-apart structures is not 0.
  NewRestart plain(p);
  plain.restore(s);
  EXPECT_EQ(plain.afterQuench(1, -2.0, b).action, NewRestart::Action::None);
}

// ---- zero modes of a box ----

TEST(RigidBodyModes, TranslationsAloneAreThreeOrthonormalModes) {
  const RigidBodyModes t = RigidBodyModes::translations(12);
  ASSERT_EQ(t.count(), 3);
  const Eigen::MatrixXd gram = t.basis().transpose() * t.basis();
  EXPECT_LT((gram - Eigen::Matrix3d::Identity()).norm(), 1e-14);
  std::vector<double> v = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};  // a pure translation
  t.projectOut(v.data());
  for (double c : v) EXPECT_NEAR(c, 0.0, 1e-14);
  std::vector<double> rotation = {0, 1, 0, 0, -1, 0, 1, 0, 0, -1, 0, 0};  // about z, kept
  t.projectOut(rotation.data());
  EXPECT_NEAR(rotation[1], 1.0, 1e-14);
  EXPECT_THROW(RigidBodyModes::translations(10), std::invalid_argument);
}

TEST(Characterisation, InABoxOnlyTheTranslationsAreRemovedFromTheLogProduct) {
  const std::vector<double> x = ka64Start();
  if (x.empty()) GTEST_SKIP() << "tests/data/ka64-connect/start.xyz not found";
  PairPotential potential(ka64Model());
  CharacterisationParams params;
  params.translationsOnly = true;
  const StationaryPointProperties p = characterise(potential, x, params);
  EXPECT_EQ(p.pointGroupOrder, 1);
  ASSERT_EQ(p.hessianEigenvalues.size(), x.size());
  // A minimum in a box: three zero eigenvalues (the translations), every other one positive.
  int zero = 0;
  double logProduct = 0.0;
  for (double lambda : p.hessianEigenvalues) {
    if (std::abs(lambda) < 1e-4)
      ++zero;
    else {
      EXPECT_GT(lambda, 0.0);
      logProduct += std::log(lambda);
    }
  }
  EXPECT_EQ(zero, 3);
  EXPECT_NEAR(p.logProductOfPositiveEigenvalues, logProduct, 1e-6 * std::abs(logProduct));
  // Removing rotations too would drop three real modes: the cluster's log product differs.
  const StationaryPointProperties cluster = characterise(potential, x, {});
  EXPECT_GT(std::abs(cluster.logProductOfPositiveEigenvalues - logProduct), 1.0);
}

TEST(RayleighRitz, InABoxTheSmallestEigenvalueIsTheLowestNonTranslationalMode) {
  const std::vector<double> x = ka64Start();
  if (x.empty()) GTEST_SKIP() << "tests/data/ka64-connect/start.xyz not found";
  PairPotential potential(ka64Model());
  const HessianSpectrum full = hessianSpectrum(numericalHessian(potential, x));
  std::vector<double> vibrations;
  for (int k = 0; k < full.eigenvalues.size(); ++k)
    if (std::abs(full.eigenvalues[k]) > 1e-4) vibrations.push_back(full.eigenvalues[k]);
  ASSERT_EQ(vibrations.size(), x.size() - 3);
  RayleighRitzParams params;
  params.translationsOnly = true;
  params.lbfgs.maxIterations = 5000;
  params.lbfgs.rmsTolerance = 1e-6;
  params.eigenvalueTolerance = 1e-8;
  const RayleighRitzResult r =
      RayleighRitz(params).smallestEigenvector(potential, x, randomUnitVector(x.size(), 5));
  EXPECT_NEAR(r.eigenvalue, vibrations.front(), 1e-3 * std::abs(vibrations.front()) + 1e-4);
}

// ---- files ----

TEST(CoordinatesFile, XyzLabelsComeBackOnePerAtom) {
  const TempFile xyz("3\ncomment\nA 0 0 0\nB 1 0 0\nLA 0 1 0\n", ".xyz");
  std::vector<std::string> labels;
  EXPECT_EQ(readCoordinates(xyz.path(), &labels).size(), 9u);
  EXPECT_EQ(labels, (std::vector<std::string>{"A", "B", "LA"}));
  const TempFile bare("0 0 0\n1 0 0\n", ".coords");
  EXPECT_EQ(readCoordinates(bare.path(), &labels).size(), 6u);
  EXPECT_TRUE(labels.empty());
}

TEST(LowestFile, LabelledAtomsAreWrittenAsGiven) {
  StoredMinimum m;
  m.energy = -3.5;
  m.coordinates = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  m.firstFoundStep = 2;
  m.functionCalls = 10;
  const std::string text = formatLowestLabelled({m}, {"A", "A", "B"});
  EXPECT_NE(text.find("\nB          0.0000000000        1.0000000000"), std::string::npos) << text;
  const TempFile file(text);
  std::vector<std::string> labels;
  const std::vector<StoredMinimum> back = readLowestFile(file.path(), &labels);
  EXPECT_EQ(labels, (std::vector<std::string>{"A", "A", "B"}));
  EXPECT_EQ(back.at(0).coordinates, m.coordinates);
  EXPECT_THROW(formatLowestLabelled({m}, {"A", "B"}), std::invalid_argument);
  EXPECT_THROW(formatLowestLabelled({m}, {"A", "B", "C D"}), std::invalid_argument);
}

TEST(DatabaseCompatibility, PairPotentialsAreComparedByTheirDescription) {
  EXPECT_EQ(potentialIdentity("Morse rho 6 13 atoms (cpu)"), "Morse rho 6 13 atoms");
  EXPECT_EQ(potentialIdentity("tabulated pair 20 atoms, shifted at 2.5 (cuda)"),
            "tabulated pair 20 atoms, shifted at 2.5");
  DatabaseMetadata stored;
  stored.atoms = 13;
  stored.energyUnit = "reduced (epsilon)";
  stored.lengthUnit = "reduced (sigma)";
  stored.potential = "Lennard-Jones 13 atoms (cpu)";
  DatabaseMetadata run = stored;
  run.potential = PairPotential(morseModel(13, 6.0)).name();
  EXPECT_NE(databaseIncompatibility(stored, run), "");
  run.potential = PairPotential(lennardJonesModel(13)).name();  // the same physics as plain LJ
  EXPECT_EQ(databaseIncompatibility(stored, run), "");
  run.potential = PairPotential(kobAndersenModel(13, 2.5, PairCutoff::Shifted, {})).name();
  EXPECT_NE(databaseIncompatibility(stored, run), "");
}

// ---- the programs' pair system (src/common/PairSystem.h) ----

GivenOptions commandLine(const std::vector<std::pair<std::string, std::string>>& options) {
  GivenOptions given;
  for (const auto& [name, value] : options) given.add({name, value, "command line: --" + name});
  return given;
}

TEST(PairSystem, EachLawBuildsItsModel) {
  PairSystemConfig morse;
  morse.morseRho = 6.0;
  PairModel m = makePairModel(morse, 13);
  EXPECT_EQ(m.law, PairLaw::Morse);
  EXPECT_EQ(m.cutoff, PairCutoff::None);
  EXPECT_FALSE(m.box.periodic());

  PairSystemConfig ka;
  ka.kobAndersen = true;
  ka.box = {5.0};
  m = makePairModel(ka, 150);
  EXPECT_EQ(m.cutoff, PairCutoff::Shifted);  // as published
  EXPECT_DOUBLE_EQ(m.pair(0, 1).cutoff, 2.5 * 0.8);
  EXPECT_EQ(std::count(m.species.begin(), m.species.end(), 0), 120);
  EXPECT_DOUBLE_EQ(m.box.length[2], 5.0);

  PairSystemConfig blj;
  blj.binaryLj = std::array<double, 5>{10, 1.5, 0.5, 0.8, 0.88};
  blj.cutoff = 2.5;
  m = makePairModel(blj, 13);
  EXPECT_EQ(m.cutoff, PairCutoff::QuadraticSmoothed);  // GMIN's BLJCLUSTER
  EXPECT_EQ(m.species[9], 0);
  EXPECT_EQ(m.species[10], 1);
  blj.binaryLj->at(0) = 14;
  blj.origins["binary-lj"] = "data:2: BLJCLUSTER";
  try {
    makePairModel(blj, 13);
    FAIL() << "14 A atoms of 13 accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("data:2: BLJCLUSTER: ", 0), 0u) << e.what();
  }

  const TempFile table("# LJ\n1.0 0.0\n1.5 -0.320\n2.0 -0.0615\n2.5 -0.0163\n3.0 -0.0055\n",
                       ".table");
  PairSystemConfig tabulated;
  tabulated.tableFile = table.path();
  m = makePairModel(tabulated, 4);
  EXPECT_EQ(m.law, PairLaw::Tabulated);
  EXPECT_DOUBLE_EQ(m.pair(0, 0).cutoff, 3.0);  // the table's end
}

TEST(PairSystem, ResolveNamesWhereTheOffendingOptionCameFrom) {
  auto message = [](PairSystemConfig pair, const GivenOptions& given, const KeywordOrigins& k) {
    try {
      resolvePairSystem(pair, given, k);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  KeywordOrigins keywords;
  keywords["BLJCLUSTER"] = KeywordLine{"data", 3, "BLJCLUSTER", {}};
  keywords["PERIODIC"] = KeywordLine{"data", 5, "PERIODIC", {}};
  PairSystemConfig pair;
  pair.binaryLj = std::array<double, 5>{100, 1.5, 0.5, 0.8, 0.88};
  pair.cutoff = 2.5;
  pair.box = {4.0};
  const std::string tooLong = message(pair, {}, keywords);
  EXPECT_EQ(tooLong.rfind("data:3: BLJCLUSTER: the cutoff 2.5", 0), 0u) << tooLong;
  EXPECT_NE(tooLong.find("half the box edge 4 (data:5: PERIODIC)"), std::string::npos);
  // The command line's --box wins over the data file's PERIODIC, in the message too.
  const std::string fromCommandLine = message(pair, commandLine({{"box", "4"}}), keywords);
  EXPECT_NE(fromCommandLine.find("(command line: --box)"), std::string::npos) << fromCommandLine;

  pair.box = {6.0, 7.0};
  EXPECT_EQ(message(pair, {}, keywords).rfind("data:5: PERIODIC: expected one box edge", 0), 0u);
  pair.box = {6.0};
  pair.cutoff = 0.0;
  EXPECT_NE(message(pair, {}, keywords).find("needs a cutoff"), std::string::npos);
  PairSystemConfig two;
  two.morseRho = 6.0;
  two.kobAndersen = true;
  EXPECT_NE(message(two, commandLine({{"morse", "6"}, {"kob-andersen", "true"}}), {})
                .find("one pair law per run"),
            std::string::npos);
}

TEST(PairSystem, AlignmentPermutesWithinSpeciesAndKnowsTheBox) {
  const PairModel model = kobAndersenModel(10, 1.0, PairCutoff::Shifted, cube(3.0));
  const AlignmentParams a = pairAlignment(model, AlignmentParams{});
  EXPECT_DOUBLE_EQ(a.box.length[0], 3.0);
  ASSERT_EQ(a.permutationGroups.size(), 2u);
  EXPECT_EQ(a.permutationGroups[0].atoms.size(), 8u);
  EXPECT_EQ(a.permutationGroups[1].atoms, (std::vector<int>{8, 9}));
  // One B atom: it may not be exchanged with anything; a single A too: no permutations at all.
  const PairModel lone = binaryLennardJonesModel(2, 1, 1.5, 0.5, 0.8, 0.88, 0.0, PairCutoff::None);
  EXPECT_FALSE(pairAlignment(lone, AlignmentParams{}).permutations);
  // A translated copy with the B atoms' labels swapped among themselves is the same structure.
  Random random(2);
  const std::vector<double> x = randomBoxStructure(10, model.box, 0.5, random);
  std::vector<double> y = x;
  for (int k = 0; k < 3; ++k) std::swap(y[3 * 8 + k], y[3 * 9 + k]);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] += 1.7;
  EXPECT_LT(minimumDistance(x, y, a), 1e-8);
}

TEST(PairSystem, SpeciesLabelsMustAgreeWhenTheyNameSpecies) {
  const PairModel model = binaryLennardJonesModel(4, 2, 1.5, 0.5, 0.8, 0.88, 0.0, PairCutoff::None);
  EXPECT_NO_THROW(checkSpeciesLabels(model, {"A", "A", "B", "B"}, "x.xyz", "--binary-lj"));
  EXPECT_NO_THROW(checkSpeciesLabels(model, {"la", "LA", "lb", "B"}, "x.xyz", "--binary-lj"));
  EXPECT_NO_THROW(checkSpeciesLabels(model, {"Ar", "Ar", "Ar", "Ar"}, "x.xyz", "--binary-lj"));
  EXPECT_NO_THROW(checkSpeciesLabels(model, {}, "coords", "--binary-lj"));
  try {
    checkSpeciesLabels(model, {"A", "B", "B", "B"}, "x.xyz", "command line: --binary-lj");
    FAIL() << "a B label on an A atom accepted";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("x.xyz:4: atom 2 is labelled 'B', but it is of species A", 0), 0u) << m;
    EXPECT_NE(m.find("atoms 1-2 A, 3-4 B"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos);
  }
  EXPECT_THROW(checkSpeciesLabels(model, {"A", "A", "X", "B"}, "x.xyz", "--binary-lj"),
               std::runtime_error);
}

TEST(PairSystem, FingerprintChangesWithEveryNumberOfTheModel) {
  const std::string a = pairModelFingerprint(morseModel(13, 6.0));
  EXPECT_EQ(a, pairModelFingerprint(morseModel(13, 6.0)));
  EXPECT_NE(a, pairModelFingerprint(morseModel(13, 6.000000001)));
  EXPECT_NE(a, pairModelFingerprint(morseModel(14, 6.0)));
  const PairModel ka = kobAndersenModel(150, 2.5, PairCutoff::Shifted, cube(5.0));
  PairModel other = ka;
  other.box.length[1] = 5.0000001;
  EXPECT_NE(pairModelFingerprint(ka), pairModelFingerprint(other));
  other = ka;
  other.species[0] = 1;
  other.species[149] = 0;
  EXPECT_NE(pairModelFingerprint(ka), pairModelFingerprint(other));
}

}  // namespace
}  // namespace landscape
