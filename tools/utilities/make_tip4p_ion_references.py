#!/usr/bin/env python3
"""Reference energies of TIP4P water clusters with Na+ and Cl- ions from an independent code (ASE).

Writes tests/data/water/tip4p_ions_ase.txt (format below), which tests/WaterClusterTest.cpp reads;
ASE is needed only to regenerate the file, never by the tests:

    python3 tools/utilities/make_tip4p_ion_references.py [--out tests/data/water]

Model: rigid TIP4P (Jorgensen, Chandrasekhar, Madura, Impey and Klein, J. Chem. Phys. 79, 926
(1983)) in GMIN's units (kJ/mol, Angstrom), with point ions of OPLS-AA as GROMACS distributes it
(oplsaa.ff/ffnonbonded.itp): Na+ opls_407 (sigma 3.33045 A, epsilon 0.0115980 kJ/mol), Cl-
opls_401 (sigma 4.41724 A, epsilon 0.492833 kJ/mol), charges +1 and -1 e. Lennard-Jones pairs of
different kinds combine geometrically (sigma_ij = sqrt(sigma_i sigma_j), epsilon_ij =
sqrt(epsilon_i epsilon_j)), as OPLS-AA does.

ASE's calculators evaluate every term: ase.calculators.tip4p.TIP4P the water-water pairs,
ase.calculators.counterions.AtomicCounterIon the pairs of ions of one kind, and
ase.calculators.combine_mm.CombineMM the pairs between water and ions (Coulomb on every site, M
included, and Lennard-Jones from per-atom sigma and epsilon). A structure with both kinds of ion
nests a CombineMM of the two AtomicCounterIon (Na+ against Cl-) inside the one that couples the
ions to the water. Two changes to ASE as shipped, both made here and restored after each call:
  - CombineMM combines sigma by Lorentz-Berthelot (arithmetic mean); the module's
    combine_lj_lorenz_berthelot is replaced by the geometric rule above;
  - every module's Coulomb constant k_c (Hartree x Bohr = 1389.35458 kJ/mol A/e^2) is set to
    GMIN's 1389.354848 for the energy_gmin_k column; energy_ase keeps ASE's constant.
The oxygen's sigma and epsilon given to CombineMM are TIP4P's own (ase.calculators.tip4p sigma0,
epsilon0: from A = 600e3 kcal/mol A^12, B = 610 kcal/mol A^6). Every cutoff is rc = 1000 A (width
1 A), far beyond each cluster, in an open box.

Structures (numpy's default_rng, seed in the header): oxygens and ions placed one at a time, each
new centre 2.4 to 3.4 Angstrom from a random earlier one and at least 2.4 from all; water
orientations uniformly random; ASE's body frame rOH = 0.9572 A, HOH = 104.52 degrees.

Format: '#' header lines, then per structure
    structure NAME MOLECULES IONS ENERGY_GMIN_K ENERGY_ASE    (kJ/mol)
    4 lines per molecule, sites O H H M ('O x y z', Angstrom; M as ASE places it), then one line
    per ion ('Na x y z' or 'Cl x y z')
"""
import argparse
import pathlib
import sys

import numpy as np

import ase
import ase.calculators.combine_mm as combine_mm_module
import ase.calculators.counterions as counterions_module
import ase.calculators.tip4p as tip4p_module
from ase import Atoms, units
from ase.calculators.combine_mm import CombineMM
from ase.calculators.counterions import AtomicCounterIon
from ase.calculators.tip4p import TIP4P, angleHOH, rOH
from make_tip4p_references import random_rotation  # uniform rotations (Shoemake)

GMIN_COULOMB = 1389.354848  # kJ/mol A / e^2
KJ_PER_MOL = units.kJ / units.mol
SEED = 20261201
CUTOFF = 1000.0
ROOT = pathlib.Path(__file__).resolve().parents[2]

# name: (element, charge e, sigma A, epsilon kJ/mol)
IONS = {'Na+': ('Na', 1.0, 3.33045, 0.0115980), 'Cl-': ('Cl', -1.0, 4.41724, 0.492833)}

