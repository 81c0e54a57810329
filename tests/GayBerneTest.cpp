// Gay-Berne ellipsoids as rigid bodies of 4 markers (potentials/GayBerne, GayBerneTerms.h): the
// marker gradient and the rigid (angle-axis) gradient against central differences; the contact
// distances and well depths of the four classic dimers of Gay and Berne (J. Chem. Phys. 74, 3316
// (1981), Fig. 2) from the closed forms of the published formula, reached by a numerical 1D
// minimisation through the potential; invariance under overall rotation and translation and
// under u -> -u; bad parameters refused with a sentence.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/GayBerne.h"
#include "potentials/LennardJones.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/RigidBodySystem.h"
#include "potentials/RigidBodyTerms.h"
#include "tests/FiniteDifferences.h"

namespace landscape {
namespace {

const double kTwoSixth = std::pow(2.0, 1.0 / 6.0);

void randomUnit(Random& random, double u[3]) {
  double n2 = 0.0;
  do {
    for (int k = 0; k < 3; ++k) u[k] = random.symmetric();
    n2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  } while (n2 > 1.0 || n2 < 1e-4);
  for (int k = 0; k < 3; ++k) u[k] /= std::sqrt(n2);
}

// Markers (12 per ellipsoid) of ellipsoids at `centres` with axes along `axes` (unit): each body
// turned from +z to its axis as gayBerneRigidCoordinates does, through the rigid system.
std::vector<double> markersOf(const std::vector<double>& centres, const std::vector<double>& axes) {
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), centres.size() / 3);
  return cluster.rigidSystem().toAtoms(gayBerneRigidCoordinates(centres, axes));
}

// n ellipsoids at random orientations, centres on a loose random grid (no overlap).
std::vector<double> randomMarkers(std::size_t n, Random& random) {
  std::vector<double> centres, axes;
  for (std::size_t k = 0; k < n; ++k) {
    centres.push_back(3.6 * static_cast<double>(k % 2) + 0.3 * random.symmetric());
    centres.push_back(3.6 * static_cast<double>((k / 2) % 2) + 0.3 * random.symmetric());
    centres.push_back(4.8 * static_cast<double>(k / 4) + 0.3 * random.symmetric());
    double u[3];
    randomUnit(random, u);
    axes.insert(axes.end(), u, u + 3);
  }
  return markersOf(centres, axes);
}

TEST(GayBerne, MarkerGradientMatchesCentralDifferences) {
  Random random(5);
  GayBerne gb(GayBerneParams(), 5);
  std::vector<double> x = randomMarkers(5, random);
  // Markers need not form a rigid body: the potential is a function of all 12 n Cartesians (the
  // centre is their mean, the axis (m0 - m1) / |m0 - m1|), so distort them.
  for (double& v : x) v += 0.05 * random.symmetric();
  expectGradientMatchesDifferences(gb, x, 1e-7);
  // sigma0, eps0, mu and nu away from the defaults (every term of the derivatives).
  GayBerneParams other;
  other.sigma0 = 1.3;
  other.eps0 = 0.7;
  other.kappa = 2.0;
  other.kappaPrime = 20.0;
  other.mu = 1.0;
  other.nu = 3.0;
  GayBerne gb2(other, 5);
  expectGradientMatchesDifferences(gb2, x, 1e-7);
}

TEST(GayBerne, RigidGradientMatchesCentralDifferences) {
  Random random(9);
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), 6);
  GayBerne gb(cluster.params, 6);
  RigidBodyPotential rigid(gb, cluster.rigidSystem());
  ASSERT_EQ(rigid.dimension(), 36u);
  std::vector<double> q = rigid.system().fromAtoms(randomMarkers(6, random));
  // Angle-axis vectors of every size, one at p = 0 (the series branch) and one at |p| = pi.
  q[18] = q[19] = q[20] = 0.0;
  q[21] = 3.14159265358979323846;
  q[22] = q[23] = 0.0;
  expectGradientMatchesDifferences(rigid, q, 1e-7);
  // The spin about an ellipsoid's own axis changes nothing: its component of the angle-axis
  // gradient vanishes. At p = 0 the axis is +z and dR/dp_3 at 0 is the rotation about z.
  std::vector<double> g(q.size());
  rigid.energyGradient(q.data(), g.data());
  EXPECT_NEAR(g[20], 0.0, 1e-12);
}

