#!/usr/bin/env bash
# bench/run.sh - minicudart performance benchmarks on a real GPU, four variants of each program:
#   mini    nvcc -cudart=none + libminicudart.a
#   static  NVIDIA's runtime, nvcc's default -cudart=static
#   shared  NVIDIA's runtime, -cudart=shared (rpath to $CUDA_HOME/lib64)
#   driver  the driver API alone (-lcuda), kernels from an embedded nvcc -fatbin: the floor
#   drvxx   the same driver program built as C++ (g++, libstdc++ loaded like every nvcc-built
#           program): the floor for resident memory; run for the start-up test only
#   before  (BENCH_BEFORE_LIB=path/to/libminicudart.a) the same programs linked with another
#           build of minicudart, e.g. the commit before a change: a before/after table follows
# run INTERLEAVED (for each benchmark: mini [before] static shared driver, then the next
# benchmark; the whole thing $ROUNDS times), each run a separate process.  The table of medians
# comes LAST.
#
# usage (repository root):  bash bench/run.sh
# environment: OUT (default build-bench/out), BENCH_BUDGET_S (420), BENCH_ROUNDS (5),
#              BENCH_REPORT_ONLY=1 (only redo the table from build-bench/bench/raw.txt),
#              BENCH_MANY_KERNELS (2000), CUDA_HOME (/usr/local/cuda), BENCH_ARCH (sm_90),
#              BENCH_BEFORE_LIB (a libminicudart.a to compare with: the "before" variant),
#              BENCH_MINI_LIB (a prebuilt libminicudart.a for the mini variant),
#              BENCH_TESTS (which benchmarks; default all: "startup startup_jit launch mem graph
#              many_lazy many_eager threads capture threads_pairs capture_pairs"; the launch parts
#              run only when it names launch; the *_pairs tests, the runtime against the driver
#              in one process, run for the runtime variants only), BENCH_CPUS (a taskset CPU
#              list, e.g. "2-7": every benchmark process runs on those CPUs only; default unset,
#              no pinning)
# $OUT gets summary.txt (table, spreads, sizes) and logs.tar.gz (build logs, every run's
# stdout/stderr, raw results).  Exit 0 always when the table was printed (FAIL cells say more).
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
W=$ROOT/build-bench
B=$W/bench
OUT=${OUT:-$W/out}
BUDGET=${BENCH_BUDGET_S:-420}
ROUNDS=${BENCH_ROUNDS:-5}
NMANY=${BENCH_MANY_KERNELS:-2000}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=$CUDA_HOME/bin/nvcc
CUDA_LIB=$CUDA_HOME/lib64
SM=${BENCH_ARCH:-sm_90}
ARCH="-gencode arch=compute_${SM#sm_},code=$SM"
S=$ROOT/bench/src
JOBS=$(nproc 2>/dev/null || echo 4); [ "$JOBS" -gt 16 ] && JOBS=16
BEFORE_LIB=${BENCH_BEFORE_LIB:-}
VARIANTS="mini static shared driver drvxx"
[ -n "$BEFORE_LIB" ] && VARIANTS="mini before static shared driver drvxx"
TESTS=${BENCH_TESTS:-"startup startup_jit launch mem graph many_lazy many_eager threads capture threads_pairs capture_pairs"}
CPUS=${BENCH_CPUS:-}
ARCH_PTX="-gencode arch=compute_${SM#sm_},code=compute_${SM#sm_}"
START_NS=$(date +%s%N)
elapsed() { echo $((($(date +%s%N) - START_NS) / 1000000000)); }
remaining() { echo $((BUDGET - $(elapsed))); }
bounded() {  # bounded SECONDS cmd...: timeout, never past the budget
    local limit=$1 left; shift
    left=$(remaining); [ "$left" -lt "$limit" ] && limit=$left
    [ "$limit" -lt 1 ] && return 124
    timeout -k 3 "$limit" "$@"
}
log() { echo "== [$(elapsed)s] $*"; }