CASES = [  # name, water molecules, ions
    ('na_h2o_1', 1, ['Na+']),
    ('na_h2o_6', 6, ['Na+']),
    ('cl_h2o_6', 6, ['Cl-']),
    ('na2_h2o_4', 4, ['Na+', 'Na+']),
    ('cl2_h2o_3', 3, ['Cl-', 'Cl-']),
    ('nacl_h2o_8', 8, ['Na+', 'Cl-']),
]


def geometric(sigma1, sigma2, epsilon1, epsilon2):
    """Drop-in for combine_mm's combine_lj_lorenz_berthelot (one MM partner): geometric means."""
    sigma1, sigma2 = np.asarray(sigma1, float), np.asarray(sigma2, float)
    epsilon1, epsilon2 = np.asarray(epsilon1, float), np.asarray(epsilon2, float)
    return np.sqrt(np.outer(sigma1, sigma2)), np.sqrt(np.outer(epsilon1, epsilon2))


def random_structure(molecules, ions, rng):
    """(water O H H positions, ion positions)."""
    centres = [np.zeros(3)]
    while len(centres) < molecules + len(ions):
        anchor = centres[rng.integers(len(centres))]
        v = rng.normal(size=3)
        trial = anchor + v / np.linalg.norm(v) * rng.uniform(2.4, 3.4)
        if min(np.linalg.norm(trial - c) for c in centres) >= 2.4:
            centres.append(trial)
    order = rng.permutation(len(centres))
    centres = [centres[i] for i in order]
    half = np.radians(angleHOH) / 2
    body = np.array([[0, 0, 0], [rOH * np.sin(half), 0, -rOH * np.cos(half)],
                     [-rOH * np.sin(half), 0, -rOH * np.cos(half)]])
    water = []
    for o in centres[:molecules]:
        R = random_rotation(rng)
        water.extend(o + R @ b for b in body)
    return np.array(water), np.array(centres[molecules:])


def ion_calculator(names):
    """The ions' own calculator and their (sigma, epsilon) arrays (A, eV) as one MM 'molecule'."""
    kinds = sorted(set(names), key=names.index)
    params = [IONS[n] for n in names]
    sigma = np.array([p[2] for p in params])
    epsilon = np.array([p[3] for p in params]) * KJ_PER_MOL
    if len(kinds) == 1:
        _, charge, s, e = IONS[kinds[0]]
        return AtomicCounterIon(charge, e * KJ_PER_MOL, s, sites_per_mol=1, rc=CUTOFF), 1, \
            sigma[:1], epsilon[:1]
    if len(names) != 2:
        raise ValueError('two kinds of ion: only one of each is supported here')
    a, b = (IONS[n] for n in names)
    calc_a = AtomicCounterIon(a[1], a[3] * KJ_PER_MOL, a[2], sites_per_mol=1, rc=CUTOFF)
    calc_b = AtomicCounterIon(b[1], b[3] * KJ_PER_MOL, b[2], sites_per_mol=1, rc=CUTOFF)
    inner = CombineMM([0], 1, 1, calc_a, calc_b, sigma[:1], epsilon[:1], sigma[1:], epsilon[1:],
                      rc=CUTOFF)
    inner.sites_per_mol = 2
    return inner, 2, sigma, epsilon


def ase_energy(water, ion_positions, names, gmin_k):
    """Energy (kJ/mol) and the sites O H H M ... then the ions."""
    modules = (tip4p_module, counterions_module, combine_mm_module)
    saved_k = [m.k_c for m in modules]
    saved_rule = combine_mm_module.combine_lj_lorenz_berthelot
    try:
        if gmin_k:
            for m in modules:
                m.k_c = GMIN_COULOMB * KJ_PER_MOL
        combine_mm_module.combine_lj_lorenz_berthelot = geometric
        n = len(water) // 3
        symbols = 'OH2' * n + ''.join(IONS[x][0] for x in names)
        atoms = Atoms(symbols, positions=np.vstack([water, ion_positions]))
        ions, apm2, sigma2, epsilon2 = ion_calculator(names)
        if apm2 == 2:
            ions.initialize(Atoms(''.join(IONS[x][0] for x in names), positions=ion_positions))
        water_calc = TIP4P(rc=CUTOFF, width=1.0)
        sigma1 = np.array([tip4p_module.sigma0, 0.0, 0.0])
        epsilon1 = np.array([tip4p_module.epsilon0, 0.0, 0.0])
        calc = CombineMM(list(range(3 * n)), 3, apm2, water_calc, ions, sigma1, epsilon1, sigma2,
                         epsilon2, rc=CUTOFF, width=1.0)
        atoms.calc = calc
        e = atoms.get_potential_energy() / KJ_PER_MOL
        sites = water_calc.add_virtual_sites(water)
    finally:
        for m, k in zip(modules, saved_k):
            m.k_c = k
        combine_mm_module.combine_lj_lorenz_berthelot = saved_rule
    return e, np.vstack([sites, ion_positions])


