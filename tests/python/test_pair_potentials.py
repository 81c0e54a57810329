"""Pair potentials from Python (landscape.PairModel, pair_potential, kob_andersen,
binary_lennard_jones, morse, pair_table): energies and gradients against the same systems written
in numpy (tests/python/numpy_potentials.py: minimum images, every cutoff convention, GMIN's
BLJCLUSTER smoothing in its own A0 + A2 r^2 form), Morse clusters against the Cambridge Cluster
Database (tests/data/clusters/morse_rho6.tsv), and every algorithm of the module on them: minimise
(a Kob-Andersen quench), basin-hopping, the batched engine and walkers, DNEB, transition-state
search, descent, connect, growth and characterisation, with species and boxes respected."""
import numpy as np
import pytest

import landscape
from conftest import DATA, finite_difference_gradient
from numpy_potentials import (KOB_ANDERSEN_EPSILON, KOB_ANDERSEN_SIGMA, morse, pair_system)


def ccd_morse_rho6():
    """N -> putative global-minimum energy of the CCD's Morse table at rho = 6."""
    table = {}
    for line in (DATA / "clusters/morse_rho6.tsv").read_text().splitlines():
        fields = line.split()
        if fields and fields[0].isdigit():
            table[int(fields[0])] = float(fields[1])
    return table


def lattice(atoms, edge, rng, noise=0.05, origin=0.0):
    """atoms on a simple cubic grid filling a cube of `edge`, displaced by Gaussian noise: no
    overlapping atoms, so that numbers compare without r^-12 blow-ups."""
    per_axis = int(np.ceil(atoms ** (1 / 3)))
    grid = np.stack(np.meshgrid(*[np.arange(per_axis)] * 3, indexing="ij"), -1).reshape(-1, 3)
    return origin + grid[:atoms] * (edge / per_axis) + noise * rng.standard_normal((atoms, 3))


def ka_density_box(atoms, density=1.2):
    return (atoms / density) ** (1 / 3)


def assert_matches_numpy(potential, x, reference, rtol=1e-10):
    energy, gradient = potential.energy_gradient(x)
    expected_energy, expected_gradient = reference(x)
    assert energy == pytest.approx(expected_energy, rel=rtol, abs=rtol)
    scale = np.abs(expected_gradient).max()
    assert np.abs(gradient - expected_gradient).max() <= rtol * scale


# ---- constructors ----


def test_kob_andersen_is_the_papers_mixture():
    edge = ka_density_box(256)
    ka = landscape.kob_andersen(256, edge)
    model = ka.pair_model
    assert isinstance(model, landscape.PairModel)
    assert ka.atoms == 256 and ka.backend == "cpu"
    assert model.law == "lennard-jones" and model.convention == "shifted" and model.periodic
    assert model.box == pytest.approx((edge,) * 3, rel=0, abs=0)
    assert model.species_names == ["A", "B"]
    assert np.array_equal(model.species, [0] * 205 + [1] * 51)  # round(0.8 N) A atoms first
    pairs = model.pairs
    assert set(pairs) == {("A", "A"), ("A", "B"), ("B", "B")}
    for (a, b), (eps, sig) in {("A", "A"): (1.0, 1.0), ("A", "B"): (1.5, 0.8),
                               ("B", "B"): (0.5, 0.88)}.items():
        p = pairs[(a, b)]
        assert (p.epsilon, p.sigma, p.cutoff) == pytest.approx((eps, sig, 2.5 * sig), rel=1e-15)
        assert model.pair(b, a) == p
    assert "205 A + 51 B" in repr(model) and "shifted" in ka.name
    assert landscape.lennard_jones(13).pair_model is None


