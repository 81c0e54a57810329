#!/usr/bin/env bash
# Batched rigid bodies on a real GPU (issue 16 item 1): the rigid GPU tests, new
# (BatchedRigidBodyCuda against the CPU batch, bits across batches of up to 70000 structures,
# masks and entry points, rigid Trp-cage on AMBER-GB, central differences, the rounds engine over
# the batch = its CPU twin, optim's rigid images on cuda) and old (RigidBodyCuda, now the batch of
# one; the rigid gmin CLI tests), compute-sanitizer
# memcheck of both, racecheck and synccheck on one small new test, then
# tools/bench_batched_potential's rigid rows (Trp-cage and myoglobin in make_rigid_bodies' local
# groups over the batched GB potential, B = 1, 64, 1024: us per structure and the ratio to B = 1).
# Usage (repository root, build in ./build): tools/gpu_check_rigidbatch.sh OUTDIR
# Env: BATCHES (default 1,64,1024), REPEATS (default 20).
set -uo pipefail
out="${1:?usage: tools/gpu_check_rigidbatch.sh OUTDIR}"
mkdir -p "$out"
export LANDSCAPE_SOURCE_DIR="$PWD"
run() { echo "== $*" | tee -a "$out/summary.txt"; }

if [[ ! -x build/landscape_tests || ! -x build/bench_batched_potential ]]; then
  run "build (no ./build with the targets)"
  export PATH="/usr/local/cuda/bin:$PATH"
  { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON -DLANDSCAPE_MPI=OFF &&
    cmake --build build -j"$(nproc)" --target landscape_tests bench_batched_potential; } \
    > "$out/build.log" 2>&1 || { echo "build failed, see build.log" | tee -a "$out/summary.txt"; exit 1; }
fi

run "device"; nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"

new='BatchedRigidBodyCuda.*:BatchedRigidBody.*'
old='RigidBodyCuda.*:OptimCli.RigidImagesOnTheCudaBackend:GminCli.Rigid*'
run "rigid GPU tests, new and old"
./build/landscape_tests --gtest_filter="$new:$old" > "$out/tests.log" 2>&1
echo "exit $?" | tee -a "$out/summary.txt"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|tests ran" "$out/tests.log" | tee -a "$out/summary.txt"

# The 70000-structure case and the 70000-atom body take long under the sanitizer: left out.
# The CLI tests start gmin/optim as child processes: left out too.
run "compute-sanitizer memcheck, new and old"
compute-sanitizer --tool memcheck --error-exitcode 99 ./build/landscape_tests \
  --gtest_filter="$new:RigidBodyCuda.*:-BatchedRigidBodyCuda.BitsDoNotDependOnBatchPositionMaskOrEntryPoint:RigidBodyCuda.ThreePassBodyOf70000Atoms" \
  > "$out/sanitizer-memcheck.log" 2>&1
echo "exit $?; $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-memcheck.log" | tr '\n' ' ')" \
  | tee -a "$out/summary.txt"

for tool in racecheck synccheck; do
  run "compute-sanitizer $tool on one small new test"
  compute-sanitizer --tool "$tool" --error-exitcode 99 ./build/landscape_tests \
    --gtest_filter='BatchedRigidBodyCuda.EveryStructureMatchesTheCpuBatch' \
    > "$out/sanitizer-$tool.log" 2>&1
  echo "exit $?; $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED' "$out/sanitizer-$tool.log" | tr '\n' ' ')" \
    | tee -a "$out/summary.txt"
done

run "bench_batched_potential, rigid rows"
./build/bench_batched_potential --systems trpcage,myoglobin --models gb --rigid also --precision double \
  --batches "${BATCHES:-1,64,1024}" --repeats "${REPEATS:-20}" \
  2> "$out/bench_batched_potential.log" | tee -a "$out/benchmarks.txt"
echo "exit ${PIPESTATUS[0]}" | tee -a "$out/summary.txt"
