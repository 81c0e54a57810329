#!/usr/bin/env python3
"""Batched models written in Python on the GPU (landscape.FunctionBatchedPotential with
device=True, called with the engine's CUDA arrays through DLPack) against the built-in batched
Lennard-Jones kernel, all driven on the device: the round-based L-BFGS engine minimising random
starts, then gmin's basin-hopping walkers quenched by that engine (docs/benchmarks.md,
"Potentials written in Python").

Rows, for each batch size B (minimisations: B random LJ starts, GMIN's L-BFGS to RMS 1e-6;
walkers: W = B walkers of gmin's LJ cluster defaults for --rounds basin-hopping rounds):
  built-in          landscape.batched_lennard_jones(atoms, backend="cuda"): one fused kernel;
  wrapped, out      the same built-in kernel called back through Python, writing into the
                    engine's arrays (f(X, out)): what the call itself costs beyond the model's
                    arithmetic (the trampoline, DLPack views, two synchronisations);
  pytorch           LJ written in PyTorch, eager, returning new tensors (tests/python/
                    test_device.py's torch_lennard_jones): about ten kernels over (B, N, N, 3)
                    temporaries, plus the copies of its results;
  pytorch compiled  LJ in PyTorch under torch.compile (Inductor fuses it into a few kernels),
                    writing into the engine's arrays (f(X, out));
  ..., graph        the same captured in a CUDA graph (one launch per call).
Columns: rate, energy+gradient calls, and the rate over the built-in row's (the target for a
batched PyTorch LJ on gmin's walkers is 0.5).

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


def torch_pair_lennard_jones(torch):
    """LJ in reduced units in PyTorch, (B, N, 3) -> (energies, gradients), in the form Inductor
    fuses best: powers as products (a float64 pow is a libdevice call) and the diagonal masked
    where its r^2 is exactly zero."""

    def lennard_jones(x):
        d = x[:, :, None, :] - x[:, None, :, :]
        r2 = (d * d).sum(-1)
        inv2 = torch.where(r2 > 0, 1.0 / r2, 0.0)
        inv6 = inv2 * inv2 * inv2
        energies = 2.0 * (inv6 * inv6 - inv6).sum((1, 2))
        coefficient = (24.0 * inv6 - 48.0 * inv6 * inv6) * inv2  # dV/dr / r
        return energies, (coefficient[..., None] * d).sum(2)

    return lennard_jones


def torch_compiled_lennard_jones(torch, graphed=False):
    """torch_pair_lennard_jones under torch.compile, writing into out = (energies, gradients).
    graphed: its kernels also captured in a CUDA graph per batch size (one launch per call; the
    structures copied into the graph's input and its results out, as torch.cuda.graphs asks)."""
    compiled = torch.compile(torch_pair_lennard_jones(torch), dynamic=False, fullgraph=True)
    graphs = {}

    def capture(x):
        static = x.clone()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):  # compiled and warmed outside the capture
                compiled(static)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            results = compiled(static)
        return graph, static, results

    def model(structures, out):
        x = torch.from_dlpack(structures)
        if graphed:
            if x.shape not in graphs:
                graphs[x.shape] = capture(x)
            graph, static, (energies, gradients) = graphs[x.shape]
            static.copy_(x)
            graph.replay()
        else:
            energies, gradients = compiled(x)
        torch.from_dlpack(out[0]).copy_(energies)
        torch.from_dlpack(out[1]).copy_(gradients)

    return model


def models(atoms):
    builtin = landscape.batched_lennard_jones(atoms, backend="cuda")

    def wrapped(x, out):
        builtin.energy_gradient(x, out=out)

    rows = [("built-in", builtin),
            ("wrapped, out", landscape.FunctionBatchedPotential(wrapped, atoms=atoms,
                                                                name="wrapped", device=True))]
    try:
        import torch
        if torch.cuda.is_available():
            from test_device import torch_lennard_jones
            rows.append(("pytorch", landscape.FunctionBatchedPotential(
                torch_lennard_jones(torch), atoms=atoms, name="pytorch", device=True)))
            for name, graphed in (("pytorch compiled", False), ("pytorch compiled, graph", True)):
                rows.append((name, landscape.FunctionBatchedPotential(
                    torch_compiled_lennard_jones(torch, graphed), atoms=atoms, name=name,
                    device=True)))
    except ImportError:
        pass
    return rows


def warm_up(potential, batch, atoms):
    """One call at the batch's shape, so that torch.compile's compilation is not timed."""
    x = landscape.cuda.to_device(np.random.default_rng(0).uniform(-2, 2, (batch, atoms, 3)))
    if isinstance(potential, landscape.FunctionBatchedPotential):
        out = (landscape.cuda.empty([batch]), landscape.cuda.empty([batch, atoms, 3]))
        potential.energy_gradient(x, out=out) if potential.fills_out \
            else potential.energy_gradient(x)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--atoms", type=int, default=38)
    p.add_argument("--batches", default="256,4096")
    p.add_argument("--rounds", type=int, default=20, help="basin-hopping rounds of the walkers")
    args = p.parse_args()
    if not landscape.cuda.available():
        sys.exit(f"bench_device_model: {landscape.cuda.description()}")
    params = landscape.LbfgsParams(rms_tolerance=1e-6, max_iterations=10000)
    hopping = landscape.BasinHoppingParams.gmin_lj38_example()
    hopping.steps, hopping.seed = args.rounds, 1
    print(f"LJ{args.atoms} on {landscape.cuda.description()}; the rounds engine\n")
    print("| model | B | minimisations/s | calls per minimisation | x built-in | "
          "walker quenches/s | x built-in | lowest |")
    print("|---|---|---|---|---|---|---|---|")
    for batch in (int(b) for b in args.batches.split(",")):
        side = 1.5 * args.atoms ** (1.0 / 3.0)
        starts = np.random.default_rng(1).uniform(-side, side, (batch, args.atoms, 3))
        base = walker_base = None
        for name, potential in models(args.atoms):
            warm_up(potential, batch, args.atoms)
            minimiser = landscape.batched_minimiser_over(potential, params, "rounds")
            begin = time.perf_counter()
            _, report = minimiser.minimise(starts)
            rate = batch / (time.perf_counter() - begin)
            base = base or rate
            begin = time.perf_counter()
            result = landscape.walkers(potential, hopping, walkers=batch, engine="rounds")
            walker_rate = result.quenches / (time.perf_counter() - begin)
            walker_base = walker_base or walker_rate
            print(f"| {name} | {batch} | {rate:,.0f} | {np.mean(report['function_calls']):.0f} | "
                  f"{rate / base:.3f} | {walker_rate:,.0f} | {walker_rate / walker_base:.3f} | "
                  f"{result.lowest[0].energy:.6f} |", flush=True)


if __name__ == "__main__":
    main()
