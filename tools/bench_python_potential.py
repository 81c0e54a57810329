#!/usr/bin/env python3
"""The cost of an energy function written in Python (landscape.FunctionPotential) per evaluation,
against the library's own potential (docs/benchmarks.md, "Potentials written in Python").

Each row minimises the same LJ38 starts with landscape.minimise (GMIN's L-BFGS, RMS 1e-6):
  builtin   landscape.lennard_jones(38), C++ all the way;
  wrapped   FunctionPotential(lambda x: lj.energy_gradient(x)): the same C++ potential called
            back through Python, so the same iterates; its extra time per evaluation over builtin
            is what a Python potential costs beyond its own arithmetic (target: at most 5 us);
  numpy     FunctionPotential of LJ written in numpy (all pairs, vectorised).
Columns: evaluations, seconds (best of --repeats), microseconds per evaluation, extra over
builtin per evaluation.

  PYTHONPATH=build/python tools/bench_python_potential.py --starts 20 --repeats 5
"""
import argparse
import os
import sys
import time

import numpy as np

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SOURCE, "build", "python"))
sys.path.insert(0, os.path.join(SOURCE, "tests", "python"))
import landscape  # noqa: E402
from numpy_potentials import lennard_jones as numpy_lennard_jones  # noqa: E402


def timed(potential, starts, params, repeats):
    best, calls, energies = float("inf"), 0, []
    for _ in range(repeats):
        begin = time.perf_counter()
        results = [landscape.minimise(potential, x, params)[1] for x in starts]
        best = min(best, time.perf_counter() - begin)
        calls = sum(r.function_calls for r in results)
        energies = [r.energy for r in results]
    return best, calls, energies


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--atoms", type=int, default=38)
    p.add_argument("--starts", type=int, default=20)
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args()
    lj = landscape.lennard_jones(args.atoms)
    rng = np.random.default_rng(1)
    side = (args.atoms / 0.8) ** (1.0 / 3.0)
    starts = [rng.uniform(0.0, side, (args.atoms, 3)) for _ in range(args.starts)]
    params = landscape.LbfgsParams(rms_tolerance=1e-6, max_iterations=20000)
    rows = [("builtin", lj),
            ("wrapped", landscape.FunctionPotential(lambda x: lj.energy_gradient(x),
                                                    atoms=args.atoms, name="wrapped")),
            ("numpy", landscape.FunctionPotential(numpy_lennard_jones, atoms=args.atoms))]
    print(f"LJ{args.atoms}, {args.starts} minimisations from random starts, best of "
          f"{args.repeats}\n")
    print("| potential | evaluations | seconds | us per evaluation | extra over builtin (us) |")
    print("|---|---|---|---|---|")
    base = None
    for name, potential in rows:
        seconds, calls, energies = timed(potential, starts, params, args.repeats)
        per = seconds / calls * 1e6
        if base is None:
            base, base_energies = per, energies
        same = "" if name != "wrapped" or energies == base_energies else " (iterates differ!)"
        print(f"| {name} | {calls} | {seconds:.3f} | {per:.2f} | {per - base:.2f}{same} |")


if __name__ == "__main__":
    main()
