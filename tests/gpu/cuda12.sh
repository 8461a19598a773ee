#!/usr/bin/env bash
# tests/gpu/cuda12.sh - the CUDA 12 round of the differential GPU test: programs built by a CUDA 12
# nvcc (12.4) against the shared runtime (NEEDED libcudart.so.12), each run twice on the H200
# (driver 580, CUDA 13.0), once with NVIDIA's 12.9 libcudart.so.12 first on LD_LIBRARY_PATH and
# once with minicudart's (lib/cuda12: the CUDA 12.9 face of the one runtime), stdout and exit
# codes compared line by line.  The same binary both times: what differs is only the library the
# loader finds, which is how a CUDA 12 program meets minicudart ("swap it", README.md).
#
# The GPU machine has neither nvcc 12 nor CUDA 12's libraries, so the round has two halves:
#
#   tests/gpu/cuda12.sh build   here (no GPU needed): minicudart's libcudart.so.12 (CMake,
#                               MinSizeRel, with the 13.0 toolkit: the library is C), every
#                               program of tests/gpu/run.sh that nvcc 12 compiles, the launch
#                               benchmark, and the public corpus (tests/gpu/corpus.sh's list, from
#                               cuda-samples v12.4 and llm.c, built as their Makefiles do, for
#                               sm_90, with -cudart=shared), into one git-ignored folder,
#                               .gpu/cuda12/ (CUDA12_CARRY), with NVIDIA's 12.9 libcudart.so.12
#                               and minicudart's beside them; prints its size (a device run
#                               carries 64 MiB at most, the tree included: name it in `carry`).
#   tests/gpu/cuda12.sh run     on the GPU machine, from the repository root: run.sh's step 3
#                               (the pairs, expected_differences12.txt) and step 4 (the trace) over
#                               those binaries (GPU_REUSE_BUILD), then the launch benchmark and the
#                               corpus; a table last.  Without a GPU it says so and exits 3.
#
# Both launch paths: nvcc 12.4's stubs call cudaLaunchKernel (nvcc defines __NV_LEGACY_LAUNCH), so
# that is what every program uses; <p>.new is program <p> again with -Xcompiler
# -U__NV_LEGACY_LAUNCH, whose stubs call __cudaGetKernel and __cudaLaunchKernel as 12.6 and later
# emit them (for vadd, the launch programs, per_thread, rdc and the benchmark).
#
# Statuses in the table: PASS (same transcript and exit code), ALLOWED (equal once the cases
# expected_differences12.txt lists are left out: each one a case where NVIDIA's runtime crashes,
# which the run checks), FAIL, NO-GPU; "not built: needs CUDA 13 API" (the source uses what nvcc
# 12.4's headers lack: its first error is listed; or it is marked "// gpu-cuda: 13.5"), "not run:
# needs CUDA 12 libraries" (cuBLAS 12, cuFFT 11, NVRTC 12...: the GPU machine has only CUDA 13's;
# cuRAND 10 and cuSPARSE 12 keep their SONAME in 13, so programs using them do run, on 13's).
#
# How the two runs of one program differ: bin/<p>.nvidia and bin/<p>.minicudart (what run.sh
# runs) are two small scripts that put lib/nvidia12 or lib/minicudart12 first on LD_LIBRARY_PATH
# and exec real/<p>.nvidia or real/<p>.minicudart, two names of one file (so that a plugin beside
# it is found by the variant's name, tests/gpu/gpu_check.h).
#
# Environment:
#   CUDA12_HOME     the CUDA 12 toolkit (bin/nvcc; include/ and lib64/, or Debian's usr/include/
#                   and usr/lib/x86_64-linux-gnu/): default ~/.cache/minicudart/cuda-12.4 (as
#                   tools/install-deps.sh unpacks it)
#   CUDA129_LIB     the folder of NVIDIA's 12.9 libcudart.so.12 (the PyPI wheel
#                   nvidia-cuda-runtime-cu12==12.9.79): default
#                   ~/.cache/minicudart/cuda-12.9/nvidia/cuda_runtime/lib (install-deps.sh)
#   CUDA130_HOME    the toolkit CMake builds minicudart with (/usr/local/cuda)
#   MINICUDART_SOURCE  the source tree minicudart is built from (default: this repository; e.g.
#                   a `git archive` of a commit, while the working tree is in the middle of work)
#   CUDA12_CARRY    the folder that travels (.gpu/cuda12); CUDA12_WORK the build's own folder
#                   (build-gpurun12: objects, the CMake tree, the corpus's sources)
#   CUDA12_JOBS     parallel compilations (2; `nice`d)
#   SAMPLES12_DIR   cuda-samples at tag v12.4 (Samples/ and Common/), default
#                   $CUDA12_WORK/samples, made from SAMPLES12_GIT (a clone of NVIDIA/cuda-samples,
#                   bare or not) when missing; LLMC_DIR / LLMC_GIT likewise for llm.c's dev/cuda
#                   at f1e2ace651495b74ae22d45d1723443fd00ecd3a.  CUDA12_CORPUS=0: no corpus.
#   run: OUT (logs, and cuda12.txt: all it printed; default $CUDA12_CARRY/out), CUDA12_BUDGET_S (whole run, 480),
#        CUDA12_RUNSH_S (run.sh's share, 270), BENCH_ROUNDS (7), BENCH_LAUNCHES (20000),
#        CUDA_LIB_RUN (libraries the programs may need there: /usr/local/cuda/lib64),
#        GPU_PROGRAMS (a subset), CUDA12_CORPUS=0 (no corpus)
# Exit: build 0 built (some programs may not be: listed), 2 setup error; run 0 all pass,
#       1 a failure, 3 no GPU, 2 setup error.
set -u

cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
G=tests/gpu
cache=${XDG_CACHE_HOME:-$HOME/.cache}
# A toolkit's folders: NVIDIA's layout (include/, lib64/) or Debian's unpacked (usr/include/,
# usr/lib/x86_64-linux-gnu/).
lib_dir_of() {
    local d
    for d in "$1/lib64" "$1/lib" "$1/usr/lib/x86_64-linux-gnu"; do
        [ -e "$d/libcudart.so" ] && { echo "$d"; return; }
    done
}
include_dir_of() {
    local d
    for d in "$1/include" "$1/usr/include"; do
        [ -e "$d/cuda.h" ] && { echo "$d"; return; }
    done
}
if [ -z "${CUDA12_HOME:-}" ]; then
    CUDA12_HOME=$cache/minicudart/cuda-12.4
