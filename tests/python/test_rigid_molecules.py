"""Rigid molecules from Python (python/BindRigidMolecules.cpp; docs/water.md, docs/gay-berne.md):
rigid TIP4P water (kJ/mol, Angstrom) and Gay-Berne ellipsoids (reduced units) as potentials in
rigid coordinates, through the algorithms that take any Potential."""
import math
import subprocess

import numpy as np
import pytest

import landscape
from conftest import DATA, SOURCE_DIR, finite_difference_gradient, program


def wales_hodges_minima():
    """Putative TIP4P global minima (kJ/mol) by cluster size: Wales and Hodges, Chem. Phys. Lett.
    286, 65 (1998), as tests/data/clusters/tip4p_wales_hodges.tsv transcribes them (its header:
    a secondary source, unverified)."""
    rows = np.loadtxt(DATA / "clusters" / "tip4p_wales_hodges.tsv", comments="#")
    return {int(n): e for n, e in rows}


TIP4P_DIMER = wales_hodges_minima()[2]  # -26.08757
TIP4P_OCTAMER = wales_hodges_minima()[8]  # -305.52, the D2d cube
# GMIN's Coulomb constant (kJ/mol A / e^2; ASE's Hartree x Bohr is 1.96e-7 below it, docs/water.md).
GMIN_COULOMB = 1389.354848


def random_rotation_vector(rng):
    """An angle-axis vector of a random rotation (axis uniform, angle uniform in [0, pi))."""
    v = rng.normal(size=3)
    return v / np.linalg.norm(v) * rng.uniform(0.0, math.pi)


def random_water_cluster(n, rng):
    """Rigid coordinates of n molecules: centres placed one at a time, each 2.8 to 3.3 A from some
    centre and at least 2.8 A from all, orientations random."""
    centres = [np.zeros(3)]
    while len(centres) < n:
        v = rng.normal(size=3)
        trial = centres[rng.integers(len(centres))] + v / np.linalg.norm(v) * rng.uniform(2.8, 3.3)
        if min(np.linalg.norm(trial - c) for c in centres) >= 2.8:
            centres.append(trial)
    return np.vstack([np.array(centres), [random_rotation_vector(rng) for _ in range(n)]])


def hydrogen_bonded_dimer():
    """GMIN coordinates of a hydrogen-bonded dimer (the C++ test's start, WaterClusterTest): the
    acceptor 2.9 A from the donor's oxygen along one of its O-H bonds, turned and perturbed."""
    h = np.array([0.756950327, 0.0, -0.5858822760])
    u = h / np.linalg.norm(h)
    return np.array([[0.0, 0.0, 0.0], [2.9 * u[0], 0.3, 2.9 * u[2]],
                     [0.0, 0.0, 0.0], [0.3, math.asin(u[0]) + 0.2, -0.2]])


def test_tip4p_dimer_minimum_is_the_cambridge_cluster_databases():
    water = landscape.tip4p_cluster(2)
    q = landscape.tip4p_from_gmin(hydrogen_bonded_dimer())
    x, result = landscape.minimise(water, q, landscape.LbfgsParams(rms_tolerance=1e-7,
                                                                   max_iterations=10000))
    assert result.status == "converged"
    assert result.energy == pytest.approx(TIP4P_DIMER, abs=1e-4)
    # Jorgensen et al. 1983, Table II: O-O 2.75 A (rounded).
    sites = landscape.tip4p_sites(x)
    assert np.linalg.norm(sites[4] - sites[0]) == pytest.approx(2.75, abs=0.005)


