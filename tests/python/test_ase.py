"""landscape.ase.Calculator: ASE's optimisers and dynamics on our potentials, checked against
ASE's own Lennard-Jones calculator (an independent implementation) and our minimiser."""
import numpy as np
import pytest

# tools/setup.sh installs ASE; elsewhere (a GPU machine's Python) these tests skip with the reason.
pytest.importorskip("ase", reason="ASE is not installed (pip install ase)")
from ase import Atoms, units  # noqa: E402
from ase.calculators.lj import LennardJones as AseLennardJones  # noqa: E402
from ase.md.verlet import VelocityVerlet  # noqa: E402
from ase.optimize import BFGS  # noqa: E402

import landscape
from conftest import DATA, LJ38_GLOBAL_MINIMUM
from landscape.ase import KCAL_PER_MOL_IN_EV, Calculator

ARGON_EPSILON, ARGON_SIGMA = 0.0104, 3.40  # eV, Angstrom


def test_lj_matches_ase_own_lennard_jones(lj38_minimum):
    rng = np.random.default_rng(5)
    positions = (lj38_minimum + 0.05 * rng.standard_normal((38, 3))) * ARGON_SIGMA
    ours = Atoms("Ar38", positions=positions)
    ours.calc = Calculator.lennard_jones(38, epsilon=ARGON_EPSILON, sigma=ARGON_SIGMA)
    theirs = Atoms("Ar38", positions=positions)
    # No cutoff in ours; ASE's with rc far beyond the cluster, whose energies are shifted by
    # e0 = 4 eps ((sigma/rc)^12 - (sigma/rc)^6) per pair inside rc (all 703 pairs here).
    rc = 100.0
    theirs.calc = AseLennardJones(epsilon=ARGON_EPSILON, sigma=ARGON_SIGMA, rc=rc)
    e0 = 4 * ARGON_EPSILON * ((ARGON_SIGMA / rc) ** 12 - (ARGON_SIGMA / rc) ** 6)
    expected = theirs.get_potential_energy() + 38 * 37 // 2 * e0
    assert ours.get_potential_energy() == pytest.approx(expected, rel=1e-12)
    assert np.allclose(ours.get_forces(), theirs.get_forces(), rtol=1e-8, atol=1e-12)


def test_ase_bfgs_finds_the_lj38_global_minimum_in_reduced_units(lj38_minimum):
    rng = np.random.default_rng(6)
    atoms = Atoms("X38", positions=lj38_minimum + 0.03 * rng.standard_normal((38, 3)))
    atoms.calc = Calculator(landscape.lennard_jones(38))  # epsilon = 1 eV, sigma = 1 A
    assert BFGS(atoms, logfile=None).run(fmax=1e-5, steps=1000)
    assert atoms.get_potential_energy() == pytest.approx(LJ38_GLOBAL_MINIMUM, abs=1e-6)


def test_ase_verlet_dynamics_conserves_energy_on_amber(trpcage):
    prmtop, _ = trpcage
    x = np.loadtxt(DATA / "gb/trpcage/minimum_igb2.txt")
    atoms = Atoms(landscape.amber_elements(prmtop), positions=x)
    atoms.calc = Calculator.amber_gb(prmtop)
    rng = np.random.default_rng(7)
    atoms.set_momenta(rng.standard_normal((304, 3)) * np.sqrt(atoms.get_masses()[:, None]
                                                               * units.kB * 50.0))
    start = atoms.get_total_energy()
    VelocityVerlet(atoms, timestep=0.5 * units.fs).run(20)
    # 0.5 fs steps from a 50 K start: total energy drifts far less than the kinetic energy.
    assert abs(atoms.get_total_energy() - start) < 0.02 * atoms.get_kinetic_energy()