fi
if [ -z "${CUDA129_LIB:-}" ]; then
    CUDA129_LIB=$cache/minicudart/cuda-12.9/nvidia/cuda_runtime/lib
fi
CUDA130_HOME=${CUDA130_HOME:-/usr/local/cuda}
abspath() { case $1 in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }
C=$(abspath "${CUDA12_CARRY:-.gpu/cuda12}")
WK=$(abspath "${CUDA12_WORK:-build-gpurun12}")
JOBS=${CUDA12_JOBS:-2}
NVCC=$CUDA12_HOME/bin/nvcc
ARCH="-arch=sm_90"
# The sonames of CUDA 12 libraries that CUDA 13 renamed: a program that needs one cannot run on
# a machine with only CUDA 13 (cuRAND 10 and cuSPARSE 12 kept theirs).
CUDA12_ONLY_SONAMES="libcublas.so.12 libcublasLt.so.12 libcufft.so.11 libcufftw.so.11 libnvrtc.so.12
libnvJitLink.so.12 libcusolver.so.11 libcusolverMg.so.11 libnvjpeg.so.12 libnppc.so.12"

fail() {
    echo "cuda12.sh: $*" >&2
    exit 2
}

# ---- the programs of run.sh, as run.sh builds them -------------------------------------------------

CONFORMANCE=$(cd "$G" && ls conf_*.cu stress_*.cu life_*.cu soak_*.cu fault_*.cu 2>/dev/null |
              grep -v '_plugin\.cu$' | sed 's/\.cu$//' | tr '\n' ' ')
# conf_cuda12 first: its answers are what this round is for.
PROGRAMS="conf_cuda12 vadd vadd.new device struct_params struct_params.new big_params templates
          templates.new variables per_thread per_thread.new rdc rdc.new rdc_ptx force_ptx_rdc
          multiarch ptx_only force_ptx errors oob conf_launch.new conf_misuse_launch.new
          conf_misuse_reset.new
          $(echo " $CONFORMANCE " | sed 's/ conf_cuda12 / /')"
NEW_LAUNCH="-Xcompiler -U__NV_LEGACY_LAUNCH"
base_of() { echo "${1%.new}"; }
header_of() { sed -n "s|^// $2: *||p" "$G/$1.cu" 2>/dev/null | head -n 1; }
is_conformance() { case $1 in conf_* | stress_* | life_* | soak_* | fault_*) return 0 ;; esac; return 1; }
sources_of() {
    case $(base_of "$1") in
    vadd | multiarch | ptx_only) echo examples/vadd/vadd.cu ;;
    rdc | rdc_ptx) echo "$G/rdc_a.cu $G/rdc_b.cu" ;;
    *) echo "$G/$(base_of "$1").cu" ;;
    esac
}
flags_of() {
    local b; b=$(base_of "$1")
    case $b in
    per_thread) echo "$ARCH --default-stream per-thread" ;;
    multiarch) echo "-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90" ;;
    ptx_only | rdc_ptx) echo "-gencode arch=compute_90,code=compute_90" ;;
    *) if is_conformance "$b"; then echo "$ARCH $(header_of "$b" gpu-flags)"; else echo "$ARCH"; fi ;;
    esac
    [ "$b" != "$1" ] && echo "$NEW_LAUNCH"
}
libs_of() { is_conformance "$(base_of "$1")" && header_of "$(base_of "$1")" gpu-libs; }
is_rdc() {
    local b; b=$(base_of "$1")
    [ "$b" = rdc ] || [ "$b" = rdc_ptx ] || flags_of "$1" | grep -q -- '-rdc=true'
}
version_number() { echo "$1" | awk -F. '{ printf "%d\n", $1 * 1000 + $2 * 10 }'; }

# ---- build ------------------------------------------------------------------------------------------

# One program into $C/real/<p>.nvidia (and its plugins); exit status 0, 3 (a compile error: the
# source needs CUDA 13's API) or 1 (a link failure).  The log says which and why.
build_program() {
    local p=$1 flags srcs objs="" s o plugin
    flags=$(flags_of "$p" | tr '\n' ' ')
    srcs=$(sources_of "$p")
    mkdir -p "$WK/obj/$p"
    for s in $srcs; do
        o=$WK/obj/$p/$(basename "$s" .cu).o
        if is_rdc "$p"; then
            echo "+ nvcc $flags -dc $s"
            "$NVCC" $flags -I$G -dc "$s" -o "$o" || return 3
        else
            echo "+ nvcc $flags -c $s"
            "$NVCC" $flags -I$G -c "$s" -o "$o" || return 3
        fi
        objs="$objs $o"
    done
    for plugin in $(header_of "$(base_of "$p")" gpu-plugin); do
        "$NVCC" $ARCH -Xcompiler -fPIC -c "$G/$plugin.cu" -o "$WK/obj/$plugin.plugin.o" || return 3
        "$NVCC" $ARCH -shared -cudart=shared "$WK/obj/$plugin.plugin.o" \
            -o "$C/real/$plugin.nvidia.so" -L"$CUDA12_LIB" || return 1
        ln -f "$C/real/$plugin.nvidia.so" "$C/real/$plugin.minicudart.so" || return 1
    done
    # As run.sh links NVIDIA's variant: the shared runtime (here 12.4's link-time libcudart.so,
    # whose soname is libcudart.so.12); -rdc: an explicit device link, -lcudart -lcudadevrt.
    if is_rdc "$p"; then
        "$NVCC" $flags -dlink $objs -o "$WK/obj/$p/dlink.o" || return 1
        "$NVCC" -cudart=none $objs "$WK/obj/$p/dlink.o" -o "$C/real/$p.nvidia" \
            -L"$CUDA12_LIB" -L"$CUDA12_LIB/stubs" $(libs_of "$p") -lcudart -lcudadevrt || return 1
    else
        "$NVCC" $flags -cudart=shared $objs -o "$C/real/$p.nvidia" \
            -L"$CUDA12_LIB" -L"$CUDA12_LIB/stubs" $(libs_of "$p") || return 1
    fi
    ln -f "$C/real/$p.nvidia" "$C/real/$p.minicudart" || return 1
}

