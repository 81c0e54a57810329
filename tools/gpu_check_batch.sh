#!/usr/bin/env bash
# Issue 16 on a real GPU: the batched-engine tests (GPU = CPU twin bit for bit, determinism,
# refusal of batches that do not fit), compute-sanitizer memcheck, racecheck, synccheck and
# initcheck on the GPU ones, then tools/bench_batch (CPU and CUDA rows).
# Usage (repository root, build in ./build): tools/gpu_check_batch.sh
# Env: OUT (default ./gpu-check-batch-out), SIZES (bench, default 13,38,75,147),
#      BATCHES (default 1,8,64,512,4096,32768), BENCH_BACKENDS (default cpu1,cpu2,cuda),
#      CPU_SECONDS (per CPU row, default 20).
set -uo pipefail
out="${OUT:-gpu-check-batch-out}"
mkdir -p "$out"
export LANDSCAPE_SOURCE_DIR="$PWD" LANDSCAPE_GMIN_EXECUTABLE="$PWD/build/gmin"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/bench_batch ]]; then
  run "build (no ./build with the batched targets)"
  export PATH="/usr/local/cuda/bin:$PATH"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON &&
    cmake --build build -j"$(nproc)" --target landscape_tests bench_batch gmin; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"
run "batched tests"
./build/landscape_tests --gtest_filter='Batched*' > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[ (shape|twin|gpu|cube)" "$out/tests.log" \
  | tee -a "$out/summary.txt"
# The sanitizers run the GPU cases on smaller work: the full mixed batches take long under them.
for tool in memcheck racecheck synccheck initcheck; do
  run "compute-sanitizer $tool on the batched CUDA tests"
  compute-sanitizer --tool "$tool" --error-exitcode 99 ./build/landscape_tests \
    --gtest_filter='BatchedLbfgsCuda.EqualsTheCpuTwinForEveryTeamShape:BatchedLennardJonesCuda.*:BatchedLbfgsCuda.RefusesABatchThatDoesNotFitNamingTheLargestThatDoes' \
    > "$out/sanitizer-$tool.log" 2>&1
  echo "exit $?; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' \
    "$out/sanitizer-$tool.log" | tr '\n' ' ')" | tee -a "$out/summary.txt"
done
run "bench_batch"
./build/bench_batch --sizes "${SIZES:-13,38,75,147}" \
  --batches "${BATCHES:-1,8,64,512,4096,32768}" --backends "${BENCH_BACKENDS:-cpu1,cpu2,cuda}" \
  --cpu-seconds "${CPU_SECONDS:-20}" 2> "$out/bench_batch.log" | tee -a "$out/benchmarks.txt"
run "bench_batch, team shapes (warp teams against block teams)"
for case in "38 1 4" "38 1 8" "38 2 8" "38 1 16" "147 2 16" "147 4 8" "147 4 16" "147 8 8"; do
  set -- $case
  echo "-- LJ$1, warps $2, tile $3" | tee -a "$out/benchmarks.txt"
  ./build/bench_batch --sizes "$1" --batches 32768 --backends cuda --warps "$2" --tile "$3" \
    2>> "$out/bench_batch.log" | grep -E '^\| LJ' | tee -a "$out/benchmarks.txt"
done
