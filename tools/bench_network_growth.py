#!/usr/bin/env python3
"""Transition-network growth throughput against connect runs in flight (docs/benchmarks.md):
`pathsample grow` on the CPU (one core, all cores) and on the GPU with K runs in flight, whose
structures share batched calls of the device's batched potential (potentials/SharedBatchedPotential).

Systems:
  lj38     the LJ38 UNTRAP example (tests/data/lj38/pathsample-untrap/input: its pathdata and
           odata.connect, UNTRAP 0.035 3.0), imported once.
  trpcage  trp-cage (tests/data/gb/trpcage, AMBER-GB igb 2, double): a short gmin run on the GPU
           (--max-time --gmin-seconds, the lowest --save 30 minima kept), then one optim connect
           cycle between its lowest and fifth-lowest minima on the GPU, which stores the two as sets
           A and B in gmin's minima.h5; growth then chooses pairs with --pair-selection
           (dijkstra: DIJPAIR, the missing links of the best path; shortcut: SHORTCUT 2) at 298 K.
           Or --database FILE: a network of trp-cage with sets A and B made elsewhere.

Rows (--rows, comma-separated): cT = --backend cpu --threads T (each run its own potential, as
PATHSAMPLE's jobs); gK = --backend cuda --jobs-in-flight K --threads min(K, --gpu-threads), each
thread running its share of the K runs as fibres (gKtT: T threads); a suffix dD runs D cycles at
once (--cycles-in-flight D: cycle k's pairs taken once cycle k - D has merged, so the next cycles'
runs keep the device busy while a cycle's slowest runs end), e.g. g64d2. Every row grows from the
same network with the same --pairs-per-cycle P and --cycles C, so the rows of one backend and one
D must end with the same network (column "same network": compared with the first such row through
h5dump's text or h5py; the GPU's network differs from the CPU's by round-off, and D changes which
pairs are taken). A suffix pU sets --call-patience U (microseconds; 0, the default, follows the
calls), e.g. g64p2000, a suffix lL --call-lanes L (lanes of shared calls under way at
once; by default one per thread running runs), e.g. g256l1, and a suffix i --dneb-bands images
(the bands' L-BFGS on the host through their images' shared calls instead of relaxed whole on
the device; a network of its own by round-off, compared with the first such row), e.g. g64i, a
suffix s or w --ts-searches steps or whole (the hybrid EF searches' steps on the host, one shared
call per evaluation, pathsample's default, or each search run whole on the device; a network of
its own by round-off), e.g. g64w or g64is, and a last suffix a --alignments whole (the DNEB
endpoints and the pair selection's distances aligned on the device, a block per pair, instead of
by the host search; a network of its own by round-off), e.g. g1024d2a.

Columns: connect runs, seconds (pathsample's own "elapsed" on its last cycle line: start-up and
the first characterisation not counted), runs/s, transition states added and per hour, structures
evaluated per second in the shared calls (GPU rows: the "batch fill" lines) with the mean
structures per call and a call's mean wall time ("us per call": every run waits for one call
per step), "x 1 core" (runs/s over the first c1 row's), and "of potential": structures/s
over --potential-rate (the batched potential's own structures per second at a full batch, from
bench_batched_potential for trp-cage or bench_batch for LJ38: give the number you measured on the
same device), the seconds spent choosing candidate lists (the "chosen in" lines, on the main
thread between a merge and the next cycle's start) with the minimum distances they computed, and,
for rows of one cycle in flight (during a list no run goes on), the runs per second besides the
lists: what the runs alone reached.

  tools/bench_network_growth.py --system lj38 --rows c1,c16,g1,g8,g64,g256 --pairs 256 --cycles 2
  tools/bench_network_growth.py --system trpcage --rows c16,g64,g256 --pairs 256 --cycles 2
  tools/bench_network_growth.py --system lj38 --rows g64,g64d2,g64d4 --pairs 37 --cycles 8"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from bench_mpi_growth import network_text  # the network's every dataset as text

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LJ38 = os.path.join(SOURCE, "tests", "data", "lj38", "pathsample-untrap", "input")
TRPCAGE = os.path.join(SOURCE, "tests", "data", "gb", "trpcage")
CYCLE = re.compile(r"^cycle\s+(\d+)\s+pairs\s+(\d+)\s.*new ts\s+(\d+)\s.*elapsed\s+([0-9.]+) s")
RUN = re.compile(r"^run \d+ of \d+(?: of cycle \d+)? ended: .*, (\d+) ts;.*elapsed ([0-9.]+) s")
WAITING = re.compile(r"^grow> cycles? [0-9-]+ under way: .*shared calls ([0-9.]+) structures each, "
                     r"([0-9.]+) structures per second")
ROW = re.compile(r"([cg])([1-9]\d*)(?:t([1-9]\d*))?(?:d([1-9]\d*))?(?:p(\d+))?(?:l([1-9]\d*))?(i)?([sw])?(a)?")
FILL = re.compile(r"batch fill ([0-9.]+) structures per call \((\d+) calls, (\d+) structures; "
                  r"(\d+) us per call")
FOUND = re.compile(r"found ([0-9]+) ts per hour \(before duplicates\)\s+elapsed ([0-9.]+) s")
LIST = re.compile(r"^grow> \d+ candidate pairs \(\w+\), chosen in ([0-9.]+) s, (\d+) minimum distances")


def run(command, what, timeout=None, accepted=(0,)):
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        sys.exit(f"bench_network_growth: {what} took more than {timeout} s: {' '.join(command)}")
    if done.returncode not in accepted:
        sys.exit(f"bench_network_growth: {what} failed ({done.returncode}): {' '.join(command)}\n"
                 f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done.stdout


def prepare(args, scratch):
    """The start network and the grow arguments of the system."""
    if args.system == "lj38":
        database = os.path.join(scratch, "in.h5")
        run([args.pathsample, "import", "--directory", LJ38, "--database", database], "import")
        return ["--database", database, "--pathdata", os.path.join(LJ38, "pathdata"),
                "--odata", os.path.join(LJ38, "odata.connect")]
    prmtop = os.path.join(TRPCAGE, "prmtop")
    common = ["--prmtop", prmtop, "--pair-selection", args.pair_selection, "--temperature", "298"]
    if args.pair_selection == "shortcut":
        common += ["--shortcut-steps", "2"]
    if args.database:
        return ["--database", args.database] + common
    gmin = os.path.join(scratch, "gmin")
    print(f"# gmin on {args.gmin_backend} for {args.gmin_seconds} s", file=sys.stderr)
    run([args.gmin, "--prmtop", prmtop, "--inpcrd", os.path.join(TRPCAGE, "inpcrd"),
         "--backend", args.gmin_backend, "--max-time", str(args.gmin_seconds), "--save", "30",
         "--seed", "1", "--quiet", "--output", gmin], "gmin")
    minima = sorted(f for f in os.listdir(gmin) if re.fullmatch(r"minimum_\d+\.rst7", f))
    if len(minima) < 2:
        sys.exit("bench_network_growth: gmin kept fewer than 2 minima")
    finish = minima[min(4, len(minima) - 1)]
    print(f"# optim {minima[0]} -> {finish}, 1 connect cycle", file=sys.stderr)
    database = os.path.join(gmin, "minima.h5")
    run([args.optim, "--prmtop", prmtop, "--start", os.path.join(gmin, minima[0]),
         "--finish", os.path.join(gmin, finish), "--backend", args.gmin_backend,
         "--max-cycles", "1", "--database", database, "--quiet",
         "--output", os.path.join(scratch, "optim")], "optim", accepted=(0, 2))  # 2: not joined
    return ["--database", database] + common


def runs_ended(out):
    """Connect runs ended, transition states they found (before duplicates), the elapsed
    seconds at the last run line, the mean structures per call and per second of the waiting
    lines (one a minute), and the last run or waiting line's transition states found per hour
    (by every run in flight, counted after each DNEB attempt; before duplicates) with its elapsed
    seconds: what a row that did not finish a cycle reached."""
    lines = out.splitlines()
    runs = [m for m in map(RUN.match, lines) if m]
    waits = [m for m in map(WAITING.match, lines) if m]
    found = [m for m in map(FOUND.search, lines) if m]
    per_call = sum(float(m.group(1)) for m in waits) / len(waits) if waits else 0.0
    per_second = sum(float(m.group(2)) for m in waits) / len(waits) if waits else 0.0
    in_flight = (int(found[-1].group(1)), float(found[-1].group(2))) if found else (0, 0.0)
    if not runs:
        return 0, 0, 0.0, per_call, per_second, in_flight
    return (len(runs), sum(int(m.group(1)) for m in runs), float(runs[-1].group(2)), per_call,
            per_second, in_flight)


def row_counts(args, row):
    """A row's runs in flight (cT: threads), threads and cycles in flight."""
    match = ROW.fullmatch(row)
    count = int(match.group(2))
    cycles = int(match.group(4)) if match.group(4) else 1
    if match.group(1) == "c":
        return count, count, cycles
    return (count, int(match.group(3)) if match.group(3) else min(count, args.gpu_threads),
            cycles)


