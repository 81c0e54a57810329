"""Basin-hopping through the bindings, with the per-quench Python callback."""
import numpy as np
import pytest

import landscape
from conftest import DATA

LJ13_GLOBAL_MINIMUM = -44.326801  # icosahedron (Cambridge Cluster Database; README.md)


def test_lj13_finds_the_icosahedron_and_reports_every_quench():
    reports = []
    params = landscape.BasinHoppingParams(steps=300, seed=7, temperature=0.8)
    result = landscape.basin_hopping(landscape.lennard_jones(13), params,
                                     on_quench=reports.append)
    assert result.lowest[0].energy == pytest.approx(LJ13_GLOBAL_MINIMUM, abs=1e-6)
    assert result.quenches == 300 and not result.stopped_early
    assert [r["quench"] for r in reports] == list(range(0, 301))
    # An accepted quench becomes the Markov state; a rejected step leaves the state unchanged.
    for before, r in zip(reports, reports[1:]):
        if r["accepted"] and not r["rejected"]:
            assert r["markov_energy"] == r["energy"]
        elif not r["accepted"]:
            assert r["markov_energy"] == before["markov_energy"]
    best = min(r["energy"] for r in reports if not r["rejected"])
    assert best == pytest.approx(result.lowest[0].energy, abs=1e-3)  # sloppy vs tight quench
    assert result.lowest[0].coordinates.shape == (13, 3)
    energies = [m.energy for m in result.lowest]
    assert energies == sorted(energies)


def test_same_seed_same_run_and_callback_can_stop_it():
    params = landscape.BasinHoppingParams(steps=40, seed=3)
    lj = landscape.lennard_jones(13)
    a = landscape.basin_hopping(lj, params)
    b = landscape.basin_hopping(lj, params)
    assert [m.energy for m in a.lowest] == [m.energy for m in b.lowest]
    stopped = landscape.basin_hopping(lj, params, on_quench=lambda r: r["quench"] >= 5)
    assert stopped.stopped_early and stopped.quenches == 5


def test_start_structure_and_callback_errors_propagate():
    lj = landscape.lennard_jones(13)
    with pytest.raises(ValueError, match="start"):
        landscape.basin_hopping(lj, start=np.zeros((12, 3)))

    def broken(report):
        raise KeyError("from the callback")

    with pytest.raises(KeyError, match="from the callback"):
        landscape.basin_hopping(lj, landscape.BasinHoppingParams(steps=5), on_quench=broken)


def test_a_run_whose_every_quench_fails_warns_instead_of_returning_nothing_silently():
    lj = landscape.lennard_jones(13)
    params = landscape.BasinHoppingParams(steps=3, seed=1, sloppy_max_iterations=1)
    with pytest.warns(RuntimeWarning, match="every one of the 4 quenches failed"):
        result = landscape.basin_hopping(lj, params)
    assert result.lowest == [] and result.failed_quenches == 4  # the start's quench and 3 steps


def test_without_params_the_run_takes_gmins_own_defaults():
    cluster = landscape.BasinHoppingParams.gmin_lj38_example()
    molecule = landscape.BasinHoppingParams.gmin_molecule()
    assert (cluster.save_count, cluster.energy_difference, cluster.new_restart_steps) == (2, 0.003,
                                                                                          40)
    assert not molecule.container and molecule.sloppy_max_iterations == 20000
    assert molecule.temperature == 0.6 and molecule.save_count == 10
    # LJ13 without params: gmin's SAVE 2, where BasinHoppingParams() keeps 10.
    stop_after = lambda report: report["quench"] >= 30  # noqa: E731
    lj = landscape.lennard_jones(13)
    assert len(landscape.basin_hopping(lj, on_quench=stop_after).lowest) <= 2
    generic = landscape.basin_hopping(lj, landscape.BasinHoppingParams(steps=30, seed=1))
    assert len(generic.lowest) > 2


def test_prmtop_adds_gmins_side_chain_rotations_and_stereochemistry_checks():
    """Ace-ASH-Nme (25 atoms, ParmEd's test files): steps of up to 1.5 A invert its stereocentre
    now and then; those minima are rejected with the change named, as gmin --prmtop does."""
    prmtop = DATA / "gb/ash/ash.parm7"
    x = landscape.read_inpcrd(DATA / "gb/ash/ash.rst7")
    gb = landscape.amber_gb(prmtop)
    params = landscape.BasinHoppingParams.gmin_molecule()
    params.step_size, params.steps, params.seed = 1.5, 60, 3

    def run(**options):
        reasons = []
        result = landscape.basin_hopping(gb, params, start=x, prmtop=prmtop,
                                         on_quench=lambda q: reasons.append(q["reject_reason"]),
                                         **options)
        return [m.energy for m in result.lowest], reasons

    checked, reasons = run()
    assert any(r == "chirality of CA 9 (ASH 2) inverted" for r in reasons)
    _, unchecked = run(stereo_checks=False)
    assert not any("chirality" in r or "cis" in r for r in unchecked)
    assert run()[0] == checked  # the same seed, the same run
    assert run(group_rotation=0.0)[0] != checked  # the rotations take part
    with pytest.raises(ValueError, match="give the molecule's start"):
        landscape.basin_hopping(gb, params, prmtop=prmtop)
    with pytest.raises(ValueError, match="has 25 atoms but the potential"):
        landscape.basin_hopping(landscape.lennard_jones(7), params, start=np.zeros((7, 3)),
                                prmtop=prmtop)


def test_symmetrisecsm_finds_lj38_as_gmins_mfet_example_does():
    """GMIN's LJ38 example with SYMMETRISECSM 1 CI (kT 3.0) finds the Oh global minimum in 37 +/- 43
    quenches over 100 starts (wales-group/examples, 02_Calculating_MFET); without it 2825 +/-
    3093. Five starts here, each well inside 1000 steps."""
    params = landscape.BasinHoppingParams.gmin_lj38_example()
    params.temperature, params.steps, params.target_energy = 3.0, 1000, -173.928427
    params.symmetrisation.scheme = landscape.SymmetrisationScheme.csm
    params.symmetrisation.interval = 1
    quenches = []
    for seed in range(1, 6):
        params.seed = seed
        result = landscape.basin_hopping(landscape.lennard_jones(38), params)
        assert result.target_reached
        quenches.append(result.target_quench)
    assert np.mean(quenches) < 300
    params.symmetrisation.csm_group = "C2V"
    with pytest.raises(ValueError, match="'C2V' is not implemented"):
        landscape.basin_hopping(landscape.lennard_jones(38), params)
