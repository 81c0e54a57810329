#include "potentials/GayBerne.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "landscape/core/Require.h"

namespace landscape {

namespace {

bool positiveFinite(double v) { return std::isfinite(v) && v > 0.0; }

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

void GayBerneParams::check() const {
  require(positiveFinite(sigma0),
          "Gay-Berne sigma0 (the side-by-side contact distance) must be finite and > 0, not " +
              number(sigma0) + ".");
  require(positiveFinite(eps0),
          "Gay-Berne eps0 (the energy unit) must be finite and > 0, not " + number(eps0) + ".");
  require(positiveFinite(kappa),
          "Gay-Berne kappa (length / breadth) must be finite and > 0, not " + number(kappa) + ".");
  require(positiveFinite(kappaPrime),
          "Gay-Berne kappa' (side-by-side / end-to-end well depth) must be finite and > 0, not " +
              number(kappaPrime) + ".");
  require(positiveFinite(mu),
          "Gay-Berne mu must be finite and > 0 (kappa'^(1/mu) is used), not " + number(mu) + ".");
  require(std::isfinite(nu) && nu >= 0.0,
          "Gay-Berne nu must be finite and >= 0, not " + number(nu) + ".");
  require(std::isfinite(cutoff) && cutoff >= 0.0,
          "Gay-Berne cutoff must be finite and >= 0 (0: none), not " + number(cutoff) + ".");
  const double sideWell = std::pow(2.0, 1.0 / 6.0) * sigma0;
  require(cutoff == 0.0 || cutoff > sideWell,
          "Gay-Berne cutoff " + number(cutoff) +
              " must exceed the side-by-side well distance 2^(1/6) sigma0 = " + number(sideWell) +
              " (or be 0: none).");
  const double chiPrime = shape().chiPrime;
  require(std::isfinite(chiPrime) && std::fabs(chiPrime) < 1.0,
          "Gay-Berne kappa'^(1/mu) = " + number(std::pow(kappaPrime, 1.0 / mu)) +
              " is out of range (chi' must lie strictly between -1 and 1).");
}

GayBerneShape GayBerneParams::shape() const {
  GayBerneShape s;
  s.sigma0 = sigma0;
  s.eps0 = eps0;
  s.chi = (kappa * kappa - 1.0) / (kappa * kappa + 1.0);
  const double k = std::pow(kappaPrime, 1.0 / mu);
  s.chiPrime = (k - 1.0) / (k + 1.0);
  s.mu = mu;
  s.nu = nu;
  return s;
}

GayBerne::GayBerne(GayBerneParams params, std::size_t ellipsoids)
    : m_params(params), m_count(ellipsoids) {
  m_params.check();
  require(ellipsoids >= 2, "A Gay-Berne cluster needs at least 2 ellipsoids, not " +
                               std::to_string(ellipsoids) + ".");
  m_shape = m_params.shape();
}

std::string GayBerne::name() const {
  std::ostringstream s;
  s << "Gay-Berne " << m_count << " ellipsoids (kappa " << m_params.kappa << ", kappa' "
    << m_params.kappaPrime << ", mu " << m_params.mu << ", nu " << m_params.nu << "), "
    << kGayBerneMarkers * m_count << " markers (cpu)";
  return s.str();
}

void GayBerne::centreAndAxis(const double* x, std::size_t k, double centre[3], double axis[3]) {
  const double* m = x + 3 * kGayBerneMarkers * k;
  double d2 = 0.0;
  for (int c = 0; c < 3; ++c) {
    centre[c] = 0.25 * (m[c] + m[3 + c] + m[6 + c] + m[9 + c]);
    axis[c] = m[c] - m[3 + c];
    d2 += axis[c] * axis[c];
  }
  const double inv = 1.0 / std::sqrt(d2);
  for (int c = 0; c < 3; ++c) axis[c] *= inv;
}

double GayBerne::evaluate(const double* x, double* g, double* atomEnergies) {
  const std::size_t n = m_count;
  std::vector<double> centre(3 * n), axis(3 * n), axisLength(n);
  for (std::size_t k = 0; k < n; ++k) {
    centreAndAxis(x, k, &centre[3 * k], &axis[3 * k]);
    const double* m = x + 3 * kGayBerneMarkers * k;
    axisLength[k] = std::sqrt((m[0] - m[3]) * (m[0] - m[3]) + (m[1] - m[4]) * (m[1] - m[4]) +
                              (m[2] - m[5]) * (m[2] - m[5]));
  }
  // Gradients with respect to centres and (unnormalised-formula) axes, then the chain rule.
  std::vector<double> gc, gu;
  if (g != nullptr) {
    gc.assign(3 * n, 0.0);
    gu.assign(3 * n, 0.0);
  }
  std::vector<double> bodyEnergy;
  if (atomEnergies != nullptr) bodyEnergy.assign(n, 0.0);
  const double cut2 = m_params.cutoff * m_params.cutoff;
  double energy = 0.0;
  bool overlap = false;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      double r[3];
      for (int c = 0; c < 3; ++c) r[c] = centre[3 * j + c] - centre[3 * i + c];
      const double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
      if (cut2 > 0.0 && r2 > cut2) continue;
      double dr[3] = {0.0, 0.0, 0.0}, dui[3] = {0.0, 0.0, 0.0}, duj[3] = {0.0, 0.0, 0.0};
      const GayBernePairTerm t = gayBernePair(m_shape, r, &axis[3 * i], &axis[3 * j],
                                              g != nullptr ? dr : nullptr, dui, duj);
      overlap = overlap || t.overlap;
      energy += t.energy;
      if (atomEnergies != nullptr) {
        bodyEnergy[i] += 0.5 * t.energy;
        bodyEnergy[j] += 0.5 * t.energy;
      }
      if (g != nullptr) {
        for (int c = 0; c < 3; ++c) {
          gc[3 * j + c] += dr[c];
          gc[3 * i + c] -= dr[c];
          gu[3 * i + c] += dui[c];
          gu[3 * j + c] += duj[c];
        }
      }
    }
  }
  if (overlap) energy = std::numeric_limits<double>::infinity();
  if (atomEnergies != nullptr) {
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t m = 0; m < kGayBerneMarkers; ++m)
        atomEnergies[kGayBerneMarkers * k + m] = bodyEnergy[k] / kGayBerneMarkers;
  }
  if (g != nullptr) {
    // centre = mean of the 4 markers: each gets dU/dcentre / 4. u = d / |d|, d = m0 - m1:
    // dU/dd = (I - u u^T) dU/du / |d|, to m0 with + and to m1 with -.
    for (std::size_t k = 0; k < n; ++k) {
      const double* u = &axis[3 * k];
      const double* gk = &gu[3 * k];
      const double ug = u[0] * gk[0] + u[1] * gk[1] + u[2] * gk[2];
      double* gm = g + 3 * kGayBerneMarkers * k;
      for (int c = 0; c < 3; ++c) {
        const double quarter = 0.25 * gc[3 * k + c];
        const double dd = (gk[c] - ug * u[c]) / axisLength[k];
        gm[c] = quarter + dd;
        gm[3 + c] = quarter - dd;
        gm[6 + c] = quarter;
        gm[9 + c] = quarter;
      }
    }
  }
  return energy;
}

