#!/usr/bin/env python3
"""Independent reference energies and gradients of AMBER-GB with sander's non-bonded cutoff `cut`,
from OpenMM.

sander with igb > 0 and a finite cut (msander src/msander/egb.F90, subroutine egb, "Step 2"; cut
is squared in mdread.F90) keeps the pair terms EELEC, VDWAALS and the GB off-diagonal term of the
pairs with r^2 <= cut^2, plain truncation, while the Born radii (egb_calc_radii: rgbmax only), the
GB self terms (egb, Step 3) and the 1-4 terms (ephi) are not cut. Here, on OpenMM's
double-precision Reference platform:
  EELEC, VDWAALS  CustomNonbondedForce with CutoffNonPeriodic at cut (no reaction field, no
                  switch, no long-range correction), every prmtop exclusion and 1-4 pair excluded;
  1-4 EEL, 1-4 NB NonbondedForce exceptions, no cutoff;
  EGB             the CustomGBForce of sander's igb 2/5 (HCT integral with the 5-term Taylor
                  branch and the smooth rgbmax shell, OBC rescaling, AMBER's kappa and Coulomb
                  constant 18.2223^2) with NoCutoff, its pair energy multiplied by step(cut - r).
                  A CutoffNonPeriodic CustomGBForce would cut the Born-radius integral at cut too,
                  which sander does not; the step factor cuts the pair energy alone, for any cut.
Energies in kcal/mol; bonds, angles and torsions as OpenMM's AmberPrmtopFile builds them (torsion
phases as the prmtop stores them: the C++ test removes sander's snapping of 3.141594 to pi).

Writes <out>/references.tsv (every component's energy, the total and the RMS force) and, for the
cases marked with gradients, <out>/gradients/<system>_igb<igb>_rgbmax<R>_cut<C>.tsv: per atom the
gradients (dE/dx = -force, kcal/mol/A) of VDWAALS, EELEC and EGB, the three components the cut
changes.

  python3 -m venv /tmp/ommenv && /tmp/ommenv/bin/pip install openmm numpy
  /tmp/ommenv/bin/python tools/utilities/make_gb_cutoff_references.py --out tests/data/gb/cutoff
"""
import argparse
import math
import os

import openmm as mm
import openmm.app as app
import openmm.unit as u

KJ2KCAL = 1.0 / 4.184
AMBER_COULOMB_KJNM = 18.2223 ** 2 * 4.184 / 10.0  # sander's constant in kJ/mol nm / e^2
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "tests", "data", "gb")

TRPCAGE = ("trpcage", "trpcage/prmtop", "trpcage/inpcrd")
TRX = ("trx", "trx/prmtop.gb2", "trx/trxox.2.4ns.x")
# (system, prmtop, inpcrd), igb, saltcon mol/L, rgbmax A, cut A, per-atom gradients written
CASES = [
    (TRPCAGE, 2, 0.2, 12.0, 14.0, False),
    (TRPCAGE, 5, 0.2, 12.0, 16.0, False),
    (TRPCAGE, 2, 0.2, 9.0, 11.0, False),
    (TRX, 2, 0.2, 12.0, 14.0, False),
    (TRX, 5, 0.2, 12.0, 20.0, False),
    (TRX, 2, 0.0, 9.0, 11.0, False),
] + [(TRPCAGE, igb, 0.2, 12.0, cut, True) for igb in (2, 5) for cut in (8.0, 12.0)] + [
    (TRX, igb, 0.2, 12.0, cut, True) for igb in (2, 5) for cut in (8.0, 12.0, 16.0)]
GRADIENT_COMPONENTS = ["VDWAALS", "EELEC", "EGB"]
OBC = {2: (0.8, 0.0, 2.909125), 5: (1.0, 0.8, 4.85)}


