#!/usr/bin/env bash
# The dieharder subset of docs/rng.md (under two minutes per generator on one core): feeds
# build/rng_stream into `dieharder -g 200` (raw 32-bit words on stdin), one test at a time, and
# prints one line per test result (test, ntuple, p-value, assessment) and a per-generator summary.
#
# Usage: tools/checks/dieharder_subset.sh [generator ...]     (default: all five)
# Environment: BUILD (default build), SEED (default 20240601).
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${BUILD:-build}"
seed="${SEED:-20240601}"
command -v dieharder > /dev/null || { echo "dieharder not found (apt-get install dieharder)" >&2; exit 2; }
[[ -x "$build/rng_stream" ]] || { echo "$build/rng_stream not built" >&2; exit 2; }
generators=("$@")
[[ ${#generators[@]} -gt 0 ]] || generators=(lcg ran2 hybrid-taus lagged-fibonacci philox)
# Test numbers (dieharder -l); 200 is rgb_bitdist with 8-bit ntuples.
tests=("-d 0" "-d 1" "-d 3" "-d 4" "-d 8" "-d 10" "-d 11" "-d 12" "-d 15" "-d 16" "-d 100"
       "-d 200 -n 8" "-d 202" "-d 203" "-d 206" "-d 207" "-d 209")
for generator in "${generators[@]}"; do
  start=$(date +%s)
  results=""
  for t in "${tests[@]}"; do
    # shellcheck disable=SC2086
    lines=$("$build/rng_stream" --generator "$generator" --seed "$seed" |
            dieharder -g 200 $t 2>/dev/null | grep -E "PASSED|WEAK|FAILED" || true)
    results+="$lines"$'\n'
  done
  elapsed=$(( $(date +%s) - start ))
  echo "== $generator (seed $seed, ${elapsed} s)"
  echo -n "$results" | sed '/^$/d' | awk -F'|' '{gsub(/ /,"",$1); gsub(/ /,"",$2); gsub(/ /,"",$5);
    gsub(/ /,"",$6); printf "  %-22s %4s  p=%-11s %s\n", $1, $2, $5, $6}'
  echo -n "$results" | sed '/^$/d' | awk -v g="$generator" '
    /PASSED/ {p++} /WEAK/ {w++} /FAILED/ {f++}
    END {printf "  summary %s: %d passed, %d weak, %d failed\n", g, p, w, f}'
done
