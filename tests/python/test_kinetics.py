"""Kinetics of a Network from Python (rates, committors, regrouping, the disconnectivity graph)
checked against `pathsample`'s own output on the same database, PATHSAMPLE's NGT output on its
kinetics-only example, pele's analytic rate maps, the harmonic formula by hand, and an
independent Hessian; and Network.read(...).write(...) checked against h5py for every group,
dataset and attribute."""
import math
import pathlib
import shutil
import subprocess

import h5py
import numpy as np
import pytest

import landscape
from conftest import DATA, program
from numpy_potentials import finite_difference_hessian
from landscape.network import Network, graph_rates, read_minima_list
from test_network import lj7_minima

LJ38 = DATA / "lj38/pathsample"  # wales-group/examples LJ38 database: 12 minima, 11 ts
NINE_COMMUNITIES = DATA / "kinetics/9comm"  # PATHSAMPLE's kinetics-only example, with its output
TEMPERATURES = (0.15, 0.2, 0.3)  # kT, epsilon


def run(*args, cwd=None):
    result = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def fortran_table(path):
    """PATHSAMPLE's output tables (Fortran E format, possibly 'E-0011')."""
    return np.array([[float(v) for v in line.split()] for line in path.read_text().splitlines()
                     if line.strip()])


def import_lj38(pathsample, folder, a, b):
    """The LJ38 database imported by `pathsample import` into folder/network.h5 with the sets
    A = {a} and B = {b} (1-based lines of min.data, as in min.A and min.B)."""
    for name in ("min.data", "ts.data", "points.min", "points.ts"):
        shutil.copy(LJ38 / name, folder / name)
    (folder / "min.A").write_text(f"1\n{a}\n")
    (folder / "min.B").write_text(f"1\n{b}\n")
    run(pathsample, "import", "--directory", folder, "--database", folder / "network.h5")
    return folder / "network.h5"


@pytest.fixture(scope="module")
def lj38(tmp_path_factory):
    """A = minimum 2 (the Oh global minimum, line 2 of min.data) and B = minimum 8 (the lowest
    icosahedral one, C5v)."""
    pathsample = program("pathsample")
    folder = tmp_path_factory.mktemp("lj38")
    import_lj38(pathsample, folder, 2, 8)
    return pathsample, folder


def test_rates_equal_pathsample_rates_on_the_same_database(lj38):
    pathsample, folder = lj38
    out = folder / "rates"
    run(pathsample, "rates", "--database", folder / "network.h5", "--directory", out,
        "--temperature", ",".join(map(str, TEMPERATURES)))
    network = Network.read(folder / "network.h5")
    assert list(network.set_a) == [1] and list(network.set_b) == [7]  # 0-based
    for suffix, key in (("new", "k"), ("kSS", "kss"), ("kNSS", "knss")):
        table = fortran_table(out / f"NGT.rates.{suffix}")
        assert table[:, 0] == pytest.approx(TEMPERATURES)
        for row, t in zip(table, TEMPERATURES):
            r = network.rates(t)
            # the files print 10 significant digits
            assert r[f"{key}_ab"] == pytest.approx(row[1], rel=1e-9), (suffix, t)
            assert r[f"{key}_ba"] == pytest.approx(row[2], rel=1e-9), (suffix, t)
    r = network.rates(0.2)
    assert r["units"] == "reduced" and r["rate_unit"] == "reduced time^-1"
    assert r["a"] == [1] and r["b"] == [7] and r["connected_minima"] == network.minima_count
    # MFPT(A<-B) is the time from B to A: 1 / k(A<-B) for one-minimum sets
    assert r["mfpt_ab"] == pytest.approx(1 / r["k_ab"], rel=1e-12)
    # explicit sets give the same as the stored ones; swapping them swaps the directions
    assert network.rates(0.2, a=[1], b=np.array([7]))["k_ab"] == r["k_ab"]
    swapped = network.rates(0.2, a=7, b=1)
    assert swapped["k_ab"] == pytest.approx(r["k_ba"], rel=1e-12)


