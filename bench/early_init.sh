#!/usr/bin/env bash
# bench/early_init.sh - MINICUDART_EARLY_INIT on a real GPU (lib/device/early_init.c): does starting the
# driver on a background thread at the first registration hide it behind the program's own
# start-up, and what does it cost the programs it does not help?  bench/src/early_bench.cu, four
# variants, each run a fresh process, interleaved (every variant of a test, then the next test;
# the whole thing $ROUNDS times):
#   mini      minicudart (lazy start: the first CUDA call starts the driver)
#   early     minicudart, MINICUDART_EARLY_INIT=1 (driver + device 0's primary context)
#   earlydrv  minicudart, MINICUDART_EARLY_INIT=driver (cuInit only)
#   nvidia    NVIDIA's runtime (nvcc's default -cudart=static)
# Tests: "first X" for X in $EARLY_X (X ms of busy work, then one kernel: process start to the
# kernel done), "never 100" (no CUDA call: wall time, peak RSS), "fork 100" (a child forked before
# any CUDA call uses CUDA), then one "never 300" run per variant with BENCH_DEVMEM=1 (device memory
# the process holds: nvidia-smi's figure, and the free memory a sibling sees against an idle GPU's).
# The table of medians comes LAST.
#
# usage (repository root):  bash bench/early_init.sh
# environment: OUT (default build-bench/out-early), EARLY_ROUNDS (5), EARLY_X ("0 100 300"),
#              EARLY_BUDGET_S (100, build included), CUDA_HOME, BENCH_ARCH (sm_90)
# Shares build-bench/ with bench/run.sh (minicudart is built there, Release).
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
W=$ROOT/build-bench
B=$W/early
OUT=${OUT:-$W/out-early}
ROUNDS=${EARLY_ROUNDS:-5}
XS=${EARLY_X:-"0 100 300"}
BUDGET=${EARLY_BUDGET_S:-100}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=$CUDA_HOME/bin/nvcc
SM=${BENCH_ARCH:-sm_90}
ARCH="-gencode arch=compute_${SM#sm_},code=$SM"
S=$ROOT/bench/src
JOBS=$(nproc 2>/dev/null || echo 4); [ "$JOBS" -gt 16 ] && JOBS=16
VARIANTS="mini early earlydrv nvidia"
START_NS=$(date +%s%N)
elapsed() { echo $((($(date +%s%N) - START_NS) / 1000000000)); }
remaining() { echo $((BUDGET - $(elapsed))); }
log() { echo "== [$(elapsed)s] $*"; }

rm -rf "$B" && mkdir -p "$B" "$OUT" || exit 1
RAW=$B/raw.txt; : >"$RAW"
log "bench/early_init.sh $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null), $ROUNDS rounds, X: $XS"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 2

# ---- build (minicudart in build-bench, as bench/run.sh does; the two programs in parallel) ----
# EARLY_MINICUDART_LIB: use that libminicudart.a instead (a local try against the fake driver).
LIBA=${EARLY_MINICUDART_LIB:-$W/lib/libminicudart.a}
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
if [ -n "${EARLY_MINICUDART_LIB:-}" ]; then true &
else
( cmake -S "$ROOT" -B "$W" "${gen[@]}" -DMINICUDART_TESTS=OFF -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_COMPILER="$NVCC" && cmake --build "$W" -j "$JOBS" --target minicudart ) \
    >"$B/build-minicudart.log" 2>&1 &
fi
"$NVCC" $ARCH -O2 -I"$S" -c "$S/early_bench.cu" -o "$B/early_bench.o" >"$B/build-obj.log" 2>&1
obj=$?
wait $! ; lib=$?
[ "$obj" = 0 ] && "$NVCC" $ARCH "$B/early_bench.o" -o "$B/early.nvidia" >>"$B/build-obj.log" 2>&1
[ "$obj" = 0 ] && [ "$lib" = 0 ] && "$NVCC" $ARCH -cudart=none "$B/early_bench.o" -o "$B/early.mini" \
    "$LIBA" -ldl -lpthread >>"$B/build-obj.log" 2>&1
for f in mini nvidia; do
    [ -x "$B/early.$f" ] || { echo "BUILD FAILED: early.$f"; tail -n 20 "$B"/build-*.log; }
done
log "built"

