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