def test_a_model_written_out_is_the_named_one_bit_for_bit():
    edge = ka_density_box(160)
    x = lattice(160, edge, np.random.default_rng(1))
    written = landscape.PairModel(
        species=["A"] * 128 + ["B"] * 32,
        pairs={("A", "A"): dict(epsilon=1.0, sigma=1.0, cutoff=2.5),
               ("B", "A"): landscape.PairParameters(epsilon=1.5, sigma=0.8, cutoff=2.0),
               ("B", "B"): {"epsilon": 0.5, "sigma": 0.88, "cutoff": 2.2}},
        law="lennard-jones", convention="shifted", box=edge)
    ours, named = landscape.pair_potential(written), landscape.kob_andersen(160, edge)
    e1, g1 = ours.energy_gradient(x)
    e2, g2 = named.energy_gradient(x)
    assert e1 == e2 and np.array_equal(g1, g2)
    # Species by 0-based index and named by species_names: the same model again.
    by_index = landscape.PairModel([0] * 128 + [1] * 32, written.pairs, convention="shifted",
                                   box=(edge, edge, edge), species_names=["A", "B"])
    assert landscape.pair_potential(by_index).energy(x) == e1


CASES = {
    # name: (potential maker, numpy reference, coordinates maker)
    "Kob-Andersen box, shifted": (
        lambda: landscape.kob_andersen(160, ka_density_box(160)),
        lambda x: pair_system(x, [0] * 128 + [1] * 32, KOB_ANDERSEN_EPSILON, KOB_ANDERSEN_SIGMA,
                              2.5 * KOB_ANDERSEN_SIGMA, (ka_density_box(160),) * 3, "shifted"),
        lambda rng: lattice(160, ka_density_box(160), rng, 0.1, origin=-3.0)),  # outside the box
    "binary LJ cluster, GMIN's BLJCLUSTER smoothing": (
        lambda: landscape.binary_lennard_jones(20, 12, 1.2, 0.8, 0.9, 1.1, cutoff=2.0),
        lambda x: pair_system(x, [0] * 12 + [1] * 8, [[1.0, 1.2], [1.2, 0.8]],
                              [[1.0, 0.9], [0.9, 1.1]], 2.0 * np.array([[1.0, 0.9], [0.9, 1.1]]),
                              None, "quadratic-smoothed"),
        lambda rng: lattice(20, 3.0, rng)),
    "Morse cluster, every pair": (
        lambda: landscape.morse(13, rho=6.0),
        lambda x: morse(x, 6.0),
        lambda rng: lattice(13, 2.6, rng)),
    "Morse box, force-shifted, rho 4": (
        lambda: landscape.morse(64, rho=4.0, cutoff=1.9, convention="force-shifted", box=4.0),
        lambda x: pair_system(x, [0] * 64, [[1.0]], [[1.0]], [[1.9]], (4.0,) * 3,
                              "force-shifted", law="morse", rho=4.0),
        lambda rng: lattice(64, 4.0, rng)),
    "Lennard-Jones slab (z open), truncated": (
        lambda: landscape.pair_potential(landscape.PairModel.lennard_jones(
            48, cutoff=2.2, convention="truncated", box=(4.5, 4.5, 0.0))),
        lambda x: pair_system(x, [0] * 48, [[1.0]], [[1.0]], [[2.2]], (4.5, 4.5, 0.0),
                              "truncated"),
        lambda rng: lattice(48, 4.5, rng)),
    "Morse in a box, quadratic-smoothed": (
        lambda: landscape.pair_potential(landscape.PairModel.morse(
            27, rho=6.0, cutoff=1.6, convention="quadratic-smoothed", box=3.3)),
        lambda x: pair_system(x, [0] * 27, [[1.0]], [[1.0]], [[1.6]], (3.3,) * 3,
                              "quadratic-smoothed", law="morse"),
        lambda rng: lattice(27, 3.3, rng)),
}


@pytest.mark.parametrize("case", CASES)
def test_energies_and_gradients_are_the_numpy_systems(case):
    make, reference, coordinates = CASES[case]
    potential = make()
    rng = np.random.default_rng(7)
    for _ in range(3):
        assert_matches_numpy(potential, coordinates(rng), reference)


