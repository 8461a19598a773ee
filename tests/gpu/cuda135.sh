#!/usr/bin/env bash
# tests/gpu/cuda135.sh - the CUDA 13.5 round of the differential GPU test (tests/gpu/run.sh):
# every program run.sh builds, compiled by nvcc 13.5, NVIDIA's variant linked against NVIDIA's
# 13.5 runtime, minicudart's against minicudart, run on the H200 (driver 580, CUDA 13.0) and
# compared line by line.  It also runs the programs that need 13.5's headers (a
# "// gpu-cuda: 13.5" header line: conf_green, conf_cuda135, conf_cuda135_served,
# conf_misuse_cuda135), which run.sh does not build with the GPU machine's nvcc 13.0.
#
# The GPU machine has no nvcc 13.5 and no internet, so the round has two halves:
#
#   tests/gpu/cuda135.sh build   on a machine with the 13.5 wheels and the 13.0 toolkit (no GPU
#                                needed): run.sh GPU_BUILD_ONLY=1 into build-gpurun135/, then one
#                                archive, .gpu/cuda135.tar.xz (git-ignored), of the binaries, their
#                                build statuses and logs, the fatbin tool and NVIDIA's 13.5
#                                libcudart.so.13; prints its size (a device run carries 64 MiB at
#                                most, with the rest of the tree: pass it in `carry`).
#   tests/gpu/cuda135.sh run     on the GPU machine: unpacks the archive into build-gpurun135/ and
#                                runs run.sh GPU_REUSE_BUILD=1 there, NVIDIA's variant finding the
#                                13.5 runtime through LD_LIBRARY_PATH; run.sh's table comes last.
#   tests/gpu/cuda135.sh sanitize on the GPU machine: unpacks it the same way and runs
#                                compute-sanitizer memcheck and racecheck over the green-context
#                                programs under both runtimes (sanitize, below).
#
# The toolkit of the build half: CUDA135_HOME, the root holding nvidia/cu13 (bin/nvcc, include/,
# lib/libcudart.so.13) as tools/install-deps.sh unpacks the wheels (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/cuda-13.5.37).  The wheels have the compiler, the
# runtime and its headers only, so CUDA130_HOME (default /usr/local/cuda, the 13.0 toolkit)
# gives what they lack: cuBLAS, cuFFT, cuRAND, cuSPARSE (conf_interop) and libcuda's stub, found
# after the wheels' folder and, but for the stub, on the runpath (the GPU machine has them at
# the same place).  minicudart itself is built by CMake with that 13.0 toolkit, on purpose: it
# is C, it must build on a machine with only 13.0 (lib/core/cuda135.h declares what 13.5 added), and
# the same library serves programs built by either nvcc.  Only the programs are 13.5's.
#
# Programs whose only device code is PTX (ptx_only, rdc_ptx, force_ptx, force_ptx_rdc) are
# built but not run (CUDA135_SKIP, the table says "skipped"): nvcc 13.5 writes PTX ISA 9.5,
# which driver 580's JIT (ISA 9.0) cannot load, under either runtime.
#
# Environment: CUDA135_HOME, CUDA130_HOME (above), CUDA135_ARCHIVE (default
# .gpu/cuda135.tar.xz), CUDA135_SKIP (above), and run.sh's own (OUT, GPU_RUN_BUDGET_S,
# GPU_PROGRAMS, BENCH_*), passed through; CUDA_HOME on the GPU machine (default /usr/local/cuda)
# is only the toolkit of run.sh's steps 4 to 6 (cuobjdump, the libraries `fatbin list` reads).
# Exit: run.sh's (0 all pass, 1 a failure, 3 no GPU); 2 for a usage or setup error.
set -u

cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
BUILD_DIR=build-gpurun135
W=$ROOT/$BUILD_DIR
CUDA135_HOME=${CUDA135_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/cuda-13.5.37}
CUDA130_HOME=${CUDA130_HOME:-/usr/local/cuda}
ARCHIVE=${CUDA135_ARCHIVE:-.gpu/cuda135.tar.xz}
case $ARCHIVE in /*) ;; *) ARCHIVE=$ROOT/$ARCHIVE ;; esac
SKIP=${CUDA135_SKIP-ptx_only rdc_ptx force_ptx force_ptx_rdc}
# What travels: the binaries and what run.sh reads of a build (statuses, logs), the runtime.
PACKED="bin status logs cudart135 MANIFEST.txt"

fail() {
    echo "cuda135.sh: $*" >&2
    exit 2
}

build() {
    local tk=$CUDA135_HOME/nvidia/cu13 rc fatbin_tool
    [ -x "$tk/bin/nvcc" ] || fail "no nvcc 13.5 at $tk/bin/nvcc (CUDA135_HOME; tools/install-deps.sh fetches it)"
    "$tk/bin/nvcc" --version | grep -q 'release 13\.5,' ||
        fail "$tk/bin/nvcc is not nvcc 13.5: $("$tk/bin/nvcc" --version | tail -n 1)"
    [ -e "$tk/lib/libcudart.so.13" ] || fail "no NVIDIA 13.5 runtime at $tk/lib/libcudart.so.13"
    [ -x "$CUDA130_HOME/bin/nvcc" ] || fail "no 13.0 toolkit at $CUDA130_HOME (CUDA130_HOME)"

    # The build takes minutes on a small machine: the budget bounds only run.sh's own steps.
    GPU_BUILD_ONLY=1 GPU_BUILD_DIR=$BUILD_DIR GPU_RUN_BUDGET_S=${GPU_RUN_BUDGET_S:-3600} \
        CUDA_HOME=$tk CUDA_LIB=$tk/lib \
        CUDA_LIBS_ALSO="$CUDA130_HOME/lib64 $CUDA130_HOME/lib64/stubs" \
        MINICUDART_CUDA_HOME=$CUDA130_HOME OUT=${OUT:-$W/out} "$ROOT/tests/gpu/run.sh"
    rc=$?
    [ "$rc" = 0 ] || fail "run.sh's build failed (exit $rc; minicudart did not build): $W/logs"

    rm -rf "${W:?}/cudart135"
    mkdir -p "$W/cudart135"
    cp -L "$tk/lib/libcudart.so.13" "$W/cudart135/libcudart.so.13"
    # The fatbin tool of run.sh's step 6, where run.sh looks for it (under cmake/).
    fatbin_tool=$(cd "$W" && find cmake -type f -name fatbin -perm -u+x 2>/dev/null | head -n 1)
    {
        echo "built $(date -u +%FT%TZ) from $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')" \
             "($(git -C "$ROOT" status --short 2>/dev/null | wc -l) changed files)"
        echo "programs: $("$tk/bin/nvcc" --version | grep -m1 release)"
        echo "minicudart: CMake with $("$CUDA130_HOME/bin/nvcc" --version | grep -m1 release)"
        echo "NVIDIA's runtime: libcudart.so.13 $(sha256sum "$W/cudart135/libcudart.so.13" | cut -c1-16)"
        echo "build statuses (status: count): $(cat "$W"/status/* | sort | uniq -c |
                                                awk '{ printf "%s%s: %d", sep, $2, $1; sep = ", " }')"
        echo "builds that failed: $(cd "$W/status" && grep -Lx 0 -- * | tr '\n' ' ')"
    } >"$W/MANIFEST.txt"
    mkdir -p "$(dirname "$ARCHIVE")"
    # xz: on the GPU machine tar -J (or Python's lzma) unpacks it; -9 keeps a window of 64 MiB,
    # in which the minicudart variants' many copies of libminicudart.a compress to almost one.
    tar -C "$W" -cf - $PACKED $fatbin_tool | xz -9 -T0 >"$ARCHIVE.tmp" || fail "packing failed"
    mv "$ARCHIVE.tmp" "$ARCHIVE"
    cat "$W/MANIFEST.txt"
    echo "== archive: ${ARCHIVE#"$ROOT"/}, $(du -k "$ARCHIVE" | cut -f1) KiB ($(ls "$W/bin" | wc -l) files in bin, $(du -sk "$W/bin" | cut -f1) KiB unpacked)"
    echo "== on the GPU machine (carry ${ARCHIVE#"$ROOT"/}): tests/gpu/cuda135.sh run"
}

unpack() {   # the archive into build-gpurun135/, NVIDIA's 13.5 runtime on LD_LIBRARY_PATH
    local resolved
    [ -f "$ARCHIVE" ] || fail "no archive $ARCHIVE (make it with: tests/gpu/cuda135.sh build)"
    rm -rf "${W:?}/bin" "$W/status" "$W/logs" "$W/cudart135" "$W/run"
    mkdir -p "$W"
    if command -v xz >/dev/null; then
        tar -C "$W" -xJf "$ARCHIVE" || fail "unpacking $ARCHIVE failed"
    else
        python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' \
            "$ARCHIVE" | tar -C "$W" -xf - || fail "unpacking $ARCHIVE failed"
    fi
    echo "== tests/gpu/cuda135.sh: the 13.5 round, built elsewhere:"
    cat "$W/MANIFEST.txt"
    # The programs' runpath names the build machine's folders; LD_LIBRARY_PATH comes before a
    # runpath, so NVIDIA's variant (and its plugins) load the 13.5 runtime shipped here.  The
    # minicudart variants link no libcudart at all.
    export LD_LIBRARY_PATH=$W/cudart135${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    resolved=$(ldd "$W/bin/vadd.nvidia" 2>/dev/null | awk '$1 == "libcudart.so.13" { print $3 }')
    echo "== vadd.nvidia loads libcudart.so.13 from: ${resolved:-nowhere}"
    [ "$resolved" = "$W/cudart135/libcudart.so.13" ] ||
        fail "NVIDIA's variant would not load the 13.5 runtime (a DT_RPATH before LD_LIBRARY_PATH?)"
}

run() {
    unpack
    [ -n "$SKIP" ] && echo "== built, not run (PTX ISA 9.5 does not load on driver 580): $SKIP"
    exec env GPU_REUSE_BUILD=1 GPU_BUILD_DIR=$BUILD_DIR GPU_SKIP_PROGRAMS="$SKIP" \
        OUT="${OUT:-$W/out}" "$ROOT/tests/gpu/run.sh"
}

# sanitize: compute-sanitizer's memcheck (--leak-check full) and racecheck over the 13.5
# programs in SANITIZER135_PROGRAMS (default stress_green conf_green), each under NVIDIA's 13.5
# runtime and under minicudart, as tests/gpu/reliability.sh does for the 13.0 programs: the
# reports counted per tool, program and runtime (tests/gpu/sanitizer_count.sh).  A program that
# plants a fault (stress_green's illegal address) has memcheck reports under both runtimes; what
# must hold is that minicudart's count is not above NVIDIA's.  Logs: $OUT/san135/.
# Exit 0 no count of minicudart's above NVIDIA's, 1 otherwise.
sanitize() {
    local san=${COMPUTE_SANITIZER:-${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer}
    local out=${OUT:-$W/out}/san135 tool p v log opts rc nv mc res fails=0 rows=()
    local -A count code
    # shellcheck source=tests/gpu/sanitizer_count.sh
    . "$ROOT/tests/gpu/sanitizer_count.sh"
    [ -x "$san" ] || fail "no compute-sanitizer at $san (COMPUTE_SANITIZER)"
    unpack
    mkdir -p "$out"
    for tool in memcheck racecheck; do
        for p in ${SANITIZER135_PROGRAMS:-stress_green conf_green}; do
            for v in nvidia minicudart; do
                log=$out/$tool.$p.$v.log
                opts=()
                [ "$tool" = memcheck ] && opts=(--leak-check full)
                timeout -k 10 "${SANITIZER135_RUN_S:-120}" "$san" --tool "$tool" "${opts[@]}" \
                    --log-file "$log" "$W/bin/$p.$v" >"$out/$tool.$p.$v.out" 2>&1
                rc=$?
                count[$v]=$(sanitizer_count "$log" "$rc")
                code[$v]=$rc
            done
            nv=$(sanitizer_errors "${count[nvidia]}")
            mc=$(sanitizer_errors "${count[minicudart]}")
            res=PASS
            if [ -z "$mc" ] || { [ -n "$nv" ] && [ "$mc" -gt "$nv" ]; }; then
                res=FAIL
                fails=$((fails + 1))
            fi
            rows+=("$(printf '%-10s %-14s %-18s %-18s %s' "$tool" "$p" \
                      "${count[nvidia]} (exit ${code[nvidia]})" \
                      "${count[minicudart]} (exit ${code[minicudart]})" "$res")")
        done
    done
    printf '%-10s %-14s %-18s %-18s %s\n' tool program NVIDIA minicudart result
    printf '%s\n' "${rows[@]}"
    echo "RESULT: $([ "$fails" = 0 ] && echo PASS || echo "FAIL ($fails)")"
    [ "$fails" = 0 ]
}

case ${1:-} in
build) build ;;
run) run ;;
sanitize) sanitize ;;
*) echo "usage: tests/gpu/cuda135.sh build|run|sanitize   (see the comment at the top)" >&2; exit 2 ;;
esac