# BENCH_REPORT_ONLY=1: rebuild summary.txt and the table from an earlier run's raw files.
if [ -n "${BENCH_REPORT_ONLY:-}" ]; then RAW=$B/raw.txt; RUNS=$B/runs.txt; PICK=$(cat "$B/obj/many.pick" 2>/dev/null || echo '?')
else
rm -rf "$B" && mkdir -p "$B/bin" "$B/obj" "$B/logs" "$B/runs" "$B/status" "$OUT" || exit 1
RAW=$B/raw.txt; RUNS=$B/runs.txt; : >"$RAW"; : >"$RUNS"
log "bench/run.sh $(date -u +%FT%TZ), budget ${BUDGET}s, $ROUNDS rounds, $JOBS jobs, $NMANY kernels"
log "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') $(git -C "$ROOT" status --short 2>/dev/null | wc -l) changed files"
if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version,compute_cap,persistence_mode --format=csv,noheader 2>&1 | head -n 2
else echo "(no nvidia-smi)"; fi
"$NVCC" --version 2>&1 | tail -1

# ---- build: every step a background job; its exit code lands in $B/status/<name> ----------
job() {
    local name=$1; shift
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n 2>/dev/null || sleep 0.2; done
    ( local t0=$SECONDS; "$@" >"$B/logs/build-$name.log" 2>&1; local rc=$?
      echo "$rc" >"$B/status/$name"; echo "$name rc=$rc $((SECONDS - t0))s" >>"$B/logs/build-times.txt" ) &
}
built() { [ "$(cat "$B/status/$1" 2>/dev/null)" = 0 ]; }
# BENCH_MINI_LIB: link the mini variant with this prebuilt libminicudart.a instead of the one
# built here (with BENCH_BEFORE_LIB: both built alike, by one compiler, elsewhere).
MINI_LIBS=("${BENCH_MINI_LIB:-$W/lib/libminicudart.a}" -ldl -lpthread)
build_minicudart() {
    local gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
    bounded 200 cmake -S "$ROOT" -B "$W" "${gen[@]}" -DMINICUDART_TESTS=OFF \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$NVCC" &&
        bounded 200 cmake --build "$W" -j "$JOBS" --target minicudart
}
compile_rt() { bounded 200 "$NVCC" $ARCH -O2 -I"$S" -c "$S/rt_bench.cu" -o "$B/obj/rt_bench.o"; }
compile_fatbin() { bounded 200 "$NVCC" $ARCH -I"$S" -fatbin "$S/kernels.cu" -o "$B/obj/kernels.fatbin"; }
# The launch cost taken apart in one process (tests/gpu/bench_launch.cu, BENCH_PARTS).
compile_parts() { bounded 200 "$NVCC" $ARCH -O2 -I"$ROOT/tests/gpu" -c "$ROOT/tests/gpu/bench_launch.cu" -o "$B/obj/parts.o"; }
# The PTX-JIT start-up: the same programs with PTX only, which the driver compiles at load.
compile_rt_ptx() { bounded 200 "$NVCC" $ARCH_PTX -O2 -I"$S" -c "$S/rt_bench.cu" -o "$B/obj/rt_bench_ptx.o"; }
compile_fatbin_ptx() { bounded 200 "$NVCC" $ARCH_PTX -I"$S" -fatbin "$S/kernels.cu" -o "$B/obj/kernels_ptx.fatbin"; }
gen_many() { "$S/gen_many.sh" "$NMANY" "$B/obj/many.cu" >"$B/obj/many.pick"; }
compile_many_rt() { bounded 200 "$NVCC" $ARCH -O2 -I"$S" -c "$B/obj/many.cu" -o "$B/obj/many.o"; }
compile_many_fatbin() { bounded 200 "$NVCC" $ARCH -I"$S" -fatbin "$B/obj/many.cu" -o "$B/obj/many.fatbin"; }
link_nv() {  # link_nv OBJ NAME: the static and shared NVIDIA variants
    bounded 120 "$NVCC" $ARCH "$1" -o "$B/bin/$2.static" &&
        bounded 120 "$NVCC" $ARCH -cudart=shared "$1" -o "$B/bin/$2.shared" \
            -Xlinker -rpath -Xlinker "$CUDA_LIB"
}
link_mini() { bounded 120 "$NVCC" $ARCH -cudart=none "$1" -o "$B/bin/$2.mini" "${MINI_LIBS[@]}"; }
link_before() { bounded 120 "$NVCC" $ARCH -cudart=none "$1" -o "$B/bin/$2.before" "$BEFORE_LIB" -ldl -lpthread; }
build_driver() {  # build_driver NAME SRC FATBIN [cflags]
    bounded 120 gcc -std=c11 -O2 -pthread -I"$S" -I"$CUDA_HOME/include" -DFATBIN_PATH="\"$3\"" ${4:-} \
        "$S/$2" -o "$B/bin/$1.driver" -L"$CUDA_LIB/stubs" -lcuda
}
build_drvxx() {  # the C++ floor: drv_bench.c as C++, libstdc++ loaded at start like nvcc's programs
    bounded 120 g++ -x c++ -O2 -pthread -I"$S" -I"$CUDA_HOME/include" -DFATBIN_PATH="\"$B/obj/kernels.fatbin\"" \
        "$S/drv_bench.c" -o "$B/bin/bench.drvxx" -L"$CUDA_LIB/stubs" -Wl,--no-as-needed -lstdc++ -lcuda
}

