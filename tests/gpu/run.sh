#!/usr/bin/env bash
# tests/gpu/run.sh - the differential GPU test: every program of tests/gpu/ built twice with nvcc,
# once against NVIDIA's runtime (-cudart=shared) and once against minicudart (-cudart=none +
# libminicudart.a), run on the GPU, stdout and exit code compared line by line.
#
# usage (from the repository root, on the GPU machine):   tests/gpu/run.sh
# environment: OUT (where logs go; default build-gpurun/out), GPU_RUN_BUDGET_S (default 280),
#              GPU_PROGRAMS (a subset of the programs, by name; default all),
#              GPU_SKIP_PROGRAMS (programs built but not run, shown as "skipped"),
#              CUDA_HOME (default /usr/local/cuda), BENCH_ROUNDS (5), BENCH_LAUNCHES (20000),
#              BENCH_MODES (a subset of step 5's modes, by name; default all),
#              GPU_BUILD_ONLY (set: steps 1 and 2 only, for tests/gpu/reliability.sh, or to build
#              on a machine without a GPU), GPU_REUSE_BUILD (set: skip steps 1 and 2 and run the
#              binaries such a build left in build-gpurun/bin and build-gpurun/status),
#              GPU_BUILD_DIR (instead of build-gpurun; relative to the repository root),
#              CUDA_LIB (the toolkit's libraries: default $CUDA_HOME/lib64, or $CUDA_HOME/lib
#              where there is no lib64, as in NVIDIA's pip wheels), CUDA_LIBS_ALSO (more library
#              folders, searched after CUDA_LIB), MINICUDART_CUDA_HOME (the toolkit CMake builds
#              minicudart with in step 1; default CUDA_HOME).  tests/gpu/cuda135.sh sets these
#              to build with nvcc 13.5 from the wheels and run the result on another machine.
#              GPU_EXPECTED_DIFFERENCES (the list of step 3, default
#              tests/gpu/expected_differences.txt; relative to the repository root),
#              GPU_FATBIN_LIBS (step 6's libraries; empty: no step 6).  tests/gpu/cuda12.sh sets
#              these for the CUDA 12 round.  GPU_BUILD_TYPE (step 1's CMAKE_BUILD_TYPE, default
#              Release; MinSizeRel: the objects built for size, as the size target measures them).
#
# Steps, each recorded in the table instead of aborting the rest:
#   1. configure + build minicudart and the `fatbin` tool (GPU_BUILD_TYPE, no cmocka tests), in
#      the background while nvcc compiles the programs (objects are the same for both runtimes;
#      only the link differs: PROTOCOL.md section 10.1);
#   2. link every program twice; -rdc uses `nvcc -dc` objects + an explicit `nvcc -dlink`
#      (-cudart=none skips the device link, PROTOCOL.md section 4) for both variants;
#   3. run each pair; a difference listed in tests/gpu/expected_differences.txt is ALLOWED
#      (a whole program only if both runs exited 0; a conf_misuse_* program is started again
#      after a crash, at the next case: run_misuse);
#   4. MINICUDART_TRACE=1 vadd: show the trace lines naming the image and the launch;
#   5. launch benchmark: MINICUDART_LAUNCH_PARAMS=array / =buffer, array with the exit summary
#      on (MINICUDART_SUMMARY=1), NVIDIA's runtime, raw driver, in alternating processes, median
#      ns per launch;
#   6. `fatbin list` on five toolkit libraries, timed, next to cuobjdump's ELF/PTX counts.
# The table comes last (the tail of the output is what a remote caller gets back).  Full logs:
# $OUT/run.log, $OUT/summary.txt, $OUT/logs.tar.gz.  Exit: 0 all pass, 3 no GPU, 1 otherwise.
set -u

cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
W=${GPU_BUILD_DIR:-$ROOT/build-gpurun}
case $W in /*) ;; *) W=$ROOT/$W ;; esac
OUT=${OUT:-$W/out}
BUDGET=${GPU_RUN_BUDGET_S:-280}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=$CUDA_HOME/bin/nvcc
# NVIDIA's installer puts a toolkit's libraries in lib64, its pip wheels (nvidia/cu13) in lib.
if [ -z "${CUDA_LIB:-}" ]; then
    CUDA_LIB=$CUDA_HOME/lib64
    [ -d "$CUDA_LIB" ] || CUDA_LIB=$CUDA_HOME/lib
fi
# Step 1's toolkit: minicudart is C and needs no particular nvcc (lib/core/cuda135.h declares what
# 13.5 added when the headers are older), so a 13.5 round builds it with the 13.0 toolkit.
MINICUDART_NVCC=${MINICUDART_CUDA_HOME:-$CUDA_HOME}/bin/nvcc
BENCH_ROUNDS=${BENCH_ROUNDS:-5}
BENCH_LAUNCHES=${BENCH_LAUNCHES:-20000}
G=tests/gpu
EXPECTED=${GPU_EXPECTED_DIFFERENCES:-$G/expected_differences.txt}
case $EXPECTED in /*) ;; *) EXPECTED=$ROOT/$EXPECTED ;; esac
ARCH="-arch=sm_90"
JOBS=$(nproc 2>/dev/null || echo 4)
[ "$JOBS" -gt 16 ] && JOBS=16

# name | sources | nvcc flags.  force_ptx runs vadd's binaries under a forced-JIT variable,
# force_ptx_rdc rdc's; rdc_ptx is rdc built with PTX only (both JIT-link the -rdc objects).
# Every tests/gpu/conf_<area>.cu is a program of the differential conformance suite too; its
# header may say "// gpu-flags: <nvcc options>", "// gpu-libs: <link options>" and
# "// gpu-cuda: <version>" (the oldest nvcc that can build it: needs_of below).
# So is every stress_<name>.cu, life_<name>.cu, soak_<name>.cu and fault_<name>.cu (threads,
# lifetime, soak, faults in the middle of work: short runs here, long ones and the faults again
# in tests/gpu/reliability.sh); a "// gpu-plugin: <p>"
# header builds tests/gpu/<p>.cu as $W/bin/<p>.nvidia.so and <p>.minicudart.so beside the
# program, for it to dlopen (the minicudart one links no runtime: it binds to the program's).
# A "// gpu-cases: yes" header makes a program one of cases, run like a conf_misuse_* program
# (is_misuse, run_misuse below): "case <n> <name>:" before each case, argv[1] the first case,
# started again at the next case after a crash, single cases listable as differences.
CONFORMANCE=$(cd "$G" && ls conf_*.cu stress_*.cu life_*.cu soak_*.cu fault_*.cu 2>/dev/null | grep -v '_plugin\.cu$' |
              sed 's/\.cu$//' | tr '\n' ' ')
PROGRAMS="vadd device struct_params big_params templates variables per_thread rdc rdc_ptx
          force_ptx_rdc multiarch ptx_only force_ptx errors oob $CONFORMANCE"
# GPU_PROGRAMS="conf_graphs conf_graph_nodes ...": run only these (a quicker round on one area).
PROGRAMS=${GPU_PROGRAMS:-$PROGRAMS}
header_of() { sed -n "s|^// $2: *||p" "$G/$1.cu" | head -n 1; }
# "// gpu-cuda: 13.5" in a program's header: it needs that toolkit's headers (new functions and
# types), so an older nvcc does not build it; its status says so and the table shows it.
# "// gpu-cuda-max: 12.9", the other way: the newest toolkit whose headers build it (it asks
# about what 13 removed: tests/gpu/cuda12.sh builds it with a CUDA 12 nvcc), so a newer nvcc
# does not build it ("needs-12.9-or-older").
version_number() { echo "$1" | awk -F. '{ printf "%d\n", $1 * 1000 + $2 * 10 }'; }
NVCC_VERSION=$(version_number "$("$NVCC" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p' | head -n 1)")
needs_of() {
    local max
    case $1 in
    conf_* | stress_* | life_* | soak_* | fault_*)
        max=$(header_of "$1" gpu-cuda-max)
        if [ -n "$max" ] && [ "$(version_number "$max")" -lt "$NVCC_VERSION" ]; then
            echo "$max-or-older"
        else
            header_of "$1" gpu-cuda
        fi ;;
    esac
}
too_new() {
    local want; want=$(needs_of "$1")
    case $want in *-or-older) return 0 ;; esac
    [ -n "$want" ] && [ "$(version_number "$want")" -gt "$NVCC_VERSION" ]
}
skipped() { case " ${GPU_SKIP_PROGRAMS:-} " in *" $1 "*) return 0 ;; esac; return 1; }
libs_of() {
    case $1 in
    conf_* | stress_* | life_* | soak_* | fault_*) header_of "$1" gpu-libs ;;
    esac
}
is_rdc() { [ "$1" = rdc ] || [ "$1" = rdc_ptx ] || flags_of "$1" | grep -q -- '-rdc=true'; }
sources_of() {
    case $1 in
    vadd | multiarch | ptx_only) echo examples/vadd/vadd.cu ;;
    rdc | rdc_ptx) echo "$G/rdc_a.cu $G/rdc_b.cu" ;;
    *) echo "$G/$1.cu" ;;
    esac
}
flags_of() {
    case $1 in
    per_thread) echo "$ARCH --default-stream per-thread" ;;
    multiarch) echo "-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90" ;;
    ptx_only | rdc_ptx) echo "-gencode arch=compute_90,code=compute_90" ;;
    conf_* | stress_* | life_* | soak_* | fault_*) echo "$ARCH $(header_of "$1" gpu-flags)" ;;
    *) echo "$ARCH" ;;
    esac
}

START=$SECONDS
remaining() { echo $((BUDGET - (SECONDS - START))); }
# Run with a timeout no longer than what is left of the budget (at least 1 s).
bounded() {
    local limit=$1; shift
    local left; left=$(remaining)
    [ "$left" -lt "$limit" ] && limit=$left
    [ "$limit" -lt 1 ] && return 124
    timeout -k 5 "$limit" "$@"
}
# Background jobs, at most $JOBS at a time; each leaves its exit code in $W/status/<name>.
job() {
    local name=$1; shift
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n 2>/dev/null || sleep 0.2; done
    ( "$@" >"$W/logs/build-$name.log" 2>&1; echo $? >"$W/status/$name" ) &
}
status_of() { cat "$W/status/$1" 2>/dev/null || echo none; }

# The folders the programs link with (LINK_DIRS, nvcc options): CUDA_LIB, on the runpath too;
# where it has libcudart.so.13 but no link-time libcudart.so (a wheel), a folder of $W whose
# libcudart.so points to it, so that -cudart=shared links that runtime and not one found in a
# later folder; then CUDA_LIBS_ALSO, each on the runpath too but a stubs folder (link time only).
# GCC_DIRS: the same folders for gcc, with the toolkit's stubs.
link_dirs() {
    local d
    LINK_DIRS=(-L"$CUDA_LIB")
    if [ ! -e "$CUDA_LIB/libcudart.so" ] && [ -e "$CUDA_LIB/libcudart.so.13" ]; then
        mkdir -p "$W/cudart-link"
        ln -sf "$CUDA_LIB/libcudart.so.13" "$W/cudart-link/libcudart.so"
        LINK_DIRS+=(-L"$W/cudart-link")
    fi
    LINK_DIRS+=(-Xlinker -rpath -Xlinker "$CUDA_LIB")
    GCC_DIRS=(-L"$CUDA_LIB/stubs")
    for d in ${CUDA_LIBS_ALSO:-}; do
        LINK_DIRS+=(-L"$d")
        GCC_DIRS+=(-L"$d")
        case $d in */stubs) ;; *) LINK_DIRS+=(-Xlinker -rpath -Xlinker "$d") ;; esac
    done
}