# bench_launch.cu's in-process comparison with the driver (BENCH_VS_DRIVER, BENCH_PARTS; not run
# here) takes its entry points through cudaGetDriverEntryPointByVersion, which CUDA 12.5 added:
# for 12.4's headers, the same call without the version (the runtime's own, 12090), in a header
# put first (nvcc splits a -D at its commas).
build_bench() {
    local v flags
    printf '%s\n' '#define cudaGetDriverEntryPointByVersion(s, f, v, fl, st) cudaGetDriverEntryPoint(s, f, fl, st)' \
        >"$WK/obj/bench12_compat.h"
    local BENCH12_COMPAT="-include $WK/obj/bench12_compat.h"
    for v in legacy new; do
        flags=$ARCH
        [ "$v" = new ] && flags="$ARCH $NEW_LAUNCH"
        "$NVCC" $flags $BENCH12_COMPAT -I$G -c $G/bench_launch.cu -o "$WK/obj/bench_launch.$v.o" || return 1
        "$NVCC" $ARCH -cudart=shared "$WK/obj/bench_launch.$v.o" -o "$C/real/bench_launch.$v" \
            -L"$CUDA12_LIB" || return 1
    done
    "$NVCC" $ARCH $BENCH12_COMPAT -I$G -cubin $G/bench_launch.cu -o "$C/real/bench_kernel.cubin" || return 1
    gcc -std=c11 -O2 -I"$CUDA12_INC" $G/bench_launch_driver.c \
        -o "$C/real/bench_launch.driver" -L"$CUDA12_LIB/stubs" -lcuda
}

build_minicudart() {
    local gen=() src
    src=$(abspath "${MINICUDART_SOURCE:-$ROOT}")
    # A tree configured from another source folder is configured again.
    grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$src" "$WK/cmake/CMakeCache.txt" 2>/dev/null || rm -rf "${WK:?}/cmake"
    command -v ninja >/dev/null && gen=(-G Ninja)
    [ -f "$WK/cmake/CMakeCache.txt" ] && gen=()
    cmake -S "$src" -B "$WK/cmake" "${gen[@]}" -DCMAKE_BUILD_TYPE=MinSizeRel \
        -DMINICUDART_TESTS=OFF -DCMAKE_CUDA_COMPILER="$CUDA130_HOME/bin/nvcc" || return 1
    nice cmake --build "$WK/cmake" -j "$JOBS" --target minicudart_shared12
}

# Background jobs, at most $JOBS at a time; each leaves its exit status in $C/status/<name>.
job() {
    local name=$1; shift
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n 2>/dev/null || sleep 0.5; done
    ( renice -n 10 -p "$BASHPID" >/dev/null 2>&1
      "$@" >"$C/logs/build-$name.log" 2>&1; echo $? >"$C/status/$name" ) &
}
status_of() { cat "$C/status/$1" 2>/dev/null || echo none; }

# The two launchers run.sh runs for a program: NVIDIA's 12.9 runtime or minicudart's first.
write_launchers() {
    local p=$1 v lib
    for v in nvidia minicudart; do
        lib=nvidia12
        [ "$v" = minicudart ] && lib=minicudart12
        cat >"$C/bin/$p.$v" <<EOF
#!/bin/sh
# $p under $lib's libcudart.so.12 (tests/gpu/cuda12.sh)
here=\$(cd "\$(dirname "\$0")/.." && pwd)
LD_LIBRARY_PATH=\$here/lib/$lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}:\${CUDA_LIB_RUN:-/usr/local/cuda/lib64}
export LD_LIBRARY_PATH
exec "\$here/real/$p.$v" "\$@"
EOF
        chmod +x "$C/bin/$p.$v"
    done
}

# ---- the public corpus (tests/gpu/corpus.sh's list), as cuda-samples v12.4's Makefiles build it --

# name | where (S:<category>/<sample>, L: llm.c) | sources | mode | libraries | extra flags (@ =
# the sample's folder) | files beside the binary (fatbin:<source>><name>: built) | arguments.
# mode: whole (nvcc -c, then link), dc (the Makefile's -dc and -lcudadevrt), drv (no runtime).
CORPUS="vectorAdd|S:0_Introduction/vectorAdd|vectorAdd.cu|whole||||
simpleMultiCopy|S:0_Introduction/simpleMultiCopy|simpleMultiCopy.cu|whole||||
simpleZeroCopy|S:0_Introduction/simpleZeroCopy|simpleZeroCopy.cu|whole||||
binomialOptions|S:5_Domain_Specific/binomialOptions|binomialOptions.cpp binomialOptions_gold.cpp binomialOptions_kernel.cu|whole||||
simpleTexture|S:0_Introduction/simpleTexture|simpleTexture.cu|whole|||data/teapot512.pgm data/ref_rotated.pgm|
reductionMultiBlockCG|S:2_Concepts_and_Techniques/reductionMultiBlockCG|reductionMultiBlockCG.cu|whole||||
radixSortThrust|S:2_Concepts_and_Techniques/radixSortThrust|radixSortThrust.cu|whole||--std=c++14||
jacobiCudaGraphs|S:3_CUDA_Features/jacobiCudaGraphs|jacobi.cu main.cpp|whole||||
matrixMulCUBLAS|S:4_CUDA_Libraries/matrixMulCUBLAS|matrixMulCUBLAS.cpp|whole|-lcublas|||
simpleCUFFT|S:4_CUDA_Libraries/simpleCUFFT|simpleCUFFT.cu|whole|-lcufft|||
conjugateGradientUM|S:4_CUDA_Libraries/conjugateGradientUM|main.cpp|whole|-lcublas -lcusparse|||
simpleDrvRuntime|S:0_Introduction/simpleDrvRuntime|simpleDrvRuntime.cpp|whole|-lcuda||fatbin:vectorAdd_kernel.cu>vectorAdd_kernel64.fatbin|
layernorm_forward|L:|layernorm_forward.cu|llmc|-lcublas -lcublasLt|||
cdpSimpleQuicksort|S:3_CUDA_Features/cdpSimpleQuicksort|cdpSimpleQuicksort.cu|dc|-lcudadevrt|||
streamOrderedAllocation|S:2_Concepts_and_Techniques/streamOrderedAllocation|streamOrderedAllocation.cu|whole||||
simpleCallback|S:0_Introduction/simpleCallback|simpleCallback.cu multithreading.cpp|whole||||
vectorAdd_nvrtc|S:0_Introduction/vectorAdd_nvrtc|vectorAdd.cpp|drv|-lnvrtc -lcuda||vectorAdd_kernel.cu|
MC_EstimatePiP|S:2_Concepts_and_Techniques/MC_EstimatePiP|src/main.cpp src/piestimator.cu src/test.cpp|whole|-lcurand|-I@/inc||
newdelete|S:3_CUDA_Features/newdelete|newdelete.cu|whole||||"
# The Makefiles' flags with SMS=90: -m64 --threads 0 --std=c++11 and SASS plus PTX for sm_90
# (their GENCODE_FLAGS); llm.c's dev/cuda/Makefile with GPU_COMPUTE_CAPABILITY=90.
SAMPLE_FLAGS="-m64 --threads 0 --std=c++11 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90"
LLMC_FLAGS="-O3 --use_fast_math --generate-code arch=compute_90,code=[compute_90,sm_90] -std=c++17"
SAMPLES_TAG=v12.4
LLMC_COMMIT=f1e2ace651495b74ae22d45d1723443fd00ecd3a

