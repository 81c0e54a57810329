#!/usr/bin/env python3
"""Walker throughput of `mpirun -n K gmin` against K (docs/cluster.md, docs/benchmarks.md).

Runs `gmin --lj N --walkers W --steps S --seed s` (the same total walkers every row) without
mpirun and on K = 1, 2, ... ranks, and prints a Markdown table: quenches of all walkers, seconds
of the run (gmin's own t= on its last progress line, so the MPI start-up is not counted; the
whole command's wall time beside it), quenches per second, the speed-up over the first row, and
whether `lowest` is byte-identical to the first row's (it must be: the walker streams depend on the
global walker index only).

  tools/bench_mpi_walkers.py --gmin build/gmin --ranks 0,1,2 --atoms 38 --walkers 8 --steps 400
  tools/bench_mpi_walkers.py --backend cuda --ranks 0,1,2,4 --walkers 4096 --steps 50  # one GPU

Rank count 0 means gmin without mpirun. Ranks of a node divide its CPU cores between their
threads (--mpirun-options, default --bind-to none; a rank bound to cores uses those); with
--backend cuda they share the node's GPUs (local rank mod device count)."""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

LAST_ROUND = re.compile(r"^walkers: step\s+\d+\s+quenches\s+(\d+).*t=\s*([0-9.]+)\s*$")


def run_row(args, ranks, folder):
    command = []
    if ranks > 0:
        command = [args.mpirun, "--oversubscribe", "-n", str(ranks)] + args.mpirun_options.split()
    command += [args.gmin, "--lj", str(args.atoms), "--walkers", str(args.walkers), "--steps",
                str(args.steps), "--seed", str(args.seed), "--backend", args.backend,
                "--output", folder] + args.extra
    environment = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=environment)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"bench_mpi_walkers: {' '.join(command)} failed ({done.returncode}):\n"
                 f"{done.stderr}")
    last = [m for m in map(LAST_ROUND.match, done.stdout.splitlines()) if m]
    if not last:
        sys.exit(f"bench_mpi_walkers: no progress line in the output of {' '.join(command)}")
    quenches, seconds = int(last[-1].group(1)), float(last[-1].group(2))
    with open(os.path.join(folder, "lowest"), "rb") as lowest:
        digest = hashlib.sha256(lowest.read()).hexdigest()
    return quenches, seconds, wall, digest


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gmin", default="build/gmin")
    parser.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    # Unbound ranks divide the node's cores between their threads (src/gmin/GminWalkers.cpp); Open MPI
    # binds a few ranks to one core each by default, which leaves one thread per rank.
    parser.add_argument("--mpirun-options", default="--bind-to none")
    parser.add_argument("--ranks", default="0,1,2", help="comma-separated K (0: no mpirun)")
    parser.add_argument("--atoms", type=int, default=38)
    parser.add_argument("--walkers", type=int, default=8)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--repeats", type=int, default=1, help="runs per row; the fastest counts")
    parser.add_argument("extra", nargs="*", help="more gmin options (after --)")
    args = parser.parse_args()
    ranks = [int(k) for k in args.ranks.split(",")]

    print(f"LJ{args.atoms}, {args.walkers} walkers, {args.steps} steps, seed {args.seed}, "
          f"--backend {args.backend}, {os.cpu_count()} CPU cores")
    print("| ranks | quenches | run s | command s | quenches/s | speed-up | lowest as row 1 |")
    print("|---|---|---|---|---|---|---|")
    first_rate, first_digest = None, None
    with tempfile.TemporaryDirectory() as scratch:
        for k in ranks:
            rows = [run_row(args, k, os.path.join(scratch, f"k{k}-{r}"))
                    for r in range(args.repeats)]
            quenches, seconds, wall, digest = min(rows, key=lambda row: row[1])
            rate = quenches / seconds if seconds > 0 else float("inf")
            first_rate = first_rate or rate
            first_digest = first_digest or digest
            label = "none (no mpirun)" if k == 0 else str(k)
            print(f"| {label} | {quenches} | {seconds:.2f} | {wall:.2f} | {rate:.0f} | "
                  f"{rate / first_rate:.2f} | {'yes' if digest == first_digest else 'NO'} |",
                  flush=True)


if __name__ == "__main__":
    main()
