"""Potentials through the bindings: reference energies of the C++ suite and of independent
codes, gradients against finite differences, components, and errors as exceptions."""
import pathlib

import numpy as np
import pytest

import landscape
from conftest import DATA, LJ38_GLOBAL_MINIMUM, finite_difference_gradient


def test_lj38_global_minimum_energy(lj38_minimum):
    lj = landscape.lennard_jones(38)
    assert lj.atoms == 38 and lj.dimension == 114 and lj.backend == "cpu"
    assert lj.energy(lj38_minimum) == pytest.approx(LJ38_GLOBAL_MINIMUM, abs=1e-6)


def test_lj_pair_energy_is_minus_epsilon_at_two_to_the_sixth():
    lj = landscape.lennard_jones(2)
    x = np.array([[0.0, 0.0, 0.0], [2 ** (1 / 6), 0.0, 0.0]])
    e, g = lj.energy_gradient(x)
    assert e == pytest.approx(-1.0, abs=1e-14)
    assert np.abs(g).max() < 1e-12


def test_lj_gradient_matches_finite_differences():
    rng = np.random.default_rng(4)
    x = rng.uniform(-1.2, 1.2, size=(13, 3))
    lj = landscape.lennard_jones(13)
    _, g = lj.energy_gradient(x)
    fd = finite_difference_gradient(lj.energy, x, h=1e-6)
    assert np.allclose(g, fd, rtol=1e-6, atol=1e-6 * np.abs(g).max())


def test_gradient_is_written_into_out_and_keeps_the_input_shape(lj38_minimum):
    lj = landscape.lennard_jones(38)
    out = np.empty_like(lj38_minimum)
    e, g = lj.energy_gradient(lj38_minimum, out=out)
    assert g is out or np.shares_memory(g, out)
    flat_e, flat_g = lj.energy_gradient(lj38_minimum.reshape(-1))
    assert flat_g.shape == (114,) and flat_e == e
    assert np.array_equal(flat_g.reshape(38, 3), out)


# trp-cage, igb=2, rgbmax 12, 0.2 M: tests/data/gb/REFERENCE.md (OpenMM 7.7 Reference platform with
# sander's GB; kcal/mol, 4 decimals).
TRPCAGE_IGB2 = {"BOND": 57.2904, "ANGLE": 152.0950, "DIHED": 153.1874, "VDWAALS": -72.1725,
                "EELEC": -1282.7867, "1-4_VDW": 57.2836, "1-4_EEL": 886.3260, "EGB": -455.4549}


def test_amber_trpcage_components_match_the_reference(trpcage):
    prmtop, inpcrd = trpcage
    amber = landscape.amber_gb(prmtop, igb=2, saltcon=0.2, rgbmax=12.0)
    x = landscape.read_inpcrd(inpcrd)
    assert x.shape == (304, 3)
    components = amber.energy_components(x)
    for name, value in TRPCAGE_IGB2.items():
        assert components[name] == pytest.approx(value, abs=1e-3), name
    assert amber.energy(x) == pytest.approx(-504.2318, abs=1e-3)
    assert sum(components.values()) == pytest.approx(amber.energy(x), abs=1e-9)


def test_amber_gb_options_reach_the_potential(trpcage):
    prmtop, inpcrd = trpcage
    x = landscape.read_inpcrd(inpcrd)
    # REFERENCE.md: igb=5 rgbmax 12: EGB -430.6433; igb=2 rgbmax 99: EGB -453.8417.
    igb5 = landscape.amber_gb(prmtop, igb=5).energy_components(x)["EGB"]
    assert igb5 == pytest.approx(-430.6433, abs=1e-3)
    wide = landscape.amber_gb(prmtop, igb=2, rgbmax=99.0).energy_components(x)["EGB"]
    assert wide == pytest.approx(-453.8417, abs=1e-3)
    # No salt removes the screening: EGB changes; without salt, solvent = solute dielectric
    # (1/eps_in - 1/eps_out = 0) switches GB off.
    no_salt = landscape.amber_gb(prmtop, saltcon=0.0).energy_components(x)["EGB"]
    assert abs(no_salt - TRPCAGE_IGB2["EGB"]) > 1e-3
    vacuum = landscape.amber_gb(prmtop, saltcon=0.0, extdiel=1.0).energy_components(x)["EGB"]
    assert vacuum == pytest.approx(0.0, abs=1e-9)


def test_amber_gradient_matches_finite_differences(trpcage):
    prmtop, inpcrd = trpcage
    amber = landscape.amber_gb(prmtop)
    x = landscape.read_inpcrd(inpcrd)
    _, g = amber.energy_gradient(x)
    indices = list(range(0, 912, 37))
    fd = finite_difference_gradient(amber.energy, x, h=1e-5, indices=indices)
    flat_g, flat_fd = g.reshape(-1)[indices], fd.reshape(-1)[indices]
    assert np.allclose(flat_g, flat_fd, rtol=1e-5, atol=1e-5)


