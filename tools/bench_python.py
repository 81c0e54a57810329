#!/usr/bin/env python3
"""Binding overhead of the Python module: energy + gradient of LJ38 (reduced units)
called from Python against the same call in a C++ loop, on one potential object and one x.

Usage: PYTHONPATH=build/python python3 tools/bench_python.py [--calls N] [--repeats R]
Prints a Markdown table (microseconds per call; best of R repeats of N calls each) for
docs/benchmarks.md. Target: under 2 us extra per call."""
import argparse
import time

import numpy as np

import landscape


def per_call(function, calls, repeats):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            function()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    x = rng.uniform(-1.6, 1.6, size=(38, 3))
    lj = landscape.lennard_jones(38)
    out = np.empty_like(x)
    cpp = min(landscape._landscape.time_energy_gradient(lj, x, args.calls)
              for _ in range(args.repeats))
    rows = [("C++ loop (Potential::energyGradient)", cpp),
            ("Python: lj.energy_gradient(x, out=g)",
             per_call(lambda: lj.energy_gradient(x, out=out), args.calls, args.repeats)),
            ("Python: lj.energy_gradient(x) (new gradient array)",
             per_call(lambda: lj.energy_gradient(x), args.calls, args.repeats)),
            ("Python: lj.energy(x)", per_call(lambda: lj.energy(x), args.calls, args.repeats))]
    print(f"LJ38 energy + gradient, {args.calls} calls, best of {args.repeats}; "
          f"landscape {landscape.__version__}")
    print("| call | us per call | extra over C++ (us) |")
    print("|---|---|---|")
    for name, seconds in rows:
        extra = "" if "energy_gradient" not in name else f"{(seconds - cpp) * 1e6:.2f}"
        print(f"| {name} | {seconds * 1e6:.2f} | {extra} |")


if __name__ == "__main__":
    main()