def direct_energy(sites, names, k):
    """A plain double loop over the same sites (a check of the ASE set-up, not the reference)."""
    n_water = (len(sites) - len(names)) // 4
    charges, sigma, epsilon, molecule = [], [], [], []
    for m in range(n_water):
        charges += [0.0, 0.52, 0.52, -1.04]
        sigma += [tip4p_module.sigma0, 0, 0, 0]
        epsilon += [tip4p_module.epsilon0 / KJ_PER_MOL, 0, 0, 0]
        molecule += [m] * 4
    for i, x in enumerate(names):
        charges.append(IONS[x][1])
        sigma.append(IONS[x][2])
        epsilon.append(IONS[x][3])
        molecule.append(n_water + i)
    e = 0.0
    for i in range(len(sites)):
        for j in range(i + 1, len(sites)):
            if molecule[i] == molecule[j]:
                continue
            r = np.linalg.norm(sites[i] - sites[j])
            e += k * charges[i] * charges[j] / r
            if epsilon[i] > 0 and epsilon[j] > 0:
                s, eps = np.sqrt(sigma[i] * sigma[j]), np.sqrt(epsilon[i] * epsilon[j])
                e += 4 * eps * ((s / r) ** 12 - (s / r) ** 6)
    return e


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', default=str(ROOT / 'tests' / 'data' / 'water'))
    args = parser.parse_args(argv)
    rng = np.random.default_rng(SEED)
    lines = [
        '# TIP4P water with Na+ and Cl- ions: reference energies (kJ/mol) written by '
        'tools/utilities/make_tip4p_ion_references.py',
        f'# with ASE {ase.__version__} (TIP4P, AtomicCounterIon and CombineMM with geometric '
        f'Lennard-Jones combination; rc = {CUTOFF} A, open box), numpy {np.__version__}, '
        f'seed {SEED}',
        '# ions: OPLS-AA Na+ (opls_407: sigma 3.33045 A, epsilon 0.0115980 kJ/mol, +1 e) and Cl- '
        '(opls_401: sigma 4.41724 A, epsilon 0.492833 kJ/mol, -1 e)',
        '# energy_gmin_k: every Coulomb constant set to GMIN\'s 1389.354848 kJ/mol A/e^2; '
        f'energy_ase: ASE\'s (k = {tip4p_module.k_c / KJ_PER_MOL!r})',
        '# structure NAME MOLECULES IONS ENERGY_GMIN_K ENERGY_ASE, then sites O H H M per '
        'molecule and one line per ion (Angstrom)',
    ]
    for name, molecules, names in CASES:
        water, ion_positions = random_structure(molecules, names, rng)
        e_gmin, sites = ase_energy(water, ion_positions, names, True)
        e_ase, _ = ase_energy(water, ion_positions, names, False)
        check = direct_energy(sites, names, GMIN_COULOMB)
        assert abs(check - e_gmin) < 1e-9 * max(1.0, abs(e_gmin)), (name, check, e_gmin)
        lines.append(f'structure {name} {molecules} {len(names)} {float(e_gmin)!r} '
                     f'{float(e_ase)!r}')
        labels = ['O', 'H', 'H', 'M'] * molecules + [IONS[x][0] for x in names]
        for label, r in zip(labels, sites):
            lines.append(f'{label} {float(r[0])!r} {float(r[1])!r} {float(r[2])!r}')
        print(f'{name}: {molecules} molecules, ions {names}, E = {e_gmin:.10f} kJ/mol (GMIN k), '
              f'{e_ase:.10f} (ASE k), direct loop {check:.10f}')
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / 'tip4p_ions_ase.txt').write_text('\n'.join(lines) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