def test_tip4p_energy_equals_ases_calculator_on_a_random_hexamer():
    ase = pytest.importorskip("ase")
    import ase.calculators.tip4p as tip4p_module
    from ase import units
    from ase.calculators.tip4p import TIP4P

    rng = np.random.default_rng(6)
    water = landscape.tip4p_cluster(6)
    q = random_water_cluster(6, rng)
    energy = water.energy(q)
    sites = landscape.tip4p_sites(q)
    assert water.to_atoms(q) == pytest.approx(sites, abs=1e-14)
    ohh = np.delete(sites, np.arange(3, 24, 4), axis=0)  # ASE places M itself
    kj_per_mol = units.kJ / units.mol

    def ase_energy(coulomb):
        saved = tip4p_module.k_c
        try:
            if coulomb is not None:
                tip4p_module.k_c = coulomb * kj_per_mol
            atoms = ase.Atoms("OH2" * 6, positions=ohh)
            atoms.calc = TIP4P(rc=1000.0, width=1.0)  # no effective cutoff, open box
            e = atoms.get_potential_energy() / kj_per_mol
            m_sites = atoms.calc.add_virtual_sites(atoms.positions)
        finally:
            tip4p_module.k_c = saved
        return e, m_sites

    e_gmin_k, ase_sites = ase_energy(GMIN_COULOMB)
    assert ase_sites == pytest.approx(sites, abs=1e-9)  # ASE's M is GMIN's body-frame M
    assert energy == pytest.approx(e_gmin_k, rel=1e-9)
    # ASE as shipped: its Coulomb constant is 1.96e-7 relative below GMIN's, so the energies
    # differ by that fraction of the Coulomb energy.
    e_ase, _ = ase_energy(None)
    coulomb = water.energy_components(q)["COULOMB"]
    k_ase = tip4p_module.k_c / kj_per_mol
    assert (energy - e_ase) == pytest.approx(coulomb * (1.0 - k_ase / GMIN_COULOMB), rel=1e-3)
    # ASE's symbols for the sites (X: its dummy element, the massless M).
    atoms = ase.Atoms(landscape.tip4p_symbols(6), positions=sites)
    assert atoms.get_chemical_formula(mode="all") == "OHHX" * 6


def test_tip4p_gradient_and_coordinate_conversions():
    rng = np.random.default_rng(3)
    water = landscape.tip4p_cluster(3)
    q = random_water_cluster(3, rng).ravel()
    _, g = water.energy_gradient(q)
    assert g == pytest.approx(finite_difference_gradient(water.energy, q, h=1e-6),
                              abs=1e-6 * np.abs(g).max())
    gmin = landscape.tip4p_to_gmin(q)
    assert gmin.shape == (6, 3)
    assert landscape.tip4p_sites_from_gmin(gmin) == pytest.approx(landscape.tip4p_sites(q),
                                                                   abs=1e-12)
    assert landscape.tip4p_from_gmin(gmin).ravel() == pytest.approx(q, abs=1e-12)
    assert landscape.tip4p_from_sites(landscape.tip4p_sites(q)).ravel() == pytest.approx(q,
                                                                                         abs=1e-12)
    # GMIN's oxygens are site 0 of every molecule.
    assert gmin[:3] == pytest.approx(landscape.tip4p_sites(q)[::4], abs=1e-12)


def test_gmin_example_coordinates_as_ase_sees_them():
    """GMIN's own TIP4P input (tests/data/water/gmin-tip4p) placed by GMIN's convention has the
    energy ASE's TIP4P gives it (tests/data/water/tip4p_ase.txt, Coulomb constant GMIN's)."""
    lines = (DATA / "water" / "tip4p_ase.txt").read_text().splitlines()
    header = next(line for line in lines if line.startswith("structure gmin_example"))
    reference = float(header.split()[3])
    gmin = np.loadtxt(DATA / "water" / "gmin-tip4p" / "coords")
    water = landscape.tip4p_cluster(8)
    assert water.energy(landscape.tip4p_from_gmin(gmin)) == pytest.approx(reference, rel=1e-9)


