#!/usr/bin/env bash
# The backend decided once, on a real GPU: gmin's walker plan (planGminWalkers: the engine, the
# default walkers from the device's properties and the potential's memory plan, the walkers' one
# device potential), the device potentials' shared memory plan (bytesPerStructure, reserve,
# requireScratchFits) and the CUDA resource owners (gpu/CudaHandles.h: streams, events, pinned
# memory in BatchedLbfgsRoundsCuda, BatchedAmberGbCuda, SopCuda).
#   1. the GPU tests of that code (a few minutes);
#   2. compute-sanitizer memcheck of the walker and rounds-engine GPU tests (the owners' frees);
#   3. gmin's header lines on the GPU (AMBER-GB default W, trp-cage W 8 with 3 resident, SOP
#      default W, LJ38 teams, one AMBER-GB chain); with BASE_GMIN=/path/to/gmin of the commit
#      before, each run's lines (timings left out) are compared with that gmin's.
# Usage (repository root, build in ./build): tools/gpu_check_backendplan.sh OUTDIR
# Env: PARTS (default "tests memcheck gmin"), BASE_GMIN (optional).
set -uo pipefail
out="${1:?usage: tools/gpu_check_backendplan.sh OUTDIR}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
export LANDSCAPE_SOURCE_DIR="$PWD"
export LANDSCAPE_GMIN_EXECUTABLE="$PWD/build/gmin"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/gmin ]]; then
  run "build (no ./build with the targets)"
  export PATH="/usr/local/cuda/bin:$PATH"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON -DLANDSCAPE_MPI=OFF &&
    cmake --build build -j"$(nproc)" --target landscape_tests gmin; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"
parts="${PARTS:-tests memcheck gmin}"
want() { [[ " $parts " == *" $1 "* ]]; }

tests='GminWalkers.*:GbWalkers.*:GminCli.*Gpu*:GminCli.MoleculeWalkerZeroIsTheSingleChain'
tests+=':WalkerEnsemble*:AmberGbCuda.*:AmberGbCudaVsCpu.*:BatchedAmberGbCuda*.*'
tests+=':BatchedAmberGbLayout.*:BatchedPotentialFactory.*:BatchedLbfgsCuda.*'
tests+=':BatchedLennardJonesCuda.*:BatchedMinimiserFactory.*:BatchedLbfgsRoundsCuda.*'
tests+=':BatchedRigidBodyCuda.*:RigidBodyCuda.*:BatchedSopCuda*.*:SopCuda.*:SopDynamicsCuda.*'
tests+=':OptimCli.*Cuda*:OptimCli.LbfgsOnTheDevice*'
if want tests; then
  run "GPU tests of the plan, the memory plan and the resource owners"
  ./build/landscape_tests --gtest_filter="$tests" > "$out/tests.log" 2>&1
  echo "exit $?" | tee -a "$out/summary.txt"
  grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]|tests ran" "$out/tests.log" | tee -a "$out/summary.txt"
fi

if want memcheck; then
  run "compute-sanitizer memcheck (walkers on the rounds engine, the engine, batched GB and SOP)"
  compute-sanitizer --tool memcheck --error-exitcode 99 ./build/landscape_tests \
    --gtest_filter='GminWalkers.*OnTheGpu*:BatchedLbfgsRoundsCuda.*:BatchedAmberGbCuda.*:BatchedSopCuda.*:SopDynamicsCuda.CudaGraph*' \
    > "$out/sanitizer-memcheck.log" 2>&1
  echo "exit $?; $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-memcheck.log" | sort | uniq -c | tr '\n' ' ')" \
    | tee -a "$out/summary.txt"
fi

if want gmin; then
  run "gmin header lines on the GPU${BASE_GMIN:+ against $BASE_GMIN}"
  d="$PWD/tests/data"
  runs=(
    "--prmtop $d/gb/ash/ash.parm7 --inpcrd $d/gb/ash/ash.rst7 --backend cuda --steps 2 --seed 7"
    "--prmtop $d/gb/trpcage/prmtop --inpcrd $d/gb/trpcage/inpcrd --backend cuda --steps 2 --seed 7 --walkers 8 --walker-resident 3"
    "--sop-pdb $d/sop/1TIT.pdb --backend cuda --steps 2 --seed 3"
    "--lj 38 --backend cuda --steps 3 --seed 3"
    "--prmtop $d/gb/ash/ash.parm7 --inpcrd $d/gb/ash/ash.rst7 --backend cuda --steps 3 --seed 7 --walkers 1"
  )
  for i in "${!runs[@]}"; do
    for tag in new base; do
      bin="$PWD/build/gmin"
      if [[ $tag == base ]]; then [[ -n "${BASE_GMIN:-}" ]] || continue; bin="$BASE_GMIN"; fi
      # Timings (t=, rates, seconds) left out; everything else compared.
      (cd "$out" && timeout 120 "$bin" ${runs[$i]} --output "gmin-$tag-$i" 2>&1 |
        sed -E 's/t= *[0-9.]+//; s/\( *[0-9.]+\/s\)//; s/after [0-9.]+ s/after X s/' \
        > "gmin-$tag-$i.txt")
    done
    echo "run $i: ${runs[$i]}" | tee -a "$out/summary.txt"
    grep -E '^gmin: (walker|[0-9]+ walkers)|lowest energy' "$out/gmin-new-$i.txt" | tee -a "$out/summary.txt"
    if [[ -n "${BASE_GMIN:-}" ]]; then
      if diff "$out/gmin-base-$i.txt" "$out/gmin-new-$i.txt" > "$out/gmin-diff-$i.txt"; then
        echo "  same lines as the base gmin" | tee -a "$out/summary.txt"
      else
        echo "  DIFFERS from the base gmin: gmin-diff-$i.txt" | tee -a "$out/summary.txt"
      fi
    fi
  done
fi