corpus_sources() {
    local S=$1 L=$2 names
    if [ ! -f "$S/Common/helper_cuda.h" ]; then
        [ -n "${SAMPLES12_GIT:-}" ] || { echo "no cuda-samples $SAMPLES_TAG at $S (set SAMPLES12_DIR or SAMPLES12_GIT)"; return 1; }
        mkdir -p "$S"
        names=$(cut -d'|' -f2 <<<"$CORPUS" | sed -n 's|^S:|Samples/|p' | tr '\n' ' ')
        git -C "$SAMPLES12_GIT" archive --format=tar "$SAMPLES_TAG" Common $names | tar -x -C "$S" ||
            return 1
    fi
    if [ ! -f "$L/layernorm_forward.cu" ]; then
        [ -n "${LLMC_GIT:-}" ] || { echo "no llm.c dev/cuda at $L (set LLMC_DIR or LLMC_GIT)"; return 1; }
        mkdir -p "$L"
        git -C "$LLMC_GIT" archive --format=tar "$LLMC_COMMIT" dev/cuda/layernorm_forward.cu \
            dev/cuda/common.h | tar -x -C "$L" --strip-components=2 || return 1
    fi
}

build_corpus_program() {
    local name=$1 where=$2 srcs=$3 mode=$4 libs=$5 extra=$6 data=$7
    local d o=$WK/corpus/$1 b=$C/corpus/$1 f obj objs=() flags cudart=shared
    case $where in
    L:*) d=$LLMC ;;
    S:*) d=$SAMPLES/Samples/${where#S:} ;;
    esac
    rm -rf "$o" "$b"
    mkdir -p "$o" "$b"
    extra=${extra//@/$d}
    for f in $srcs; do
        obj=$o/${f//\//_}.o
        if [ "$mode" = llmc ]; then flags=$LLMC_FLAGS; else flags="$SAMPLE_FLAGS -I$SAMPLES/Common"; fi
        [ "$mode" = dc ] && flags="$flags -dc"
        echo "+ nvcc $flags $extra -c $f"
        "$NVCC" $flags $extra -c "$d/$f" -o "$obj" || return 3
        objs+=("$obj")
    done
    [ "$mode" = drv ] && cudart=none
    echo "+ nvcc -cudart=$cudart ${objs[*]##*/} $libs"
    "$NVCC" $ARCH -cudart=$cudart "${objs[@]}" -o "$b/$name" -L"$CUDA12_LIB" -L"$CUDA12_LIB/stubs" \
        $libs || return 1
    for f in $data; do
        case $f in
        fatbin:*)
            f=${f#fatbin:}
            "$NVCC" $SAMPLE_FLAGS -I"$SAMPLES/Common" -o "$b/${f#*>}" -fatbin "$d/${f%%>*}" || return 1 ;;
        *) cp "$d/$f" "$b/" || return 1 ;;
        esac
    done
}

build() {
    local p rc reason size want
    [ -x "$NVCC" ] || fail "no nvcc at $NVCC (CUDA12_HOME)"
    "$NVCC" --version | grep -q 'release 12\.' || fail "$NVCC is not a CUDA 12 nvcc: $("$NVCC" --version | tail -n 1)"
    CUDA12_LIB=$(lib_dir_of "$CUDA12_HOME")
    CUDA12_INC=$(include_dir_of "$CUDA12_HOME")
    [ -n "$CUDA12_LIB" ] || fail "no libcudart.so (12) to link with under $CUDA12_HOME"
    [ -n "$CUDA12_INC" ] || fail "no cuda.h under $CUDA12_HOME"
    [ -e "$CUDA129_LIB/libcudart.so.12" ] || fail "no NVIDIA 12.9 libcudart.so.12 in $CUDA129_LIB (CUDA129_LIB)"
    [ -x "$CUDA130_HOME/bin/nvcc" ] || fail "no 13.0 toolkit at $CUDA130_HOME (CUDA130_HOME), which CMake builds minicudart with"
    local t0=$SECONDS
    rm -rf "${C:?}"
    mkdir -p "$C/bin" "$C/real" "$C/status" "$C/logs" "$C/lib/nvidia12" "$C/lib/minicudart12" \
             "$C/corpus" "$WK/obj"
    echo "== tests/gpu/cuda12.sh build: $($NVCC --version | grep -m1 release), $JOBS jobs, into ${C#"$ROOT"/}"

    echo "== minicudart's libcudart.so.12 (CMake, MinSizeRel)"
    build_minicudart >"$C/logs/build-minicudart.log" 2>&1
    rc=$?
    echo "$rc" >"$C/status/minicudart"
    [ "$rc" = 0 ] || { tail -n 30 "$C/logs/build-minicudart.log"; fail "minicudart's libcudart.so.12 did not build"; }
    cp -L "$WK/cmake/lib/cuda12/libcudart.so.12" "$C/lib/minicudart12/" || fail "no libcudart.so.12 in $WK/cmake/lib/cuda12"
    cp -L "$CUDA129_LIB/libcudart.so.12" "$C/lib/nvidia12/" || fail "copying NVIDIA's 12.9 runtime failed"

    echo "== the programs ($(echo $PROGRAMS | wc -w), forced-PTX ones reuse vadd's and rdc's)"
    for p in $PROGRAMS; do
        case $p in force_ptx | force_ptx_rdc) continue ;; esac
        want=$(is_conformance "$(base_of "$p")" && header_of "$(base_of "$p")" gpu-cuda)
        if [ -n "$want" ] && [ "$(version_number "$want")" -ge 13000 ]; then
            echo "needs-13-api" >"$C/status/$p"
            echo "marked \"// gpu-cuda: $want\" (its API is CUDA $want's): not compiled" >"$C/logs/build-$p.log"
            continue
        fi
        job "$p" build_program "$p"
    done
    job bench build_bench
    if [ "${CUDA12_CORPUS:-1}" != 0 ]; then
        SAMPLES=$(abspath "${SAMPLES12_DIR:-$WK/samples}")
        LLMC=$(abspath "${LLMC_DIR:-$WK/llmc}")
        if corpus_sources "$SAMPLES" "$LLMC" >"$C/logs/corpus-sources.log" 2>&1; then
            while IFS='|' read -r name where srcs mode libs extra data args; do
                job "corpus-$name" build_corpus_program "$name" "$where" "$srcs" "$mode" "$libs" "$extra" "$data"
            done <<<"$CORPUS"
        else
            echo "== corpus not built: $(tail -n 1 "$C/logs/corpus-sources.log")"
        fi
    fi
    wait

    # Statuses: 3 from a compile (the source needs CUDA 13's API), anything else a build failure.
    for p in $(cd "$C/status" && ls); do
        rc=$(status_of "$p")
        case $p:$rc in
        corpus-*:0) ;;
        corpus-*) echo "build-failed" >"$C/status/$p"
           grep -m1 -iE 'error|undefined|cannot find' "$C/logs/build-$p.log" | cut -c1-150 >"$C/logs/reason-$p.txt" ;;
        *:3) reason=$(grep -m1 -E 'error|cannot open' "$C/logs/build-$p.log" | sed "s|$ROOT/||; s|^[^ ]*/||" | cut -c1-150)
           if grep -q 'cannot open source file\|No such file or directory' "$C/logs/build-$p.log"; then
               echo "build-failed" >"$C/status/$p"   # a header missing on this machine, not the API
           else
               echo "needs-13-api" >"$C/status/$p"
           fi
           echo "$reason" >"$C/logs/reason-$p.txt" ;;
        *:0 | *:needs-*) ;;
        *) if grep -q "undefined reference to \`_*cuda" "$C/logs/build-$p.log"; then
               echo "needs-13-api" >"$C/status/$p"   # a function CUDA 12's runtime does not export
           else
               echo "build-failed" >"$C/status/$p"
           fi
           grep -m1 -iE 'error|undefined|cannot find' "$C/logs/build-$p.log" | cut -c1-150 >"$C/logs/reason-$p.txt" ;;
        esac
    done
    for p in $PROGRAMS; do
        case $p in force_ptx | force_ptx_rdc) continue ;; esac
        [ "$(status_of "$p")" = 0 ] && write_launchers "$p"
    done
    if [ "$(status_of bench)" = 0 ]; then
        for p in legacy new; do
            ln -f "$C/real/bench_launch.$p" "$C/real/bench_launch.$p.nvidia"
            ln -f "$C/real/bench_launch.$p" "$C/real/bench_launch.$p.minicudart"
            write_launchers "bench_launch.$p"
            rm -f "$C/real/bench_launch.$p"
        done
    fi
    manifest >"$C/MANIFEST.txt"
    cat "$C/MANIFEST.txt"
    size=$(du -sk "$C" | cut -f1)
    echo "== ${C#"$ROOT"/}: $size KiB, built in $((SECONDS - t0)) s"
    [ "$size" -lt 60000 ] || echo "== WARNING: over 60 MiB: a device run carries 64 MiB with the tree"
    echo "== on the GPU machine (carry ${C#"$ROOT"/}): tests/gpu/cuda12.sh run"
}

