#pragma once
// Small analytic potentials for unit tests of minimisers (exact answers can be worked out by hand).
#include <cmath>
#include <string>
#include <vector>

#include "potentials/Potential.h"

namespace landscape {

// f(x) = sum_i k_i x_i^2 / 2 + quartic_i x_i^4 (separable test function, 3-vector per "atom").
class SeparablePolynomial : public Potential {
 public:
  SeparablePolynomial(std::vector<double> k, std::vector<double> quartic)
      : m_k(std::move(k)), m_quartic(std::move(quartic)) {}
  std::size_t dimension() const override { return m_k.size(); }
  std::string name() const override { return "separable polynomial"; }
  double energy(const double* x) override {
    double e = 0.0;
    for (std::size_t i = 0; i < m_k.size(); ++i)
      e += 0.5 * m_k[i] * x[i] * x[i] + m_quartic[i] * std::pow(x[i], 4);
    return e;
  }
  double energyGradient(const double* x, double* g) override {
    ++calls;
    for (std::size_t i = 0; i < m_k.size(); ++i)
      g[i] = m_k[i] * x[i] + 4.0 * m_quartic[i] * std::pow(x[i], 3);
    return energy(x);
  }
  long calls = 0;

 private:
  std::vector<double> m_k, m_quartic;
};

// The separable polynomial with a diagonal metric (Potential::diagonalMetric) w: with w = k the
// quadratic is the unit sphere in the scaled coordinates sqrt(w) x, so preconditioned L-BFGS
// solves it exactly on its second step (H0 = gamma W^-1 with gamma = 1 is the inverse Hessian).
class MetricPolynomial : public SeparablePolynomial {
 public:
  MetricPolynomial(std::vector<double> k, std::vector<double> quartic, std::vector<double> w)
      : SeparablePolynomial(std::move(k), std::move(quartic)), m_w(std::move(w)) {}
  bool diagonalMetric(std::vector<double>& w) const override {
    w = m_w;
    return true;
  }

 private:
  std::vector<double> m_w;
};

// A potential whose energy jumps by +100 on a scripted range of calls: every backtrack of the
// L-BFGS direction then fails, which is the only way (for smooth functions the rise vanishes as
// c -> 0) to reach the last rule: clear the history and retry along -g.
class ScriptedRise : public SeparablePolynomial {
 public:
  ScriptedRise(long from, long to) : SeparablePolynomial({1.0, 4.0}, {0.0, 0.0}), m_from(from), m_to(to) {}
  double energyGradient(const double* x, double* g) override {
    const double e = SeparablePolynomial::energyGradient(x, g);
    return (calls >= m_from && calls <= m_to) ? e + 100.0 : e;
  }
 private:
  long m_from, m_to;
};

}  // namespace landscape