# Step 1: minicudart and the fatbin tool.
build_minicudart() {
    local gen=()
    command -v ninja >/dev/null && gen=(-G Ninja)
    bounded 240 cmake -S "$ROOT" -B "$W/cmake" "${gen[@]}" \
        -DCMAKE_BUILD_TYPE="${GPU_BUILD_TYPE:-Release}" -DMINICUDART_TESTS=OFF \
        -DCMAKE_CUDA_COMPILER="$MINICUDART_NVCC" || return 1
    bounded 240 cmake --build "$W/cmake" -j "$JOBS" --target minicudart minicudart_shared || return 1
    bounded 120 cmake --build "$W/cmake" -j "$JOBS" --target fatbin || echo "fatbin tool failed"
    return 0
}
# What a program links instead of NVIDIA's runtime: libminicudart.a (it carries the fatbin
# parser's objects) and the system libraries it uses.
minicudart_libs() {
    MINI_LIBS=("$W/cmake/lib/libminicudart.a" -ldl -lpthread)
}

# Step 2: compile once (objects are runtime-independent), link against NVIDIA's runtime.
compile_and_link_nvidia() {
    local p=$1 flags srcs objs="" s o
    flags=$(flags_of "$p"); srcs=$(sources_of "$p")
    mkdir -p "$W/obj/$p"
    for s in $srcs; do
        o=$W/obj/$p/$(basename "$s" .cu).o
        if is_rdc "$p"; then
            "$NVCC" $flags -I$G -dc "$s" -o "$o" || return 1
        else
            "$NVCC" $flags -I$G -c "$s" -o "$o" || return 1
        fi
        objs="$objs $o"
    done
    for s in $(header_of "$p" gpu-plugin 2>/dev/null); do
        "$NVCC" $ARCH -Xcompiler -fPIC -c "$G/$s.cu" -o "$W/obj/$s.plugin.o" || return 1
        "$NVCC" $ARCH -shared -cudart=shared "$W/obj/$s.plugin.o" -o "$W/bin/$s.nvidia.so" \
            "${LINK_DIRS[@]}" || return 1
        "$NVCC" $ARCH -shared -cudart=none "$W/obj/$s.plugin.o" -o "$W/bin/$s.minicudart.so" || return 1
    done
    if is_rdc "$p"; then
        "$NVCC" $flags -dlink $objs -o "$W/obj/$p/dlink.o" || return 1
        # -lcudadevrt: a device link of PTX-only objects (rdc_ptx) keeps the device runtime's
        # relocatable image, whose host-side wrapper lives in libcudadevrt.a.
        "$NVCC" -cudart=none $objs "$W/obj/$p/dlink.o" -o "$W/bin/$p.nvidia" \
            "${LINK_DIRS[@]}" $(libs_of "$p") -lcudart -lcudadevrt || return 1
    else
        "$NVCC" $flags -cudart=shared $objs -o "$W/bin/$p.nvidia" \
            "${LINK_DIRS[@]}" $(libs_of "$p") || return 1
    fi
}
link_minicudart() {
    local p=$1 flags o objs=()
    flags=$(flags_of "$p")
    for o in "$W/obj/$p"/*.o; do
        [ "${o##*/}" = dlink.o ] || objs+=("$o")
    done
    is_rdc "$p" && objs+=("$W/obj/$p/dlink.o" -lcudadevrt)
    minicudart_libs
    "$NVCC" $flags -cudart=none "${objs[@]}" -o "$W/bin/$p.minicudart" \
        "${LINK_DIRS[@]}" $(libs_of "$p") "${MINI_LIBS[@]}"
}
build_bench() {
    "$NVCC" $ARCH -I$G -c $G/bench_launch.cu -o "$W/obj/bench_launch.o" || return 1
    "$NVCC" $ARCH -cudart=shared "$W/obj/bench_launch.o" -o "$W/bin/bench_launch.nvidia" \
        "${LINK_DIRS[@]}" || return 1
    "$NVCC" $ARCH -I$G -cubin $G/bench_launch.cu -o "$W/bin/bench_kernel.cubin" || return 1
    gcc -std=c11 -O2 -I"$CUDA_HOME/include" $G/bench_launch_driver.c -o "$W/bin/bench_launch.driver" \
        "${GCC_DIRS[@]}" -lcuda
}
link_bench_minicudart() {
    minicudart_libs
    "$NVCC" $ARCH -cudart=none "$W/obj/bench_launch.o" -o "$W/bin/bench_launch.minicudart" \
        "${MINI_LIBS[@]}"
}