@pytest.mark.slow
def test_ase_bfgs_on_trpcage_agrees_with_our_minimiser(trpcage):
    """ASE's BFGS and our L-BFGS from the same start (the stored minimum displaced by 0.01 A
    Gaussian noise) reach the same minimum. ASE stops at fmax = 0.005 eV/A (0.115 kcal/mol/A on
    the largest atom), ours at an RMS gradient of 1e-5 kcal/mol/A, so ASE's energy lies above
    ours by about g^T H^-1 g / 2; over 304 atoms with soft torsions that is ~1e-2 kcal/mol, hence
    the tolerance 0.03 kcal/mol (and ASE must not end below the tighter minimum)."""
    prmtop, _ = trpcage
    minimum = np.loadtxt(DATA / "gb/trpcage/minimum_igb2.txt")
    start = minimum + 0.01 * np.random.default_rng(1).standard_normal(minimum.shape)
    potential = landscape.amber_gb(prmtop)
    ours, result = landscape.minimise(potential, start,
                                      landscape.LbfgsParams(max_iterations=20000))
    assert result.converged
    atoms = Atoms(landscape.amber_elements(prmtop), positions=start)
    atoms.calc = Calculator.amber_gb(prmtop)
    assert BFGS(atoms, logfile=None).run(fmax=0.005, steps=500)
    ase_energy = atoms.get_potential_energy() / KCAL_PER_MOL_IN_EV
    assert -1e-6 < ase_energy - result.energy < 0.03
    assert np.abs(atoms.positions - ours).max() < 0.1


def test_periodic_atoms_are_refused_not_silently_wrong(lj38_minimum):
    # ASE's own LennardJones with pbc in a 4 sigma box differs from the cluster's energy; ours has
    # no box, so it must refuse such atoms with a sentence rather than return the cluster's energy.
    atoms = Atoms("Ar38", positions=lj38_minimum, cell=[4.0, 4.0, 4.0], pbc=True)
    atoms.calc = Calculator.lennard_jones(38)
    with pytest.raises(ValueError, match="periodic boundaries"):
        atoms.get_potential_energy()
    atoms.pbc = False
    assert atoms.get_potential_energy() == pytest.approx(LJ38_GLOBAL_MINIMUM, abs=1e-6)


# ---- periodic cells and pair potentials ----
#
# ASE 3.29's LennardJones (ase/calculators/lj.py, smooth=False): every pair within rc of any
# periodic image (a neighbour list of rc/2 spheres), its energy shifted by e0 = 4 eps ((sigma/rc)^12
# - (sigma/rc)^6) so that it is zero at rc, its force 24 eps (2 (sigma/r)^12 - (sigma/r)^6) / r
# truncated at rc (not shifted). That is our 'shifted' convention; with rc at most half the box
# ASE's images are the minimum images.


def fcc_box(cells, density, rng, noise=0.1, **atoms_options):
    """4 cells^3 atoms on an fcc lattice at the density, displaced by Gaussian noise, periodic."""
    from ase.lattice.cubic import FaceCenteredCubic

    edge = (4 * cells ** 3 / density) ** (1 / 3)
    atoms = FaceCenteredCubic("Ar", size=(cells,) * 3, latticeconstant=edge / cells, pbc=True,
                              **atoms_options)
    atoms.positions += noise * rng.standard_normal(atoms.positions.shape)
    return atoms, edge


@pytest.mark.parametrize("cells, rc, epsilon, sigma", [
    (3, 2.4, 1.0, 1.0),          # 108 atoms at density 0.9: 2.4 is below half the edge 4.932
    (4, 2.5, 1.0, 1.0),          # 256 atoms at density 0.9 (edge 6.577): ASE's usual rc
    (4, 2.5, ARGON_EPSILON, ARGON_SIGMA),  # the same in eV and Angstrom
])
def test_periodic_lennard_jones_matches_ase_own_under_the_minimum_image(cells, rc, epsilon, sigma):
    atoms, edge = fcc_box(cells, 0.9, np.random.default_rng(cells))
    atoms.set_cell(atoms.cell[:] * sigma, scale_atoms=True)
    theirs = atoms.copy()
    theirs.calc = AseLennardJones(epsilon=epsilon, sigma=sigma, rc=rc * sigma)
    model = landscape.PairModel.lennard_jones(len(atoms), cutoff=rc, convention="shifted", box=edge)
    atoms.calc = Calculator.pair(model, epsilon=epsilon, sigma=sigma)
    energy, expected = atoms.get_potential_energy(), theirs.get_potential_energy()
    assert energy == pytest.approx(expected, rel=1e-10)
    forces, expected_forces = atoms.get_forces(), theirs.get_forces()
    assert np.abs(forces - expected_forces).max() <= 1e-10 * np.abs(expected_forces).max()
    # Atoms moved by whole cell vectors are the same periodic system.
    atoms.positions += atoms.cell[:].T @ np.array([1, -2, 3])
    assert atoms.get_potential_energy() == pytest.approx(expected, rel=1e-12)


