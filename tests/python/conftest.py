"""Shared fixtures of the pytest suite of the Python module (run by ctest as PythonTests with
PYTHONPATH=build/python; by hand: PYTHONPATH=build/python python3 -m pytest tests/python)."""
import os
import pathlib

# One BLAS thread: ASE's BFGS diagonalises a 912 x 912 matrix per step, and OpenBLAS threads
# fighting for CI's two loaded cores make that 15 times slower.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

SOURCE_DIR = pathlib.Path(os.environ.get("LANDSCAPE_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))
DATA = SOURCE_DIR / "tests" / "data"
BUILD_DIR = pathlib.Path(os.environ.get("LANDSCAPE_BUILD_DIR", SOURCE_DIR / "build")).resolve()
LJ38_GLOBAL_MINIMUM = -173.928427  # Doye and Wales (Cambridge Cluster Database), README.md


def program(name):
    """A built program (build/gmin, ...), or skip the test when it is not built."""
    path = BUILD_DIR / name
    if not path.exists():
        pytest.skip(f"{path} is not built")
    return path


@pytest.fixture
def lj38_minimum():
    """The LJ38 global minimum of tests/data/lj38/gmin/lowest (10-digit coordinates, sigma)."""
    return np.loadtxt(DATA / "lj38/gmin/lowest", skiprows=2, usecols=(1, 2, 3), max_rows=38)


@pytest.fixture
def trpcage():
    """(prmtop, inpcrd) of trp-cage (304 atoms, tests/data/gb/trpcage)."""
    return str(DATA / "gb/trpcage/prmtop"), str(DATA / "gb/trpcage/inpcrd")


def finite_difference_gradient(f, x, h=1e-6, indices=None):
    """Central differences of f at x for the flat indices given (all by default)."""
    flat = x.reshape(-1)
    indices = range(flat.size) if indices is None else indices
    g = np.zeros(flat.size)
    for i in indices:
        plus, minus = flat.copy(), flat.copy()
        plus[i] += h
        minus[i] -= h
        g[i] = (f(plus.reshape(x.shape)) - f(minus.reshape(x.shape))) / (2 * h)
    return g.reshape(x.shape)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long checks, run by the ctest SlowPythonTests "
                                       "(label slow), not by the default suite")
