#!/usr/bin/env python3
"""Reference energies and gradients of the Gupta potential, computed by ASAP (an independent code).

Writes tests/data/clusters/gupta_asap.txt (format below). The C++ tests of potentials/GuptaPotential
and the Python tests compare against these numbers; ASAP is needed only to regenerate them, never
at test time.

Code: ASAP 3 (asap3.Internal.BuiltinPotentials.Gupta, the RGL potential of asap3's C++ core)
over ASE. Its RGL has a cutoff function starting at `cutoff` nearest-neighbour distances; with
cutoff=1000 (asserted beyond every pair distance) no pair is smoothed, so the energy is the plain
  E = sum_i [ A sum_{j != i} e^{p(1 - r_ij/r0)} - xi sqrt(sum_{j != i} e^{2q(1 - r_ij/r0)}) ]
of Cleri and Rosato, Phys. Rev. B 48, 22 (1993).

Install in a virtual environment (asap3 builds from source, a few minutes):
  python3 -m venv --system-site-packages /tmp/gupta-venv
  /tmp/gupta-venv/bin/pip install asap3
  /tmp/gupta-venv/bin/python tools/utilities/make_gupta_references.py

Cases (random configurations from numpy.random.default_rng with the seed given; random sequential
addition in a sphere keeping every pair above 0.85 r0):
  gupta13_pt     pele's Gupta13 coordinates (tests/data/clusters/gupta13_x0.txt), platinum
                 (p 10.612, q 4.004, A 0.2975, xi 2.695, r0 1); ASAP's energy is asserted against
                 pele's -64.91633912 (to 1e-8).
  au38_angstrom  38 gold atoms in Angstrom: Cleri and Rosato's gold with r0 = 2.884 (the
                 nearest-neighbour distance of Pittaway et al., J. Phys. Chem. C 113, 9141
                 (2009), Table 2), seed 20260301: the r0 scaling.
  ni20           20 nickel atoms, r0 = 1, seed 20260302.
  cu55           55 copper atoms, r0 = 1, seed 20260303.
Every stored gradient is checked against a fourth-order central difference (h = 1e-4 r0) of ASAP's
energy on 7 coordinates (6 random and the largest component).

File format: `#` comment lines, then per case
  case <name>
  params <p> <q> <A> <xi> <r0>
  atoms <N>
  energy <E>
  <x> <y> <z> <gx> <gy> <gz>          (N lines; g = dE/dx = -force)
Numbers are Python repr of doubles (they read back as the same doubles).

Usage: python3 tools/utilities/make_gupta_references.py [--out FILE]
"""

import argparse
import os
from importlib import metadata

import numpy as np
from ase import Atoms
from asap3.Internal.BuiltinPotentials import Gupta

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PELE_GUPTA13 = -64.91633912  # pele-python/pele pele/potentials/tests/test_gupta.py
BIG_CUTOFF = 1000.0          # ASAP's cutoff in nearest-neighbour distances: beyond every pair

METALS = {  # Cleri and Rosato's fcc table: p, q, A (eV), xi (eV)
    "Ni": (16.999, 1.189, 0.0376, 1.070),
    "Cu": (10.960, 2.278, 0.0855, 1.224),
    "Pt": (10.612, 4.004, 0.2975, 2.695),
    "Au": (10.229, 4.036, 0.2061, 1.790),
}


def random_cluster(n, seed, r0):
    rng = np.random.default_rng(seed)
    radius = r0 * 0.62 * n ** (1.0 / 3.0)
    x = []
    while len(x) < n:
        v = rng.uniform(-radius, radius, 3)
        if np.linalg.norm(v) > radius:
            continue
        if all(np.linalg.norm(v - w) > 0.85 * r0 for w in x):
            x.append(v)
    return np.array(x)


def asap(x, metal, r0):
    p, q, a, xi = METALS[metal]
    extent = np.ptp(x, axis=0).max()
    assert extent < BIG_CUTOFF * r0
    atoms = Atoms(metal + str(len(x)), positions=x, cell=[4 * extent + 10 * r0] * 3, pbc=False)
    atoms.calc = Gupta({metal: [p, q, a, xi, r0]}, cutoff=BIG_CUTOFF)
    energy = atoms.get_potential_energy()
    return energy, -atoms.get_forces()


def finite_difference_error(x, metal, r0, g, seed):
    rng = np.random.default_rng(seed)
    flat = x.reshape(-1)
    picks = list(rng.choice(flat.size, 6, replace=False)) + [int(np.argmax(np.abs(g)))]
    h = 1e-4 * r0
    worst = 0.0
    for k in picks:
        e = []
        for step in (-2, -1, 1, 2):
            y = flat.copy()
            y[k] += step * h
            e.append(asap(y.reshape(-1, 3), metal, r0)[0])
        fd = (e[0] - 8 * e[1] + 8 * e[2] - e[3]) / (12 * h)
        worst = max(worst, abs(fd - g.reshape(-1)[k]))
    return worst / max(1.0, np.abs(g).max())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(REPO, "tests", "data", "clusters",
                                                      "gupta_asap.txt"))
    args = parser.parse_args()

    x13 = np.loadtxt(os.path.join(REPO, "tests", "data", "clusters", "gupta13_x0.txt"))
    cases = [
        ("gupta13_pt", "Pt", 1.0, x13),
        ("au38_angstrom", "Au", 2.884, random_cluster(38, 20260301, 2.884)),
        ("ni20", "Ni", 1.0, random_cluster(20, 20260302, 1.0)),
        ("cu55", "Cu", 1.0, random_cluster(55, 20260303, 1.0)),
    ]
    lines = [
        "# Gupta references: energies and gradients from ASAP %s (asap3.Internal.BuiltinPotentials"
        ".Gupta, cutoff %g nearest-neighbour distances: no pair smoothed), ASE %s, numpy %s"
        % (metadata.version("asap3"), BIG_CUTOFF, metadata.version("ase"), np.__version__),
        "# written by tools/utilities/make_gupta_references.py (its docstring: cases and format)",
        "# units: energies in eV (A, xi), lengths in those of r0; gradient g = dE/dx = -force",
    ]
    for name, metal, r0, x in cases:
        energy, g = asap(x, metal, r0)
        if name == "gupta13_pt":
            assert abs(energy - PELE_GUPTA13) < 1e-8, energy
            lines.append("# gupta13_pt: ASAP %r, pele %r" % (energy, PELE_GUPTA13))
        fd = finite_difference_error(x, metal, r0, g, 7)
        assert fd < 1e-7, (name, fd)
        lines.append("# %s: %s, finite differences (4th order, h 1e-4 r0, 7 coordinates): "
                     "max |dg| / max(1, max|g|) %.1e" % (name, metal, fd))
    for name, metal, r0, x in cases:
        energy, g = asap(x, metal, r0)
        p, q, a, xi = METALS[metal]
        lines.append("case %s" % name)
        lines.append("params %r %r %r %r %r" % (p, q, a, xi, r0))
        lines.append("atoms %d" % len(x))
        lines.append("energy %r" % energy)
        for xi_, gi in zip(x, g):
            lines.append(" ".join(repr(float(v)) for v in list(xi_) + list(gi)))
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", args.out)


if __name__ == "__main__":
    main()