# Step 3: one run; stdout plus a final "exit code N" line go to $W/run/<p>.<variant>.out.
run_one() {
    local p=$1 variant=$2 bin=$1 rc
    local env=()
    # force_ptx / force_ptx_rdc: vadd's / rdc's binaries with the JIT forced (for rdc: the
    # objects' PTX JIT-linked, since a linked -rdc image carries no PTX).
    if [ "$p" = force_ptx ] || [ "$p" = force_ptx_rdc ]; then
        bin=vadd
        [ "$p" = force_ptx_rdc ] && bin=rdc
        if [ "$variant" = nvidia ]; then env=(CUDA_FORCE_PTX_JIT=1); else env=(MINICUDART_FORCE_PTX=1); fi
    fi
    if [ ! -x "$W/bin/$bin.$variant" ]; then echo build; return; fi
    if [ "$(remaining)" -lt 5 ]; then echo skip; return; fi
    if is_misuse "$p"; then
        run_misuse "$W/bin/$bin.$variant" "$W/run/$p.$variant.out" "$W/run/$p.$variant.err"
    else
        bounded 60 env "${env[@]}" "$W/bin/$bin.$variant" >"$W/run/$p.$variant.out" \
            2>"$W/run/$p.$variant.err"
    fi
    rc=$?
    echo "exit code $rc" >>"$W/run/$p.$variant.out"
    [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && { echo "T/O"; return; }
    # A misuse program that crashed in a case, and ran on from the next one, says "crash".
    if [ "$rc" -eq 0 ] && is_misuse "$p" && grep -q ' CRASH (signal ' "$W/run/$p.$variant.out"; then
        echo crash; return
    fi
    echo "$rc"
}

# The conf_misuse_<area> programs (tests/gpu/misuse.h) make one invalid call per case, and
# NVIDIA's runtime crashes on some of them.  A case's line is written up to "case N name:" before
# its call, so after a crash (exit code 128 + signal) the transcript ends in that unfinished
# line: run_misuse finishes it with " CRASH (signal S)" and starts the program again at case
# N + 1, appending to the same transcript, until a run gets to the end.  A crash outside any case
# (in the fixtures, or at exit) is recorded and ends it.  Returns the last run's exit code.
# A program of cases: a conf_misuse_* program, or one whose header says "// gpu-cases: yes".  Its
# transcript is "case <n> <name>:" lines; after a crash it is started again at the next case.
is_misuse() { [ "${1#conf_misuse}" != "$1" ] || [ "$(header_of "$1" gpu-cases 2>/dev/null)" = yes ]; }
run_misuse() {
    local bin=$1 out=$2 err=$3 start=0 rc last n
    : >"$out"
    : >"$err"
    while :; do
        bounded 60 "$bin" "$start" >>"$out" 2>>"$err"
        rc=$?
        # 124: timed out; 137: killed after the timeout.  Neither is a crash to run past.
        { [ "$rc" -gt 128 ] && [ "$rc" -ne 137 ]; } || return "$rc"
        last=$(tail -n 1 "$out")
        n=$(printf '%s\n' "$last" | sed -n 's/^case \([0-9][0-9]*\) [^ ]*:$/\1/p')
        if [ -z "$n" ] || [ "$n" -lt "$start" ]; then
            printf '\ncrash outside any case (signal %d)\n' $((rc - 128)) >>"$out"
            return "$rc"
        fi
        echo " CRASH (signal $((rc - 128)))" >>"$out"
        start=$((n + 1))
    done
}
# A misuse transcript without the cases expected_differences.txt lists for the program as
# "<program>:<case name>" (each with its reason): those are left out of the comparison.
misuse_comparable() {
    local p=$1 variant=$2 listed
    listed=$(grep -v '^[[:space:]]*#' "$EXPECTED" 2>/dev/null |
        awk -v p="$p:" 'index($1, p) == 1 { printf " %s", substr($1, length(p) + 1) }')
    awk -v listed="$listed " '$1 == "case" && index(listed, " " substr($3, 1, length($3) - 1) " ") { next }
                              { print }' "$W/run/$p.$variant.out"
}
allowed_difference() {
    grep -v '^[[:space:]]*#' "$EXPECTED" 2>/dev/null |
        awk -v p="$1" '$1 == p && $2 != "lines" { found = 1 } END { exit !found }'
}
# A program's transcript without the lines that expected_differences.txt lists for it as
# "<program> lines <ERE> <reason>" (an extended regular expression without spaces: a line that
# matches any is left out of both transcripts).  Prints the transcript unchanged when none is
# listed.
lines_comparable() {
    local p=$1 variant=$2 ere
    ere=$(grep -v '^[[:space:]]*#' "$EXPECTED" 2>/dev/null |
        awk -v p="$p" '$1 == p && $2 == "lines" { printf "%s%s", sep, $3; sep = "|" }')
    if [ -n "$ere" ]; then
        grep -Ev -- "$ere" "$W/run/$p.$variant.out"
    else
        cat "$W/run/$p.$variant.out"
    fi
}
has_listed_lines() {
    grep -v '^[[:space:]]*#' "$EXPECTED" 2>/dev/null |
        awk -v p="$1" '$1 == p && $2 == "lines" { found = 1 } END { exit !found }'
}

main() {
    # GPU_REUSE_BUILD=1: the binaries and build statuses of an earlier GPU_BUILD_ONLY run (made on
    # a machine with the same toolkit at the same path, and carried here) are run as they are.
    local reuse=""
    [ -n "${GPU_REUSE_BUILD:-}" ] && [ -d "$W/bin" ] && [ -d "$W/status" ] && reuse=1
    if [ -n "$reuse" ]; then
        rm -rf "${W:?}/run"
    else
        rm -rf "${W:?}/bin" "$W/obj" "$W/run" "$W/logs" "$W/status"
    fi
    mkdir -p "$W/bin" "$W/obj" "$W/run" "$W/logs" "$W/status" "$OUT"
    echo "== tests/gpu/run.sh: $(date -u +%FT%TZ), budget ${BUDGET}s, $JOBS jobs"
    echo "== $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') $(git -C "$ROOT" status --short 2>/dev/null | wc -l) changed files"
    if command -v nvidia-smi >/dev/null; then
        nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1 | head -n 2
    else
        echo "(no nvidia-smi)"
    fi
    "$NVCC" --version 2>&1 | tail -1

    local p
    if [ -n "$reuse" ]; then
        echo "== builds reused (GPU_REUSE_BUILD): $(ls "$W/bin" | wc -l) files in $W/bin"
    else
    link_dirs
    # Steps 1 and 2 (first half) in parallel.
    job minicudart build_minicudart
    local too_new_list=""
    for p in $PROGRAMS; do
        { [ "$p" = force_ptx ] || [ "$p" = force_ptx_rdc ]; } && continue
        if too_new "$p"; then
            echo "needs-$(needs_of "$p")" >"$W/status/$p"
            too_new_list="$too_new_list $p"
            continue
        fi
        job "$p" compile_and_link_nvidia "$p"
    done
    [ -n "$too_new_list" ] && echo "== not built, they need another nvcc (gpu-cuda or gpu-cuda-max header):$too_new_list"
    job bench build_bench
    wait
    echo "== builds done at $((SECONDS - START))s: minicudart $(status_of minicudart)"
    if [ "$(status_of minicudart)" = 0 ]; then
        for p in $PROGRAMS; do
            { [ "$p" = force_ptx ] || [ "$p" = force_ptx_rdc ]; } && continue
            [ "$(status_of "$p")" = 0 ] && job "$p.minicudart" link_minicudart "$p"
        done
        [ "$(status_of bench)" = 0 ] && job bench.minicudart link_bench_minicudart
        wait
    else
        tail -n 30 "$W/logs/build-minicudart.log"
    fi
    for p in "$W"/status/*; do
        p=${p##*/}
        case $(status_of "$p") in needs-*) continue ;; esac
        [ "$(status_of "$p")" = 0 ] || echo "== build $p failed (status $(status_of "$p")): $(grep -m1 -iE 'error|undefined' "$W/logs/build-$p.log")"
    done
    fi

    # GPU_BUILD_ONLY=1 (tests/gpu/reliability.sh): the binaries, nothing run.
    if [ -n "${GPU_BUILD_ONLY:-}" ]; then
        echo "RESULT: built ($((SECONDS - START))s), nothing run (GPU_BUILD_ONLY)"
        [ "$(status_of minicudart)" = 0 ]
        return
    fi

    # Step 3: the pairs.
    local rows=() failures=0 nogpu=0 nv mc eq res
    res=PASS
    [ "$(status_of minicudart)" = 0 ] || { res=FAIL; failures=$((failures + 1)); }
    rows+=("$(printf '%-20s %-9s %-11s %-6s %s' build - "$(status_of minicudart)" - "$res")")
    for p in $PROGRAMS; do
        case $(status_of "$p") in
        needs-*)
            rows+=("$(printf '%-20s %-9s %-11s %-6s %s' "$p" - - - "needs $(status_of "$p" | cut -d- -f2-)")")
            continue ;;
        esac
        if skipped "$p"; then
            rows+=("$(printf '%-20s %-9s %-11s %-6s %s' "$p" - - - "skipped (GPU_SKIP_PROGRAMS)")")
            continue
        fi
        nv=$(run_one "$p" nvidia)
        mc=$(run_one "$p" minicudart)
        eq=-
        if [ -f "$W/run/$p.nvidia.out" ] && [ -f "$W/run/$p.minicudart.out" ]; then
            if diff "$W/run/$p.nvidia.out" "$W/run/$p.minicudart.out" >"$W/run/$p.diff"; then eq=yes; else eq=no; fi
            # Misuse programs: "listed" when equal once the cases expected_differences.txt lists
            # are left out; the .diff then shows only what differs in the other cases.
            if [ "$eq" = no ] && is_misuse "$p" &&
               diff <(misuse_comparable "$p" nvidia) <(misuse_comparable "$p" minicudart) \
                   >"$W/run/$p.diff"; then
                eq=listed
            fi
            # Other programs: "listed" when equal once their listed lines are left out.
            if [ "$eq" = no ] && ! is_misuse "$p" && has_listed_lines "$p" &&
               diff <(lines_comparable "$p" nvidia) <(lines_comparable "$p" minicudart) \
                   >"$W/run/$p.diff"; then
                eq=listed
            fi
        fi
        if [ "$nv" = 2 ] && { [ "$mc" = 2 ] || [ "$mc" = build ]; }; then
            res=NO-GPU; nogpu=1
        elif [ "$nv" = 0 ] && [ "$mc" = 0 ] && [ "$eq" = yes ]; then
            res=PASS
        elif { [ "$nv" = 0 ] || [ "$nv" = crash ]; } && [ "$mc" = 0 ] && [ "$eq" = listed ]; then
            res=ALLOWED   # NVIDIA crashed or answered otherwise only in listed cases
        elif allowed_difference "$p" && [ "$nv" = 0 ] && [ "$mc" = 0 ]; then
            res=ALLOWED   # a listed program: it checks itself, and passed under both
        else
            res=FAIL; failures=$((failures + 1))
        fi
        rows+=("$(printf '%-20s %-9s %-11s %-6s %s' "$p" "$nv" "$mc" "$eq" "$res")")
        if [ "$res" = FAIL ] || [ "$res" = ALLOWED ]; then
            echo "== $p: $res; NVIDIA said: $(head -c 300 "$W/run/$p.nvidia.out" 2>/dev/null | tail -n 3 | tr '\n' '|')"
            [ -s "$W/run/$p.diff" ] && head -n 8 "$W/run/$p.diff"
            [ -s "$W/run/$p.minicudart.err" ] && tail -n 3 "$W/run/$p.minicudart.err"
        fi
    done

    # Step 4: the trace names the chosen image and the launch.
    local trace_res=n/a
    if [ -x "$W/bin/vadd.minicudart" ] && [ "$(remaining)" -gt 10 ]; then
        trace_res=FAIL
        MINICUDART_TRACE=1 timeout -k 5 60 "$W/bin/vadd.minicudart" >"$W/run/trace.out" 2>"$W/run/trace.err"
        local trc=$? image launch
        # lib/load/module.c: "module P on device D (sm_90): <choice>", "module P: loaded SASS sm_90 ...";
        # lib/launch/launch.c: "launch <kernel> grid ... block ...".
        image=$(grep -E '^minicudart: module .*(on device|loaded)' "$W/run/trace.err" | head -n 4)
        launch=$(grep -E '^minicudart: launch ' "$W/run/trace.err" | head -n 2)
        echo "== MINICUDART_TRACE=1 vadd: exit $trc, $(grep -c '^minicudart: ' "$W/run/trace.err") trace lines; image and launch lines:"
        printf '%s\n' "$image" "$launch" | grep -v '^$' | cut -c1-160
        [ "$trc" = 0 ] && [ -n "$image" ] && [ -n "$launch" ] && trace_res=PASS
        [ "$trc" = 2 ] && trace_res=NO-GPU
    fi
    rows+=("$(printf '%-20s %-9s %-11s %-6s %s' trace - "${trc:-none}" - "$trace_res")")
    [ "$trace_res" = FAIL ] && failures=$((failures + 1))

    # Step 5: launch benchmark, alternating processes.
    local r mode label line bench_rows=()
    : >"$W/run/bench.txt"
    for r in $(seq "$BENCH_ROUNDS"); do
        for mode in ${BENCH_MODES:-array summary buffer nvidia driver paired vsdriver parts}; do
            [ "$(remaining)" -lt 40 ] && break 2
            case $mode in
            array | buffer) [ -x "$W/bin/bench_launch.minicudart" ] || { echo "round $r $mode: not built" >>"$W/run/bench.txt"; continue; }
                line=$(MINICUDART_LAUNCH_PARAMS=$mode BENCH_LABEL=$mode timeout -k 5 30 \
                       "$W/bin/bench_launch.minicudart" "$BENCH_LAUNCHES" 2>&1 | tail -n 1) ;;
            summary) # the array mode with the exit summary counting (its table goes to stderr)
                [ -x "$W/bin/bench_launch.minicudart" ] || continue
                line=$(MINICUDART_SUMMARY=1 BENCH_LABEL=summary timeout -k 5 30 \
                       "$W/bin/bench_launch.minicudart" "$BENCH_LAUNCHES" 2>/dev/null | tail -n 1) ;;
            nvidia) [ -x "$W/bin/bench_launch.nvidia" ] || continue
                line=$(BENCH_LABEL=nvidia timeout -k 5 30 "$W/bin/bench_launch.nvidia" "$BENCH_LAUNCHES" 2>&1 | tail -n 1) ;;
            driver) [ -x "$W/bin/bench_launch.driver" ] || continue
                line=$(timeout -k 5 30 "$W/bin/bench_launch.driver" "$W/bin/bench_kernel.cubin" "$BENCH_LAUNCHES" 2>&1 | tail -n 1) ;;
            vsdriver | parts) # each runtime against the driver on the same kernel, in one process
                local var=BENCH_VS_DRIVER pattern=-vs-driver-
                [ "$mode" = parts ] && var=BENCH_PARTS pattern=-parts-
                for v in minicudart nvidia; do
                    [ -x "$W/bin/bench_launch.$v" ] || continue
                    env "$var=1" BENCH_LABEL=$v timeout -k 5 60 "$W/bin/bench_launch.$v" \
                        "$BENCH_LAUNCHES" 2>&1 | grep "^bench_launch .*$pattern" |
                        while read -r line; do
                            echo "round $r $(echo "$line" | awk '{print $2}'): $line"
                        done >>"$W/run/bench.txt"
                done
                continue ;;
            paired) [ -x "$W/bin/bench_launch.minicudart" ] || continue
                # Both minicudart modes in one process, batch by batch: two result lines.
                BENCH_PAIRED=1 timeout -k 5 30 "$W/bin/bench_launch.minicudart" "$BENCH_LAUNCHES" 2>&1 |
                    grep '^bench_launch paired-' | while read -r line; do
                        echo "round $r $(echo "$line" | awk '{print $2}'): $line"
                    done >>"$W/run/bench.txt"
                continue ;;
            esac
            echo "round $r $mode: $line" >>"$W/run/bench.txt"
        done
    done
    # Two figures per launch: steady (the GPU running the launches as they come) and queued
    # (behind a busy GPU: the host's enqueue cost alone).
    median_of() { sort -n | awk '{v[NR]=$1} END {if (NR) print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
    for label in array summary buffer nvidia driver paired-array paired-buffer \
                 minicudart-vs-driver-runtime minicudart-vs-driver-driver \
                 nvidia-vs-driver-runtime nvidia-vs-driver-driver \
                 {minicudart,nvidia}-parts-{chevron,cudaLaunchKernel,drv-array,drv-buffer,drv-ctx-array,drv-ctx-buffer}; do
        local ok steady queued
        ok=$(grep -E "^round [0-9]+ $label: bench_launch $label [0-9.]+ [0-9.]+ [0-9]+ ok" "$W/run/bench.txt")
        if [ -n "$ok" ]; then
            steady=$(echo "$ok" | awk '{print $6}' | median_of)
            queued=$(echo "$ok" | awk '{print $7}' | median_of)
            bench_rows+=("$(printf 'launch %-28s median ns/launch: steady %7.1f  queued %7.1f  (%d rounds)' "$label" "$steady" "$queued" "$(echo "$ok" | wc -l)")")
        else
            bench_rows+=("$(printf 'launch %-28s no result: %s' "$label" "$(grep -m1 " $label: " "$W/run/bench.txt" | cut -d: -f2- | cut -c1-90)")")
        fi
    done

    # Step 6: fatbin list on the toolkit's libraries, next to cuobjdump.
    local fatbin_tool lib path t0 t1 fatbin_rows=() cuobjdump
    cuobjdump=$(command -v cuobjdump || echo "$CUDA_HOME/bin/cuobjdump")
    fatbin_tool=$(find "$W/cmake" -type f -name fatbin -perm -u+x 2>/dev/null | head -n 1)
    for lib in ${GPU_FATBIN_LIBS-libcublasLt.so.13 libcublas.so.13 libcusparse.so.12 libcurand.so.10 libnccl.so.2}; do
        path=$CUDA_LIB/$lib
        [ "$lib" = libnccl.so.2 ] && path=/usr/lib/x86_64-linux-gnu/libnccl.so.2
        [ -e "$path" ] || { fatbin_rows+=("$(printf '%-18s not found' "$lib")"); continue; }
        [ "$(remaining)" -lt 20 ] && { fatbin_rows+=("$(printf '%-18s skipped (time)' "$lib")"); continue; }
        local frc=none ft=- fe=- fp=- fr=- ce=- cp=- ct=-
        if [ -n "$fatbin_tool" ]; then
            t0=$(date +%s.%N)
            bounded 60 "$fatbin_tool" list "$path" >"$W/run/fatbin-$lib.txt" 2>&1; frc=$?
            t1=$(date +%s.%N)
            ft=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2fs", b - a}')
            # cuobjdump --list-elf/--list-ptx lists .nv_fatbin only, not the relocatable
            # __nv_relfatbin (libnccl has both): count like it, and show the rest apart.
            fe=$(grep -w 'elf' "$W/run/fatbin-$lib.txt" | grep -c ' \.nv_fatbin$')
            fp=$(grep -w 'ptx' "$W/run/fatbin-$lib.txt" | grep -c ' \.nv_fatbin$')
            fr=$(grep -c ' __nv_relfatbin$' "$W/run/fatbin-$lib.txt")
        fi
        if [ -x "$cuobjdump" ] && [ "$(remaining)" -gt 30 ]; then
            t0=$(date +%s.%N)
            bounded 90 "$cuobjdump" --list-elf --list-ptx "$path" >"$W/run/cuobjdump-$lib.txt" 2>&1
            t1=$(date +%s.%N)
            ct=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1fs", b - a}')
            ce=$(grep -c '^ELF file' "$W/run/cuobjdump-$lib.txt")
            cp=$(grep -c '^PTX file' "$W/run/cuobjdump-$lib.txt")
        fi
        fatbin_rows+=("$(printf '%-18s fatbin list rc %-4s %-7s .nv_fatbin elf %-5s ptx %-5s| cuobjdump elf %-5s ptx %-5s %-5s| fatbin __nv_relfatbin entries %s' \
            "$lib" "$frc" "$ft" "$fe" "$fp" "$ce" "$cp" "$ct" "$fr")")
    done

    # The table, last.
    {
        echo
        echo "== minicudart GPU differential test ($((SECONDS - START))s of ${BUDGET}s; logs in \$OUT)"
        printf '%-20s %-9s %-11s %-6s %s\n' program "NVIDIA rc" "minicudart" equal result
        printf '%s\n' "${rows[@]}"
        printf '%s\n' "${bench_rows[@]}"
        [ -z "$fatbin_tool" ] && echo "fatbin tool: not built"
        printf '%s\n' "${fatbin_rows[@]}"
    } | tee "$OUT/summary.txt"
    tar -C "$W" -czf "$OUT/logs.tar.gz" logs run 2>/dev/null
    if [ "$failures" -gt 0 ]; then echo "RESULT: $failures FAIL"; return 1; fi
    if [ "$nogpu" = 1 ]; then echo "RESULT: NO GPU (no CUDA driver or device on this machine)"; return 3; fi
    echo "RESULT: PASS"
    return 0
}

mkdir -p "$OUT"
main "$@" 2>&1 | tee "$OUT/run.log"
exit "${PIPESTATUS[0]}"
