#!/usr/bin/python3
"""igb = 1 (HCT) reference energies for tests/AmberGbTest.cpp, computed with OpenMM.

Needs Debian's OpenMM (apt-get install python3-simtk) and runs with /usr/bin/python3:

    /usr/bin/python3 tools/checks/gb_hct_reference.py PRMTOP INPCRD [--salt M] [--rgbmax A ...]

Two models, both NoCutoff on OpenMM's double-precision Reference platform, energies in kcal/mol:

  app_HCT          OpenMM's own igb = 1 model: AmberPrmtopFile.createSystem(implicitSolvent=HCT,
                   salt 0, gbsaModel=None); GB energy only. Its descreening integral has no rgbmax
                   and no Taylor branch, and its Coulomb constant is 138.935485 kJ nm/(mol e^2),
                   35 ppm above AMBER's 18.2223^2 kcal A/(mol e^2); the script also prints the GB
                   energy scaled to AMBER's constant (GB energies are proportional to it at fixed
                   Born radii), which is what AMBER igb = 1 gives at an rgbmax beyond the molecule.
  amber_igb1_rgbmaxR  A CustomGBForce written here from sander's and NAB's egb: the HCT integral
                   with AMBER's branches (smooth rgbmax shell, 5-term Taylor series beyond 4 s_j,
                   i inside j's sphere as in NAB/pmemd), 1/B = 1/rho - I with B = 30 A when that
                   is not positive (NAB), kappa = 0.73 sqrt(0.10806 saltcon) 1/A, eps 1 / 78.5,
                   AMBER's Coulomb constant. GB energy only.
"""
import argparse
import json

import openmm as mm
import openmm.app as app
import openmm.unit as u

KCAL_PER_KJ = 1.0 / 4.184
AMBER_CHARGE = 18.2223                           # prmtop charge unit, e / 18.2223
AMBER_COULOMB_KJ_NM = AMBER_CHARGE ** 2 * 4.184 / 10.0
OPENMM_GB_COULOMB = 138.935485                   # hard-wired in openmm.app customgbforces (7.7)


def gb_energy(system, positions, gb_force_class):
    for force in system.getForces():
        force.setForceGroup(1 if isinstance(force, gb_force_class) else 0)
    context = mm.Context(system, mm.VerletIntegrator(0.001),
                         mm.Platform.getPlatformByName('Reference'))
    context.setPositions(positions)
    state = context.getState(getEnergy=True, groups={1})
    return state.getPotentialEnergy().value_in_unit(u.kilojoule_per_mole) * KCAL_PER_KJ


def app_hct(prmtop, positions):
    system = prmtop.createSystem(nonbondedMethod=app.NoCutoff, constraints=None,
                                 implicitSolvent=app.HCT, implicitSolventSaltConc=0.0 * u.molar,
                                 soluteDielectric=1.0, solventDielectric=78.5, gbsaModel=None,
                                 removeCMMotion=False)
    e = gb_energy(system, positions, mm.CustomGBForce)
    return {'EGB': e, 'EGB_amber_constant': e * AMBER_COULOMB_KJ_NM / OPENMM_GB_COULOMB}


def amber_igb1(prmtop, positions, salt, rgbmax_angstrom):
    raw = prmtop._prmtop._raw_data
    gb = mm.CustomGBForce()
    for name in ('q', 'rho', 's', 'radius'):
        gb.addPerParticleParameter(name)
    rgbmax = rgbmax_angstrom / 10.0                   # nm
    kappa = 0.73 * (0.10806 * salt) ** 0.5 * 10.0     # 1/nm
    for name, value in (('RGB', rgbmax), ('KAPPA', kappa), ('EPSOUT', 78.5),
                        ('KC', AMBER_COULOMB_KJ_NM)):
        gb.addGlobalParameter(name, value)
    # I_ij for i = particle 1, j = particle 2; branches in the order sander tests them.
    gb.addComputedValue('I', (
        'select(step(r - (RGB + s2)), 0,'
        ' select(step(r - (RGB - s2)),'
        '   (1 + 2*r/(r - s2) + (r*r - 4*RGB*r - s2*s2)/(RGB*RGB) + 2*log((r - s2)/RGB))/(8*r),'
        '  select(step(r - 4*s2),'
        '    s2^3/r^4*(1/3 + t*(2/5 + t*(3/7 + t*(4/9 + t*5/11)))),'
        '   select(step(r - (rho1 + s2)),'
        '     0.5*(s2/(r*r - s2*s2) + log((r - s2)/(r + s2))/(2*r)),'
        '    select(step(r - abs(rho1 - s2)),'
        '      0.25*((2 - c)/rho1 - 1/(r + s2) + log(rho1/(r + s2))/r),'
        '     select(step(s2 - rho1),'
        '       0.5*(s2/(r*r - s2*s2) + 2/rho1 + log((s2 - r)/(s2 + r))/(2*r)), 0))))));'
        't = s2*s2/(r*r); c = (r*r + rho1*rho1 - s2*s2)/(2*rho1*r)'),
        mm.CustomGBForce.ParticlePairNoExclusions)
    gb.addComputedValue('B', 'select(step(-inv), 3, 1/inv); inv = 1/rho - I',
                        mm.CustomGBForce.SingleParticle)  # 3 nm = 30 A
    gb.addEnergyTerm('-0.5*KC*q*q*(1 - exp(-KAPPA*B)/EPSOUT)/B', mm.CustomGBForce.SingleParticle)
    gb.addEnergyTerm('-KC*q1*q2*(1 - exp(-KAPPA*f)/EPSOUT)/f;'
                     'f = sqrt(r*r + B1*B2*exp(-r*r/(4*B1*B2)))',
                     mm.CustomGBForce.ParticlePairNoExclusions)
    for q, radius, screen in zip(raw['CHARGE'], raw['RADII'], raw['SCREEN']):
        rho = (float(radius) - 0.09) / 10.0
        gb.addParticle([float(q) / AMBER_CHARGE, rho, float(screen) * rho, float(radius) / 10.0])
    gb.setNonbondedMethod(mm.CustomGBForce.NoCutoff)
    system = mm.System()
    for _ in range(len(raw['CHARGE'])):
        system.addParticle(1.0)
    system.addForce(gb)
    return {'EGB': gb_energy(system, positions, mm.CustomGBForce)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('prmtop')
    parser.add_argument('inpcrd')
    parser.add_argument('--salt', type=float, default=0.2, help='mol/L (amber_igb1 only)')
    parser.add_argument('--rgbmax', type=float, nargs='+', default=[12.0, 99.0])
    args = parser.parse_args()
    prmtop = app.AmberPrmtopFile(args.prmtop)
    positions = app.AmberInpcrdFile(args.inpcrd).getPositions()
    result = {'prmtop': args.prmtop, 'inpcrd': args.inpcrd, 'salt_M': args.salt,
              'openmm': mm.__version__, 'app_HCT_salt0': app_hct(prmtop, positions)}
    for rgbmax in args.rgbmax:
        result['amber_igb1_rgbmax%g' % rgbmax] = amber_igb1(prmtop, positions, args.salt, rgbmax)
    print(json.dumps(result, indent=1))


if __name__ == '__main__':
    main()
