#include "potentials/SoftStickyDipole.h"

#include <cmath>
#include <sstream>

#include "landscape/core/Require.h"

namespace landscape {

namespace {

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

void requirePositive(double v, const std::string& field) {
  require(std::isfinite(v) && v > 0.0,
          "SSD " + field + " must be finite and > 0, not " + number(v) + ".");
}

void requireNonNegative(double v, const std::string& field) {
  require(std::isfinite(v) && v >= 0.0,
          "SSD " + field + " must be finite and >= 0, not " + number(v) + ".");
}

void requireSwitch(double lower, double upper, const std::string& name) {
  requirePositive(lower, name + " lower end");
  require(std::isfinite(upper) && upper > lower, "SSD " + name + " upper end " + number(upper) +
                                                     " must be finite and above its lower end " +
                                                     number(lower) + ".");
}

}  // namespace

void SoftStickyDipoleParams::check() const {
  requirePositive(epsilon, "epsilon (kcal/mol)");
  requirePositive(sigma, "sigma (Angstrom)");
  requireNonNegative(dipole, "dipole (Debye)");
  requireNonNegative(v0, "v0 (kcal/mol)");
  requireNonNegative(v0Prime, "v0' (kcal/mol)");
  require(std::isfinite(w0), "SSD w0 must be finite, not " + number(w0) + ".");
  requireSwitch(rL, rU, "switch of w (rL, rU)");
  requireSwitch(rLPrime, rUPrime, "switch of w' (rL', rU')");
  requirePositive(coulomb, "Coulomb constant (kcal/mol Angstrom / e^2)");
  requirePositive(debye, "Debye (e Angstrom)");
}

SoftStickyDipoleConstants SoftStickyDipoleParams::pairConstants() const {
  SoftStickyDipoleConstants c;
  c.fourEps = 4.0 * epsilon;
  c.sigma2 = sigma * sigma;
  const double mu = dipole * debye;  // e Angstrom
  c.dipoleFactor = coulomb * mu * mu;
  c.halfV0 = 0.5 * v0;
  c.halfV0Prime = 0.5 * v0Prime;
  c.w0 = w0;
  c.rL = rL;
  c.rU = rU;
  c.rLPrime = rLPrime;
  c.rUPrime = rUPrime;
  return c;
}

SoftStickyDipole::SoftStickyDipole(SoftStickyDipoleParams params, std::size_t molecules)
    : m_params(params), m_count(molecules) {
  m_params.check();
  require(molecules >= 2, "An SSD water cluster needs at least 2 molecules, not " +
                              std::to_string(molecules) + ".");
  m_constants = m_params.pairConstants();
}

std::string SoftStickyDipole::name() const {
  std::ostringstream s;
  s << "SSD water x " << m_count << ", " << kSoftStickyDipoleMarkers * m_count << " markers (cpu)";
  return s.str();
}

void SoftStickyDipole::centreAndFrame(const double* x, std::size_t k, double centre[3],
                                      SoftStickyDipoleFrame& frame) {
  softStickyDipoleFrameOfMarkers(x + 3 * kSoftStickyDipoleMarkers * k, centre, frame);
}

double SoftStickyDipole::evaluate(const double* x, double* g, double* atomEnergies) {
  const std::size_t n = m_count;
  std::vector<double> centre(3 * n);
  std::vector<SoftStickyDipoleFrame> frame(n);
  for (std::size_t k = 0; k < n; ++k) centreAndFrame(x, k, &centre[3 * k], frame[k]);
  std::vector<double> gc;
  std::vector<SoftStickyDipoleFrame> ga;
  if (g != nullptr) {
    gc.assign(3 * n, 0.0);
    ga.assign(n, SoftStickyDipoleFrame{});
  }
  std::vector<double> moleculeEnergy;
  if (atomEnergies != nullptr) moleculeEnergy.assign(n, 0.0);
  double energy = 0.0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      double r[3];
      for (int c = 0; c < 3; ++c) r[c] = centre[3 * j + c] - centre[3 * i + c];
      double dr[3];
      SoftStickyDipoleFrame gi, gj;
      const double e = softStickyDipolePair(m_constants, r, frame[i], frame[j],
                                            g != nullptr ? dr : nullptr, &gi, &gj);
      energy += e;
      if (atomEnergies != nullptr) {
        moleculeEnergy[i] += 0.5 * e;
        moleculeEnergy[j] += 0.5 * e;
      }
      if (g != nullptr) {
        for (int c = 0; c < 3; ++c) {
          gc[3 * j + c] += dr[c];
          gc[3 * i + c] -= dr[c];
        }
        for (int a = 0; a < 3; ++a)
          for (int c = 0; c < 3; ++c) {
            ga[i].e[a][c] += gi.e[a][c];
            ga[j].e[a][c] += gj.e[a][c];
          }
      }
    }
  }
  if (atomEnergies != nullptr) {
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t m = 0; m < kSoftStickyDipoleMarkers; ++m)
        atomEnergies[kSoftStickyDipoleMarkers * k + m] =
            moleculeEnergy[k] / kSoftStickyDipoleMarkers;
  }
  if (g != nullptr) {
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t offset = 3 * kSoftStickyDipoleMarkers * k;
      softStickyDipoleMarkerGradient(x + offset, frame[k], &gc[3 * k], ga[k], g + offset);
    }
  }
  return energy;
}

