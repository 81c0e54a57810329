#!/usr/bin/env bash
# gmin walkers of molecules on a real GPU (issue 18 item 4): AMBER-GB and SOP walkers quenched
# together by the round-based batched L-BFGS (gpu/BatchedLbfgsRoundsCuda) over the batched device
# potential.
#   1. the GPU tests (about 1 minute): the rounds engine over the device GB = its CPU twin bit
#      for bit, walker for walker, with side-chain rotations and chirality/cis-trans checks, and
#      3 resident slots of 8 walkers the same, SOP too (GminWalkers.*); gmin end to end: saved
#      minima are minima of the CPU AmberGb, refill gives the same files (GbWalkers.*), kill -9
#      and --resume gives the uninterrupted run (GminCli.KilledGpuGbWalkerRun...); the LJ GPU walker and the
#      WalkerEnsemble tests as controls;
#   2. compute-sanitizer memcheck of the new GPU tests (the gmin children included);
#   3. bench_molecule_walkers: trp-cage (GB, double) walker quenches per second against W on the
#      CPU (all cores) and the GPU, with the ratio to W = 1 and to the CPU.
# Usage (repository root, build in ./build): tools/gpu_check_molwalk.sh OUTDIR
# Env: WALKERS (default 1,8,32,128,512), STEPS (default 4), CPU_SECONDS (default 120: CPU rows
# predicted to take longer are skipped), PARTS (default "tests memcheck bench gmin": run only
# some, e.g. PARTS=bench to stay within a 10-minute command limit; about 2 + 3 + 6 + 1 minutes).
set -uo pipefail
out="${1:?usage: tools/gpu_check_molwalk.sh OUTDIR}"
mkdir -p "$out"
export LANDSCAPE_SOURCE_DIR="$PWD"
export LANDSCAPE_GMIN_EXECUTABLE="$PWD/build/gmin"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/gmin || ! -x build/bench_molecule_walkers ]]; then
  run "build (no ./build with the targets)"
  export PATH="/usr/local/cuda/bin:$PATH"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON -DLANDSCAPE_MPI=OFF &&
    cmake --build build -j"$(nproc)" --target landscape_tests gmin bench_molecule_walkers; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"
parts="${PARTS:-tests memcheck bench gmin}"
want() { [[ " $parts " == *" $1 "* ]]; }

new='GminWalkers.*:GbWalkers.*:GminCli.KilledGpuGbWalkerRunResumesToTheSameResults'
control='GminCli.KilledGpuWalkerRunResumesToTheSameResults:GminCli.MoleculeWalkerZeroIsTheSingleChain:WalkerEnsemble*'
if want tests; then
  run "walker GPU tests (new) and controls"
  ./build/landscape_tests --gtest_filter="$new:$control" > "$out/tests.log" 2>&1
  echo "exit $?" | tee -a "$out/summary.txt"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|tests ran" "$out/tests.log" | tee -a "$out/summary.txt"
fi

# kill -9 under the sanitizer would only test the sanitizer: left out.
if want memcheck; then
  run "compute-sanitizer memcheck on the new GPU tests (gmin children included)"
  compute-sanitizer --tool memcheck --target-processes all --error-exitcode 99 \
    ./build/landscape_tests \
    --gtest_filter='GminWalkers.*OnTheGpu*:GbWalkers.OnTheGpu*' \
    > "$out/sanitizer-memcheck.log" 2>&1
  echo "exit $?; $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-memcheck.log" | sort | uniq -c | tr '\n' ' ')" \
    | tee -a "$out/summary.txt"
fi

if want bench; then
  run "bench_molecule_walkers (trp-cage, GB double)"
  ./build/bench_molecule_walkers --prmtop tests/data/gb/trpcage/prmtop \
    --inpcrd tests/data/gb/trpcage/inpcrd --walkers "${WALKERS:-1,8,32,128,512}" \
    --steps "${STEPS:-4}" --cpu-seconds "${CPU_SECONDS:-120}" \
    2> "$out/bench_molecule_walkers.log" | tee -a "$out/benchmarks.txt"
  echo "exit ${PIPESTATUS[0]}" | tee -a "$out/summary.txt"
fi

if want gmin; then
  run "gmin default walker count for trp-cage on cuda (header lines)"
  ./build/gmin --prmtop tests/data/gb/trpcage/prmtop --inpcrd tests/data/gb/trpcage/inpcrd \
    --backend cuda --steps 2 --output "$out/gmin-trpcage" > "$out/gmin-trpcage.log" 2>&1
  echo "exit $?" | tee -a "$out/summary.txt"
  grep -E "^gmin: .*walker|lowest energy" "$out/gmin-trpcage.log" | tee -a "$out/summary.txt"
fi
