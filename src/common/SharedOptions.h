#pragma once
// Options that several programs share, declared once for all of them: where the potential and
// L-BFGS run, the AMBER topology, coordinates and generalized-Born settings (gmin, optim,
// pathsample), local rigid bodies (gmin, optim), pair systems (gmin, optim, pathsample: Morse,
// binary Lennard-Jones, Kob-Andersen, tables, cutoffs and periodic boxes; src/common/PairSystem.h),
// Gupta metal clusters (gmin, optim, pathsample; src/common/GuptaSystem.h),
// the SOP model parameters (gmin --sop-*, sop), the site of the rigid-body finder
// (make_rigid_bodies, bench_rigid) and the ions among TIP4P molecules (gmin, optim, pathsample).
// Each takes the table and where the settings live in that program's configuration.
#include <stdexcept>
#include <string>

#include "backends/LbfgsWorkspaceFactory.h"
#include "landscape/core/Precision.h"
#include "landscape/geometry/RigidBodyFinder.h"
#include "potentials/AmberGb.h"
#include "potentials/GayBerne.h"
#include "potentials/Potential.h"
#include "potentials/SopTopology.h"
#include "potentials/WaterCluster.h"
#include "src/common/GuptaSystem.h"
#include "src/common/OptionTable.h"
#include "src/common/PairSystem.h"

