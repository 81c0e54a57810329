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
