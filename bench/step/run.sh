#!/usr/bin/env bash
# bench/step/run.sh - one step of a C/CUDA program (bench/step/step.cu: about 200 small kernels,
# 8 cuBLAS GEMMs, two streams joined by events, a copy to pinned memory, one sync per step) under
# NVIDIA's runtime and under minicudart: the same binary (nvcc -cudart=shared -lcublas), each run
# a separate process, many short rounds, the order of the two runtimes alternating round by round.
#   nvidia      LD_LIBRARY_PATH=$CUDA_HOME/lib64: NVIDIA's libcudart.so.13
#   minicudart  LD_PRELOAD=<minicudart's libcudart.so.13>, its folder first in LD_LIBRARY_PATH
# Each run's "INFO cudart" and "INFO mapped" lines (step.cu) must name the runtime meant, and
# only it.  cuBLAS carries its own copy of NVIDIA's runtime, linked in statically (libcublas.so.13
# needs no libcudart): its internal calls are the same in both variants, the program's own are not.
#
# usage:  bash bench/step/run.sh [MINICUDART_LIBCUDART_SO]
# environment: STEP_MINI_LIB (minicudart's libcudart.so.13, when not given as the argument; with
#              neither, minicudart is built here into $STEP_OUT/minicudart), STEP_ROUNDS (16),
#              STEP_STEPS (200 timed steps per process), STEP_WARMUP (20), STEP_CPUS (a taskset -c
#              list for every run, e.g. 2-5), STEP_ARCH (sm_90), STEP_RTOL (0: checksums must be
#              equal; else the relative difference allowed), STEP_TIMEOUT_S (60 per process),
#              STEP_OUT (build-bench/step), CUDA_HOME (/usr/local/cuda)
# $STEP_OUT gets step (the program), raw.txt ("round runtime step_us step_min_us issue_us checksum"), runs/
# (every process's output) and summary.txt (the table, printed last).
# Exit status: 0 the table printed and the checksums agree; 1 a failure (FAIL lines say which);
# 2 no CUDA driver or GPU here.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
CUDA_LIB=$CUDA_HOME/lib64
NVCC=$CUDA_HOME/bin/nvcc
STEP_OUT=${STEP_OUT:-$ROOT/build-bench/step}
ROUNDS=${STEP_ROUNDS:-16}
STEPS=${STEP_STEPS:-200}
WARMUP=${STEP_WARMUP:-20}
SM=${STEP_ARCH:-sm_90}
RTOL=${STEP_RTOL:-0}
TMO=${STEP_TIMEOUT_S:-60}
MINI=${1:-${STEP_MINI_LIB:-}}
PIN=()
if [ -n "${STEP_CPUS:-}" ]; then
    command -v taskset >/dev/null || { echo "FAIL STEP_CPUS set but no taskset here"; exit 1; }
    PIN=(taskset -c "$STEP_CPUS")
fi
START=$SECONDS
log() { echo "== [$((SECONDS - START))s] $*"; }
die() { echo "FAIL $1"; exit "${2:-1}"; }  # die MESSAGE [STATUS]

mkdir -p "$STEP_OUT" || exit 1
rm -rf "$STEP_OUT/runs" && mkdir -p "$STEP_OUT/runs" || exit 1
log "bench/step/run.sh $(date -u +%FT%TZ) $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')," \
    "$ROUNDS rounds of $STEPS steps (+$WARMUP warm-up)${STEP_CPUS:+, CPUs $STEP_CPUS}"
if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version,persistence_mode,clocks.sm --format=csv,noheader 2>&1 | head -n 2
else echo "(no nvidia-smi)"; fi

# ---- build -----------------------------------------------------------------------------------
log "building step.cu ($SM)"
timeout -k 3 300 "$NVCC" -O2 -gencode "arch=compute_${SM#sm_},code=$SM" -cudart=shared \
    -I"$ROOT/bench/src" "$ROOT/bench/step/step.cu" -o "$STEP_OUT/step" -lcublas >"$STEP_OUT/build.log" 2>&1 ||
    { tail -n 20 "$STEP_OUT/build.log"; die "build of step.cu (log: $STEP_OUT/build.log)"; }

