#!/usr/bin/env python3
"""Batched models written in Python on the GPU (landscape.FunctionBatchedPotential with
device=True, called with the engine's CUDA arrays through DLPack) against the built-in batched
Lennard-Jones, all minimised by the round-based engine on the device (docs/benchmarks.md,
"Potentials written in Python").

Rows, for each batch size B of random LJ starts (GMIN's L-BFGS, RMS 1e-6):
  built-in   landscape.batched_lennard_jones(atoms, backend="cuda"): one fused kernel per round;
  wrapped    the same built-in potential called back through Python on the engine's arrays
             (its device entry, through DLPack): what a device model costs beyond its own
             arithmetic (the trampoline, a device synchronisation, two device copies);
  pytorch    LJ written in PyTorch (tests/python/test_device.py's torch_lennard_jones), when
             PyTorch with CUDA is importable.
Columns: minimisations per second, energy+gradient calls per minimisation, and the rate over the
built-in row's.

  PYTHONPATH=build/python tools/bench_device_model.py --atoms 38 --batches 256,4096
"""
import argparse
import os
import sys
import time

import numpy as np

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SOURCE, "tests", "python"))
import landscape  # noqa: E402


def models(atoms):
    builtin = landscape.batched_lennard_jones(atoms, backend="cuda")
    rows = [("built-in", builtin),
            ("wrapped", landscape.FunctionBatchedPotential(
                lambda x: builtin.energy_gradient(x), atoms=atoms, name="wrapped", device=True))]
    try:
        import torch
        if torch.cuda.is_available():
            from test_device import torch_lennard_jones
            rows.append(("pytorch", landscape.FunctionBatchedPotential(
                torch_lennard_jones(torch), atoms=atoms, name="pytorch", device=True)))
    except ImportError:
        pass
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--atoms", type=int, default=38)
    p.add_argument("--batches", default="256,4096")
    args = p.parse_args()
    if not landscape.cuda.available():
        sys.exit(f"bench_device_model: {landscape.cuda.description()}")
    params = landscape.LbfgsParams(rms_tolerance=1e-6, max_iterations=10000)
    print(f"LJ{args.atoms}, the rounds engine on {landscape.cuda.description()}\n")
    print("| model | B | minimisations/s | calls per minimisation | x built-in |")
    print("|---|---|---|---|---|")
    for batch in (int(b) for b in args.batches.split(",")):
        side = 1.5 * args.atoms ** (1.0 / 3.0)
        starts = np.random.default_rng(1).uniform(-side, side, (batch, args.atoms, 3))
        base = None
        for name, potential in models(args.atoms):
            minimiser = landscape.batched_minimiser_over(potential, params, "rounds")
            begin = time.perf_counter()
            _, report = minimiser.minimise(starts)
            rate = batch / (time.perf_counter() - begin)
            base = base or rate
            print(f"| {name} | {batch} | {rate:,.0f} | {np.mean(report['function_calls']):.0f} | "
                  f"{rate / base:.3f} |", flush=True)


if __name__ == "__main__":
    main()