def test_gradient_is_the_energys_derivative_in_a_box():
    ka = landscape.kob_andersen(160, ka_density_box(160))
    x = lattice(160, ka_density_box(160), np.random.default_rng(2), 0.1)
    _, g = ka.energy_gradient(x)
    some = list(range(0, 450, 37))
    fd = finite_difference_gradient(ka.energy, x, h=1e-6, indices=some)
    assert np.abs(fd.reshape(-1)[some] - g.reshape(-1)[some]).max() < 1e-6 * np.abs(g).max()


def test_every_periodic_image_has_the_same_energy():
    edge = ka_density_box(160)
    ka = landscape.kob_andersen(160, edge)
    rng = np.random.default_rng(3)
    x = lattice(160, edge, rng, 0.1)
    moved = x + edge * rng.integers(-3, 4, size=x.shape)  # each coordinate by whole edges
    assert ka.energy(moved) == pytest.approx(ka.energy(x), rel=1e-12)


def test_quadratic_smoothing_is_gmins_and_vanishes_with_its_slope_at_the_cutoff():
    # GMIN's BLJCLUSTER form (A0 + A2 r^2, in pair_system) on an A-B dimer, cut at 2.5 sigma_AB.
    potential = landscape.binary_lennard_jones(2, 1, 1.5, 0.5, 0.8, 0.88, cutoff=2.5)
    sigma = np.array([[1.0, 0.8], [0.8, 0.88]])
    rc = 2.5 * 0.8

    def dimer(r):
        return np.array([[0.0, 0.0, 0.0], [r, 0.0, 0.0]])

    for r in (0.8, 0.9, 1.3, rc - 1e-3):
        expected, _ = pair_system(dimer(r), [0, 1], [[1.0, 1.5], [1.5, 0.5]], sigma,
                                  2.5 * sigma, None, "quadratic-smoothed")
        assert potential.energy(dimer(r)) == pytest.approx(expected, rel=1e-12, abs=1e-15)
    h = 1e-5
    below = [potential.energy(dimer(rc - s)) for s in (h, 2 * h)]
    assert abs(below[0]) < 1e-9 and abs(below[1] - below[0]) < 1e-8  # V ~ h^2, V' ~ h
    assert potential.energy(dimer(rc + h)) == 0.0


# ---- tables ----


def lennard_jones_samples(start=0.8, end=2.5, pieces=1024):
    r = np.linspace(start, end, 2 * pieces + 1)
    return r, 4.0 * (r ** -12 - r ** -6)


def test_a_table_from_arrays_or_a_file_follows_the_law_it_samples(tmp_path):
    r, v = lennard_jones_samples()
    table = landscape.pair_table(r, v, source="LJ 1024 pieces")
    assert table.pieces == 1024 and table.start == 0.8 and table.end == pytest.approx(2.5)
    path = tmp_path / "lj.table"
    np.savetxt(path, np.column_stack([r, v]), fmt="%.17g", header="r V(r), reduced units")
    from_file = landscape.pair_table(path)
    probe = np.linspace(0.85, 2.45, 1001)
    value, slope = table(probe)
    assert np.array_equal(value, from_file(probe)[0])
    # docs/pair-potentials.md: 1024 pieces give |V error| < 1.4e-6 beyond r = 0.9.
    assert np.abs(value - 4.0 * (probe ** -12 - probe ** -6)).max() < 1.4e-6 * 10
    assert np.isnan(table(np.array([0.7]))[0][0])  # below the table: NaN, never a guess

    tabulated = landscape.pair_potential(landscape.PairModel(
        [0] * 13, {"table": table, "cutoff": 2.5}, law="tabulated", convention="shifted"))
    analytic = landscape.pair_potential(landscape.PairModel.lennard_jones(
        13, cutoff=2.5, convention="shifted"))
    icosahedron, _ = landscape.minimise(analytic, lattice(13, 2.2, np.random.default_rng(4), 0.1))
    assert tabulated.energy(icosahedron) == pytest.approx(analytic.energy(icosahedron), abs=1e-4)
    x, result = landscape.minimise(tabulated, icosahedron)
    assert result.converged and np.abs(x - icosahedron).max() < 1e-3