// The four classic dimers (Gay and Berne 1981, Fig. 2), derived from the formula of
// GayBerneTerms.h (r along z, rhat = z, a = rhat.u_i, b = rhat.u_j, c = u_i.u_j):
//   side by side (u_i = u_j = x): a = b = 0, c = 1: H = 0, so sigma = sigma0 and E2 = 1;
//       E1 = (1 - chi^2)^-1/2, depth eps0 (1 - chi^2)^(-nu/2).
//   end to end (u_i = u_j = z): a = b = c = 1: H(x) = 4 / (1 + x), so
//       S = 1 - 2 chi / (1 + chi) = (1 - chi) / (1 + chi) = 1 / kappa^2, sigma = kappa sigma0;
//       E2 = (1 - chi') / (1 + chi') = kappa'^(-1/mu), depth eps0 (1 - chi^2)^(-nu/2) / kappa'.
//   T (u_i = z, u_j = x): a = 1, b = c = 0: H = 2, S = 1 - chi = 2 / (kappa^2 + 1),
//       sigma = sigma0 sqrt((kappa^2 + 1) / 2); E1 = 1, E2 = 1 - chi' = 2 / (1 + kappa'^(1/mu)),
//       depth eps0 (2 / (1 + kappa'^(1/mu)))^mu.
//   cross (u_i = x, u_j = y): a = b = c = 0: sigma = sigma0, depth eps0.
// U = 4 eps (R^-12 - R^-6) with R = (r - sigma + sigma0) / sigma0 vanishes at r = sigma (the
// contact distance) and has its minimum -eps at R = 2^(1/6), r = sigma + (2^(1/6) - 1) sigma0.
// For kappa 3, kappa' 5, mu 2, nu 1 (chi = 0.8, chi' = (sqrt 5 - 1) / (sqrt 5 + 1)):
//   side by side sigma0, -5/3 eps0;  end to end 3 sigma0, -1/3 eps0;
//   T sqrt(5) sigma0, -(3 - sqrt 5)/2 eps0 = -0.381966 eps0;  cross sigma0, -eps0.
// (The side-by-side depth is 5/3 eps0, not eps0, because nu = 1 keeps E1 = (1 - chi^2)^-1/2 at
// c = 1; eps0 is the depth of the cross configuration.)
struct Dimer {
  const char* name;
  double ui[3], uj[3];
  double contact, depth;  // expected, from the closed forms above
};

std::vector<Dimer> classicDimers(const GayBerneParams& p) {
  const double chi = (p.kappa * p.kappa - 1.0) / (p.kappa * p.kappa + 1.0);
  const double kp = std::pow(p.kappaPrime, 1.0 / p.mu);
  const double parallel = p.eps0 * std::pow(1.0 - chi * chi, -0.5 * p.nu);
  return {
      {"side by side", {1, 0, 0}, {1, 0, 0}, p.sigma0, parallel},
      {"end to end", {0, 0, 1}, {0, 0, 1}, p.kappa * p.sigma0, parallel / p.kappaPrime},
      {"T",
       {0, 0, 1},
       {1, 0, 0},
       p.sigma0 * std::sqrt(0.5 * (p.kappa * p.kappa + 1.0)),
       p.eps0 * std::pow(2.0 / (1.0 + kp), p.mu)},
      {"cross", {1, 0, 0}, {0, 1, 0}, p.sigma0, p.eps0},
  };
}

// The dimer at separation r along z through RigidBodyPotential: energy and dU/dr (the z
// component of the gradient on the second centre).
struct DimerScan {
  DimerScan(const GayBerneParams& params, const Dimer& d)
      : cluster(gayBerneCluster(params, 2)), gb(params, 2), rigid(gb, cluster.rigidSystem()) {
    axes = {d.ui[0], d.ui[1], d.ui[2], d.uj[0], d.uj[1], d.uj[2]};
  }
  double energy(double r, double* dUdr) {
    const std::vector<double> q = gayBerneRigidCoordinates({0, 0, 0, 0, 0, r}, axes);
    std::vector<double> g(q.size());
    const double e = rigid.energyGradient(q.data(), g.data());
    *dUdr = g[5];
    return e;
  }
  GayBerneCluster cluster;
  GayBerne gb;
  RigidBodyPotential rigid;
  std::vector<double> axes;
};

