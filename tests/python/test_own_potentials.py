"""Energy functions of the user's own in every algorithm: landscape.Potential subclassed,
landscape.FunctionPotential over a numpy function, landscape.ase.CalculatorPotential over an ASE
calculator. Reference values: the Cambridge Cluster Database (Morse M13 at rho = 6, Doye and
Wales), the library's own Lennard-Jones (the same function written in numpy), ASE's own BFGS."""
import numpy as np
import pytest

import landscape
from conftest import finite_difference_gradient
from numpy_potentials import batched_lennard_jones, lennard_jones, morse
from test_network import lj7_minima

MORSE13_RHO6 = -42.439863  # CCD, Morse clusters rho = 6 (../shared/data/clusters/morse_rho6.tsv)


def test_morse_gradient_is_its_energys_derivative():
    x = np.random.default_rng(1).uniform(-1.2, 1.2, (13, 3))
    potential = landscape.FunctionPotential(morse, atoms=13)
    _, g = morse(x)
    np.testing.assert_allclose(finite_difference_gradient(potential.energy, x), g, rtol=1e-6,
                               atol=1e-6)
    assert potential.energy(x) == morse(x)[0]
    assert repr(potential) == "<landscape.Potential morse, 39 values>"


def test_basin_hopping_finds_the_ccd_morse13_minimum_with_a_numpy_function():
    potential = landscape.FunctionPotential(morse, atoms=13)
    params = landscape.BasinHoppingParams(steps=300, seed=2, target_energy=MORSE13_RHO6 + 1e-4)
    result = landscape.basin_hopping(potential, params)
    assert result.target_reached, [m.energy for m in result.lowest]
    assert result.lowest[0].energy == pytest.approx(MORSE13_RHO6, abs=1e-6)


def test_numpy_lennard_jones_gives_the_builtin_minima_and_transition_states():
    builtin, a, b = lj7_minima()
    own = landscape.FunctionPotential(lennard_jones, atoms=7, name="numpy LJ7")
    x = a + np.random.default_rng(3).normal(0.0, 0.05, a.shape)
    params = landscape.LbfgsParams(rms_tolerance=1e-8, max_iterations=5000)
    (x_own, r_own), (x_builtin, r_builtin) = (landscape.minimise(p, x, params)
                                              for p in (own, builtin))
    assert r_own.converged and r_builtin.converged
    assert r_own.energy == pytest.approx(r_builtin.energy, abs=1e-10)
    np.testing.assert_allclose(x_own, x_builtin, atol=1e-6)
    ours, theirs = (landscape.connect(p, a, b) for p in (own, builtin))
    assert ours.run["connected"] and theirs.run["connected"]
    np.testing.assert_allclose(np.sort(ours.ts_energy), np.sort(theirs.ts_energy), atol=1e-8)
    np.testing.assert_allclose(np.sort(ours.minima_energy), np.sort(theirs.minima_energy),
                               atol=1e-8)


def test_a_subclass_is_called_by_the_algorithms():
    class Harmonic(landscape.Potential):
        def __init__(self):
            super().__init__(6, "two springs")
            self.calls = 0

        def energy_gradient(self, x):
            self.calls += 1
            return 0.5 * float(np.sum(x * x)), np.array(x, dtype=np.float64)

    potential = Harmonic()
    x, result = landscape.minimise(potential, np.ones((2, 3)))
    assert result.converged and potential.calls == result.function_calls
    np.testing.assert_allclose(x, 0.0, atol=1e-5)
    assert potential.name == "two springs" and potential.dimension == 6


def test_an_exception_in_the_function_reaches_the_caller_naming_the_evaluation():
    calls = []

    def failing(x):
        calls.append(1)
        if len(calls) == 5:
            raise ZeroDivisionError("the user's bug")
        return lennard_jones(x)

    builtin, a, _ = lj7_minima()
    with pytest.raises(ZeroDivisionError, match="the user's bug") as caught:
        landscape.minimise(landscape.FunctionPotential(failing, atoms=7), a * 1.05)
    assert "raised in evaluation 5 of failing's energy_gradient" in caught.value.__notes__