def gb_force(charges, radii_A, screen, saltcon, rgbmax_A, igb, cut_nm):
    alpha, beta, gamma = OBC[igb]
    g = mm.CustomGBForce()
    for name in ("q", "or", "sr", "rad"):
        g.addPerParticleParameter(name)
    kappa = 0.73 * math.sqrt(0.10806 * saltcon) * 10.0  # 1/nm
    for k, v in (("R", rgbmax_A / 10.0), ("CUT", cut_nm), ("TA", 1 / 3), ("TB", 2 / 5), ("TC", 3 / 7),
                 ("TD", 4 / 9), ("TDD", 5 / 11), ("alpha", alpha), ("beta", beta),
                 ("gamma", gamma), ("kappa", kappa), ("epsw", 78.5), ("KC", AMBER_COULOMB_KJNM)):
        g.addGlobalParameter(k, v)
    integral = (
        "select(step(r-(R+sr2)), 0,"
        " select(step(r-(R-sr2)), 0.125/r*(1+2*r/(r-sr2)+(r*r-4*R*r-sr2*sr2)/(R*R)+2*log((r-sr2)/R)),"
        "  select(step(r-4*sr2), sr2*sr2*sr2/(r*r*r*r)*(TA+t*(TB+t*(TC+t*(TD+t*TDD)))),"
        "   select(step(r-(or1+sr2)), 0.5*(sr2/(r*r-sr2*sr2)+0.5/r*log((r-sr2)/(r+sr2))),"
        "    select(step(r-abs(or1-sr2)), 0.25*((2-theta)/or1-1/(r+sr2)+log(or1/(r+sr2))/r),"
        "     select(step(sr2-or1), 0.5*(sr2/(r*r-sr2*sr2)+2/or1+0.5/r*log((sr2-r)/(sr2+r))), 0))))));"
        "t=sr2*sr2/(r*r); theta=0.5/(or1*r)*(r*r+or1*or1-sr2*sr2)")
    g.addComputedValue("I", integral, mm.CustomGBForce.ParticlePairNoExclusions)
    g.addComputedValue("B", "1/(1/or-tanh(psi*(alpha-beta*psi+gamma*psi*psi))/rad); psi=I*or",
                       mm.CustomGBForce.SingleParticle)
    g.addEnergyTerm("-0.5*KC*q*q*(1-exp(-kappa*B)/epsw)/B", mm.CustomGBForce.SingleParticle)
    # step(CUT - r) = 1 for r <= cut: sander's r^2 <= cut^2, plain truncation (no force from the
    # step); the Born radii B1, B2 come from every pair (NoCutoff below).
    g.addEnergyTerm("step(CUT-r)*(-KC*q1*q2*(1-exp(-kappa*f)/epsw)/f);"
                    " f=sqrt(r*r+B1*B2*exp(-r*r/(4*B1*B2)))",
                    mm.CustomGBForce.ParticlePairNoExclusions)
    for q, rad, sc in zip(charges, radii_A, screen):
        rr = rad / 10.0
        orr = rr - 0.009
        g.addParticle([q, orr, sc * orr, rr])
    g.setNonbondedMethod(mm.CustomGBForce.NoCutoff)
    return g


def energies(prmtop_path, inpcrd_path, igb, saltcon, rgbmax, cut):
    prmtop = app.AmberPrmtopFile(prmtop_path)
    positions = app.AmberInpcrdFile(inpcrd_path).getPositions()
    raw = prmtop._prmtop._raw_data
    charges = [float(x) / 18.2223 for x in raw["CHARGE"]]
    radii = [float(x) for x in raw["RADII"]]
    screen = [float(x) for x in raw["SCREEN"]]
    base = prmtop.createSystem(nonbondedMethod=app.NoCutoff, constraints=None,
                               implicitSolvent=None, removeCMMotion=False)
    system = mm.System()
    for i in range(base.getNumParticles()):
        system.addParticle(base.getParticleMass(i))
    groups = {}
    nb = None
    for f in base.getForces():
        name = {mm.HarmonicBondForce: "BOND", mm.HarmonicAngleForce: "ANGLE",
                mm.PeriodicTorsionForce: "DIHED"}.get(type(f))
        if name:
            f2 = mm.XmlSerializer.deserialize(mm.XmlSerializer.serialize(f))
            f2.setForceGroup(len(groups))
            groups[name] = len(groups)
            system.addForce(f2)
        elif isinstance(f, mm.NonbondedForce):
            nb = f
    qscale = math.sqrt(AMBER_COULOMB_KJNM / 138.935456)  # OpenMM 1/(4 pi eps0), kJ/mol nm/e^2
    cut_nm = cut / 10.0
    eel = mm.CustomNonbondedForce("KC*q1*q2/r")
    eel.addGlobalParameter("KC", AMBER_COULOMB_KJNM)
    eel.addPerParticleParameter("q")
    vdw = mm.CustomNonbondedForce(
        "4*eps*((sig/r)^12-(sig/r)^6); sig=0.5*(sig1+sig2); eps=sqrt(eps1*eps2)")
    vdw.addPerParticleParameter("sig")
    vdw.addPerParticleParameter("eps")
    for i in range(nb.getNumParticles()):
        q, sig, eps = nb.getParticleParameters(i)
        eel.addParticle([charges[i]])
        vdw.addParticle([sig.value_in_unit(u.nanometer), eps.value_in_unit(u.kilojoule_per_mole)])
    pair14 = {}
    for name in ("1-4 EEL", "1-4 NB"):
        c = mm.NonbondedForce()
        c.setNonbondedMethod(mm.NonbondedForce.NoCutoff)
        for i in range(nb.getNumParticles()):
            c.addParticle(0.0, 0.1, 0.0)
        pair14[name] = c
    for k in range(nb.getNumExceptions()):
        i, j, qq, sig, eps = nb.getExceptionParameters(k)
        eel.addExclusion(i, j)
        vdw.addExclusion(i, j)
        qq = qq.value_in_unit(u.elementary_charge ** 2) * qscale * qscale
        pair14["1-4 EEL"].addException(i, j, qq, sig, 0.0)
        pair14["1-4 NB"].addException(i, j, 0.0, sig, eps)
    for name, force in (("EELEC", eel), ("VDWAALS", vdw)):
        force.setNonbondedMethod(mm.CustomNonbondedForce.CutoffNonPeriodic)
        force.setCutoffDistance(cut_nm)
        force.setUseSwitchingFunction(False)
        force.setUseLongRangeCorrection(False)
    for name, force in (("EELEC", eel), ("VDWAALS", vdw), ("1-4 EEL", pair14["1-4 EEL"]),
                        ("1-4 NB", pair14["1-4 NB"]),
                        ("EGB", gb_force(charges, radii, screen, saltcon, rgbmax, igb, cut_nm))):
        force.setForceGroup(len(groups))
        groups[name] = len(groups)
        system.addForce(force)
    context = mm.Context(system, mm.VerletIntegrator(0.001),
                         mm.Platform.getPlatformByName("Reference"))
    context.setPositions(positions)
    out = {}
    gradients = {}
    for name, group in groups.items():
        state = context.getState(getEnergy=True, getForces=True, groups={group})
        out[name] = state.getPotentialEnergy().value_in_unit(u.kilojoule_per_mole) * KJ2KCAL
        forces = state.getForces(asNumpy=False).value_in_unit(u.kilojoule_per_mole / u.nanometer)
        # dE/dx in kcal/mol/A: -F, kJ -> kcal, 1/nm -> 1/A
        gradients[name] = [[-c * KJ2KCAL / 10.0 for c in (f[0], f[1], f[2])] for f in forces]
    state = context.getState(getEnergy=True, getForces=True)
    out["TOTAL"] = state.getPotentialEnergy().value_in_unit(u.kilojoule_per_mole) * KJ2KCAL
    forces = state.getForces(asNumpy=False).value_in_unit(u.kilojoule_per_mole / u.nanometer)
    s2 = sum(f[0] ** 2 + f[1] ** 2 + f[2] ** 2 for f in forces)
    out["RMS_FORCE"] = math.sqrt(s2 / (3 * len(forces))) * KJ2KCAL / 10.0
    return out, gradients


