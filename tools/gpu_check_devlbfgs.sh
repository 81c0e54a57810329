#!/usr/bin/env bash
# Issue 16, the round-based batched L-BFGS (gpu/BatchedLbfgsRoundsCuda) on a real GPU: its tests
# (GPU = CPU twin bit for bit, poll interval / resident batch / graph change no bit, round-off
# agreement with the reference, memory and refusals), compute-sanitizer memcheck, racecheck and
# synccheck of them, then the benchmark rows: minimisations per second against B for the rounds
# engine next to the team kernel, B = 1 LJ2000 with the real potential, and the L-BFGS
# time per step at B = 1 on myoglobin (the real potential), m = 4 and 1000.
# Usage (repository root): tools/gpu_check_devlbfgs.sh OUTDIR   (builds ./build if needed)
set -uo pipefail
out="${1:?usage: tools/gpu_check_devlbfgs.sh OUTDIR}"
mkdir -p "$out"
export LANDSCAPE_SOURCE_DIR="$PWD" LANDSCAPE_GMIN_EXECUTABLE="$PWD/build/gmin"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/bench_batch ]]; then
  run "build"
  export PATH="/usr/local/cuda/bin:$PATH"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON -DLANDSCAPE_MPI=OFF &&
    cmake --build build -j"$(nproc)" --target landscape_tests bench_batch gmin; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"
run "rounds tests (GPU and CPU twin)"
./build/landscape_tests --gtest_filter='BatchedLbfgsRounds*:BatchedMinimiserFactory.*' \
  > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[ (rounds)" "$out/tests.log" | tee -a "$out/summary.txt"
for tool in memcheck racecheck synccheck; do
  run "compute-sanitizer $tool on the rounds CUDA tests"
  compute-sanitizer --tool "$tool" --error-exitcode 99 ./build/landscape_tests \
    --gtest_filter='BatchedLbfgsRoundsCuda.LargeStructureAloneAndLongHistoryEqualTheTwin:BatchedLbfgsRoundsCuda.MemoryAndRefusals:BatchedLbfgsRoundsCuda.EqualsTheCpuTwinBitForBitInMixedBatches' \
    > "$out/sanitizer-$tool.log" 2>&1
  echo "exit $?; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' \
    "$out/sanitizer-$tool.log" | tr '\n' ' ')" | tee -a "$out/summary.txt"
done
run "bench_batch: team kernel (cuda) against the rounds engine"
./build/bench_batch --sizes 13,38,75,147 --batches 1,8,64,512,4096,32768 \
  --backends cpu1,cuda,rounds --cpu-seconds 5 2> "$out/bench_batch.log" \
  | tee -a "$out/benchmarks.txt"
run "bench_batch: rounds engine, resident 4096 (refill), poll every 16 and 64 rounds"
for k in 16 64; do
  ./build/bench_batch --sizes 38 --batches 32768 --backends rounds --rounds-resident 4096 \
    --rounds-poll "$k" 2>> "$out/bench_batch.log" | grep -E '^\| LJ' | sed "s/\$/ K = $k/" \
    | tee -a "$out/benchmarks.txt"
done
run "bench_batch: B = 1 LJ2000 with the real potential (rounds)"
./build/bench_batch --sizes 2000 --batches 1 --backends rounds --max-iterations 300 \
  --min-seconds 0 2>> "$out/bench_batch.log" | tee -a "$out/benchmarks.txt"
run "history cost at B = 1: myoglobin, rounds engine, m = 4 and 1000 (time per step)"
./build/bench_history --prmtop tests/data/gb/myoglobin/prmtop --inpcrd tests/data/gb/myoglobin/inpcrd \
  --starts 1 --m 4,1000 --impl gpu-rounds --max-iterations 1500 --out "$out/history_m" \
  2>> "$out/bench_history.log" | tee -a "$out/benchmarks.txt"