namespace landscape {

/// --backend cpu|cuda: where energies and gradients are computed.
template <class Config, class Access>
typename OptionTable<Config>::Builder addBackendOption(OptionTable<Config>& t, Access field) {
  return t.add("backend", "", "where energies and gradients are computed", field)
      .choices({Backend::Cpu, Backend::Cuda}, backendName);
}

/// --lbfgs-backend cpu|gpu with the program's description of what lives where.
template <class Config, class Access>
typename OptionTable<Config>::Builder addLbfgsBackendOption(OptionTable<Config>& t,
                                                            std::string description, Access field) {
  return t.add("lbfgs-backend", "", std::move(description), field)
      .choices({LbfgsBackend::Cpu, LbfgsBackend::Gpu}, lbfgsBackendName);
}

/// --precision double|mixed of the CUDA AMBER-GB pair terms; `more` is added to the description.
template <class Config, class Access>
typename OptionTable<Config>::Builder addPrecisionOption(OptionTable<Config>& t,
                                                         const std::string& more, Access field) {
  return t
      .add("precision", "",
           "arithmetic of the CUDA AMBER-GB pair terms: double (all FP64; for quenches to RMS "
           "1e-5) or mixed (pair arithmetic in FP32, sums in FP64; for dynamics and loose "
           "quenches)" +
               more,
           field)
      .choices({Precision::Double, Precision::Mixed}, precisionName);
}

/// --lbfgs-m: an L-BFGS history size m (stored {s, y} pairs, >= 1; GMIN's and OPTIM's keyword
/// UPDATES), or on a list field the sizes to sweep (tools). `name` for a second one (optim's
/// --tangent-lbfgs-m). The default is the field's, kLbfgsHistorySize unless a program says else.
template <class Config, class Access>
typename OptionTable<Config>::Builder addLbfgsHistoryOption(OptionTable<Config>& t,
                                                            std::string description, Access field,
                                                            std::string name = "lbfgs-m") {
  using Field = std::remove_reference_t<decltype(field(std::declval<Config&>()))>;
  const char* value = option_field::IsVector<Field>::value ? "LIST" : "M";
  return t.add(std::move(name), value, std::move(description), field).atLeast(1);
}

/// --prmtop FILE: the AMBER topology, which makes the system a molecule on AMBER-GB (gmin, optim,
/// pathsample); `more` follows "AMBER topology: " in the description and says what the program
/// does with it.
template <class Config, class Access>
typename OptionTable<Config>::Builder addPrmtopOption(OptionTable<Config>& t,
                                                      const std::string& more, Access field) {
  return t.add("prmtop", "FILE", "AMBER topology: " + more, field)
      .file()
      .defaultText("none (Lennard-Jones)");
}

/// --inpcrd FILE: AMBER coordinates of the topology (gmin, optim); `more` is added to the
/// description.
template <class Config, class Access>
typename OptionTable<Config>::Builder addInpcrdOption(OptionTable<Config>& t,
                                                      const std::string& more, Access field) {
  return t.add("inpcrd", "FILE", "AMBER coordinates (inpcrd/rst7, Angstrom)" + more, field).file();
}

/// --rigid FILE: local rigid bodies, GMIN-style GROUP blocks (gmin, optim; docs/rigid-bodies.md);
/// `more` is added to the description and says what the program does with them.
template <class Config, class Access>
typename OptionTable<Config>::Builder addRigidOption(OptionTable<Config>& t,
                                                     const std::string& more, Access field) {
  return t
      .add("rigid", "FILE",
           "local rigid bodies: GMIN-style GROUP blocks of 1-based atom indices " + more, field)
      .file()
      .defaultText("none (all atoms atomistic)");
}

/// --igb, --saltcon, --rgbmax, --cut: the GB model of AMBER-GB (`amber` reaches AmberGbParams).
template <class Config, class Access>
void addAmberGbOptions(OptionTable<Config>& t, Access amber,
                       typename OptionTable<Config>::Condition inEffect = nullptr) {
  auto field = [amber](auto member) {
    return [ amber, member ](Config & c) -> auto& { return amber(c).*member; };
  };
  t.add("igb", "", "generalized Born model: 1 HCT, 2 OBC-I, 5 OBC-II", field(&AmberGbParams::igb))
      .oneOf({1, 2, 5})
      .inEffectIf(inEffect);
  t.add("saltcon", "M", "salt concentration, Debye-Hueckel screening of GB",
        field(&AmberGbParams::saltcon))
      .unit("mol/L")
      .nonNegative()
      .inEffectIf(inEffect);
  t.add("rgbmax", "A", "cutoff of the Born-radius sums, AMBER's rgbmax",
        field(&AmberGbParams::rgbmax))
      .unit("Angstrom")
      .positive()
      .inEffectIf(inEffect);
  t.add("cut", "A",
        "non-bonded cutoff, sander's cut: pairs farther apart have no EELEC, VDWAALS or GB "
        "off-diagonal term (Born radii, self and 1-4 terms are not cut)",
        field(&AmberGbParams::cut))
      .unit("Angstrom")
      .positive()
      .defaultText("none (every pair; sander's 9999)")
      .inEffectIf(inEffect);
}

/// The SOP force field of Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, Appendix
/// B (`sop` reaches SopParams), each option named `prefix` + fene-k, fene-r0, eps-native, ...
/// (gmin: "sop-", sop: "").
template <class Config, class Access>
void addSopModelOptions(OptionTable<Config>& t, const std::string& prefix, Access sop,
                        typename OptionTable<Config>::Condition inEffect = nullptr) {
  struct Row {
    const char* name;
    const char* valueName;
    const char* description;
    const char* unit;
    double SopParams::*field;
    bool positive;
  };
  const Row rows[] = {
      {"fene-k", "K", "FENE spring constant k; 20 = 14 N/m", "kcal/mol/A^2", &SopParams::feneK,
       true},
      {"fene-r0", "A", "FENE tolerance R0", "Angstrom", &SopParams::feneR0, true},
      {"eps-native", "E", "native-contact depth eps_n", "kcal/mol", &SopParams::nativeEpsilon,
       false},
      {"eps-repulsive", "E", "repulsion strength eps_r", "kcal/mol", &SopParams::repulsiveEpsilon,
       false},
      {"sigma", "A", "repulsion range sigma", "Angstrom", &SopParams::sigma, true},
      {"native-cutoff", "A", "pairs (|i-j| > 2) closer than this in the PDB are native contacts",
       "Angstrom", &SopParams::nativeCutoff, true},
      {"repulsive-cutoff", "A", "the repulsion is cut and force-shifted here", "Angstrom",
       &SopParams::repulsiveCutoff, true},
      {"chain-break", "A", "consecutive C-alpha atoms farther apart than this start a new chain",
       "Angstrom", &SopParams::chainBreakDistance, true},
  };
  for (const Row& r : rows) {
    auto b = t.add(prefix + r.name, r.valueName, r.description,
                   [sop, member = r.field](Config& c) -> double& { return sop(c).*member; })
                 .unit(r.unit)
                 .inEffectIf(inEffect);
    r.positive ? b.positive() : b.nonNegative();
  }
}

/// --site-residues, --site-atoms, --atomistic-radius, --large-body-radius of the rigid-body
/// finder (`finder` reaches RigidBodyFinderParams): the large body of Mantell, Pitt and Wales, J.
/// Chem. Theory Comput. 2016, Table 5.
template <class Config, class Access>
void addRigidBodySiteOptions(OptionTable<Config>& t, Access finder) {
  auto field = [finder](auto member) {
    return [ finder, member ](Config & c) -> auto& { return finder(c).*member; };
  };
  t.add("site-residues", "LIST", "1-based residues of the site, comma-separated",
        field(&RigidBodyFinderParams::centreResidues))
      .atLeast(1);
  t.add("site-atoms", "LIST", "1-based atoms of the site, comma-separated",
        field(&RigidBodyFinderParams::centreAtoms))
      .atLeast(1);
  t.add("atomistic-radius", "R", "groups this close to the site stay atomistic",
        field(&RigidBodyFinderParams::atomisticRadius))
      .unit("Angstrom")
      .nonNegative();
  t.add("large-body-radius", "R", "groups beyond it join one large body (0: none)",
        field(&RigidBodyFinderParams::largeBodyRadius))
      .unit("Angstrom")
      .nonNegative();
}

/// The five numbers of GMIN's BINARY and BLJCLUSTER (ntypea epsab epsbb sigab sigbb) as parts of
/// --binary-lj on keyword builder `k` (gmin's and optim's tables); field(i) sets number i.
template <class Builder, class Field>
auto& binaryLjKeywordParts(Builder&& k, Field field) {
  return k.part("binary-lj", "the number of A atoms", integerRule(1), field(0))
      .part("binary-lj", "epsilon_AB", realRule(0, true), field(1))
      .part("binary-lj", "epsilon_BB", realRule(0, true), field(2))
      .part("binary-lj", "sigma_AB", realRule(0, true), field(3))
      .part("binary-lj", "sigma_BB", realRule(0, true), field(4));
}

/// --morse, --binary-lj, --kob-andersen, --pair-table, --cutoff, --cutoff-convention and --box: a
/// pair system (`pair` reaches PairSystemConfig; docs/pair-potentials.md). In a checkpoint's
/// fingerprint only when one of them is given, so that runs of plain Lennard-Jones resume as
/// before. `boxMore` is added to --box's description (what the program does differently in a box).
template <class Config, class Access>
void addPairSystemOptions(OptionTable<Config>& t, Access pair, const std::string& boxMore) {
  auto field = [pair](auto member) {
    return [ pair, member ](Config & c) -> auto& { return pair(c).*member; };
  };
  const auto isPair = [pair](const Config& c) { return pair(const_cast<Config&>(c)).active(); };
  t.add("morse", "RHO",
        "Morse pair potential of range RHO, GMIN's MORSE: V = e^{RHO (1 - r)} (e^{RHO (1 - r)} - "
        "2), energies in the well depth and lengths in the pair distance r0 (6 gives the Morse "
        "clusters of Doye and Wales, J. Chem. Soc., Faraday Trans. 93, 4233 (1997))",
        field(&PairSystemConfig::morseRho))
      .unit("dimensionless")
      .positive()
      .defaultText("none (Lennard-Jones)")
      .inEffectIf(isPair);
  t.add("binary-lj", "NA,EAB,EBB,SAB,SBB",
        "binary Lennard-Jones (GMIN's BINARY and BLJCLUSTER): the first NA atoms are A (epsilon "
        "and sigma of A-A are the units), the others B, with epsilon_AB, epsilon_BB, sigma_AB and "
        "sigma_BB in those units; an XYZ start's labels A/B (or LA/LB) must agree",
        field(&PairSystemConfig::binaryLj))
      .positive()
      .defaultText("none")
      .inEffectIf(isPair);
  t.flag("kob-andersen",
         "the Kob-Andersen 80:20 binary Lennard-Jones mixture (Kob and Andersen, Phys. Rev. E 51, "
         "4626 (1995)): the first round(0.8 N) atoms A, epsilon_AB 1.5, epsilon_BB 0.5, sigma_AB "
         "0.8, sigma_BB 0.88, truncated and shifted at 2.5 sigma_ab as published (unless "
         "--cutoff, --cutoff-convention); with --box a bulk glass former (its studies use N/V = "
         "1.2)",
         field(&PairSystemConfig::kobAndersen))
      .inEffectIf(isPair);
  t.add("pair-table", "FILE",
        "a tabulated pair potential of one species (rows `r V(r)` in the table's own units, "
        "uniform spacing, an odd count; docs/pair-potentials.md), cut at the table's end unless "
        "--cutoff",
        field(&PairSystemConfig::tableFile))
      .file()
      .defaultText("none")
      .inEffectIf(isPair);
  t.add("cutoff", "RC",
        "cut every species pair at RC times its sigma (r0 for Morse; absolute for a table) with "
        "--cutoff-convention; a periodic box needs one of at most half its edge; 0 = no cutoff",
        field(&PairSystemConfig::cutoff))
      .unit("sigma of each pair")
      .nonNegative()
      .defaultText("0 (none); 2.5 with --kob-andersen; the table's end with --pair-table")
      .inEffectIf(isPair);
  t.add("cutoff-convention", "",
        "how a pair is cut at rc: truncated (V jumps), shifted (V - V(rc): Kob and Andersen's, "
        "the force jumps), force-shifted or quadratic-smoothed (V + A0 + A2 r^2: Stoddard and "
        "Ford, Phys. Rev. A 8, 1504 (1973), GMIN's BLJCLUSTER and SHIFTCUT); the last two keep V "
        "and V' continuous, as minimisers, Hessians and transition-state searches need",
        field(&PairSystemConfig::convention))
      .choices({PairCutoff::Truncated, PairCutoff::Shifted, PairCutoff::ForceShifted,
                PairCutoff::QuadraticSmoothed},
               pairCutoffName)
      .defaultText("quadratic-smoothed; shifted with --kob-andersen (the published model)")
      .inEffectIf(isPair);
  t.add("box", "L|LX,LY,LZ",
        "orthorhombic periodic box of edge L (a cube) or LX, LY, LZ, minimum-image convention; "
        "needs a cutoff of at most half the edge" +
            boxMore,
        field(&PairSystemConfig::box))
      .unit("sigma")
      .positive()
      .defaultText("none (a cluster in open space)")
      .inEffectIf(isPair);
}

/// --gupta METAL and --gupta-params P,Q,A,XI: a Gupta metal cluster (`gupta` reaches
/// GuptaSystemConfig; docs/gupta.md). In a checkpoint's fingerprint only when one of them is given.
template <class Config, class Access>
void addGuptaSystemOptions(OptionTable<Config>& t, Access gupta) {
  auto field = [gupta](auto member) {
    return [ gupta, member ](Config & c) -> auto& { return gupta(c).*member; };
  };
  const auto isGupta = [gupta](const Config& c) { return gupta(const_cast<Config&>(c)).active(); };
  t.add("gupta", "METAL",
        "Gupta (second-moment tight-binding) cluster of a metal, Ni, Cu, Pd, Pt or Au, of Cleri "
        "and Rosato's table (Phys. Rev. B 48, 22 (1993)): E = sum_i [A sum_j e^{p(1 - r_ij)} - "
        "xi sqrt(sum_j e^{2q(1 - r_ij)})], energies in eV, lengths in the bulk nearest-neighbour "
        "distance r0 (GMIN's GUPTA); every pair, no cutoff",
        field(&GuptaSystemConfig::metal))
      .choices(guptaMetals(), guptaMetalName)
      .defaultText("none (Lennard-Jones)")
      .inEffectIf(isGupta);
  t.add("gupta-params", "P,Q,A,XI",
        "a Gupta cluster of these parameters instead of a named metal: p and q (dimensionless, > "
        "0), A and xi (the energy unit), lengths in r0",
        field(&GuptaSystemConfig::parameters))
      .nonNegative()
      .defaultText("none")
      .inEffectIf(isGupta);
}

/// --gay-berne-kappa, -kappa-prime, -mu, -nu and -cutoff: the parameters of uniaxial Gay-Berne
/// ellipsoids (`params` reaches GayBerneParams; docs/gay-berne.md), in effect when `inEffect`
/// holds (--ellipsoids).
template <class Config, class Access, class InEffect>
void addGayBerneOptions(OptionTable<Config>& t, Access params, InEffect inEffect) {
  auto field = [params](auto member) {
    return [ params, member ](Config & c) -> auto& { return params(c).*member; };
  };
  t.add("gay-berne-kappa", "K", "Gay-Berne kappa: length over breadth (--ellipsoids)",
        field(&GayBerneParams::kappa))
      .positive()
      .inEffectIf(inEffect);
  t.add("gay-berne-kappa-prime", "K",
        "Gay-Berne kappa': side-by-side over end-to-end well depth (--ellipsoids)",
        field(&GayBerneParams::kappaPrime))
      .positive()
      .inEffectIf(inEffect);
  t.add("gay-berne-mu", "MU", "Gay-Berne exponent mu (--ellipsoids; Berardi et al. 1995)",
        field(&GayBerneParams::mu))
      .positive()
      .inEffectIf(inEffect);
  t.add("gay-berne-nu", "NU", "Gay-Berne exponent nu (--ellipsoids)", field(&GayBerneParams::nu))
      .nonNegative()
      .inEffectIf(inEffect);
  t.add("gay-berne-cutoff", "RC",
        "Gay-Berne centre-centre cutoff (--ellipsoids; sigma0); pairs beyond it are left out "
        "unshifted; 0: none",
        field(&GayBerneParams::cutoff))
      .nonNegative()
      .inEffectIf(inEffect);
}

/// --ions LIST: point ions among TIP4P molecules (docs/water.md, "Ions among the molecules";
/// potentials/WaterCluster's tip4pIonsFromList); `more` is added to the description and says where
/// the program reads their positions.
template <class Config, class Access, class InEffect>
typename OptionTable<Config>::Builder addWaterIonsOption(OptionTable<Config>& t, Access field,
                                                         InEffect inEffect,
                                                         const std::string& more) {
  return t
      .add("ions", "LIST",
           "point ions among the TIP4P molecules (--water tip4p), NAME[:COUNT] separated by "
           "commas, e.g. Na+:2,Cl-:2: Na+ and Cl- of OPLS-AA (charges +-1 e, Lennard-Jones cores "
           "combined geometrically with the oxygens'; docs/water.md), free atoms of the rigid "
           "layer after the molecules" +
               more,
           field)
      .defaultText("none")
      .inEffectIf(inEffect);
}

/// Refuses an --ions list given at `origin` (e.g. "command line: --ions") for a run whose water
/// model is not TIP4P, or one tip4pIonsFromList refuses, with the origin in the message.
inline void checkWaterIons(const std::string& origin, const std::string& list,
                           const std::string& waterModel) {
  if (list.empty()) return;
  if (waterModel != "tip4p")
    throw std::runtime_error(origin + ": ions are for TIP4P water (--water tip4p)");
  try {
    tip4pIonsFromList(list);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(origin + ": " + e.what());
  }
}

}  // namespace landscape
