"""Figures with matplotlib: disconnectivity graphs, force-extension/indentation curves with Q,
L-BFGS history-size curves and basin-hopping energy traces. Every axis has a title with units.

From Python each function returns a matplotlib Figure (save it with fig.savefig: the format
follows the suffix, .png, .pdf or .svg). From the shell:

  python3 -m landscape.plots disconnectivity network.h5 -o tree.pdf --levels 29 --first -168.5 \\
      --delta 0.2 --trmin min.A min.B --idmin 2 8
  python3 -m landscape.plots disconnectivity --pathsample DIR -o tree.png    # min.data, ts.data
  python3 -m landscape.plots force-curve sop-out/force_curve_0.dat -o curve.png
  python3 -m landscape.plots history bench_history.csv -o history.png
  python3 -m landscape.plots trace gmin.log -o trace.png          # gmin's stdout ("Qu ..." lines)
"""
import argparse
import os
import re
import sys

import numpy as np

SET_COLOURS = ["tab:red", "tab:blue", "tab:green", "tab:orange", "tab:purple", "tab:cyan"]


def _pyplot():
    import matplotlib

    if matplotlib.get_backend().lower() not in ("agg", "pdf", "svg") and not os.environ.get(
            "DISPLAY"):
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def energy_label(unit):
    """'Energy / epsilon' style axis titles from a database unit string."""
    if unit.startswith("reduced"):
        return r"Energy / $\epsilon$"
    return f"Energy / {unit.replace('kcal/mol', 'kcal mol$^{-1}$')}"


# ---- disconnectivity graphs ----
def disconnectivity(network, levels=20, first=None, delta=None, all_minima=False,
                    colour_sets=None, label_minima=(), identify=False, ax=None, title=None):
    """Disconnectivity graph of a landscape.network.Network (Becker and Karplus 1997; Wales,
    Miller and Walsh 1998), with dinfo's options:

    levels (LEVELS): number of energy levels; first (FIRST): energy of the top level, default
    just above the highest transition state; delta (DELTA): energy between levels, default
    (first - lowest minimum) / (levels - 1); all_minima: also minima not connected to the global
    minimum; colour_sets (TRMIN): {label: [0-based minima]}: a line whose minima all belong to
    one set is drawn in its colour; label_minima (IDMIN): 0-based minima to label with their
    1-based number (PATHSAMPLE's numbering); identify (IDENTIFY): label every minimum.
    Returns the Figure; energies on the vertical axis in the network's unit.
    """
    plt = _pyplot()
    if levels < 2:
        raise ValueError("disconnectivity: levels must be >= 2 (the top one and at least one more)")
    layout = network.disconnectivity(levels=levels - 1, top=first, spacing=delta,
                                     all_minima=all_minima)
    fig, ax = (ax.figure, ax) if ax is not None else plt.subplots(figsize=(7, 5))
    colour_of = _segment_colours(layout["segment_minima"], colour_sets or {})
    for (x0, e0, x1, e1), colour in zip(layout["segments"], colour_of):
        ax.plot([x0, x1], [e0, e1], color=colour, lw=0.8 if colour == "black" else 1.2)
    for k, (label, members) in enumerate((colour_sets or {}).items()):
        count = f"{len(members)} minim{'um' if len(members) == 1 else 'a'}"
        ax.plot([], [], color=SET_COLOURS[k % len(SET_COLOURS)], label=f"{label} ({count})")
    energies = network.data["minima_energy"]
    x_of = dict(zip(layout["minima"], layout["minimum_x"]))
    labelled = list(x_of) if identify else [m for m in label_minima if m in x_of]
    spread = layout["levels"][0] - layout["lowest_energy"]
    for m in labelled:
        ax.annotate(str(m + 1), (x_of[m], energies[m]), xytext=(0, -2), textcoords="offset points",
                    ha="center", va="top", fontsize=7)
    ax.set_ylim(layout["lowest_energy"] - 0.05 * spread, layout["levels"][0] + 0.02 * spread)
    ax.set_xticks([])
    ax.set_xlim(0, 1)
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    ax.set_ylabel(energy_label(network.energy_unit))
    # Drawn minima against the network's: the transition states are the network's own count.
    drawn, total = len(layout["minima"]), len(energies)
    ax.set_title(title or f"Disconnectivity graph: {drawn} of {total} minima drawn, "
                          f"network of {network.ts_count} transition states, {levels} levels",
                 fontsize=10)
    if colour_sets:
        ax.legend(loc="lower right", frameon=False)
    fig.tight_layout()
    return fig