# What the build made, for the run (and whoever reads the folder): the toolkit, the runtimes, the
# launch path each program's stubs use, and why a program was not built or cannot run there.
manifest() {
    local p rc needed path
    echo "built $(date -u +%FT%TZ) from $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')" \
         "($(git -C "$ROOT" status --short 2>/dev/null | wc -l) changed files)"
    echo "programs: $("$NVCC" --version | grep -m1 release) ($CUDA12_HOME), -arch=sm_90, -cudart=shared"
    echo "NVIDIA's runtime: lib/nvidia12/libcudart.so.12 $(sha256sum "$C/lib/nvidia12/libcudart.so.12" | cut -c1-16) from $CUDA129_LIB"
    echo "minicudart's runtime: lib/minicudart12/libcudart.so.12 $(stat -c %s "$C/lib/minicudart12/libcudart.so.12") bytes (MinSizeRel, $("$CUDA130_HOME/bin/nvcc" --version | grep -m1 -o 'release [0-9.]*')'s headers) from ${MINICUDART_SOURCE:-the working tree}"
    for p in vadd vadd.new; do
        [ -e "$C/real/$p.nvidia" ] &&
            echo "launch path of $p: $(nm -D "$C/real/$p.nvidia" | awk '$1 == "U" && $2 ~ /^(__)?cuda(Launch|GetKernel)/ { sub(/@.*/, "", $2); printf "%s ", $2 }')"
    done
    for p in $(cd "$C/status" && ls); do
        rc=$(status_of "$p")
        case $rc in
        needs-13-api) echo "not built: needs CUDA 13 API: $p: $(cat "$C/logs/reason-$p.txt" 2>/dev/null || head -n 1 "$C/logs/build-$p.log")" ;;
        build-failed) echo "not built: build failed: $p: $(cat "$C/logs/reason-$p.txt" 2>/dev/null)" ;;
        esac
    done
    for path in "$C"/real/*.nvidia "$C"/corpus/*/*; do
        [ -f "$path" ] && [ -x "$path" ] || continue
        needed=$(readelf -d "$path" 2>/dev/null | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' |
                 grep -xF -f <(tr ' ' '\n' <<<"$CUDA12_ONLY_SONAMES" | grep .) | tr '\n' ' ')
        [ -n "$needed" ] && echo "not runnable on CUDA 13 only: ${path#"$C"/}: needs $needed"
    done
}

# ---- run --------------------------------------------------------------------------------------------