// The first sign change of f on a scan from 0.5 sigma0 up in steps of 0.01 sigma0 (from + to -
// when falling, else from - to +), then bisection to the last bit.
template <typename F>
double firstRoot(F f, double sigma0, bool falling) {
  double lo = 0.5 * sigma0, flo = f(lo);
  for (double hi = lo + 0.01 * sigma0; hi < 20.0 * sigma0; hi += 0.01 * sigma0) {
    const double fhi = f(hi);
    const bool crossed = falling ? (flo > 0.0 && fhi <= 0.0) : (flo < 0.0 && fhi >= 0.0);
    if (crossed) {
      for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
        const double mid = 0.5 * (lo + hi);
        const double fm = f(mid);
        if ((fm > 0.0) == (flo > 0.0)) {
          lo = mid;
          flo = fm;
        } else {
          hi = mid;
        }
      }
      return 0.5 * (lo + hi);
    }
    lo = hi;
    flo = fhi;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

void expectClassicDimers(const GayBerneParams& params) {
  for (const Dimer& d : classicDimers(params)) {
    SCOPED_TRACE(d.name);
    DimerScan scan(params, d);
    double slope = 0.0;
    // Contact: U = 0 (U is +infinity below R = 0, so the scan starts positive).
    const double contact = firstRoot(
        [&](double r) {
          const double e = scan.energy(r, &slope);
          return std::isfinite(e) ? e : 1.0;
        },
        params.sigma0, true);
    EXPECT_NEAR(contact, d.contact, 1e-8);
    // The constrained minimum over r: dU/dr from - to +.
    const double rmin = firstRoot(
        [&](double r) {
          const double e = scan.energy(r, &slope);
          return std::isfinite(e) ? slope : -1.0;
        },
        params.sigma0, false);
    EXPECT_NEAR(rmin, d.contact + (kTwoSixth - 1.0) * params.sigma0, 1e-8);
    EXPECT_NEAR(scan.energy(rmin, &slope), -d.depth, 1e-8);
  }
}

TEST(GayBerne, ClassicDimersOfGayAndBerne1981) {
  const GayBerneParams standard;
  // The closed forms above for the standard set, written out.
  const std::vector<Dimer> dimers = classicDimers(standard);
  EXPECT_NEAR(dimers[0].depth, 5.0 / 3.0, 1e-15);
  EXPECT_NEAR(dimers[1].depth, 1.0 / 3.0, 1e-15);
  EXPECT_NEAR(dimers[1].contact, 3.0, 1e-15);
  EXPECT_NEAR(dimers[2].depth, (3.0 - std::sqrt(5.0)) / 2.0, 1e-15);
  EXPECT_NEAR(dimers[2].contact, std::sqrt(5.0), 1e-15);
  EXPECT_NEAR(dimers[0].depth / dimers[1].depth, standard.kappaPrime, 1e-14);
  expectClassicDimers(standard);
}

TEST(GayBerne, ClassicDimersWithOtherExponentsAndUnits) {
  GayBerneParams p;
  p.sigma0 = 1.7;
  p.eps0 = 0.6;
  p.kappa = 4.4;
  p.kappaPrime = 20.0;
  p.mu = 1.0;
  p.nu = 3.0;
  expectClassicDimers(p);
}

TEST(GayBerne, DimerMinimisedInRigidCoordinatesIsSideBySide) {
  // For kappa' = 5 side by side is the deepest of the four; L-BFGS with the angle-axis metric
  // from a tilted, stretched start reaches it: -5/3 eps0 at 2^(1/6) sigma0.
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), 2);
  GayBerne gb(cluster.params, 2);
  RigidBodyPotential rigid(gb, cluster.rigidSystem());
  std::vector<double> q =
      gayBerneRigidCoordinates({0, 0, 0, 1.25, 0.05, -0.1}, {0, 0.1, 1, 0.15, -0.05, 1});
  LbfgsParams params;
  params.rmsTolerance = 1e-9;
  params.maxIterations = 5000;
  const LbfgsResult r = Lbfgs(params).minimize(rigid, q);
  EXPECT_TRUE(r.converged()) << lbfgsStatusName(r.status);
  EXPECT_NEAR(r.energy, -5.0 / 3.0, 1e-10);
  const std::vector<double> x = rigid.system().toAtoms(q);
  double ci[3], ui[3], cj[3], uj[3];
  GayBerne::centreAndAxis(x.data(), 0, ci, ui);
  GayBerne::centreAndAxis(x.data(), 1, cj, uj);
  double r2 = 0.0, c = 0.0, a = 0.0;
  for (int k = 0; k < 3; ++k) {
    r2 += (cj[k] - ci[k]) * (cj[k] - ci[k]);
    c += ui[k] * uj[k];
    a += ui[k] * (cj[k] - ci[k]);
  }
  EXPECT_NEAR(std::sqrt(r2), kTwoSixth, 1e-6);
  EXPECT_NEAR(std::fabs(c), 1.0, 1e-9);
  EXPECT_NEAR(a, 0.0, 1e-6);
}

