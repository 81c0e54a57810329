#!/usr/bin/env bash
# The GPU session's one batch: the whole test suite on a real device, compute-sanitizer on the
# CUDA tests, and the benchmarks. Logs go to $OUT (default ./gpu-check-out).
# Usage (from the repository root, with a build in ./build): tools/gpu_check.sh
# Test data: tests/data (set LANDSCAPE_TEST_DATA to use another copy).
set -uo pipefail
out="${OUT:-gpu-check-out}"
mkdir -p "$out"
export LANDSCAPE_SOURCE_DIR="$PWD" LANDSCAPE_GMIN_EXECUTABLE="$PWD/build/gmin"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"
run "all tests (slow suite included)"
./build/landscape_tests --gtest_filter="${TEST_FILTER:-*}" > "$out/tests.log" 2>&1; echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$out/tests.log" | tee -a "$out/summary.txt"
for tool in ${SANITIZER_TOOLS:-memcheck racecheck synccheck initcheck}; do
  run "compute-sanitizer $tool on the CUDA tests"
  compute-sanitizer --tool "$tool" --error-exitcode 99 ./build/landscape_tests \
    --gtest_filter='*cuda*:*Cuda*' > "$out/sanitizer-last.log" 2>&1
  echo "exit $?; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out/sanitizer-last.log" | tr '\n' ' ')" \
    | tee -a "$out/summary.txt"
  { echo "== $tool"; cat "$out/sanitizer-last.log"; } >> "$out/sanitizer.log"
  rm -f "$out/sanitizer-last.log"
done
run "LJ potential benchmark"
./build/bench_lj_potential --sizes 38,147,1000,10000,30000 2>&1 | tee -a "$out/benchmarks.txt"
run "gmin on the CUDA backend"
work=$(mktemp -d)
(cd "$work" && "$LANDSCAPE_GMIN_EXECUTABLE" --backend cuda --lj 38 --steps 300 --seed 5 --quiet \
  --output gmin-cuda && "$LANDSCAPE_GMIN_EXECUTABLE" --lj 38 --steps 300 --seed 5 --quiet \
  --output gmin-cpu) 2>&1 | tee -a "$out/summary.txt"
if cmp -s "$work/gmin-cuda/lowest" "$work/gmin-cpu/lowest"; then
  echo "CUDA and CPU lowest files identical" | tee -a "$out/summary.txt"
else
  diff "$work/gmin-cuda/lowest" "$work/gmin-cpu/lowest" | head -5 | tee -a "$out/summary.txt"
fi
run "L-BFGS direction vs byte floor"
./build/bench_lbfgs_direction --atoms 38,2492,24920 --m 4,10,100,1000 2>&1 | tee -a "$out/benchmarks.txt"
run "history-size tables, LJ2500"
(cd "$work" && "$OLDPWD/build/bench_history" --lj 2500 --starts 2 --m 4,10,100,1000 \
  --max-iterations 20000 --out history_lj2500 2>/dev/null) | tee -a "$out/benchmarks.txt"
if [[ -x ./build/bench_langevin ]]; then
  run "Langevin / RNG benchmark"
  timeout 150 ./build/bench_langevin 2>&1 | tee -a "$out/benchmarks.txt"
fi
if [[ -x ./build/bench_optim ]]; then
  data="${LANDSCAPE_TEST_DATA:-tests/data}"
  run "transition-state tables (seed 001 Tables 6-8), trpcage CPU and CUDA"
  timeout 1800 ./build/bench_optim --prmtop "$data/gb/trpcage/prmtop" --inpcrd "$data/gb/trpcage/inpcrd" \
    --backend cpu,cuda --starts 3 2>>"$out/bench_optim.log" | tee -a "$out/benchmarks.txt"
  run "transition-state tables, myoglobin CUDA only"
  timeout 1800 ./build/bench_optim --prmtop "$data/gb/myoglobin/prmtop" --inpcrd "$data/gb/myoglobin/inpcrd" \
    --backend cuda --starts 3 2>>"$out/bench_optim.log" | tee -a "$out/benchmarks.txt"
fi