@pytest.mark.parametrize("returned, message", [
    (lambda x: 1.0, r"must return \(energy, gradient\)"),
    (lambda x: ("low", np.zeros(21)), "energy that is not a number"),
    (lambda x: (1.0, np.zeros((3, 7))), r"gradient of shape \(3, 7\) but \(7, 3\) is needed"),
    (lambda x: (1.0, np.zeros(21, dtype=np.float32)), "dtype float32"),
    (lambda x: (1.0, [0.0] * 21), "gradient of type list"),
])
def test_a_bad_return_is_a_value_error_naming_the_problem(returned, message):
    with pytest.raises(ValueError, match=message):
        landscape.minimise(landscape.FunctionPotential(returned, atoms=7), np.ones((7, 3)))


def test_bad_construction_is_refused():
    with pytest.raises(ValueError, match="atoms must be a positive int"):
        landscape.FunctionPotential(morse, atoms=0)
    with pytest.raises(ValueError, match="not both"):
        landscape.FunctionPotential(morse, atoms=3, dimension=9)
    with pytest.raises(TypeError, match="not callable"):
        landscape.FunctionPotential(3, atoms=3)


def test_ase_emt_copper_minimised_as_ase_minimises_it_and_connected():
    ase = pytest.importorskip("ase")
    from ase.calculators.emt import EMT
    from ase.cluster import Icosahedron
    from ase.optimize import BFGS

    from landscape.ase import CalculatorPotential

    cluster = Icosahedron("Cu", 2)  # Cu13
    cluster.pbc = False
    rng = np.random.default_rng(4)
    start = cluster.positions + rng.normal(0.0, 0.1, cluster.positions.shape)
    potential = CalculatorPotential(cluster, EMT())
    params = landscape.LbfgsParams(rms_tolerance=1e-6, max_iterations=5000, max_step=0.2)
    icosahedron, result = landscape.minimise(potential, start, params)
    assert result.converged
    reference = ase.Atoms(cluster.symbols, positions=start, calculator=EMT())
    BFGS(reference, logfile=None).run(fmax=1e-6)
    assert result.energy == pytest.approx(reference.get_potential_energy(), abs=1e-8)
    # Other minima from a short basin-hopping run from the icosahedron (eV, Angstrom).
    hopping = landscape.BasinHoppingParams(steps=20, seed=1, step_size=1.2, temperature=0.5,
                                           container=False, save_count=5, energy_difference=1e-3)
    lowest = landscape.basin_hopping(potential, hopping, start=icosahedron).lowest
    assert len(lowest) >= 3 and lowest[0].energy == pytest.approx(result.energy, abs=1e-8)
    other = lowest[2].coordinates
    network = landscape.connect(potential, icosahedron, other, energy_unit="eV",
                                length_unit="Angstrom")
    assert network.run["connected"] and len(network.ts_energy) >= 1
    for u, v, data in network.to_networkx().edges(data=True):
        assert data["energy"] > max(network.minima_energy[u], network.minima_energy[v])
    with pytest.raises(ValueError, match="periodic"):
        periodic = cluster.copy()
        periodic.pbc = True
        periodic.cell = [20.0, 20.0, 20.0]
        CalculatorPotential(periodic, EMT())


def test_a_batched_numpy_model_drives_the_batched_engine():
    """LJ13 written in numpy on (B, 13, 3): the batched engine asks for the structures still
    minimising in one call per round, and finds the minima the built-in potential finds."""
    calls = []

    def model(structures):
        calls.append(len(structures))
        return batched_lennard_jones(structures)

    starts = np.random.default_rng(5).uniform(0.0, 2.5, (8, 13, 3))
    params = landscape.LbfgsParams(rms_tolerance=1e-7, max_iterations=5000)
    minimiser = landscape.batched_minimiser_over(
        landscape.FunctionBatchedPotential(model, atoms=13), params)
    minima, report = minimiser.minimise(starts)
    builtin = landscape.lennard_jones(13)
    for b in range(len(starts)):
        x, r = landscape.minimise(builtin, starts[b], params)
        assert report["status"][b] == "converged" and r.converged
        assert report["energy"][b] == pytest.approx(r.energy, abs=1e-9)
        assert report["energy"][b] == pytest.approx(builtin.energy(minima[b]), abs=1e-9)
    assert calls[0] == 8 and max(calls) == 8 and min(calls) >= 1
    assert len(calls) == max(report["function_calls"])  # one call per round
    assert sum(calls) == sum(report["function_calls"])
    with pytest.raises(ValueError, match=r"energies of shape \(3,\).*\(8,\)"):
        landscape.batched_minimiser_over(landscape.FunctionBatchedPotential(
            lambda s: (np.zeros(3), np.zeros_like(s)), atoms=13)).minimise(starts)