log "building (minicudart, nvcc compiles, ${NMANY}-kernel module) in parallel"
gen_many; echo $? >"$B/status/gen_many"
PICK=$(cat "$B/obj/many.pick" 2>/dev/null || echo m0)
job minicudart build_minicudart
job many_o compile_many_rt
job many_fatbin compile_many_fatbin
job rt_o compile_rt
job parts_o compile_parts
job fatbin compile_fatbin
job rt_ptx_o compile_rt_ptx
job fatbin_ptx compile_fatbin_ptx
wait
log "compiles done: $(tr '\n' ';' <"$B/logs/build-times.txt")"
built rt_o && job bench_nv link_nv "$B/obj/rt_bench.o" bench
built many_o && job many_nv link_nv "$B/obj/many.o" many
built minicudart && built rt_o && job bench_mini link_mini "$B/obj/rt_bench.o" bench
built minicudart && built many_o && job many_mini link_mini "$B/obj/many.o" many
built parts_o && job parts_nv bounded 120 "$NVCC" $ARCH "$B/obj/parts.o" -o "$B/bin/parts.static"
built minicudart && built parts_o && job parts_mini link_mini "$B/obj/parts.o" parts
if [ -n "$BEFORE_LIB" ]; then
    built rt_o && job bench_before link_before "$B/obj/rt_bench.o" bench
    built many_o && job many_before link_before "$B/obj/many.o" many
    built parts_o && job parts_before link_before "$B/obj/parts.o" parts
fi
built fatbin && job bench_driver build_driver bench drv_bench.c "$B/obj/kernels.fatbin"
built fatbin && job bench_drvxx build_drvxx
built rt_ptx_o && job ptx_nv link_nv "$B/obj/rt_bench_ptx.o" bench_ptx
built minicudart && built rt_ptx_o && job ptx_mini link_mini "$B/obj/rt_bench_ptx.o" bench_ptx
built fatbin_ptx && job ptx_driver build_driver bench_ptx drv_bench.c "$B/obj/kernels_ptx.fatbin"
built many_fatbin && job many_driver build_driver many drv_many.c "$B/obj/many.fatbin" \
    "-DMANY_PICK_NAME=\"$PICK\""
