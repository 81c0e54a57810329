"""Reference energy functions written in numpy, independent of the library: the tests bring them
to the algorithms as landscape.FunctionPotential, tools/bench_python_potential.py times them."""
import numpy as np


def morse(x, rho=6.0):
    """Morse cluster, eps = r0 = 1: sum over pairs of e^{rho(1-r)} (e^{rho(1-r)} - 2)."""
    x = np.reshape(x, (-1, 3))
    d = x[:, None, :] - x[None, :, :]
    r = np.sqrt((d * d).sum(-1))
    upper = np.triu_indices(len(x), 1)
    e = np.exp(rho * (1.0 - r[upper]))
    coefficient = np.zeros_like(r)
    coefficient[upper] = (2.0 * e - 2.0) * (-rho * e) / r[upper]  # dV/dr / r
    coefficient += coefficient.T
    return float(np.sum(e * (e - 2.0))), (coefficient[:, :, None] * d).sum(1)


def lennard_jones(x):
    """Lennard-Jones in reduced units, 4 (r^-12 - r^-6) per pair, written in numpy."""
    x = np.reshape(x, (-1, 3))
    d = x[:, None, :] - x[None, :, :]
    r2 = (d * d).sum(-1)
    upper = np.triu_indices(len(x), 1)
    inv6 = 1.0 / r2[upper] ** 3
    coefficient = np.zeros_like(r2)
    coefficient[upper] = (-48.0 * inv6 * inv6 + 24.0 * inv6) / r2[upper]  # dV/dr / r
    coefficient += coefficient.T
    return float(np.sum(4.0 * (inv6 * inv6 - inv6))), (coefficient[:, :, None] * d).sum(1)


def batched_lennard_jones(structures):
    """lennard_jones on a batch (B, atoms, 3): energies (B,) and gradients (B, atoms, 3)."""
    d = structures[:, :, None, :] - structures[:, None, :, :]
    r2 = (d * d).sum(-1)
    i, j = np.triu_indices(structures.shape[1], 1)
    inv6 = 1.0 / r2[:, i, j] ** 3
    coefficient = np.zeros_like(r2)
    coefficient[:, i, j] = (-48.0 * inv6 * inv6 + 24.0 * inv6) / r2[:, i, j]
    coefficient += coefficient.transpose(0, 2, 1)
    return np.sum(4.0 * (inv6 * inv6 - inv6), axis=1), (coefficient[..., None] * d).sum(2)


def finite_difference_hessian(gradient, x, h):
    """Central differences of gradient(x) (any shape; flattened), symmetrised: a Hessian that
    depends on the library only through `gradient`."""
    flat = np.reshape(x, -1)
    hessian = np.zeros((flat.size, flat.size))
    for i in range(flat.size):
        plus, minus = flat.copy(), flat.copy()
        plus[i] += h
        minus[i] -= h
        hessian[i] = (np.reshape(gradient(plus), -1) - np.reshape(gradient(minus), -1)) / (2 * h)
    return 0.5 * (hessian + hessian.T)


def pair_system(x, species, epsilon, sigma, cutoff=None, box=None, convention="none",
                law="lennard-jones", rho=6.0):
    """A pair system written in numpy (the reference of landscape.PairModel's potentials): atoms
    of `species` (0-based, one per atom); epsilon, sigma (r0 for Morse) and cutoff as square
    matrices over the species (absolute cutoffs); box: None (open) or (Lx, Ly, Lz), 0 for an
    open axis, every pair at its minimum image. Conventions as docs/pair-potentials.md:
    'truncated' V, 'shifted' V - V(rc), 'force-shifted' V - V(rc) - (r - rc) V'(rc), and
    'quadratic-smoothed' V + A0 + A2 r^2, written for Lennard-Jones as GMIN's BLJCLUSTER writes
    it (A0 = 4 C6/rc^6 - 7 C12/rc^12, A2 = -3 C6/rc^8 + 6 C12/rc^14, C6 = 4 eps sigma^6, C12 =
    4 eps sigma^12) and for Morse from V(rc) and V'(rc). Returns (energy, gradient (atoms, 3))."""
    x = np.reshape(x, (-1, 3))
    d = x[:, None, :] - x[None, :, :]
    if box is not None:
        length = np.asarray(box, dtype=np.float64)
        for k in np.flatnonzero(length > 0):
            d[..., k] -= length[k] * np.round(d[..., k] / length[k])
    i, j = np.triu_indices(len(x), 1)
    dij = d[i, j]
    r = np.sqrt((dij * dij).sum(-1))
    a, b = np.asarray(species)[i], np.asarray(species)[j]
    eps, sig = np.asarray(epsilon)[a, b], np.asarray(sigma)[a, b]

    def bare(r):  # V(r), V'(r)
        if law == "morse":
            e = np.exp(rho * (1.0 - r / sig))
            return eps * e * (e - 2.0), -2.0 * eps * rho / sig * e * (e - 1.0)
        c6, c12 = 4.0 * eps * sig ** 6, 4.0 * eps * sig ** 12
        return c12 / r ** 12 - c6 / r ** 6, -12.0 * c12 / r ** 13 + 6.0 * c6 / r ** 7

    v, dv = bare(r)
    if convention != "none":
        rc = np.asarray(cutoff)[a, b]
        vc, dvc = bare(rc)
        if convention == "shifted":
            v = v - vc
        elif convention == "force-shifted":
            v, dv = v - vc - (r - rc) * dvc, dv - dvc
        elif convention == "quadratic-smoothed" and law == "lennard-jones":
            c6, c12 = 4.0 * eps * sig ** 6, 4.0 * eps * sig ** 12
            a0 = 4.0 * c6 / rc ** 6 - 7.0 * c12 / rc ** 12
            a2 = -3.0 * c6 / rc ** 8 + 6.0 * c12 / rc ** 14
            v, dv = v + a0 + a2 * r * r, dv + 2.0 * a2 * r
        elif convention == "quadratic-smoothed":
            s2 = -dvc / (2.0 * rc)
            v, dv = v - vc + s2 * (r * r - rc * rc), dv + 2.0 * s2 * r
        elif convention != "truncated":
            raise ValueError(convention)
        inside = r < rc
        v, dv = np.where(inside, v, 0.0), np.where(inside, dv, 0.0)
    pair_gradient = (dv / r)[:, None] * dij  # d V / d x_i for each pair (i < j)
    gradient = np.zeros_like(x)
    np.add.at(gradient, i, pair_gradient)
    np.add.at(gradient, j, -pair_gradient)
    return float(np.sum(v)), gradient


# The Kob-Andersen mixture (Kob and Andersen, Phys. Rev. E 51, 4626 (1995)) as matrices over the
# species A, B for pair_system: epsilon, sigma, and the cutoff 2.5 sigma_ab.
KOB_ANDERSEN_EPSILON = np.array([[1.0, 1.5], [1.5, 0.5]])
KOB_ANDERSEN_SIGMA = np.array([[1.0, 0.8], [0.8, 0.88]])
