#!/usr/bin/env python3
"""Reference energies of rigid TIP4P water clusters from an independent code (ASE).

Writes tests/data/water/tip4p_ase.txt (format below), which tests/WaterClusterTest.cpp reads; ASE
is needed only to regenerate the file, never by the tests:

    python3 tools/utilities/make_tip4p_references.py [--out tests/data/water]

Model: TIP4P of Jorgensen, Chandrasekhar, Madura, Impey and Klein, J. Chem. Phys. 79, 926 (1983),
in GMIN's units (kJ/mol, Angstrom; docs/water.md). Energies by ase.calculators.tip4p.TIP4P with a
cutoff (rc = 1000 A, width 1 A, on O-O distances) far beyond every cluster and no periodic box,
converted from eV with ase.units.kJ / ase.units.mol. ASE's TIP4P takes A = 600e3 kcal/mol A^12 and
B = 610 kcal/mol A^6 (= GMIN's 2510.4e3 and 2552.24 kJ/mol) but its Coulomb constant is
Hartree x Bohr = 1389.35458 kJ/mol A/e^2, 2e-7 relative below GMIN's 1389.354848; each structure
is therefore evaluated twice: with ASE as shipped (column energy_ase) and with the module constant
ase.calculators.tip4p.k_c set to GMIN's value (column energy_gmin_k, what the C++ potential must
reproduce to rounding).

Structures:
  random_n2, random_n6, random_n8   (H2O)n with uniformly random orientations (numpy's
        default_rng, seed in the header), oxygens placed one at a time in a ball, each new one at
        2.7 to 3.4 Angstrom from some oxygen and at least 2.7 from all; the body frame is ASE's
        rOH = 0.9572 A, HOH = 104.52 degrees.
  gm_n21   the lowest (H2O)21 minimum landscape's gmin has found, tests/data/water/tip4p21_gm.xyz
        (its O H H sites; ASE places M).
  gmin_example   GMIN's TIP4P example tests/data/water/gmin-tip4p/coords (pele-python/pele
        playground/gmin_tip4p): 8 oxygen positions, then 8 angle-axis vectors p. The sites are
        placed here by GMIN's own formula (its TIP4P routine, the site-site distance), written
        out independently of the C++ code: body-frame site s0 = (px, py, pz), p = (l, m, n),
        a = |p|, c2a = cos a, c3a = (cos a - 1) / a^2, s = sin a / a,
            x = O_x + c2a px - c3a l (l px + m py + n pz) + (n py - m pz) s,
            y = O_y + c2a py - c3a m (l px + m py + n pz) + (l pz - n px) s,
            z = O_z + c2a pz - c3a n (l px + m py + n pz) + (m px - l py) s,
        which is O + R(-p) s0 for the standard Rodrigues R(p). (With R(p) instead the same file
        would give -186.333 kJ/mol; GMIN's convention gives the value stored.)

Format: '#' header lines, then per structure
    structure NAME MOLECULES ENERGY_GMIN_K ENERGY_ASE    (kJ/mol)
    and 4 lines per molecule, sites O H H M: 'O x y z' (Angstrom; M as ASE places it)
"""
import argparse
import pathlib
import sys

import numpy as np

import ase
import ase.calculators.tip4p as tip4p_module
from ase import Atoms, units
from ase.calculators.tip4p import TIP4P, angleHOH, rOH

GMIN_COULOMB = 1389.354848  # kJ/mol A / e^2
KJ_PER_MOL = units.kJ / units.mol
SEED = 20240611
ROOT = pathlib.Path(__file__).resolve().parents[2]

# GMIN's TIP4P body frame (O at the origin, H, H, M), Angstrom.
BODY = np.array([[0.0, 0.0, 0.0], [0.756950327, 0.0, -0.5858822760],
                 [-0.756950327, 0.0, -0.5858822760], [0.0, 0.0, -0.15]])


def gmin_sites(coords):
    """Sites (4N x 3) from GMIN's rigid TIP4P coordinates (N oxygens, then N angle-axis vectors)
    by the component formula of GMIN's TIP4P routine (module docstring)."""
    n = len(coords) // 2
    out = []
    for k in range(n):
        o = coords[k]
        l, m, nn = coords[n + k]
        a = np.sqrt(l * l + m * m + nn * nn)
        c2a, c3a, s = np.cos(a), (np.cos(a) - 1.0) / a**2, np.sin(a) / a
        for px, py, pz in BODY:
            dot = l * px + m * py + nn * pz
            x = c2a * px - c3a * l * dot + (nn * py - m * pz) * s
            y = c2a * py - c3a * m * dot + (l * pz - nn * px) * s
            z = c2a * pz - c3a * nn * dot + (m * px - l * py) * s
            out.append(o + np.array([x, y, z]))
    return np.array(out)