def _segment_colours(segment_minima, colour_sets):
    set_of = {}
    for k, members in enumerate(colour_sets.values()):
        for m in members:
            set_of.setdefault(m, k)
    colours = []
    for minima in segment_minima:
        sets = {set_of.get(m, -1) for m in minima}
        k = sets.pop() if len(sets) == 1 else -1
        colours.append("black" if k < 0 else SET_COLOURS[k % len(SET_COLOURS)])
    return colours


# ---- force curves (sop) ----
def read_force_curve(path):
    """A sop force_curve_<r>.dat: columns time (ps), force (kcal/mol/A), force (pN), extension or
    cantilever displacement Z (A), tip (A), Q. Returns (dict of arrays, 'extension' or 'Z')."""
    names = ("time_ps", "force_kcal", "force_pN", "x", "tip", "q")
    rows, kind = [], "extension"
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if line.startswith("#"):
                kind = "Z" if " Z_A " in line else kind
                continue
            if not line.strip():
                continue
            fields = line.split()
            if len(fields) != 6:
                raise ValueError(f"{path}:{number}: expected 6 columns (time force_kcal "
                                 f"force_pN x tip Q), found {len(fields)}")
            rows.append([float(v) for v in fields])
    if len(rows) < 2:
        raise ValueError(f"{path}: fewer than 2 data lines")
    table = np.array(rows)
    return {n: table[:, k] for k, n in enumerate(names)}, kind


def force_curve(paths, labels=None, title=None):
    """Force-extension (pulling) or force-displacement (indentation) curves of sop runs with the
    fraction of native contacts Q: top, force in pN against extension (or cantilever base
    displacement Z) in Angstrom with Q on the right axis; bottom, Q against time in ns."""
    plt = _pyplot()
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), height_ratios=(2, 1))
    q_axis = top.twinx()
    kind = "extension"
    for k, path in enumerate(paths):
        curve, kind = read_force_curve(path)
        label = labels[k] if labels else os.path.basename(path)
        colour = plt.cm.Blues(0.9 - 0.5 * k / max(1, len(paths)))
        top.plot(curve["x"], curve["force_pN"], color=colour, lw=1, label=f"force, {label}")
        q_colour = plt.cm.Reds(0.9 - 0.5 * k / max(1, len(paths)))
        q_axis.plot(curve["x"], curve["q"], color=q_colour, lw=1, label=f"Q, {label}")
        bottom.plot(curve["time_ps"] / 1000.0, curve["q"], color=q_colour, lw=1, label=label)
    top.set_xlabel("extension / Å" if kind == "extension" else "cantilever displacement Z / Å")
    top.set_ylabel("force / pN")
    q_axis.set_ylabel("Q (fraction of native contacts)")
    q_axis.set_ylim(0, 1.05)
    lines = top.get_legend_handles_labels()
    more = q_axis.get_legend_handles_labels()
    top.legend(lines[0] + more[0], lines[1] + more[1], loc="upper right", fontsize=8,
               frameon=False)
    bottom.set_xlabel("time / ns")
    bottom.set_ylabel("Q")
    bottom.set_ylim(0, 1.05)
    top.set_title(title or ("Force-extension curve" if kind == "extension"
                            else "Indentation force curve"))
    fig.tight_layout()
    return fig