def test_basin_hopping_finds_the_octamer_d2d_cube():
    water = landscape.tip4p_cluster(8)
    params = landscape.BasinHoppingParams.gmin_water()
    params.steps = 300
    params.seed = 1
    params.target_energy = TIP4P_OCTAMER + 0.01
    result = landscape.basin_hopping(water, params)
    assert result.target_reached
    assert result.lowest[0].energy == pytest.approx(TIP4P_OCTAMER, abs=0.01)
    # A cube: every oxygen has three others at hydrogen-bond distance (2.6 to 3.0 A).
    oxygens = landscape.tip4p_sites(result.lowest[0].coordinates)[::4]
    d = np.linalg.norm(oxygens[:, None] - oxygens[None], axis=-1)
    assert ((d > 2.5) & (d < 3.0)).sum(axis=1).tolist() == [3] * 8


def test_water_with_ions_matches_ase_and_finds_the_sodium_tetrahydrate():
    """Na+ and Cl- among TIP4P molecules: the energy of tests/data/water/tip4p_ions_ase.txt's
    Na+Cl-(H2O)8 (ASE, Coulomb constant GMIN's), finite differences of the rigid gradient (the
    ions' Cartesians last), and basin-hopping's Na+(H2O)4: four molecules at 2.381 A from the
    ion, -310.12006 kJ/mol (as gmin finds it, tests/WaterCliTest.cpp)."""
    lines = (DATA / "water" / "tip4p_ions_ase.txt").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("structure nacl_h2o_8"))
    reference = float(lines[start].split()[4])
    rows = [line.split() for line in lines[start + 1:start + 1 + 34]]
    sites = np.array([[float(v) for v in row[1:]] for row in rows])
    assert [row[0] for row in rows[32:]] == ["Na", "Cl"]
    water = landscape.tip4p_cluster(8, ions="Na+,Cl-")
    assert landscape.tip4p_symbols(8, "Na+,Cl-")[-3:] == ["X", "Na", "Cl"]
    assert water.dimension == 6 * 8 + 3 * 2
    q = landscape.tip4p_from_sites(sites, ions="Na+,Cl-").ravel()
    assert q[-6:] == pytest.approx(sites[32:].ravel(), abs=0)  # the ions' rows unchanged
    gmin = landscape.tip4p_to_gmin(q, ions="Na+,Cl-")
    assert gmin.shape == (18, 3)
    assert landscape.tip4p_from_gmin(gmin, ions="Na+,Cl-").ravel() == pytest.approx(q, abs=1e-9)
    assert landscape.tip4p_sites_from_gmin(gmin, "Na+,Cl-") == pytest.approx(
        landscape.tip4p_sites(q, "Na+,Cl-"), abs=1e-9)
    with pytest.raises(ValueError, match="then one row per ion"):
        landscape.tip4p_sites(q[:-3], ions="Na+,Cl-")
    # The molecules refitted to our body frame (its coordinates rounded to 1e-9 A, ASE's from rOH
    # and HOH): agreement to 1e-7 relative, as WaterIons.EnergiesMatchAse asks of the rigid path.
    assert water.energy(q) == pytest.approx(reference, rel=1e-7)
    assert water.to_atoms(q).ravel() == pytest.approx(sites.ravel(), abs=1e-8)
    _, g = water.energy_gradient(q)
    assert g == pytest.approx(finite_difference_gradient(water.energy, q, h=1e-6),
                              abs=1e-6 * np.abs(g).max())
    with pytest.raises(ValueError, match="known: Na"):
        landscape.tip4p_cluster(4, ions="K+")

    hydrate = landscape.tip4p_cluster(4, ions="Na+")
    params = landscape.BasinHoppingParams.gmin_water()
    # 19 of seeds 1-20 reach it within 300 steps; seed 2 within 400.
    params.steps = 600
    params.seed = 2
    result = landscape.basin_hopping(hydrate, params)
    assert result.lowest[0].energy == pytest.approx(-310.12006, abs=1e-4)
    x = hydrate.to_atoms(result.lowest[0].coordinates).reshape(-1, 3)
    assert np.linalg.norm(x[:16:4] - x[16], axis=1) == pytest.approx([2.3807] * 4, abs=1e-3)


