#include "potentials/PairModel.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace landscape {

namespace {

struct CutoffName {
  PairCutoff cutoff;
  const char* name;
};
constexpr CutoffName kCutoffNames[] = {{PairCutoff::None, "none"},
                                       {PairCutoff::Truncated, "truncated"},
                                       {PairCutoff::Shifted, "shifted"},
                                       {PairCutoff::ForceShifted, "force-shifted"},
                                       {PairCutoff::QuadraticSmoothed, "quadratic-smoothed"}};

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string pairLabel(const PairModel& m, int a, int b) {
  return "pair " + m.speciesNames[a] + "-" + m.speciesNames[b];
}

}  // namespace

std::string pairCutoffName(PairCutoff cutoff) {
  for (const auto& c : kCutoffNames)
    if (c.cutoff == cutoff) return c.name;
  return "unknown";
}

PairCutoff parsePairCutoff(const std::string& name) {
  for (const auto& c : kCutoffNames)
    if (name == c.name) return c.cutoff;
  throw std::invalid_argument("unknown cutoff convention '" + name +
                              "': expected none, truncated, shifted, force-shifted or "
                              "quadratic-smoothed");
}

std::string pairLawName(PairLaw law) {
  switch (law) {
    case PairLaw::LennardJones:
      return "lennard-jones";
    case PairLaw::Morse:
      return "morse";
    case PairLaw::Tabulated:
      return "tabulated";
  }
  return "unknown";
}

PairLaw parsePairLaw(const std::string& name) {
  for (PairLaw law : {PairLaw::LennardJones, PairLaw::Morse, PairLaw::Tabulated})
    if (name == pairLawName(law)) return law;
  throw std::invalid_argument("unknown pair law '" + name +
                              "': expected lennard-jones, morse or tabulated");
}

void PairModel::setPair(int a, int b, const PairParameters& p) {
  pairs.at(a * speciesCount() + b) = p;
  pairs.at(b * speciesCount() + a) = p;
}