# run_one RUNTIME NAME STEPS WARMUP: one process; its output in $STEP_OUT/runs/NAME; its exit status.
run_one() {
    local rt=$1 o=$STEP_OUT/runs/$2 env
    if [ "$rt" = nvidia ]; then
        env=(-u LD_PRELOAD LD_LIBRARY_PATH="$CUDA_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
    else
        env=(LD_PRELOAD="$MINI" LD_LIBRARY_PATH="${MINI%/*}:$CUDA_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
    fi
    timeout -k 3 "$TMO" "${PIN[@]}" env "${env[@]}" "$STEP_OUT/step" "$3" "$4" >"$o" 2>&1
}
# check_run RUNTIME NAME RC: the FAIL lines or the wrong runtime, if any; status 2 for no GPU.
check_run() {
    local rt=$1 o=$STEP_OUT/runs/$2 rc=$3 want got
    [ "$rt" = nvidia ] && want=$(readlink -f "$CUDA_LIB/libcudart.so.13") || want=$(readlink -f "$MINI")
    if [ "$rc" != 0 ]; then
        echo "FAIL $rt ($2): exit $rc$([ "$rc" = 124 ] && echo ", over ${TMO}s")"
        grep -m 3 '^FAIL' "$o" || tail -n 5 "$o"
        [ "$rc" = 2 ] && return 2
        return 1
    fi
    got=$(awk '$1 == "INFO" && $2 == "cudart" { print $3 }' "$o" | xargs -r readlink -f)
    [ "$got" = "$want" ] || { echo "FAIL $rt ($2): the runtime bound is ${got:-?}, not $want"; return 1; }
    got=$(awk '$1 == "INFO" && $2 == "mapped" { print $3 }' "$o" | xargs -r readlink -f | sort -u)
    [ "$got" = "$want" ] || { echo "FAIL $rt ($2): libcudart files mapped: ${got//$'\n'/ }"; return 1; }
    if ! grep -q '^RESULT issue_us ' "$o" || ! grep -q '^RESULT checksum ' "$o"; then
        echo "FAIL $rt ($2): no RESULT lines"; return 1
    fi
}
preflight() {  # preflight RUNTIME: a short run (10 steps); stops the script if it fails
    local rc
    run_one "$1" "preflight.$1" 10 1; rc=$?
    check_run "$1" "preflight.$1" "$rc" && return 0
    rc=$?
    [ "$rc" = 2 ] && die "no CUDA driver or GPU here: nothing to measure" 2
    die "$1 runtime: the preflight run failed (output: $STEP_OUT/runs/preflight.$1)"
}
log "preflight: NVIDIA's runtime"
preflight nvidia

if [ -z "$MINI" ]; then
    log "building minicudart into $STEP_OUT/minicudart"
    gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
    { timeout -k 3 300 cmake -S "$ROOT" -B "$STEP_OUT/minicudart" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DMINICUDART_TESTS=OFF -DCMAKE_CUDA_COMPILER="$NVCC" &&
        timeout -k 3 300 cmake --build "$STEP_OUT/minicudart" -j "$(nproc)" --target minicudart_shared; } \
        >"$STEP_OUT/build-minicudart.log" 2>&1 ||
        { tail -n 20 "$STEP_OUT/build-minicudart.log"; die "build of minicudart (log: $STEP_OUT/build-minicudart.log)"; }
    MINI=$STEP_OUT/minicudart/lib/libcudart.so.13
fi
[ -f "$MINI" ] || die "no minicudart library at $MINI"
MINI=$(readlink -f "$MINI")
[ "$MINI" != "$(readlink -f "$CUDA_LIB/libcudart.so.13")" ] || die "$MINI is NVIDIA's runtime"
log "preflight: minicudart ($MINI)"
preflight minicudart

# ---- rounds ----------------------------------------------------------------------------------
: >"$STEP_OUT/raw.txt"
FAILS=0
for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then order="nvidia minicudart"; else order="minicudart nvidia"; fi
    for rt in $order; do
        run_one "$rt" "$rt.$r" "$STEPS" "$WARMUP"; rc=$?
        if check_run "$rt" "$rt.$r" "$rc"; then
            awk -v r="$r" -v rt="$rt" '$1 == "RESULT" { v[$2] = $3 }
                END { print r, rt, v["step_us"], v["step_min_us"], v["issue_us"], v["checksum"] }' \
                "$STEP_OUT/runs/$rt.$r" >>"$STEP_OUT/raw.txt"
        else
            FAILS=$((FAILS + 1))
        fi
    done
    log "round $r: $(awk -v r="$r" '$1 == r { printf "%s %s us  ", $2, $3 }' "$STEP_OUT/raw.txt")"
done

# ---- the table -------------------------------------------------------------------------------
# Rounds where both runs succeeded, in round order: one file of values per runtime and metric.
for m in 3:step_us 4:step_min_us 5:issue_us; do
    for rt in nvidia minicudart; do
        awk -v c="${m%%:*}" -v rt="$rt" '{ n[$1]++; v[$1, $2] = $c; if (!($1 in seen)) { seen[$1] = 1; o[++k] = $1 } }
            END { for (i = 1; i <= k; i++) if (n[o[i]] == 2) print v[o[i], rt] }' \
            "$STEP_OUT/raw.txt" >"$STEP_OUT/$rt.${m#*:}.txt"
    done
done
checksums() {  # whether the two runtimes' checksums agree (exactly, or within STEP_RTOL)
    awk -v rtol="$RTOL" '{ d[$2] += !(($2, $6) in s); s[$2, $6] = 1; v[$2] = v[$2] " " $6; all[$6] = 1 }
        END {
            na = 0; for (k in all) na++
            if (!(("nvidia") in d) || !(("minicudart") in d)) { print "checksums: n/a (no successful runs of one runtime)"; exit 1 }
            if (na == 1) { for (k in all) printf "checksums: agree, exactly (%s, every run)\n", k; exit 0 }
            split(v["nvidia"], a, " "); split(v["minicudart"], b, " "); worst = 0
            for (i in a) for (j in b) { x = a[i] - b[j]; if (x < 0) x = -x; m = (a[i] < 0 ? -a[i] : a[i]); if (m > 0) x /= m; if (x > worst) worst = x }
            printf "checksums: %d distinct values (nvidia %d, minicudart %d), largest relative difference between the runtimes %.3g, allowed %g: %s\n",
                na, d["nvidia"], d["minicudart"], worst, rtol, worst <= rtol ? "agree" : "DIFFER"
            exit worst <= rtol ? 0 : 1
        }' "$STEP_OUT/raw.txt"
}
{
    echo "bench/step/run.sh $(date -u +%FT%TZ) $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)" \
        "rounds=$ROUNDS steps=$STEPS warmup=$WARMUP${STEP_CPUS:+ cpus=$STEP_CPUS} failed_runs=$FAILS"
    grep -m 1 '^INFO steps' "$STEP_OUT/runs/nvidia.1" 2>/dev/null | cut -d' ' -f2-
    echo "minicudart: $MINI"
    echo "per process: step_us = median over 10 blocks of wall us per step; step_min_us = fastest block;"
    echo "  issue_us = host us per step before the final cudaStreamSynchronize (median over the blocks)"
    for m in step_us step_min_us issue_us; do
        python3 "$ROOT/bench/stats.py" "$STEP_OUT/nvidia.$m.txt" "$STEP_OUT/minicudart.$m.txt" --name "$m" \
            --labels nvidia,minicudart --lower-is-better 2>&1
    done
    checksums
} >"$STEP_OUT/summary.txt"
ST=$?
echo
cat "$STEP_OUT/summary.txt"
[ "$FAILS" = 0 ] && [ "$ST" = 0 ] && grep -q 'verdict' "$STEP_OUT/summary.txt" && exit 0
exit 1
