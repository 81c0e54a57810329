"""The network database through the bindings: PATHSAMPLE files in, network.h5 written by the
library and by optim, read back as numpy arrays (checked against h5py, an independent HDF5
reader), networkx graphs, optim's connect."""
import subprocess

import h5py
import networkx as nx
import numpy as np
import pytest

import landscape
from conftest import DATA, program
from landscape.network import Network, read_minima_list

UNTRAP = DATA / "lj38/pathsample-untrap/expected_output"
LJ7_MINIMA = (-16.505384, -15.935043)  # pentagonal bipyramid, capped octahedron


@pytest.fixture(scope="module")
def untrap():
    return Network.from_pathsample(UNTRAP)


def test_pathsample_files_are_read_with_their_sizes(untrap):
    # tests/data/kinetics/README.md: the grown database has 64 minima and 70 transition states.
    assert untrap.minima_count == 64 and untrap.ts_count == 70
    assert untrap.metadata["atoms"] == 38
    assert untrap.minima_coordinates.shape == (64, 38, 3)
    lowest = int(np.argmin(untrap.minima_energy))
    assert lowest == 1  # line 2 of min.data
    assert untrap.minima_energy[lowest] == pytest.approx(-173.928426590627964, abs=1e-12)
    assert untrap.minima_point_group_order[lowest] == 48  # Oh truncated octahedron
    # points.min holds the structure: the LJ38 potential gives the min.data energy back.
    lj = landscape.lennard_jones(38)
    assert lj.energy(untrap.minima_coordinates[lowest]) == pytest.approx(-173.928427, abs=1e-6)
    assert read_minima_list(UNTRAP / "min.A") == [1]


def test_network_h5_round_trip_through_the_library(untrap, tmp_path):
    path = tmp_path / "network.h5"
    untrap.write(path)
    back = Network.read(path)
    for key in ("minima_energy", "minima_coordinates", "minima_log_product",
                "minima_point_group_order", "minima_principal_moments", "ts_energy",
                "ts_coordinates", "ts_minima", "ts_log_product"):
        assert np.array_equal(back.data[key], untrap.data[key]), key
    assert back.energy_unit == "reduced (epsilon)"
    with h5py.File(path, "r") as f:  # the schema of docs/database.md, read independently
        assert f.attrs["schema_version"] == 1 and f.attrs["atoms"] == 38
        assert np.array_equal(f["minima/energy"][:], untrap.minima_energy)
        assert np.array_equal(f["transition_states/minima"][:], untrap.ts_minima)
        assert f["minima/coordinates"].shape == (64, 114)


def test_networkx_graph(untrap):
    g = untrap.to_networkx()
    assert g.number_of_nodes() == 64 and g.number_of_edges() == 70
    # The A and B sets of the run (min.A: minimum 2, the Oh global minimum; min.B: minimum 8,
    # the icosahedral funnel) are joined; UNTRAP leaves a few small disconnected pieces.
    a, b = read_minima_list(UNTRAP / "min.A")[0], read_minima_list(UNTRAP / "min.B")[0]
    assert nx.has_path(g, a, b)
    t = 0
    a, b = untrap.ts_minima[t]
    edge = g.get_edge_data(int(a), int(b))[t]
    assert edge["energy"] == untrap.ts_energy[t]
    assert edge["barrier_forward"] == pytest.approx(untrap.ts_energy[t] - untrap.minima_energy[a])


def test_bad_pathsample_files_name_file_and_line(tmp_path):
    (tmp_path / "min.data").write_text("-1.0 2.0 1 1.0 1.0 1.0\n-2.0 2.0 1 1.0\n")
    (tmp_path / "ts.data").write_text("")
    with pytest.raises(ValueError, match=r"min.data:2: expected 6 columns"):
        Network.from_pathsample(tmp_path)
    (tmp_path / "min.data").write_text("-1.0 2.0 1 1.0 1.0 1.0\n")
    (tmp_path / "ts.data").write_text("0.0 1.0 1 1 3 1.0 1.0 1.0\n")
    with pytest.raises(ValueError, match=r"ts.data:1: minimum 3 is not a line of min.data"):
        Network.from_pathsample(tmp_path)
    with pytest.raises(RuntimeError, match="nothing.h5"):
        Network.read(tmp_path / "nothing.h5")


def lj7_minima():
    """The two lowest LJ7 minima, minimised from random starts."""
    lj = landscape.lennard_jones(7)
    found = {}
    rng = np.random.default_rng(0)
    params = landscape.LbfgsParams(rms_tolerance=1e-7, max_iterations=5000)
    while len(found) < 2:
        x, r = landscape.minimise(lj, rng.uniform(-1, 1, (7, 3)), params)
        for target in LJ7_MINIMA:
            if r.converged and abs(r.energy - target) < 1e-5:
                found[target] = x
    return lj, found[LJ7_MINIMA[0]], found[LJ7_MINIMA[1]]


def check_lj7_path(network):
    lowest = sorted(network.minima_energy)[:2]
    assert lowest == pytest.approx(sorted(LJ7_MINIMA), abs=1e-5)
    g = network.to_networkx()
    a = int(np.argmin(np.abs(network.minima_energy - LJ7_MINIMA[0])))
    b = int(np.argmin(np.abs(network.minima_energy - LJ7_MINIMA[1])))
    assert nx.has_path(g, a, b)
    for u, v, data in g.edges(data=True):  # a transition state lies above both its minima
        assert data["energy"] > max(network.minima_energy[u], network.minima_energy[v])


def test_connect_joins_two_lj7_minima(tmp_path):
    lj, a, b = lj7_minima()
    network = landscape.connect(lj, a, b)
    assert network.run["connected"] and network.run["status"] == "connected"
    assert len(network.run["path"]) >= 1
    assert np.all(network.ts_eigenvalue < 0)
    check_lj7_path(network)
    network.write(tmp_path / "connect.h5")
    check_lj7_path(Network.read(tmp_path / "connect.h5"))


def test_optim_writes_a_network_that_python_reads(tmp_path):
    optim = program("optim")
    lj, a, b = lj7_minima()
    for name, x in (("a.xyz", a), ("b.xyz", b)):
        lines = ["7", name] + [f"LJ {p[0]:.12f} {p[1]:.12f} {p[2]:.12f}" for p in x]
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    run = subprocess.run([str(optim), "--start", "a.xyz", "--finish", "b.xyz", "--database",
                          "network.h5", "--quiet"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    network = Network.read(tmp_path / "network.h5")
    assert network.metadata["program"] == "optim" and network.ts_count >= 1
    check_lj7_path(network)
    # optim characterises its points: the point-group order and moments are known.
    assert np.all(network.minima_point_group_order >= 1)
    assert np.all(np.isfinite(network.minima_principal_moments))