# run_one VARIANT ROUND TEST X [ENV...]: RESULT lines -> $RAW as "TEST/X metric variant value",
# plus the process's wall time as "TEST/X wall_ms".
run_one() {
    local v=$1 r=$2 t=$3 x=$4 prog env=() rc t0 t1 o
    shift 4
    case $v in
    nvidia) prog=$B/early.nvidia ;;
    early) prog=$B/early.mini; env=(MINICUDART_EARLY_INIT=1) ;;
    earlydrv) prog=$B/early.mini; env=(MINICUDART_EARLY_INIT=driver) ;;
    *) prog=$B/early.mini ;;
    esac
    [ -x "$prog" ] || return
    [ "$(remaining)" -lt 3 ] && return
    o=$B/run.$t.$x.$v.$r
    t0=$(date +%s%N)
    env "${env[@]}" "$@" BENCH_T0_NS="$t0" timeout 30 "$prog" "$t" "$x" >"$o.out" 2>"$o.err"
    rc=$?
    t1=$(date +%s%N)
    awk -v k="$t/$x" -v v="$v" '$1 == "RESULT" { print k, $2, v, $3 }' "$o.out" >>"$RAW"
    awk -v k="$t/$x" -v v="$v" -v ns=$((t1 - t0)) -v rc="$rc" \
        'BEGIN { printf "%s wall_ms %s %.3f\n%s exit %s %d\n", k, v, ns / 1e6, k, v, rc }' >>"$RAW"
}
for r in $(seq 1 "$ROUNDS"); do
    [ "$(remaining)" -lt 5 ] && { log "time guard: stopping before round $r"; break; }
    log "round $r"
    for x in $XS; do for v in $VARIANTS; do run_one "$v" "$r" first "$x"; done; done
    for v in $VARIANTS; do run_one "$v" "$r" never 100; done
    for v in $VARIANTS; do run_one "$v" "$r" fork 100; done
done
# Device memory a never-using process holds: nvidia-smi's figure for its pid, and (where a
# container hides the pids from nvidia-smi) the free memory a sibling process sees while it
# lives, against the same figure with the GPU otherwise idle (memfree/0, NVIDIA's runtime).
for v in $VARIANTS; do
    run_one nvidia 0 memfree 0
    run_one "$v" 0 never 300 BENCH_DEVMEM=1 BENCH_MEMFREE_PROG="$B/early.nvidia"
done
awk '$1 == "memfree/0" && $2 == "memfree_mib" { base[++n] = $4 }
     $1 == "never/300" && $2 == "never_sibling_free_mib" && $4 >= 0 { sib[$3] = $4 }
     END { if (!n) exit
           for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (base[j] < base[i]) { t = base[i]; base[i] = base[j]; base[j] = t }
           b = n % 2 ? base[(n + 1) / 2] : (base[n / 2] + base[n / 2 + 1]) / 2
           for (v in sib) printf "never/300 held_by_free_mib %s %.1f\n", v, b - sib[v] }' "$RAW" >>"$RAW"
log "runs done"

# ---- the table: per row the median over rounds (min-max), per variant -------------------------
sort -k1,1 -k2,2 -k3,3 -k4,4g "$RAW" | awk -v variants="$VARIANTS" '
    { key = $1 " " $2; if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
      n[key, $3]++; v[key, $3, n[key, $3]] = $4 }
    function med(k, w,   c) { c = n[k, w]; if (!c) return ""; return c % 2 ? v[k, w, (c + 1) / 2] : (v[k, w, c / 2] + v[k, w, c / 2 + 1]) / 2 }
    function cell(k, w) { if (!n[k, w]) return "n/a"
        return sprintf("%.4g (%.4g-%.4g)", med(k, w), v[k, w, 1], v[k, w, n[k, w]]) }
    function ratio(k, a, b,   x, y) { x = med(k, a); y = med(k, b); return (x == "" || y == "" || y == 0) ? "n/a" : sprintf("%.3f", x / y) }
    END {
        nv = split(variants, V, " ")
        printf "%-30s", "test/X metric: median (min-max)"
        for (i = 1; i <= nv; i++) printf " | %-26s", V[i]
        printf " | %-11s | %-12s\n", "early/mini", "early/nvidia"
        for (j = 1; j <= nk; j++) {
            k = order[j]
            printf "%-30s", k
            for (i = 1; i <= nv; i++) printf " | %-26s", cell(k, V[i])
            printf " | %-11s | %-12s\n", ratio(k, "early", "mini"), ratio(k, "early", "nvidia")
        }
    }' >"$B/table.txt"
{
    echo "bench/early_init.sh $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null) rounds=$ROUNDS elapsed=$(elapsed)s"
    echo "first/X: X ms of busy work, then one kernel; first_done_ms = process start to kernel done,"
    echo "  first_call_ms = the first CUDA call to kernel done, wall_ms = the whole process"
    echo "never/X: no CUDA call; never/300 once: never_devmem_mib (nvidia-smi, 0 if it lists no such pid),"
    echo "  held_by_free_mib (idle GPU's free memory - what a sibling sees meanwhile); exit = exit code"
    echo "fork/100: the child of a fork before any CUDA call: fork_child_ok 1 = its round trip worked,"
    echo "  fork_child_error = the error code (3 = cudaErrorInitializationError)"
    echo "fork children's answers, per variant:"
    for v in $VARIANTS; do
        echo "  $v: $(cat "$B"/run.fork.100."$v".*.out 2>/dev/null | grep -h '^fork child' | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
    done
    echo
    cat "$B/table.txt"
} >"$OUT/summary-early.txt"
tar -czf "$OUT/logs-early.tar.gz" -C "$W" early 2>/dev/null
echo
cat "$OUT/summary-early.txt"
exit 0
