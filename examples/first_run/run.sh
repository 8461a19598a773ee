#!/usr/bin/env bash
# examples/first_run/run.sh - first-run latency, broken down through minicudart's JSON trace.
#
# usage: examples/first_run/run.sh [BINDIR]
#   BINDIR holds first_run_sass and first_run_ptx (default: build/examples/first_run).
# environment: FIRST_RUN_RUNS (5): timed runs per configuration; FIRST_RUN_OUT (a new temporary
#   directory): where the traces, each run's output, raw.txt and table.txt go;
#   FIRST_RUN_TIMEOUT_S (60): the most one process may take.
#
# Three configurations, each process fresh and its trace in its own file (MINICUDART_TRACE=FILE):
#   sass         first_run_sass: the driver loads the sm_90 cubin
#   ptx_nocache  first_run_ptx with CUDA_CACHE_DISABLE=1: every run JIT-compiles the PTX
#   ptx_cache    first_run_ptx with the JIT cache on, in a private CUDA_CACHE_PATH that the
#                warm-up run fills
# Round 0 is a warm-up of each (not counted); then FIRST_RUN_RUNS rounds, the configurations
# interleaved.  summarise.awk turns each run's trace and output into raw.txt and the table of
# medians, which comes last.
# Exit: 0 when every run passed, 2 when there is no GPU (the first run said so), 1 otherwise.
set -u
export LC_ALL=C  # $EPOCHREALTIME with a decimal point, as first_run reads it
here=$(cd "$(dirname "$0")" && pwd)
bindir=${1:-$here/../../build/examples/first_run}
runs=${FIRST_RUN_RUNS:-5}
limit=${FIRST_RUN_TIMEOUT_S:-60}
out=${FIRST_RUN_OUT:-$(mktemp -d /tmp/first_run.XXXXXX)}
summarise=$here/summarise.awk
mkdir -p "$out" || exit 1
rm -f "$out"/raw.txt "$out"/*.json "$out"/*.out "$out"/*.err
rm -rf "$out/cache-sass" "$out/cache-off" "$out/cache-on"
for v in sass ptx; do
    [ -x "$bindir/first_run_$v" ] || { echo "first_run: no $bindir/first_run_$v (build it first)"; exit 1; }
done
[ -n "${EPOCHREALTIME:-}" ] || echo "first_run: bash without \$EPOCHREALTIME: no process start -> main"

failed=0
# run_one CONFIG ROUND: one fresh process; its trace, stdout and stderr in $out/CONFIG.ROUND.*
run_one() {
    local config=$1 round=$2 bin env=() base=$out/$1.$2 rc
    case $config in
    sass) bin=$bindir/first_run_sass; env=(CUDA_CACHE_PATH="$out/cache-sass") ;;
    ptx_nocache) bin=$bindir/first_run_ptx; env=(CUDA_CACHE_DISABLE=1 CUDA_CACHE_PATH="$out/cache-off") ;;
    ptx_cache) bin=$bindir/first_run_ptx; env=(CUDA_CACHE_DISABLE=0 CUDA_CACHE_PATH="$out/cache-on") ;;
    esac
    # The start time is taken by the shell that then exec()s the program, so start_to_main
    # counts exec, the dynamic loader and the constructors, not fork or the timeout wrapper.
    # shellcheck disable=SC2016  # expanded by the inner shell, just before exec
    timeout -k 5 "$limit" env "${env[@]}" MINICUDART_TRACE="$base.json" \
        bash -c 'export FIRST_RUN_T0=${EPOCHREALTIME:-}; exec "$0"' "$bin" >"$base.out" 2>"$base.err"
    rc=$?
    if [ "$rc" = 2 ]; then
        cat "$base.out"
        echo "first_run: no CUDA driver or GPU here: nothing to measure"
        exit 2
    fi
    if [ "$rc" != 0 ]; then
        echo "first_run: $config round $round FAILED (exit code $rc; $base.out, $base.err):"
        tail -n 5 "$base.out" "$base.err"
        failed=1
        return
    fi
    local inputs=("$base.out")
    if [ -s "$base.json" ]; then
        inputs=("$base.json" "$base.out")
    else
        echo "first_run: $config round $round wrote no trace ($base.json)"
    fi
    [ "$round" = 0 ] && return
    awk -f "$summarise" -v config="$config" -v run="$round" "${inputs[@]}" >>"$out/raw.txt"
}

configs="sass ptx_nocache ptx_cache"
for round in $(seq 0 "$runs"); do
    for config in $configs; do run_one "$config" "$round"; done
done

# The traces must be valid JSON (the summariser reads them line by line and would not notice).
shopt -s nullglob
traces=("$out"/*.json)
if [ ${#traces[@]} -gt 0 ] && command -v python3 >/dev/null; then
    bad=$(python3 -c '
import json, sys
for f in sys.argv[1:]:
    try:
        json.load(open(f))
    except Exception as e:
        print(f, e)' "${traces[@]}" 2>&1)
    [ -z "$bad" ] || { echo "first_run: traces that are not valid JSON:"; echo "$bad" | head -n 5; failed=1; }
fi

[ -s "$out/raw.txt" ] || { echo "first_run: no results"; exit 1; }
awk -f "$summarise" -v mode=table "$out/raw.txt" >"$out/table.txt"
echo "first_run: traces, outputs and raw.txt in $out"
echo
cat "$out/table.txt"
exit $failed