def test_sop_titin_native_state():
    pdb = str(DATA / "sop/1TIT.pdb")
    sop = landscape.sop(pdb)
    x = landscape.sop_native_coordinates(pdb)
    components = sop.energy_components(x)
    assert set(components) >= {"FENE"}
    # At the native state every FENE bond sits at its native length: zero FENE energy and every
    # native contact at its minimum -eps_n (1.5 kcal/mol), so NATIVE = -1.5 x contacts.
    assert components["FENE"] == pytest.approx(0.0, abs=1e-12)
    _, g = sop.energy_gradient(x)
    fd = finite_difference_gradient(sop.energy, x, h=1e-5, indices=range(0, x.size, 11))
    picked = list(range(0, x.size, 11))
    assert np.allclose(g.reshape(-1)[picked], fd.reshape(-1)[picked], rtol=1e-5, atol=1e-6)


def test_rigid_bodies_round_trip_and_gradient(trpcage):
    prmtop, inpcrd = trpcage
    amber = landscape.amber_gb(prmtop)
    x = landscape.read_inpcrd(inpcrd)
    rigid = landscape.rigid_bodies(amber, [[0, 1, 2, 3], [4, 5, 6, 7, 8]], x)
    q = rigid.from_atoms(x)
    assert q.shape == (6 * 2 + 3 * (304 - 9),)
    assert np.allclose(rigid.to_atoms(q), x, atol=1e-10)
    assert rigid.energy(q) == pytest.approx(amber.energy(x), abs=1e-8)
    _, g = rigid.energy_gradient(q)
    picked = [0, 1, 2, 6, 7, 8, 12, 100]
    fd = finite_difference_gradient(rigid.energy, q, h=1e-6, indices=picked)
    assert np.allclose(g[picked], fd[picked], rtol=1e-5, atol=1e-5)


def test_errors_raise_python_exceptions_with_the_library_message(trpcage, tmp_path):
    lj = landscape.lennard_jones(38)
    with pytest.raises(ValueError, match=r"energy: x has shape \(5, 3\).*\(38, 3\) or \(114,\)"):
        lj.energy(np.zeros((5, 3)))
    with pytest.raises(ValueError, match="atoms must be >= 2"):
        landscape.lennard_jones(1)
    with pytest.raises(RuntimeError, match="missing.prmtop"):
        landscape.amber_gb(str(tmp_path / "missing.prmtop"))
    with pytest.raises(ValueError, match="igb"):
        landscape.amber_gb(trpcage[0], igb=3)
    with pytest.raises(ValueError, match="backend"):
        landscape.lennard_jones(38, backend="tpu")
    broken = tmp_path / "broken.inpcrd"
    broken.write_text("title\n   10\n  1.0  2.0\n")
    with pytest.raises(RuntimeError, match="broken.inpcrd"):
        landscape.read_inpcrd(str(broken))
    with pytest.raises(ValueError, match="not a rigid-body potential"):
        lj.to_atoms(np.zeros(114))
    with pytest.raises(TypeError, match="unknown field"):
        landscape.LbfgsParams(max_iteration=3)
    with pytest.raises(ValueError, match="history size"):
        landscape.LbfgsParams(history_size=0)


def test_pitfalls_are_refused_with_clear_messages(lj38_minimum):
    """What a pele, ASE or scipy user may try: each is an error naming the problem, or works."""
    lj = landscape.lennard_jones(38)
    # A transposed (3, N) array has 3N values and the wrong atoms.
    with pytest.raises(ValueError, match=r"shape \(3, 38\).*a transposed array"):
        lj.energy(np.ascontiguousarray(lj38_minimum.T))
    assert lj.energy(lj38_minimum.reshape(-1)) == lj.energy(lj38_minimum)  # flat is fine
    # A NaN start is refused before any search starts.
    start = lj38_minimum.copy()
    start[4, 1] = np.nan
    with pytest.raises(ValueError, match="non-finite value.*flat index 13"):
        landscape.minimise(lj, start)
    with pytest.raises(ValueError, match="basin_hopping: start holds a non-finite"):
        landscape.basin_hopping(lj, landscape.BasinHoppingParams(steps=1), start=start)
    # out must be float64 (a float32 out was a converted copy, left unwritten).
    with pytest.raises(TypeError):
        lj.energy_gradient(lj38_minimum, out=np.zeros((38, 3), dtype=np.float32))
    out = np.zeros((38, 3))
    energy, g = lj.energy_gradient(lj38_minimum, out=out)
    assert g is out or np.shares_memory(g, out)
    assert np.abs(out).max() > 0.0
    with pytest.raises(ValueError, match="atoms must be >= 2, not -3"):
        landscape.lennard_jones(-3)
    assert repr(lj) == "<landscape.Potential Lennard-Jones 38 atoms (cpu), 114 values>"
    assert repr(landscape.LbfgsParams()).startswith("LbfgsParams(history_size=")
    assert "steps=" in repr(landscape.BasinHoppingParams())


@pytest.mark.skipif(landscape.cuda.available(), reason="checks the message of a build or "
                    "machine without CUDA")
def test_cuda_backend_without_a_device_says_why():
    with pytest.raises(RuntimeError, match="cuda"):
        landscape.lennard_jones(38, backend="cuda")


def test_paths_may_be_pathlib_paths(trpcage, tmp_path):
    prmtop, inpcrd = (pathlib.Path(p) for p in trpcage)
    x = landscape.read_inpcrd(inpcrd)
    assert x.shape == (304, 3)
    assert landscape.amber_gb(prmtop).energy(x) == landscape.amber_gb(str(prmtop)).energy(x)
    assert len(landscape.amber_elements(prmtop)) == 304
    with pytest.raises(RuntimeError, match="missing.prmtop"):
        landscape.amber_gb(tmp_path / "missing.prmtop")
