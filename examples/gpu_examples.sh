#!/usr/bin/env bash
# examples/gpu_examples.sh - on a machine with a GPU: build minicudart (Release) and the GPU
# examples launch_cost and first_run, run both, and print their tables last.
#
# usage (from anywhere):  examples/gpu_examples.sh
# environment: OUT (if set, results are copied there), GPU_EXAMPLES_BUILD (build-gpu-examples:
#   the build directory, under the repository root unless absolute), CUDA_HOME (/usr/local/cuda),
#   LAUNCH_COST_ARGS (extra arguments, e.g. "-r 9"), FIRST_RUN_RUNS (5).
# Results in $W/results (and $OUT): launch_cost.csv, launch_cost.txt, launch_cost.png (when
#   gnuplot is there), first_run.txt (the table), first_run_trace_sass.json and
#   first_run_trace_ptx.json (one run's trace each), first_run_logs.tar.gz (every run).
# Needs no cmocka (tests off).  Takes about a minute: the build, then launch_cost (seconds) and
# first_run (18 fresh processes, most of each one driver and context start-up).
# Exit: 0 when both passed, 2 when there is no GPU, 1 otherwise.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
W=${GPU_EXAMPLES_BUILD:-build-gpu-examples}
case $W in /*) ;; *) W=$ROOT/$W ;; esac
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
R=$W/results
JOBS=$(nproc 2>/dev/null || echo 4); [ "$JOBS" -gt 16 ] && JOBS=16
log() { echo "== [${SECONDS}s] $*"; }

log "building minicudart, launch_cost, first_run_sass, first_run_ptx in $W"
mkdir -p "$W" && rm -rf "$R" && mkdir -p "$R" || exit 1
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
{ timeout 300 cmake -S "$ROOT" -B "$W" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DMINICUDART_TESTS=OFF -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" &&
  timeout 300 cmake --build "$W" -j "$JOBS" --target launch_cost first_run_sass first_run_ptx
} >"$R/build.log" 2>&1 || { tail -n 30 "$R/build.log"; echo "gpu_examples: build failed ($R/build.log)"; exit 1; }
command -v nvidia-smi >/dev/null &&
    nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader | head -n 2

log "launch_cost"
# shellcheck disable=SC2086  # LAUNCH_COST_ARGS: separate words
timeout -k 5 120 "$W/examples/launch_cost/launch_cost" -o "$R/launch_cost.csv" ${LAUNCH_COST_ARGS:-} \
    >"$R/launch_cost.txt" 2>&1
lc_rc=$?
[ "$lc_rc" = 0 ] || { echo "gpu_examples: launch_cost exit code $lc_rc"; tail -n 20 "$R/launch_cost.txt"; }
if [ "$lc_rc" = 2 ]; then echo "gpu_examples: no GPU here"; exit 2; fi
if [ -s "$R/launch_cost.csv" ] && command -v gnuplot >/dev/null; then
    gnuplot -e "csv='$R/launch_cost.csv'; png='$R/launch_cost.png'" examples/launch_cost/plot.gp \
        >"$R/plot.log" 2>&1 || echo "gpu_examples: gnuplot failed ($R/plot.log)"
else
    echo "gpu_examples: no gnuplot here: plot launch_cost.csv elsewhere with examples/launch_cost/plot.gp"
fi

log "first_run"
FIRST_RUN_OUT=$R/first_run timeout -k 5 300 examples/first_run/run.sh "$W/examples/first_run" \
    >"$R/first_run.log" 2>&1
fr_rc=$?
[ "$fr_rc" = 0 ] || { echo "gpu_examples: first_run exit code $fr_rc"; tail -n 20 "$R/first_run.log"; }
cp "$R/first_run/table.txt" "$R/first_run.txt" 2>/dev/null
cp "$R/first_run/sass.1.json" "$R/first_run_trace_sass.json" 2>/dev/null
cp "$R/first_run/ptx_nocache.1.json" "$R/first_run_trace_ptx.json" 2>/dev/null
tar -czf "$R/first_run_logs.tar.gz" -C "$R" first_run 2>/dev/null

if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT" &&
        for f in launch_cost.csv launch_cost.txt launch_cost.png first_run.txt first_run.log \
            first_run_trace_sass.json first_run_trace_ptx.json first_run_logs.tar.gz build.log; do
            [ -e "$R/$f" ] && cp "$R/$f" "$OUT/"
        done
    log "results copied to $OUT"
fi

log "done: launch_cost exit $lc_rc, first_run exit $fr_rc; results in $R"
echo
echo "== launch_cost"
cat "$R/launch_cost.txt"
echo
echo "== first_run"
if [ -s "$R/first_run.txt" ]; then cat "$R/first_run.txt"; else tail -n 30 "$R/first_run.log"; fi
[ "$lc_rc" = 0 ] && [ "$fr_rc" = 0 ] && exit 0
[ "$fr_rc" = 2 ] && exit 2
exit 1
