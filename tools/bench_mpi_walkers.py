#!/usr/bin/env python3
"""Walker throughput of `mpirun -n K gmin` against K (docs/cluster.md, docs/benchmarks.md).

Runs `gmin --lj N --walkers W --steps S --seed s` without mpirun and on K = 1, 2, ... ranks, and
prints a Markdown table: walkers, quenches of all walkers, seconds of the run (gmin's own t= on its
last progress line, so the MPI start-up is not counted; the whole command's wall time beside it),
quenches per second, the speed-up over the first row, the parallel efficiency (speed-up over the
first row's, divided by K over the first row's K, counting no mpirun as 1), the same rate and
efficiency of the rounds alone (between the first and the last progress line printed while they
ran, gmin printing one a second: without the start, the final checkpoint of every walker, which
rank 0 writes, and the final re-quench; "-" for a run too short for two lines), and whether
`lowest` is byte-identical to the first row's (it must be with the same W: the walker streams depend
on the global walker index only).

With --walkers W every row runs W walkers (strong scaling, the lowest files comparable); with
--walkers-per-rank P row K runs P x K (weak scaling: each rank, on its own GPU, as full as one
process is with P). --atoms 0 leaves out --lj: name the system in the extra options (after --).

  tools/bench_mpi_walkers.py --gmin build/gmin --ranks 0,1,2 --atoms 38 --walkers 8 --steps 400
  tools/bench_mpi_walkers.py --backend cuda --ranks 0,2 --atoms 75 --walkers-per-rank 4096 \
      --steps 60   # one GPU per rank
  tools/bench_mpi_walkers.py --backend cuda --ranks 0,2 --atoms 0 --walkers-per-rank 264 --steps 4 \
      -- --prmtop tests/data/gb/trpcage/prmtop --inpcrd tests/data/gb/trpcage/inpcrd

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


def walkers_of(args, ranks):
    return args.walkers_per_rank * max(ranks, 1) if args.walkers_per_rank else args.walkers


def run_row(args, ranks, folder):
    command = []
    if ranks > 0:
        command = [args.mpirun, "--oversubscribe", "-n", str(ranks)] + args.mpirun_options.split()
    command += [args.gmin] + (["--lj", str(args.atoms)] if args.atoms > 0 else [])
    command += ["--walkers", str(walkers_of(args, ranks)), "--steps", str(args.steps), "--seed",
                str(args.seed), "--backend", args.backend, "--output", folder] + args.extra
    environment = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=environment)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"bench_mpi_walkers: {' '.join(command)} failed ({done.returncode}):\n"
                 f"{done.stderr}")
    last, rounds = [], []
    for line in done.stdout.splitlines():
        if line.startswith("Final Quench") and not rounds:
            rounds = list(last)  # the lines printed while the rounds ran
        match = LAST_ROUND.match(line)
        if match:
            last.append(match)
    if not last:
        sys.exit(f"bench_mpi_walkers: no progress line in the output of {' '.join(command)}")
    rounds = rounds or last[:-1]
    quenches, seconds = int(last[-1].group(1)), float(last[-1].group(2))
    round_rate = None  # between the first and the last line printed while the rounds ran
    if len(rounds) >= 2 and float(rounds[-1].group(2)) > float(rounds[0].group(2)):
        round_rate = ((int(rounds[-1].group(1)) - int(rounds[0].group(1))) /
                      (float(rounds[-1].group(2)) - float(rounds[0].group(2))))
    with open(os.path.join(folder, "lowest"), "rb") as lowest:
        digest = hashlib.sha256(lowest.read()).hexdigest()
    return quenches, seconds, wall, digest, round_rate


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gmin", default="build/gmin")
    parser.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    # Unbound ranks divide the node's cores between their threads (src/gmin/GminWalkers.cpp); Open MPI
    # binds a few ranks to one core each by default, which leaves one thread per rank.
    parser.add_argument("--mpirun-options", default="--bind-to none")
    parser.add_argument("--ranks", default="0,1,2", help="comma-separated K (0: no mpirun)")
    parser.add_argument("--atoms", type=int, default=38)
    parser.add_argument("--walkers", type=int, default=8, help="walkers of every row")
    parser.add_argument("--walkers-per-rank", type=int, default=0,
                        help="walkers of row K: this times K (weak scaling); overrides --walkers")
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--repeats", type=int, default=1, help="runs per row; the fastest counts")
    parser.add_argument("extra", nargs="*", help="more gmin options (after --)")
    args = parser.parse_args()
    ranks = [int(k) for k in args.ranks.split(",")]

    system = f"LJ{args.atoms}" if args.atoms > 0 else " ".join(args.extra)
    walkers = (f"{args.walkers_per_rank} walkers per rank" if args.walkers_per_rank
               else f"{args.walkers} walkers")
    print(f"{system}, {walkers}, {args.steps} steps, seed {args.seed}, --backend {args.backend}, "
          f"{os.cpu_count()} CPU cores")
    print("| ranks | walkers | quenches | run s | command s | quenches/s | speed-up | efficiency "
          "| rounds quenches/s | rounds efficiency | lowest as row 1 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    first_rate, first_round_rate, first_digest, first_k = None, None, None, None
    with tempfile.TemporaryDirectory() as scratch:
        for k in ranks:
            rows = [run_row(args, k, os.path.join(scratch, f"k{k}-{r}"))
                    for r in range(args.repeats)]
            quenches, seconds, wall, digest, round_rate = min(rows, key=lambda row: row[1])
            rate = quenches / seconds if seconds > 0 else float("inf")
            first_rate = first_rate or rate
            first_round_rate = first_round_rate or round_rate
            first_digest = first_digest or digest
            first_k = first_k or max(k, 1)
            label = "none (no mpirun)" if k == 0 else str(k)
            same = "yes" if digest == first_digest else (
                "no (other W)" if walkers_of(args, k) != walkers_of(args, ranks[0]) else "NO")
            speed_up = rate / first_rate
            scale = first_k / max(k, 1)
            rounds = (f"{round_rate:.0f} | {round_rate / first_round_rate * scale:.2f}"
                      if round_rate and first_round_rate else "- | -")
            print(f"| {label} | {walkers_of(args, k)} | {quenches} | {seconds:.2f} | {wall:.2f} | "
                  f"{rate:.0f} | {speed_up:.2f} | {speed_up * scale:.2f} | {rounds} | {same} |",
                  flush=True)


if __name__ == "__main__":
    main()
