// Mass-weighted Hessians and their log products (docs/pathsample.md): a harmonic diatomic's
// vibrational frequency sqrt(k / mu), the Cholesky log product of the Ace-Ash-Nme minimum against
// a dense eigen-decomposition of the same projected matrix, the finite-difference Hessian's
// symmetry and step independence, transition states, and the units on the way to network.h5 and
// PATHSAMPLE's files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "landscape/formats/PathsampleExport.h"
#include "landscape/geometry/InertiaTensor.h"
#include "landscape/geometry/RigidBodyModes.h"
#include "landscape/minimisation/HessianLogProduct.h"
#include "landscape/minimisation/NumericalHessian.h"
#include "landscape/network/Database.h"
#include "landscape/network/HarmonicRates.h"
#include "landscape/paths/Characterisation.h"
#include "potentials/AmberGb.h"
#include "tests/AshMinima.h"
#include "tests/Lj7Structures.h"

namespace landscape {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kSpeedOfLightCmPerS = 2.99792458e10;

// E = k/2 (|r_1 - r_0| - r0)^2: a harmonic bond (energy / length^2 force constant k).
class HarmonicBond : public Potential {
 public:
  HarmonicBond(double k, double r0) : m_k(k), m_r0(r0) {}
  std::size_t dimension() const override { return 6; }
  std::string name() const override { return "harmonic bond"; }
  double energy(const double* x) override {
    const double r = length(x);
    return 0.5 * m_k * (r - m_r0) * (r - m_r0);
  }
  double energyGradient(const double* x, double* g) override {
    const double r = length(x);
    for (int k = 0; k < 3; ++k) {
      const double d = m_k * (r - m_r0) * (x[3 + k] - x[k]) / r;
      g[k] = -d;
      g[3 + k] = d;
    }
    return energy(x);
  }