wait
log "builds done: $(ls "$B/bin" | tr '\n' ' ')"
for f in "$B/status"/*; do [ "$(cat "$f")" = 0 ] || { echo "BUILD FAILED: ${f##*/}"; tail -n 15 "$B/logs/build-${f##*/}.log"; }; done

# Without a real libcuda.so.1 (a machine with no driver), the driver variant would not even
# start: give it the toolkit's stub, which answers CUDA_ERROR_STUB_LIBRARY (-> exit 2, "no GPU").
DRV_ENV=()
have_libcuda() {
    { ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null | grep -q 'libcuda\.so\.1 ' && return 0
    ls /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib64/libcuda.so.1 /usr/lib/wsl/lib/libcuda.so.1 \
        >/dev/null 2>&1
}
if ! have_libcuda; then
    mkdir -p "$B/stub" && ln -sf "$CUDA_LIB/stubs/libcuda.so" "$B/stub/libcuda.so.1"
    DRV_ENV=(LD_LIBRARY_PATH="$B/stub${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
    log "no libcuda.so.1 on this machine: driver variant runs on the stub"
fi

# ---- runs ------------------------------------------------------------------------------------
# BENCH_CPUS: this shell pins itself (taskset -p) after the builds, so that every benchmark
# process after it inherits the CPU list, with no taskset process inside the timed start-up.
if [ -n "$CPUS" ]; then
    taskset -c -p "$CPUS" $$ >/dev/null || { echo "BENCH_CPUS=$CPUS: taskset failed"; exit 1; }
    log "benchmarks pinned to CPUs $CPUS ($(taskset -c -p $$ | sed 's/.*: //'))"
fi
# run_one TEST VARIANT ROUND: RESULT lines -> $RAW ("metric variant value"), the process's wall
# time for the start-up tests, and "test variant round rc" -> $RUNS.
run_one() {
    local t=$1 v=$2 r=$3 prog=bench arg env=() rc t0 t1 o
    case $t in
    startup | launch | mem | graph | threads | capture | threads_pairs | capture_pairs) arg=$t ;;
    startup_jit) prog=bench_ptx arg=startup; env=(CUDA_CACHE_DISABLE=1) ;;
    many_lazy) prog=many arg=""; env=(CUDA_MODULE_LOADING=LAZY) ;;
    many_eager) prog=many arg=""; env=(CUDA_MODULE_LOADING=EAGER) ;;
    esac
    [ "$v" = driver ] || [ "$v" = drvxx ] && env+=("${DRV_ENV[@]}")
    o=$B/runs/$t.$v.$r
    if [ ! -x "$B/bin/$prog.$v" ]; then echo "$t $v $r nobuild" >>"$RUNS"; return; fi
    if [ "$(remaining)" -lt 4 ]; then echo "$t $v $r skip" >>"$RUNS"; return; fi
    t0=$(date +%s%N)
    bounded 40 env "${env[@]}" "$B/bin/$prog.$v" $arg >"$o.out" 2>"$o.err"
    rc=$?
    t1=$(date +%s%N)
    echo "$t $v $r $rc" >>"$RUNS"
    [ "$rc" = 0 ] || return
    awk -v v="$v" -v t="$t" '$1 == "RESULT" {
            m = $2; if (t ~ /^many_|^startup_jit/) m = t "_" m; print m, v, $3 }' "$o.out" >>"$RAW"
    case $t in
    startup | startup_jit | many_lazy | many_eager)
        awk -v t="$t" -v v="$v" -v ns=$((t1 - t0)) 'BEGIN { printf "%s_ms %s %.3f\n", t, v, ns / 1e6 }' >>"$RAW" ;;
    esac
}
for r in $(seq 1 "$ROUNDS"); do
    [ "$(remaining)" -lt 4 ] && { log "time guard: stopping before round $r"; break; }
    log "round $r"
    for t in $TESTS; do
        for v in $VARIANTS; do
            [ "$v" = drvxx ] && [ "$t" != startup ] && continue   # the C++ floor: footprint only
            case $t in *_pairs) [ "$v" = driver ] && continue ;; esac  # no runtime to pair: n/a
            run_one "$t" "$v" "$r"
        done
    done
done
# The launch cost taken apart: in each process batches take turns among <<<>>>, cudaLaunchKernel
# and cuLaunchKernel with and without cuCtxGetCurrent and packing (bench_launch.cu), so the
# runtime's cost over the driver is measured against the same kernel on the same machine state.
: >"$B/parts.txt"
case " $TESTS " in *" launch "*) PARTS_ROUNDS=$ROUNDS ;; *) PARTS_ROUNDS=0 ;; esac
for r in $(seq 1 "$PARTS_ROUNDS"); do
    for v in mini ${BEFORE_LIB:+before} static; do
        [ -x "$B/bin/parts.$v" ] && [ "$(remaining)" -gt 10 ] || continue
        BENCH_PARTS=1 BENCH_LABEL=$v timeout 60 "$B/bin/parts.$v" 20000 2>/dev/null |
            awk -v r="$r" '$1 == "bench_launch" && $6 == "ok" { print r, $2, $3, $4 }' >>"$B/parts.txt"
    done
done
# Where the resident memory above the C++ floor lies: one more start-up run of minicudart, NVIDIA's
# static runtime and the floor, each listing its mappings' Rss (BENCH_SMAPS, bench/src/common.h).
for v in mini static drvxx; do
    [ -x "$B/bin/bench.$v" ] && [ "$(remaining)" -gt 4 ] || continue
    env BENCH_SMAPS=1 "${DRV_ENV[@]}" timeout 30 "$B/bin/bench.$v" startup 2>/dev/null |
        awk -v v="$v" '$1 == "SMAPS" { name = $3; sub(/.*\//, "", name); print v, name, $2 }'
