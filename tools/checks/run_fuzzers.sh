#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ into build-fuzz/ (clang, -DLANDSCAPE_FUZZ=ON, CUDA off) and
# runs every target for SECONDS (default 600), as many at once as there are cores, then prints per
# target the executions and the findings (crash-*, leak-*, timeout-*, oom-* files).
#
# Usage: tools/checks/run_fuzzers.sh [--no-build] [--jobs N] [SECONDS] [TARGET...]
#   --no-build   use the targets already in build-fuzz/fuzz/ (e.g. built on another machine)
#   --jobs N     targets run at once (default: the number of cores)
#   TARGET...    run only these (names as in fuzz/, e.g. fuzz_prmtop); default: all
# Environment: CXX (default clang++-14), CC (default clang-14), FUZZ_FLAGS (more libFuzzer flags).
#
# Each target starts from fuzz/corpus/<target>/ (seeds, never written to) and keeps what it finds
# in build-fuzz/corpus/<target>/, so that a second run continues where the first stopped. Findings
# go to build-fuzz/findings/<target>/, logs to build-fuzz/logs/<target>.log. Reproduce a finding
# with build-fuzz/fuzz/<target> FILE. Exit status 1 when there is a finding.
set -euo pipefail
cd "$(dirname "$0")/../.."

build=1
jobs=$(nproc)
seconds=600
targets=()
while (($#)); do
  case "$1" in
    --no-build) build=0 ;;
    --jobs) jobs="$2"; shift ;;
    --jobs=*) jobs="${1#--jobs=}" ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    [0-9]*) seconds="$1" ;;
    *) targets+=("$1") ;;
  esac
  shift
done

out=build-fuzz
if ((build)); then
  cxx="${CXX:-clang++-14}"
  cc="${CC:-clang-14}"
  if [[ ! -f $out/CMakeCache.txt ]]; then
    cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
      -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DLANDSCAPE_CUDA=OFF \
      -DLANDSCAPE_BUILD_TESTS=OFF -DLANDSCAPE_FUZZ=ON
  fi
  cmake --build "$out" --target fuzz_targets -j"$(nproc)"
fi

if ((${#targets[@]} == 0)); then
  for source in fuzz/fuzz_*.cpp; do targets+=("$(basename "$source" .cpp)"); done
fi
for t in "${targets[@]}"; do
  [[ -x $out/fuzz/$t ]] || { echo "run_fuzzers: $out/fuzz/$t is not built" >&2; exit 2; }
done

mkdir -p "$out/logs" "$out/corpus" "$out/findings"
run_one() {
  local t=$1
  local corpus="$out/corpus/$t" findings="$out/findings/$t"
  mkdir -p "$corpus" "$findings"
  local args=(-max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1
              -artifact_prefix="$findings/")
  [[ -f fuzz/dict/$t.dict ]] && args+=(-dict="fuzz/dict/$t.dict")
  # libFuzzer stops at the first finding; run again (at most 20 times) until the time is used
  # up, so that one easy crash does not hide the rest (each finding is a file in $findings).
  local deadline=$((SECONDS + seconds)) executions=0 runs=0 left n
  : > "$out/logs/$t.log"
  while ((SECONDS < deadline && runs < 20)); do
    left=$((deadline - SECONDS))
    args[0]=-max_total_time=$left
    # shellcheck disable=SC2086
    "$out/fuzz/$t" "${args[@]}" ${FUZZ_FLAGS:-} "$corpus" "fuzz/corpus/$t" > "$out/logs/$t.run" 2>&1 || true
    cat "$out/logs/$t.run" >> "$out/logs/$t.log"
    runs=$((runs + 1))
    n=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$out/logs/$t.run" | tail -1 | awk '{print $2}')
    executions=$((executions + ${n:-0}))
    # A run that ended early without a finding (the target cannot start) is not retried.
    if ! grep -qE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)|SUMMARY: |runtime error:' "$out/logs/$t.run" \
        && ((SECONDS < deadline - 5)); then
      break
    fi
  done
  rm -f "$out/logs/$t.run"
  local found
  found=$(find "$findings" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
          -o -name 'oom-*' -o -name 'slow-unit-*' \) | wc -l)
  printf '%-20s %12s executions %4s findings  (%d runs, %s)\n' "$t" "$executions" "$found" "$runs" \
    "$out/logs/$t.log" > "$out/logs/$t.summary"
}

echo "run_fuzzers: ${#targets[@]} targets, ${seconds} s each, $jobs at once"
running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

status=0
echo "target                 executions       findings"
for t in "${targets[@]}"; do
  cat "$out/logs/$t.summary"
  if ! grep -q ' 0 findings' "$out/logs/$t.summary"; then status=1; fi
done
if ((status)); then
  echo "run_fuzzers: findings in $out/findings/ (reproduce: $out/fuzz/TARGET FILE)"
fi
exit "$status"
