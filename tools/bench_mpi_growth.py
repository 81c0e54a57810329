#!/usr/bin/env python3
"""Growth throughput of `mpirun -n K pathsample grow` against K (docs/cluster.md,
docs/benchmarks.md): connect runs per second on the LJ38 UNTRAP example.

Imports tests/data/lj38/pathsample-untrap/input, then runs `pathsample grow` with its pathdata and
odata.connect (UNTRAP 0.035 3.0), --pairs-per-cycle P and --cycles C, the same in every row:
without mpirun on T threads and on K ranks of one thread each. Prints a Markdown table: connect
runs, seconds of the growth (pathsample's own "elapsed" on its last cycle line, so the MPI start-up
is not counted; the fastest of --repeats runs and their median; the whole command's wall time of
the fastest beside it), connect runs per second, the speed-up over the first row, and whether
network.h5 holds the network of the first row of its backend (h5dump's text; it must: the
database does not depend on K or on the threads; the GPU's differs from the CPU's by round-off).

  tools/bench_mpi_growth.py --pathsample build/pathsample --rows t1,t2,k1,k2 --cycles 8

Rows: tT = no mpirun, --threads T; kK = mpirun -n K, --threads 1 per rank; gT = no mpirun,
--backend cuda --jobs-in-flight T: T connect runs in flight whose structures share batched calls of
the device's potential (its network differs from the CPU rows' by round-off; tools/
bench_network_growth.py measures growth against runs in flight in more detail); cK = mpirun -n K,
--backend cuda: each rank on its own GPU (local rank mod the node's GPUs) with its share of the
cycle's runs in flight there.

  tools/bench_mpi_growth.py --rows t1,t16,g1,g4,g16 --pairs 16   # CPU threads against the GPU
  tools/bench_mpi_growth.py --rows g16,c1,c2 --pairs 16            # 1 and 2 GPUs"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

LAST_CYCLE = re.compile(r"^cycle\s+(\d+)\s+pairs\s+(\d+)\s.*elapsed\s+([0-9.]+) s")
SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(SOURCE, "tests", "data", "lj38", "pathsample-untrap", "input")


def network_text(path):
    if shutil.which("h5dump"):
        done = subprocess.run(["h5dump", path], capture_output=True, text=True, check=True)
        return done.stdout.split("\n", 1)[1]  # without the line naming the file
    # Without the HDF5 tools (the GPU device): every dataset's and attribute's values via h5py.
    import h5py
    lines = []
    with h5py.File(path, "r") as f:
        def visit(name, item):
            lines.extend(f"{name}@{k}={v!r}" for k, v in sorted(item.attrs.items()))
            if isinstance(item, h5py.Dataset):
                lines.append(f"{name}={item[()].tobytes().hex()}")
        lines.extend(f"@{k}={v!r}" for k, v in sorted(f.attrs.items()))
        f.visititems(visit)
    return "\n".join(lines)


def run_row(args, row, scratch):
    folder = os.path.join(scratch, row)
    count = int(row[1:])
    command = []
    if row[0] in "kc":
        command = [args.mpirun, "--oversubscribe", "-n", str(count)] + args.mpirun_options.split()
    command += [args.pathsample, "grow", "--database", os.path.join(scratch, "in.h5"),
                "--pathdata", os.path.join(EXAMPLE, "pathdata"),
                "--odata", os.path.join(EXAMPLE, "odata.connect"),
                "--pairs-per-cycle", str(args.pairs), "--cycles", str(args.cycles),
                "--threads", str(count if row[0] == "t" else 1), "--output", folder]
    if row[0] == "g":
        command += ["--backend", "cuda", "--jobs-in-flight", str(count)]
    if row[0] == "c":
        command += ["--backend", "cuda"]
    environment = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=environment)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"bench_mpi_growth: {' '.join(command)} failed ({done.returncode}):\n"
                 f"{done.stderr}")
    cycles = [m for m in map(LAST_CYCLE.match, done.stdout.splitlines()) if m]
    if not cycles:
        sys.exit(f"bench_mpi_growth: no cycle line in the output of {' '.join(command)}")
    runs = sum(int(m.group(2)) for m in cycles)
    seconds = float(cycles[-1].group(3))
    network = network_text(os.path.join(folder, "network.h5"))
    shutil.rmtree(folder)
    return runs, seconds, wall, network


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pathsample", default="build/pathsample")
    parser.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    parser.add_argument("--mpirun-options", default="--bind-to none")
    parser.add_argument("--rows", default="t1,t2,k1,k2",
                        help="comma-separated: tT (no mpirun, T threads), kK (K ranks), gT (no "
                        "mpirun, cuda, T runs in flight), cK (K ranks on K GPUs)")
    parser.add_argument("--pairs", type=int, default=4, help="--pairs-per-cycle")
    parser.add_argument("--cycles", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=1,
                        help="runs per row, interleaved with the other rows; the fastest counts")
    args = parser.parse_args()
    rows = args.rows.split(",")
    for row in rows:
        if len(row) < 2 or row[0] not in "tkgc" or not row[1:].isdigit() or int(row[1:]) < 1:
            sys.exit(f"bench_mpi_growth: bad row {row!r} (tT, kK, gT or cK, T and K at least 1)")

    print(f"LJ38 UNTRAP example, {args.pairs} connect runs per cycle, {args.cycles} cycles, "
          f"{os.cpu_count()} CPU cores")
    print("| run | connect runs | growth s (fastest) | growth s (median) | command s | "
          "connect runs/s | speed-up | network as its backend's first row |")
    print("|---|---|---|---|---|---|---|---|")
    first_rate, first_network = None, {}
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run([args.pathsample, "import", "--directory", EXAMPLE, "--database",
                        os.path.join(scratch, "in.h5")], check=True, capture_output=True)
        # Repeats interleave the rows (row 1, row 2, ..., row 1, ...), so that a change in the
        # machine's load during the benchmark falls on every row alike; the fastest run counts.
        results = {row: [] for row in rows}
        for _ in range(args.repeats):
            for row in rows:
                results[row].append(run_row(args, row, scratch))
        for row in rows:
            runs, seconds, wall, network = min(results[row], key=lambda r: r[1])
            median = statistics.median(r[1] for r in results[row])
            rate = runs / seconds if seconds > 0 else float("inf")
            first_rate = first_rate or rate
            backend = "cuda" if row[0] in "gc" else "cpu"
            first_network.setdefault(backend, network)
            count = int(row[1:])
            threads = f"{count} thread{'s' if count > 1 else ''}"
            ranks = f"{count} rank{'s' if count > 1 else ''}"
            label = {"t": f"no mpirun, {threads}", "g": f"cuda, {count} runs in flight",
                     "k": f"{ranks} x 1 thread", "c": f"cuda, {ranks}, a GPU each"}[row[0]]
            same = "yes" if network == first_network[backend] else "NO"
            print(f"| {label} | {runs} | {seconds:.2f} | {median:.2f} | {wall:.2f} | {rate:.2f} | "
                  f"{rate / first_rate:.2f} | {same} |", flush=True)


if __name__ == "__main__":
    main()