double SoftStickyDipole::energy(const double* x) { return evaluate(x, nullptr, nullptr); }

double SoftStickyDipole::energyGradient(const double* x, double* g) {
  return evaluate(x, g, nullptr);
}

bool SoftStickyDipole::perAtomEnergies(const double* x, double* atomEnergies) {
  evaluate(x, nullptr, atomEnergies);
  return true;
}

RigidBodySystem SoftStickyDipoleCluster::rigidSystem() const {
  return RigidBodySystem(bodies, referenceMarkers);
}

RigidBodyMasses SoftStickyDipoleCluster::masses() const {
  // referenceMarkers hold every molecule at p = 0: its body axes are the lab axes.
  const RigidBodyMass molecule =
      rigidBodyMassOfInertia(18.0153, {1.7696, 0.6145, 1.1550}, {1, 0, 0, 0, 1, 0, 0, 0, 1});
  RigidBodyMasses out;
  out.bodies.assign(moleculeCount(), molecule);
  return out;
}

std::vector<double> SoftStickyDipoleCluster::drawnAtoms(const std::vector<double>& q) const {
  const std::vector<double> markers = rigidSystem().toAtoms(q);
  const std::size_t n = moleculeCount();
  // r_OH = 0.9572 A, HOH = 104.52 degrees (TIP3P/TIP4P geometry), bisector along +z.
  const double half = 0.5 * 104.52 * 3.14159265358979323846 / 180.0;
  const double hy = 0.9572 * std::sin(half), hz = 0.9572 * std::cos(half);
  std::vector<double> atoms(9 * n);
  for (std::size_t k = 0; k < n; ++k) {
    double centre[3];
    SoftStickyDipoleFrame f;
    SoftStickyDipole::centreAndFrame(markers.data(), k, centre, f);
    for (int c = 0; c < 3; ++c) {
      atoms[9 * k + c] = centre[c];
      atoms[9 * k + 3 + c] = centre[c] + hy * f.e[1][c] + hz * f.e[2][c];
      atoms[9 * k + 6 + c] = centre[c] - hy * f.e[1][c] + hz * f.e[2][c];
    }
  }
  return atoms;
}

SoftStickyDipoleCluster softStickyDipoleCluster(const SoftStickyDipoleParams& params,
                                                std::size_t n) {
  params.check();
  require(n >= 2,
          "An SSD water cluster needs at least 2 molecules, not " + std::to_string(n) + ".");
  SoftStickyDipoleCluster cluster;
  cluster.params = params;
  cluster.bodies = RigidBodySet(kSoftStickyDipoleMarkers * n);
  const double h = kSoftStickyDipoleMarkerDistance;
  const double frame[12] = {0.0, 0.0, h, 0.0, 0.0, -h, h, 0.0, 0.0, -h, 0.0, 0.0};
  std::size_t side = 1;
  while (side * side * side < n) ++side;
  const double spacing = 2.8;
  for (std::size_t k = 0; k < n; ++k) {
    cluster.bodies.addBody({4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3});
    const double centre[3] = {spacing * static_cast<double>(k % side),
                              spacing * static_cast<double>((k / side) % side),
                              spacing * static_cast<double>(k / (side * side))};
    for (std::size_t m = 0; m < kSoftStickyDipoleMarkers; ++m)
      for (int d = 0; d < 3; ++d) cluster.referenceMarkers.push_back(centre[d] + frame[3 * m + d]);
  }
  return cluster;
}

}  // namespace landscape