double GayBerne::energy(const double* x) { return evaluate(x, nullptr, nullptr); }

double GayBerne::energyGradient(const double* x, double* g) { return evaluate(x, g, nullptr); }

bool GayBerne::perAtomEnergies(const double* x, double* atomEnergies) {
  evaluate(x, nullptr, atomEnergies);
  return true;
}

RigidBodySystem GayBerneCluster::rigidSystem() const {
  RigidBodySystem system(bodies, referenceMarkers);
  // The energy sees only each body's centre and axis (markers 0 and 1 on +-z): its spin about z
  // is a zero mode, which transition-state searches and normal modes project out.
  std::vector<double> axes;
  for (std::size_t b = 0; b < bodies.bodyCount(); ++b) axes.insert(axes.end(), {0.0, 0.0, 1.0});
  system.setSpinAxes(axes);
  return system;
}

RigidBodyMasses GayBerneCluster::masses() const {
  const double a = 0.5 * params.sigma0, c = 0.5 * params.kappa * params.sigma0;
  const double across = (a * a + c * c) / 5.0, along = 2.0 * a * a / 5.0;
  RigidBodyMasses m;
  const RigidBodyMass one =
      rigidBodyMassOfInertia(1.0, {across, across, along}, {1, 0, 0, 0, 1, 0, 0, 0, 1});
  m.bodies.assign(ellipsoidCount(), one);
  return m;
}

