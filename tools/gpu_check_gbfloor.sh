#!/usr/bin/env bash
# GB evaluation latency at small and mid sizes (issue 17) on a real GPU: the GB GPU tests
# (AmberGbCuda against the CPU, BatchedAmberGbCuda bits and oracle, the graph-launch test, the
# L-BFGS, Hessian, optim, pathsample and gmin walker runs over the CUDA GB potential, the last
# on the round engine), compute-sanitizer memcheck and racecheck on a small subset (trpcage and
# ash), bench_potential on trpcage and myoglobin, and ncu per-kernel durations (double, trpcage
# and myoglobin). Each step writes a log in OUTDIR; summary.txt collects the verdicts and
# benchmarks.txt the tables.
# Usage (repository root, build in ./build or built here): tools/gpu_check_gbfloor.sh OUTDIR
# Env: REPEATS (bench_potential calls per cell, default 50), DATA (GB systems, default
# tests/data/gb).
set -uo pipefail
out="${1:?usage: tools/gpu_check_gbfloor.sh OUTDIR}"
mkdir -p "$out"
export LANDSCAPE_SOURCE_DIR="$PWD"
export PATH="/usr/local/cuda/bin:$PATH"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/bench_potential || ! -x build/optim ||
      ! -x build/pathsample ]]; then
  run "build (no ./build with the targets)"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON -DLANDSCAPE_MPI=OFF &&
    cmake --build build -j"$(nproc)"; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"

gb='AmberGbCuda/*:AmberGbCuda*:BatchedAmberGb*:BatchedPotentialFactory.*'
users='LbfgsCuda.*Trpcage*:LbfgsCuda.RunsAreBitIdentical:HessianLogProductCuda.*'
users+=':OptimCli.AmberMoleculeOnTheCudaBackend:OptimCli.LbfgsOnTheDeviceOrAClearError'
users+=':PathsampleGrowth.CudaBackendRunsEachConnectOnTheBatchedEngines'
# GB on the round engine (its own graph captures the GB launches: plain launches inside it).
users+=':GminWalkers.*:GbWalkers.*:GminCli.KilledGpuGbWalkerRunResumesToTheSameResults'
run "GB GPU tests (slow myoglobin_x10 case included) and the CUDA GB users"
./build/landscape_tests --gtest_filter="$gb:$users" > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|tests ran" "$out/tests.log" | tee -a "$out/summary.txt"

# trpcage and ash, double and mixed: every kernel, the graph path and the masked batch.
small='AmberGbCuda/AmberGbCudaVsCpu.*/ash_*:AmberGbCuda/AmberGbCudaVsCpu.*/trpcage_*'
small+=':BatchedAmberGbCuda/BatchedAmberGbCudaBits.AStructureHasTheSameBitsAloneAndInAnyBatch/*latency'
small+=':BatchedAmberGbCuda.GraphLaunchesHaveThePlainBits'
for tool in memcheck racecheck; do
  run "compute-sanitizer $tool (trpcage and ash)"
  compute-sanitizer --tool "$tool" --error-exitcode 99 ./build/landscape_tests \
    --gtest_filter="$small" > "$out/sanitizer-$tool.log" 2>&1
  echo "exit $?; $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-$tool.log" | tr '\n' ' ')" \
    | tee -a "$out/summary.txt"
done

data="${DATA:-tests/data/gb}"
run "bench_potential --systems trpcage,myoglobin --repeats ${REPEATS:-50} --data $data"
./build/bench_potential --data "$data" --systems trpcage,myoglobin --repeats "${REPEATS:-50}" \
  2> "$out/bench_potential.log" | tee -a "$out/benchmarks.txt"
echo "exit ${PIPESTATUS[0]}" | tee -a "$out/summary.txt"

# Per-kernel durations: skip the first 60 launches (CPU reference timing launches nothing; the
# two warm-up calls and the first timed calls of the double row, including the graph capture),
# then 12 launches = two evaluations of six kernels each.
if command -v ncu > /dev/null; then
  for system in trpcage myoglobin; do
    run "ncu per-kernel durations, $system, double"
    ncu --metrics gpu__time_duration.sum --launch-skip 60 --launch-count 12 \
      ./build/bench_potential --data "$data" --systems "$system" --repeats 20 --cpu-max-atoms 0 \
      > "$out/ncu-$system.log" 2>&1
    echo "exit $?" | tee -a "$out/summary.txt"
    grep -E "^  [a-zA-Z_].*\(|gpu__time_duration.sum" "$out/ncu-$system.log" \
      | paste - - | sed -E 's/ +/ /g' | tee -a "$out/benchmarks.txt"
  done
else
  run "ncu not found: per-kernel durations skipped"
fi