def test_gmins_walkers_run_on_a_batched_numpy_model_and_find_the_builtin_minima():
    """16 walkers of gmin's LJ cluster defaults for 30 rounds on LJ13 written in numpy: the same
    lowest minima as the same walkers on the built-in batched Lennard-Jones."""
    params = landscape.BasinHoppingParams.gmin_lj38_example()
    params.steps, params.seed = 30, 2
    model = landscape.FunctionBatchedPotential(batched_lennard_jones, atoms=13)
    ours = landscape.walkers(model, params, walkers=16)
    theirs = landscape.walkers(landscape.batched_lennard_jones(13), params, walkers=16)
    assert ours.quenches == theirs.quenches == 16 * 30
    assert ours.lowest[0].energy == pytest.approx(-44.326801, abs=1e-5)  # CCD LJ13
    np.testing.assert_allclose([m.energy for m in ours.lowest],
                               [m.energy for m in theirs.lowest], atol=1e-5)


def test_a_batched_model_that_fills_the_engines_arrays_runs_as_one_that_returns_them():
    """A model f(X, out) writing into the engine's arrays (out = (energies, gradients)) gives the
    minimisations of the same model returning new arrays, bit for bit; a model that leaves the
    energies unwritten stops every structure as a non-finite energy instead of passing on stale
    values."""
    def filling(structures, out):
        energies, gradients = batched_lennard_jones(structures)
        out[0][...] = energies
        out[1][...] = gradients

    starts = np.random.default_rng(7).uniform(0.0, 2.5, (6, 13, 3))
    params = landscape.LbfgsParams(rms_tolerance=1e-7, max_iterations=5000)
    model = landscape.FunctionBatchedPotential(filling, atoms=13)
    assert model.fills_out
    ours, ours_report = landscape.batched_minimiser_over(model, params).minimise(starts)
    theirs, theirs_report = landscape.batched_minimiser_over(
        landscape.FunctionBatchedPotential(batched_lennard_jones, atoms=13), params).minimise(starts)
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(ours_report["energy"], theirs_report["energy"])
    assert all(s == "converged" for s in ours_report["status"])

    def gradients_only(structures, out):
        out[1][...] = batched_lennard_jones(structures)[1]

    _, report = landscape.batched_minimiser_over(
        landscape.FunctionBatchedPotential(gradients_only, atoms=13), params).minimise(starts)
    assert set(report["status"]) == {"non-finite energy"}


def test_a_subclass_declares_filling_by_its_signature_or_fills_out():
    """energy_gradient(self, X, out) is called with out; fills_out = False overrides the
    signature; the built-in batched potential writes into out= and returns those arrays."""
    seen = []

    class Filling(landscape.BatchedPotential):
        def __init__(self, fills=None):
            super().__init__(39, "filling")
            if fills is not None:
                self.fills_out = fills

        def energy_gradient(self, x, out=None):
            seen.append(out is not None)
            energies, gradients = batched_lennard_jones(x)
            if out is None:
                return energies, gradients
            out[0][...], out[1][...] = energies, gradients

    starts = np.random.default_rng(8).uniform(0.0, 2.5, (3, 13, 3))
    for fills in (None, False):
        seen.clear()
        landscape.batched_minimiser_over(Filling(fills)).minimise(starts)
        assert set(seen) == {fills is None}
    builtin = landscape.batched_lennard_jones(13)
    energies, gradients = np.empty(3), np.empty((3, 13, 3))
    returned = builtin.energy_gradient(starts, out=(energies, gradients))
    assert returned[0] is energies and returned[1] is gradients
    expected = batched_lennard_jones(starts)
    np.testing.assert_allclose(energies, expected[0], rtol=1e-12)
    np.testing.assert_allclose(gradients, expected[1], rtol=1e-10, atol=1e-10)
    with pytest.raises(ValueError, match=r"out holds arrays of shapes \(2,\)"):
        builtin.energy_gradient(starts, out=(np.empty(2), gradients))