done >"$B/smaps.txt"
log "runs done; exit codes: $(awk '{ c[$2 ":" $4]++ } END { for (k in c) printf "%s x%d ", k, c[k] }' "$RUNS")"
for f in "$B"/runs/*.out; do  # first failure of each kind, for the tail
    [ -e "$f" ] || continue
    grep -q '^FAIL' "$f" && { echo "-- ${f##*/}:"; grep -m 3 '^FAIL' "$f"; }
done | head -n 24

fi  # BENCH_REPORT_ONLY

# ---- sizes -----------------------------------------------------------------------------------
{
    echo "sizes (bytes):"
    for f in "$W/lib/libminicudart.a" "$W/lib/libcudart.so.13" "$CUDA_LIB/libcudart.so.13" \
        "$CUDA_LIB/libcudart_static.a" "$B"/bin/*; do
        [ -e "$f" ] && printf '  %-60s %s\n' "${f#$ROOT/}" "$(stat -L -c %s "$f")"
    done
} >"$B/sizes.txt"

# ---- the table -------------------------------------------------------------------------------
# $B/stats.txt: "metric variant median min max n" (values sorted numerically, then grouped).
sort -k1,1 -k2,2 -k3,3g "$RAW" | awk '
    function flush() { if (n) printf "%s %s %s %s %s %d\n", km, kv, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2), v[1], v[n], n }
    { if ($1 != km || $2 != kv) { flush(); km = $1; kv = $2; n = 0 } v[++n] = $3 }
    END { flush() }' >"$B/stats.txt"
METRICS="launch_p0_ns:launch launch_p4_ns:launch launch_p32_ns:launch launch_s4k_ns:launch
launch_e2e_200k_ns:launch startup_ms:startup startup_jit_ms:startup_jit many_lazy_ms:many_lazy many_eager_ms:many_eager
memcpy_h2d_64B_us:mem memcpy_d2h_64B_us:mem h2d_64MiB_pageable_GBps:mem graph_per_kernel_ns:graph
graph_launch_host_us:graph graph_pair_rt_host_us:graph graph_pair_cu_host_us:graph graph_rt_over_cu:graph
startup_rss_kb:startup many_lazy_rss_kb:many_lazy
threads_own_1_klps:threads threads_own_4_klps:threads threads_own_16_klps:threads threads_own_64_klps:threads
threads_legacy_1_klps:threads threads_legacy_4_klps:threads threads_legacy_16_klps:threads threads_legacy_64_klps:threads
capture_1000_ms:capture instantiate_1000_ms:capture update_1000_ms:capture replay_1000_ms:capture
capture_10000_ms:capture instantiate_10000_ms:capture update_10000_ms:capture replay_10000_ms:capture
threads_own_1_rt_over_cu:threads_pairs threads_own_4_rt_over_cu:threads_pairs threads_own_16_rt_over_cu:threads_pairs
threads_own_64_rt_over_cu:threads_pairs threads_legacy_1_rt_over_cu:threads_pairs threads_legacy_4_rt_over_cu:threads_pairs
threads_legacy_16_rt_over_cu:threads_pairs threads_legacy_64_rt_over_cu:threads_pairs
capture_1000_rt_over_cu:capture_pairs instantiate_1000_rt_over_cu:capture_pairs update_1000_rt_over_cu:capture_pairs
capture_10000_rt_over_cu:capture_pairs instantiate_10000_rt_over_cu:capture_pairs update_10000_rt_over_cu:capture_pairs"
# startup's rss_kb is reported as startup_rss_kb
sed -i 's/^rss_kb /startup_rss_kb /' "$B/stats.txt"
table() {  # table median|spread
    echo "$METRICS" | tr ' ' '\n' | grep . | awk -v mode="$1" -v variants="$VARIANTS" '
        FILENAME == ARGV[1] { med[$1, $2] = $3; sp[$1, $2] = $4 "-" $5 " (" $6 ")"; next }
        FILENAME == ARGV[2] { if ($4 != 0 && $4 != 2 && $4 != "skip") bad[$1, $2] = ($4 == "nobuild" ? "NOBUILD" : "FAIL");
                              if ($4 == 2) nogpu[$1, $2] = 1; next }
        { split($0, mt, ":"); rows[++nr] = mt[1]; test[nr] = mt[2] }
        function cell(m, t, v) {
            if ((m, v) in med) return mode == "median" ? sprintf("%.4g", med[m, v]) : sp[m, v]
            if ((t, v) in bad) return bad[t, v]
            return "n/a"
        }
        function ratio(m, a, b) {
            if (!((m, a) in med) || !((m, b) in med) || med[m, b] == 0) return "n/a"
            return sprintf("%.3f", med[m, a] / med[m, b])
        }
        END {
            nv = split(variants, V, " ")
            if (mode == "median")
                printf "%-28s | %10s | %13s | %13s | %10s | %11s | %11s\n", "benchmark (median)", "minicudart", "nvidia-static", "nvidia-shared", "driver", "mini/driver", "mini/static"
            else
                printf "%-28s | %-20s | %-20s | %-20s | %-20s\n", "spread min-max (n)", "minicudart", "nvidia-static", "nvidia-shared", "driver"
            for (i = 1; i <= nr; i++) {
                m = rows[i]; t = test[i]
                if (mode == "median")
                    printf "%-28s | %10s | %13s | %13s | %10s | %11s | %11s\n", m, cell(m, t, "mini"), cell(m, t, "static"), cell(m, t, "shared"), cell(m, t, "driver"), ratio(m, "mini", "driver"), ratio(m, "mini", "static")
                else
                    printf "%-28s | %-20s | %-20s | %-20s | %-20s\n", m, cell(m, t, "mini"), cell(m, t, "static"), cell(m, t, "shared"), cell(m, t, "driver")
            }
        }' "$B/stats.txt" "$RUNS" -
}
before_table() {  # BENCH_BEFORE_LIB: this build against the other one, same runs interleaved
    [ -n "$BEFORE_LIB" ] || return 0
    echo "before/after: minicudart as built here (after) and $BEFORE_LIB (before), medians and spreads"
    echo "$METRICS" | tr ' ' '\n' | grep . | awk '
        FILENAME == ARGV[1] { med[$1, $2] = $3; sp[$1, $2] = $4 "-" $5 " (" $6 ")"; next }
        { split($0, mt, ":"); m = mt[1]
          if (!((m, "mini") in med) || !((m, "before") in med)) next
          printf "  %-24s after %10.4g  %-22s before %10.4g  %-22s after/before %.3f\n", m,
              med[m, "mini"], sp[m, "mini"], med[m, "before"], sp[m, "before"],
              med[m, "before"] ? med[m, "mini"] / med[m, "before"] : 0 }' "$B/stats.txt" -
}
rss_note() {  # the floors: the C driver program, and the same program as C++ (drvxx)
    awk '$1 == "startup_rss_kb" { r[$2] = $3 } END {
        n = split("driver drvxx", F, " ")
        for (i = 1; i <= n; i++) {
            f = F[i]
            if (!(f in r)) { printf "rss above the %s floor: n/a\n", f; continue }
            printf "rss above the %s floor (%s kB; startup, kB): mini %s, static %s, shared %s\n", f, r[f],
                ("mini" in r) ? r["mini"] - r[f] : "n/a", ("static" in r) ? r["static"] - r[f] : "n/a",
                ("shared" in r) ? r["shared"] - r[f] : "n/a"
        } }' "$B/stats.txt"
}
parts_note() {  # medians over rounds; ratios per round, then their median (min-max)
    [ -s "$B/parts.txt" ] || return 0
    echo "launch cost in one process, ns per launch (median over rounds; steady / queued):"
    awk '{ split($2, a, "-parts-"); v = a[1]; w = a[2]; s[v, w] = s[v, w] " " $3; q[v, w] = q[v, w] " " $4
           if (w == "chevron") cs[v, $1] = $3; if (w == "drv-array") ds[v, $1] = $3
           if (w == "chevron") cq[v, $1] = $4; if (w == "drv-array") dq[v, $1] = $4
           vs[v] = 1; ws[w] = 1; rs[$1] = 1 }
        function med(str,   n, x, i, j, t) { n = split(str, x, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] + 0 < x[i] + 0) { t = x[i]; x[i] = x[j]; x[j] = t }
            return n ? (n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2) : 0 }
        function span(str,   n, x, i, lo, hi) { n = split(str, x, " "); lo = hi = x[1]; for (i = 2; i <= n; i++) { if (x[i] + 0 < lo + 0) lo = x[i]; if (x[i] + 0 > hi + 0) hi = x[i] }
            return sprintf("%.3f-%.3f", lo, hi) }
        END {
            split("chevron cudaLaunchKernel drv-array drv-buffer drv-ctx-array drv-ctx-buffer", W, " ")
            for (v in vs) for (i = 1; i <= 6; i++) if ((v, W[i]) in s)
                printf "  %-7s %-17s %8.1f / %8.1f\n", v, W[i], med(s[v, W[i]]), med(q[v, W[i]])
            for (v in vs) { rr = ""; rq = ""
                for (r in rs) if ((v, r) in cs && (v, r) in ds) { rr = rr " " cs[v, r] / ds[v, r]; rq = rq " " cq[v, r] / dq[v, r] }
                printf "  %-7s <<<>>> / cuLaunchKernel per round: steady %.3f (%s), queued %.3f (%s)\n", v, med(rr), span(rr), med(rq), span(rq) }
        }' "$B/parts.txt"
}
pairs_note() {  # threads_pairs: the lowest and highest thread's median (medians over rounds)
    grep -Eq '^threads_.*_rt_over_cu_(min|max) ' "$B/stats.txt" || return 0
    echo "threads_pairs, per-thread medians of <<<>>> / cuLaunchKernel, lowest-highest thread:"
    awk '$1 ~ /^threads_.*_rt_over_cu_(min|max)$/ { split($1, a, "_")
            if (a[7] == "min") lo[$2, a[2], a[3]] = $3; else hi[$2, a[2], a[3]] = $3; vs[$2] = 1 }
        END { split("own legacy", S, " "); split("4 16 64", N, " ")
            for (v in vs) for (i = 1; i <= 2; i++) { line = sprintf("  %-7s %-6s", v, S[i])
                for (j = 1; j <= 3; j++) if ((v, S[i], N[j]) in lo)
                    line = line sprintf("  %2d: %.3f-%.3f", N[j], lo[v, S[i], N[j]], hi[v, S[i], N[j]])
                print line } }' "$B/stats.txt" | sort -k1,1 -k2,2r
}
smaps_note() {  # per mapping: kB resident in minicudart / NVIDIA static / the C++ floor
    [ -s "$B/smaps.txt" ] || return 0
    echo "resident kB by mapping at the end of start-up (one run each; mini, static, drvxx floor):"
    awk '{ r[$2, $1] += $3; names[$2] = 1 } END {
        for (n in names) {
            d = r[n, "mini"] - r[n, "drvxx"]; s = r[n, "static"] - r[n, "drvxx"]
            if (d != 0 || s != 0) printf "  %-40s %8d %8d %8d   mini-floor %d\n", n, r[n, "mini"], r[n, "static"], r[n, "drvxx"], d
        } }' "$B/smaps.txt" | sort -k6,6nr | head -n 16
}
{
    echo "bench/run.sh $(date -u +%FT%TZ) $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null) rounds=$ROUNDS kernels=$NMANY elapsed=$(elapsed)s"
    echo "units: _ns ns, _us us, _ms ms (startup_*, many_*: whole process wall time), GBps GB/s, rss kB,"
    echo "       klps thousands of launches per second (higher is better); ratios of medians;"
    echo "       _rt_over_cu: the runtime's time / the driver's, in one process (median of the pairs)"
    echo "n/a: no result (no GPU, skipped by the time guard); FAIL: non-zero exit (see logs); NOBUILD"
    echo
    table spread
    echo
    cat "$B/sizes.txt"
    echo
    echo "many_*: one launch of $PICK out of $NMANY kernels; startup: one <<<1,32>>> k4 launch + sync"
    parts_note
    pairs_note
    before_table
    rss_note
    smaps_note
    echo
    table median
} >"$OUT/summary.txt"
mkdir -p "$OUT"; [ -n "${BENCH_REPORT_ONLY:-}" ] || tar -czf "$OUT/logs.tar.gz" -C "$W" bench/logs bench/runs bench/raw.txt bench/runs.txt \
    bench/stats.txt bench/sizes.txt bench/obj/many.pick 2>/dev/null
echo
cat "$OUT/summary.txt"
exit 0
