"""DNEB, hybrid eigenvector-following, descent and network growth called on their own
(landscape.dneb, find_transition_state, descend, grow) for any potential. References: the built-in
Lennard-Jones for the same function written in numpy (tests/python/numpy_potentials.py), the
transition state landscape.connect finds, and physics checked independently: a numpy
finite-difference Hessian with one negative eigenvalue at a saddle, zero gradients at stationary
points, every transition state above both its minima."""
import itertools
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import landscape
from conftest import SOURCE_DIR
from numpy_potentials import finite_difference_hessian, lennard_jones
from test_network import lj7_minima


@pytest.fixture(scope="module")
def lj7():
    """Built-in LJ7, the same in numpy, its two lowest minima and connect's network between them."""
    builtin, a, b = lj7_minima()
    own = landscape.FunctionPotential(lennard_jones, atoms=7, name="numpy LJ7")
    return builtin, own, a, b, landscape.connect(builtin, a, b)


@pytest.fixture(scope="module")
def lj8_network():
    """LJ8's connect network between its 4th and 7th lowest minima (found from seeded random
    starts): 5 minima on a path of 4 transition states, set_a and set_b its endpoints."""
    lj = landscape.lennard_jones(8)
    rng = np.random.default_rng(0)
    params = landscape.LbfgsParams(rms_tolerance=1e-7, max_iterations=5000)
    found = {}
    for _ in range(100):
        x, r = landscape.minimise(lj, rng.uniform(-1.2, 1.2, (8, 3)), params)
        if r.converged:
            found.setdefault(round(r.energy, 5), x)
    lows = sorted(found)
    assert len(lows) >= 7 and lows[0] == pytest.approx(-19.821489, abs=1e-5)  # CCD's LJ8
    network = landscape.connect(lj, found[lows[3]], found[lows[6]])
    assert network.run["connected"] and network.minima_count == 5
    return lj, landscape.FunctionPotential(lennard_jones, atoms=8, name="numpy LJ8"), network


def numpy_hessian(x, h=1e-5):
    """Central differences of the numpy Lennard-Jones gradient: independent of the library."""
    return finite_difference_hessian(lambda y: lennard_jones(y)[1], x, h)


def rms_gradient(x):
    return float(np.sqrt(np.mean(lennard_jones(x)[1] ** 2)))


def test_dneb_of_a_numpy_lj7_is_the_builtin_band(lj7):
    builtin, own, a, b, network = lj7
    ours, theirs = landscape.dneb(own, a, b), landscape.dneb(builtin, a, b)
    assert ours["converged"] and ours["status"] == "converged"
    images = ours["interior_images"]
    assert ours["images"].shape == ours["tangents"].shape == (images + 2, 7, 3)
    np.testing.assert_allclose(ours["energies"], theirs["energies"], atol=1e-8)
    np.testing.assert_allclose(ours["images"], theirs["images"], atol=1e-8)
    assert ours["candidates"] == theirs["candidates"]
    # The band: the endpoints' energies at its ends (finish aligned onto start keeps its energy),
    # a path no shorter than the straight line, unit tangents inside and none at the ends.
    energies = ours["energies"]
    assert energies[0] == pytest.approx(builtin.energy(a), abs=1e-12)
    assert energies[-1] == pytest.approx(builtin.energy(b), abs=1e-10)
    np.testing.assert_array_equal(ours["images"][0], a)
    assert np.linalg.norm(ours["images"][-1] - a) == pytest.approx(ours["endpoint_distance"], 1e-12)
    assert ours["path_length"] >= ours["endpoint_distance"]
    norms = np.linalg.norm(ours["tangents"].reshape(images + 2, -1), axis=1)
    np.testing.assert_allclose(norms[1:-1], 1.0, atol=1e-12)
    assert norms[0] == norms[-1] == 0.0
    # Candidates are interior maxima, highest first; the highest lies just below connect's saddle.
    candidates = ours["candidates"]
    assert candidates
    assert all(energies[c] > max(energies[c - 1], energies[c + 1]) for c in candidates)
    assert list(energies[candidates]) == sorted(energies[candidates], reverse=True)
    assert network.ts_energy[0] - 0.01 < energies[candidates[0]] <= network.ts_energy[0] + 1e-6
    # The input's shape is kept: a flat start gives flat images.
    flat = landscape.dneb(builtin, a.reshape(-1), b.reshape(-1))
    assert flat["images"].shape == (images + 2, 21)
    np.testing.assert_array_equal(flat["energies"], theirs["energies"])