# ---- L-BFGS history size (tools/bench_history) ----
def history(csv_path, title=None):
    """bench_history's CSV (columns impl, m, avg_seconds, and std_seconds when it timed each
    batch more than once): average minimisation time against the L-BFGS history size m, one line
    per implementation, with error bars of one standard deviation over the timings. The m axis is
    logarithmic (base 2, the values of m as ticks); the time axis is logarithmic only when the
    times span more than a factor of 3, else linear with plain numbers. A curve whose times all
    lie within 10% of their mean, or within its own error bars, is flagged in the figure as
    timing noise rather than a trend."""
    import csv

    from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

    plt = _pyplot()
    series = {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            spread = float(row.get("std_seconds") or 0.0)
            series.setdefault(row["impl"], []).append(
                (int(row["m"]), float(row["avg_seconds"]), spread))
    names = {"gpu1": "GPU impl. 1 (all on GPU)", "gpu2": "GPU impl. 2 (potential on GPU)",
             "cpu": "CPU"}
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    notes = []
    for impl, points in series.items():
        points.sort()
        times = np.array([t for _, t, _ in points])
        errors = np.array([e for _, _, e in points])
        label = names.get(impl, impl)
        ax.errorbar([m for m, _, _ in points], times, yerr=errors if errors.any() else None,
                    fmt="o-", capsize=3, label=label)
        if len(times) < 2:
            continue
        spread = 100.0 * (times.max() - times.min()) / times.mean()
        if np.all(np.abs(times - times.mean()) <= 0.1 * times.mean()):
            notes.append(f"{label}: all within {spread:.0f}% of each other: timing noise, not a "
                         "trend")
        elif errors.any() and times.max() - times.min() <= 2.0 * errors.max():
            notes.append(f"{label}: the differences lie within the error bars: timing noise, "
                         "not a trend")
    all_m = sorted({m for points in series.values() for m, _, _ in points})
    all_t = np.array([t + e for points in series.values() for _, t, e in points])
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(all_m))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(ScalarFormatter())
    if all_t.size and all_t.min() > 0 and all_t.max() / all_t.min() > 3.0:
        ax.set_yscale("log")
    else:
        ax.set_ylim(0.0, 1.15 * all_t.max() if all_t.size else 1.0)
        ax.yaxis.set_major_formatter(ScalarFormatter(useOffset=False))
    ax.set_xlabel("L-BFGS history size m (stored pairs)")
    ax.set_ylabel("average minimisation time / s")
    ax.set_title(title or "Minimisation time against history size")
    ax.legend(loc="best")
    if notes:
        fig.text(0.01, 0.01, "\n".join(notes), fontsize=7, color="0.35", va="bottom")
        fig.tight_layout(rect=(0, 0.04 * len(notes) + 0.02, 1, 1))
    else:
        fig.tight_layout()
    return fig


# ---- basin-hopping energy traces ----
QUENCH_LINE = re.compile(r"^Qu\s+(\d+)\s+E=\s*(\S+)\s+steps=\s*\d+\s+RMS=\s*\S+\s+"
                         r"Markov E=\s*(\S+)")


def read_gmin_log(path):
    """gmin's progress lines ('Qu N E= ... Markov E= ...') as arrays quench, energy, markov."""
    rows = []
    with open(path) as f:
        for line in f:
            match = QUENCH_LINE.match(line)
            if match:
                rows.append([float(v) for v in match.groups()])
    if not rows:
        raise ValueError(f"{path}: no quench lines ('Qu N E= ... Markov E= ...') found "
                         "(a single chain prints them: gmin --walkers 1)")
    table = np.array(rows)
    return table[:, 0], table[:, 1], table[:, 2]


