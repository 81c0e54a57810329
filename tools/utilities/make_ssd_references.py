#!/usr/bin/env python3
"""Reference numbers for soft-sticky-dipole (SSD) water, written independently of
potentials/SoftStickyDipoleTerms.h from the published formula (Liu and Ichiye, J. Phys. Chem. 100,
2723 (1996); the sticky term with the factor 1/2 as Fennell and Gezelter, J. Chem. Phys. 120, 9175
(2004) write it). kcal/mol and Angstrom; the frames are rotation matrices R (body -> lab, the
dipole along body +z) instead of markers, and the sticky angles are evaluated as polar angles.

  make_ssd_references.py dimer             the dimer's global minimum: the lowest of 300 BFGS
                                           minimisations from random starts (scipy)
  make_ssd_references.py cluster N STARTS  the lowest minimum of N molecules found by STARTS BFGS
                                           minimisations from random starts in a ball (scipy)
  make_ssd_references.py energies FILE     the energy of each configuration of FILE
                                           (tests/data/water/ssd_configs.txt's format)
"""
import sys

import numpy as np

K_MU2 = 332.0637 * (2.35 * 0.2081943) ** 2  # k mu^2, kcal/mol A^3
EPS, SIGMA, V0, W0 = 0.152, 3.051, 3.7284, 0.07715


def switch(d, lower, upper):
    if d <= lower:
        return 1.0
    if d >= upper:
        return 0.0
    return (upper - d) ** 2 * (upper + 2 * d - 3 * lower) / (upper - lower) ** 3


def sticky_view(R, s, d):
    """v0/2 (s w + s' w') of one molecule seeing the separation s (lab) at distance d."""
    local = R.T @ s
    theta = np.arccos(np.clip(local[2] / d, -1.0, 1.0))
    phi = np.arctan2(local[1], local[0])
    w = np.sin(theta) * np.sin(2 * theta) * np.cos(2 * phi)
    c = np.cos(theta)
    wp = (c - 0.6) ** 2 * (c + 0.8) ** 2 - W0
    return 0.5 * V0 * (switch(d, 2.75, 3.35) * w + switch(d, 2.75, 4.0) * wp)


def pair(ci, Ri, cj, Rj):
    r = cj - ci
    d = np.linalg.norm(r)
    e = 4 * EPS * ((SIGMA / d) ** 12 - (SIGMA / d) ** 6)
    ui, uj = Ri[:, 2], Rj[:, 2]
    e += K_MU2 * (ui @ uj / d ** 3 - 3 * (ui @ r) * (uj @ r) / d ** 5)
    return e + sticky_view(Ri, r, d) + sticky_view(Rj, -r, d)


def energy(centres, rotations):
    n = len(centres)
    return sum(pair(centres[i], rotations[i], centres[j], rotations[j])
               for i in range(n) for j in range(i + 1, n))


def rotation(p):
    t = np.linalg.norm(p)
    if t < 1e-12:
        return np.eye(3)
    k = p / t
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(t) * K + (1 - np.cos(t)) * K @ K


def dimer():
    from scipy.optimize import minimize

    def f(v):
        return pair(np.zeros(3), rotation(v[6:9]), v[:3], rotation(v[3:6]))

    rng = np.random.default_rng(1)
    best = None
    for _ in range(300):
        v = rng.normal(size=9)
        v[:3] *= 2.8 / np.linalg.norm(v[:3])
        res = minimize(f, v, method="BFGS", options={"gtol": 1e-9})
        if best is None or res.fun < best.fun:
            best = res
    print(f"dimer minimum {best.fun:.6f} kcal/mol, centres {np.linalg.norm(best.x[:3]):.6f} A apart")


def cluster(n, starts):
    from scipy.optimize import minimize

    def f(v):
        c = v[: 3 * n].reshape(n, 3)
        return energy(list(c), [rotation(v[3 * n + 3 * k: 3 * n + 3 * k + 3]) for k in range(n)])

    rng = np.random.default_rng(n)
    best = None
    for _ in range(starts):
        c = rng.uniform(-1, 1, size=(n, 3)) * 2.5 * n ** (1 / 3)
        v = np.concatenate([c.ravel(), rng.normal(size=3 * n)])
        res = minimize(f, v, method="BFGS", options={"gtol": 1e-7})
        if best is None or res.fun < best.fun:
            best = res
    print(f"{n} molecules: lowest {best.fun:.6f} kcal/mol of {starts} minimisations")


def energies(path):
    with open(path) as f:
        lines = [l for l in f if not l.startswith("#")]
    i = 0
    while i < len(lines):
        _, k, n = lines[i].split()
        rows = [np.array(lines[i + 1 + m].split(), dtype=float) for m in range(int(n))]
        centres = [r[:3] for r in rows]
        rotations = [r[3:].reshape(3, 3) for r in rows]
        print(k, n, f"{energy(centres, rotations):.12f}")
        i += 1 + int(n)


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "dimer":
        dimer()
    elif len(sys.argv) == 4 and sys.argv[1] == "cluster":
        cluster(int(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) == 3 and sys.argv[1] == "energies":
        energies(sys.argv[2])
    else:
        sys.exit(__doc__)