@pytest.mark.parametrize("r, values, message", [
    (np.linspace(1, 2, 4), np.zeros(4), "odd number of samples"),
    (np.array([1.0, 1.1, 1.25]), np.zeros(3), "evenly spaced"),
    (np.array([1.0, 0.9, 0.8]), np.zeros(3), "r must increase"),
    (np.linspace(1, 2, 5), np.array([0, 1, np.nan, 1, 0]), "not a finite number"),
])
def test_bad_table_samples_are_value_errors(r, values, message):
    with pytest.raises(ValueError, match=message):
        landscape.pair_table(r, values)


def test_an_unreadable_table_file_names_the_file(tmp_path):
    path = tmp_path / "broken.table"
    path.write_text("1.0 2.0\n1.1 x\n1.2 0.5\n")
    with pytest.raises(RuntimeError, match="broken.table:2"):
        landscape.pair_table(path)


# ---- invalid input ----

BAD_MODELS = [
    (dict(species=["A", "B"], pairs={("A", "A"): {}}), "no parameters for the species pair A-B"),
    (dict(species=[0, 0], pairs={"eps": 1.0}), "unknown parameter 'eps'"),
    (dict(species=[0, 0], pairs={"epsilon": -1.0}), "epsilon must be > 0, got -1"),
    (dict(species=[0, 0], pairs={"sigma": 1.0, "r0": 1.0}), "both sigma and r0"),
    (dict(species=[0, 0], pairs={"cutoff": 1.0}), "has a cutoff of 1 but the convention is 'none'"),
    (dict(species=[0, 0], pairs={}, convention="shifted"), "no parameters"),
    (dict(species=[0, 0], pairs={"sigma": 1.0}, convention="smooth"), "unknown cutoff convention"),
    (dict(species=[0, 0], pairs={"sigma": 1.0}, law="buckingham"), "unknown pair law"),
    (dict(species=[0, 0], pairs={"sigma": 1.0}, box=5.0), "a periodic box needs a cutoff"),
    (dict(species=[0, 0], pairs={"sigma": 1.0, "cutoff": 2.5}, convention="shifted", box=4.9),
     "exceeds half the box edge"),
    (dict(species=[0, 0], pairs={"sigma": 1.0}, box=(1.0, 2.0)), "box must be None"),
    (dict(species=["A", 1], pairs={}), "mixes names and indices"),
    (dict(species=["A", "B"], pairs={"sigma": 1.0}), "one set of parameters serves a single"),
    (dict(species=["A", "B"], pairs={("A", "C"): {}}), "no species is named 'C'"),
    (dict(species=["A"], pairs={"sigma": 1.0}), "needs at least 2 atoms"),
    (dict(species=[0, 0], pairs={"table": 0, "cutoff": 1.0}, law="tabulated",
          convention="shifted"), "refers to table 0 of 0"),
]


@pytest.mark.parametrize("arguments, message", BAD_MODELS)
def test_invalid_models_are_value_errors_with_a_sentence(arguments, message):
    with pytest.raises(ValueError, match=message):
        landscape.PairModel(**arguments)


def test_invalid_named_systems_are_value_errors():
    with pytest.raises(ValueError, match="exceeds half the box edge"):
        landscape.kob_andersen(108, ka_density_box(108, 0.9))  # 2.5 > 4.93 / 2
    with pytest.raises(ValueError, match="type_a"):
        landscape.binary_lennard_jones(10, 11, 1.5, 0.5, 0.8, 0.88)
    with pytest.raises(ValueError, match="atoms must be >= 2"):
        landscape.morse(1)
    with pytest.raises(ValueError, match="rho must be > 0"):
        landscape.morse(13, rho=-6.0)
    with pytest.raises(ValueError, match="backend"):
        landscape.morse(13, backend="tpu")


