#!/usr/bin/env bash
# The GPU check: named suites of GPU tests, compute-sanitizer runs, benchmarks and Nsight Compute
# profiles, for a machine with a CUDA device. It runs in the repository root: OUT, --build-dir and
# LANDSCAPE_TEST_DATA are relative to it.
#
# Usage: tools/gpu_check.sh [OPTIONS] SUITE...
#   --list           print the suites and what each runs, then exit
#   --dry-run        print the commands (and the targets a build would make) without running them
#   --build          build the programs the chosen suites need before running (incremental);
#                    without it they are built only when missing
#   --build-dir DIR  the build to use (default ./build; env BUILD_DIR)
#   --parts LIST     which parts of each suite to run, comma-separated (default all):
#                    tests, sanitizers, bench, profile (env PARTS)
#   --limit S        time limit of every program in seconds (default: each step's own, 1800 s
#                    unless said otherwise); a program that outlives it is stopped by
#                    `timeout --foreground -k 10`
#   --pack           gzip each log into OUT/logs.tar once its step is done, so that OUT holds
#                    three files (summary.txt, benchmarks.txt, logs.tar): for a machine that
#                    returns only a few files of its output folder
# Output: OUT (env OUT, default ./gpu-check-out): summary.txt (each step's command, exit status and
# verdict lines), benchmarks.txt (the tables), and per suite OUT/SUITE/ with each step's log
# (NAME.log; a benchmark's table also as NAME.out) and the files the benchmarks write.
# Exit status: 0 when every step exited 0, 1 otherwise (summary.txt lists the failed steps), 2 for
# a bad command line.
#
# Suites (--list prints them; --dry-run SUITE prints a suite's commands):
#   tests       every test (the slow ones too; env TEST_FILTER narrows it)
#   sanitizers  memcheck, racecheck, synccheck and initcheck on every CUDA test (*cuda*:*Cuda*)
#   lj          Lennard-Jones on CUDA: the potential tests, bench_potential --potential lj, gmin
#               on cuda against cpu (the same lowest file)
#   lbfgs       single-structure L-BFGS on the GPU: bench_lbfgs_direction, bench_history LJ2500
#   rounds      the round-based batched L-BFGS and its compact long-history directions
#   batch       the batched LJ team kernel: Batched* tests, bench_batch, team shapes
#   gb          AMBER-GB on CUDA, one structure and batched: tests and their users, sanitizers,
#               bench_potential, gb_far_pairs, bench_batched_potential, ncu of the kernels
#   rigid       rigid bodies, one structure and batched: bench_rigid (Tables 4-5 layouts of
#               Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016), bench_batched_potential
#   sop         SOP, batched and dynamics: bench_sop (plain, CUDA Graphs, persistent launches),
#               bench_batched_potential --models sop
#   pair        pair potentials with species, cutoffs, boxes and tables on CUDA, one structure
#               (Verlet list) and batched: tests and the programs' pair tests, sanitizers,
#               bench_pair_potential (KA N = 4,000-1,000,000, lanes, tabulated, batched KA 256),
#               gmin's Kob-Andersen 256 walkers, ncu of the list evaluation
#   rng         random streams and overdamped Langevin (alias langevin): bench_langevin, ncu of
#               the lagged-Fibonacci step
#   walkers     gmin's molecule walkers on the round-based engine: bench_molecule_walkers
#   optim       transition-state tables (Tables 6-8 layout of the same paper) with bench_optim
#   all         every suite above, in this order
#
# The 13 scripts this driver replaces, and where their steps went:
#   gpu_check.sh            tests, sanitizers, lj (bench_lj_potential, now bench_potential
#                           --potential lj; gmin cuda = cpu), lbfgs, rng (bench_langevin), optim
#   gpu_check_batch.sh      batch
#   gpu_check_devlbfgs.sh   rounds (its bench_batch B = 1 LJ2000 row is the compact m = 4 row)
#   gpu_check_compact.sh    rounds (myoglobin_x10 from the build's generated data)
#   gpu_check_batchgb.sh    gb (its bench_potential trpcage,myoglobin run is gbfloor's, 50 repeats)
#   gpu_check_gbfloor.sh    gb
#   gpu_check_gbfar.sh      gb
#   gpu_check_rigid.sh      rigid
#   gpu_check_rigidbatch.sh rigid
#   gpu_check_sopbatch.sh   sop
#   gpu_check_sopfloor.sh   sop (tests, memcheck, bench_sop) and rng (Langevin tests, memcheck,
#                           bench_langevin; its default-access run is a row of the access table)
#   gpu_check_lagfib.sh     rng
#   gpu_check_molwalk.sh    walkers (PARTS=bench: --parts bench; its "gmin" part is in bench)
#
# Environment (defaults as the old scripts had them): LANDSCAPE_TEST_DATA (tests/data),
# TEST_FILTER (*), SANITIZER_TOOLS (memcheck racecheck synccheck initcheck: the tools any suite may
# run), REPEATS (bench_potential and bench_batched_potential calls per cell: 50 for the gb
# small/mid table, 20 elsewhere), CPU_SECONDS (batch 20, walkers 120), BATCH_SIZES (13,38,75,147),
# BATCH_BATCHES (1,8,64,512,4096,32768), BATCH_BACKENDS (cpu1,cpu2,cuda), GB_BATCHES
# (1,8,64,256,1024), RIGID_BATCHES (1,64,1024), RIGID_BACKEND (cuda), RIGID_STARTS (3),
# RIGID_HISTORY (4,10,25,50,100,250,500,1000), SOP_BATCHES (1,16,128,1024), SOP_STEPS (20000),
# WALKERS (1,8,32,128,512), WALKER_STEPS (4).
#
# On the device machine: its $OUT is this driver's output folder; it brings back at most 8 files,
# so add --pack; a command there may run 10 minutes, so run one suite (or some --parts of one) per
# command and give --limit. The device has no Boost.Program_options or Open MPI to build with:
# build on the development machine (Boost is linked statically), carry the build folder and name
# it with --build-dir; tools/device/ carries Open MPI's runtime (docs/cluster.md).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

