#!/usr/bin/env bash
# Issue 17, the lagged-Fibonacci Langevin step at 1e6 and 1e7, on a real GPU: the random-stream
# and Langevin GPU tests (CUDA words = CPU words for every ring access and for groups, fused
# oscillators of every access bit for bit equal), compute-sanitizer memcheck of them,
# bench_langevin at N = 1e6 and 1e7 for every generator with every lagged-Fibonacci access
# (the table with the 1.25x target column), and Nsight Compute of the lagged-Fibonacci fused
# kernel at 1e6 (DRAM bytes, L2 hit rate, duration) for every access. Logs and tables go to OUTDIR.
# Usage (repository root, build in ./build with CUDA): tools/gpu_check_lagfib.sh OUTDIR
set -uo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: tools/gpu_check_lagfib.sh OUTDIR" >&2
  exit 2
fi
out="$1"
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/bench_langevin ]]; then
  run "build (no ./build with the test and bench targets)"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON -DLANDSCAPE_MPI=OFF &&
    cmake --build build -j"$(nproc)" --target landscape_tests bench_langevin; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

filter='Random*:*Langevin*:HarmonicWellCuda*:BrownianOscillators*:SlowRandomStreamsCuda*:-SlowLangevin*'
run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"
run "random-stream and Langevin tests"
./build/landscape_tests --gtest_filter="$filter" > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]" "$out/tests.log" | tee -a "$out/summary.txt"

run "compute-sanitizer memcheck"
compute-sanitizer --tool memcheck --error-exitcode 99 ./build/landscape_tests \
  --gtest_filter='RandomStreamsCuda*:*LangevinCuda*:BrownianOscillators*:HarmonicWellCuda*' \
  > "$out/sanitizer-memcheck.log" 2>&1
echo "exit $?; $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-memcheck.log" | tail -3 \
  | tr '\n' ' ')" | tee -a "$out/summary.txt"

access=sequential,batched,streaming,streaming-keep
run "bench_langevin N = 1e6, 1e7, every generator, lagged Fibonacci with every access"
./build/bench_langevin --sizes 1000000,10000000 --cpu-max 0 --lagfib-access "$access" \
  > "$out/bench_langevin.md" 2> "$out/bench_langevin.log"
echo "exit $?" | tee -a "$out/summary.txt"
cat "$out/bench_langevin.md" | tee -a "$out/summary.txt"

# Three profiled launches per access (after 5 warm-up launches); the metrics name what separates
# the step from its bytes: DRAM traffic against 80 B per oscillator, the L2 hit rate (positions
# kept or not), the kernel's duration without launch gaps. --cache-control none: the L2 keeps what
# the previous step left, as in a run (ncu flushes it otherwise); --clock-control none: the
# clocks bench_langevin ran at.
if command -v ncu > /dev/null; then
  for a in ${access//,/ }; do
    run "ncu lagged-fibonacci fused kernel, N = 1e6, access $a"
    ncu --kernel-name regex:fusedStepKernel --launch-skip 5 --launch-count 3 \
      --cache-control none --clock-control none \
      --metrics dram__bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum \
      ./build/bench_langevin --sizes 1000000 --generators lagged-fibonacci --lagfib-access "$a" \
      --cpu-max 0 --no-library --seconds 0.01 --steps-per-call 10 \
      > "$out/ncu-$a.log" 2>&1
    echo "exit $?" | tee -a "$out/summary.txt"
    grep -E "dram__bytes|lts__t_sector_hit_rate|gpu__time_duration" "$out/ncu-$a.log" | tail -5 \
      | tee -a "$out/summary.txt"
  done
else
  run "ncu not found: Nsight Compute metrics skipped"
fi