TEST(GayBerne, EnergyInvariantUnderOverallMotionAndAxisReversal) {
  Random random(21);
  GayBerne gb(GayBerneParams(), 7);
  const std::vector<double> x = randomMarkers(7, random);
  const double e = gb.energy(x.data());
  ASSERT_TRUE(std::isfinite(e));
  ASSERT_LT(e, 0.0);
  // A random rotation about a random axis through an arbitrary point, then a translation.
  double axis[3];
  randomUnit(random, axis);
  const double p[3] = {2.1 * axis[0], 2.1 * axis[1], 2.1 * axis[2]};
  double R[9];
  rotationMatrix(p, R);
  std::vector<double> moved(x.size());
  for (std::size_t i = 0; i < x.size(); i += 3) {
    for (int k = 0; k < 3; ++k)
      moved[i + k] = R[3 * k] * x[i] + R[3 * k + 1] * x[i + 1] + R[3 * k + 2] * x[i + 2] +
                     (k == 0   ? 10.0
                      : k == 1 ? -3.5
                               : 0.25);
  }
  EXPECT_NEAR(gb.energy(moved.data()), e, 1e-12 * std::fabs(e));
  // u -> -u for each ellipsoid in turn: swap markers 0 and 1 (the centre stays).
  for (std::size_t k = 0; k < 7; ++k) {
    std::vector<double> flipped = x;
    for (int c = 0; c < 3; ++c) std::swap(flipped[12 * k + c], flipped[12 * k + 3 + c]);
    EXPECT_NEAR(gb.energy(flipped.data()), e, 1e-12 * std::fabs(e)) << "ellipsoid " << k;
  }
}

// Each ellipsoid's spin about its axis changes no energy: the rigid system lists it among the
// zero modes (6 overall motions, then one spin per body). Along a spin mode the gradient has no
// component, the body's centre and axis markers stay put to first order while its side markers
// turn, and no other body moves.
TEST(GayBerne, EverySpinAboutAnAxisIsAZeroMode) {
  Random random(41);
  const std::size_t n = 5;
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), n);
  GayBerne gb(cluster.params, n);
  RigidBodyPotential rigid(gb, cluster.rigidSystem());
  const RigidBodySystem& system = rigid.system();
  ASSERT_EQ(system.spinAxisCount(), n);
  const std::vector<double> q = system.fromAtoms(randomMarkers(n, random));
  const std::size_t d = system.dimension();
  std::vector<double> modes, g(d);
  ASSERT_TRUE(rigid.overallMotionModes(q.data(), modes));
  ASSERT_EQ(modes.size(), (6 + n) * d);
  rigid.energyGradient(q.data(), g.data());
  double gNorm = 0.0;
  for (double v : g) gNorm += v * v;
  gNorm = std::sqrt(gNorm);
  ASSERT_GT(gNorm, 1e-3);  // not a stationary point: the zero component is the symmetry's
  const std::vector<double> x0 = system.toAtoms(q);
  const double eps = 1e-6;
  for (std::size_t b = 0; b < n; ++b) {
    const double* spin = &modes[(6 + b) * d];
    double along = 0.0, norm = 0.0;
    for (std::size_t i = 0; i < d; ++i) {
      along += g[i] * spin[i];
      norm += spin[i] * spin[i];
      const bool ownAngleAxis = i >= 3 * n + 3 * b && i < 3 * n + 3 * b + 3;
      if (!ownAngleAxis) EXPECT_EQ(spin[i], 0.0) << "body " << b << " coordinate " << i;
    }
    norm = std::sqrt(norm);
    ASSERT_GT(norm, 0.1) << b;
    EXPECT_NEAR(along, 0.0, 1e-12 * gNorm * norm) << "body " << b;
    std::vector<double> moved = q;
    for (std::size_t i = 0; i < d; ++i) moved[i] += eps * spin[i] / norm;
    const std::vector<double> x = system.toAtoms(moved);
    for (std::size_t m = 0; m < 4; ++m) {
      double shift = 0.0;
      for (int k = 0; k < 3; ++k) {
        const double delta = x[12 * b + 3 * m + k] - x0[12 * b + 3 * m + k];
        shift += delta * delta;
      }
      shift = std::sqrt(shift);
      if (m < 2)
        EXPECT_LT(shift, 1e-9) << "axis marker " << m << " of body " << b;
      else
        EXPECT_GT(shift, 0.1 * eps) << "side marker " << m << " of body " << b;
    }
  }
}