def test_cuda_is_asked_of_the_factories():
    if landscape.cuda.available():
        pytest.skip("a CUDA device is present: the factories decide")
    with pytest.raises(RuntimeError, match="cuda"):
        landscape.morse(13, backend="cuda")
    with pytest.raises(RuntimeError, match="cuda"):
        landscape.batched_pair_potential(landscape.PairModel.morse(13), backend="cuda")


# ---- algorithms ----


def test_basin_hopping_finds_the_ccd_morse_minima():
    ccd = ccd_morse_rho6()
    for atoms, seed in ((13, 2), (30, 2)):
        params = landscape.BasinHoppingParams.gmin_lj38_example()
        params.steps, params.seed, params.target_energy = 2000, seed, ccd[atoms] + 1e-4
        result = landscape.basin_hopping(landscape.morse(atoms, rho=6.0), params)
        assert result.target_reached, (atoms, [m.energy for m in result.lowest])
        assert result.lowest[0].energy == pytest.approx(ccd[atoms], abs=1e-5)


def test_kob_andersen_quench_reaches_a_minimum_of_the_numpy_mixture():
    atoms = 256
    edge = ka_density_box(atoms)
    ka = landscape.kob_andersen(atoms, edge)
    species = ka.pair_model.species
    start = np.random.default_rng(5).uniform(0.0, edge, (atoms, 3))  # an infinite-T liquid

    def reference(y):
        return pair_system(y, species, KOB_ANDERSEN_EPSILON, KOB_ANDERSEN_SIGMA,
                           2.5 * KOB_ANDERSEN_SIGMA, (edge,) * 3, "shifted")

    x, result = landscape.minimise(ka, start, landscape.LbfgsParams(rms_tolerance=1e-7,
                                                                    max_iterations=20000))
    assert result.converged
    energy, gradient = reference(x)
    assert result.energy == pytest.approx(energy, rel=1e-11)
    assert np.sqrt(np.mean(gradient ** 2)) < 2e-7  # stationary for the numpy mixture too
    # Inherent structures of this mixture at density 1.2 lie near -7.5 to -7.7 per atom (Sastry,
    # Debenedetti and Stillinger, Nature 393, 554 (1998)); a quench from random positions ends at
    # the top of that range.
    assert -7.8 < result.energy / atoms < -7.3


def test_batched_pair_potential_is_the_single_one_and_walkers_find_morse13():
    model = landscape.PairModel.morse(13, rho=6.0)
    single, batched = landscape.pair_potential(model), landscape.batched_pair_potential(model)
    assert batched.pair_model is model
    starts = np.stack([lattice(13, 2.4, np.random.default_rng(s), 0.2) for s in range(6)])
    energies, gradients = batched.energy_gradient(starts)
    for b in range(len(starts)):
        e, g = single.energy_gradient(starts[b])
        assert energies[b] == e and np.array_equal(gradients[b], g)
    minima, report = landscape.batched_minimiser_over(batched).minimise(starts)
    for b in range(len(starts)):  # the reference engine: each structure as minimise runs it
        x, r = landscape.minimise(single, starts[b])
        assert report["energy"][b] == r.energy and np.array_equal(minima[b], x)
    params = landscape.BasinHoppingParams.gmin_lj38_example()
    params.steps, params.seed = 40, 3
    result = landscape.walkers(batched, params, walkers=8)
    assert result.lowest[0].energy == pytest.approx(ccd_morse_rho6()[13], abs=1e-5)


def morse7_minima(potential):
    """The two lowest M7 minima (rho = 6) from random quenches."""
    found = {}
    rng = np.random.default_rng(0)
    params = landscape.LbfgsParams(rms_tolerance=1e-7, max_iterations=5000)
    while len(found) < 2:
        x, r = landscape.minimise(potential, rng.uniform(-1, 1, (7, 3)), params)
        for target in (-16.207580, -15.563790):
            if r.converged and abs(r.energy - target) < 1e-5:
                found[target] = x
    return found[-16.207580], found[-15.563790]


