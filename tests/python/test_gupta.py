"""Gupta metal clusters from Python (landscape.gupta, gupta_metal, gupta_metal_parameters,
batched_gupta): pele's Gupta13 energy, ASAP's energies and gradients (an independent code:
tests/data/clusters/gupta_asap.txt, written by tools/utilities/make_gupta_references.py), central
differences, and the module's algorithms on it: basin-hopping and walkers find the Gupta13 (platinum)
global minimum, the batched potential is the single one bit for bit."""
import numpy as np
import pytest

import landscape
from conftest import DATA, finite_difference_gradient

PELE_GUPTA13 = -64.91633912  # pele-python/pele pele/potentials/tests/test_gupta.py


def asap_cases():
    """The cases of gupta_asap.txt: (name, (p, q, a, xi, r0), energy, x (N, 3), g (N, 3))."""
    cases, rows = [], []
    for line in (DATA / "clusters/gupta_asap.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if fields[0] == "case":
            cases.append({"name": fields[1]})
        elif fields[0] == "params":
            cases[-1]["params"] = tuple(float(v) for v in fields[1:])
        elif fields[0] == "atoms":
            cases[-1]["atoms"] = int(fields[1])
        elif fields[0] == "energy":
            cases[-1]["energy"] = float(fields[1])
            cases[-1]["rows"] = rows = []
        else:
            rows.append([float(v) for v in fields])
    for c in cases:
        table = np.array(c["rows"])
        c["x"], c["g"] = table[:, :3], table[:, 3:]
    return cases


def gupta13():
    return np.loadtxt(DATA / "clusters/gupta13_x0.txt")


def test_gupta13_is_peles_energy_and_the_metal_is_the_numbers():
    x = gupta13()
    platinum = landscape.gupta_metal(13, "Pt")
    assert platinum.energy(x) == pytest.approx(PELE_GUPTA13, abs=1e-8)
    numbers = landscape.gupta(13, **landscape.gupta_metal_parameters("Pt"))
    e1, g1 = platinum.energy_gradient(x)
    e2, g2 = numbers.energy_gradient(x)
    assert e1 == e2 and np.array_equal(g1, g2)
    assert landscape.gupta_metal_parameters("Au") == {
        "p": 10.229, "q": 4.036, "a": 0.2061, "xi": 1.790, "r0": 1.0}
    with pytest.raises(ValueError, match="Rh"):
        landscape.gupta_metal(13, "Rh")
    with pytest.raises(ValueError, match="GuptaParams.q"):
        landscape.gupta(13, p=10.0, q=0.0, a=0.3, xi=2.7)


def test_energies_and_gradients_match_asap():
    for c in asap_cases():
        p, q, a, xi, r0 = c["params"]
        potential = landscape.gupta(c["atoms"], p, q, a, xi, r0)
        energy, gradient = potential.energy_gradient(c["x"])
        assert energy == pytest.approx(c["energy"], rel=1e-12), c["name"]
        scale = max(1.0, np.abs(c["g"]).max())
        assert np.abs(gradient - c["g"]).max() <= 1e-10 * scale, c["name"]


def test_gradient_matches_central_differences():
    rng = np.random.default_rng(4)
    x = gupta13() * 2.884 + 0.05 * rng.standard_normal((13, 3))  # gold in Angstrom
    potential = landscape.gupta_metal(13, "Au", r0=2.884)
    _, gradient = potential.energy_gradient(x)
    numerical = finite_difference_gradient(potential.energy, x, h=1e-5)
    error = np.abs(gradient.reshape(-1) - numerical.reshape(-1)).max()
    assert error <= 1e-6 * max(1.0, np.abs(gradient).max())


def test_basin_hopping_and_walkers_find_the_gupta13_minimum():
    params = landscape.BasinHoppingParams.gmin_lj38_example()
    params.steps, params.seed, params.target_energy = 300, 1, -64.9163
    result = landscape.basin_hopping(landscape.gupta_metal(13, "Pt"), params)
    assert result.target_reached
    assert result.lowest[0].energy == pytest.approx(PELE_GUPTA13, abs=1e-6)
    batched = landscape.batched_gupta(13, **landscape.gupta_metal_parameters("Pt"))
    single = landscape.gupta_metal(13, "Pt")
    starts = np.stack([gupta13() + 0.1 * np.random.default_rng(s).standard_normal((13, 3))
                       for s in range(4)])
    energies, gradients = batched.energy_gradient(starts)
    for b in range(len(starts)):
        e, g = single.energy_gradient(starts[b])
        assert energies[b] == e and np.array_equal(gradients[b], g)
    params.steps = 60
    walked = landscape.walkers(batched, params, walkers=4)
    assert walked.lowest[0].energy == pytest.approx(PELE_GUPTA13, abs=1e-6)