// Parallel ellipsoids whose centres lie in one plane perpendicular to their common axis: every
// pair is side by side (a = b = 0, c = 1), so sigma = sigma0 and eps = eps0 (1 - chi^2)^(-nu/2)
// for every separation, and the cluster energy is eps times the Lennard-Jones energy of the
// centres in units of sigma0: checked against potentials/LennardJones, an independent code.
TEST(GayBerne, ParallelMonolayerIsScaledLennardJones) {
  Random random(33);
  GayBerneParams p;
  p.sigma0 = 1.3;
  p.eps0 = 0.8;
  p.nu = 2.0;
  const std::size_t n = 9;
  double u[3];
  randomUnit(random, u);
  // Two unit vectors spanning the plane perpendicular to u.
  double e1[3] = {u[1], -u[0], 0.0};
  const double l1 = std::sqrt(e1[0] * e1[0] + e1[1] * e1[1]);
  for (double& v : e1) v /= l1;
  const double e2[3] = {u[1] * e1[2] - u[2] * e1[1], u[2] * e1[0] - u[0] * e1[2],
                        u[0] * e1[1] - u[1] * e1[0]};
  std::vector<double> centres, axes, reduced;
  for (std::size_t k = 0; k < n; ++k) {
    const double s = 1.2 * static_cast<double>(k % 3) + 0.1 * random.symmetric();
    const double t = 1.2 * static_cast<double>(k / 3) + 0.1 * random.symmetric();
    for (int d = 0; d < 3; ++d) {
      centres.push_back(p.sigma0 * (s * e1[d] + t * e2[d]) + 5.0);
      axes.push_back(u[d]);
    }
    reduced.insert(reduced.end(), {s, t, 0.0});
  }
  GayBerne gb(p, n);
  const GayBerneCluster cluster = gayBerneCluster(p, n);
  const std::vector<double> x =
      cluster.rigidSystem().toAtoms(gayBerneRigidCoordinates(centres, axes));
  LennardJones lj(n);
  const double chi = 0.8;  // kappa = 3
  const double eps = p.eps0 * std::pow(1.0 - chi * chi, -0.5 * p.nu);
  const double expected = eps * lj.energy(reduced.data());
  EXPECT_NEAR(gb.energy(x.data()), expected, 1e-12 * std::fabs(expected));
}

