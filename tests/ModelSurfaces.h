#pragma once
// Two-dimensional model surfaces with known minima and saddles, for tests of transition-state
// searches (DNEB, Rayleigh-Ritz, hybrid eigenvector-following, descent). Coordinates are (x, y);
// dimension() is 2, so rigid-body projection and endpoint alignment must be switched off.
#include <cmath>
#include <string>

#include "potentials/Potential.h"

namespace landscape {

// V = (x^2 - 1)^2 + kappa/2 (y - c x^2)^2: minima at (+-1, c) with V = 0, one saddle at (0, 0)
// with V = 1 and Hessian diag(-4, kappa) exactly; the valley y = c x^2 joining them is curved,
// so a band that cuts the corner is visibly wrong. Hessian at a minimum:
// [[8 + 4 c^2 kappa, -+2 c kappa], [-+2 c kappa, kappa]].
class CurvedDoubleWell : public Potential {
 public:
  explicit CurvedDoubleWell(double kappa = 2.0, double c = 0.5) : m_kappa(kappa), m_c(c) {}
  std::size_t dimension() const override { return 2; }
  std::string name() const override { return "curved double well"; }
  double energy(const double* p) override {
    const double x = p[0], y = p[1];
    const double u = y - m_c * x * x;
    return (x * x - 1.0) * (x * x - 1.0) + 0.5 * m_kappa * u * u;
  }
  double energyGradient(const double* p, double* g) override {
    ++calls;
    const double x = p[0], y = p[1];
    const double u = y - m_c * x * x;
    g[0] = 4.0 * x * (x * x - 1.0) - 2.0 * m_kappa * m_c * x * u;
    g[1] = m_kappa * u;
    return energy(p);
  }
  double kappa() const { return m_kappa; }
  double c() const { return m_c; }
  long calls = 0;

 private:
  double m_kappa, m_c;
};

// Mueller and Brown, Theor. Chim. Acta 53, 75 (1979): V = sum_k A_k exp(a_k (x - x0_k)^2 +
// b_k (x - x0_k)(y - y0_k) + c_k (y - y0_k)^2). Three minima and two saddles (values to the
// digits usually quoted; tests locate them precisely by minimisation or eigenvector-following):
//   MA (-0.558, 1.442) -146.70,  MB (0.623, 0.028) -108.17,  MC (-0.050, 0.467) -80.77,
//   S1 (-0.822, 0.624) -40.66 (MA-MC),  S2 (0.212, 0.293) -72.25 (MC-MB).
class MullerBrown : public Potential {
 public:
  std::size_t dimension() const override { return 2; }
  std::string name() const override { return "Mueller-Brown"; }
  double energy(const double* p) override {
    double e = 0.0;
    for (int k = 0; k < 4; ++k) e += term(k, p[0], p[1]);
    return e;
  }
  double energyGradient(const double* p, double* g) override {
    ++calls;
    g[0] = g[1] = 0.0;
    double e = 0.0;
    for (int k = 0; k < 4; ++k) {
      const double dx = p[0] - kX0[k], dy = p[1] - kY0[k];
      const double t = term(k, p[0], p[1]);
      e += t;
      g[0] += t * (2.0 * kA[k] * dx + kB[k] * dy);
      g[1] += t * (kB[k] * dx + 2.0 * kC[k] * dy);
    }
    return e;
  }
  long calls = 0;

 private:
  static double term(int k, double x, double y) {
    const double dx = x - kX0[k], dy = y - kY0[k];
    return kAmp[k] * std::exp(kA[k] * dx * dx + kB[k] * dx * dy + kC[k] * dy * dy);
  }
  static constexpr double kAmp[4] = {-200.0, -100.0, -170.0, 15.0};
  static constexpr double kA[4] = {-1.0, -1.0, -6.5, 0.7};
  static constexpr double kB[4] = {0.0, 0.0, 11.0, 0.6};
  static constexpr double kC[4] = {-10.0, -10.0, -6.5, 0.7};
  static constexpr double kX0[4] = {1.0, 0.0, -0.5, -1.0};
  static constexpr double kY0[4] = {0.0, 0.5, 1.5, 1.0};
};

}  // namespace landscape