 private:
  static double length(const double* x) {
    return std::sqrt((x[3] - x[0]) * (x[3] - x[0]) + (x[4] - x[1]) * (x[4] - x[1]) +
                     (x[5] - x[2]) * (x[5] - x[2]));
  }
  double m_k, m_r0;
};

// Wavenumber (cm^-1) of a mass-weighted eigenvalue in kcal/mol / (amu A^2).
double wavenumber(double eigenvalue) {
  return std::sqrt(eigenvalue) * kMolecularFrequencyPerSecond / (2.0 * kPi * kSpeedOfLightCmPerS);
}

Eigen::MatrixXd massWeightedHessian(Potential& p, const std::vector<double>& x,
                                    const std::vector<double>& masses, double step = 1e-5) {
  Eigen::MatrixXd h = numericalHessian(p, x, step);
  massWeightHessian(h, masses);
  return h;
}

// Sum of ln of the positive eigenvalues of Q^T H Q, Q the complement of the modes: the dense
// reference (the eigen-decomposition the factorisation replaces).
double denseLogProduct(const Eigen::MatrixXd& h, const RigidBodyModes& modes, int* negative) {
  const Eigen::MatrixXd q = modes.complementBasis();
  const Eigen::MatrixXd reduced = q.transpose() * h * q;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(0.5 * (reduced + reduced.transpose()));
  double sum = 0.0;
  *negative = 0;
  for (Eigen::Index i = 0; i < solver.eigenvalues().size(); ++i) {
    const double lambda = solver.eigenvalues()[i];
    if (lambda > 0.0)
      sum += std::log(lambda);
    else
      ++*negative;
  }
  return sum;
}

TEST(MassWeightedHessian, DiatomicBondFrequencyIsSqrtKOverReducedMass) {
  // H-Cl: masses in amu, HCl's force constant 516 N/m in kcal/mol/A^2 (N_A 1e-20 J/A^2 per kcal),
  // the bond along a tilted axis.
  const std::vector<double> masses = {1.008, 35.45};
  const double kSi = 516.0, avogadro = 6.02214076e23;
  const double k = kSi * avogadro * 1e-20 / 4184.0, r0 = 1.2746;
  HarmonicBond bond(k, r0);
  const Eigen::Vector3d axis = Eigen::Vector3d(0.3, -0.5, 0.8).normalized();
  const std::vector<double> x = {
      0.2, 0.1, -0.3, 0.2 + r0 * axis[0], 0.1 + r0 * axis[1], -0.3 + r0 * axis[2]};
  Eigen::MatrixXd h = massWeightedHessian(bond, x, masses);
  const RigidBodyModes modes = RigidBodyModes::massWeighted(x, masses);
  ASSERT_EQ(modes.count(), 5);  // linear: no rotation about the bond
  const double mu = masses[0] * masses[1] / (masses[0] + masses[1]);
  const HessianLogProduct f = hessianLogProduct(h, modes);
  EXPECT_EQ(f.method, LogProductMethod::Cholesky);
  EXPECT_EQ(f.positiveEigenvalues, 1);
  EXPECT_NEAR(f.logProduct, std::log(k / mu), 1e-8);
  // The same bond with unit masses: k / (1/2).
  Eigen::MatrixXd unit = numericalHessian(bond, x);
  EXPECT_NEAR(hessianLogProduct(unit, RigidBodyModes(x)).logProduct, std::log(2.0 * k), 1e-8);
  // In physical units: sqrt(k / mu) in SI (amu = 1.66053906660e-27 kg), about 2990 cm^-1 (HCl's
  // harmonic wavenumber), checks the frequency unit kMolecularFrequencyPerSecond.
  const double omegaSi = std::sqrt(kSi / (mu * 1.66053906660e-27));
  const double expected = omegaSi / (2.0 * kPi * kSpeedOfLightCmPerS);
  EXPECT_NEAR(wavenumber(std::exp(f.logProduct)), expected, 1e-6 * expected);
  EXPECT_NEAR(expected, 2990.0, 5.0);
}

TEST(MassWeightedHessian, EqualMassesGiveTheUnweightedModes) {
  const std::vector<double> x = lj7PentagonalBipyramid();
  const RigidBodyModes plain(x);
  const RigidBodyModes weighted = RigidBodyModes::massWeighted(x, std::vector<double>(7, 12.0));
  ASSERT_EQ(weighted.count(), 6);
  // Same subspace: the projectors agree.
  const Eigen::MatrixXd p = plain.basis() * plain.basis().transpose();
  const Eigen::MatrixXd w = weighted.basis() * weighted.basis().transpose();
  EXPECT_LT((p - w).norm(), 1e-12);
  EXPECT_THROW(RigidBodyModes::massWeighted(x, std::vector<double>(6, 1.0)), std::invalid_argument);
  std::vector<double> bad(7, 1.0);
  bad[3] = -1.0;
  EXPECT_THROW(RigidBodyModes::massWeighted(x, bad), std::invalid_argument);
}

class AshHessian : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_ash = makeAshMinima();
    if (!s_ash) return;
    AmberGb amber(s_ash->topology);
    s_hessian = massWeightedHessian(amber, s_ash->first, s_ash->topology.masses);
  }
  void SetUp() override {
    if (!s_ash) GTEST_SKIP() << "tests/data/gb/ash not found";
  }
  static std::optional<AshMinima> s_ash;
  static Eigen::MatrixXd s_hessian;
};
std::optional<AshMinima> AshHessian::s_ash;
Eigen::MatrixXd AshHessian::s_hessian;

TEST_F(AshHessian, SixNearZeroModesBeforeProjectionAndPhysicalFrequencies) {
  const Eigen::VectorXd e = hessianSpectrum(s_hessian).eigenvalues;
  ASSERT_EQ(e.size(), 75);
  const double largest = e.cwiseAbs().maxCoeff();
  Eigen::VectorXd magnitudes = e.cwiseAbs();
  std::sort(magnitudes.data(), magnitudes.data() + magnitudes.size());
  std::printf("ash: |eigenvalues| / largest, 6th %.3g, 7th %.3g\n", magnitudes[5] / largest,
              magnitudes[6] / largest);
  for (int i = 0; i < 6; ++i) EXPECT_LT(magnitudes[i] / largest, 1e-8) << "mode " << i;
  EXPECT_GT(magnitudes[6] / largest, 1e-5);  // the softest vibration is well above them
  // The mass-weighted modes are the null space: H v ~ 0 for each.
  const RigidBodyModes modes = RigidBodyModes::massWeighted(s_ash->first, s_ash->topology.masses);
  EXPECT_LT((s_hessian * modes.basis()).norm() / largest, 1e-5);
  // Units: the stiffest vibration is ASH's O-H stretch (AMBER's HO-OH bond, about 3700 cm^-1),
  // the softest above the modes a torsion of some tens of cm^-1.
  EXPECT_GT(wavenumber(e.maxCoeff()), 3300.0);
  EXPECT_LT(wavenumber(e.maxCoeff()), 4000.0);
  EXPECT_GT(wavenumber(magnitudes[6]), 5.0);
  EXPECT_LT(wavenumber(magnitudes[6]), 200.0);
}