def test_the_108_atom_box_at_density_0_9_is_too_small_for_rc_2_5():
    # Its edge 4.932 is below 2 x 2.5: ASE would count a pair at two images, and our minimum image
    # would miss one, so the model is refused rather than silently different.
    _, edge = fcc_box(3, 0.9, np.random.default_rng(0))
    with pytest.raises(ValueError, match="exceeds half the box edge"):
        landscape.PairModel.lennard_jones(108, cutoff=2.5, convention="shifted", box=edge)


def test_morse_matches_ase_morse_potential():
    from ase.calculators.morse import MorsePotential
    from ase.cluster import Icosahedron

    # ASE's Morse (ase/calculators/morse.py): eps e^{rho0(1 - r/r0)} (e^{rho0(1 - r/r0)} - 2),
    # GMIN's with rho = rho0, times a smooth cutoff from rcut1 r0 to rcut2 r0; at 100 r0 it is 1
    # for every pair of the cluster.
    atoms = Icosahedron("Cu", 2, latticeconstant=np.sqrt(2.0))  # nearest neighbours ~1 apart
    atoms.positions += 0.05 * np.random.default_rng(2).standard_normal((13, 3))
    theirs = atoms.copy()
    theirs.calc = MorsePotential(epsilon=1.0, rho0=6.0, r0=1.0, rcut1=100.0, rcut2=101.0)
    atoms.calc = Calculator(landscape.morse(13, rho=6.0))  # reduced units: eV and Angstrom
    assert atoms.get_potential_energy() == pytest.approx(theirs.get_potential_energy(), rel=1e-12)
    assert np.abs(atoms.get_forces() - theirs.get_forces()).max() <= \
        1e-12 * np.abs(theirs.get_forces()).max()


def test_cells_that_are_not_the_potentials_box_are_refused():
    from ase.calculators.calculator import PropertyNotImplementedError

    atoms, edge = fcc_box(4, 0.9, np.random.default_rng(1))
    model = landscape.PairModel.lennard_jones(256, cutoff=2.5, convention="shifted", box=edge)
    atoms.calc = Calculator.pair(model)
    atoms.get_potential_energy()
    with pytest.raises(PropertyNotImplementedError):
        atoms.get_stress()  # no virial: stress is not implemented
    cases = {
        "a larger cell": dict(cell=np.eye(3) * edge * 1.01, pbc=True),
        "a non-orthorhombic cell": dict(cell=[[edge, 0, 0], [0.5, edge, 0], [0, 0, edge]],
                                        pbc=True),
        "an open axis the box has": dict(cell=np.eye(3) * edge, pbc=[True, True, False]),
        "open atoms": dict(cell=np.eye(3) * edge, pbc=False),
    }
    for case, cell in cases.items():
        other = atoms.copy()
        other.set_cell(cell["cell"], scale_atoms=False)
        other.pbc = cell["pbc"]
        other.calc = Calculator.pair(model)
        with pytest.raises(ValueError, match="orthorhombic|box"):
            other.get_potential_energy()
    # A slab, periodic in x and y only as its box: ASE's own Lennard-Jones on the same atoms.
    slab = landscape.PairModel.lennard_jones(256, cutoff=2.5, convention="shifted",
                                             box=(edge, edge, 0.0))
    open_z = atoms.copy()
    open_z.pbc = [True, True, False]
    theirs = open_z.copy()
    theirs.calc = AseLennardJones(rc=2.5)
    open_z.calc = Calculator.pair(slab)
    assert open_z.get_potential_energy() == pytest.approx(theirs.get_potential_energy(), rel=1e-10)
    assert open_z.get_potential_energy() != pytest.approx(atoms.get_potential_energy(), rel=1e-3)
    # A potential without a box refuses periodic atoms, a cell matching nothing.
    cluster = atoms.copy()
    cluster.calc = Calculator(landscape.morse(256))
    with pytest.raises(ValueError, match="has no box"):
        cluster.get_potential_energy()
