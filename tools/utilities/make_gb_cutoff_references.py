#!/usr/bin/env python3
"""Independent reference energies of AMBER-GB with sander's non-bonded cutoff `cut`, from OpenMM.

sander with igb > 0 and a finite cut (egb.F90, Step 2) keeps the pair terms EELEC, VDWAALS and
the GB off-diagonal term of the pairs with r^2 <= cut^2, plain truncation, while the Born radii
(rgbmax), the GB self terms and the 1-4 terms are not cut. Here, on OpenMM's double-precision
Reference platform:
  EELEC, VDWAALS  CustomNonbondedForce with CutoffNonPeriodic at cut (no reaction field, no
                  switch), every prmtop exclusion and 1-4 pair excluded;
  1-4 EEL, 1-4 NB NonbondedForce exceptions, no cutoff;
  EGB             the CustomGBForce of sander's igb 2/5 (HCT integral with the 5-term Taylor
                  branch and the smooth rgbmax shell, OBC rescaling, AMBER's kappa and Coulomb
                  constant 18.2223^2), with CutoffNonPeriodic at cut. OpenMM applies that cutoff
                  to the Born-radius integral too, which sander does not; the two agree only when
                  cut >= rgbmax + the largest screened radius (every term of the integral then
                  lies within cut), so only such (rgbmax, cut) pairs are written.
Energies in kcal/mol; bonds, angles and torsions as OpenMM's AmberPrmtopFile builds them.

  python3 -m venv /tmp/ommenv && /tmp/ommenv/bin/pip install openmm numpy
  /tmp/ommenv/bin/python tools/utilities/make_gb_cutoff_references.py > tests/data/gb/cutoff/references.tsv
"""
import math
import os
import sys

import openmm as mm
import openmm.app as app
import openmm.unit as u

KJ2KCAL = 1.0 / 4.184
AMBER_COULOMB_KJNM = 18.2223 ** 2 * 4.184 / 10.0  # sander's constant in kJ/mol nm / e^2
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "tests", "data", "gb")

# (name, prmtop, inpcrd, igb, saltcon, rgbmax A, cut A)
CASES = [
    ("trpcage", "trpcage/prmtop", "trpcage/inpcrd", 2, 0.2, 12.0, 14.0),
    ("trpcage", "trpcage/prmtop", "trpcage/inpcrd", 5, 0.2, 12.0, 16.0),
    ("trpcage", "trpcage/prmtop", "trpcage/inpcrd", 2, 0.2, 9.0, 11.0),
    ("trx", "trx/prmtop.gb2", "trx/trxox.2.4ns.x", 2, 0.2, 12.0, 14.0),
    ("trx", "trx/prmtop.gb2", "trx/trxox.2.4ns.x", 5, 0.2, 12.0, 20.0),
    ("trx", "trx/prmtop.gb2", "trx/trxox.2.4ns.x", 2, 0.0, 9.0, 11.0),
]
OBC = {2: (0.8, 0.0, 2.909125), 5: (1.0, 0.8, 4.85)}


def gb_force(charges, radii_A, screen, saltcon, rgbmax_A, igb, cut_nm):
    alpha, beta, gamma = OBC[igb]
    g = mm.CustomGBForce()
    for name in ("q", "or", "sr", "rad"):
        g.addPerParticleParameter(name)
    kappa = 0.73 * math.sqrt(0.10806 * saltcon) * 10.0  # 1/nm
    for k, v in (("R", rgbmax_A / 10.0), ("TA", 1 / 3), ("TB", 2 / 5), ("TC", 3 / 7),
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
    g.addEnergyTerm("-KC*q1*q2*(1-exp(-kappa*f)/epsw)/f; f=sqrt(r*r+B1*B2*exp(-r*r/(4*B1*B2)))",
                    mm.CustomGBForce.ParticlePairNoExclusions)
    for q, rad, sc in zip(charges, radii_A, screen):
        rr = rad / 10.0
        orr = rr - 0.009
        g.addParticle([q, orr, sc * orr, rr])
    g.setNonbondedMethod(mm.CustomGBForce.CutoffNonPeriodic)
    g.setCutoffDistance(cut_nm)
    return g


def energies(prmtop_path, inpcrd_path, igb, saltcon, rgbmax, cut):
    prmtop = app.AmberPrmtopFile(prmtop_path)
    positions = app.AmberInpcrdFile(inpcrd_path).getPositions()
    raw = prmtop._prmtop._raw_data
    charges = [float(x) / 18.2223 for x in raw["CHARGE"]]
    radii = [float(x) for x in raw["RADII"]]
    screen = [float(x) for x in raw["SCREEN"]]
    # The largest screened radius: OpenMM cuts the Born-radius integral at cut, sander does not.
    fsmax = max(s * (r - 0.09) for s, r in zip(screen, radii))
    if cut < rgbmax + fsmax:
        sys.exit(f"cut {cut} < rgbmax {rgbmax} + largest screened radius {fsmax:.3f}: "
                 "OpenMM would cut the Born radii, sander does not")
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
    for name, group in groups.items():
        state = context.getState(getEnergy=True, groups={group})
        out[name] = state.getPotentialEnergy().value_in_unit(u.kilojoule_per_mole) * KJ2KCAL
    state = context.getState(getEnergy=True, getForces=True)
    out["TOTAL"] = state.getPotentialEnergy().value_in_unit(u.kilojoule_per_mole) * KJ2KCAL
    forces = state.getForces(asNumpy=False).value_in_unit(u.kilojoule_per_mole / u.nanometer)
    s2 = sum(f[0] ** 2 + f[1] ** 2 + f[2] ** 2 for f in forces)
    out["RMS_FORCE"] = math.sqrt(s2 / (3 * len(forces))) * KJ2KCAL / 10.0
    return out


def main():
    columns = ["BOND", "ANGLE", "DIHED", "VDWAALS", "EELEC", "1-4 NB", "1-4 EEL", "EGB", "TOTAL",
               "RMS_FORCE"]
    print("# AMBER-GB with sander's cut: OpenMM " + mm.__version__ + " Reference platform, "
          "tools/utilities/make_gb_cutoff_references.py; kcal/mol, RMS force kcal/mol/A per "
          "Cartesian component")
    print("\t".join(["system", "prmtop", "inpcrd", "igb", "saltcon", "rgbmax", "cut"] + columns))
    for name, prmtop, inpcrd, igb, salt, rgbmax, cut in CASES:
        e = energies(os.path.join(DATA, prmtop), os.path.join(DATA, inpcrd), igb, salt, rgbmax,
                     cut)
        print("\t".join([name, prmtop, inpcrd, str(igb), f"{salt:g}", f"{rgbmax:g}", f"{cut:g}"] +
                        [f"{e[c]:.6f}" for c in columns]), flush=True)


if __name__ == "__main__":
    main()