TEST_F(AshHessian, CholeskyLogProductEqualsDenseEigenvalues) {
  const RigidBodyModes modes = RigidBodyModes::massWeighted(s_ash->first, s_ash->topology.masses);
  ASSERT_EQ(modes.count(), 6);
  int negative = -1;
  const double dense = denseLogProduct(s_hessian, modes, &negative);
  EXPECT_EQ(negative, 0);
  Eigen::MatrixXd h = s_hessian;
  const HessianLogProduct f = hessianLogProduct(h, modes);
  EXPECT_EQ(f.method, LogProductMethod::Cholesky);
  EXPECT_EQ(f.positiveEigenvalues, 69);
  EXPECT_EQ(f.removedModes, 6);
  EXPECT_NEAR(f.logProduct, dense, 1e-10 * std::abs(dense));
}

TEST_F(AshHessian, FiniteDifferencesAreSymmetricAndStepIndependent) {
  AmberGb amber(s_ash->topology);
  const std::vector<double>& x = s_ash->first;
  // The raw rows (g(x + h e_i) - g(x - h e_i)) / 2h, before numericalHessian symmetrises them.
  const double h = 1e-5;
  Eigen::MatrixXd raw(75, 75);
  std::vector<double> y = x, plus(75), minus(75);
  for (int i = 0; i < 75; ++i) {
    y[i] = x[i] + h;
    amber.energyGradient(y.data(), plus.data());
    y[i] = x[i] - h;
    amber.energyGradient(y.data(), minus.data());
    y[i] = x[i];
    for (int j = 0; j < 75; ++j) raw(i, j) = (plus[j] - minus[j]) / (2.0 * h);
  }
  const double scale = raw.cwiseAbs().maxCoeff();
  EXPECT_LT((raw - raw.transpose()).cwiseAbs().maxCoeff() / scale, 1e-7);
  const Eigen::MatrixXd coarse = numericalHessian(amber, x, 1e-4);
  const Eigen::MatrixXd fine = numericalHessian(amber, x, 2.5e-5);
  EXPECT_LT((coarse - fine).cwiseAbs().maxCoeff() / scale, 1e-5);
  // ... and so is the log product.
  const std::vector<double>& m = s_ash->topology.masses;
  Eigen::MatrixXd a = coarse, b = fine;
  massWeightHessian(a, m);
  massWeightHessian(b, m);
  const RigidBodyModes modes = RigidBodyModes::massWeighted(x, m);
  EXPECT_NEAR(hessianLogProduct(a, modes).logProduct, hessianLogProduct(b, modes).logProduct, 1e-4);
}

TEST_F(AshHessian, CharacterisationWritesMassWeightedFields) {
  AmberGb amber(s_ash->topology);
  CharacterisationParams params;
  params.masses = s_ash->topology.masses;
  params.maxSpectrumAtoms = 0;  // the log product needs no spectrum
  const StationaryPointProperties p = characterise(amber, s_ash->first, params);
  EXPECT_TRUE(p.hessianEigenvalues.empty());
  int negative = -1;
  const double dense = denseLogProduct(
      s_hessian, RigidBodyModes::massWeighted(s_ash->first, params.masses), &negative);
  EXPECT_NEAR(p.logProductOfPositiveEigenvalues, dense, 1e-10 * std::abs(dense));
  const Eigen::Vector3d moments = principalMomentsOfInertia(s_ash->first, params.masses);
  for (int k = 0; k < 3; ++k) EXPECT_DOUBLE_EQ(p.principalMoments[k], moments[k]);
  // Unit masses give another number (the mass-weighted one is not a rescaling of it).
  const StationaryPointProperties unit = characterise(amber, s_ash->first);
  EXPECT_GT(std::abs(unit.logProductOfPositiveEigenvalues - p.logProductOfPositiveEigenvalues),
            10.0);
  params.masses.pop_back();
  EXPECT_THROW(characterise(amber, s_ash->first, params), std::invalid_argument);
}

