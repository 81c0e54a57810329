#!/usr/bin/env bash
# GB pair kernel at large sizes (issue 17, far pairs; docs/benchmarks.md "Large sizes, step 3") on
# a real GPU: the GB GPU tests (AmberGbCuda against the CPU, the slow myoglobin_x10 case
# included, BatchedAmberGbCuda bits and oracle; the graph-launch test in a process of its own),
# compute-sanitizer memcheck on trpcage/ash and myoglobin_x4 (whose double pair loop takes the
# far path in 68% of its warp steps) and racecheck on trpcage/ash (the pair kernel's shared
# memory changed), the far-pair census (CPU), bench_potential on myoglobin and myoglobin_x10
# (double and mixed in one run), and ncu of the pair kernel on myoglobin_x10 (duration, FP64 and
# XU pipes, issue slots, instructions). Each step writes a log in OUTDIR; summary.txt collects the
# verdicts and benchmarks.txt the tables.
# Usage (repository root, build in ./build or built here): tools/gpu_check_gbfar.sh OUTDIR
# Env: REPEATS (bench_potential calls per cell, default 20).
set -uo pipefail
out="${1:?usage: tools/gpu_check_gbfar.sh OUTDIR}"
mkdir -p "$out"
export LANDSCAPE_SOURCE_DIR="$PWD"
export PATH="/usr/local/cuda/bin:$PATH"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/bench_potential || ! -x build/gb_far_pairs ||
      ! -f build/data/gb/myoglobin_x10/prmtop ]]; then
  run "build (no ./build with the targets)"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON -DLANDSCAPE_MPI=OFF &&
    cmake --build build -j"$(nproc)" --target landscape_tests bench_potential gb_far_pairs \
      generated_test_data; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"

gb='AmberGbCuda/*:AmberGbCuda*:BatchedAmberGb*:BatchedPotentialFactory.*:AmberGbTerms.*'
graph='BatchedAmberGbCuda.GraphLaunchesHaveThePlainBits'
run "graph launches and programmatic launches (own process)"
./build/landscape_tests --gtest_filter="$graph" > "$out/tests-graph.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "Failure|exception|^\[  (PASSED|FAILED) " "$out/tests-graph.log" | head -20 | tee -a "$out/summary.txt"
run "GB GPU tests (slow myoglobin_x10 case included)"
./build/landscape_tests --gtest_filter="$gb:-$graph" > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|tests ran" "$out/tests.log" | tee -a "$out/summary.txt"

small='AmberGbCuda/AmberGbCudaVsCpu.*/ash_*:AmberGbCuda/AmberGbCudaVsCpu.*/trpcage_*'
small+=':BatchedAmberGbCuda/BatchedAmberGbCudaBits.AStructureHasTheSameBitsAloneAndInAnyBatch/*latency'
far='AmberGbCuda/AmberGbCudaVsCpu.*/myoglobin_x4_*'
run "compute-sanitizer memcheck (trpcage, ash, myoglobin_x4: the far path)"
compute-sanitizer --tool memcheck --error-exitcode 99 ./build/landscape_tests \
  --gtest_filter="$small:$far" > "$out/sanitizer-memcheck.log" 2>&1
echo "exit $?; $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-memcheck.log" | tr '\n' ' ')" \
  | tee -a "$out/summary.txt"
run "compute-sanitizer racecheck (trpcage and ash)"
compute-sanitizer --tool racecheck --error-exitcode 99 ./build/landscape_tests \
  --gtest_filter="$small" > "$out/sanitizer-racecheck.log" 2>&1
echo "exit $?; $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-racecheck.log" | tr '\n' ' ')" \
  | tee -a "$out/summary.txt"

run "far-pair census (CPU): fraction of far pairs and far warp steps"
./build/gb_far_pairs --systems trpcage,myoglobin,myoglobin_x4,myoglobin_x10 --thresholds 18,40 \
  2> "$out/gb_far_pairs.log" | tee -a "$out/benchmarks.txt"
echo "exit ${PIPESTATUS[0]}" | tee -a "$out/summary.txt"

run "bench_potential --systems myoglobin,myoglobin_x10 --repeats ${REPEATS:-20}"
./build/bench_potential --systems myoglobin,myoglobin_x10 --repeats "${REPEATS:-20}" \
  --cpu-max-atoms 0 2> "$out/bench_potential.log" | tee -a "$out/benchmarks.txt"
echo "exit ${PIPESTATUS[0]}" | tee -a "$out/summary.txt"

# The pair kernel of one myoglobin_x10 evaluation in each precision. With --repeats 1 an
# evaluation is 2 warm-up calls, 1 timed call and 3 host calls (6 pair kernels) per precision,
# double first: pair kernel 3 is a double one, pair kernel 9 a mixed one.
metrics=gpu__time_duration.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active
metrics+=,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
if command -v ncu > /dev/null; then
  for pick in "double 2" "mixed 8"; do
    set -- $pick
    run "ncu gbPairsKernel, myoglobin_x10, $1"
    ncu --kernel-name regex:gbPairsKernel --launch-skip "$2" --launch-count 1 --metrics "$metrics" \
      ./build/bench_potential --systems myoglobin_x10 --repeats 1 --cpu-max-atoms 0 \
      > "$out/ncu-pairs-$1.log" 2>&1
    echo "exit $?" | tee -a "$out/summary.txt"
    grep -E "gbPairsKernel|gpu__time|sm__|smsp__" "$out/ncu-pairs-$1.log" | sed -E 's/ +/ /g' \
      | tee -a "$out/benchmarks.txt"
  done
else
  run "ncu not found: pair-kernel metrics skipped"
fi
