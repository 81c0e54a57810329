// The normal modes of rigid molecules (landscape/paths/RigidBodyNormalModes; Chakrabarti and
// Wales, Phys. Chem. Chem. Phys. 11, 1970 (2009)) against an independent route: at a minimum of
// TIP4P and SSD water clusters, the energy's second differences in exponential coordinates about
// each molecule's centre of mass (a translation and a small rotation exp([theta]_x) of the
// molecule), whose kinetic metric there is diag(M, I_lab) with I_lab the molecule's inertia
// tensor computed here from its atoms (TIP4P) or from OpenMD's SSD moments. At a stationary point
// the eigenvalues of G^-1 H do not depend on the coordinates, so both routes must give the same
// squared frequencies. Also the metric against J^T M J from finite differences of the atoms.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/geometry/InertiaTensor.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/minimisation/NumericalHessian.h"
#include "landscape/paths/Characterisation.h"
#include "landscape/paths/RigidBodyNormalModes.h"
#include "potentials/GayBerne.h"
#include "potentials/RigidBodyMasses.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/SitePotential.h"
#include "potentials/SoftStickyDipole.h"
#include "potentials/WaterCluster.h"

namespace landscape {
namespace {

// Each molecule's atoms (indices), centre of mass and inertia tensor in the lab frame.
struct Molecule {
  std::vector<std::size_t> atoms;
  double mass = 0.0;
  Eigen::Vector3d centre;
  Eigen::Matrix3d inertia;
};

// Squared frequencies by the independent route: second differences of the energy in the
// molecules' exponential coordinates, then the generalized eigenproblem H v = lambda G v.
Eigen::VectorXd independentSquaredFrequencies(Potential& atomistic, const std::vector<double>& x,
                                              const std::vector<Molecule>& molecules) {
  const auto n = static_cast<Eigen::Index>(6 * molecules.size());
  auto moved = [&](const Eigen::VectorXd& delta) {
    std::vector<double> y = x;
    for (std::size_t m = 0; m < molecules.size(); ++m) {
      const Molecule& mol = molecules[m];
      const Eigen::Vector3d shift = delta.segment<3>(static_cast<Eigen::Index>(6 * m));
      const Eigen::Vector3d theta = delta.segment<3>(static_cast<Eigen::Index>(6 * m + 3));
      const Eigen::Matrix3d R =
          theta.norm() == 0.0
              ? Eigen::Matrix3d::Identity()
              : Eigen::AngleAxisd(theta.norm(), theta.normalized()).toRotationMatrix();
      for (std::size_t a : mol.atoms) {
        const Eigen::Vector3d r(x[3 * a], x[3 * a + 1], x[3 * a + 2]);
        const Eigen::Vector3d s = mol.centre + shift + R * (r - mol.centre);
        for (int c = 0; c < 3; ++c) y[3 * a + c] = s[c];
      }
    }
    return atomistic.energy(y.data());
  };
  const double h = 1e-3;
  Eigen::MatrixXd H(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i; j < n; ++j) {
      Eigen::VectorXd pp = Eigen::VectorXd::Zero(n), pm = pp, mp = pp, mm = pp;
      pp[i] += h, pp[j] += h;
      pm[i] += h, pm[j] -= h;
      mp[i] -= h, mp[j] += h;
      mm[i] -= h, mm[j] -= h;
      H(i, j) = H(j, i) = (moved(pp) - moved(pm) - moved(mp) + moved(mm)) / (4 * h * h);
    }
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(n, n);
  for (std::size_t m = 0; m < molecules.size(); ++m) {
    const auto k = static_cast<Eigen::Index>(6 * m);
    G.block<3, 3>(k, k) = molecules[m].mass * Eigen::Matrix3d::Identity();
    G.block<3, 3>(k + 3, k + 3) = molecules[m].inertia;
  }
  return Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd>(H, G, Eigen::EigenvaluesOnly)
      .eigenvalues();
}

// The eigenvalues without the six of smallest magnitude (the overall motions), ascending.
std::vector<double> withoutOverallMotions(std::vector<double> values) {
  std::sort(values.begin(), values.end(),
            [](double a, double b) { return std::abs(a) < std::abs(b); });
  values.erase(values.begin(), values.begin() + 6);
  std::sort(values.begin(), values.end());
  return values;
}

// Minimises rigid coordinates to RMS 1e-10 from a perturbed start and returns the atoms.
std::vector<double> minimum(RigidBodyPotential& rigid, std::vector<double> q, unsigned seed) {
  Random random(seed);
  for (double& v : q) v += 0.05 * random.symmetric();
  LbfgsParams lp;
  lp.rmsTolerance = 1e-10;
  lp.maxIterations = 20000;
  const auto result = Lbfgs(lp).minimize(rigid, q);
  EXPECT_TRUE(result.converged());
  return rigid.system().toAtoms(q);
}

// Ours: the log product of characterise, and the eigenvalues of K from the same Hessian and metric.
void expectSameSpectra(const RigidBodyVibrations& vibrations, const std::vector<double>& x,
                       const StationaryPointProperties& ours, const Eigen::VectorXd& independent) {
  const std::vector<double> q = vibrations.system.fromAtoms(x);
  const Eigen::VectorXd spectrum =
      hessianSpectrum(metricWeightedHessian(vibrations.system, vibrations.masses, q,
                                            numericalHessian(*vibrations.potential, q))
                          .hessian)
          .eigenvalues;
  const std::vector<double> mine(spectrum.data(), spectrum.data() + spectrum.size());
  const std::vector<double> a = withoutOverallMotions(mine);
  const std::vector<double> b = withoutOverallMotions(
      std::vector<double>(independent.data(), independent.data() + independent.size()));
  ASSERT_EQ(a.size(), b.size());
  double logProduct = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_GT(b[k], 0.0) << "mode " << k << " of a minimum";
    EXPECT_NEAR(a[k], b[k], 1e-4 * std::abs(b[k]) + 1e-4) << "mode " << k;
    logProduct += std::log(b[k]);
  }
  EXPECT_NEAR(ours.logProductOfPositiveEigenvalues, logProduct, 1e-4);
  // The six removed are the overall motions: near zero on the scale of the softest mode.
  EXPECT_TRUE(ours.hessianEigenvalues.empty());
  std::vector<double> all = mine;
  std::sort(all.begin(), all.end(), [](double x, double y) { return std::abs(x) < std::abs(y); });
  EXPECT_LT(std::abs(all[5]), 1e-3 * a.front());
}

TEST(RigidBodyNormalModes, Tip4pTrimerMatchesExponentialCoordinatesAboutTheCentresOfMass) {
  const WaterCluster water = tip4pCluster(3);
  SitePotential sites(water.model);
  RigidBodyPotential rigid(sites, water.rigidSystem());
  // Three molecules on a triangle of 2.8 A, turned at random before the minimisation.
  std::vector<double> q(18, 0.0);
  const double centres[9] = {0.0, 0.0, 0.0, 2.8, 0.0, 0.0, 1.4, 2.4, 0.0};
  Random random(7);
  for (std::size_t i = 0; i < 18; ++i) q[i] = i < 9 ? centres[i] : random.symmetric();
  const std::vector<double> x = minimum(rigid, q, 3);
  std::vector<Molecule> molecules(3);
  const double siteMass[4] = {15.9994, 1.008, 1.008, 0.0};
  for (std::size_t m = 0; m < 3; ++m) {
    Molecule& mol = molecules[m];
    mol.centre.setZero();
    for (std::size_t s = 0; s < 4; ++s) {
      const std::size_t a = 4 * m + s;
      mol.atoms.push_back(a);
      mol.mass += siteMass[s];
      mol.centre += siteMass[s] * Eigen::Vector3d(x[3 * a], x[3 * a + 1], x[3 * a + 2]);
    }
    mol.centre /= mol.mass;
    mol.inertia.setZero();
    for (std::size_t s = 0; s < 4; ++s) {
      const std::size_t a = 4 * m + s;
      const Eigen::Vector3d r = Eigen::Vector3d(x[3 * a], x[3 * a + 1], x[3 * a + 2]) - mol.centre;
      mol.inertia +=
          siteMass[s] * (r.squaredNorm() * Eigen::Matrix3d::Identity() - r * r.transpose());
    }
  }
  CharacterisationParams params;
  auto cpu = std::make_shared<SitePotential>(water.model);
  params.rigidBodies = std::make_shared<RigidBodyVibrations>(
      std::make_shared<RigidBodyPotential>(*cpu, water.rigidSystem()), water.rigidSystem(),
      water.masses());
  const StationaryPointProperties ours = characterise(sites, x, params);
  expectSameSpectra(*params.rigidBodies, x, ours,
                    independentSquaredFrequencies(sites, x, molecules));
  // The moments of the whole trimer: those of its O and H atoms.
  std::vector<double> heavy, masses;
  for (std::size_t a = 0; a < 12; ++a)
    if (a % 4 != 3) {
      heavy.insert(heavy.end(), {x[3 * a], x[3 * a + 1], x[3 * a + 2]});
      masses.push_back(siteMass[a % 4]);
    }
  const Eigen::Vector3d moments = principalMomentsOfInertia(heavy, masses);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(ours.principalMoments[k], moments[k], 1e-9 * moments[2]);
}

TEST(RigidBodyNormalModes, SsdTrimerMatchesExponentialCoordinatesAboutTheCentres) {
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), 3);
  SoftStickyDipole ssd(cluster.params, 3);
  RigidBodyPotential rigid(ssd, cluster.rigidSystem());
  std::vector<double> q = rigid.system().fromAtoms(cluster.referenceMarkers);
  const std::vector<double> x = minimum(rigid, q, 5);
  // OpenMD's SSD: 18.0153 amu at the centre, moments 1.7696, 0.6145, 1.1550 about the body axes.
  std::vector<Molecule> molecules(3);
  for (std::size_t m = 0; m < 3; ++m) {
    Molecule& mol = molecules[m];
    mol.mass = 18.0153;
    Eigen::Vector3d marker[4];
    for (std::size_t s = 0; s < 4; ++s) {
      mol.atoms.push_back(4 * m + s);
      marker[s] = Eigen::Vector3d(x[12 * m + 3 * s], x[12 * m + 3 * s + 1], x[12 * m + 3 * s + 2]);
    }
    mol.centre = 0.25 * (marker[0] + marker[1] + marker[2] + marker[3]);
    Eigen::Matrix3d E;
    E.col(2) = (marker[0] - marker[1]).normalized();
    E.col(0) = (marker[2] - marker[3]).normalized();
    E.col(1) = E.col(2).cross(E.col(0));
    mol.inertia = E * Eigen::Vector3d(1.7696, 0.6145, 1.1550).asDiagonal() * E.transpose();
  }
  CharacterisationParams params;
  auto cpu = std::make_shared<SoftStickyDipole>(cluster.params, 3);
  params.rigidBodies = std::make_shared<RigidBodyVibrations>(
      std::make_shared<RigidBodyPotential>(*cpu, cluster.rigidSystem()), cluster.rigidSystem(),
      cluster.masses());
  const StationaryPointProperties ours = characterise(ssd, x, params);
  expectSameSpectra(*params.rigidBodies, x, ours, independentSquaredFrequencies(ssd, x, molecules));
}