all_suites=(tests sanitizers lj lbfgs rounds batch gb rigid sop pair rng walkers optim)
out="${OUT:-gpu-check-out}"
build="${BUILD_DIR:-build}"
parts="${PARTS:-tests,sanitizers,bench,profile}"
limit_all=""
mode=run  # run, dry (print the commands) or collect (note the programs the suites need)
force_build=false
pack=false
list=false
suites=()

usage() { sed -n '/^# Usage:/,/^# Output:/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
  case $1 in
    --list) list=true ;;
    --dry-run) mode=dry ;;
    --build) force_build=true ;;
    --build-dir) build="${2:?--build-dir needs a folder}"; shift ;;
    --parts) parts="${2:?--parts needs a list}"; shift ;;
    --limit) limit_all="${2:?--limit needs seconds}"; shift ;;
    --pack) pack=true ;;
    -h | --help) usage ;;
    -*) echo "gpu_check: unknown option $1" >&2; usage ;;
    all) suites+=("${all_suites[@]}") ;;
    langevin) suites+=(rng) ;;
    *) suites+=("$1") ;;
  esac
  shift
done
for s in "${suites[@]}"; do
  [[ " ${all_suites[*]} " == *" $s "* ]] || { echo "gpu_check: no suite $s (--list)" >&2; exit 2; }