def test_basin_hopping_rigid_moves_are_checked():
    water = landscape.tip4p_cluster(2)
    with pytest.raises(ValueError, match="rotation"):
        landscape.basin_hopping(water, landscape.BasinHoppingParams(steps=1), rigid_rotation=4.0)
    with pytest.raises(ValueError, match="has none"):
        landscape.basin_hopping(landscape.lennard_jones(4), landscape.BasinHoppingParams(steps=1),
                                rigid_rotation=0.5)


def test_the_example_inputs_run_as_their_headers_say(tmp_path):
    """inputs/tip4p8.data + tip4p8.coords reach the octamer's D2d cube; inputs/tip4p20.cfg and
    tip4p21.cfg read (their cuda backend replaced by the CPU's, a few steps); inputs/tip4p-nacl8.cfg
    reaches its target."""
    gmin = program("gmin")
    inputs = SOURCE_DIR / "inputs"
    run = subprocess.run([str(gmin), "--gmin-data", str(inputs / "tip4p8.data"), "--coords",
                          str(inputs / "tip4p8.coords"), "--steps", "50", "--output",
                          str(tmp_path / "w8")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lowest = float(run.stdout.split("lowest energy:")[1].split()[0])
    assert lowest == pytest.approx(TIP4P_OCTAMER, abs=0.01)
    run = subprocess.run([str(gmin), "--config", str(inputs / "tip4p20.cfg"), "--backend", "cpu",
                          "--steps", "3", "--output", str(tmp_path / "w20")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "target -872.990000 not reached" in run.stdout
    symbols = (tmp_path / "w20" / "lowest").read_text().split("\n")[2:82]
    assert [line.split()[0] for line in symbols] == ["O", "H", "H", "X"] * 20
    # inputs/tip4p21.cfg (tempered walkers on cuda) reads: 4 CPU replicas, 2 steps.
    run = subprocess.run([str(gmin), "--config", str(inputs / "tip4p21.cfg"), "--backend", "cpu",
                          "--walkers", "4", "--steps", "2", "--output", str(tmp_path / "w21")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "target -916.700000 not reached" in run.stdout
    symbols = (tmp_path / "w21" / "lowest").read_text().split("\n")[2:86]
    assert [line.split()[0] for line in symbols] == ["O", "H", "H", "X"] * 21
    # inputs/tip4p-nacl8.cfg: Na+ Cl- (H2O)8 on the CPU, stopped at its target.
    run = subprocess.run([str(gmin), "--config", str(inputs / "tip4p-nacl8.cfg"), "--output",
                          str(tmp_path / "nacl8")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "target reached" in run.stdout
    symbols = (tmp_path / "nacl8" / "lowest").read_text().split("\n")[2:36]
    assert [line.split()[0] for line in symbols] == ["O", "H", "H", "X"] * 8 + ["Na", "Cl"]


def gay_berne_side_by_side_depth(eps0, kappa, nu):
    """docs/gay-berne.md: the side-by-side well depth eps0 (1 - chi^2)^(-nu/2), chi = (kappa^2 -
    1) / (kappa^2 + 1) (Gay and Berne 1981), reached at r = 2^(1/6) sigma0."""
    chi = (kappa**2 - 1.0) / (kappa**2 + 1.0)
    return eps0 * (1.0 - chi**2) ** (-nu / 2.0)


@pytest.mark.parametrize("params", [
    dict(),
    dict(sigma0=1.7, eps0=0.6, kappa=4.4, kappa_prime=20.0, mu=1.0, nu=3.0),
])
def test_gay_berne_side_by_side_dimer_minimum_is_the_closed_form(params):
    sigma0, eps0 = params.get("sigma0", 1.0), params.get("eps0", 1.0)
    kappa, nu = params.get("kappa", 3.0), params.get("nu", 1.0)
    dimer = landscape.gay_berne_cluster(2, **params)
    # Side by side (axes along x, separated along z), perturbed in distance and orientation.
    centres = np.array([[0.0, 0.0, 0.0], [0.05, -0.03, 1.2 * sigma0]])
    axes = np.array([[1.0, 0.05, 0.0], [1.0, -0.04, 0.06]])
    q = landscape.gay_berne_coordinates(centres, axes)
    x, result = landscape.minimise(dimer, q, landscape.LbfgsParams(rms_tolerance=1e-10,
                                                                   max_iterations=20000))
    assert result.status == "converged"
    assert result.energy == pytest.approx(-gay_berne_side_by_side_depth(eps0, kappa, nu),
                                          rel=1e-8)
    c, u = landscape.gay_berne_centres_axes(dimer.to_atoms(x))
    r = c[1] - c[0]
    assert np.linalg.norm(r) == pytest.approx(2 ** (1 / 6) * sigma0, rel=1e-6)
    assert abs(u[0] @ u[1]) == pytest.approx(1.0, abs=1e-6)
    assert u[0] @ r == pytest.approx(0.0, abs=1e-5)


def test_gay_berne_basin_hopping_from_the_lattice_finds_the_scaled_hexagon():
    """Seven ellipsoids side by side in one layer: 5/3 eps0 times the planar Lennard-Jones hexagon
    of their centres (docs/gay-berne.md), computed here with the Lennard-Jones potential."""
    angles = np.arange(6) * np.pi / 3
    hexagon = np.vstack([[0.0, 0.0, 0.0],
                         np.column_stack([1.12 * np.cos(angles), 1.12 * np.sin(angles),
                                          np.zeros(6)])])
    _, planar = landscape.minimise(landscape.lennard_jones(7), hexagon.ravel(),
                                   landscape.LbfgsParams(rms_tolerance=1e-10))
    result = landscape.basin_hopping(landscape.gay_berne_cluster(7))
    assert result.lowest[0].energy == pytest.approx(5.0 / 3.0 * planar.energy, abs=1e-7)


def test_gay_berne_marker_conversions_and_gradient():
    rng = np.random.default_rng(5)
    centres = np.array([[0.0, 0.0, 0.0], [1.3, 0.2, 0.1], [0.1, 1.4, -0.2]])
    axes = rng.normal(size=(3, 3))
    gb = landscape.gay_berne_cluster(3)
    q = landscape.gay_berne_coordinates(centres, axes)
    markers = landscape.gay_berne_markers(centres, axes)
    assert gb.to_atoms(q) == pytest.approx(markers, abs=1e-12)
    c, u = landscape.gay_berne_centres_axes(markers)
    assert c == pytest.approx(centres, abs=1e-12)
    assert u == pytest.approx(axes / np.linalg.norm(axes, axis=1)[:, None], abs=1e-12)
    flat = q.ravel()
    _, g = gb.energy_gradient(flat)
    assert g == pytest.approx(finite_difference_gradient(gb.energy, flat, h=1e-6),
                              abs=1e-6 * np.abs(g).max())


def test_bad_arguments_raise_value_errors():
    with pytest.raises(ValueError, match="at least 2 molecules"):
        landscape.tip4p_cluster(1)
    with pytest.raises(ValueError, match="at least 2 ellipsoids"):
        landscape.gay_berne_cluster(-3)
    with pytest.raises(ValueError, match="kappa"):
        landscape.gay_berne_cluster(2, kappa=-1.0)
    with pytest.raises(ValueError, match="eps0"):
        landscape.gay_berne_cluster(2, eps0=-0.5)
    with pytest.raises(ValueError, match="tpu"):
        landscape.gay_berne_cluster(2, backend="tpu")
    with pytest.raises(ValueError, match="GMIN's layout"):
        landscape.tip4p_from_gmin(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="axes"):
        landscape.gay_berne_coordinates(np.zeros((2, 3)), np.zeros((3, 3)))
    with pytest.raises(ValueError):
        landscape.tip4p_symbols(0)


@pytest.mark.skipif(not landscape.cuda.available(),
                    reason="no CUDA device (landscape.cuda.description() says why)")
def test_gay_berne_on_the_device_equals_the_cpu():
    rng = np.random.default_rng(9)
    centres = np.array([[0.0, 0.0, 0.0], [1.3, 0.2, 0.1], [0.1, 1.4, -0.2], [1.2, 1.3, 0.3]])
    axes = np.array([[0.0, 0.1, 1.0], [0.1, 0.0, 1.0], [0.0, -0.1, 1.0], [0.05, 0.05, 1.0]])
    q = (landscape.gay_berne_coordinates(centres, axes)
         + 0.02 * rng.normal(size=(8, 3))).ravel()
    cpu = landscape.gay_berne_cluster(4)
    gpu = landscape.gay_berne_cluster(4, backend="cuda")
    e_cpu, g_cpu = cpu.energy_gradient(q)
    e_gpu, g_gpu = gpu.energy_gradient(q)
    assert e_cpu < 0.0
    assert e_gpu == pytest.approx(e_cpu, rel=1e-10)
    assert g_gpu == pytest.approx(g_cpu, abs=1e-10 * np.abs(g_cpu).max())


@pytest.mark.skipif(not landscape.cuda.available(),
                    reason="no CUDA device (landscape.cuda.description() says why)")
def test_tip4p_on_the_device_equals_the_cpu():
    rng = np.random.default_rng(8)
    q = random_water_cluster(8, rng).ravel()
    cpu = landscape.tip4p_cluster(8)
    gpu = landscape.tip4p_cluster(8, backend="cuda")
    e_cpu, g_cpu = cpu.energy_gradient(q)
    e_gpu, g_gpu = gpu.energy_gradient(q)
    assert e_gpu == pytest.approx(e_cpu, rel=1e-10)
    assert g_gpu == pytest.approx(g_cpu, abs=1e-10 * np.abs(g_cpu).max())
    for lbfgs_backend in ("cpu", "gpu"):
        x, result = landscape.minimise(gpu, q, landscape.LbfgsParams(max_iterations=5000),
                                       lbfgs_backend=lbfgs_backend)
        assert result.status == "converged"
        assert cpu.energy(x) == pytest.approx(result.energy, rel=1e-10)


def test_ssd_water_dimer_gradient_and_drawing():
    """SSD water (docs/water.md): the dimer's global minimum, -7.636642 kcal/mol with the centres
    2.754521 A apart (tools/utilities/make_ssd_references.py dimer, a numpy evaluation written
    apart from the C++), the rigid gradient against differences, and the drawn O-H bonds."""
    dimer = landscape.ssd_water_cluster(2)
    params = landscape.BasinHoppingParams.gmin_water()
    params.temperature = 1.0  # kcal/mol, as gmin --water ssd
    params.steps = 40
    params.seed = 2
    result = landscape.basin_hopping(dimer, params)
    lowest = result.lowest[0]
    assert lowest.energy == pytest.approx(-7.636642, abs=1e-5)
    q = np.asarray(lowest.coordinates).reshape(-1, 3)
    assert np.linalg.norm(q[1] - q[0]) == pytest.approx(2.754521, abs=1e-4)
    atoms = landscape.ssd_water_atoms(q)
    assert atoms.shape == (6, 3)
    for o, h in [(0, 1), (0, 2), (3, 4), (3, 5)]:
        assert np.linalg.norm(atoms[h] - atoms[o]) == pytest.approx(0.9572, abs=1e-9)
    trimer = landscape.ssd_water_cluster(3)
    rng = np.random.default_rng(4)
    flat = np.concatenate([[0, 0, 0, 2.8, 0.2, 0, 0.3, 2.9, 0.4], rng.normal(size=9)])
    _, g = trimer.energy_gradient(flat)
    assert g == pytest.approx(finite_difference_gradient(trimer.energy, flat, h=1e-6),
                              abs=1e-6 * np.abs(g).max())