// A "transition state" Hessian with a known spectrum: one negative eigenvalue in the complement
// of LJ7's rigid-body modes.
TEST(MassWeightedHessian, TransitionStateLeavesTheNegativeEigenvalueOut) {
  const std::vector<double> x = lj7CappedOctahedron();
  const RigidBodyModes modes(x);
  const Eigen::MatrixXd q = modes.complementBasis();
  Eigen::VectorXd lambda(q.cols());
  double expected = 0.0;
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    lambda[i] = i == 4 ? -2.5 : 0.3 + 7.0 * static_cast<double>(i);
    if (lambda[i] > 0.0) expected += std::log(lambda[i]);
  }
  Eigen::MatrixXd h = q * lambda.asDiagonal() * q.transpose();
  const HessianLogProduct f = hessianLogProduct(h, modes);
  EXPECT_EQ(f.method, LogProductMethod::EigenDecomposition);
  EXPECT_EQ(f.negativeEigenvalues, 1);
  EXPECT_EQ(f.positiveEigenvalues, 14);
  EXPECT_NEAR(f.logProduct, expected, 1e-10 * std::abs(expected));
  // The same spectrum without the negative one is factorised.
  lambda[4] = 2.5;
  Eigen::MatrixXd positive = q * lambda.asDiagonal() * q.transpose();
  const HessianLogProduct g = hessianLogProduct(positive, modes);
  EXPECT_EQ(g.method, LogProductMethod::Cholesky);
  EXPECT_NEAR(g.logProduct, expected + std::log(2.5), 1e-10 * std::abs(expected));
  Eigen::MatrixXd wrong(5, 5);
  wrong.setIdentity();
  EXPECT_THROW(hessianLogProduct(wrong, modes), std::invalid_argument);
}

// The failed in-place Cholesky is undone before the eigenvalues are taken: a 300 x 300 matrix
// (blocked factorisation) with a negative eigenvalue deep in the spectrum and mixed masses.
TEST(MassWeightedHessian, FailedFactorisationIsUndoneOnALargeMatrix) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> coordinate(-5.0, 5.0), mass(1.0, 32.0);
  std::vector<double> x(300), masses(100);
  for (double& v : x) v = coordinate(random);
  for (double& m : masses) m = mass(random);
  const RigidBodyModes modes = RigidBodyModes::massWeighted(x, masses);
  const Eigen::MatrixXd q = modes.complementBasis();
  Eigen::VectorXd lambda(q.cols());
  double expected = 0.0;
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    lambda[i] = i == 150 ? -0.7 : 0.01 + 0.5 * static_cast<double>(i);
    if (lambda[i] > 0.0) expected += std::log(lambda[i]);
  }
  Eigen::MatrixXd h = q * lambda.asDiagonal() * q.transpose();
  const HessianLogProduct f = hessianLogProduct(h, modes);
  EXPECT_EQ(f.method, LogProductMethod::EigenDecomposition);
  EXPECT_EQ(f.negativeEigenvalues, 1);
  EXPECT_NEAR(f.logProduct, expected, 1e-10 * std::abs(expected));
}

// PATHSAMPLE's files for molecules carry (rad/s)^2 per mode: 3N - 6 modes for a minimum, 3N - 7
// for a transition state; network.h5 keeps kcal/mol / (amu A^2) and says so.
TEST_F(AshHessian, PathsampleFilesUseOptimsFrequencyUnitsAndComeBack) {
  StoredTransitionNetwork network;
  for (const std::vector<double>* x : {&s_ash->first, &s_ash->second}) {
    StoredNetworkMinimum m;
    m.coordinates = *x;
    m.energy = -1.0;
    m.properties.logProductOfPositiveEigenvalues = 250.0;
    m.properties.pointGroupOrder = 1;
    m.properties.principalMoments = {1.0, 2.0, 3.0};
    network.minima.push_back(m);
  }
  StoredTransitionState ts;
  ts.coordinates = s_ash->first;
  ts.plusMinimum = 0;
  ts.minusMinimum = 1;
  ts.properties = network.minima[0].properties;
  ts.properties.logProductOfPositiveEigenvalues = 240.0;
  network.transitionStates.push_back(ts);
  DatabaseMetadata metadata;
  metadata.energyUnit = "kcal/mol";
  metadata.lengthUnit = "Angstrom";
  metadata.hessianMasses = kAtomicMassesAmu;
  const double conversion = pathsampleFrequencyConversion(metadata);
  EXPECT_EQ(conversion, kMolecularFrequencyPerSecond);
  const double perMode = 2.0 * std::log(2.0454828280e13);
  const StoredTransitionNetwork files = withConvertedLogProducts(network, conversion, +1);
  EXPECT_NEAR(files.minima[0].properties.logProductOfPositiveEigenvalues, 250.0 + 69 * perMode,
              1e-9);
  EXPECT_NEAR(files.transitionStates[0].properties.logProductOfPositiveEigenvalues,
              240.0 + 68 * perMode, 1e-9);

  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("landscape-massweighted-" + std::to_string(::getpid()));
  writePathsampleFiles(dir.string(), network, conversion);
  const StoredTransitionNetwork back = readPathsampleFiles(dir.string(), 25, conversion);
  const StoredTransitionNetwork raw = readPathsampleFiles(dir.string(), 25);
  std::filesystem::remove_all(dir);
  EXPECT_NEAR(raw.minima[1].properties.logProductOfPositiveEigenvalues, 250.0 + 69 * perMode, 1e-9);
  EXPECT_NEAR(back.minima[1].properties.logProductOfPositiveEigenvalues, 250.0, 1e-9);
  EXPECT_NEAR(back.transitionStates[0].properties.logProductOfPositiveEigenvalues, 240.0, 1e-9);

  metadata.hessianMasses = kUnitMasses;
  EXPECT_EQ(pathsampleFrequencyConversion(metadata), 1.0);
  metadata.hessianMasses = kAtomicMassesAmu;
  // kJ/mol (TIP4P water): sqrt(1000 J / N_A / (amu A^2)) = 1.0e13 s^-1, FRQCONV / sqrt(4.184).
  metadata.energyUnit = "kJ/mol";
  EXPECT_NEAR(pathsampleFrequencyConversion(metadata),
              kMolecularFrequencyPerSecond / std::sqrt(4.184),
              1e-9 * kKjMolecularFrequencyPerSecond);
  metadata.energyUnit = "eV";
  EXPECT_THROW(pathsampleFrequencyConversion(metadata), std::invalid_argument);
}

