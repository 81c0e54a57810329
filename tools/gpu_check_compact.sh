#!/usr/bin/env bash
# Issue 16, "m = 1000 costs at most 1.3x m = 4 per step" on the round-based engine: its compact
# long-history directions (landscape/minimisation/LbfgsRoundsCompactTerms.h, gpu/BatchedLbfgsRoundsCompactKernels.cu)
# on a real GPU. Runs the rounds tests (GPU = CPU twin bit for bit, two-loop and compact paths;
# the twin's compact tests against the reference), then bench_history's gpu-rounds rows at B = 1:
# myoglobin (2492 atoms, 1500 steps) and myoglobin_x10 (24920 atoms, 300 steps), m = 4 and 1000,
# with the ratio of the times per step, a two-loop/compact comparison at small m on myoglobin (to
# place the automatic threshold, BatchedRoundsOptions::compactFromHistory) and LJ2000 at B = 1
# (bench_batch), then compute-sanitizer memcheck, racecheck and synccheck of the compact shapes
# GPU test (last: the slowest part).
# Usage (repository root): tools/gpu_check_compact.sh OUTDIR   (builds ./build if needed)
set -uo pipefail
out="${1:?usage: tools/gpu_check_compact.sh OUTDIR}"
mkdir -p "$out"
export LANDSCAPE_SOURCE_DIR="$PWD"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/bench_history || ! -x build/bench_batch ||
      ! -x build/make_prmtop_copies ]]; then
  run "build"
  export PATH="/usr/local/cuda/bin:$PATH"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON -DLANDSCAPE_MPI=OFF &&
    cmake --build build -j"$(nproc)" --target landscape_tests bench_history bench_batch \
      make_prmtop_copies; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"
run "rounds tests (GPU and CPU twin, two-loop and compact)"
./build/landscape_tests --gtest_filter='BatchedLbfgsRounds*:BatchedMinimiserFactory.*' \
  > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|^\[ (rounds|compact)" "$out/tests.log" \
  | tee -a "$out/summary.txt"
# Time per step at m = 1000 over m = 4 from bench_history's CSV (column 5: ms per step).
ratio() {
  awk -F, '$2 == "gpu-rounds" && $1 == 4 { a = $5 } $2 == "gpu-rounds" && $1 == 1000 { b = $5 }
    END { if (a > 0 && b > 0) printf "%s: m = 4 %.4g ms, m = 1000 %.4g ms per step, ratio %.3f (target <= 1.3)\n", name, a, b, b / a;
          else print name ": no ratio (missing rows)" }' name="$2" "$1.csv" | tee -a "$out/summary.txt"
}
mb=tests/data/gb/myoglobin
run "bench_history gpu-rounds, myoglobin, B = 1, m = 4 and 1000, 1500 steps"
./build/bench_history --prmtop $mb/prmtop --inpcrd $mb/inpcrd --starts 1 --m 4,1000 \
  --impl gpu-rounds --max-iterations 1500 --out "$out/myoglobin" \
  2> "$out/bench_history_myoglobin.log" | tee -a "$out/benchmarks.txt"
ratio "$out/myoglobin" myoglobin
run "the same, 4000 steps (the history full for three quarters of the m = 1000 run)"
./build/bench_history --prmtop $mb/prmtop --inpcrd $mb/inpcrd --starts 1 --m 4,1000 \
  --impl gpu-rounds --max-iterations 4000 --out "$out/myoglobin_4000" \
  2> "$out/bench_history_myoglobin_4000.log" | tee -a "$out/benchmarks.txt"
ratio "$out/myoglobin_4000" "myoglobin, 4000 steps"

run "make myoglobin_x10 (10 copies, 3x2x2 grid)"
./build/make_prmtop_copies --prmtop $mb/prmtop.mbondi2 --inpcrd $mb/inpcrd --copies 10 \
  --grid 3x2x2 --output "$out/myoglobin_x10" > "$out/make_prmtop_copies.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
run "bench_history gpu-rounds, myoglobin_x10, B = 1, m = 4 and 1000, 300 steps"
./build/bench_history --prmtop "$out/myoglobin_x10/prmtop" --inpcrd "$out/myoglobin_x10/inpcrd" \
  --starts 1 --m 4,1000 --impl gpu-rounds --max-iterations 300 --langevin-steps 1000 \
  --out "$out/myoglobin_x10" 2> "$out/bench_history_myoglobin_x10.log" | tee -a "$out/benchmarks.txt"
ratio "$out/myoglobin_x10" myoglobin_x10

run "threshold: myoglobin, B = 1, 1500 steps, two-loop (-1) against compact (1) at small m"
for k in -1 1; do
  ./build/bench_history --prmtop $mb/prmtop --inpcrd $mb/inpcrd --starts 1 --m 4,16,32,64 \
    --impl gpu-rounds --max-iterations 1500 --rounds-compact "$k" --out "$out/threshold_$k" \
    2> "$out/bench_history_threshold_$k.log" | grep -E '^\| [0-9]' | sed "s/\$/ rounds-compact $k/" \
    | tee -a "$out/benchmarks.txt"
done
run "two-loop at m = 1000 for comparison (300 steps; was 9.93 ms per step)"
./build/bench_history --prmtop $mb/prmtop --inpcrd $mb/inpcrd --starts 1 --m 1000 \
  --impl gpu-rounds --max-iterations 300 --rounds-compact -1 --out "$out/twoloop_1000" \
  2> "$out/bench_history_twoloop_1000.log" | grep -E '^\| [0-9]' | tee -a "$out/benchmarks.txt"
run "bench_batch rounds, LJ2000, B = 1, 300 steps: m = 4, m = 1000 two-loop (-1) and compact (0)"
./build/bench_batch --sizes 2000 --batches 1 --backends rounds --max-iterations 300 --min-seconds 0.001 \
  --m 4 2> "$out/bench_batch.log" | grep -E '^\| LJ' | sed 's/$/ m = 4/' | tee -a "$out/benchmarks.txt"
for k in -1 0; do
  ./build/bench_batch --sizes 2000 --batches 1 --backends rounds --max-iterations 300 \
    --min-seconds 0.001 --m 1000 --rounds-compact "$k" 2>> "$out/bench_batch.log" | grep -E '^\| LJ' \
    | sed "s/\$/ m = 1000, rounds-compact $k/" | tee -a "$out/benchmarks.txt"
done

# Last, as they take longest: the sanitizers on the compact kernels (shapes, wrap, resets).
for tool in memcheck racecheck synccheck; do
  run "compute-sanitizer $tool on the compact shapes GPU test"
  compute-sanitizer --tool "$tool" --error-exitcode 99 ./build/landscape_tests \
    --gtest_filter='BatchedLbfgsRoundsCuda.CompactShapesAndResetsEqualTheTwinBitForBit' \
    > "$out/sanitizer-$tool.log" 2>&1
  echo "exit $?; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' \
    "$out/sanitizer-$tool.log" | tr '\n' ' ')" | tee -a "$out/summary.txt"
done