START=$SECONDS
remaining() { echo $((${CUDA12_BUDGET_S:-480} - (SECONDS - START))); }
median_of() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range_of() { sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR) printf "%s-%s", lo, hi }'; }

# The launch benchmark: each way in its own process, the ways interleaved round by round.
bench() {
    local r mode label line bin
    : >"$OUT/bench.txt"
    for r in $(seq "${BENCH_ROUNDS:-7}"); do
        for mode in minicudart12 nvidia12.9 driver minicudart12-new nvidia12.9-new; do
            [ "$(remaining)" -lt 150 ] && { echo "round $r: stopped (time)" >>"$OUT/bench.txt"; break 2; }
            case $mode in
            minicudart12) bin=$C/bin/bench_launch.legacy.minicudart ;;
            nvidia12.9) bin=$C/bin/bench_launch.legacy.nvidia ;;
            minicudart12-new) bin=$C/bin/bench_launch.new.minicudart ;;
            nvidia12.9-new) bin=$C/bin/bench_launch.new.nvidia ;;
            driver) bin=$C/real/bench_launch.driver ;;
            esac
            [ -x "$bin" ] || continue
            if [ "$mode" = driver ]; then
                line=$(timeout -k 5 30 "$bin" "$C/real/bench_kernel.cubin" "${BENCH_LAUNCHES:-20000}" 2>&1 | tail -n 1)
            else
                line=$(BENCH_LABEL=$mode timeout -k 5 30 "$bin" "${BENCH_LAUNCHES:-20000}" 2>&1 | tail -n 1)
            fi
            echo "round $r $mode: $line" >>"$OUT/bench.txt"
        done
    done
}

# One number per round and way: steady (field 6) or queued (7) ns per launch.
bench_values() { grep -E "^round [0-9]+ $1: bench_launch $1 [0-9.]+ [0-9.]+ [0-9]+ ok" "$OUT/bench.txt" | awk -v f="$2" '{ print $2, $f }'; }
# The ratio a/b per round (rounds where both ran), median and range.
bench_ratio() {
    join <(bench_values "$1" "$3" | sort -k1,1) <(bench_values "$2" "$3" | sort -k1,1) |
        awk '$3 > 0 { printf "%.3f\n", $2 / $3 }'
}
bench_rows() {
    local w kind n ratio a b
    for kind in 6:steady 7:queued; do
        for w in minicudart12 nvidia12.9 driver minicudart12-new nvidia12.9-new; do
            n=$(bench_values "$w" "${kind%%:*}" | wc -l)
            [ "$n" = 0 ] && continue
            printf 'launch %-7s %-17s median %7.1f ns  range %-15s (%d rounds)\n' "${kind#*:}" "$w" \
                "$(bench_values "$w" "${kind%%:*}" | awk '{ print $2 }' | median_of)" \
                "$(bench_values "$w" "${kind%%:*}" | awk '{ print $2 }' | range_of)" "$n"
        done
        for ratio in minicudart12/nvidia12.9 minicudart12/driver nvidia12.9/driver \
                     minicudart12-new/nvidia12.9-new minicudart12-new/driver nvidia12.9-new/driver \
                     minicudart12-new/minicudart12 nvidia12.9-new/nvidia12.9; do
            a=${ratio%/*}; b=${ratio#*/}
            n=$(bench_ratio "$a" "$b" "${kind%%:*}" | wc -l)
            [ "$n" = 0 ] && continue
            printf 'ratio  %-7s %-32s median %.3f  range %s (%d rounds)\n' "${kind#*:}" "$ratio" \
                "$(bench_ratio "$a" "$b" "${kind%%:*}" | median_of)" \
                "$(bench_ratio "$a" "$b" "${kind%%:*}" | range_of)" "$n"
        done
    done
}

# The corpus: each program in its folder, under each runtime; the verdict as tests/gpu/corpus.sh
# gives it (exit codes, the programs' own result lines with numbers masked, llm.c's "All results
# match"), and minicudart's exit summary (MINICUDART_SUMMARY) proving that it served the run.
# Why a program cannot run here, from the libraries ldd did not find.
why_missing() {
    local lib others=""
    for lib in $1; do
        grep -qxF "$lib" <(tr ' ' '\n' <<<"$CUDA12_ONLY_SONAMES") || others="$others $lib"
    done
    if [ -z "$others" ]; then echo "needs CUDA 12 libraries ($(echo $1))"
    else echo "libraries missing here ($(echo $1))"
    fi
}
verdict_lines() {
    grep -aE 'Test passed|Test failed|PASS|FAIL|Waiving|waiv|Verification error|[Mm]ismatch|does not match|Success|Failure|SUCCESS|All results match|Test Summary|Result = ' "$1" |
        sed -E 's/[-+]?[0-9]*\.[0-9]+([eE][-+]?[0-9]+)?/#/g; s/[[:space:]]*$//'
}
corpus_run() {
    local name=$1 lib=$2 variant=$3 rc
    local dir=$C/corpus/$name out=$C/corpus-run/$name.$variant
    ( cd "$dir" && env LD_LIBRARY_PATH="$C/lib/$lib:$CUDA_LIB_RUN" ${4:+MINICUDART_SUMMARY=1} \
          timeout -k 5 "${CORPUS_TIMEOUT_S:-60}" "./$name" ) </dev/null >"$out.out" 2>"$out.err"
    rc=$?
    echo "$rc"
}
corpus() {
    local name where srcs mode libs extra data args nv mc res missing served same
    mkdir -p "$C/corpus-run"
    while IFS='|' read -r name where srcs mode libs extra data args; do
        if [ ! -x "$C/corpus/$name/$name" ]; then
            CROWS+=("$(printf '%-34s %-12s %-12s %s' "corpus/$name" - - "not built (build log: corpus-$name)")")
            continue
        fi
        missing=$(LD_LIBRARY_PATH="$C/lib/nvidia12:$CUDA_LIB_RUN" ldd "$C/corpus/$name/$name" 2>/dev/null |
                  awk '/not found/ { printf "%s ", $1 }')
        if [ -n "$missing" ]; then
            CROWS+=("$(printf '%-34s %-12s %-12s %s' "corpus/$name" - - "not run: $(why_missing "$missing")")")
            continue
        fi
        if [ "$mode" = drv ]; then
            CROWS+=("$(printf '%-34s %-12s %-12s %s' "corpus/$name" - - "not run: uses no runtime (NVRTC and the driver)")")
            continue
        fi
        if [ "$(remaining)" -lt 25 ]; then
            CROWS+=("$(printf '%-34s %-12s %-12s %s' "corpus/$name" - - "not run (time)")")
            continue
        fi
        nv=$(corpus_run "$name" nvidia12 nvidia "")
        mc=$(corpus_run "$name" minicudart12 minicudart summary)
        served=no
        grep -q 'minicudart summary' "$C/corpus-run/$name.minicudart.err" && served=yes
        same=no
        diff <(verdict_lines "$C/corpus-run/$name.nvidia.out") \
             <(verdict_lines "$C/corpus-run/$name.minicudart.out") >"$C/corpus-run/$name.diff" && same=yes
        if [ "$name" = layernorm_forward ] &&
           ! { grep -q 'All results match' "$C/corpus-run/$name.nvidia.out" &&
               grep -q 'All results match' "$C/corpus-run/$name.minicudart.out"; }; then
            same=no
        fi
        if [ "$nv" = 0 ] && [ "$mc" = 0 ] && [ "$same" = yes ] && [ "$served" = yes ]; then
            res=PASS
        elif [ "$nv" = 2 ] && [ "$mc" = 2 ]; then
            res=WAIVED
        else
            res="FAIL (result lines equal: $same, minicudart served: $served)"
            CFAIL=$((CFAIL + 1))
            echo "== corpus/$name: $res"
            head -n 6 "$C/corpus-run/$name.diff"
            tail -n 3 "$C/corpus-run/$name.minicudart.out"
            awk '/^minicudart summary/ { exit } { print }' "$C/corpus-run/$name.minicudart.err" | tail -n 3
        fi
        CROWS+=("$(printf '%-34s %-12s %-12s %s' "corpus/$name" "$nv" "$mc" "$res")")
    done <<<"$CORPUS"
    tar -C "$C" -czf "$OUT/corpus.tar.gz" corpus-run 2>/dev/null
}