done
[[ $list == true || ${#suites[@]} -gt 0 ]] || usage
for p in ${parts//,/ }; do
  case $p in
    tests | sanitizers | bench | profile) ;;
    *) echo "gpu_check: no part $p" >&2; exit 2 ;;
  esac
done
if [[ -n $limit_all && ! $limit_all =~ ^[0-9]+$ ]]; then
  echo "gpu_check: --limit takes seconds" >&2
  exit 2
fi

data="${LANDSCAPE_TEST_DATA:-tests/data}"
gb="$data/gb"
gen="$build/data/gb"  # myoglobin_x4 and myoglobin_x10, made by the target generated_test_data
case $build in /*) programs=$build ;; *) programs=$PWD/$build ;; esac
export PATH="/usr/local/cuda/bin:$PATH"
export LANDSCAPE_SOURCE_DIR="$PWD" LANDSCAPE_GMIN_EXECUTABLE="$programs/gmin"
export LANDSCAPE_OPTIM_EXECUTABLE="$programs/optim" LANDSCAPE_SOP_EXECUTABLE="$programs/sop"
export LANDSCAPE_PATHSAMPLE_EXECUTABLE="$programs/pathsample"
# Files that only a check reads (gmin's outputs compared by lj), outside $out.
scratch="${TMPDIR:-/tmp}/gpu-check.$$"

suite=""      # the suite running
dir=""        # its folder under $out
needed=()     # collect mode: the build targets the chosen suites use
failed=()     # steps that exited non-zero
steps=0

part() { [[ ",$parts," == *",$1,"* ]]; }
# words ARG...: the arguments as one shell line, quoted where they need it.
words() {
  local w line=""
  for w in "$@"; do
    [[ $w =~ ^[][A-Za-z0-9_./:=,+@%-]+$ ]] || w="'${w//\'/\'\\\'\'}'"
    line+="${line:+ }$w"
  done
  echo "$line"
}
# say TEXT: a line of the summary (and the console).
say() { [[ $mode == run ]] && echo "$*" | tee -a "$out/summary.txt"; return 0; }
heading() {
  case $mode in
    run) say "== [$suite] $*" ;;
    dry) echo "# [$suite] $*" ;;
  esac
}

# pack: with --pack, each file under the suite folders gzipped into $out/logs.tar and removed.
pack_logs() {
  [[ $pack == true && $mode == run ]] || return 0
  local f
  while IFS= read -r -d '' f; do
    gzip -f "$out/$f" && tar -rf "$out/logs.tar" -C "$out" "$f.gz" && rm -f "$out/$f.gz"
  done < <(cd "$out" && find . -mindepth 2 -type f ! -name '*.gz' -print0)
}

# run [--table] [--rows RE] [--suffix TEXT] [--limit S] NAME -- COMMAND...
# Runs COMMAND under `timeout --foreground -k 10 LIMIT`: its output goes to $dir/NAME.log; with
# --table its standard output is a table instead, shown, kept as $dir/NAME.out and appended to
# benchmarks.txt (only the lines matching RE with --rows, each followed by TEXT with --suffix).
# The exit status goes to the summary; last_status keeps it.
last_status=0
run() {
  local table=false rows="" suffix="" limit=1800 name
  while [[ $1 == --* ]]; do
    case $1 in
      --table) table=true ;;
      --rows) table=true; rows=$2; shift ;;
      --suffix) suffix=$2; shift ;;
      --limit) limit=$2; shift ;;
    esac
    shift
  done
  name=$1; shift 2  # NAME --
  [[ -n $limit_all ]] && limit=$limit_all
  local cmd=(timeout --foreground -k 10 "$limit" "$@")
  case $mode in
    collect)
      local word
      for word in "$@"; do
        case $word in
          "$build"/data/*) needed+=(generated_test_data) ;;
          "$build"/*) needed+=("${word#"$build"/}") ;;
        esac
      done
      return 0 ;;
    dry)
      if $table; then
        echo "$(words "${cmd[@]}") 2> $dir/$name.log | tee $dir/$name.out >> $out/benchmarks.txt"
      else
        echo "$(words "${cmd[@]}") > $dir/$name.log 2>&1"
      fi
      return 0 ;;
  esac
  pack_logs
  mkdir -p "$dir"
  echo "\$ $(words "${cmd[@]}")" >> "$out/summary.txt"
  steps=$((steps + 1))
  if $table; then
    "${cmd[@]}" 2> "$dir/$name.log" | tee "$dir/$name.out"
    last_status=${PIPESTATUS[0]}
    if [[ -n $rows ]]; then
      grep -E "$rows" "$dir/$name.out" | sed "s/\$/$suffix/" >> "$out/benchmarks.txt"
    else
      cat "$dir/$name.out" >> "$out/benchmarks.txt"
    fi
  else
    "${cmd[@]}" > "$dir/$name.log" 2>&1
    last_status=$?
  fi
  case $last_status in
    0) say "exit 0" ;;
    124 | 137) say "exit $last_status: stopped at the $limit s limit" ;;
    *) say "exit $last_status" ;;
  esac
  ((last_status == 0)) || failed+=("$suite/$name (exit $last_status)")
}

# verdict NAME RE: the lines of $dir/NAME.log that match RE, into the summary.
verdict() {
  [[ $mode == run ]] || return 0
  grep -E "$2" "$dir/$1.log" | head -40 | tee -a "$out/summary.txt"
}

# gtest NAME FILTER [RE]: landscape_tests on FILTER; its counts (and lines matching RE) to the
# summary.
gtest() {
  part tests || return 0
  if [[ $1 == tests ]]; then heading "tests: $2"; else heading "tests ($1): $2"; fi
  run "$1" -- "$build/landscape_tests" --gtest_filter="$2"
  verdict "$1" "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|tests ran${3:+|$3}"
}

# sanitize "TOOL..." FILTER [OPTION...]: compute-sanitizer with each TOOL (those of SANITIZER_TOOLS)
# on landscape_tests FILTER; its summary lines, counted, to the summary.
sanitize() {
  part sanitizers || return 0
  local tool filter=$2 wanted=" ${SANITIZER_TOOLS:-memcheck racecheck synccheck initcheck} "
  for tool in $1; do
    [[ $wanted == *" $tool "* ]] || continue
    heading "compute-sanitizer $tool: $filter"
    run "sanitizer-$tool" -- compute-sanitizer --tool "$tool" --error-exitcode 99 "${@:3}" \
      "$build/landscape_tests" --gtest_filter="$filter"
    [[ $mode == run ]] &&
      say "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$dir/sanitizer-$tool.log" |
        sort | uniq -c | sed -E 's/^ *1 //; s/^ *([0-9]+) /\1x /' | paste -sd ';' | sed 's/;/; /g')"
  done
}

# bench LABEL RUN-ARGUMENTS...: a benchmark (run --table ...).
bench() {
  part bench || return 0
  heading "$1"
  [[ $mode == run ]] && echo "== [$suite] $1" >> "$out/benchmarks.txt"
  shift
  run --table "$@"
}

# profile [--pairs] LABEL RE NAME -- COMMAND...: an Nsight Compute run; the lines of its log
# matching RE to benchmarks.txt (--pairs: two lines joined into one, a kernel and its metric).
# Skipped without ncu.
profile() {
  part profile || return 0
  local join=cat
  [[ $1 == --pairs ]] && { join="paste - -"; shift; }
  local label=$1 re=$2 name=$3
  shift 2
  if [[ $mode == run ]] && ! command -v ncu > /dev/null; then
    say "== [$suite] $label: ncu not found, skipped"
    return 0
  fi
  heading "$label"
  [[ $mode == run ]] && echo "== [$suite] $label" >> "$out/benchmarks.txt"
  run "$@"
  [[ $mode == run ]] &&
    grep -E "$re" "$dir/$name.log" | $join | sed -E 's/ +/ /g' | tee -a "$out/benchmarks.txt"
}

# ratio CSV LABEL: time per step at m = 1000 over m = 4 from bench_history's CSV (column 5).
ratio() {
  [[ $mode == run ]] || return 0
  awk -F, '$2 == "gpu-rounds" && $1 == 4 { a = $5 } $2 == "gpu-rounds" && $1 == 1000 { b = $5 }
    END { if (a > 0 && b > 0)
            printf "%s: m = 4 %.4g ms, m = 1000 %.4g ms per step, ratio %.3f (target <= 1.3)\n",
              name, a, b, b / a
          else print name ": no ratio (missing rows)" }' name="$2" "$1" | tee -a "$out/summary.txt"
}

# ---- the suites ----

# filter PATTERN...: the gtest patterns joined into one --gtest_filter value.
filter() { local IFS=:; echo "$*"; }

suite_tests() {
  part tests || return 0
  heading "every test: ${TEST_FILTER:-*}"
  run --limit 3600 all -- "$build/landscape_tests" --gtest_filter="${TEST_FILTER:-*}"
  verdict all '^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|tests ran'
}

suite_sanitizers() {
  sanitize "memcheck racecheck synccheck initcheck" '*cuda*:*Cuda*'
}

suite_lj() {
  gtest tests "$(filter 'PotentialSuite/PotentialCudaTest.*' 'BatchedLennardJonesCuda.*' \
    'DnebLj38Cuda.*')"
  if part tests; then
    heading "gmin LJ38 on cuda and on cpu: the same lowest file"
    local g=("$build/gmin" --lj 38 --steps 300 --seed 5 --quiet) a="$scratch/gmin-cuda/lowest"
    run gmin-cuda -- "${g[@]}" --backend cuda --output "$scratch/gmin-cuda"
    run gmin-cpu -- "${g[@]}" --output "$scratch/gmin-cpu"
    if [[ $mode == run ]]; then
      if cmp -s "$a" "$scratch/gmin-cpu/lowest"; then
        say "CUDA and CPU lowest files identical"
      else
        say "CUDA and CPU lowest files differ:"
        diff "$a" "$scratch/gmin-cpu/lowest" | head -5 | tee -a "$out/summary.txt"
        failed+=("$suite/gmin lowest files differ")
      fi
    fi
  fi
  bench "LJ energy + gradient, CPU and CUDA, against the FP64 floor" \
    bench_potential -- "$build/bench_potential" --potential lj --sizes 38,147,1000,10000,30000
}

suite_lbfgs() {
  gtest tests 'LbfgsCuda.*:SlowLbfgsCuda.*'
  bench "L-BFGS direction against the byte floor" \
    bench_lbfgs_direction -- "$build/bench_lbfgs_direction" --atoms 38,2492,24920 --m 4,10,100,1000
  bench "history-size tables, LJ2500" \
    history_lj2500 -- "$build/bench_history" --lj 2500 --starts 2 --repeats 1 --m 4,10,100,1000 \
    --max-iterations 20000 --out "$dir/history_lj2500"
}

suite_rounds() {
  gtest tests 'BatchedLbfgsRounds*:BatchedMinimiserFactory.*' '^\[ (rounds|compact)'
  local mb=(--prmtop "$gb/myoglobin/prmtop" --inpcrd "$gb/myoglobin/inpcrd")
  local h=("$build/bench_history" --starts 1 --repeats 1 --impl gpu-rounds) k m c
  bench "bench_batch: the team kernel (cuda) against the rounds engine" \
    bench_batch -- "$build/bench_batch" --sizes 13,38,75,147 --batches 1,8,64,512,4096,32768 \
    --backends cpu1,cuda,rounds --cpu-seconds 5
  for k in 16 64; do
    bench "bench_batch: rounds engine, 4096 resident (refill), poll every $k rounds" \
      --rows '^\| LJ' --suffix " K = $k" "bench_batch_poll$k" -- "$build/bench_batch" --sizes 38 \
      --batches 32768 --backends rounds --rounds-resident 4096 --rounds-poll "$k"
  done
  bench "bench_history gpu-rounds, myoglobin, B = 1, m = 4 and 1000, 1500 steps" \
    myoglobin -- "${h[@]}" "${mb[@]}" --m 4,1000 --max-iterations 1500 --out "$dir/myoglobin"
  part bench && ratio "$dir/myoglobin.csv" myoglobin
  bench "the same, 4000 steps (the history full for three quarters of the m = 1000 run)" \
    myoglobin_4000 -- "${h[@]}" "${mb[@]}" --m 4,1000 --max-iterations 4000 \
    --out "$dir/myoglobin_4000"
  part bench && ratio "$dir/myoglobin_4000.csv" "myoglobin, 4000 steps"
  bench "bench_history gpu-rounds, myoglobin_x10, B = 1, m = 4 and 1000, 300 steps" \
    myoglobin_x10 -- "${h[@]}" --prmtop "$gen/myoglobin_x10/prmtop" \
    --inpcrd "$gen/myoglobin_x10/inpcrd" --m 4,1000 --max-iterations 300 --langevin-steps 1000 \
    --out "$dir/myoglobin_x10"
  part bench && ratio "$dir/myoglobin_x10.csv" myoglobin_x10
  for k in -1 1; do
    bench "threshold: myoglobin, B = 1, 1500 steps, rounds-compact $k (-1 two-loop, 1 compact)" \
      --rows '^\| [0-9]' --suffix " rounds-compact $k" "threshold_$k" -- "${h[@]}" "${mb[@]}" \
      --m 4,16,32,64 --max-iterations 1500 --rounds-compact "$k" --out "$dir/threshold_$k"
  done
  bench "two-loop at m = 1000 for comparison (300 steps; was 9.93 ms per step)" \
    --rows '^\| [0-9]' twoloop_1000 -- "${h[@]}" "${mb[@]}" --m 1000 --max-iterations 300 \
    --rounds-compact -1 --out "$dir/twoloop_1000"
  for m in "4 0" "1000 -1" "1000 0"; do
    read -r m c <<< "$m"
    bench "bench_batch rounds, LJ2000, B = 1, 300 steps, m = $m, rounds-compact $c" \
      --rows '^\| LJ' --suffix " m = $m, rounds-compact $c" "lj2000_m${m}_compact$c" -- \
      "$build/bench_batch" --sizes 2000 --batches 1 --backends rounds --max-iterations 300 \
      --min-seconds 0.001 --m "$m" --rounds-compact "$c"
  done
  # Last, as they take longest (the compact shapes test covers the compact kernels).
  sanitize "memcheck racecheck synccheck" "$(filter \
    BatchedLbfgsRoundsCuda.LargeStructureAloneAndLongHistoryEqualTheTwin \
    BatchedLbfgsRoundsCuda.MemoryAndRefusals \
    BatchedLbfgsRoundsCuda.EqualsTheCpuTwinBitForBitInMixedBatches \
    BatchedLbfgsRoundsCuda.CompactShapesAndResetsEqualTheTwinBitForBit)"
}

suite_batch() {
  gtest tests 'Batched*' '^\[ (shape|twin|gpu|cube)'
  bench "bench_batch" bench_batch -- "$build/bench_batch" --sizes "${BATCH_SIZES:-13,38,75,147}" \
    --batches "${BATCH_BATCHES:-1,8,64,512,4096,32768}" \
    --backends "${BATCH_BACKENDS:-cpu1,cpu2,cuda}" --cpu-seconds "${CPU_SECONDS:-20}"
  local n w t
  for n in "38 1 4" "38 1 8" "38 2 8" "38 1 16" "147 2 16" "147 4 8" "147 4 16" "147 8 8"; do
    read -r n w t <<< "$n"
    bench "bench_batch team shape: LJ$n, warps $w, tile $t" --rows '^\| LJ' \
      --suffix " warps $w, tile $t" "shape_${n}_${w}_$t" -- "$build/bench_batch" --sizes "$n" \
      --batches 32768 --backends cuda --warps "$w" --tile "$t"
  done
  # The sanitizers run the GPU cases on smaller work: the full mixed batches take long under them.
  sanitize "memcheck racecheck synccheck initcheck" "$(filter \
    BatchedLbfgsCuda.EqualsTheCpuTwinForEveryTeamShape 'BatchedLennardJonesCuda.*' \
    BatchedLbfgsCuda.RefusesABatchThatDoesNotFitNamingTheLargestThatDoes)"
}

suite_gb() {
  local graph=BatchedAmberGbCuda.GraphLaunchesHaveThePlainBits system precision skip
  local tests users small far ash batched
  tests=$(filter 'AmberGbCuda/*' 'AmberGbCuda*' 'BatchedAmberGb*' 'BatchedPotentialFactory.*' \
    'AmberGbTerms.*')
  # The users of the CUDA GB potential: L-BFGS, Hessians, optim, pathsample, gmin's walkers.
  users=$(filter 'LbfgsCuda.*Trpcage*' LbfgsCuda.RunsAreBitIdentical 'HessianLogProductCuda.*' \
    OptimCli.AmberMoleculeOnTheCudaBackend OptimCli.LbfgsOnTheDeviceOrAClearError \
    PathsampleGrowth.CudaBackendRunsEachConnectOnTheBatchedEngines 'GminWalkers.*' 'GbWalkers.*' \
    GminCli.KilledGpuGbWalkerRunResumesToTheSameResults)
  # The graph test in a process of its own: a capture it left open would fail every later test.
  gtest graph "$graph" 'Failure|exception'
  gtest tests "$tests:$users:-$graph"
  bench "bench_potential, trpcage and myoglobin (small and mid sizes)" \
    bench_potential -- "$build/bench_potential" --data "$gb" --systems trpcage,myoglobin \
    --repeats "${REPEATS:-50}"
  bench "bench_potential, myoglobin and myoglobin_x10 (large sizes)" \
    bench_potential_large -- "$build/bench_potential" --data "$gb" \
    --systems myoglobin,myoglobin_x10 --repeats "${REPEATS:-20}" --cpu-max-atoms 0
  bench "far-pair census (CPU): fraction of far pairs and far warp steps" \
    gb_far_pairs -- "$build/gb_far_pairs" --systems trpcage,myoglobin,myoglobin_x4,myoglobin_x10 \
    --thresholds 18,40
  bench "bench_batched_potential, trpcage and myoglobin" \
    bench_batched_potential -- "$build/bench_batched_potential" --systems trpcage,myoglobin \
    --batches "${GB_BATCHES:-1,8,64,256,1024}" --repeats "${REPEATS:-20}"
  # Per-kernel durations: the first 60 launches skipped (CPU timing launches nothing; the two
  # warm-up calls and the first timed calls of the double row, the graph capture included), then
  # 12 launches = two evaluations of six kernels.
  for system in trpcage myoglobin; do
    profile --pairs "ncu per-kernel durations, $system, double" \
      '^  [a-zA-Z_].*\(|gpu__time_duration.sum' "ncu-$system" -- \
      ncu --metrics gpu__time_duration.sum --launch-skip 60 --launch-count 12 \
      "$build/bench_potential" --data "$gb" --systems "$system" --repeats 20 --cpu-max-atoms 0
  done
  # The pair kernel of one myoglobin_x10 evaluation per precision: with --repeats 1 an evaluation
  # is 2 warm-up, 1 timed and 3 host calls (6 pair kernels) per precision, double first.
  local metrics=gpu__time_duration.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active
  metrics+=,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active
  metrics+=,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
  metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
  for precision in "double 2" "mixed 8"; do
    read -r precision skip <<< "$precision"
    profile "ncu gbPairsKernel, myoglobin_x10, $precision" 'gbPairsKernel|gpu__time|sm__|smsp__' \
      "ncu-pairs-$precision" -- ncu --kernel-name regex:gbPairsKernel --launch-skip "$skip" \
      --launch-count 1 --metrics "$metrics" "$build/bench_potential" --data "$gb" \
      --systems myoglobin_x10 --repeats 1 --cpu-max-atoms 0
  done
  # memcheck: trpcage and ash in both precisions (every kernel, the graph path, the masked batch),
  # myoglobin_x4 (whose double pair loop takes the far path in 68% of its warp steps) and the
  # batched tests but the 65536-structure one; racecheck (shared memory) and synccheck (barriers
  # under block-uniform conditions) on small cases.
  small=$(filter 'AmberGbCuda/AmberGbCudaVsCpu.*/ash_*' 'AmberGbCuda/AmberGbCudaVsCpu.*/trpcage_*' \
    'BatchedAmberGbCuda/BatchedAmberGbCudaBits.AStructureHasTheSameBitsAloneAndInAnyBatch/*latency')
  far='AmberGbCuda/AmberGbCudaVsCpu.*/myoglobin_x4_*'
  batched='BatchedAmberGbCuda*:BatchedPotentialFactory.*'
  ash='BatchedAmberGbCuda/BatchedAmberGbCudaVsCpu.EveryStructureMatchesTheCpuOracle/ash_*'
  sanitize memcheck "$small:$far:$batched:-BatchedAmberGbCuda.MoreStructuresThanOneGridHolds:$graph"
  sanitize racecheck "$small:$ash"
  sanitize synccheck "$ash"
}

suite_rigid() {
  gtest tests '*Rigid*'
  local mb=(--prmtop "$gb/myoglobin/prmtop" --inpcrd "$gb/myoglobin/inpcrd")
  local common=(--backend "${RIGID_BACKEND:-cuda}" --lbfgs-backend gpu
    --starts "${RIGID_STARTS:-3}" --m "${RIGID_HISTORY:-4,10,25,50,100,250,500,1000}"
    --max-iterations 100000)
  bench "bench_rigid myoglobin, local rigidification (Table 4 layout)" \
    rigid_myoglobin_local -- "$build/bench_rigid" "${mb[@]}" --layout local "${common[@]}" \
    --out "$dir/rigid_myoglobin_local"
  bench "bench_rigid myoglobin, one large body beyond 12 A of His64/His93 (Table 5 layout)" \
    rigid_myoglobin_large -- "$build/bench_rigid" "${mb[@]}" --layout large --site-residues 64,93 \
    --atomistic-radius 10 --large-body-radius 12 "${common[@]}" --out "$dir/rigid_myoglobin_large"
  bench "bench_batched_potential, rigid rows (local groups over the batched GB potential)" \
    bench_batched_potential -- "$build/bench_batched_potential" --systems trpcage,myoglobin \
    --models gb --rigid also --precision double --batches "${RIGID_BATCHES:-1,64,1024}" \
    --repeats "${REPEATS:-20}"
  # The 70000-structure and 70000-atom cases take long under the sanitizers; the CLI tests start
  # gmin and optim as children: left out.
  sanitize memcheck "$(filter 'BatchedRigidBodyCuda.*' 'BatchedRigidBody.*' 'RigidBodyCuda.*' \
    -BatchedRigidBodyCuda.BitsDoNotDependOnBatchPositionMaskOrEntryPoint '*70000*')"
  sanitize "racecheck synccheck" \
    'RigidBodyCuda.*:BatchedRigidBodyCuda.EveryStructureMatchesTheCpuBatch:-*70000*'
  sanitize initcheck 'RigidBodyCuda.*:-*70000*'
}

suite_sop() {
  local sop='SopCuda*:SopDynamicsCuda*' batched='BatchedSopCuda*:BatchedPotentialFactory.Sop*'
  gtest tests "$batched:$sop:PotentialSuite*Sop*:SopResume*" 'sop rounds'
  bench "bench_sop PF8 x1 and x16 (plain, +G CUDA Graphs, +P persistent launches)" \
    bench_sop -- "$build/bench_sop" --replicas 1,16 --steps "${SOP_STEPS:-20000}" --graphs \
    --persistent
  bench "bench_batched_potential --models sop" \
    bench_batched_potential -- "$build/bench_batched_potential" --models sop \
    --sop-batches "${SOP_BATCHES:-1,16,128,1024}" --repeats "${REPEATS:-20}"
  # The resume CLI tests run the sop program: its kernels are checked by SopResume.CudaDynamics*.
  # The 66000-structure test takes long under the sanitizer: left out.
  sanitize memcheck \
    "$batched:$sop:SopResume.CudaDynamics*:-BatchedSopCuda.MoreStructuresThanOneGridHolds"
  sanitize "racecheck synccheck" \
    'BatchedSopCuda/BatchedSopCudaVsCpu.EveryStructureMatchesTheCpuOracle/1TIT_B7'
}

suite_pair() {
  local cuda='PairPotentialCuda*:BatchedPairPotentialCuda*:PotentialSuite*Pair*cuda*'
  cuda+=':PairPotentialFactory*:BatchedPotentialFactory*Pair*'
  gtest tests "$cuda:GminPairCli*:GminPairWalkers*:GminPairInputs*:OptimPair*:PairInherent*"
  bench "bench_pair_potential: Kob-Andersen E+G N = 4,000-1,000,000, lanes 1-8, tabulated, \
batched KA 256" bench_pair_potential -- "$build/bench_pair_potential" --lanes 1,2,4,8
  # gmin's default walker count on the device, Kob-Andersen 256 in its box (inputs/ka256.data):
  # the progress lines give the quenches per second.
  heading "gmin inputs/ka256.data on cuda, 20 steps"
  run gmin_ka256 -- "$build/gmin" --gmin-data inputs/ka256.data --atoms 256 --backend cuda \
    --steps 20 --output "$scratch/gmin-ka256"
  verdict gmin_ka256 'quenches|lowest energy'
  sanitize memcheck "$cuda"
  sanitize "racecheck synccheck" 'BatchedPairPotentialCuda*:PairPotentialCuda*'
  profile --pairs "ncu Verlet-list evaluation, KA N = 64,000" \
    'pairListEvaluateKernel|gpu__time_duration' ncu-pair-list -- \
    ncu --kernel-name regex:pairListEvaluateKernel --launch-skip 5 --launch-count 3 \
    --cache-control none --clock-control none --metrics gpu__time_duration.sum \
    "$build/bench_pair_potential" --sizes 64000 --no-quench --batches 64 --min-seconds 0.01
}

suite_rng() {
  local access=sequential,batched,streaming,streaming-keep a
  gtest tests "$(filter 'Random*' '*Langevin*' 'HarmonicWellCuda*' 'BrownianOscillators*' \
    'SlowRandomStreamsCuda*' '-SlowLangevin*')"
  bench "bench_langevin, default sizes" --limit 150 bench_langevin -- "$build/bench_langevin"
  bench "bench_langevin N = 1e6, 1e7, every generator, lagged Fibonacci with every access" \
    bench_langevin_access -- "$build/bench_langevin" --sizes 1000000,10000000 --cpu-max 0 \
    --lagfib-access "$access"
  bench "bench_langevin N = 1e6, 1e7, 10 steps per synchronisation (the first table's method)" \
    bench_langevin_10 -- "$build/bench_langevin" --sizes 1000000,10000000 --cpu-max 0 \
    --steps-per-call 10 --no-library
  # Three launches per access after 5 warm-up launches: DRAM bytes against 80 B per oscillator, the
  # L2 hit rate, the duration. --cache-control none: the L2 keeps what the previous step left, as
  # in a run; --clock-control none: the clocks bench_langevin ran at.
  local metrics=dram__bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum
  metrics+=,lts__t_sector_hit_rate.pct,gpu__time_duration.sum
  for a in ${access//,/ }; do
    profile "ncu lagged-Fibonacci fused kernel, N = 1e6, access $a" \
      'dram__bytes|lts__t_sector_hit_rate|gpu__time_duration' "ncu-$a" -- \
      ncu --kernel-name regex:fusedStepKernel --launch-skip 5 --launch-count 3 \
      --cache-control none --clock-control none --metrics "$metrics" \
      "$build/bench_langevin" --sizes 1000000 --generators lagged-fibonacci --lagfib-access "$a" \
      --cpu-max 0 --no-library --seconds 0.01 --steps-per-call 10
  done
  sanitize memcheck 'RandomStreamsCuda*:*Langevin*Cuda*:BrownianOscillators*:HarmonicWellCuda*'
}

suite_walkers() {
  local trp=(--prmtop "$gb/trpcage/prmtop" --inpcrd "$gb/trpcage/inpcrd")
  # New: the rounds engine over the device GB and SOP potentials (GminWalkers), gmin end to end
  # (GbWalkers), kill -9 and --resume; the LJ GPU walker and WalkerEnsemble tests as controls.
  gtest tests "$(filter 'GminWalkers.*' 'GbWalkers.*' \
    GminCli.KilledGpuGbWalkerRunResumesToTheSameResults \
    GminCli.KilledGpuWalkerRunResumesToTheSameResults GminCli.MoleculeWalkerZeroIsTheSingleChain \
    'WalkerEnsemble*')"
  bench "bench_molecule_walkers (trp-cage, GB double)" \
    bench_molecule_walkers -- "$build/bench_molecule_walkers" "${trp[@]}" \
    --walkers "${WALKERS:-1,8,32,128,512}" --steps "${WALKER_STEPS:-4}" \
    --cpu-seconds "${CPU_SECONDS:-120}"
  if part bench; then
    heading "gmin's default walker count for trp-cage on cuda"
    run gmin-trpcage -- "$build/gmin" "${trp[@]}" --backend cuda --steps 2 \
      --output "$dir/gmin-trpcage"
    verdict gmin-trpcage '^gmin: .*walker|lowest energy'
  fi
  # The gmin children included; kill -9 under the sanitizer would only test the sanitizer: left out.
  sanitize memcheck 'GminWalkers.*OnTheGpu*:GbWalkers.OnTheGpu*' --target-processes all
}

suite_optim() {
  bench "transition-state tables (Tables 6-8 layout), trpcage, CPU and CUDA" \
    bench_optim_trpcage -- "$build/bench_optim" --prmtop "$gb/trpcage/prmtop" \
    --inpcrd "$gb/trpcage/inpcrd" --backend cpu,cuda --starts 3
  bench "transition-state tables, myoglobin, CUDA" \
    bench_optim_myoglobin -- "$build/bench_optim" --prmtop "$gb/myoglobin/prmtop" \
    --inpcrd "$gb/myoglobin/inpcrd" --backend cuda --starts 3
}

describe() {
  case $1 in
    tests) echo "every test, the slow ones too (TEST_FILTER narrows it)" ;;
    sanitizers) echo "the four compute-sanitizer tools on every CUDA test" ;;
    lj) echo "Lennard-Jones on CUDA: tests, gmin cuda = cpu, bench_potential --potential lj" ;;
    lbfgs) echo "single-structure GPU L-BFGS: tests, bench_lbfgs_direction, bench_history LJ2500" ;;
    rounds) echo "round-based batched L-BFGS: tests, bench_history, bench_batch, sanitizers" ;;
    batch) echo "batched LJ team kernel: Batched* tests, bench_batch and its team shapes" ;;
    gb) echo "AMBER-GB on CUDA: tests and users, bench_potential, gb_far_pairs, batched, ncu" ;;
    rigid) echo "rigid bodies: tests, bench_rigid (Tables 4-5 layouts), batched rigid rows" ;;
    sop) echo "SOP: batched and dynamics tests, bench_sop, bench_batched_potential --models sop" ;;
    pair) echo "pair potentials: tests, sanitizers, bench_pair_potential, gmin KA 256, ncu" ;;
    rng) echo "random streams and Langevin: tests, bench_langevin, ncu of the lagged Fibonacci" ;;
    walkers) echo "molecule walkers: tests, bench_molecule_walkers, gmin's default W" ;;
    optim) echo "transition-state tables with bench_optim (trpcage, myoglobin)" ;;
  esac
}