// The kinetics' constants in each molecular energy unit (CODATA 2018 R, h and N_A; 4.184 J/cal):
// kT, the frequency unit squared and h N_A scale as the energy unit, so that a rate is the same in
// either; another unit is refused by name.
TEST(MassWeightedHessian, MolecularKineticConstantsScaleWithTheEnergyUnit) {
  const MolecularKineticConstants kcal = molecularKineticConstants("kcal/mol");
  const MolecularKineticConstants kj = molecularKineticConstants("kJ/mol");
  EXPECT_NEAR(kcal.boltzmann * 298.15, 0.5925, 1e-4);  // RT at 25 C: 0.5925 kcal/mol
  EXPECT_NEAR(kj.boltzmann * 298.15, 2.4790, 1e-4);    // and 2.4790 kJ/mol
  EXPECT_NEAR(kj.boltzmann / kcal.boltzmann, 4.184, 1e-12);
  EXPECT_NEAR(std::pow(kcal.frequencyPerSecond / kj.frequencyPerSecond, 2), 4.184, 1e-8);
  EXPECT_NEAR(kj.planckSeconds / kcal.planckSeconds, 4.184, 1e-12);
  EXPECT_NEAR(kj.planckSeconds, 3.990312712e-13, 1e-21);  // h N_A = 3.990312712e-10 J s / mol
  try {
    molecularKineticConstants("eV");
    ADD_FAILURE() << "eV accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'eV'"), std::string::npos) << e.what();
  }
}

TEST(MassWeightedHessian, DatabaseRecordsTheMassesOfItsHessianFields) {
  StoredTransitionNetwork network;
  StoredNetworkMinimum m;
  m.coordinates = lj7PentagonalBipyramid();
  m.properties.logProductOfPositiveEigenvalues = 3.0;
  network.minima.push_back(m);
  DatabaseMetadata metadata;
  metadata.atoms = 7;
  metadata.energyUnit = "kcal/mol";
  metadata.lengthUnit = "Angstrom";
  metadata.hessianMasses = kAtomicMassesAmu;
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("landscape-hessian-masses-" + std::to_string(::getpid()) + ".h5"))
                               .string();
  TransitionNetworkDatabase::write(path, metadata, network);
  DatabaseMetadata read;
  TransitionNetworkDatabase::read(path, &read);
  EXPECT_EQ(read.hessianMasses, kAtomicMassesAmu);
  metadata.hessianMasses = kUnitMasses;
  TransitionNetworkDatabase::write(path, metadata, network);
  TransitionNetworkDatabase::read(path, &read);
  EXPECT_EQ(read.hessianMasses, kUnitMasses);
  metadata.hessianMasses = "grams";
  EXPECT_THROW(TransitionNetworkDatabase::write(path, metadata, network), std::invalid_argument);
  std::filesystem::remove(path);
}