// A side-by-side Gay-Berne dimer (unit masses on the markers): its rigid Hessian has 8 zero modes,
// the 6 overall motions and each body's spin about its axis (RigidBodySystem::setSpinAxes), which
// the metric-weighted Hessian's modes remove, leaving the 4 vibrations, all positive. One is the
// stretch along the centres, omega^2 = U''(r) / mu with U = 4 eps [(sigma0/r)^12 - (sigma0/r)^6],
// eps = 5/3 (side by side, Gay and Berne 1981's set) and mu = 2 (4 markers each): at r = 2^(1/6),
// U'' = 72 eps / 2^(1/3). Without the spin axes two near-zero modes would stay among them.
TEST(RigidBodyNormalModes, GayBerneDimerSpinsAreZeroModes) {
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), 2);
  GayBerne gb(cluster.params, 2);
  RigidBodyPotential rigid(gb, cluster.rigidSystem());
  std::vector<double> q =
      gayBerneRigidCoordinates({0, 0, 0, 1.2, 0.02, 0.03}, {0, 0.05, 1, 0.02, -0.04, 1});
  LbfgsParams params;
  params.rmsTolerance = 1e-10;
  params.maxIterations = 10000;
  ASSERT_TRUE(Lbfgs(params).minimize(rigid, q).converged());
  const RigidBodySystem& system = rigid.system();
  const RigidBodyMasses masses = rigidBodyMassesOfAtoms(system, std::vector<double>(8, 1.0));
  const Eigen::MatrixXd hessian = numericalHessian(rigid, q, 1e-5);
  const MetricWeightedHessian weighted = metricWeightedHessian(system, masses, q, hessian);
  ASSERT_EQ(weighted.modes.count(), 8);
  const Eigen::MatrixXd basis = weighted.modes.complementBasis();
  const Eigen::VectorXd vibrations =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(basis.transpose() * weighted.hessian * basis)
          .eigenvalues();
  ASSERT_EQ(vibrations.size(), 4);
  const double stretch = 72.0 * (5.0 / 3.0) / std::pow(2.0, 1.0 / 3.0) / 2.0;
  double nearest = vibrations[0];
  for (int k = 0; k < 4; ++k) {
    EXPECT_GT(vibrations[k], 1e-3 * stretch) << k;
    if (std::fabs(vibrations[k] - stretch) < std::fabs(nearest - stretch)) nearest = vibrations[k];
  }
  EXPECT_NEAR(nearest, stretch, 1e-5 * stretch);
}