def test_low_temperature_rates_are_logarithms_never_zero_or_nan(tmp_path):
    """LJ38 at kT = 0.002: k ~ exp(-2235), beyond double precision. The log fields equal the
    arbitrary-precision reference (tests/data/kinetics/lj38_low_temperature.tsv, made by
    tools/checks/ngt_reference.py with mpmath) and the linear ones are None."""
    run(program("pathsample"), "import", "--directory", DATA / "lj38/pathsample-untrap/input",
        "--database", tmp_path / "network.h5")
    network = Network.read(tmp_path / "network.h5")
    reference = {}
    for line in (DATA / "kinetics/lj38_low_temperature.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            folder, kt, quantity, value = line.split("\t")
            if folder == "input":
                reference[(float(kt), quantity)] = float(value)
    for kt in (0.002, 0.005):
        r = network.rates(kt)
        assert r["representable"] is False
        assert r["k_ab"] is None and r["mfpt_ba"] is None
        for key, quantity in (("log_k_ab", "lnk_AB"), ("log_k_ba", "lnk_BA"),
                              ("log_kss_ab", "lnkSS_AB"), ("log_knss_ba", "lnkNSS_BA"),
                              ("log_mfpt_ab", "lnMFPT_AB")):
            assert r[key] == pytest.approx(reference[(kt, quantity)], rel=1e-9), (kt, key)
    warm = network.rates(0.1)
    assert warm["representable"] is True
    assert np.log(warm["k_ab"]) == pytest.approx(warm["log_k_ab"], rel=1e-12)
    assert warm["log_k_ab"] == pytest.approx(reference[(0.1, "lnk_AB")], rel=1e-9)


def test_regrouped_rates_committors_and_groups_equal_pathsample(lj38):
    pathsample, folder = lj38
    network = Network.read(folder / "network.h5")
    database = folder / "network.h5"
    out = folder / "regrouped"
    run(pathsample, "rates", "--database", database, "--directory", out, "--temperature", "0.2",
        "--regrouped", "--regroup-threshold", "0.5")
    table = fortran_table(out / "NGT.rates.new")
    r = network.rates(0.2, regroup_threshold=0.5)
    assert r["k_ab"] == pytest.approx(table[0, 1], rel=1e-9)
    assert r["k_ba"] == pytest.approx(table[0, 2], rel=1e-9)
    assert r["groups"] < network.minima_count

    run(pathsample, "committors", "--database", database, "--directory", out,
        "--temperature", "0.2")
    committors = network.committors(0.2)
    expected = fortran_table(out / "commit.data")[:, 0]
    assert np.nan_to_num(committors) == pytest.approx(expected, abs=1e-10)
    assert committors[1] == 1 and committors[7] == 0  # on A and on B
    assert np.all((committors >= 0) & (committors <= 1))

    counts = set()
    for planck in (None, 1e-3):  # h in epsilon x reduced time: adds kT ln(kT/h) to every ts
        options = [] if planck is None else ["--planck", str(planck)]
        run(pathsample, "regroup", "--database", database, "--directory", out, "--temperature",
            "0.2", "--regroup-threshold", "1.0", *options)
        groups = network.regroup(1.0, 0.2, planck=planck)
        lines = (out / "minima_groups").read_text().splitlines()
        assert len(lines) == len(groups["members"])
        for g, line in enumerate(lines):  # "group 1  F= -146.6  minima: 2 5" (1-based numbers)
            head, minima = line.split("minima:")
            assert float(head.split("F=")[1]) == pytest.approx(groups["free_energy"][g],
                                                               rel=1e-9)
            assert [int(m) - 1 for m in minima.split()] == list(groups["members"][g])
            assert np.all(groups["group_of_minimum"][groups["members"][g]] == g)
        assert np.all(np.diff(groups["free_energy"]) >= 0)  # lowest free energy first
        counts.add(len(groups["members"]))
    assert len(counts) == 2  # planck changes the barriers, so the grouping


def test_pathsample_ngt_output_of_its_kinetics_only_example():
    # PATHSAMPLE's own NGT run on its 9-community network (min.data, ts.data, min.A, min.B and
    # pathdata of wales-group/examples, TEMPERATURE 1.0): k, kSS, kNSS both ways and the MFPTs.
    network = Network.from_pathsample(NINE_COMMUNITIES)
    a = read_minima_list(NINE_COMMUNITIES / "min.A")
    b = read_minima_list(NINE_COMMUNITIES / "min.B")
    assert list(network.set_a) == a == [143] and list(network.set_b) == b == [3]  # 0-based
    r = network.rates(1.0, units="reduced")  # the sets read from min.A and min.B
    expected = NINE_COMMUNITIES / "expected_output"
    k = fortran_table(expected / "NGT.rates.new")[0]
    kss = fortran_table(expected / "NGT.rates.kSS")[0]
    knss = fortran_table(expected / "NGT.rates.kNSS")[0]
    assert k[0] == 1.0
    for got, want in ((r["k_ab"], k[1]), (r["k_ba"], k[2]), (r["mfpt_ab"], k[3]),
                      (r["mfpt_ba"], k[4]), (r["kss_ab"], kss[1]), (r["kss_ba"], kss[2]),
                      (r["knss_ab"], knss[1]), (r["knss_ba"], knss[2])):
        assert got == pytest.approx(want, rel=1e-6)


def test_kinetics_only_network_file_reads_writes_and_gives_pathsample_rates(tmp_path):
    # `pathsample import --no-points` of the same network: a file without coordinates (atoms 0)
    # that Python reads, gives the same rates as from the files, and writes back whole.
    pathsample = program("pathsample")
    run(pathsample, "import", "--no-points", "--directory", NINE_COMMUNITIES, "--database",
        tmp_path / "kinetics.h5")
    network = Network.read(tmp_path / "kinetics.h5")
    assert network.metadata["atoms"] == 0
    assert network.data["minima_coordinates"].shape == (994, 0, 3)
    knss = fortran_table(NINE_COMMUNITIES / "expected_output/NGT.rates.kNSS")[0]
    r = network.rates(1.0, units="reduced")
    assert r["knss_ab"] == pytest.approx(knss[1], rel=1e-6)
    assert r["knss_ba"] == pytest.approx(knss[2], rel=1e-6)
    network.write(tmp_path / "copy.h5")
    copy = Network.read(tmp_path / "copy.h5")
    for key, value in network.data.items():
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(copy.data[key], value, err_msg=key)
    run(pathsample, "rates", "--database", tmp_path / "copy.h5", "--directory", tmp_path,
        "--temperature", "1.0")
    assert fortran_table(tmp_path / "NGT.rates.kNSS")[0][1] == pytest.approx(knss[1], rel=1e-6)


def test_pele_analytic_rate_maps():
    # tests/data/kinetics/README.md (pele's test_linalg.py and test_graph_transformation.py);
    # pele's rate_AB is the rate from A to B, PATHSAMPLE's k(B<-A) = k_ba here. Equal weights.
    edges = [(i, j) for i in range(3) for j in range(3) if i != j]
    r = graph_rates(3, edges, np.ones(len(edges)), [0], [1])
    assert r["k_ba"] == pytest.approx(1.0, rel=1e-7) and r["k_ab"] == pytest.approx(1.0, rel=1e-7)
    assert r["kss_ba"] == pytest.approx(1.5, rel=1e-7)
    assert r["committor_a"] == pytest.approx([1, 0, 0.5])

    edges = [(i, j) for i in range(10) for j in range(10) if i != j]
    rates = [(i + j) / (i + 1) for i, j in edges]
    r = graph_rates(10, edges, rates, [0, 1, 2], [3, 4, 5])
    assert r["k_ba"] == pytest.approx(5.1013138820442565, rel=1e-7)
    assert r["k_ab"] == pytest.approx(3.0, rel=1e-7)
    assert r["kss_ba"] == pytest.approx(19.933950145409426, rel=1e-7)
    assert r["kss_ab"] == pytest.approx(6.970856553435547, rel=1e-7)


def collagen_folder():
    """pele's collagen network (2203 minima, 3609 ts), stored with its origin in
    tests/data/kinetics/collagen (tests/data/README.md)."""
    folder = DATA / "kinetics/collagen"
    assert (folder / "collagen.min.data").exists(), f"{folder}: pele's collagen network is missing"
    return folder


def test_pele_collagen_known_answers(tmp_path):
    # known_answers.tsv: pele's TestOptimCollagen at T = 0.592 (kT in the files' energy unit),
    # A and B as min.data lines; pele's k_AB (A to B) is k_ba here. Tolerance +-1e4 as pele's.
    folder = collagen_folder()
    shutil.copy(folder / "collagen.min.data", tmp_path / "min.data")
    shutil.copy(folder / "collagen.ts.data", tmp_path / "ts.data")
    network = Network.from_pathsample(tmp_path)
    assert network.minima_count == 2203 and network.ts_count == 3609
    for a, b, k_ab, k_ba in (([1], [2], 7106337458, 1955395816),
                             ([1, 3], [2, 4], 8638736600, 3499625167)):
        r = network.rates(0.592, a=[m - 1 for m in a], b=[m - 1 for m in b], units="reduced")
        assert r["k_ba"] == pytest.approx(k_ab, abs=1e4)
        assert r["k_ab"] == pytest.approx(k_ba, abs=1e4)


def test_bad_arguments_raise_value_errors_that_name_the_problem(lj38):
    network = Network.read(lj38[1] / "network.h5")
    cases = [
        (dict(temperature=0.2, a=[12]), r"a holds minimum 12, not in the network of 12 minima "
                                        r"\(0-based minima: 0 to 11\)"),
        (dict(temperature=0.2, a=[-1]), r"a holds minimum -1"),
        (dict(temperature=0.2, a=[1], b=[1]), r"minimum 1 \(0-based\) is in both a and b"),
        (dict(temperature=0.2, a=[1, 1]), r"a lists minimum 1 twice"),
        (dict(temperature=0.2, a=[]), r"a is empty"),
        (dict(temperature=0.2, a=[0.5]), r"must hold integers"),
        (dict(temperature=0.2, b="x"), r"must hold integers"),
        (dict(temperature=0.0), r"temperature must be positive and finite"),
        (dict(temperature=float("nan")), r"temperature must be positive and finite"),
        (dict(temperature=0.2, units="kelvin"), r"units must be 'reduced', 'molecular' or"),
        (dict(temperature=0.2, regroup_threshold=-1), r"threshold must be >= 0"),
        (dict(temperature=0.2, regroup_threshold=50), r"puts minima of a and b into one group"),
    ]
    for arguments, message in cases:
        with pytest.raises(ValueError, match=message):
            network.rates(**arguments)
    with pytest.raises(ValueError, match="threshold must be >= 0"):
        network.regroup(-0.1, 0.2)
    with pytest.raises(ValueError, match="temperature must be positive"):
        network.committors(-1)
    # no endpoint sets stored and none given
    bare = Network({**network.data, "set_a": [], "set_b": []})
    with pytest.raises(ValueError, match=r"no set a given and the network has no endpoint set"):
        bare.rates(0.2)
    # points without log products (a connect run that was not asked to characterise)
    unknown = Network({**network.data, "ts_log_product": np.full(network.ts_count, np.nan)})
    with pytest.raises(ValueError, match=r"transition state 0 \(0-based\) has no log product"):
        unknown.rates(0.2)
    # minima that are not joined
    alone = Network({**network.data, "ts_minima": np.tile([[0, 2]], (network.ts_count, 1))})
    with pytest.raises(ValueError, match="connected"):
        alone.rates(0.2)
    broken = Network({**network.data, "ts_minima": np.tile([[0, 40]], (network.ts_count, 1))})
    with pytest.raises(ValueError, match=r"ts_minima\[0\] names minimum 40"):
        broken.rates(0.2)
    with pytest.raises(ValueError, match=r"edge 0 has rate 0"):
        graph_rates(2, [(0, 1)], [0.0], [0], [1])
    with pytest.raises(ValueError, match=r"edge 0 names node 5"):
        graph_rates(2, [(0, 5)], [1.0], [0], [1])
    with pytest.raises(ValueError, match="levels must be an integer >= 1"):
        network.disconnectivity_graph(levels=0)
    with pytest.raises(ValueError,
                       match=r"ts_minima\[0\] names minimum 1e\+300, not one of the 12 minima"):
        landscape._landscape.disconnectivity_layout(network.minima_energy, network.ts_energy[:1],
                                                    np.array([[0.0, 1e300]]))


def test_disconnectivity_graph_data_and_plot(lj38, tmp_path):
    network = Network.read(lj38[1] / "network.h5")
    layout = network.disconnectivity_graph(levels=10)
    assert sorted(layout["minima"]) == list(range(12))  # one connected network
    assert layout["lowest_energy"] == pytest.approx(network.minima_energy.min())
    assert len(layout["levels"]) == 11 and np.all(np.diff(layout["levels"]) < 0)
    # each minimum's leaf ends at its own energy
    segments = layout["segments"]
    for m, x in zip(layout["minima"], layout["minimum_x"]):
        ends = segments[(np.abs(segments[:, 2] - x) < 1e-12)][:, 3]
        assert network.minima_energy[m] == pytest.approx(ends.min())
    fig = network.plot_disconnectivity(levels=10, title="LJ38")
    ax = fig.axes[0]
    assert ax.get_title() == "LJ38"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["A (1 minimum)",
                                                                   "B (1 minimum)"]
    fig.savefig(tmp_path / "tree.png")
    assert (tmp_path / "tree.png").stat().st_size > 1000


def all_items(f):
    items = {}
    f.visititems(lambda name, obj: items.__setitem__(name, obj))
    return items


def attributes(obj):
    return {k: (v.decode() if isinstance(v, bytes) else v) for k, v in obj.attrs.items()}


def assert_same_h5(first, second):
    """Every group, dataset (values, type, shape) and attribute of two HDF5 files, read by h5py."""
    with h5py.File(first, "r") as a, h5py.File(second, "r") as b:
        assert attributes(a) == attributes(b)
        left, right = all_items(a), all_items(b)
        assert sorted(left) == sorted(right)
        for name, x in left.items():
            y = right[name]
            assert type(x) is type(y), name
            assert attributes(x).keys() == attributes(y).keys(), name
            for key, value in attributes(x).items():
                assert np.array_equal(value, attributes(y)[key]), (name, key)
            if isinstance(x, h5py.Dataset):
                assert x.dtype == y.dtype and x.shape == y.shape, name
                assert np.array_equal(x[()], y[()], equal_nan=x.dtype.kind == "f"), name


def test_read_write_keeps_every_group_of_a_grown_network(lj38, tmp_path):
    # `pathsample grow` runs optim's connect from the imported database: the result has
    # /endpoints, /growth and Hessian spectra (new points) beside NaN rows (imported points).
    # With A = minimum 1 and B = minimum 2 UNTRAP's first pair (7, 9) adds a minimum and two ts.
    pathsample = lj38[0]
    database = import_lj38(pathsample, tmp_path, 1, 2)
    run(pathsample, "grow", "--database", database, "--output", tmp_path / "grow",
        "--cycles", "1", "--pair-selection", "untrap", "--untrap-increment", "0.035",
        "--untrap-threshold", "3.0")
    grown = tmp_path / "grow/network.h5"
    with h5py.File(grown, "r") as f:
        assert {"endpoints/a", "growth/tried_pairs", "minima/hessian_eigenvalues",
                "transition_states/hessian_eigenvalues"} <= set(all_items(f))
    network = Network.read(grown)
    assert network.growth["cycles"] == 1 and network.growth["tried_pairs"].shape == (1, 2)
    spectra = network.minima_hessian_eigenvalues
    assert spectra.shape == (network.minima_count, 3 * 38)
    assert np.isnan(spectra[0]).all() and np.isfinite(spectra[-1]).all()
    network.write(tmp_path / "copy.h5")
    assert_same_h5(grown, tmp_path / "copy.h5")
    # a growth record edited in Python is checked before it is written
    bad = Network({**network.data, "growth": {"cycles": 1, "tried_pairs": [[0, 99]]}})
    with pytest.raises(ValueError, match=r"'growth.tried_pairs' row 0 holds 99, not an integer"):
        bad.write(tmp_path / "bad.h5")
    assert not (tmp_path / "bad.h5").exists()
    # and the copy is a database pathsample reads with the same rates
    assert Network.read(tmp_path / "copy.h5").rates(0.2)["k_ab"] == network.rates(0.2)["k_ab"]


def test_read_write_keeps_every_group_of_an_optim_network(tmp_path):
    optim = program("optim")
    lj, a, b = lj7_minima()
    for name, x in (("a.xyz", a), ("b.xyz", b)):
        lines = ["7", name] + [f"LJ {p[0]:.12f} {p[1]:.12f} {p[2]:.12f}" for p in x]
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    run(optim, "--start", "a.xyz", "--finish", "b.xyz", "--database", "network.h5", "--quiet",
        cwd=tmp_path)
    Network.read(tmp_path / "network.h5").write(tmp_path / "copy.h5")
    assert_same_h5(tmp_path / "network.h5", tmp_path / "copy.h5")


def harmonic_rate(network, m, t, kT):
    """k(m -> other end of transition state t) by the harmonic formula (docs/pathsample.md)."""
    return (network.minima_point_group_order[m] / (2 * np.pi * network.ts_point_group_order[t])
            * np.exp((network.minima_log_product[m] - network.ts_log_product[t]) / 2)
            * np.exp(-(network.ts_energy[t] - network.minima_energy[m]) / kT))


def independent_log_product(lj, x, h=1e-4):
    """ln of the product of the positive Hessian eigenvalues (the six zero modes and, at a
    transition state, the negative one left out) from central differences of the gradient."""
    hessian = finite_difference_hessian(lambda y: lj.energy_gradient(y)[1], x, h)
    values = np.linalg.eigvalsh(hessian)
    return np.sum(np.log(values[values > 1e-3])), values


def test_connect_characterises_like_optim_and_pathsample_accepts_it(tmp_path):
    pathsample = program("pathsample")
    lj, a, b = lj7_minima()
    plain = landscape.connect(lj, a, b)
    assert np.isnan(plain.minima_log_product).all()
    with pytest.raises(ValueError, match="has no log product"):
        plain.rates(0.3)

    network = landscape.connect(lj, a, b, characterise=True)
    assert list(network.set_a) == [0] and list(network.set_b) == [1]
    # point groups: pentagonal bipyramid D5h (order 20), capped octahedron C3v (6)
    assert list(network.minima_point_group_order[:2]) == [20, 6]
    assert np.all(network.ts_point_group_order >= 1)
    for x, log_product, index in [(network.minima_coordinates[i], network.minima_log_product[i],
                                   0) for i in range(network.minima_count)] + \
                                 [(network.ts_coordinates[t], network.ts_log_product[t], 1)
                                  for t in range(network.ts_count)]:
        expected, values = independent_log_product(lj, x)
        assert np.sum(values < -1e-3) == index  # minima have no negative mode, ts one
        assert log_product == pytest.approx(expected, abs=1e-4)

    # the harmonic rates of a two-minimum network by hand (one transition state joins them)
    kT = 0.3
    r = network.rates(kT)
    assert network.minima_count == 2 and network.ts_count == 1
    assert r["k_ab"] == pytest.approx(harmonic_rate(network, 1, 0, kT), rel=1e-10)
    assert r["k_ba"] == pytest.approx(harmonic_rate(network, 0, 0, kT), rel=1e-10)

    # written, the network is what `pathsample rates` needs, and gives the same rates
    network.write(tmp_path / "python.h5")
    run(pathsample, "rates", "--database", tmp_path / "python.h5", "--directory", tmp_path,
        "--temperature", "0.3,0.5")
    table = fortran_table(tmp_path / "NGT.rates.new")
    for row in table:
        r = network.rates(row[0])
        assert r["k_ab"] == pytest.approx(row[1], rel=1e-9)
        assert r["k_ba"] == pytest.approx(row[2], rel=1e-9)

    # optim characterises the same endpoints to the same numbers
    optim = program("optim")
    for name, x in (("a.xyz", a), ("b.xyz", b)):
        lines = ["7", name] + [f"LJ {p[0]:.12f} {p[1]:.12f} {p[2]:.12f}" for p in x]
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    run(optim, "--start", "a.xyz", "--finish", "b.xyz", "--database", "optim.h5", "--quiet",
        cwd=tmp_path)
    by_optim = Network.read(tmp_path / "optim.h5")
    for m in (0, 1):
        assert by_optim.minima_log_product[m] == pytest.approx(network.minima_log_product[m],
                                                               abs=1e-6)
        assert by_optim.minima_point_group_order[m] == network.minima_point_group_order[m]


def test_connect_characterisation_arguments_are_checked():
    lj, a, b = lj7_minima()
    with pytest.raises(ValueError, match="symmetry_tolerance must be positive"):
        landscape.connect(lj, a, b, characterise=True, symmetry_tolerance=0.0)
    with pytest.raises(ValueError, match="hessian_backend must be 'cpu' or 'cuda'"):
        landscape.connect(lj, a, b, characterise=True, hessian_backend="gpu")
    with pytest.raises(ValueError, match="spectrum_max_atoms must be >= 0"):
        landscape.connect(lj, a, b, characterise=True, spectrum_max_atoms=-1)


def import_lj38_as_molecule(pathsample, folder, database):
    """The LJ38 files read as a molecule's (kcal/mol, log products of (rad/s)^2) into `database`,
    A = {2}, B = {8}."""
    for name in ("min.data", "ts.data", "points.min", "points.ts"):
        shutil.copy(LJ38 / name, folder / name)
    (folder / "min.A").write_text("1\n2\n")
    (folder / "min.B").write_text("1\n8\n")
    run(pathsample, "import", "--units", "molecular", "--directory", folder, "--database",
        database)


def test_molecular_units_equal_pathsample_molecular_rates(tmp_path):
    # The LJ38 files read as a molecule's: the network says hessian_masses = 'amu', so
    # units='auto' is molecular: temperatures in K, rates in s^-1.
    pathsample = program("pathsample")
    database = tmp_path / "network.h5"
    import_lj38_as_molecule(pathsample, tmp_path, database)
    run(pathsample, "rates", "--units", "molecular", "--database", database, "--directory",
        tmp_path, "--temperature", "298,400")
    network = Network.read(database)
    assert network.metadata["hessian_masses"] == "amu"
    for row in fortran_table(tmp_path / "NGT.rates.new"):
        r = network.rates(row[0])
        assert r["units"] == "molecular" and r["rate_unit"] == "s^-1"
        assert r["kT"] == pytest.approx(row[0] * 8.314462618 / 4184.0, rel=1e-12)
        assert r["k_ab"] == pytest.approx(row[1], rel=1e-9)
        assert r["k_ba"] == pytest.approx(row[2], rel=1e-9)
    # the same network in reduced units is another number: the units are not ignored
    assert network.rates(298, units="reduced")["k_ab"] != pytest.approx(network.rates(298)["k_ab"])


def test_molecular_rates_do_not_depend_on_the_energy_unit(tmp_path):
    """The LJ38 network of the test above written in kJ/mol (TIP4P water's unit): energies x 4.184,
    each log product of n squared frequencies plus n ln 4.184 (3N - 6 at a minimum, 3N - 7 at a
    transition state). With units='auto' its rates take kJ/mol's constants and equal the
    kcal/mol network's; reduced units would misread kJ/mol and are refused."""
    pathsample = program("pathsample")
    kcal = tmp_path / "kcal.h5"
    import_lj38_as_molecule(pathsample, tmp_path, kcal)
    kj = tmp_path / "kj.h5"
    shutil.copy(kcal, kj)
    modes = 3 * 38 - 6
    with h5py.File(kj, "r+") as f:
        f.attrs["energy_unit"] = "kJ/mol"
        for group, n in (("minima", modes), ("transition_states", modes - 1)):
            f[group]["energy"][...] = f[group]["energy"][...] * 4.184
            f[group]["log_product_frequencies"][...] = (
                f[group]["log_product_frequencies"][...] + n * math.log(4.184))
    a, b = Network.read(kcal), Network.read(kj)
    for t in (298.0, 400.0):
        ra, rb = a.rates(t), b.rates(t)
        assert rb["kT"] == pytest.approx(t * 8.314462618 / 1000.0, rel=1e-12)
        assert rb["k_ab"] == pytest.approx(ra["k_ab"], rel=1e-9)
        assert rb["k_ba"] == pytest.approx(ra["k_ba"], rel=1e-9)
    with pytest.raises(ValueError, match="kJ/mol; its kinetics need units='molecular'"):
        b.rates(298.0, units="reduced")
    # pathsample reads it alike
    run(pathsample, "rates", "--units", "molecular", "--database", kj, "--directory", tmp_path,
        "--temperature", "298")
    row = fortran_table(tmp_path / "NGT.rates.new")[0]
    assert row[1] == pytest.approx(a.rates(298.0)["k_ab"], rel=1e-9)


def rigid_body_projector(x, masses):
    """I - Q Q^T with Q the six translations and rotations of mass-weighted coordinates."""
    root = np.repeat(np.sqrt(masses), 3)
    centre = np.average(x, axis=0, weights=masses)
    vectors = []
    for k in range(3):
        t = np.zeros_like(x)
        t[:, k] = 1
        vectors.append(t.reshape(-1) * root)
        r = np.cross(np.eye(3)[k], x - centre)
        vectors.append(r.reshape(-1) * root)
    q, _ = np.linalg.qr(np.array(vectors).T)
    return np.eye(x.size) - q @ q.T


def prmtop_masses(path):
    """%FLAG MASS of an AMBER prmtop (amu), read here without the library."""
    lines = pathlib.Path(path).read_text().splitlines()
    start = lines.index(next(line for line in lines if line.startswith("%FLAG MASS"))) + 2
    values = []
    for line in lines[start:]:
        if line.startswith("%"):
            break
        values += [float(line[i:i + 16]) for i in range(0, len(line.rstrip()), 16)]
    return np.array(values)


def test_characterise_a_molecule_with_its_masses_as_optim():
    # ash (25 atoms, AMBER-GB): the mass-weighted Hessian's log product against numpy (central
    # differences of the gradient, rigid-body modes projected out of mass-weighted coordinates).
    prmtop = DATA / "gb/ash/ash.parm7"
    amber = landscape.amber_gb(str(prmtop), igb=2)
    x, result = landscape.minimise(amber, landscape.read_inpcrd(str(DATA / "gb/ash/ash.rst7")),
                                   landscape.LbfgsParams(rms_tolerance=1e-7,
                                                         max_iterations=20000))
    assert result.converged
    masses = prmtop_masses(prmtop)
    assert masses.size == 25
    h = 1e-4
    flat = x.reshape(-1)
    hessian = np.zeros((flat.size, flat.size))
    for i in range(flat.size):
        plus, minus = flat.copy(), flat.copy()
        plus[i] += h
        minus[i] -= h
        hessian[i] = (amber.energy_gradient(plus)[1] - amber.energy_gradient(minus)[1]) / (2 * h)
    root = np.repeat(np.sqrt(masses), 3)
    weighted = (hessian + hessian.T) / 2 / np.outer(root, root)
    projector = rigid_body_projector(x, masses)
    values = np.linalg.eigvalsh(projector @ weighted @ projector)
    values = values[np.argsort(np.abs(values))][6:]  # the six projected modes are zero
    assert np.all(values > 0)
    got = landscape.characterise(amber, x, prmtop=str(prmtop), symmetry_tolerance=1e-2)
    assert got["hessian_masses"] == "amu" and got["point_group_order"] == 1
    assert got["log_product"] == pytest.approx(np.sum(np.log(values)), abs=1e-4)
    unit = landscape.characterise(amber, x)
    assert unit["hessian_masses"] == "unit"
    assert abs(unit["log_product"] - got["log_product"]) > 10  # the masses are used
    assert len(got["hessian_eigenvalues"]) == 75
    with pytest.raises(ValueError, match="x has shape"):
        landscape.characterise(amber, x[:-1])


def test_characterise_refuses_what_has_no_harmonic_well():
    lj, a, _ = lj7_minima()
    got = landscape.characterise(lj, a)
    assert got["point_group_order"] == 20 and got["hessian_masses"] == "unit"
    assert np.sum(got["hessian_eigenvalues"] < -1e-3) == 0
    moved = a.copy()
    moved[0, 0] += 0.05  # one atom out of place (a translation of all would still be a minimum)
    with pytest.raises(ValueError, match=r"x is not a stationary point: its RMS gradient is"):
        landscape.characterise(lj, moved)
    rigid = landscape.rigid_bodies(lj, [[0, 1, 2], [3, 4, 5, 6]], a)
    with pytest.raises(ValueError, match="characterise needs an atomistic potential"):
        landscape.characterise(rigid, np.zeros(rigid.dimension))
    with pytest.raises(ValueError, match="characterise: symmetry_tolerance must be positive"):
        landscape.characterise(lj, a, symmetry_tolerance=-1)
    with pytest.raises(RuntimeError, match="nothing.parm7"):
        landscape.characterise(lj, a, prmtop="nothing.parm7")