def random_rotation(rng):
    """Uniform random rotation matrix (Shoemake's quaternion)."""
    u1, u2, u3 = rng.random(3)
    a, b = np.sqrt(1 - u1), np.sqrt(u1)
    w, x, y, z = a * np.sin(2 * np.pi * u2), a * np.cos(2 * np.pi * u2), \
        b * np.sin(2 * np.pi * u3), b * np.cos(2 * np.pi * u3)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def random_cluster(n, rng):
    half = np.radians(angleHOH) / 2
    body = np.array([[0, 0, 0], [rOH * np.sin(half), 0, -rOH * np.cos(half)],
                     [-rOH * np.sin(half), 0, -rOH * np.cos(half)]])
    oxygens = [np.zeros(3)]
    while len(oxygens) < n:
        anchor = oxygens[rng.integers(len(oxygens))]
        v = rng.normal(size=3)
        trial = anchor + v / np.linalg.norm(v) * rng.uniform(2.7, 3.4)
        if min(np.linalg.norm(trial - o) for o in oxygens) >= 2.7:
            oxygens.append(trial)
    atoms = []
    for o in oxygens:
        R = random_rotation(rng)
        atoms.extend(o + R @ b for b in body)
    return np.array(atoms)


def xyz_ohh(path):
    """O, H, H of every molecule of the first frame of an XYZ file of sites O H H X (gmin's
    `lowest`), the M sites dropped: ASE places its own."""
    lines = path.read_text().split('\n')
    count = int(lines[0])
    rows = [line.split() for line in lines[2:2 + count]]
    return np.array([[float(v) for v in r[1:4]] for r in rows if r[0] != 'X'])


def ase_energy(ohh, gmin_k):
    n = len(ohh) // 3
    atoms = Atoms('OH2' * n, positions=ohh)
    saved = tip4p_module.k_c
    try:
        if gmin_k:
            tip4p_module.k_c = GMIN_COULOMB * KJ_PER_MOL
        calc = TIP4P(rc=1000.0, width=1.0)
        atoms.calc = calc
        e = atoms.get_potential_energy() / KJ_PER_MOL
        sites = calc.add_virtual_sites(atoms.positions)
    finally:
        tip4p_module.k_c = saved
    return e, sites


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', default=str(ROOT / 'tests' / 'data' / 'water'))
    args = parser.parse_args(argv)
    rng = np.random.default_rng(SEED)
    cases = [(f'random_n{n}', random_cluster(n, rng)) for n in (2, 6, 8)]
    coords = np.loadtxt(ROOT / 'tests' / 'data' / 'water' / 'gmin-tip4p' / 'coords')
    sites = gmin_sites(coords)
    ohh = np.delete(sites, np.arange(3, len(sites), 4), axis=0)
    cases.append(('gmin_example', ohh))
    cases.append(('gm_n21', xyz_ohh(ROOT / 'tests' / 'data' / 'water' / 'tip4p21_gm.xyz')))
    lines = [
        '# Rigid TIP4P reference energies (kJ/mol) written by '
        'tools/utilities/make_tip4p_references.py',
        f'# with ASE {ase.__version__} (ase.calculators.tip4p.TIP4P, rc = 1000 A, open box), '
        f'numpy {np.__version__}, seed {SEED}',
        '# energy_gmin_k: ASE with its Coulomb constant set to GMIN\'s 1389.354848 kJ/mol A/e^2;',
        f'# energy_ase: ASE as shipped (k = {tip4p_module.k_c / KJ_PER_MOL!r} kJ/mol A/e^2)',
        '# structure NAME MOLECULES ENERGY_GMIN_K ENERGY_ASE, then sites O H H M per molecule '
        '(Angstrom)',
    ]
    for name, positions in cases:
        e_gmin, xsites = ase_energy(positions, True)
        e_ase, _ = ase_energy(positions, False)
        if name == 'gmin_example':
            # ASE's M (O + 0.15 A along the HOH bisector) must be GMIN's body-frame M.
            assert np.abs(xsites - sites).max() < 1e-9, np.abs(xsites - sites).max()
        n = len(positions) // 3
        lines.append(f'structure {name} {n} {float(e_gmin)!r} {float(e_ase)!r}')
        for k, r in enumerate(xsites):
            lines.append(f"{'OHHM'[k % 4]} {float(r[0])!r} {float(r[1])!r} {float(r[2])!r}")
        print(f'{name}: {n} molecules, E = {e_gmin:.10f} kJ/mol (GMIN k), {e_ase:.10f} (ASE k)')
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / 'tip4p_ase.txt').write_text('\n'.join(lines) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