TEST(GayBerne, CutoffOverlapAndPerAtomEnergies) {
  GayBerneParams p;
  // Three side by side along x (axes z) at 2^(1/6): pairs (0,1), (1,2) at the well, (0,2) at
  // twice that, U = 4 eps (R^-12 - R^-6) with R = 2^(7/6), eps = 5/3.
  const std::vector<double> x =
      markersOf({0, 0, 0, kTwoSixth, 0, 0, 2 * kTwoSixth, 0, 0}, {0, 0, 1, 0, 0, 1, 0, 0, 1});
  const double far = 4.0 * (5.0 / 3.0) * (std::pow(2.0, -14.0) - std::pow(2.0, -7.0));
  GayBerne all(p, 3);
  EXPECT_NEAR(all.energy(x.data()), -10.0 / 3.0 + far, 1e-12);
  p.cutoff = 2.0;
  GayBerne cut(p, 3);
  EXPECT_NEAR(cut.energy(x.data()), -10.0 / 3.0, 1e-12);
  std::vector<double> perMarker(12);
  ASSERT_TRUE(all.perAtomEnergies(x.data(), perMarker.data()));
  double sum = 0.0;
  for (double v : perMarker) sum += v;
  EXPECT_NEAR(sum, all.energy(x.data()), 1e-12);
  EXPECT_NEAR(4.0 * perMarker[4], -5.0 / 3.0, 1e-12);  // the middle one: two half wells
  // End to end closer than sigma - sigma0 = 2 sigma0: the formula's R <= 0, energy +infinity.
  const std::vector<double> deep = markersOf({0, 0, 0, 0, 0, 1.5}, {0, 0, 1, 0, 0, 1});
  GayBerne two(GayBerneParams(), 2);
  EXPECT_TRUE(std::isinf(two.energy(deep.data())));
}

TEST(GayBerne, ClusterBuilderPlacesBodiesAtTheWells) {
  const GayBerneCluster cluster = gayBerneCluster(GayBerneParams(), 2);
  ASSERT_EQ(cluster.bodies.bodyCount(), 2u);
  ASSERT_EQ(cluster.bodies.body(1), (std::vector<std::size_t>{4, 5, 6, 7}));
  ASSERT_EQ(cluster.referenceMarkers.size(), 24u);
  GayBerne gb(cluster.params, 2);
  // Two ellipsoids with axes along z, side by side at 2^(1/6) sigma0.
  EXPECT_NEAR(gb.energy(cluster.referenceMarkers.data()), -5.0 / 3.0, 1e-12);
  // p = 0 maps back to the reference (axis +z) and the centres are the markers' means.
  const RigidBodySystem system = cluster.rigidSystem();
  const std::vector<double> q = system.fromAtoms(cluster.referenceMarkers);
  for (std::size_t k = 6; k < 12; ++k) EXPECT_NEAR(q[k], 0.0, 1e-12);
  EXPECT_NEAR(q[3], kTwoSixth, 1e-12);
  // 27 bodies: a 3 x 3 x 3 prism whose layers are (kappa - 1 + 2^(1/6)) sigma0 apart.
  const GayBerneCluster big = gayBerneCluster(GayBerneParams(), 27);
  EXPECT_NEAR(big.referenceMarkers[3 * 4 * 26 + 2] - 1.0, 2.0 * (2.0 + kTwoSixth), 1e-12);
}

TEST(GayBerne, BadParametersAreRefusedWithASentence) {
  const auto refusedNaming = [](GayBerneParams p, const std::string& field) {
    try {
      p.check();
      ADD_FAILURE() << "accepted bad " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  GayBerneParams p;
  EXPECT_NO_THROW(p.check());
  p.sigma0 = 0.0;
  refusedNaming(p, "sigma0");
  p = GayBerneParams();
  p.eps0 = -1.0;
  refusedNaming(p, "eps0");
  p = GayBerneParams();
  p.kappa = std::numeric_limits<double>::quiet_NaN();
  refusedNaming(p, "kappa");
  p = GayBerneParams();
  p.kappaPrime = 0.0;
  refusedNaming(p, "kappa'");
  p = GayBerneParams();
  p.mu = 0.0;
  refusedNaming(p, "mu");
  p = GayBerneParams();
  p.nu = -0.5;
  refusedNaming(p, "nu");
  p = GayBerneParams();
  p.cutoff = 1.0;  // shorter than the side-by-side well
  refusedNaming(p, "cutoff");
  p = GayBerneParams();
  p.cutoff = std::numeric_limits<double>::infinity();
  refusedNaming(p, "cutoff");
  EXPECT_THROW(GayBerne(GayBerneParams(), 1), std::invalid_argument);
  EXPECT_THROW(gayBerneCluster(GayBerneParams(), 1), std::invalid_argument);
  p = GayBerneParams();
  p.kappa = -3.0;
  EXPECT_THROW(GayBerne(p, 4), std::invalid_argument);
  EXPECT_THROW(gayBerneRigidCoordinates({0, 0, 0}, {0, 0, 0}), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
