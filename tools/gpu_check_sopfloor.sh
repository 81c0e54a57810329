#!/usr/bin/env bash
# Issue 17, SOP and Langevin at the floor, on a real GPU: the SOP and Langevin GPU tests (CUDA =
# CPU, persistent launches = plain launches bit for bit, resumes bit for bit), compute-sanitizer
# memcheck on them, then bench_sop (PF8 x1 and x16, plain, CUDA Graphs and persistent launches)
# and bench_langevin (N = 1e6 and 1e7, every generator). Logs and the two Markdown tables go to
# OUTDIR.
# Usage (repository root, build in ./build with CUDA): tools/gpu_check_sopfloor.sh OUTDIR
# Env: LANDSCAPE_TEST_DATA (default tests/data), SOP_STEPS (bench_sop timed steps, default 20000).
set -uo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: tools/gpu_check_sopfloor.sh OUTDIR" >&2
  exit 2
fi
out="$1"
mkdir -p "$out"
export LANDSCAPE_SOURCE_DIR="$PWD" LANDSCAPE_SOP_EXECUTABLE="$PWD/build/sop"
export LANDSCAPE_GMIN_EXECUTABLE="$PWD/build/gmin"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/bench_sop || ! -x build/bench_langevin ]]; then
  run "build (no ./build with the test and bench targets)"
  export PATH="/usr/local/cuda/bin:$PATH"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON -DLANDSCAPE_MPI=OFF &&
    cmake --build build -j"$(nproc)" --target landscape_tests bench_sop bench_langevin sop gmin; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

filter='SopCuda*:SopDynamicsCuda*:SopResume*:PotentialSuite*Sop*:*Langevin*Cuda*:HarmonicWellCuda*:RandomStreams*:LangevinMove*'
run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"
run "SOP and Langevin tests"
./build/landscape_tests --gtest_filter="$filter" > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]" "$out/tests.log" | tee -a "$out/summary.txt"

# memcheck on the GPU cases (the resume CLI tests run the sop program: its kernels are checked by
# the in-process SopResume.CudaDynamics... case instead).
run "compute-sanitizer memcheck"
compute-sanitizer --tool memcheck --error-exitcode 99 ./build/landscape_tests \
  --gtest_filter='SopCuda*:SopDynamicsCuda*:SopResume.CudaDynamics*:*Langevin*Cuda*:HarmonicWellCuda*' \
  > "$out/sanitizer-memcheck.log" 2>&1
echo "exit $?; $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-memcheck.log" | tail -3 \
  | tr '\n' ' ')" | tee -a "$out/summary.txt"

run "bench_sop PF8 x1 and x16 (plain, +G CUDA Graphs, +P persistent)"
./build/bench_sop --replicas 1,16 --steps "${SOP_STEPS:-20000}" --graphs --persistent \
  > "$out/bench_sop.md" 2> "$out/bench_sop.log"
echo "exit $?" | tee -a "$out/summary.txt"
cat "$out/bench_sop.md" | tee -a "$out/summary.txt"

run "bench_langevin N = 1e6, 1e7, every generator"
./build/bench_langevin --sizes 1000000,10000000 --cpu-max 0 \
  > "$out/bench_langevin.md" 2> "$out/bench_langevin.log"
echo "exit $?" | tee -a "$out/summary.txt"
cat "$out/bench_langevin.md" | tee -a "$out/summary.txt"
run "bench_langevin, 10 steps per synchronisation (the old table's method)"
./build/bench_langevin --sizes 1000000,10000000 --cpu-max 0 --steps-per-call 10 --no-library \
  > "$out/bench_langevin_10.md" 2>> "$out/bench_langevin.log"
echo "exit $?" | tee -a "$out/summary.txt"
cat "$out/bench_langevin_10.md" | tee -a "$out/summary.txt"