def test_find_transition_state_from_the_band_maximum_is_connects_saddle(lj7):
    builtin, own, a, b, network = lj7
    band = landscape.dneb(own, a, b)
    c = band["candidates"][0]
    ts = landscape.find_transition_state(own, band["images"][c], band["tangents"][c])
    assert ts["converged"] and ts["status"] == "converged"
    assert ts["coordinates"].shape == (7, 3) and ts["eigenvector"].shape == (7, 3)
    assert ts["energy"] == pytest.approx(network.ts_energy[0], abs=1e-6)
    assert ts["energy"] > max(builtin.energy(a), builtin.energy(b))
    assert rms_gradient(ts["coordinates"]) < 1e-5
    # A first-order saddle: one negative eigenvalue of an independent Hessian, six zero modes,
    # the reported eigenpair its lowest (Rayleigh-Ritz converges the eigenvalue to 1%).
    values, vectors = np.linalg.eigh(numpy_hessian(ts["coordinates"]))
    assert np.sum(values < -1e-3) == 1 and np.sum(np.abs(values) < 1e-3) == 6
    assert ts["eigenvalue"] == pytest.approx(values[0], rel=0.02)
    assert abs(vectors[:, 0] @ ts["eigenvector"].reshape(-1)) > 0.99
    # The built-in potential from the same start reaches the same saddle.
    theirs = landscape.find_transition_state(builtin, band["images"][c], band["tangents"][c])
    assert theirs["energy"] == pytest.approx(ts["energy"], abs=1e-8)


def test_descent_from_the_saddle_reaches_the_two_minima(lj7):
    builtin, own, a, b, network = lj7
    ts = network.ts_coordinates[0]
    v = np.linalg.eigh(numpy_hessian(ts))[1][:, 0].reshape(7, 3)
    result = landscape.descend(own, ts, v)
    assert result["converged"]
    sides = result["plus"], result["minus"]
    assert sorted(s["energy"] for s in sides) == pytest.approx(
        sorted([builtin.energy(a), builtin.energy(b)]), abs=1e-8)
    for side in sides:
        assert side["converged"] and side["coordinates"].shape == (7, 3)
        assert side["energy"] < network.ts_energy[0]
        assert rms_gradient(side["coordinates"]) < 1e-5
    assert result["plus"]["pushoff"] > 0 > result["minus"]["pushoff"]


def test_an_ase_calculator_runs_every_path_algorithm_as_the_builtin_potential(lj7):
    # ASE's own Lennard-Jones (eV, Angstrom; epsilon = sigma = 1, a cutoff far beyond the
    # cluster): an independent code for the same energy.
    pytest.importorskip("ase")
    from ase import Atoms
    from ase.calculators.lj import LennardJones

    from landscape.ase import CalculatorPotential

    builtin, _, a, b, network = lj7
    potential = CalculatorPotential(Atoms("Ar7", positions=a),
                                    LennardJones(sigma=1.0, epsilon=1.0, rc=100.0))
    band = landscape.dneb(potential, a, b)
    np.testing.assert_allclose(band["energies"], landscape.dneb(builtin, a, b)["energies"],
                               atol=1e-8)
    c = band["candidates"][0]
    ts = landscape.find_transition_state(potential, band["images"][c], band["tangents"][c])
    assert ts["converged"] and ts["energy"] == pytest.approx(network.ts_energy[0], abs=1e-6)
    sides = landscape.descend(potential, ts["coordinates"], ts["eigenvector"])
    assert sorted([sides["plus"]["energy"], sides["minus"]["energy"]]) == pytest.approx(
        sorted(network.minima_energy), abs=1e-6)
    grown = landscape.grow(potential, network)
    assert grown.run["pairs"] == [(1, 0)] and grown.run["connected"] == [True]
    np.testing.assert_allclose(grown.ts_energy, network.ts_energy, atol=1e-6)


def check_grown(grown):
    """Every transition state above both its minima, a first-order saddle (negative eigenvalue);
    every point stationary under the numpy gradient; no pair tried twice."""
    for t, (p, m) in enumerate(grown.ts_minima):
        assert p != m and grown.ts_energy[t] > max(grown.minima_energy[p], grown.minima_energy[m])
        assert grown.ts_eigenvalue[t] < 0
    for x in itertools.chain(grown.minima_coordinates, grown.ts_coordinates):
        assert rms_gradient(x) < 1e-4
    tried = [tuple(sorted(p)) for p in grown.growth["tried_pairs"]]
    assert len(tried) == len(set(tried))
    assert [tuple(p) for p in grown.growth["tried_pairs"][-len(grown.run["pairs"]):]] == \
        grown.run["pairs"]