if $list; then
  for s in "${all_suites[@]}"; do printf '%-11s %s\n' "$s" "$(describe "$s")"; done
  echo "all         every suite above; langevin = rng. Steps: tools/gpu_check.sh --dry-run SUITE"
  exit 0
fi

# ---- the programs the suites need, built when missing (or always with --build) ----
real_mode=$mode
mode=collect
for suite in "${suites[@]}"; do dir="$out/$suite"; "suite_$suite"; done
mode=$real_mode
mapfile -t needed < <(printf '%s\n' "${needed[@]}" | sort -u)
missing=()
for t in "${needed[@]}"; do
  if [[ $t == generated_test_data ]]; then
    [[ -f $gen/myoglobin_x4/prmtop && -f $gen/myoglobin_x10/prmtop ]] || missing+=("$t")
  else
    [[ -x $build/$t ]] || missing+=("$t")
  fi
done
$force_build && missing=("${needed[@]}")
if ((${#missing[@]})); then
  configure=(cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DLANDSCAPE_CUDA=ON
    -DLANDSCAPE_MPI=OFF)
  make=(cmake --build "$build" -j"$(nproc)" --target "${missing[@]}")
  if [[ $mode == dry ]]; then
    [[ -f $build/CMakeCache.txt ]] || echo "$(words "${configure[@]}") > $out/build.log 2>&1"
    echo "$(words "${make[@]}") >> $out/build.log 2>&1"
  else
    mkdir -p "$out"
    say "== build: ${missing[*]}"
    if ! { [[ -f $build/CMakeCache.txt ]] || "${configure[@]}"; } > "$out/build.log" 2>&1 ||
      ! "${make[@]}" >> "$out/build.log" 2>&1; then
      say "build failed, see build.log"
      exit 1
    fi
  fi
fi

# ---- the run ----
if [[ $mode == run ]]; then
  mkdir -p "$out" "$scratch"
  trap 'rm -rf "$scratch"' EXIT
  say "== device"
  nvidia-smi -L 2>&1 | tee -a "$out/summary.txt"
  say "== suites ${suites[*]}; parts $parts; build $build; data $data"
fi
for suite in "${suites[@]}"; do
  dir="$out/$suite"
  "suite_$suite"
done
[[ $mode == run ]] || exit 0
pack_logs
[[ $pack == true ]] && find "$out" -mindepth 1 -type d -empty -delete
if ((${#failed[@]})); then
  say "== ${#failed[@]} of $steps steps failed: ${failed[*]}"
  exit 1
fi
say "== all $steps steps exited 0"
