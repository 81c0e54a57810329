#include "potentials/SitePotential.h"

#include <string>
#include <utility>

#include "potentials/SiteTerms.h"

namespace landscape {

SitePotential::SitePotential(SiteModel model) : m_model(std::move(model)) { m_model.check(); }

std::string SitePotential::name() const {
  return (m_model.name.empty() ? std::string("site model") : m_model.name) + ": " +
         std::to_string(m_model.siteCount()) + " sites of " +
         std::to_string(m_model.moleculeCount()) + " rigid molecules, " + m_model.energyUnit +
         " (cpu)";
}

namespace {

// Calls f(i, j, term, d) for every site pair i < j on different molecules; d = x_i - x_j.
template <typename F>
void forEachSitePair(const SiteModel& m, const double* x, F&& f) {
  const std::size_t n = m.siteCount();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (m.molecule[i] == m.molecule[j]) continue;
      const double d[3] = {x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1],
                           x[3 * i + 2] - x[3 * j + 2]};
      const SitePairTerm t = sitePair(d[0] * d[0] + d[1] * d[1] + d[2] * d[2], m.c6[i], m.c12[i],
                                      m.charge[i], m.c6[j], m.c12[j], m.charge[j], m.coulomb);
      f(i, j, t, d);
    }
  }
}

}  // namespace

double SitePotential::energy(const double* x) {
  double e = 0.0;
  forEachSitePair(m_model, x, [&](std::size_t, std::size_t, const SitePairTerm& t, const double*) {
    e += t.energy;
  });
  return e;
}

double SitePotential::energyGradient(const double* x, double* g) {
  for (std::size_t k = 0; k < dimension(); ++k) g[k] = 0.0;
  double e = 0.0;
  forEachSitePair(m_model, x,
                  [&](std::size_t i, std::size_t j, const SitePairTerm& t, const double* d) {
                    e += t.energy;
                    for (int c = 0; c < 3; ++c) {
                      g[3 * i + c] += t.dEdrOverR * d[c];
                      g[3 * j + c] -= t.dEdrOverR * d[c];
                    }
                  });
  return e;
}

std::vector<EnergyComponent> SitePotential::energyComponents(const double* x) {
  double lj = 0.0, coulomb = 0.0;
  forEachSitePair(m_model, x, [&](std::size_t, std::size_t, const SitePairTerm& t, const double*) {
    lj += t.energy - t.coulomb;
    coulomb += t.coulomb;
  });
  return {{"LJ", lj}, {"COULOMB", coulomb}};
}

}  // namespace landscape