def test_untrap_growth_of_lj8_with_a_numpy_potential_is_the_builtin_growth(lj8_network):
    builtin, own, network = lj8_network
    ours = landscape.grow(own, network, cycles=3, pairs_per_cycle=2)
    theirs = landscape.grow(builtin, network, cycles=3, pairs_per_cycle=2)
    assert ours.run["cycles"] == 3 and ours.growth["cycles"] == 3
    assert 3 <= len(ours.run["pairs"]) <= 6 and all(ours.run["connected"])
    assert ours.run["new_transition_states"] >= 4
    assert ours.ts_count == network.ts_count + ours.run["new_transition_states"]
    assert ours.minima_count == network.minima_count + ours.run["new_minima"]
    check_grown(ours)
    # The same growth: pairs, minima and transition states (energies to 1e-8, entry for entry).
    assert ours.run["pairs"] == theirs.run["pairs"]
    for found_again in ("known_transition_states", "repeated_transition_states"):
        assert ours.run[found_again] == theirs.run[found_again] >= 0
    np.testing.assert_allclose(ours.minima_energy, theirs.minima_energy, atol=1e-8)
    np.testing.assert_allclose(ours.ts_energy, theirs.ts_energy, atol=1e-8)
    np.testing.assert_array_equal(ours.ts_minima, theirs.ts_minima)
    # What was there stays first, as it was; the endpoints stay the sets.
    np.testing.assert_array_equal(ours.minima_energy[:5], network.minima_energy)
    np.testing.assert_array_equal(ours.ts_energy[:4], network.ts_energy)
    np.testing.assert_array_equal(ours.set_a, network.set_a)
    np.testing.assert_array_equal(ours.set_b, network.set_b)
    assert ours.metadata["program"] == "landscape.grow"


def test_growth_continued_from_its_record_is_one_growth(lj8_network):
    builtin, _, network = lj8_network
    whole = landscape.grow(builtin, network, cycles=3)
    first = landscape.grow(builtin, network, cycles=1)
    rest = landscape.grow(builtin, first, cycles=2)
    assert rest.growth["cycles"] == 3 and rest.growth["settings"] == whole.growth["settings"]
    assert first.run["pairs"] + rest.run["pairs"] == whole.run["pairs"]
    np.testing.assert_array_equal(rest.growth["tried_pairs"], whole.growth["tried_pairs"])
    np.testing.assert_array_equal(rest.ts_energy, whole.ts_energy)
    nothing = landscape.grow(builtin, whole, cycles=0)
    assert nothing.run["cycles"] == 0 and nothing.ts_count == whole.ts_count


@pytest.mark.parametrize("selection", ["shortcut", "dijkstra"])
def test_kinetic_selections_characterise_the_network_and_give_its_rates(lj8_network, selection):
    builtin, own, network = lj8_network
    assert np.all(np.isnan(network.ts_log_product))  # connect was not asked to characterise
    ours = landscape.grow(own, network, cycles=2, selection=selection, temperature=0.2)
    theirs = landscape.grow(builtin, network, cycles=2, selection=selection, temperature=0.2)
    assert ours.run["pairs"] == theirs.run["pairs"] and len(ours.run["pairs"]) >= 2
    check_grown(ours)
    for key in ("minima_log_product", "ts_log_product"):
        assert np.all(np.isfinite(ours.data[key]))
        np.testing.assert_allclose(ours.data[key], theirs.data[key], atol=1e-5)
    assert np.all(ours.minima_point_group_order >= 1)
    rates = ours.rates(0.2)
    assert rates["k_ab"] > 0 and rates["k_ba"] > 0
    assert rates["detailed_balance"]["kss"] == pytest.approx(1.0, rel=1e-9)


