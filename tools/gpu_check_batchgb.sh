#!/usr/bin/env bash
# Batched AMBER-GB on a real GPU (issues 16 and 17): the GB GPU tests, old (AmberGbCuda, now a
# batch of one) and new (BatchedAmberGbCuda against the CPU oracle, bit identity across batches,
# masks and entry points, an overlap in the batch, bad arguments, more than 65535 structures),
# compute-sanitizer memcheck on the new tests, racecheck and synccheck on one small new test, then
# tools/bench_batched_potential (trpcage and myoglobin, B = 1 .. 1024) and bench_potential's
# trpcage/myoglobin rows (the B = 1 path through AmberGbCuda, to compare with docs/benchmarks.md).
# Usage (repository root, build in ./build): tools/gpu_check_batchgb.sh OUTDIR
# Env: BATCHES (default 1,8,64,256,1024), REPEATS (default 20).
set -uo pipefail
out="${1:?usage: tools/gpu_check_batchgb.sh OUTDIR}"
mkdir -p "$out"
export LANDSCAPE_SOURCE_DIR="$PWD"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/bench_batched_potential || ! -x build/bench_potential ]]; then
  run "build (no ./build with the targets)"
  export PATH="/usr/local/cuda/bin:$PATH"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON -DLANDSCAPE_MPI=OFF &&
    cmake --build build -j"$(nproc)" --target landscape_tests bench_batched_potential \
      bench_potential make_prmtop_copies; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"

new='BatchedAmberGbCuda*:BatchedPotentialFactory.*'
old='AmberGbCuda/*:AmberGbCuda*'
run "GB GPU tests, old and new (slow myoglobin_x10 case included)"
./build/landscape_tests --gtest_filter="$new:$old" \
  > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|tests ran" "$out/tests.log" | tee -a "$out/summary.txt"

# The 66535-structure test takes long under the sanitizer: left out of memcheck.
run "compute-sanitizer memcheck on the new tests"
compute-sanitizer --tool memcheck --error-exitcode 99 ./build/landscape_tests \
  --gtest_filter="$new:-BatchedAmberGbCuda.MoreStructuresThanOneGridHolds" \
  > "$out/sanitizer-memcheck.log" 2>&1
echo "exit $?; $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-memcheck.log" | tr '\n' ' ')" \
  | tee -a "$out/summary.txt"

# racecheck (shared memory: the slot sums now run in the pair grids' tails) and synccheck
# (barriers under block-uniform conditions) on one small new test: ash, double and mixed, both
# layouts.
for tool in racecheck synccheck; do
  run "compute-sanitizer $tool on one small new test"
  compute-sanitizer --tool "$tool" --error-exitcode 99 ./build/landscape_tests \
    --gtest_filter='BatchedAmberGbCuda/BatchedAmberGbCudaVsCpu.EveryStructureMatchesTheCpuOracle/ash_*' \
    > "$out/sanitizer-$tool.log" 2>&1
  echo "exit $?; $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-$tool.log" | tr '\n' ' ')" \
    | tee -a "$out/summary.txt"
done

run "bench_batched_potential"
./build/bench_batched_potential --systems trpcage,myoglobin --batches "${BATCHES:-1,8,64,256,1024}" \
  --repeats "${REPEATS:-20}" 2> "$out/bench_batched_potential.log" | tee -a "$out/benchmarks.txt"
echo "exit ${PIPESTATUS[0]}" | tee -a "$out/summary.txt"

run "bench_potential (B = 1 through AmberGbCuda)"
./build/bench_potential --systems trpcage,myoglobin --repeats "${REPEATS:-20}" \
  2> "$out/bench_potential.log" | tee -a "$out/benchmarks.txt"
echo "exit ${PIPESTATUS[0]}" | tee -a "$out/summary.txt"
