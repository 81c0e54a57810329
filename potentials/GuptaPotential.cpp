#include "potentials/GuptaPotential.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "landscape/core/InputChecks.h"
#include "landscape/core/Require.h"

namespace landscape {

namespace {

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

void requireFinite(double v, const char* field) {
  require(std::isfinite(v),
          std::string("GuptaParams.") + field + " must be finite, got " + number(v));
}

struct MetalRow {
  GuptaMetal metal;
  const char* symbol;
  long long gminType;  // GMIN's and OPTIM's GUPTA keyword
  double p, q, a, xi;
};

// Cleri and Rosato, Phys. Rev. B 48, 22 (1993), fcc metals: p, q, A (eV), xi (eV). Each row as
// transcribed in GMIN's Gupta.f and in a second, independent transcription (docs/gupta.md).
constexpr MetalRow kMetals[] = {
    {GuptaMetal::Nickel, "Ni", 1, 16.999, 1.189, 0.0376, 1.070},
    {GuptaMetal::Copper, "Cu", 2, 10.960, 2.278, 0.0855, 1.224},
    {GuptaMetal::Palladium, "Pd", 4, 10.867, 3.742, 0.1746, 1.718},
    {GuptaMetal::Platinum, "Pt", 7, 10.612, 4.004, 0.2975, 2.695},
    {GuptaMetal::Gold, "Au", 8, 10.229, 4.036, 0.2061, 1.790},
};

const MetalRow& row(GuptaMetal metal) {
  for (const MetalRow& r : kMetals)
    if (r.metal == metal) return r;
  throw std::invalid_argument("GuptaMetal holds an unknown value");
}

}  // namespace

void GuptaParams::check() const {
  requireFinite(p, "p");
  requireFinite(q, "q");
  requireFinite(a, "a");
  requireFinite(xi, "xi");
  requireFinite(r0, "r0");
  require(p > 0.0, "GuptaParams.p (repulsive range) must be > 0, got " + number(p));
  require(q > 0.0, "GuptaParams.q (band range) must be > 0, got " + number(q));
  require(a >= 0.0, "GuptaParams.a (repulsion energy A) must be >= 0, got " + number(a));
  require(xi >= 0.0, "GuptaParams.xi (band energy) must be >= 0, got " + number(xi));
  require(r0 > 0.0, "GuptaParams.r0 (length unit) must be > 0, got " + number(r0));
}

std::string GuptaParams::describe() const {
  return "p " + number(p) + ", q " + number(q) + ", A " + number(a) + ", xi " + number(xi) +
         ", r0 " + number(r0);
}

GuptaConstants guptaConstants(const GuptaParams& params) {
  GuptaConstants c;
  c.p = params.p;
  c.twoQ = 2.0 * params.q;
  c.a = params.a;
  c.xi = params.xi;
  c.inverseR0 = 1.0 / params.r0;
  return c;
}

const std::vector<GuptaMetal>& guptaMetals() {
  static const std::vector<GuptaMetal> metals = [] {
    std::vector<GuptaMetal> m;
    for (const MetalRow& r : kMetals) m.push_back(r.metal);
    return m;
  }();
  return metals;
}

std::string guptaMetalName(GuptaMetal metal) { return row(metal).symbol; }

GuptaMetal parseGuptaMetal(const std::string& symbol) {
  std::string known;
  for (const MetalRow& r : kMetals) {
    std::string s = symbol;
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string t = r.symbol;
    for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (s == t) return r.metal;
    known += (known.empty() ? "" : ", ") + std::string(r.symbol);
  }
  throw std::invalid_argument("no Gupta parameters for metal " + quoteInput(symbol) +
                              " (known: " + known + ")");
}

GuptaParams guptaMetalParams(GuptaMetal metal) {
  const MetalRow& r = row(metal);
  GuptaParams params;
  params.p = r.p;
  params.q = r.q;
  params.a = r.a;
  params.xi = r.xi;
  params.r0 = 1.0;
  return params;
}

bool guptaMetalOfGminType(long long type, GuptaMetal& metal) {
  for (const MetalRow& r : kMetals)
    if (r.gminType == type) {
      metal = r.metal;
      return true;
    }
  return false;
}

std::vector<long long> guptaGminTypes() {
  std::vector<long long> types;
  for (const MetalRow& r : kMetals) types.push_back(r.gminType);
  return types;
}

GuptaPotential::GuptaPotential(std::size_t atoms, const GuptaParams& params)
    : m_atoms(atoms), m_params(params) {
  if (atoms < 2) throw std::invalid_argument("a Gupta cluster needs at least 2 atoms");
  m_params.check();
  requireMemory("a Gupta cluster of " + std::to_string(atoms) + " atoms",
                static_cast<double>(atoms), 256.0);
  m_constants = guptaConstants(m_params);
  m_repulsion.resize(atoms);
  m_density.resize(atoms);
}

std::string GuptaPotential::name() const {
  return "Gupta " + std::to_string(m_atoms) + " atoms (" + m_params.describe() + ") (cpu)";
}

void GuptaPotential::atomSums(const double* x) {
  for (std::size_t i = 0; i < m_atoms; ++i) m_repulsion[i] = m_density[i] = 0.0;
  for (std::size_t i = 0; i < m_atoms; ++i)
    for (std::size_t j = i + 1; j < m_atoms; ++j) {
      const double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1],
                   dz = x[3 * i + 2] - x[3 * j + 2];
      const GuptaPairTerm t = guptaPair(m_constants, std::sqrt(dx * dx + dy * dy + dz * dz));
      m_repulsion[i] += t.repulsion;
      m_repulsion[j] += t.repulsion;
      m_density[i] += t.density;
      m_density[j] += t.density;
    }
}

