#!/usr/bin/env bash
# Batched SOP on a real GPU (issue 16 item 1): the new tests (gpu/BatchedSopCuda against the CPU
# Sop oracle on 1TIT and PF8 for B = 1, 7, 64; bit identity alone / in any batch / masked / after
# other coordinates / on a stream; broken structures; bad arguments; more than 65535 structures;
# the factory; the round-based L-BFGS over it = its CPU twin, minima checked on the CPU) and the
# old SOP GPU tests (SopCuda, SopDynamicsCuda: the cell kernel and the shared device helpers moved),
# compute-sanitizer memcheck on the new tests, racecheck and synccheck on one small case, then
# bench_batched_potential's SOP rows (B = 1 .. 1024, and SopCuda at B = 1) and bench_sop (the
# dynamics, to compare with docs/benchmarks.md: the step kernel must be unchanged).
# Usage (repository root, build in ./build): tools/gpu_check_sopbatch.sh OUTDIR
# Env: SOP_BATCHES (default 1,16,128,1024), REPEATS (default 20), SOP_STEPS (bench_sop, 20000).
set -uo pipefail
out="${1:?usage: tools/gpu_check_sopbatch.sh OUTDIR}"
mkdir -p "$out"
export LANDSCAPE_SOURCE_DIR="$PWD"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/bench_batched_potential || ! -x build/bench_sop ]]; then
  run "build (no ./build with the targets)"
  export PATH="/usr/local/cuda/bin:$PATH"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON -DLANDSCAPE_MPI=OFF &&
    cmake --build build -j"$(nproc)" --target landscape_tests bench_batched_potential bench_sop; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"

new='BatchedSopCuda*:BatchedPotentialFactory.Sop*'
old='SopCuda*:SopDynamicsCuda*:PotentialSuite*Sop*:SopResume*'
run "SOP GPU tests, new and old"
./build/landscape_tests --gtest_filter="$new:$old" > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|tests ran|sop rounds" "$out/tests.log" \
  | tee -a "$out/summary.txt"

# The 66000-structure test takes long under the sanitizer: left out of memcheck.
run "compute-sanitizer memcheck on the new tests"
compute-sanitizer --tool memcheck --error-exitcode 99 ./build/landscape_tests \
  --gtest_filter="$new:-BatchedSopCuda.MoreStructuresThanOneGridHolds" \
  > "$out/sanitizer-memcheck.log" 2>&1
echo "exit $?; $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-memcheck.log" | tr '\n' ' ')" \
  | tee -a "$out/summary.txt"

# racecheck (the cell build's shared counters and block reductions, the energy sum) and synccheck
# (barriers after the mask's block-uniform early return) on one small case: 1TIT, B = 7.
for tool in racecheck synccheck; do
  run "compute-sanitizer $tool on one small new test"
  compute-sanitizer --tool "$tool" --error-exitcode 99 ./build/landscape_tests \
    --gtest_filter='BatchedSopCuda/BatchedSopCudaVsCpu.EveryStructureMatchesTheCpuOracle/1TIT_B7' \
    > "$out/sanitizer-$tool.log" 2>&1
  echo "exit $?; $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-$tool.log" | tr '\n' ' ')" \
    | tee -a "$out/summary.txt"
done

run "bench_batched_potential --models sop"
./build/bench_batched_potential --models sop --sop-batches "${SOP_BATCHES:-1,16,128,1024}" \
  --repeats "${REPEATS:-20}" 2> "$out/bench_batched_potential.log" | tee -a "$out/benchmarks.txt"
echo "exit ${PIPESTATUS[0]}" | tee -a "$out/summary.txt"

run "bench_sop (the dynamics: unchanged step kernel)"
./build/bench_sop --replicas 1,16 --steps "${SOP_STEPS:-20000}" 2> "$out/bench_sop.log" \
  | tee -a "$out/benchmarks.txt"
echo "exit ${PIPESTATUS[0]}" | tee -a "$out/summary.txt"