void PairModel::check() const {
  const int types = speciesCount();
  if (atoms() < 2)
    throw std::invalid_argument("pair model: needs at least 2 atoms, got " +
                                std::to_string(atoms()));
  if (types < 1 || types > 16)
    throw std::invalid_argument("pair model: 1 to 16 species, got " + std::to_string(types));
  if (pairs.size() != static_cast<std::size_t>(types * types))
    throw std::invalid_argument("pair model: " + std::to_string(types) + " species need " +
                                std::to_string(types * types) + " pair entries, got " +
                                std::to_string(pairs.size()));
  for (std::size_t i = 0; i < atoms(); ++i)
    if (species[i] < 0 || species[i] >= types)
      throw std::invalid_argument("pair model: atom " + std::to_string(i + 1) + " has species " +
                                  std::to_string(species[i]) + ", outside 0.." +
                                  std::to_string(types - 1));
  for (int k = 0; k < 3; ++k)
    if (!(box.length[k] >= 0.0) || !std::isfinite(box.length[k]))
      throw std::invalid_argument("pair model: box edge " + std::to_string(k + 1) +
                                  " must be finite and >= 0 (0 = open), got " +
                                  number(box.length[k]));
  if (box.periodic() && cutoff == PairCutoff::None)
    throw std::invalid_argument(
        "pair model: a periodic box needs a cutoff convention (truncated, shifted, force-shifted "
        "or quadratic-smoothed) and a cutoff below half the box");
  for (int a = 0; a < types; ++a) {
    for (int b = 0; b < types; ++b) {
      const PairParameters& p = pair(a, b);
      const PairParameters& q = pair(b, a);
      const std::string label = pairLabel(*this, a, b);
      if (p.epsilon != q.epsilon || p.sigma != q.sigma || p.rho != q.rho ||
          p.cutoff != q.cutoff || p.table != q.table)
        throw std::invalid_argument("pair model: " + label + " differs from its mirror");
      if (law != PairLaw::Tabulated) {
        if (!(p.epsilon > 0.0) || !std::isfinite(p.epsilon))
          throw std::invalid_argument("pair model: " + label + " epsilon must be > 0, got " +
                                      number(p.epsilon));
        if (!(p.sigma > 0.0) || !std::isfinite(p.sigma))
          throw std::invalid_argument("pair model: " + label +
                                      (law == PairLaw::Morse ? " r0" : " sigma") +
                                      " must be > 0, got " + number(p.sigma));
      }
      if (law == PairLaw::Morse && (!(p.rho > 0.0) || !std::isfinite(p.rho)))
        throw std::invalid_argument("pair model: " + label + " Morse rho must be > 0, got " +
                                    number(p.rho));
      if (law == PairLaw::Tabulated &&
          (p.table < 0 || p.table >= static_cast<int>(tables.size())))
        throw std::invalid_argument("pair model: " + label + " refers to table " +
                                    std::to_string(p.table) + " of " +
                                    std::to_string(tables.size()));
      if (cutoff == PairCutoff::None) {
        if (p.cutoff != 0.0)
          throw std::invalid_argument("pair model: " + label + " has a cutoff of " +
                                      number(p.cutoff) + " but the convention is 'none'");
        continue;
      }
      if (!(p.cutoff > 0.0) || !std::isfinite(p.cutoff))
        throw std::invalid_argument("pair model: " + label + " needs a cutoff > 0 with the '" +
                                    pairCutoffName(cutoff) + "' convention, got " +
                                    number(p.cutoff));
      for (int k = 0; k < 3; ++k)
        if (box.length[k] > 0.0 && 2.0 * p.cutoff > box.length[k])
          throw std::invalid_argument(
              "pair model: " + label + " cutoff " + number(p.cutoff) +
              " exceeds half the box edge " + number(box.length[k]) +
              " (the minimum-image convention would miss pairs): enlarge the box or cut shorter");
      if (law == PairLaw::Tabulated && p.cutoff > tables[p.table].end() + 1e-12)
        throw std::invalid_argument("pair model: " + label + " cutoff " + number(p.cutoff) +
                                    " lies beyond the end of its table (" +
                                    number(tables[p.table].end()) + ", " +
                                    tables[p.table].source + ")");
    }
  }
  if (law == PairLaw::Tabulated && cutoff == PairCutoff::None)
    throw std::invalid_argument(
        "pair model: a tabulated pair needs a cutoff at or before the table's end");
}

bool PairModel::needsDistance() const {
  return law != PairLaw::LennardJones || cutoff == PairCutoff::ForceShifted;
}

std::vector<double> PairModel::tableCoefficients() const {
  std::vector<double> all;
  for (const PairTable& t : tables) all.insert(all.end(), t.coefficients.begin(), t.coefficients.end());
  return all;
}

std::vector<PairCoefficients> PairModel::coefficients() const {
  std::vector<int> offsets;
  int offset = 0;
  for (const PairTable& t : tables) {
    offsets.push_back(offset);
    offset += t.pieces();
  }
  const std::vector<double> tableData = tableCoefficients();
  PairSystemView view;
  view.law = law;
  view.tableCoefficients = tableData.data();
  view.needsDistance = true;

  std::vector<PairCoefficients> out(pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const PairParameters& p = pairs[k];
    PairCoefficients& c = out[k];
    const double s6 = std::pow(p.sigma, 6);
    c.c6 = 4.0 * p.epsilon * s6;
    c.c12 = 4.0 * p.epsilon * s6 * s6;
    c.epsilon = p.epsilon;
    c.r0 = p.sigma;
    c.alpha = p.rho / p.sigma;
    if (law == PairLaw::Tabulated && p.table >= 0) {
      const PairTable& t = tables.at(p.table);
      c.tableOffset = offsets[p.table];
      c.tablePieces = t.pieces();
      c.tableStart = t.start;
      c.tableWidth = t.width;
      c.tableInverseWidth = 1.0 / t.width;
    }
    if (cutoff == PairCutoff::None) continue;
    const double rc = p.cutoff;
    double v, dvOverR;
    pairLawValue(view, c, rc * rc, rc, v, dvOverR);
    const double dv = dvOverR * rc;  // V'(rc)
    c.cutoff2 = rc * rc;
    switch (cutoff) {
      case PairCutoff::None:
      case PairCutoff::Truncated:
        break;
      case PairCutoff::Shifted:
        c.shift0 = -v;
        break;
      case PairCutoff::ForceShifted:
        c.shift0 = -v + rc * dv;
        c.shift1 = -dv;
        break;
      case PairCutoff::QuadraticSmoothed:
        c.shift2 = -dv / (2.0 * rc);
        c.shift0 = -v - c.shift2 * rc * rc;
        break;
    }
  }
  return out;
}

