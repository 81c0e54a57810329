#!/usr/bin/env bash
# GB chain rule as a per-tile gather (issue 17, step 3) on a real GPU: the GB GPU tests (the new
# gather against the older pair pass, both deterministic; every GB test against the CPU with the
# gather as default; the graph test in a process of its own), their users, compute-sanitizer
# memcheck and racecheck on trpcage and ash (the chain test included), the registers of the GB
# kernels, bench_potential on trpcage and myoglobin with both chain passes (double and mixed),
# a short sweep of the gather layouts at myoglobin, myoglobin_x10 with both passes when its data
# was built, and ncu per-kernel durations (myoglobin and trpcage, double, both passes).
# Each step writes a log in OUTDIR; summary.txt collects the verdicts and benchmarks.txt the tables.
# Usage (repository root, build in ./build or built here): tools/gpu_check_gbchain.sh OUTDIR
# Env: REPEATS (bench_potential calls per cell, default 50), DATA (GB systems, default
# tests/data/gb).
set -uo pipefail
out="${1:?usage: tools/gpu_check_gbchain.sh OUTDIR}"
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

# Registers and spills of the GB kernels as built (the gather kernels are held to 64 registers).
run "registers (cuobjdump -res-usage, GB kernels; d/f = double/mixed)"
obj=build/CMakeFiles/landscape_lib.dir/gpu/AmberGbKernels.cu.o
[[ -f "$obj" ]] || obj=build/landscape_tests
cuobjdump -res-usage "$obj" 2>&1 | grep -A1 -E "Function .*gb[A-Za-z]+Kernel" | grep -v '^--$' \
  | sed -E 's/.*Function .*(gb[A-Za-z]+Kernel)(I([df]))?.*/\1 \3/; s/^ +//' | paste - - \
  | tee -a "$out/summary.txt"

chain='BatchedAmberGbCuda.ChainGatherAgreesWithThePairPass:BatchedAmberGbCuda.GatherShapeRefusesBadCountsWithASentence'
run "chain gather against the pair pass (double 1e-12, mixed 5e-5 of |g|; reruns bit-identical)"
./build/landscape_tests --gtest_filter="$chain:BatchedAmberGbLayout.*" > "$out/tests-chain.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "Failure|exception|^\[  (PASSED|FAILED|SKIPPED) " "$out/tests-chain.log" | head -30 | tee -a "$out/summary.txt"

gb='AmberGbCuda/*:AmberGbCuda*:BatchedAmberGb*:BatchedPotentialFactory.*'
users='LbfgsCuda.*Trpcage*:LbfgsCuda.RunsAreBitIdentical:HessianLogProductCuda.*'
users+=':OptimCli.AmberMoleculeOnTheCudaBackend:OptimCli.LbfgsOnTheDeviceOrAClearError'
users+=':PathsampleGrowth.CudaBackendRunsEachConnectOnTheBatchedEngines'
users+=':GminWalkers.*:GbWalkers.*:GminCli.KilledGpuGbWalkerRunResumesToTheSameResults'
# The graph test in a process of its own: a capture it left open would fail every later test.
graph='BatchedAmberGbCuda.GraphLaunchesHaveThePlainBits'
run "graph launches and programmatic launches (chain gather)"
./build/landscape_tests --gtest_filter="$graph" > "$out/tests-graph.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "Failure|exception|^\[  (PASSED|FAILED) " "$out/tests-graph.log" | head -20 | tee -a "$out/summary.txt"
run "GB GPU tests (slow myoglobin_x10 case included) and the CUDA GB users"
./build/landscape_tests --gtest_filter="$gb:$users:-$graph:$chain" > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|tests ran" "$out/tests.log" | tee -a "$out/summary.txt"

# trpcage and ash, double and mixed: every kernel (both chain passes), the masked batch.
small='AmberGbCuda/AmberGbCudaVsCpu.*/ash_*:AmberGbCuda/AmberGbCudaVsCpu.*/trpcage_*'
small+=':BatchedAmberGbCuda/BatchedAmberGbCudaBits.AStructureHasTheSameBitsAloneAndInAnyBatch/*latency'
small+=":$chain"
for tool in memcheck racecheck; do
  run "compute-sanitizer $tool (trpcage and ash, chain test included)"
  compute-sanitizer --tool "$tool" --error-exitcode 99 ./build/landscape_tests \
    --gtest_filter="$small" > "$out/sanitizer-$tool.log" 2>&1
  echo "exit $?; $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-$tool.log" | tr '\n' ' ')" \
    | tee -a "$out/summary.txt"
done

data="${DATA:-tests/data/gb}"
repeats="${REPEATS:-50}"
run "bench_potential --systems trpcage,myoglobin --repeats $repeats --chain gather,pairs"
./build/bench_potential --data "$data" --systems trpcage,myoglobin --repeats "$repeats" \
  --chain gather,pairs 2> "$out/bench_potential.log" | tee -a "$out/benchmarks.txt"
echo "exit ${PIPESTATUS[0]}" | tee -a "$out/summary.txt"

# Gather layouts at myoglobin (78 tiles; defaults Born 4,3 and chain 8,3): the chain's Q and P
# around the default, and the Born pass's former P = 4 (312 blocks, 1.18 waves).
run "gather layout sweep, myoglobin (--cpu-max-atoms 0)"
for layout in "--chain-layout 4,3" "--chain-layout 8,2" "--chain-layout 8,4" \
              "--chain-layout 16,3" "--chain-layout 8,6" "--born-layout 4,4" "--born-layout 2,3"; do
  # shellcheck disable=SC2086
  ./build/bench_potential --data "$data" --systems myoglobin --repeats "$repeats" \
    --cpu-max-atoms 0 $layout 2>> "$out/bench_potential.log" | grep '^| myoglobin' \
    | sed "s/^/$layout /" | tee -a "$out/benchmarks.txt"
done

if [[ -f build/data/gb/myoglobin_x10/prmtop ]]; then
  run "bench_potential myoglobin_x10, both chain passes"
  ./build/bench_potential --data build/data/gb --systems myoglobin_x10 --repeats 20 \
    --cpu-max-atoms 0 --chain gather,pairs 2>> "$out/bench_potential.log" | tee -a "$out/benchmarks.txt"
fi

# Per-kernel durations: skip the first 60 launches (the two warm-up calls and the first timed
# calls of the double row, including the graph capture), then 12 launches = two evaluations of
# six kernels each. One chain pass per run (the double row of that pass comes first).
if command -v ncu > /dev/null; then
  for system in myoglobin trpcage; do
    for pass in gather pairs; do
      run "ncu per-kernel durations, $system, double, chain $pass"
      ncu --metrics gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active \
        --launch-skip 60 --launch-count 12 \
        ./build/bench_potential --data "$data" --systems "$system" --repeats 20 --cpu-max-atoms 0 \
        --chain "$pass" > "$out/ncu-$system-$pass.log" 2>&1
      echo "exit $?" | tee -a "$out/summary.txt"
      grep -E "^  [a-zA-Z_].*\(|gpu__time_duration.sum|warps_active|fp64_cycles" "$out/ncu-$system-$pass.log" \
        | paste - - - - | sed -E 's/ +/ /g' | tee -a "$out/benchmarks.txt"
    done
  done
else
  run "ncu not found: per-kernel durations skipped"
fi