def test_paths_on_morse7_are_the_numpy_morses():
    builtin = landscape.morse(7, rho=6.0)
    own = landscape.FunctionPotential(morse, atoms=7, name="numpy Morse")
    a, b = morse7_minima(builtin)
    band, theirs = (landscape.dneb(p, a, b) for p in (builtin, own))
    np.testing.assert_allclose(band["energies"], theirs["energies"], atol=1e-8)
    top = band["candidates"][0]
    ts = landscape.find_transition_state(builtin, band["images"][top], band["tangents"][top])
    assert ts["eigenvalue"] < 0 and ts["rms_gradient"] < 1e-5
    assert np.sqrt(np.mean(morse(ts["coordinates"])[1] ** 2)) < 1e-5
    sides = landscape.descend(builtin, ts["coordinates"], ts["eigenvector"])
    ends = sorted(sides[s]["energy"] for s in ("plus", "minus"))
    assert ends[0] == pytest.approx(-16.207580, abs=1e-5) and ts["energy"] > ends[1]
    ours, numpy_network = (landscape.connect(p, a, b) for p in (builtin, own))
    assert ours.run["connected"] and numpy_network.run["connected"]
    np.testing.assert_allclose(np.sort(ours.ts_energy), np.sort(numpy_network.ts_energy),
                               atol=1e-8)
    grown = landscape.grow(builtin, ours, cycles=2)
    assert grown.run["cycles"] >= 1
    for t, (u, v) in enumerate(grown.ts_minima):
        assert grown.ts_energy[t] > max(grown.minima_energy[u], grown.minima_energy[v])


def test_alignment_never_maps_an_a_atom_onto_a_b_atom():
    # Species with equal parameters: the geometry cannot tell A from B, only the species can.
    same = dict(epsilon_ab=1.0, epsilon_bb=1.0, sigma_ab=1.0, sigma_bb=1.0)
    binary = landscape.binary_lennard_jones(7, 4, **same)
    start, _ = landscape.minimise(binary, lattice(7, 1.8, np.random.default_rng(6), 0.2))
    swapped = start.copy()
    swapped[[0, 6]] = start[[6, 0]]  # an A and a B atom exchanged: the same geometry
    one_species = landscape.lennard_jones(7)
    assert landscape.dneb(one_species, start, swapped)["endpoint_distance"] < 1e-6
    assert landscape.dneb(binary, start, swapped)["endpoint_distance"] > 0.5
    with pytest.raises(ValueError, match="same minimum"):
        landscape.connect(one_species, start, swapped)
    network = landscape.connect(binary, start, swapped)  # distinct minima of the mixture
    assert network.minima_count >= 2


def test_periodic_structures_are_compared_modulo_the_box():
    atoms, edge = 160, ka_density_box(160)
    ka = landscape.kob_andersen(atoms, edge)
    x, result = landscape.minimise(ka, lattice(atoms, edge, np.random.default_rng(8), 0.2))
    assert result.converged
    shifted = np.mod(x + np.array([0.7, -1.9, 3.1]), edge)  # translated and wrapped: the same
    assert np.abs(shifted - x).max() > 1.0
    with pytest.raises(ValueError, match="same minimum"):
        landscape.connect(ka, x, shifted)
    assert landscape.dneb(ka, x, shifted)["endpoint_distance"] < 1e-6


def test_characterisation_respects_species_and_refuses_boxes():
    same = dict(epsilon_ab=1.0, epsilon_bb=1.0, sigma_ab=1.0, sigma_bb=1.0)
    lj13 = landscape.lennard_jones(13)
    found = landscape.basin_hopping(lj13, landscape.BasinHoppingParams(steps=100, seed=1))
    icosahedron, tight = landscape.minimise(lj13, found.lowest[0].coordinates,
                                            landscape.LbfgsParams(rms_tolerance=1e-8))
    assert tight.energy == pytest.approx(-44.326801, abs=1e-6)  # the CCD's LJ13
    centre = int(np.argmin(np.linalg.norm(icosahedron - icosahedron.mean(0), axis=1)))
    surface = [i for i in range(13) if i != centre]
    x = icosahedron[surface + [centre]]          # centre last: the B atom of type_a = 12
    assert landscape.characterise(landscape.binary_lennard_jones(13, 12, **same),
                                  x)["point_group_order"] == 120
    y = icosahedron[[centre] + surface]          # a surface atom last: B breaks Ih to C5v
    assert landscape.characterise(lj13, y)["point_group_order"] == 120
    assert landscape.characterise(landscape.binary_lennard_jones(13, 12, **same),
                                  y)["point_group_order"] == 10


