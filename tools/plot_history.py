#!/usr/bin/env python3
"""Plot bench_history's CSV: average minimisation time against history size m, one line per
implementation (log-log). Usage: plot_history.py PREFIX.csv PREFIX.png"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(csv_path, png_path):
    series = {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            series.setdefault(row["impl"], []).append((int(row["m"]), float(row["avg_seconds"])))
    fig, ax = plt.subplots(figsize=(6, 4))
    labels = {"gpu1": "GPU impl. 1 (all on GPU)", "gpu2": "GPU impl. 2 (potential on GPU)",
              "cpu": "CPU"}
    for impl, points in series.items():
        points.sort()
        ax.plot([m for m, _ in points], [t for _, t in points], "o-", label=labels.get(impl, impl))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("history size m")
    ax.set_ylabel("average minimisation time / s")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
