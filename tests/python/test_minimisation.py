"""GMIN L-BFGS and the batched engine through the bindings."""
import numpy as np
import pytest

import landscape
from conftest import LJ38_GLOBAL_MINIMUM


def random_clusters(batch, atoms, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, size=(batch, atoms, 3)) * (atoms / 4.0) ** (1 / 3)


def test_minimise_converges_back_to_the_lj38_global_minimum(lj38_minimum):
    lj = landscape.lennard_jones(38)
    rng = np.random.default_rng(2)
    start = lj38_minimum + 0.03 * rng.standard_normal(lj38_minimum.shape)
    calls = []
    x, result = landscape.minimise(lj, start, landscape.LbfgsParams(rms_tolerance=1e-6),
                                   callback=lambda it, e, rms: calls.append((it, e, rms)))
    assert result.converged and result.status == "converged"
    assert result.rms_gradient < 1e-6
    assert result.energy == pytest.approx(LJ38_GLOBAL_MINIMUM, abs=1e-6)
    assert x.shape == start.shape and lj.energy(x) == pytest.approx(result.energy, abs=1e-12)
    assert len(calls) == result.iterations and calls[-1][1] == pytest.approx(result.energy)
    assert not np.array_equal(start, x)  # the input array is not touched: x is a new array


def test_iteration_cap_is_reported_not_hidden():
    lj = landscape.lennard_jones(13)
    x, result = landscape.minimise(lj, random_clusters(1, 13, 5)[0],
                                   landscape.LbfgsParams(max_iterations=3))
    assert not result.converged and result.status == "iteration limit"
    assert result.iterations == 3


def test_batched_potential_equals_the_single_potential():
    x = random_clusters(5, 13, 7)
    batched = landscape.batched_lennard_jones(13, threads=2)
    energies, gradients = batched.energy_gradient(x)
    single = landscape.lennard_jones(13)
    for b in range(5):
        e, g = single.energy_gradient(x[b])
        assert energies[b] == e and np.array_equal(gradients[b], g)


def test_batched_minimiser_is_bit_for_bit_the_single_minimiser():
    x = random_clusters(4, 13, 11)
    params = landscape.LbfgsParams(max_iterations=2000)
    minimiser = landscape.batched_minimiser(13, params, backend="cpu", threads=2)
    minima, results = minimiser.minimise(x)
    single = landscape.lennard_jones(13)
    for b in range(4):
        xb, rb = landscape.minimise(single, x[b], params)
        assert results["energy"][b] == rb.energy and np.array_equal(minima[b], xb)
        assert results["iterations"][b] == rb.iterations and results["status"][b] == rb.status


def test_batched_cpu_twin_reaches_the_same_minima():
    x = random_clusters(3, 13, 12)
    params = landscape.LbfgsParams(max_iterations=2000)
    ref, ref_results = landscape.batched_minimiser(13, params).minimise(x)
    twin, twin_results = landscape.batched_minimiser(13, params, engine="team").minimise(x)
    # Another arithmetic order: the same minima to rounding, not bit for bit.
    assert np.allclose(twin_results["energy"], ref_results["energy"], atol=1e-8)


def test_batched_shape_errors():
    with pytest.raises(ValueError, match=r"\(B, 13, 3\) is needed"):
        landscape.batched_lennard_jones(13).energy_gradient(np.zeros((2, 12, 3)))
    with pytest.raises(ValueError, match="'cpu' or 'cuda'"):
        landscape.batched_minimiser(13, backend="gpu")
    with pytest.raises(ValueError, match="'reference', 'team' or 'rounds'"):
        landscape.batched_minimiser(13, engine="twin")
