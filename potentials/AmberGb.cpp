#include "potentials/AmberGb.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "landscape/core/Require.h"

namespace landscape {

namespace {

// sander's GB constants (egb.F90, mdread): radius offset and the OBC rescaling parameters.
constexpr double kGbOffset = 0.09;                                          // Angstrom
constexpr double kObc1Alpha = 0.8, kObc1Beta = 0.0, kObc1Gamma = 2.909125;  // igb = 2
constexpr double kObc2Alpha = 1.0, kObc2Beta = 0.8, kObc2Gamma = 4.85;      // igb = 5

std::string number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

}  // namespace

double AmberGbParams::kappa() const { return 0.73 * std::sqrt(0.10806 * saltcon); }

void AmberGbParams::check() const {
  require(igb == 1 || igb == 2 || igb == 5,
          "AmberGbParams.igb must be 1 (HCT), 2 (OBC I) or 5 (OBC II), got " + std::to_string(igb));
  require(
      std::isfinite(saltcon) && saltcon >= 0.0,
      "AmberGbParams.saltcon must be a finite concentration >= 0 mol/L, got " + number(saltcon));
  require(std::isfinite(rgbmax) && rgbmax > 0.0,
          "AmberGbParams.rgbmax must be a finite length > 0 Angstrom, got " + number(rgbmax));
  require(cut > 0.0, "AmberGbParams.cut must be a length > 0 Angstrom (infinity: no cutoff), got " +
                         number(cut));
  require(
      std::isfinite(dielectricInterior) && dielectricInterior > 0.0,
      "AmberGbParams.dielectricInterior must be finite and > 0, got " + number(dielectricInterior));
  require(
      std::isfinite(dielectricExterior) && dielectricExterior > 0.0,
      "AmberGbParams.dielectricExterior must be finite and > 0, got " + number(dielectricExterior));
}

AmberGbTables buildAmberGbTables(const AmberTopology& top, const AmberGbParams& params) {
  params.check();
  const std::size_t n = static_cast<std::size_t>(top.atomCount);
  const std::string where = "prmtop " + top.path + ": ";
  require(top.gbRadii.size() == n && top.gbScreen.size() == n,
          where +
              "GB needs intrinsic radii and screening factors (%FLAG RADII and %FLAG SCREEN), "
              "which this file lacks; add them with ParmEd (changeRadii mbondi2)");
  AmberGbTables t;

  // ---- GB model ----
  t.model.igb = params.igb;
  t.model.alpha = params.igb == 5 ? kObc2Alpha : params.igb == 2 ? kObc1Alpha : 0.0;
  t.model.beta = params.igb == 5 ? kObc2Beta : params.igb == 2 ? kObc1Beta : 0.0;
  t.model.gamma = params.igb == 5 ? kObc2Gamma : params.igb == 2 ? kObc1Gamma : 0.0;
  t.model.offset = kGbOffset;
  t.model.rgbmax = params.rgbmax;
  t.model.kappa = params.kappa();
  t.model.interiorInverse = 1.0 / params.dielectricInterior;
  t.model.exteriorInverse = 1.0 / params.dielectricExterior;
  t.model.cutoff2 = params.cut * params.cut;

  t.charges = top.charges;
  t.gbRadius = top.gbRadii;
  t.gbRho.resize(n);
  t.gbScreened.resize(n);
  for (std::size_t a = 0; a < n; ++a) {
    require(top.gbRadii[a] > kGbOffset,
            where + "atom " + std::to_string(a + 1) + " (" + top.atomNames[a] + ") has GB radius " +
                number(top.gbRadii[a]) + " A in %FLAG RADII; it must exceed the offset 0.09 A");
    require(top.gbScreen[a] >= 0.0, where + "atom " + std::to_string(a + 1) +
                                        " has a negative screening factor in %FLAG SCREEN");
    t.gbRho[a] = top.gbRadii[a] - kGbOffset;
    t.gbScreened[a] = top.gbScreen[a] * t.gbRho[a];
    t.gbScreenedMax = std::max(t.gbScreenedMax, t.gbScreened[a]);
  }
  // sander (mdread) refuses rgbmax < 5 fsmax: the branch order of the descreening integral
  // assumes that the smooth rgbmax shell lies beyond 4 s_j.
  require(params.rgbmax >= 5.0 * t.gbScreenedMax,
          "AmberGbParams.rgbmax = " + number(params.rgbmax) +
              " A is below sander's minimum, 5 x the largest screened radius = " +
              number(5.0 * t.gbScreenedMax) + " A for " + top.path);

  // ---- Lennard-Jones type matrix ----
  const int types = top.typeCount;
  t.ljTypeCount = types;
  t.ljTypes = top.ljTypes;
  std::vector<bool> used(static_cast<std::size_t>(types), false);
  for (int type : top.ljTypes) used[static_cast<std::size_t>(type)] = true;
  t.ljA.assign(static_cast<std::size_t>(types) * types, 0.0);
  t.ljB.assign(static_cast<std::size_t>(types) * types, 0.0);
  for (int a = 0; a < types; ++a) {
    for (int b = 0; b < types; ++b) {
      const std::size_t k = static_cast<std::size_t>(a * types + b);
      const int index = top.nonbondedParmIndex[k];
      if (index > 0) {
        t.ljA[k] = top.ljACoefficients[static_cast<std::size_t>(index - 1)];
        t.ljB[k] = top.ljBCoefficients[static_cast<std::size_t>(index - 1)];
      } else if (index < 0 && used[static_cast<std::size_t>(a)] &&
                 used[static_cast<std::size_t>(b)]) {
        const std::size_t h = static_cast<std::size_t>(-index - 1);
        require(top.hbondACoefficients[h] == 0.0 && top.hbondBCoefficients[h] == 0.0,
                where + "Lennard-Jones types " + std::to_string(a + 1) + " and " +
                    std::to_string(b + 1) +
                    " use a non-zero 10-12 hydrogen-bond term (%FLAG HBOND_ACOEF); 10-12 terms "
                    "are not supported");
      }
    }
  }

  // ---- bonded terms ----
  for (const AmberBond& b : top.bonds)
    t.bonds.push_back({b.i, b.j, top.bondForceConstants[static_cast<std::size_t>(b.type)],
                       top.bondEquilibria[static_cast<std::size_t>(b.type)]});
  for (const AmberAngle& a : top.angles)
    t.angles.push_back({a.i, a.j, a.k, top.angleForceConstants[static_cast<std::size_t>(a.type)],
                        top.angleEquilibria[static_cast<std::size_t>(a.type)]});
  for (const AmberDihedral& d : top.dihedrals) {
    const std::size_t type = static_cast<std::size_t>(d.type);
    AmberDihedralTerm term{d.i,
                           d.j,
                           d.k,
                           d.l,
                           top.dihedralForceConstants[type],
                           std::fabs(top.dihedralPeriodicities[type]),
                           0.0,
                           0.0};
    amberDihedralPhase(term.forceConstant, top.dihedralPhases[type], &term.gamc, &term.gams);
    t.dihedrals.push_back(term);
    if (!d.computes14) continue;
    const double scee = top.sceeScaleFactors[type], scnb = top.scnbScaleFactors[type];
    require(scee > 0.0 && scnb > 0.0,
            where + "dihedral type " + std::to_string(type + 1) + " carries a 1-4 pair (atoms " +
                std::to_string(d.i + 1) + ", " + std::to_string(d.l + 1) + ") but has SCEE = " +
                number(scee) + ", SCNB = " + number(scnb) + "; both must be > 0");
    const std::size_t ti = static_cast<std::size_t>(top.ljTypes[static_cast<std::size_t>(d.i)]);
    const std::size_t tl = static_cast<std::size_t>(top.ljTypes[static_cast<std::size_t>(d.l)]);
    const std::size_t k = ti * static_cast<std::size_t>(types) + tl;
    t.pairs14.push_back(
        {d.i, d.l,
         top.charges[static_cast<std::size_t>(d.i)] * top.charges[static_cast<std::size_t>(d.l)] /
             (scee * params.dielectricInterior),
         t.ljA[k] / scnb, t.ljB[k] / scnb});
  }

  // ---- exclusions: row i keeps its partners j > i (sander's loop over j > i reads only those)
  t.exclusionOffsets.push_back(0);
  for (std::size_t a = 0; a < n; ++a) {
    std::vector<int> row;
    for (int e = top.excludedOffsets[a]; e < top.excludedOffsets[a + 1]; ++e) {
      const int j = top.excludedAtoms[static_cast<std::size_t>(e)];
      if (j > static_cast<int>(a)) row.push_back(j);
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    t.exclusions.insert(t.exclusions.end(), row.begin(), row.end());
    t.exclusionOffsets.push_back(static_cast<int>(t.exclusions.size()));
  }
  return t;
}

AmberGb::AmberGb(const AmberTopology& topology, const AmberGbParams& params)
    : m_topology(topology),
      m_params(params),
      m_tables(buildAmberGbTables(topology, params)),
      m_atoms(static_cast<std::size_t>(topology.atomCount)),
      m_sum(m_atoms),
      m_born(m_atoms),
      m_dBornDSum(m_atoms),
      m_dEdBorn(m_atoms),
      m_excludedMark(m_atoms, -1) {}

std::string AmberGb::name() const {
  return "AMBER GB igb=" + std::to_string(m_params.igb) + " " + std::to_string(m_atoms) +
         " atoms (cpu)";
}

double AmberGb::energy(const double* x) { return evaluate(x, nullptr, nullptr, nullptr).total(); }

double AmberGb::energyGradient(const double* x, double* g) {
  return evaluate(x, g, nullptr, nullptr).total();
}

AmberEnergyBreakdown AmberGb::breakdown(const double* x) { return evaluate(x, nullptr, nullptr, nullptr); }

std::vector<EnergyComponent> AmberGb::energyComponents(const double* x) {
  const AmberEnergyBreakdown e = evaluate(x, nullptr, nullptr, nullptr);
  return {{"BOND", e.bond}, {"ANGLE", e.angle},   {"DIHED", e.dihedral}, {"VDWAALS", e.vdw},
          {"EELEC", e.eel}, {"1-4_VDW", e.vdw14}, {"1-4_EEL", e.eel14},  {"EGB", e.egb}};
}

bool AmberGb::perAtomEnergies(const double* x, double* atomEnergies) {
  evaluate(x, nullptr, atomEnergies, nullptr);
  return true;
}

AmberEnergyBreakdown AmberGb::absoluteSums(const double* x) {
  AmberEnergyBreakdown magnitudes;
  evaluate(x, nullptr, nullptr, &magnitudes);
  return magnitudes;
}

std::vector<double> AmberGb::bornRadii(const double* x) {
  evaluate(x, nullptr, nullptr, nullptr);
  return m_born;
}

AmberEnergyBreakdown AmberGb::evaluate(const double* x, double* g, double* atomEnergies,
                                       AmberEnergyBreakdown* magnitudes) {
  const AmberGbTables& t = m_tables;
  const AmberGbModel& model = t.model;
  const std::size_t n = m_atoms;
  if (g)
    for (std::size_t k = 0; k < 3 * n; ++k) g[k] = 0.0;
  if (atomEnergies)
    for (std::size_t a = 0; a < n; ++a) atomEnergies[a] = 0.0;
  const auto addGradient = [g](int atom, const double* d, double scale) {
    for (int c = 0; c < 3; ++c) g[3 * atom + c] += scale * d[c];
  };
  AmberEnergyBreakdown e;
  AmberEnergyBreakdown unused;
  AmberEnergyBreakdown& m = magnitudes ? *magnitudes : unused;
  m = AmberEnergyBreakdown{};

  // ---- bonded terms ----
  for (const AmberBondTerm& b : t.bonds) {
    double gi[3];
    const double v = amberBond(x + 3 * b.i, x + 3 * b.j, b.forceConstant, b.equilibrium, gi);
    e.bond += v;
    m.bond += std::fabs(v);
    if (g) {
      addGradient(b.i, gi, 1.0);
      addGradient(b.j, gi, -1.0);
    }
    if (atomEnergies) {
      atomEnergies[b.i] += v;
      atomEnergies[b.j] += v;
    }
  }
  for (const AmberAngleTerm& a : t.angles) {
    double gi[3], gk[3];
    const double v =
        amberAngle(x + 3 * a.i, x + 3 * a.j, x + 3 * a.k, a.forceConstant, a.equilibrium, gi, gk);
    e.angle += v;
    m.angle += std::fabs(v);
    if (g) {
      addGradient(a.i, gi, 1.0);
      addGradient(a.k, gk, 1.0);
      addGradient(a.j, gi, -1.0);
      addGradient(a.j, gk, -1.0);
    }
    if (atomEnergies)
      for (int atom : {a.i, a.j, a.k}) atomEnergies[atom] += 2.0 * v / 3.0;
  }
  for (const AmberDihedralTerm& d : t.dihedrals) {
    double gd[12];
    const double v = amberDihedral(x + 3 * d.i, x + 3 * d.j, x + 3 * d.k, x + 3 * d.l, d, gd);
    e.dihedral += v;
    m.dihedral += std::fabs(v);
    if (g) {
      addGradient(d.i, gd, 1.0);
      addGradient(d.j, gd + 3, 1.0);
      addGradient(d.k, gd + 6, 1.0);
      addGradient(d.l, gd + 9, 1.0);
    }
    if (atomEnergies)
      for (int atom : {d.i, d.j, d.k, d.l}) atomEnergies[atom] += 0.5 * v;
  }
  for (const AmberPair14Term& p : t.pairs14) {
    const double* xi = x + 3 * p.i;
    const double* xj = x + 3 * p.j;
    const double d[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
    const double r2 = amberDot(d, d);
    const AmberPairTerm lj = amberLennardJones(r2, p.a, p.b);
    const AmberPairTerm el = amberCoulomb(r2, p.chargeProduct);
    e.vdw14 += lj.energy;
    e.eel14 += el.energy;
    m.vdw14 += std::fabs(lj.energy);
    m.eel14 += std::fabs(el.energy);
    if (g) {
      addGradient(p.i, d, lj.dEdrOverR + el.dEdrOverR);
      addGradient(p.j, d, -(lj.dEdrOverR + el.dEdrOverR));
    }
    if (atomEnergies) {
      atomEnergies[p.i] += lj.energy + el.energy;
      atomEnergies[p.j] += lj.energy + el.energy;
    }
  }

  // ---- Born radii: I_i = sum_j I_ij over all j != i within rgbmax + s_j (no exclusions) ----
  const double descreenCut = model.rgbmax + t.gbScreenedMax;
  const double descreenCut2 = descreenCut * descreenCut;
  std::fill(m_sum.begin(), m_sum.end(), 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const double* xi = x + 3 * i;
    for (std::size_t j = i + 1; j < n; ++j) {
      const double* xj = x + 3 * j;
      const double d[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
      const double r2 = amberDot(d, d);
      if (r2 > descreenCut2) continue;
      const double r = std::sqrt(r2);
      m_sum[i] += amberDescreening(r, t.gbRho[i], t.gbScreened[j], model.rgbmax).value;
      m_sum[j] += amberDescreening(r, t.gbRho[j], t.gbScreened[i], model.rgbmax).value;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const AmberBornRadius born = amberBornRadius(m_sum[i], t.gbRadius[i], model);
    m_born[i] = born.radius;
    m_dBornDSum[i] = born.dRadiusDSum;
  }

  // ---- GB self terms ----
  std::fill(m_dEdBorn.begin(), m_dEdBorn.end(), 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const AmberGbSelfTerm self = amberGbSelf(t.charges[i], m_born[i], model);
    e.egb += self.energy;
    m.egb += std::fabs(self.energy);
    m_dEdBorn[i] += self.dEdB;
    if (atomEnergies) atomEnergies[i] += 2.0 * self.energy;
  }

  // ---- the pairs within cut: GB pair term (no exclusions), LJ and Coulomb (non-excluded) ----
  std::fill(m_excludedMark.begin(), m_excludedMark.end(), -1);
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = t.exclusionOffsets[i]; k < t.exclusionOffsets[i + 1]; ++k)
      m_excludedMark[static_cast<std::size_t>(t.exclusions[static_cast<std::size_t>(k)])] =
          static_cast<int>(i);
    const double* xi = x + 3 * i;
    const double qi = t.charges[i];
    const std::size_t typeRow =
        static_cast<std::size_t>(t.ljTypes[i]) * static_cast<std::size_t>(t.ljTypeCount);
    double gxi[3] = {0.0, 0.0, 0.0};
    for (std::size_t j = i + 1; j < n; ++j) {
      const double* xj = x + 3 * j;
      const double d[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
      const double r2 = amberDot(d, d);
      if (r2 > model.cutoff2) continue;  // sander's cut (egb.F90, Step 2 keeps r^2 <= cut^2)
      const double qiqj = qi * t.charges[j];
      const AmberGbPairTerm gb = amberGbPair(r2, qiqj, m_born[i], m_born[j], model);
      e.egb += gb.energy;
      m.egb += std::fabs(gb.energy);
      m_dEdBorn[i] += gb.dEdBi;
      m_dEdBorn[j] += gb.dEdBj;
      double dEdrOverR = gb.dEdrOverR;
      double pairEnergy = gb.energy;
      if (m_excludedMark[j] != static_cast<int>(i)) {
        const std::size_t type = typeRow + static_cast<std::size_t>(t.ljTypes[j]);
        const AmberPairTerm lj = amberLennardJones(r2, t.ljA[type], t.ljB[type]);
        const AmberPairTerm el = amberCoulomb(r2, qiqj * model.interiorInverse);
        e.vdw += lj.energy;
        e.eel += el.energy;
        m.vdw += std::fabs(lj.energy);
        m.eel += std::fabs(el.energy);
        dEdrOverR += lj.dEdrOverR + el.dEdrOverR;
        pairEnergy += lj.energy + el.energy;
      }
      if (g) {
        for (int c = 0; c < 3; ++c) {
          gxi[c] += dEdrOverR * d[c];
          g[3 * j + static_cast<std::size_t>(c)] -= dEdrOverR * d[c];
        }
      }
      if (atomEnergies) {
        atomEnergies[i] += pairEnergy;
        atomEnergies[j] += pairEnergy;
      }
    }
    if (g)
      for (int c = 0; c < 3; ++c) g[3 * i + static_cast<std::size_t>(c)] += gxi[c];
  }

  // ---- chain rule through the Born radii: dE/dx += sum_i dE/dB_i dB_i/dI_i dI_i/dx ----
  if (g) {
    for (std::size_t i = 0; i < n; ++i) m_dEdBorn[i] *= m_dBornDSum[i];
    for (std::size_t i = 0; i < n; ++i) {
      const double* xi = x + 3 * i;
      double gxi[3] = {0.0, 0.0, 0.0};
      for (std::size_t j = i + 1; j < n; ++j) {
        const double* xj = x + 3 * j;
        const double d[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
        const double r2 = amberDot(d, d);
        if (r2 > descreenCut2) continue;
        const double r = std::sqrt(r2);
        const double dIij = amberDescreening(r, t.gbRho[i], t.gbScreened[j], model.rgbmax).dValueDr;
        const double dIji = amberDescreening(r, t.gbRho[j], t.gbScreened[i], model.rgbmax).dValueDr;
        const double dEdrOverR = (m_dEdBorn[i] * dIij + m_dEdBorn[j] * dIji) / r;
        for (int c = 0; c < 3; ++c) {
          gxi[c] += dEdrOverR * d[c];
          g[3 * j + static_cast<std::size_t>(c)] -= dEdrOverR * d[c];
        }
      }
      for (int c = 0; c < 3; ++c) g[3 * i + static_cast<std::size_t>(c)] += gxi[c];
    }
  }
  return e;
}

std::string amberSinglePointReport(Potential& potential, const std::vector<double>& x) {
  if (x.size() != potential.dimension())
    throw std::invalid_argument("amberSinglePointReport: expected " +
                                std::to_string(potential.dimension()) + " coordinates, got " +
                                std::to_string(x.size()));
  const std::vector<EnergyComponent> components = potential.energyComponents(x.data());
  std::vector<double> g(x.size());
  potential.energyGradient(x.data(), g.data());
  double g2 = 0.0;
  for (double v : g) g2 += v * v;
  const double rms = std::sqrt(g2 / static_cast<double>(g.size()));
  std::string report;
  char buffer[96];
  double total = 0.0;  // the components in order, as AmberEnergyBreakdown::total() adds them
  for (const EnergyComponent& c : components) {
    std::snprintf(buffer, sizeof buffer, "%s %.6f\n", c.name.c_str(), c.value);
    report += buffer;
    total += c.value;
  }
  std::snprintf(buffer, sizeof buffer, "TOTAL %.6f\nRMS_GRADIENT %.6f\n", total, rms);
  return report + buffer;
}

}  // namespace landscape