def case_name(system, igb, rgbmax, cut):
    return f"{system}_igb{igb}_rgbmax{rgbmax:g}_cut{cut:g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(DATA, "cutoff"),
                        help="folder of references.tsv and gradients/ (default tests/data/gb/cutoff)")
    args = parser.parse_args()
    os.makedirs(os.path.join(args.out, "gradients"), exist_ok=True)
    columns = ["BOND", "ANGLE", "DIHED", "VDWAALS", "EELEC", "1-4 NB", "1-4 EEL", "EGB", "TOTAL",
               "RMS_FORCE"]
    with open(os.path.join(args.out, "references.tsv"), "w") as table:
        table.write("# AMBER-GB with sander's cut: OpenMM " + mm.__version__ + " Reference platform, "
                    "tools/utilities/make_gb_cutoff_references.py; kcal/mol, RMS force kcal/mol/A "
                    "per Cartesian component\n")
        table.write("\t".join(["system", "prmtop", "inpcrd", "igb", "saltcon", "rgbmax", "cut"] +
                              columns) + "\n")
        for (name, prmtop, inpcrd), igb, salt, rgbmax, cut, with_gradients in CASES:
            e, g = energies(os.path.join(DATA, prmtop), os.path.join(DATA, inpcrd), igb, salt,
                            rgbmax, cut)
            table.write("\t".join([name, prmtop, inpcrd, str(igb), f"{salt:g}", f"{rgbmax:g}",
                                   f"{cut:g}"] + [f"{e[c]:.6f}" for c in columns]) + "\n")
            table.flush()
            print(case_name(name, igb, rgbmax, cut), "EGB", f"{e['EGB']:.6f}", flush=True)
            if not with_gradients:
                continue
            path = os.path.join(args.out, "gradients", case_name(name, igb, rgbmax, cut) + ".tsv")
            with open(path, "w") as out:
                out.write(f"# {name} ({prmtop}, {inpcrd}) igb {igb} saltcon {salt:g} mol/L rgbmax "
                          f"{rgbmax:g} A cut {cut:g} A: OpenMM {mm.__version__} Reference platform, "
                          "tools/utilities/make_gb_cutoff_references.py\n")
                out.write("# per atom (0-based): dE/dx, dE/dy, dE/dz of each component, "
                          "kcal/mol/A\n")
                out.write("\t".join(["atom"] + [f"{c}_{k}" for c in GRADIENT_COMPONENTS
                                                for k in "xyz"]) + "\n")
                for atom in range(len(g["EGB"])):
                    out.write("\t".join([str(atom)] + [f"{v:.10g}" for c in GRADIENT_COMPONENTS
                                                       for v in g[c][atom]]) + "\n")


if __name__ == "__main__":
    main()