std::vector<double> GayBerneCluster::centresAndTips(const std::vector<double>& markers) const {
  require(markers.size() == 3 * kGayBerneMarkers * ellipsoidCount(),
          "Gay-Berne axis tips: " + std::to_string(markers.size()) + " coordinates for " +
              std::to_string(ellipsoidCount()) + " ellipsoids of 4 markers");
  std::vector<double> points;
  points.reserve(9 * ellipsoidCount());
  for (std::size_t b = 0; b < ellipsoidCount(); ++b) {
    const double* m = &markers[3 * kGayBerneMarkers * b];
    for (int k = 0; k < 3; ++k) points.push_back(0.25 * (m[k] + m[3 + k] + m[6 + k] + m[9 + k]));
    points.insert(points.end(), m, m + 6);
  }
  return points;
}

std::vector<std::size_t> GayBerneCluster::axisTipIndices() const {
  std::vector<std::size_t> tips;
  for (std::size_t b = 0; b < ellipsoidCount(); ++b) {
    tips.push_back(kGayBerneMarkers * b);
    tips.push_back(kGayBerneMarkers * b + 1);
  }
  return tips;
}

GayBerneCluster gayBerneCluster(const GayBerneParams& params, std::size_t n) {
  params.check();
  require(n >= 2,
          "A Gay-Berne cluster needs at least 2 ellipsoids, not " + std::to_string(n) + ".");
  GayBerneCluster cluster;
  cluster.params = params;
  cluster.bodies = RigidBodySet(kGayBerneMarkers * n);
  const double h = kGayBerneMarkerDistance;
  const double frame[12] = {0.0, 0.0, h, 0.0, 0.0, -h, h, 0.0, 0.0, -h, 0.0, 0.0};
  // A square prism lattice, side x side in the plane, layers along z.
  std::size_t side = 1;
  while (side * side * side < n) ++side;
  const double ab = std::pow(2.0, 1.0 / 6.0) * params.sigma0;
  const double c = (params.kappa - 1.0) * params.sigma0 + ab;
  for (std::size_t k = 0; k < n; ++k) {
    cluster.bodies.addBody({4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3});
    const double centre[3] = {ab * static_cast<double>(k % side),
                              ab * static_cast<double>((k / side) % side),
                              c * static_cast<double>(k / (side * side))};
    for (std::size_t m = 0; m < kGayBerneMarkers; ++m)
      for (int d = 0; d < 3; ++d) cluster.referenceMarkers.push_back(centre[d] + frame[3 * m + d]);
  }
  return cluster;
}

std::vector<double> gayBerneRigidCoordinates(const std::vector<double>& centres,
                                             const std::vector<double>& axes) {
  require(centres.size() == axes.size() && centres.size() % 3 == 0 && !centres.empty(),
          "Gay-Berne rigid coordinates need 3 n centres and 3 n axes, not " +
              std::to_string(centres.size()) + " and " + std::to_string(axes.size()) + ".");
  const std::size_t n = centres.size() / 3;
  std::vector<double> q(centres);
  q.resize(6 * n);
  for (std::size_t k = 0; k < n; ++k) {
    const double* a = &axes[3 * k];
    const double len = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    require(std::isfinite(len) && len > 0.0,
            "Gay-Berne axis " + std::to_string(k) + " must be a finite non-zero vector.");
    const double u[3] = {a[0] / len, a[1] / len, a[2] / len};
    // z x u = (-u_y, u_x, 0); angle atan2(|z x u|, u_z); u = -z turns by pi about x.
    const double s = std::sqrt(u[0] * u[0] + u[1] * u[1]);
    const double angle = std::atan2(s, u[2]);
    double* p = &q[3 * n + 3 * k];
    if (s > 0.0) {
      p[0] = -u[1] / s * angle;
      p[1] = u[0] / s * angle;
      p[2] = 0.0;
    } else {
      p[0] = u[2] > 0.0 ? 0.0 : angle;
      p[1] = 0.0;
      p[2] = 0.0;
    }
  }
  return q;
}

}  // namespace landscape