def test_characterisation_in_a_box_leaves_out_the_three_translations_only():
    atoms, edge = 32, ka_density_box(32)
    ka = landscape.kob_andersen(atoms, edge, cutoff=1.4)  # 1.4 below half of 2.99
    x, result = landscape.minimise(ka, lattice(atoms, edge, np.random.default_rng(4), 0.1),
                                   landscape.LbfgsParams(rms_tolerance=1e-9))
    assert result.converged
    c = landscape.characterise(ka, x)
    # An independent Hessian: central differences of the gradient in numpy, symmetrised.
    h, n = 1e-5, 3 * atoms
    hessian = np.empty((n, n))
    flat = x.ravel()
    for k in range(n):
        step = np.zeros(n)
        step[k] = h
        plus = ka.energy_gradient(flat + step)[1].ravel()
        minus = ka.energy_gradient(flat - step)[1].ravel()
        hessian[k] = (plus - minus) / (2 * h)
    eigenvalues = np.linalg.eigvalsh(0.5 * (hessian + hessian.T))
    assert np.all(np.abs(eigenvalues[:3]) < 1e-5)  # the translations
    assert eigenvalues[3] > 1e-3                    # rotations are no zero modes in a box
    assert c["log_product"] == pytest.approx(np.log(eigenvalues[3:]).sum(), abs=1e-5)
    assert c["point_group_order"] == 1


def test_basin_hopping_in_a_box_starts_and_reseeds_in_the_box_and_refuses_a_container():
    atoms, edge = 64, ka_density_box(64)
    ka = landscape.kob_andersen(atoms, edge, cutoff=1.8)  # 1.8 below half of 3.76
    start, quench = landscape.minimise(ka, lattice(atoms, edge, np.random.default_rng(9), 0.1))
    with pytest.raises(ValueError, match="container=False"):
        landscape.basin_hopping(ka, landscape.BasinHoppingParams(steps=3), start=start)
    reports = []
    stop = lambda report: reports.append(report) or report["quench"] >= 30  # noqa: E731
    result = landscape.basin_hopping(ka, start=start, on_quench=stop)  # gmin's, box-adapted
    assert result.lowest and result.lowest[0].energy <= quench.energy + 1e-6
    assert not any(r["rejected"] for r in reports)  # nothing evaporates from a container
    # No start, and reseeds every 5 steps without a lower minimum (NEWRESTART): both are drawn
    # uniform in the box with atoms 0.7 apart, so no quench starts from overlapping atoms (a
    # random cluster of 64 atoms would not fit in this box at its own density).
    params = landscape.BasinHoppingParams(steps=40, centre=False, container=False,
                                          new_restart_steps=5, seed=3)
    reseeded = landscape.basin_hopping(ka, params)
    assert reseeded.restarts > 0 and reseeded.failed_quenches == 0
    assert reseeded.lowest[0].energy < quench.energy  # below the quenched perturbed lattice
    for minimum in reseeded.lowest:  # every saved minimum: trials wrapped into the box
        assert np.all(minimum.coordinates > -1.0) and np.all(minimum.coordinates < edge + 1.0)
    batched = landscape.batched_pair_potential(ka.pair_model)
    params = landscape.BasinHoppingParams(steps=10, container=False, seed=1)
    walked = landscape.walkers(batched, params, walkers=4, start=start)
    assert walked.failed_quenches == 0 and walked.lowest[0].energy < quench.energy
    unstarted = landscape.walkers(batched, params, walkers=4)
    assert unstarted.failed_quenches == 0 and unstarted.lowest[0].energy < quench.energy