# A listed case (expected_differences12.txt) is allowed only where NVIDIA's runtime crashed in
# it, or where its reason begins "[answers]" (NVIDIA's answer changes from run to run, or is a
# size it truncated: the cases the 13.0 round lists too): each listed case of a program whose two
# transcripts differ in that case is looked up in NVIDIA's transcript.  Prints
# "<program>:<case> crashed|answered-as-listed|answered|absent".
check_listed() {
    local entry p case_name nvline mcline
    grep -v '^[[:space:]]*#' "$EXPECTED12" | awk 'NF && index($1, ":") { print $1 }' | while read -r entry; do
        p=${entry%%:*}; case_name=${entry#*:}
        [ -f "$C/run/$p.nvidia.out" ] || continue
        nvline=$(grep -m1 "^case [0-9]* $case_name:" "$C/run/$p.nvidia.out")
        mcline=$(grep -m1 "^case [0-9]* $case_name:" "$C/run/$p.minicudart.out" 2>/dev/null)
        if [ -z "$nvline" ]; then echo "$entry absent"
        elif [ "$nvline" = "$mcline" ]; then echo "$entry equal"
        elif grep -q ' CRASH (signal ' <<<"$nvline"; then echo "$entry crashed"
        elif grep -q "^$entry \[answers\]" "$EXPECTED12"; then echo "$entry answered-as-listed"
        else echo "$entry answered"
        fi
    done
}

run() {
    local p rc resolved_nv resolved_mc missing gpu=yes rows=() failures=0 nv mc eq res row
    [ -f "$C/MANIFEST.txt" ] || fail "no build in ${C#"$ROOT"/} (make it with: tests/gpu/cuda12.sh build, and carry it)"
    CUDA_LIB_RUN=${CUDA_LIB_RUN:-/usr/local/cuda/lib64}
    export CUDA_LIB_RUN
    EXPECTED12=$ROOT/$G/expected_differences12.txt
    echo "== tests/gpu/cuda12.sh run: $(date -u +%FT%TZ), budget $(remaining)s"
    sed -n '1,4p' "$C/MANIFEST.txt"
    if command -v nvidia-smi >/dev/null; then
        nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1 | head -n 2
    else
        echo "(no nvidia-smi)"
    fi
    # Each variant loads its own runtime (LD_LIBRARY_PATH comes before a runpath).
    resolved_nv=$(LD_LIBRARY_PATH=$C/lib/nvidia12 ldd "$C/real/vadd.nvidia" 2>/dev/null | awk '$1 == "libcudart.so.12" { print $3 }')
    resolved_mc=$(LD_LIBRARY_PATH=$C/lib/minicudart12 ldd "$C/real/vadd.minicudart" 2>/dev/null | awk '$1 == "libcudart.so.12" { print $3 }')
    echo "== libcudart.so.12 of vadd: NVIDIA's variant ${resolved_nv#"$C"/}, minicudart's ${resolved_mc#"$C"/}"
    [ "$resolved_nv" = "$C/lib/nvidia12/libcudart.so.12" ] && [ "$resolved_mc" = "$C/lib/minicudart12/libcudart.so.12" ] ||
        fail "the variants would not load the runtimes carried in ${C#"$ROOT"/}/lib"
    "$C/bin/vadd.nvidia" >"$C/gpu-check.txt" 2>&1
    rc=$?
    if [ "$rc" = 2 ]; then
        gpu=no
        echo "== no GPU: $(head -n 1 "$C/gpu-check.txt")"
    fi

    # Programs that need a CUDA 12 library the machine lacks: status "needs-cuda12-libs" (made
    # again at every run: another machine may have what this one lacks).
    for p in "$C"/bin/*.nvidia; do
        p=${p##*/}; p=${p%.nvidia}
        case $p in bench_launch.*) continue ;; esac
        [ "$(status_of "$p")" = needs-cuda12-libs ] && echo 0 >"$C/status/$p"
        missing=$(LD_LIBRARY_PATH="$C/lib/nvidia12:$CUDA_LIB_RUN" ldd "$C/real/$p.nvidia" 2>/dev/null |
                  awk '/not found/ { printf "%s ", $1 }')
        if [ -n "$missing" ]; then
            echo "needs-cuda12-libs" >"$C/status/$p"
            echo "${missing% }" >"$C/logs/missing-$p.txt"
        fi
    done

    # run.sh's steps 3 and 4 over these binaries (no step 5: the benchmark is below; no step 6);
    # what did not build here is skipped there.
    local skip=""
    for p in $(cd "$C/status" && ls); do
        [ "$(status_of "$p")" = build-failed ] && skip="$skip $p"
    done
    echo "== run.sh over the programs (its log: \$OUT/run.log)"
    env GPU_REUSE_BUILD=1 GPU_SKIP_PROGRAMS="$skip" GPU_BUILD_DIR="${C#"$ROOT"/}" GPU_PROGRAMS="${GPU_PROGRAMS:-$PROGRAMS}" \
        GPU_EXPECTED_DIFFERENCES="$EXPECTED12" GPU_FATBIN_LIBS="" BENCH_ROUNDS=0 \
        GPU_RUN_BUDGET_S="$(( $(remaining) < ${CUDA12_RUNSH_S:-270} ? $(remaining) : ${CUDA12_RUNSH_S:-270} ))" \
        OUT="$OUT" "$ROOT/$G/run.sh" >/dev/null 2>&1
    rc=$?
    # run.sh's account of each FAIL and ALLOWED (NVIDIA's first lines, the diff's start).
    awk '/^== .*: (FAIL|ALLOWED)|^== build .* failed/ { n = 9 } /^== minicudart GPU differential/ { n = 0 }
         n > 0 { print; n-- }' "$OUT/run.log" | head -n 150
    [ -s "$C/run/conf_cuda12.diff" ] && cp "$C/run/conf_cuda12.diff" "$OUT/conf_cuda12.diff"
    # Every program's two transcripts, for reading a difference whole.
    tar -C "$C" -czf "$OUT/runs.tar.gz" run 2>/dev/null
    if [ -f "$C/run/conf_cuda12.nvidia.out" ]; then
        echo "== conf_cuda12: the lines that differ (< NVIDIA's 12.9, > minicudart; the whole diff: \$OUT/conf_cuda12.diff)"
        diff "$C/run/conf_cuda12.nvidia.out" "$C/run/conf_cuda12.minicudart.out" | grep '^[<>]' | head -n 120
    fi
    local listed
    listed=$(check_listed)
    if [ -n "$listed" ]; then
        echo "== listed cases (expected_differences12.txt) and what NVIDIA's 12.9 runtime did in them" \
             "($(grep -c ' absent$' <<<"$listed") not in a transcript):"
        grep -v ' absent$' <<<"$listed" | awk '{ print "   " $0 }'
    fi

    CROWS=()
    CFAIL=0
    if [ "$gpu" = yes ]; then
        echo "== launch benchmark ($(remaining)s left)"
        bench
        [ "${CUDA12_CORPUS:-1}" != 0 ] && { echo "== corpus ($(remaining)s left)"; corpus; }
    fi

    # The table, last.
    while read -r row; do
        [ -n "$row" ] || continue
        set -- $row
        p=$1
        case $p in program | launch | fatbin | build) continue ;; esac
        [ "$p" = trace ] && { rows+=("$(printf '%-34s %-12s %-12s %s' "trace (MINICUDART_TRACE=1 vadd)" - "$3" "$5")")
                              [ "$5" = FAIL ] && failures=$((failures + 1)); continue; }
        nv=$2; mc=$3; eq=$4; shift 4; res=$*
        case $res in
        "needs 13-api") res="not built: needs CUDA 13 API" ;;
        "needs 13."*) res="not built: needs CUDA 13 API" ;;
        "needs cuda12-libs") res="not run: $(why_missing "$(cat "$C/logs/missing-$p.txt")")" ;;
        skipped*) [ "$(status_of "$p")" = build-failed ] && res="not built: build failed here (see the MANIFEST)" ;;
        FAIL) failures=$((failures + 1)) ;;
        ALLOWED)
            # Every listed case that differs must be one where NVIDIA's runtime crashed.
            if grep -E "^$p:[^ ]+ answered$" <<<"$listed" >/dev/null; then
                res="FAIL (a listed case differs where NVIDIA did not crash)"
                failures=$((failures + 1))
            fi ;;
        esac
        rows+=("$(printf '%-34s %-12s %-12s %s' "$p" "$nv" "$mc" "$res")")
    done < <(sed -n '/^program /,$p' "$OUT/summary.txt" 2>/dev/null)
    for p in $(cd "$C/status" && ls); do     # built nowhere in run.sh's list (a build failure)
        case " ${GPU_PROGRAMS:-$PROGRAMS} " in *" $p "*) continue ;; esac
        case $p in minicudart | bench | corpus-*) continue ;; esac
        [ "$(status_of "$p")" = 0 ] || rows+=("$(printf '%-34s %-12s %-12s %s' "$p" - - "not built: $(status_of "$p")")")
    done
    [ "$(status_of bench)" = 0 ] || rows+=("$(printf '%-34s %-12s %-12s %s' bench_launch - - "not built")")
    failures=$((failures + CFAIL))
    {
        echo
        echo "== not built or not runnable, and why (from the build's MANIFEST):"
        grep -E '^not (built|runnable)' "$C/MANIFEST.txt" | cut -c1-200
        echo
        echo "== CUDA 12 round: nvcc 12.4's programs on NVIDIA's 12.9 libcudart.so.12 and on minicudart's ($((SECONDS - START))s)"
        [ "$gpu" = yes ] && bench_rows
        printf '%-34s %-12s %-12s %s\n' program "NVIDIA 12.9" minicudart result
        printf '%s\n' "${rows[@]}" "${CROWS[@]}"
    }
    if [ "$gpu" = no ]; then echo "RESULT: NO GPU (no CUDA driver or device on this machine; nothing compared)"; return 3; fi
    if [ "$failures" -gt 0 ]; then echo "RESULT: $failures FAIL"; return 1; fi
    echo "RESULT: PASS"
    return 0
}

case ${1:-} in
build) build ;;
run) # Everything it prints is also $OUT/cuda12.txt (a remote caller gets the tail back).
     OUT=${OUT:-$C/out}
     mkdir -p "$OUT"
     run 2>&1 | tee "$OUT/cuda12.txt"
     exit "${PIPESTATUS[0]}" ;;
*) echo "usage: tests/gpu/cuda12.sh build|run   (see the comment at the top)" >&2; exit 2 ;;
esac