def test_growth_with_a_python_potential_from_another_thread_ends():
    # The connect runs call the potential on the calling thread (a pool of one thread, on a fibre
    # of it) with the GIL held, as connect does: from a Python thread too, and the main thread
    # keeps running meanwhile. Run in a process of its own, so that a hang fails the test.
    script = textwrap.dedent("""
        import sys, threading, time
        sys.path.insert(0, sys.argv[1])
        import landscape
        from numpy_potentials import lennard_jones
        from test_network import lj7_minima
        lj, a, b = lj7_minima()
        network = landscape.connect(lj, a, b)
        own = landscape.FunctionPotential(lennard_jones, atoms=7)
        out = {}
        worker = threading.Thread(target=lambda: out.update(g=landscape.grow(own, network)))
        worker.start()
        ticks = 0
        while worker.is_alive():
            ticks += 1
            time.sleep(0.001)
        print(out["g"].run["cycles"], out["g"].run["pairs"], ticks > 0)
    """)
    done = subprocess.run([sys.executable, "-c", script, str(SOURCE_DIR / "tests" / "python")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "1 [(1, 0)] True"


def test_an_exception_of_the_potential_during_growth_reaches_the_caller(lj7):
    _, _, _, _, network = lj7
    calls = []

    def failing(x):
        calls.append(1)
        if len(calls) == 40:
            raise ArithmeticError("model failed")
        return lennard_jones(x)

    with pytest.raises(ArithmeticError, match="model failed") as error:
        landscape.grow(landscape.FunctionPotential(failing, atoms=7), network)
    assert "raised in evaluation 40 of failing's energy_gradient" in error.value.__notes__


def test_parameters_are_checked(lj7):
    assert landscape.DnebParams(images=8).images == 8
    assert "spring_constant=10.0" in repr(landscape.DnebParams())
    assert landscape.TransitionStateParams(max_iterations=5).max_iterations == 5
    with pytest.raises(ValueError, match="images"):
        landscape.DnebParams(images=-1)
    with pytest.raises(ValueError, match="overlapConvergence"):
        landscape.TransitionStateParams(overlap_convergence=2.0)
    with pytest.raises(TypeError, match="unknown field"):
        landscape.DnebParams(image=3)


def bad_calls(lj7):
    builtin, own, a, b, network = lj7
    data = dict(network.data)
    no_sets = dict(data, set_a=[], set_b=[])
    kinetics_only = dict(data, metadata=dict(data["metadata"], atoms=0),  # as NOPOINTS imports
                         minima_coordinates=np.zeros((2, 0, 3)), ts_coordinates=np.zeros((1, 0, 3)))
    return [
        (lambda: landscape.dneb(builtin, a, b[:6]), "finish has shape"),
        (lambda: landscape.dneb(builtin, a.T, b), "shape"),
        (lambda: landscape.dneb(builtin, np.full_like(a, np.nan), b), "start"),
        (lambda: landscape.find_transition_state(builtin, a, np.zeros_like(a)), "zero"),
        (lambda: landscape.find_transition_state(builtin, a, a[:3]), "eigenvector_guess"),
        (lambda: landscape.descend(builtin, a, np.zeros_like(a)), "eigenvector is zero"),
        (lambda: landscape.descend(builtin, a, a, pushoff=-1.0), "pushoff"),
        (lambda: landscape.grow(builtin, network, cycles=-1), "cycles must be >= 0"),
        (lambda: landscape.grow(builtin, network, selection="random"), "selection must be"),
        (lambda: landscape.grow(builtin, no_sets), "no endpoint sets"),
        (lambda: landscape.grow(landscape.lennard_jones(8), network), "7 atoms"),
        (lambda: landscape.grow(builtin, kinetics_only), "kinetics-only"),
        (lambda: landscape.grow(builtin, network, selection="shortcut"), "needs a temperature"),
        (lambda: landscape.grow(builtin, network, selection="shortcut", temperature=-1.0),
         "temperature must be positive"),
        (lambda: landscape.grow(builtin, network, selection="dijkstra", temperature=0.1,
                                characterise=False), "characterise=False"),
        (lambda: landscape.grow(builtin, network, pairs_per_cycle=0), "pairs_per_cycle"),
        (lambda: landscape.grow(builtin, network, direction="CD"), "direction"),
        (lambda: landscape.grow(builtin, network, untrap_increment=0.0), "einc"),
        (lambda: landscape.grow(builtin, network, units="kelvin"), "units"),
    ]


@pytest.mark.parametrize("index", range(19))
def test_bad_inputs_are_value_errors_naming_the_problem(lj7, index):
    call, message = bad_calls(lj7)[index]
    with pytest.raises(ValueError, match=message):
        call()
