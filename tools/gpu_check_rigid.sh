#!/usr/bin/env bash
# Issue 9 on a real GPU: the rigid-body tests (CPU = GPU for every reduction path, GPU L-BFGS in
# rigid coordinates) under compute-sanitizer, then seed 001 Tables 4-5 for myoglobin with
# tools/bench_rigid (local rigidification, and one large body around the heme pocket).
# Usage (repository root, build in ./build): tools/gpu_check_rigid.sh
# Env: LANDSCAPE_TEST_DATA (default tests/data), OUT (default ./gpu-check-rigid-out),
#      BACKEND (atomistic potential: cuda once the CUDA AMBER-GB exists, else cpu), STARTS, HISTORY.
set -uo pipefail
out="${OUT:-gpu-check-rigid-out}"
data="${LANDSCAPE_TEST_DATA:-tests/data}/gb/myoglobin"
backend="${BACKEND:-cuda}"
starts="${STARTS:-3}"
history="${HISTORY:-4,10,25,50,100,250,500,1000}"
mkdir -p "$out"
export LANDSCAPE_SOURCE_DIR="$PWD" LANDSCAPE_GMIN_EXECUTABLE="$PWD/build/gmin"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"
run "rigid-body tests"
./build/landscape_tests --gtest_filter='*Rigid*' > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$out/tests.log" | tee -a "$out/summary.txt"
for tool in memcheck racecheck synccheck initcheck; do
  run "compute-sanitizer $tool on RigidBodyCuda"
  compute-sanitizer --tool "$tool" --error-exitcode 99 ./build/landscape_tests \
    --gtest_filter='RigidBodyCuda.*:-*70000*' > "$out/sanitizer-$tool.log" 2>&1
  echo "exit $?; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' \
    "$out/sanitizer-$tool.log" | tr '\n' ' ')" | tee -a "$out/summary.txt"
done
run "bench_rigid myoglobin, local rigidification (Table 4 layout), potential on $backend"
./build/bench_rigid --prmtop "$data/prmtop" --inpcrd "$data/inpcrd" --layout local \
  --backend "$backend" --lbfgs-backend gpu --starts "$starts" --m "$history" \
  --max-iterations 100000 --out "$out/rigid_myoglobin_local" 2> "$out/rigid_myoglobin_local.log" \
  | tee -a "$out/benchmarks.txt"
run "bench_rigid myoglobin, one large body beyond 12 A of His64/His93 (Table 5 layout)"
./build/bench_rigid --prmtop "$data/prmtop" --inpcrd "$data/inpcrd" --layout large \
  --site-residues 64,93 --atomistic-radius 10 --large-body-radius 12 \
  --backend "$backend" --lbfgs-backend gpu --starts "$starts" --m "$history" \
  --max-iterations 100000 --out "$out/rigid_myoglobin_large" 2> "$out/rigid_myoglobin_large.log" \
  | tee -a "$out/benchmarks.txt"
