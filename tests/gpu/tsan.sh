#!/usr/bin/env bash
# tests/gpu/tsan.sh - the threads programs under ThreadSanitizer on the real driver (issue 31):
# minicudart and the programs' host code instrumented, the GPU machine's libcuda.so.1 not.
# CI runs the same programs under ThreadSanitizer against the fake driver (tools/test.sh's
# test-tsan tree); here the driver is NVIDIA's, with its own threads and locks.
#
# The GPU machine's compiler has no sanitizer runtime to rely on, so the round has two halves:
#
#   tests/gpu/tsan.sh build   on the build machine (no GPU needed): a ThreadSanitizer tree
#                             (MINICUDART_TSAN=ON, as tools/test.sh's test-tsan) in
#                             build/tsan-gpu, its GPU programs (PROGRAMS below), packed with the
#                             libraries they need that the GPU machine may lack (libtsan.so.2,
#                             libcmocka.so.0) into .gpu/tsan.tar.xz (git-ignored; pass .gpu in
#                             `carry`);
#   tests/gpu/tsan.sh run     on the GPU machine: unpacks into build-gpurun-tsan/ and runs each
#                             program on the driver (MINICUDART_DRIVER unset), with address-space
#                             randomisation off for the process (setarch -R: ThreadSanitizer
#                             needs its fixed shadow layout, which the high mmap randomisation of
#                             newer kernels breaks), and reads every report.
#
# A report is the driver's when the racing access and the previous one are both made inside
# libcuda.so.1 (each stack's first frame past the sanitizer's interceptors): the driver's own
# memory and locks, which the sanitizer sees only in part (on the H200, 2026-12-02: the
# parameter copy of cuLaunchKernel into a block the driver allocated at module load, from two
# threads holding different stream mutexes of the driver's).  Any other report is a failure.
#
# Environment: TSAN_ARCHIVE (.gpu/tsan.tar.xz), TSAN_RUN_S (120: one program), STRESS_SECONDS
# (10: stress_concurrency's length), OUT (where the logs go; default build-gpurun-tsan/out).
# Exit: 0 every program passed with no report outside the driver; 1 otherwise; 2 usage or setup.
set -u
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
ARCHIVE=${TSAN_ARCHIVE:-.gpu/tsan.tar.xz}
case $ARCHIVE in /*) ;; *) ARCHIVE=$ROOT/$ARCHIVE ;; esac
TREE=$ROOT/build/tsan-gpu
W=$ROOT/build-gpurun-tsan
# program (target) | what it needs beside it.  gpu135_stress_green is built where the tree finds
# CUDA 13.5 (tests/cuda135), else left out.
PROGRAMS="e2e_life_unload_race e2e_stress_concurrency e2e_stress_threads gpu135_stress_green"
PLUGINS="life_plugin stress_plugin"
fail() {
    echo "tsan.sh: $*" >&2
    exit 2
}

build() {
    local f files=() lib
    cmake -S "$ROOT" -B "$TREE" -DMINICUDART_TSAN=ON -DMINICUDART_TEST_GPU_PROGRAMS=OFF \
        >"$ROOT/build/tsan-gpu.configure.log" 2>&1 ||
        fail "configure failed: build/tsan-gpu.configure.log"
    # shellcheck disable=SC2086
    cmake --build "$TREE" -j "$(nproc 2>/dev/null || echo 2)" --target $PROGRAMS $PLUGINS \
        >"$ROOT/build/tsan-gpu.build.log" 2>&1 ||
        cmake --build "$TREE" -j "$(nproc 2>/dev/null || echo 2)" \
            --target e2e_life_unload_race e2e_stress_concurrency e2e_stress_threads $PLUGINS \
            >>"$ROOT/build/tsan-gpu.build.log" 2>&1 ||
        fail "build failed: build/tsan-gpu.build.log"
    rm -rf "${W:?}/pack" && mkdir -p "$W/pack/lib"
    for f in $PROGRAMS $PLUGINS; do
        files=("$TREE"/tests/*/"$f" "$TREE"/tests/*/"$f.so")
        for lib in "${files[@]}"; do [ -f "$lib" ] && cp "$lib" "$W/pack/"; done
    done
    for lib in libtsan.so.2 libcmocka.so.0; do
        f=$(ldd "$W/pack/e2e_life_unload_race" | awk -v l="$lib" '$1 == l { print $3 }')
        [ -n "$f" ] && cp -L "$f" "$W/pack/lib/"
    done
    git -C "$ROOT" rev-parse --short HEAD >"$W/pack/BUILT_FROM" 2>/dev/null
    mkdir -p "$(dirname "$ARCHIVE")"
    tar -C "$W/pack" -cf - . | xz -9 -T0 >"$ARCHIVE" || fail "packing failed"
    echo "== $(ls "$W/pack" | tr '\n' ' ')"
    echo "== archive: ${ARCHIVE#"$ROOT"/}, $(du -k "$ARCHIVE" | cut -f1) KiB;" \
         "on the GPU machine (carry .gpu): tests/gpu/tsan.sh run"
}

# classify LOG -> "<reports> <the driver's>": every report of LOG, and how many are the driver's.
classify() {
    awk '
        /^WARNING: ThreadSanitizer:/ { n++; inrep = 1; stacks = 0; own = 0; next }
        inrep && /^  (Write|Read|Atomic)|^  Previous/ { stacks++; want = 1; next }
        inrep && want && /^    #[0-9]+ / {
            if ($0 ~ /libtsan|sanitizer_common|tsan_interceptors/) next
            if ($0 ~ /libcuda\.so/) own++
            want = 0; next }
        inrep && /^SUMMARY: ThreadSanitizer/ {
            if (stacks >= 2 && own == stacks) driver++
            inrep = 0 }
        END { printf "%d %d\n", n, driver }' "$1"
}

run() {
    local p out rc reports driver verdict res fails=0 rows=() bin
    [ -f "$ARCHIVE" ] || fail "no archive $ARCHIVE (make it with: tests/gpu/tsan.sh build)"
    rm -rf "${W:?}/bin" && mkdir -p "$W/bin"
    tar -C "$W/bin" -xJf "$ARCHIVE" || fail "unpacking $ARCHIVE failed"
    out=${OUT:-$W/out}
    mkdir -p "$out"
    echo "== tests/gpu/tsan.sh: built from $(cat "$W/bin/BUILT_FROM" 2>/dev/null || echo '?')"
    command -v nvidia-smi >/dev/null &&
        nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1
    for p in $PROGRAMS; do
        bin=$W/bin/$p
        if [ ! -x "$bin" ]; then
            rows+=("$(printf '%-24s %-6s %-8s %-8s %s' "$p" - - - "not built")")
            continue
        fi
        # exitcode=0: the exit code stays the program's; the reports are read from the log.
        env -u MINICUDART_DRIVER LD_LIBRARY_PATH="$W/bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            TSAN_OPTIONS="second_deadlock_stack=1 halt_on_error=0 exitcode=0" \
            LIFE_PLUGIN="$W/bin/life_plugin.so" STRESS_PLUGIN="$W/bin/stress_plugin.so" \
            STRESS_SECONDS="${STRESS_SECONDS:-10}" STRESS_TIMEOUT_S=$((${TSAN_RUN_S:-120} - 10)) \
            timeout -k 5 "${TSAN_RUN_S:-120}" setarch "$(uname -m)" -R "$bin" \
            >"$out/$p.log" 2>&1
        rc=$?
        read -r reports driver <<<"$(classify "$out/$p.log")"
        verdict=$(grep -E 'PASS|FAIL' "$out/$p.log" | grep -v ThreadSanitizer | tail -n 1 | cut -c1-60)
        res=PASS
        if [ "$rc" != 0 ] || [ "$reports" != "$driver" ]; then
            res=FAIL
            fails=$((fails + 1))
        fi
        rows+=("$(printf '%-24s %-6s %-8s %-8s %s' "$p" "$rc" "$reports" "$driver" "$res: $verdict")")
    done
    printf '%-24s %-6s %-8s %-8s %s\n' program exit reports "driver's" result
    printf '%s\n' "${rows[@]}"
    echo "RESULT: $([ "$fails" = 0 ] && echo PASS || echo "FAIL ($fails)")"
    [ "$fails" = 0 ]
}

case ${1:-} in
build) build ;;
run) run ;;
*) echo "usage: tests/gpu/tsan.sh build|run   (see the comment at the top)" >&2; exit 2 ;;
esac