std::string PairModel::describe() const {
  std::ostringstream s;
  std::vector<std::size_t> counts(speciesNames.size(), 0);
  for (int t : species)
    if (t >= 0 && t < speciesCount()) ++counts[t];
  s << (law == PairLaw::LennardJones ? "Lennard-Jones"
        : law == PairLaw::Morse       ? "Morse rho " + number(pairs.empty() ? 0 : pairs[0].rho)
                                      : "tabulated pair");
  s << " " << atoms() << " atoms";
  if (speciesCount() > 1) {
    s << " (";
    for (int t = 0; t < speciesCount(); ++t) s << (t ? " + " : "") << counts[t] << " " << speciesNames[t];
    s << ")";
  }
  if (cutoff != PairCutoff::None && !pairs.empty())
    s << ", " << pairCutoffName(cutoff) << " at " << number(pairs[0].cutoff)
      << (speciesCount() > 1 ? " (first pair)" : "");
  if (box.periodic())
    s << ", box " << number(box.length[0]) << " x " << number(box.length[1]) << " x "
      << number(box.length[2]);
  return s.str();
}

PairModel lennardJonesModel(std::size_t atoms) {
  PairModel m;
  m.species.assign(atoms, 0);
  m.speciesNames = {"A"};
  m.pairs.assign(1, PairParameters{});
  return m;
}

PairModel binaryLennardJonesModel(std::size_t atoms, std::size_t typeA, double epsilonAB,
                                  double epsilonBB, double sigmaAB, double sigmaBB,
                                  double cutoffInSigma, PairCutoff convention) {
  if (typeA > atoms)
    throw std::invalid_argument("binary Lennard-Jones: " + std::to_string(typeA) +
                                " A atoms of " + std::to_string(atoms));
  PairModel m;
  m.species.assign(atoms, 1);
  for (std::size_t i = 0; i < typeA; ++i) m.species[i] = 0;
  m.speciesNames = {"A", "B"};
  m.pairs.assign(4, PairParameters{});
  m.cutoff = cutoffInSigma > 0.0 ? convention : PairCutoff::None;
  const double eps[2][2] = {{1.0, epsilonAB}, {epsilonAB, epsilonBB}};
  const double sig[2][2] = {{1.0, sigmaAB}, {sigmaAB, sigmaBB}};
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      PairParameters p;
      p.epsilon = eps[a][b];
      p.sigma = sig[a][b];
      p.cutoff = cutoffInSigma > 0.0 ? cutoffInSigma * sig[a][b] : 0.0;
      m.pairs[a * 2 + b] = p;
    }
  return m;
}

PairModel kobAndersenModel(std::size_t atoms, double cutoffInSigma, PairCutoff convention,
                           const PeriodicBox& box) {
  const std::size_t typeA = static_cast<std::size_t>(std::llround(0.8 * static_cast<double>(atoms)));
  PairModel m =
      binaryLennardJonesModel(atoms, typeA, 1.5, 0.5, 0.8, 0.88, cutoffInSigma, convention);
  m.box = box;
  return m;
}

PairModel morseModel(std::size_t atoms, double rho) {
  PairModel m = lennardJonesModel(atoms);
  m.law = PairLaw::Morse;
  m.pairs[0].rho = rho;
  return m;
}

}  // namespace landscape
