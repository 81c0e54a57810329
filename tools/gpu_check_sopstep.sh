#!/usr/bin/env bash
# Issue 17 step 3, the SOP Langevin step at the floor, on a real GPU: the SOP and Langevin GPU
# tests (the launch variants equal plain launches bit for bit), compute-sanitizer memcheck of the
# SOP dynamics tests, bench_sop PF8 x1 and x16 with every step-kernel variant (rows +L, +o6, +o8,
# +u4 and their graph combinations), ptxas-level resources of the step kernels, and Nsight
# Compute of the step kernel at 16 replicas for the base kernel and each occupancy variant.
# Logs and the Markdown table go to OUTDIR; summary.txt collects the headlines.
# Usage (repository root, build in ./build with CUDA): tools/gpu_check_sopstep.sh OUTDIR
# Env: LANDSCAPE_TEST_DATA (default tests/data), SOP_STEPS (bench_sop timed steps, default 20000).
set -uo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: tools/gpu_check_sopstep.sh OUTDIR" >&2
  exit 2
fi
out="$1"
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
export LANDSCAPE_SOURCE_DIR="$PWD" LANDSCAPE_SOP_EXECUTABLE="$PWD/build/sop"
export LANDSCAPE_GMIN_EXECUTABLE="$PWD/build/gmin"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/bench_sop ]]; then
  run "build (no ./build with the test and bench targets)"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON -DLANDSCAPE_MPI=OFF &&
    cmake --build build -j"$(nproc)" --target landscape_tests bench_sop sop gmin; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"
run "SOP and Langevin tests"
filter='SopCuda*:SopDynamicsCuda*:SopResume*:PotentialSuite*Sop*:BatchedSopCuda*:*Langevin*Cuda*:RandomStreams*'
./build/landscape_tests --gtest_filter="$filter" > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]" "$out/tests.log" | tee -a "$out/summary.txt"

run "compute-sanitizer memcheck (SOP dynamics incl. the launch variants, SopCuda)"
compute-sanitizer --tool memcheck --error-exitcode 99 ./build/landscape_tests \
  --gtest_filter='SopCuda*:SopDynamicsCuda.StepLaunchVariants*:SopDynamicsCuda.CudaGraph*:SopDynamicsCuda.RerunsAreBitIdentical:SopResume.CudaDynamics*' \
  > "$out/sanitizer-memcheck.log" 2>&1
echo "exit $?; $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-memcheck.log" | tail -3 \
  | tr '\n' ' ')" | tee -a "$out/summary.txt"
run "compute-sanitizer racecheck (one variant case)"
compute-sanitizer --tool racecheck --error-exitcode 99 ./build/landscape_tests \
  --gtest_filter='SopDynamicsCuda.RerunsAreBitIdentical' > "$out/sanitizer-racecheck.log" 2>&1
echo "exit $?; $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out/sanitizer-racecheck.log" | tail -1)" \
  | tee -a "$out/summary.txt"

run "step kernel resources (cuobjdump -res-usage, Philox float 16-bit variants)"
obj=$(find build -name 'SopKernels.cu.o' | head -1)
if [[ -n "$obj" ]] && command -v cuobjdump > /dev/null; then
  cuobjdump -res-usage "$obj" 2>&1 | grep -A1 'sopStepKernel' | grep -B1 'REG' \
    | paste - - | c++filt | grep 'float, unsigned short, (landscape::RngKind)4, true' \
    | sed -E 's/.*sopStepKernel<([^>]*)>.*REG:([0-9]+) STACK:([0-9]+) SHARED:([0-9]+) LOCAL:([0-9]+).*/<\1> REG \2 STACK \3 SHARED \4 LOCAL \5/' \
    | tee "$out/resources.txt" | tee -a "$out/summary.txt"
else
  echo "no cuobjdump or object" | tee -a "$out/summary.txt"
fi

run "bench_sop PF8 x1 and x16, every step variant (plain and +G CUDA Graphs)"
./build/bench_sop --replicas 1,16 --steps "${SOP_STEPS:-20000}" --graphs --step-variants \
  --cpu-steps 0 > "$out/bench_sop.md" 2> "$out/bench_sop.log"
echo "exit $?" | tee -a "$out/summary.txt"
cat "$out/bench_sop.md" | tee -a "$out/summary.txt"

run "Nsight Compute: the step kernel at 16 replicas (plain launches; base, +o6, +o8, +u4, +o6u4)"
if command -v ncu > /dev/null; then
  for s in sop-gpu sop-gpu+o6 sop-gpu+o8 sop-gpu+u4 sop-gpu+o6u4; do
    # 2000 warm-up steps, then a few; skip into the timed part, one kernel each.
    ncu --kernel-name regex:sopStepKernel --launch-skip 2050 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
      --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
      ./build/bench_sop --replicas 16 --steps 200 --step-variants --settings "$s" --cpu-steps 0 \
      > "$out/ncu-$s.txt" 2>&1
    echo "$s: exit $?" | tee -a "$out/summary.txt"
    grep -E "Compute \(SM\) Throughput|Memory Throughput|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Duration|L1/TEX Hit|Stall" \
      "$out/ncu-$s.txt" | head -20 | tee -a "$out/summary.txt"
  done
else
  echo "no ncu on PATH" | tee -a "$out/summary.txt"
fi