double GuptaPotential::energy(const double* x) {
  atomSums(x);
  double e = 0.0;
  for (std::size_t i = 0; i < m_atoms; ++i)
    e += guptaAtomEnergy(m_constants, m_repulsion[i], m_density[i]);
  return e;
}

double GuptaPotential::energyGradient(const double* x, double* g) {
  const double e = energy(x);
  // m_density now holds 1 / sqrt(rho_i) for the second pass.
  for (std::size_t i = 0; i < m_atoms; ++i) m_density[i] = guptaInverseSqrtDensity(m_density[i]);
  for (std::size_t k = 0; k < dimension(); ++k) g[k] = 0.0;
  for (std::size_t i = 0; i < m_atoms; ++i)
    for (std::size_t j = i + 1; j < m_atoms; ++j) {
      const double d[3] = {x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1],
                           x[3 * i + 2] - x[3 * j + 2]};
      const double r = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      const GuptaPairTerm t = guptaPair(m_constants, r);
      const double dEdrOverR = guptaPairDerivative(m_constants, t, m_density[i], m_density[j]) / r;
      for (int c = 0; c < 3; ++c) {
        g[3 * i + c] += dEdrOverR * d[c];
        g[3 * j + c] -= dEdrOverR * d[c];
      }
    }
  return e;
}

std::vector<EnergyComponent> GuptaPotential::energyComponents(const double* x) {
  atomSums(x);
  double repulsion = 0.0, band = 0.0;
  for (std::size_t i = 0; i < m_atoms; ++i) {
    repulsion += m_constants.a * m_repulsion[i];
    band -= m_constants.xi * std::sqrt(m_density[i]);
  }
  return {{"REPULSION", repulsion}, {"BAND", band}};
}

bool GuptaPotential::perAtomEnergies(const double* x, double* atomEnergies) {
  atomSums(x);
  for (std::size_t i = 0; i < m_atoms; ++i)
    atomEnergies[i] = 2.0 * guptaAtomEnergy(m_constants, m_repulsion[i], m_density[i]);
  return true;
}

}  // namespace landscape