// G = J^T M J, J = d(atoms)/dq by central differences of toAtoms, the TIP4P masses on the sites,
// at random rigid coordinates (|p| up to about 3).
TEST(RigidBodyNormalModes, MetricIsTheJacobiansMassWeightedProduct) {
  const WaterCluster water = tip4pCluster(2);
  const RigidBodySystem system = water.rigidSystem();
  Random random(17);
  std::vector<double> q(system.dimension());
  for (double& v : q) v = 1.8 * random.symmetric();
  const Eigen::MatrixXd G = kineticMetric(system, water.masses(), q);
  const auto n = static_cast<Eigen::Index>(q.size());
  const auto atoms = static_cast<Eigen::Index>(3 * system.atomCount());
  Eigen::MatrixXd J(atoms, n);
  const double h = 1e-6;
  for (Eigen::Index k = 0; k < n; ++k) {
    std::vector<double> up = q, down = q;
    up[static_cast<std::size_t>(k)] += h;
    down[static_cast<std::size_t>(k)] -= h;
    const std::vector<double> a = system.toAtoms(up), b = system.toAtoms(down);
    for (Eigen::Index i = 0; i < atoms; ++i)
      J(i, k) = (a[static_cast<std::size_t>(i)] - b[static_cast<std::size_t>(i)]) / (2 * h);
  }
  Eigen::VectorXd m(atoms);
  const double siteMass[4] = {15.9994, 1.008, 1.008, 0.0};
  for (Eigen::Index i = 0; i < atoms; ++i) m[i] = siteMass[(i / 3) % 4];
  const Eigen::MatrixXd expected = J.transpose() * m.asDiagonal() * J;
  EXPECT_LT((G - expected).cwiseAbs().maxCoeff(), 1e-7 * expected.cwiseAbs().maxCoeff());
}

TEST(RigidBodyNormalModes, BadMassesAreRefusedWithASentence) {
  const WaterCluster water = tip4pCluster(2);
  const RigidBodySystem system = water.rigidSystem();
  EXPECT_THROW(rigidBodyMassesOfAtoms(system, {1.0, 2.0}), std::invalid_argument);
  EXPECT_THROW(rigidBodyMassesOfAtoms(system, std::vector<double>(8, -1.0)), std::invalid_argument);
  EXPECT_THROW(rigidBodyMassOfInertia(18.0, {1.0, 1.0, 3.0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}),
               std::invalid_argument);
  EXPECT_THROW(rigidBodyMassOfInertia(0.0, {1.0, 1.0, 1.0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}),
               std::invalid_argument);
  RigidBodyMasses one = water.masses();
  one.bodies.pop_back();
  EXPECT_THROW(kineticMetric(system, one, std::vector<double>(12, 0.0)), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
