"""matplotlib figures of landscape.plots: what is drawn is the data (segments of the layout,
curve columns), axis titles carry units, and the command line writes PNG, PDF and SVG."""
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.image  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import landscape  # noqa: E402
from conftest import DATA, program  # noqa: E402
from landscape import plots  # noqa: E402
from landscape.network import Network, read_minima_list  # noqa: E402

UNTRAP = DATA / "lj38/pathsample-untrap/expected_output"


def python_plots(*args, cwd):
    package_parent = os.path.dirname(os.path.dirname(landscape.__file__))
    env = dict(os.environ, PYTHONPATH=package_parent)
    return subprocess.run([sys.executable, "-m", "landscape.plots", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, env=env)


def test_disconnectivity_graph_draws_the_layout_with_dinfo_options():
    network = Network.from_pathsample(UNTRAP)
    a, b = read_minima_list(UNTRAP / "min.A"), read_minima_list(UNTRAP / "min.B")
    # dinfo of the wales-group example: DELTA 0.2, FIRST -168.5, LEVELS 29, IDMIN 2 and 8.
    fig = plots.disconnectivity(network, levels=29, first=-168.5, delta=0.2,
                                colour_sets={"A": a, "B": b}, label_minima=[1, 7])
    ax = fig.axes[0]
    layout = network.disconnectivity(levels=28, top=-168.5, spacing=0.2)
    assert np.allclose(layout["levels"], -168.5 - 0.2 * np.arange(29))
    drawn = [line for line in ax.get_lines() if len(line.get_xdata()) == 2]
    assert len(drawn) == len(layout["segments"])
    for line, (x0, e0, x1, e1) in zip(drawn, layout["segments"]):
        assert list(line.get_xdata()) == [x0, x1] and list(line.get_ydata()) == [e0, e1]
    # Below the level where it parts from the rest, the global minimum (minimum 2, set A) has a
    # line of its own down to its energy, coloured as set A; lines above it are black (they hold
    # minima of no set as well).
    alone = [k for k, m in enumerate(layout["segment_minima"]) if m == [1]]
    assert all(drawn[k].get_color() == plots.SET_COLOURS[0] for k in alone)
    assert min(drawn[k].get_ydata()[1] for k in alone) == pytest.approx(-173.928426590627964)
    assert drawn[0].get_color() == "black"
    assert ax.get_ylabel() == r"Energy / $\epsilon$"
    assert sorted(t.get_text() for t in ax.texts) == ["2", "8"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["A (1 minimum)",
                                                                  "B (1 minimum)"]
    # The title says how many of the network's minima are drawn, not the drawn beside all TS.
    assert ax.get_title() == (f"Disconnectivity graph: {len(layout['minima'])} of "
                              f"{len(network.minima_energy)} minima drawn, network of "
                              f"{network.ts_count} transition states, 29 levels")


def test_every_drawn_minimum_has_a_line_ending_at_its_energy():
    network = Network.from_pathsample(UNTRAP)
    layout = network.disconnectivity(levels=30)
    ends = {m[0] for m, (_, _, _, e1) in zip(layout["segment_minima"], layout["segments"])
            if len(m) == 1 and e1 == network.minima_energy[m[0]]}
    assert ends == set(layout["minima"]) and 1 in ends  # 1: the global minimum


def test_disconnectivity_command_line_writes_png_pdf_svg(tmp_path):
    for suffix in ("png", "pdf", "svg"):
        out = tmp_path / f"tree.{suffix}"
        run = python_plots("disconnectivity", "--pathsample", UNTRAP, "--levels", 29, "--first",
                           -168.5, "--delta", 0.2, "--trmin", UNTRAP / "min.A", UNTRAP / "min.B",
                           "--idmin", 2, 8, "-o", out, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        assert out.stat().st_size > 1000
    assert matplotlib.image.imread(tmp_path / "tree.png").shape[2] in (3, 4)
    assert (tmp_path / "tree.pdf").read_bytes().startswith(b"%PDF")
    assert b"<svg" in (tmp_path / "tree.svg").read_bytes()[:2000]


def test_command_line_errors_are_one_line_and_nonzero(tmp_path):
    run = python_plots("disconnectivity", tmp_path / "none.h5", "-o", tmp_path / "x.png",
                       cwd=tmp_path)
    assert run.returncode == 1 and "none.h5" in run.stderr
    (tmp_path / "curve.dat").write_text("# header\n1 2 3\n")
    run = python_plots("force-curve", tmp_path / "curve.dat", "-o", tmp_path / "c.png",
                       cwd=tmp_path)
    assert run.returncode == 1 and "curve.dat:2: expected 6 columns" in run.stderr


def write_curve(path, kind="extension_A"):
    t = np.linspace(0, 5000, 51)
    rows = np.column_stack([t, np.sin(t / 800), 69.48 * np.sin(t / 800), 40 + t / 50,
                            45 + t / 50, 1 - t / 6000])
    header = f"# sop test\n# time_ps force_kcal_mol_A force_pN {kind} tip_A Q\n"
    path.write_text(header + "\n".join(" ".join(f"{v:.6f}" for v in r) for r in rows) + "\n")
    return rows


def test_force_curve_plots_the_file_columns_with_units(tmp_path):
    rows = write_curve(tmp_path / "force_curve_0.dat")
    fig = plots.force_curve([tmp_path / "force_curve_0.dat"])
    top, q_axis = fig.axes[0], fig.axes[2]
    force = top.get_lines()[0]
    assert np.allclose(force.get_xdata(), rows[:, 3]) and np.allclose(force.get_ydata(),
                                                                       rows[:, 2])
    assert np.allclose(q_axis.get_lines()[0].get_ydata(), rows[:, 5])
    assert top.get_xlabel() == "extension / Å" and top.get_ylabel() == "force / pN"
    bottom = fig.axes[1]
    assert np.allclose(bottom.get_lines()[0].get_xdata(), rows[:, 0] / 1000)
    assert bottom.get_xlabel() == "time / ns"
    write_curve(tmp_path / "indent.dat", kind="Z_A")
    fig = plots.force_curve([tmp_path / "indent.dat"])
    assert fig.axes[0].get_xlabel() == "cantilever displacement Z / Å"


def test_history_and_trace_from_a_real_gmin_run(tmp_path):
    (tmp_path / "h.csv").write_text("impl,m,avg_seconds\ncpu,4,0.5\ncpu,8,0.7\ngpu1,4,0.1\n")
    fig = plots.history(tmp_path / "h.csv")
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == [
        "CPU", "GPU impl. 1 (all on GPU)"]
    assert "history size" in fig.axes[0].get_xlabel()
    assert fig.axes[0].get_yscale() == "log"  # 0.1 to 0.7 s: a factor of 7
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["4", "8"]
    # Times within 1.5x: a linear axis with plain numbers, and a flat curve flagged as noise.
    (tmp_path / "n.csv").write_text("impl,m,avg_seconds\ncpu,4,0.081\ncpu,8,0.083\n"
                                    "cpu,16,0.080\ngpu1,4,0.09\ngpu1,8,0.12\n")
    fig = plots.history(tmp_path / "n.csv", title="LJ38, 20 starts")
    assert fig.axes[0].get_yscale() == "linear" and fig.axes[0].get_title() == "LJ38, 20 starts"
    assert any("CPU: all within 4% of each other: timing noise" in t.get_text()
               for t in fig.texts)
    assert not any("GPU" in t.get_text() for t in fig.texts)
    # Repeated timings: error bars of their standard deviation; a curve whose differences lie
    # within them is flagged too.
    (tmp_path / "e.csv").write_text("impl,m,avg_seconds,std_seconds\ncpu,4,0.08,0.02\n"
                                    "cpu,8,0.11,0.02\ngpu1,4,0.05,0.001\ngpu1,8,0.5,0.002\n")
    fig = plots.history(tmp_path / "e.csv")
    assert len(fig.axes[0].collections) == 2  # one set of vertical error bars per curve
    assert any("CPU: the differences lie within the error bars" in t.get_text()
               for t in fig.texts)
    assert not any("GPU" in t.get_text() for t in fig.texts)
    gmin = program("gmin")
    log = tmp_path / "gmin.log"
    with open(log, "w") as out:
        subprocess.run([str(gmin), "--lj", "13", "--steps", "50", "--seed", "3", "--walkers", "1",
                        "--output",
                        str(tmp_path / "run")], stdout=out, check=True)
    quench, energy, markov = plots.read_gmin_log(log)
    assert list(quench) == list(range(0, 51))
    assert energy.min() == pytest.approx(-44.3268, abs=1e-3)
    run = python_plots("trace", log, "-o", tmp_path / "trace.png", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    fig = plots.energy_trace(quench, energy, markov)
    lowest = [line for line in fig.axes[0].get_lines() if line.get_label() == "lowest so far"]
    assert lowest[0].get_ydata()[-1] == energy.min()