#ifdef LANDSCAPE_PATHSAMPLE_EXECUTABLE
// PATHSAMPLE's files of a molecule ((rad/s)^2 per mode) through `pathsample import --units
// molecular`, `rates` and `export`: the rate equals PATHSAMPLE's formula on the file's numbers,
// which needs no frequency factor (s^-1), and export writes the files' numbers back.
TEST_F(AshHessian, PathsampleCommandsKeepPathsamplesAmberUnits) {
  const double perMode = 2.0 * std::log(kMolecularFrequencyPerSecond);
  StoredTransitionNetwork files;
  const double energies[2] = {-10.0, -9.0},
               logProducts[2] = {69 * perMode + 250.0, 69 * perMode + 262.0};
  for (int i = 0; i < 2; ++i) {
    StoredNetworkMinimum m;
    m.coordinates = i == 0 ? s_ash->first : s_ash->second;
    m.energy = energies[i];
    m.properties.logProductOfPositiveEigenvalues = logProducts[i];
    m.properties.pointGroupOrder = 1;
    m.properties.principalMoments = {100.0, 200.0, 250.0};
    files.minima.push_back(m);
  }
  StoredTransitionState ts;
  ts.coordinates = s_ash->first;
  ts.energy = -5.0;
  ts.plusMinimum = 0;
  ts.minusMinimum = 1;
  ts.properties = files.minima[0].properties;
  ts.properties.logProductOfPositiveEigenvalues = 68 * perMode + 240.0;
  files.transitionStates.push_back(ts);
  files.setA = {0};
  files.setB = {1};
  const std::filesystem::path work = std::filesystem::temp_directory_path() /
                                     ("landscape-molecular-cli-" + std::to_string(::getpid()));
  writePathsampleFiles((work / "in").string(), files);  // the files' numbers as they are
  const std::string program = LANDSCAPE_PATHSAMPLE_EXECUTABLE;
  const std::string db = (work / "network.h5").string(), log = (work / "log").string();
  auto run = [&](const std::string& arguments) {
    return std::system((program + " " + arguments + " > " + log + " 2>&1").c_str());
  };
  ASSERT_EQ(
      run("import --units molecular --directory " + (work / "in").string() + " --database " + db),
      0);
  DatabaseMetadata metadata;
  const StoredTransitionNetwork stored = TransitionNetworkDatabase::read(db, &metadata);
  EXPECT_EQ(metadata.hessianMasses, kAtomicMassesAmu);
  EXPECT_NEAR(stored.minima[0].properties.logProductOfPositiveEigenvalues, 250.0, 1e-9);
  EXPECT_NEAR(stored.transitionStates[0].properties.logProductOfPositiveEigenvalues, 240.0, 1e-9);

  ASSERT_EQ(run("rates --units molecular --temperature 300 --database " + db + " --directory " +
                work.string()),
            0);
  std::ifstream rates((work / "NGT.rates.new").string());
  double t = 0.0, kAB = 0.0, kBA = 0.0;
  ASSERT_TRUE(rates >> t >> kAB >> kBA);
  const double kT = kBoltzmannKcalPerMolK * 300.0;
  // PATHSAMPLE on its files: k(m -> n) = 1 / (2 pi) exp((F_m - F_ts) / 2) exp(-(E_ts - E_m) / kT).
  const double fromB =
      std::exp(0.5 * (logProducts[1] - ts.properties.logProductOfPositiveEigenvalues) -
               (ts.energy - energies[1]) / kT) /
      (2.0 * kPi);
  const double fromA =
      std::exp(0.5 * (logProducts[0] - ts.properties.logProductOfPositiveEigenvalues) -
               (ts.energy - energies[0]) / kT) /
      (2.0 * kPi);
  EXPECT_NEAR(kAB, fromB, 1e-8 * fromB);  // k(A<-B): from B over the one transition state
  EXPECT_NEAR(kBA, fromA, 1e-8 * fromA);

  ASSERT_EQ(run("export --database " + db + " --directory " + (work / "out").string()), 0);
  const StoredTransitionNetwork back = readPathsampleFiles((work / "out").string(), 25);
  std::filesystem::remove_all(work);
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(back.minima[i].properties.logProductOfPositiveEigenvalues, logProducts[i], 1e-9);
  }
  EXPECT_NEAR(back.transitionStates[0].properties.logProductOfPositiveEigenvalues,
              ts.properties.logProductOfPositiveEigenvalues, 1e-9);
}
#endif

}  // namespace
}  // namespace landscape