def in_flight(row, count, threads, cycles):
    text = f"{count} on {threads} threads" if row[0] == "g" else f"{count} (threads)"
    return text + (f", {cycles} cycles" if cycles > 1 else "")


def grow(args, row, start, scratch):
    folder = os.path.join(scratch, row)
    count, threads, cycles = row_counts(args, row)
    command = [args.pathsample, "grow"] + start + [
        "--pairs-per-cycle", str(args.pairs), "--cycles", str(args.cycles), "--output", folder,
        "--cycles-in-flight", str(cycles)]
    if args.connect_cycles:
        command += ["--connect-cycles", str(args.connect_cycles)]
    if args.ts_steps:
        command += ["--ts-steps", str(args.ts_steps)]
    patience = ROW.fullmatch(row).group(5)
    if patience is not None:
        command += ["--call-patience", patience]
    lanes = ROW.fullmatch(row).group(6)
    if lanes is not None:
        command += ["--call-lanes", lanes]
    if ROW.fullmatch(row).group(7):
        command += ["--dneb-bands", "images"]
    searches = ROW.fullmatch(row).group(8)
    if searches:
        command += ["--ts-searches", "steps" if searches == "s" else "whole"]
    if ROW.fullmatch(row).group(9):
        command += ["--alignments", "whole"]
    if row[0] == "c":
        command += ["--backend", "cpu", "--threads", str(count)]
    else:
        command += ["--backend", "cuda", "--jobs-in-flight", str(count), "--threads", str(threads)]
    print(f"# {row}: {' '.join(command)}", file=sys.stderr)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=args.row_timeout)
    except subprocess.TimeoutExpired as e:
        partial = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        with open(os.path.join(scratch, row + ".log"), "w") as log:
            log.write(partial)
        shutil.rmtree(folder, ignore_errors=True)
        cycles = [m for m in map(CYCLE.match, partial.splitlines()) if m]
        if not cycles:
            return {"partial": runs_ended(partial)}
        # The cycles that ended before the limit (the network is not compared).
        return {"partial": runs_ended(partial),
                "runs": sum(int(m.group(2)) for m in cycles),
                "ts": sum(int(m.group(3)) for m in cycles),
                "seconds": float(cycles[-1].group(4)),
                "calls": 0, "structures": 0, "network": None,
                "cycles done": len(cycles)}
    if done.returncode != 0:
        sys.exit(f"bench_network_growth: {row} failed ({done.returncode}): {' '.join(command)}\n"
                 f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    out = done.stdout
    with open(os.path.join(scratch, row + ".log"), "w") as log:
        log.write(out)
    cycles = [m for m in map(CYCLE.match, out.splitlines()) if m]
    if not cycles:
        sys.exit(f"bench_network_growth: no cycle line from {row}:\n{out}")
    fills = [m for m in map(FILL.search, out.splitlines()) if m]
    lists = [m for m in map(LIST.match, out.splitlines()) if m]
    result = {
        "list seconds": sum(float(m.group(1)) for m in lists),
        "distances": sum(int(m.group(2)) for m in lists),
        "partial": runs_ended(out),
        "runs": sum(int(m.group(2)) for m in cycles),
        "ts": sum(int(m.group(3)) for m in cycles),
        "seconds": float(cycles[-1].group(4)),
        "calls": sum(int(m.group(2)) for m in fills),
        "structures": sum(int(m.group(3)) for m in fills),
        "call us": sum(int(m.group(2)) * int(m.group(4)) for m in fills),
        "network": network_text(os.path.join(folder, "network.h5")),
    }
    shutil.rmtree(folder)
    return result


def main():
    build = os.path.join(SOURCE, "build")
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--system", choices=["lj38", "trpcage"], default="lj38")
    p.add_argument("--rows", default="c1,g1,g8,g64")
    p.add_argument("--pairs", type=int, default=64, help="--pairs-per-cycle of every row")
    p.add_argument("--cycles", type=int, default=2)
    p.add_argument("--pair-selection", choices=["dijkstra", "shortcut"], default="dijkstra",
                   help="trpcage: DIJPAIR or SHORTCUT 2")
    p.add_argument("--database", help="trpcage: start from this network instead of gmin + optim")
    p.add_argument("--connect-cycles", type=int, default=0,
                   help="grow's --connect-cycles (NEWCONNECT nconmax of every run; 0: the default)")
    p.add_argument("--ts-steps", type=int, default=0,
                   help="grow's --ts-steps (STEPS of every transition-state search; 0: the default)")
    p.add_argument("--gmin-seconds", type=float, default=20.0)
    p.add_argument("--gmin-backend", default="cuda")
    p.add_argument("--potential-rate", type=float, default=0.0,
                   help="the batched potential's structures per second at a full batch")
    p.add_argument("--pathsample", default=os.path.join(build, "pathsample"))
    p.add_argument("--gmin", default=os.path.join(build, "gmin"))
    p.add_argument("--optim", default=os.path.join(build, "optim"))
    p.add_argument("--gpu-threads", type=int, default=os.cpu_count(),
                   help="threads of a gK row at most (default: the host's cores)")
    p.add_argument("--row-timeout", type=float, help="seconds a row may take (default: no limit)")
    p.add_argument("--keep", help="a folder for the start network (default: a temporary one)")
    args = p.parse_args()
    rows = args.rows.split(",")
    for row in rows:
        if not ROW.fullmatch(row) or (row[0] == "c" and "t" in row):
            sys.exit(f"bench_network_growth: bad row {row!r} (cT, gK or gKtT, each with dD, pU, lL, i and s or w or not)")
    if len(set(rows)) != len(rows):
        sys.exit("bench_network_growth: each row once (a row's results are kept under its name)")
    scratch = args.keep or tempfile.mkdtemp(prefix="bench-network-growth-")
    os.makedirs(scratch, exist_ok=True)
    start = prepare(args, scratch)
    results = {row: grow(args, row, start, scratch) for row in rows}
    one_core = results.get("c1")
    if one_core and "runs" not in one_core:  # did not finish a cycle
        one_core = None
    first = {}
    print(f"\n{args.system}: --pairs-per-cycle {args.pairs}, --cycles {args.cycles}"
          + (f", {args.pair_selection}" if args.system == "trpcage" else "")
          + (f", --connect-cycles {args.connect_cycles}" if args.connect_cycles else "")
          + (f", --ts-steps {args.ts_steps}" if args.ts_steps else "") + "\n")
    print("| row | in flight | connect runs | seconds | runs/s | TS added | TS per hour "
          "| structures/s | per call | us per call | x 1 core | of potential | choosing lists "
          "| distances | runs/s besides the lists | same network |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        r = results[row]
        count, threads, cycles = row_counts(args, row)
        flight = in_flight(row, count, threads, cycles)
        if "runs" not in r:
            runs, found, seconds, per_call, per_second, (hourly, at) = r["partial"]
            text = "no run ended"
            if runs:
                text = (f"{runs} runs ended in {seconds:.0f} s: {runs / seconds:.3f} runs/s, "
                        f"{found} TS found by them")
            if at:
                text += (f"; {hourly} TS found per hour by the runs in flight at {at:.0f} s "
                         "(before duplicates)")
            if per_second:
                text += (f"; shared calls {per_call:.1f} structures each, {per_second:.0f} "
                         "structures/s")
                if args.potential_rate:
                    text += f" ({per_second / args.potential_rate:.3f} of the potential's)"
            print(f"| {row} | {flight} | cycle not finished in {args.row_timeout:.0f} s: {text} "
                  "| | | | | | | | | | | | | |")
            continue
        rate = r["runs"] / r["seconds"] if r["seconds"] > 0 else float("nan")
        per_hour = r["ts"] * 3600.0 / r["seconds"] if r["seconds"] > 0 else float("nan")
        structures = r["structures"] / r["seconds"] if r["structures"] else 0.0
        per_call = r["structures"] / r["calls"] if r["calls"] else 0.0
        call_us = f"{r['call us'] / r['calls']:.0f}" if r["calls"] else ""
        core = ""
        if one_core and one_core["seconds"] > 0:
            core = f"{rate / (one_core['runs'] / one_core['seconds']):.2f}"
        if r["network"] is None:  # the cycles that ended within --row-timeout
            same = f"{r['cycles done']} of {args.cycles} cycles in {args.row_timeout:.0f} s"
            if r["partial"][4]:  # the waiting lines' shared calls
                structures, per_call = r["partial"][4], r["partial"][3]
        else:
            key = (row[0], cycles, ROW.fullmatch(row).group(7), ROW.fullmatch(row).group(8) or "s",
                   ROW.fullmatch(row).group(9))
            same = "yes" if first.setdefault(key, r["network"]) == r["network"] else "NO"
        potential = f"{structures / args.potential_rate:.3f}" if args.potential_rate and structures else ""
        lists = distances = besides = ""
        if "list seconds" in r:  # a finished row: the candidate lists' lines
            lists, distances = f"{r['list seconds']:.1f}", f"{r['distances']}"
            if cycles == 1 and r["seconds"] > r["list seconds"]:  # no run goes on while one is chosen
                besides = f"{r['runs'] / (r['seconds'] - r['list seconds']):.2f}"
        print(f"| {row} | {flight} | {r['runs']} | {r['seconds']:.1f} | {rate:.2f} | {r['ts']} | "
              f"{per_hour:.0f} | {structures:.0f} | {per_call:.1f} | {call_us} | {core} | {potential} | "
              f"{lists} | {distances} | {besides} | {same} |")


if __name__ == "__main__":
    main()