def energy_trace(quench, energy, markov_energy=None, energy_unit="reduced (epsilon)",
                 title=None):
    """Basin-hopping trace: every quench's energy, the Markov chain's energy and the lowest
    energy found so far, against the quench number. The reports of landscape.basin_hopping's
    on_quench callback give these arrays (quench, energy, markov_energy)."""
    plt = _pyplot()
    quench, energy = np.asarray(quench), np.asarray(energy, dtype=float)
    fig, ax = plt.subplots(figsize=(7, 4))
    finite = np.isfinite(energy)
    ax.plot(quench[finite], energy[finite], ".", ms=2, color="0.6", label="quenched energy")
    if markov_energy is not None:
        ax.plot(quench, markov_energy, "-", lw=0.8, color="tab:blue", label="Markov chain")
    ax.plot(quench[finite], np.minimum.accumulate(energy[finite]), "-", color="tab:red",
            label="lowest so far")
    ax.set_xlabel("quench")
    ax.set_ylabel(energy_label(energy_unit))
    ax.set_title(title or "Basin-hopping energy trace")
    ax.legend(frameon=False)
    fig.tight_layout()
    return fig


# ---- command line ----
def _parser():
    p = argparse.ArgumentParser(prog="python3 -m landscape.plots", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("disconnectivity", help="disconnectivity graph of a network")
    d.add_argument("database", nargs="?", help="HDF5 network (optim's network.h5)")
    d.add_argument("--pathsample", metavar="DIR", help="read DIR/min.data and DIR/ts.data instead")
    d.add_argument("--levels", type=int, default=20, help="LEVELS: number of levels (20)")
    d.add_argument("--first", type=float, help="FIRST: energy of the top level (energy unit)")
    d.add_argument("--delta", type=float, help="DELTA: energy between levels (energy unit)")
    d.add_argument("--all", action="store_true", help="also minima not connected to the lowest")
    d.add_argument("--trmin", nargs="+", default=[], metavar="FILE",
                   help="TRMIN: colour minima lists (PATHSAMPLE min.A/min.B format)")
    d.add_argument("--idmin", nargs="+", type=int, default=[], metavar="N",
                   help="IDMIN: label these minima (1-based)")
    d.add_argument("--identify", action="store_true", help="IDENTIFY: label every minimum")
    f = sub.add_parser("force-curve", help="sop force curves with Q")
    f.add_argument("curves", nargs="+", help="force_curve_<r>.dat files")
    h = sub.add_parser("history", help="bench_history CSV")
    h.add_argument("csv")
    t = sub.add_parser("trace", help="basin-hopping energy trace from gmin's stdout")
    t.add_argument("log")
    t.add_argument("--energy-unit", default="reduced (epsilon)")
    for s in (d, f, h, t):
        s.add_argument("-o", "--output", required=True,
                       help="image to write: .png, .pdf or .svg")
        s.add_argument("--title", help="figure title")
        s.add_argument("--dpi", type=int, default=150, help="PNG resolution (150)")
    return p


def _network_figure(args):
    from .network import Network, read_minima_list

    if bool(args.database) == bool(args.pathsample):
        raise ValueError("give either DATABASE or --pathsample DIR")
    network = (Network.from_pathsample(args.pathsample) if args.pathsample
               else Network.read(args.database))
    sets = {os.path.basename(path): read_minima_list(path) for path in args.trmin}
    return disconnectivity(network, levels=args.levels, first=args.first, delta=args.delta,
                           all_minima=args.all, colour_sets=sets,
                           label_minima=[n - 1 for n in args.idmin], identify=args.identify,
                           title=args.title)


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        if args.command == "disconnectivity":
            fig = _network_figure(args)
        elif args.command == "force-curve":
            fig = force_curve(args.curves, title=args.title)
        elif args.command == "history":
            fig = history(args.csv, title=args.title)
        else:
            quench, energy, markov = read_gmin_log(args.log)
            fig = energy_trace(quench, energy, markov, args.energy_unit, title=args.title)
        fig.savefig(args.output, dpi=args.dpi)
    except (OSError, ValueError, RuntimeError) as error:
        print(f"landscape.plots: error: {error}", file=sys.stderr)
        return 1
    print(f"landscape.plots: {args.command} -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
