#!/usr/bin/env bash
# tests/gpu/reliability.sh - issue 18, "Reliability under real load": the GPU machine's part that
# needs no framework.  Each step under NVIDIA's runtime and under minicudart, the same binaries
# tests/gpu/run.sh builds (build-gpurun/bin/<program>.nvidia and <program>.minicudart):
#
#   (a) compute-sanitizer (memcheck --leak-check full, synccheck, initcheck, racecheck) over a
#       list of GPU-suite programs: the error reports counted per tool, program and runtime, and
#       every pair whose counts differ listed (minicudart with more reports is a failure);
#   (b) the soak: soak_api (streams, events, graphs rebuilt and relaunched, pools, dlopen/dlclose
#       of a library with kernels; tests/gpu/soak_api.cu) for SOAK_SECONDS under each runtime,
#       both at once.  The program samples its resident memory, device memory in use
#       (cudaMemGetInfo: the whole device's, so both soaks and the stress together), open
#       descriptors and threads; this script samples each soak's own device memory with
#       nvidia-smi --query-compute-apps.  First and last samples and the slope per minute are
#       printed; a measure that grows under minicudart and not under NVIDIA's runtime fails;
#   (c) stress_concurrency (64 threads, own streams, events across threads, graphs;
#       tests/gpu/stress_concurrency.cu) for STRESS_SECONDS under each runtime, one after the
#       other while the soaks run: both must pass with the same transcript.
#
# Order: build what is missing (tests/gpu/run.sh with GPU_BUILD_ONLY=1), start both soaks, run
# (c), then (a) until the budget's tail, wait for the soaks, print the table last (the tail of
# the output is what a remote caller gets back).  Everything fits in RELIABILITY_BUDGET_S: the
# soak and the stress are shortened, and sanitizer runs skipped, when time runs short; the table
# says so.
#
# usage (from anywhere, on the GPU machine):   tests/gpu/reliability.sh
# environment:
#   RELIABILITY_BUDGET_S  wall-clock budget of the whole script (540)
#   RELIABILITY_OUT       logs (build-gpurun/reliability); RELIABILITY_REBUILD=1 builds again
#   SOAK_SECONDS (300), SOAK_SAMPLE_S (5), STRESS_SECONDS (60), STRESS_THREADS (64)
#   SANITIZER_PROGRAMS    programs of the GPU suite for (a) (default below; misuse programs do
#                         not belong here: they make invalid calls on purpose)
#   SANITIZER_TOOLS       (memcheck synccheck initcheck racecheck), SANITIZER_RUN_S (90: one run)
#   CUDA_HOME (/usr/local/cuda), COMPUTE_SANITIZER ($CUDA_HOME/bin/compute-sanitizer)
# Exit: 0 pass, 3 no GPU, 1 otherwise.  Documentation: docs/reliability.md.
#
# TODO, what issue 18 still needs beyond this script:
#   - compute-sanitizer over the public corpus (tests/gpu/corpus.sh's programs), not only the
#     GPU suite; device memory the runtime allocates itself checked freed at cudaDeviceReset too
#     (a program that resets between phases, under memcheck --leak-check full);
#   - the PyTorch soak: a training loop for 5 minutes under each runtime, the same samples;
#   - faults in the middle of work, each against NVIDIA's runtime: out-of-memory inside a
#     PyTorch training step and the step retried with a smaller batch; an illegal address in a
#     kernel while other threads have work queued on other streams (every thread sees the sticky
#     error; after cudaDeviceReset the process starts again where the driver allows); a stream
#     capture that fails part-way (an illegal call inside it) and the thread's, the stream's and
#     the next capture's state; a child killed while it holds IPC handles; fork after the
#     runtime is initialised with the child using CUDA (a DataLoader worker);
#   - the results: the table of a run on the H200 in docs/reliability.md and the issue's
#     closing note, each difference from NVIDIA's runtime fixed or listed with its reason.
set -u

cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
W=$ROOT/build-gpurun
BIN=$W/bin
OUT=${RELIABILITY_OUT:-$W/reliability}
BUDGET=${RELIABILITY_BUDGET_S:-540}
SOAK_SECONDS=${SOAK_SECONDS:-300}
SOAK_SAMPLE_S=${SOAK_SAMPLE_S:-5}
STRESS_SECONDS=${STRESS_SECONDS:-60}
STRESS_THREADS=${STRESS_THREADS:-64}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
SANITIZER=${COMPUTE_SANITIZER:-$CUDA_HOME/bin/compute-sanitizer}
SANITIZER_TOOLS=${SANITIZER_TOOLS:-"memcheck synccheck initcheck racecheck"}
SANITIZER_PROGRAMS=${SANITIZER_PROGRAMS:-"vadd device templates variables per_thread conf_memory conf_streams conf_graphs conf_mempool life_dlclose"}
SANITIZER_RUN_S=${SANITIZER_RUN_S:-90}
VARIANTS="nvidia minicudart"
TAIL=25                  # seconds kept for waiting on the soaks' last moments and the table

START=$SECONDS
remaining() { echo $((BUDGET - (SECONDS - START))); }
# Runs "$@" with a timeout no longer than what is left before the tail (at least 1 s).
bounded() {
    local limit=$1 left
    shift
    left=$(($(remaining) - TAIL))
    [ "$left" -lt "$limit" ] && limit=$left
    [ "$limit" -lt 1 ] && return 124
    timeout -k 5 "$limit" "$@"
}

# ---- build ----------------------------------------------------------------------------------

# Builds (through tests/gpu/run.sh) when a binary this script runs is missing.  run.sh starts
# by removing build-gpurun/bin, so the binaries of programs not named here are gone afterwards.
build() {
    local need="$SANITIZER_PROGRAMS soak_api stress_concurrency" p v missing=""
    for p in $need; do
        for v in $VARIANTS; do
            [ -x "$BIN/$p.$v" ] || missing="$missing $p.$v"
        done
    done
    [ -f "$BIN/soak_plugin.nvidia.so" ] && [ -f "$BIN/soak_plugin.minicudart.so" ] ||
        missing="$missing soak_plugin"
    if [ -z "$missing" ] && [ -z "${RELIABILITY_REBUILD:-}" ]; then
        echo "== build: reusing $BIN"
        return 0
    fi
    echo "== build: tests/gpu/run.sh GPU_BUILD_ONLY=1 (missing:${missing:- none, rebuild asked})"
    local limit=$(($(remaining) - TAIL - 120))
    [ "$limit" -gt 400 ] && limit=400
    [ "$limit" -lt 60 ] && { echo "== build: no time left for it"; return 1; }
    GPU_BUILD_ONLY=1 GPU_PROGRAMS="$need" GPU_RUN_BUDGET_S=$limit OUT="$OUT/build" \
        timeout -k 5 $((limit + 10)) "$ROOT/tests/gpu/run.sh" >"$OUT/build.log" 2>&1
    local rc=$?
    grep -E '^== (build|builds)|^RESULT' "$OUT/build.log" | tail -n 20
    return "$rc"
}

# ---- (b) the soak, both runtimes at once ---------------------------------------------------

SOAK_LEN=0
declare -A SOAK_PID
start_soaks() {
    SOAK_LEN=$SOAK_SECONDS
    # The soaks must end before the tail; the stress and the sanitizer runs go on meanwhile.
    local most=$(($(remaining) - TAIL - 15))
    [ "$SOAK_LEN" -gt "$most" ] && SOAK_LEN=$most
    if [ "$SOAK_LEN" -lt 30 ]; then
        echo "== soak: skipped, ${most}s left"
        SOAK_LEN=0
        return
    fi
    local v
    for v in $VARIANTS; do
        [ -x "$BIN/soak_api.$v" ] || continue
        # Started directly (no timeout wrapper), so that $! is the program's pid, the one
        # nvidia-smi lists; its own alarm ends it at SOAK_TIMEOUT_S, and wait_soaks kills it
        # at the tail.
        SOAK_SECONDS=$SOAK_LEN SOAK_SAMPLE_S=$SOAK_SAMPLE_S SOAK_TIMEOUT_S=$((SOAK_LEN + 10)) \
            "$BIN/soak_api.$v" >"$OUT/soak.$v.out" 2>"$OUT/soak.$v.err" &
        SOAK_PID[$v]=$!
        echo "${SOAK_PID[$v]}" >"$OUT/soak.$v.pid"
    done
    echo "== soak: soak_api under ${!SOAK_PID[*]} for ${SOAK_LEN}s, samples every ${SOAK_SAMPLE_S}s"
    # Each soak's own device memory, by pid: "<seconds> <pid> <MiB>" lines.
    if command -v nvidia-smi >/dev/null; then
        (
            local t0=$SECONDS pid mib
            while any_alive "${SOAK_PID[@]}"; do
                nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits \
                    2>/dev/null | tr -d ' ' | while IFS=, read -r pid mib; do
                    echo "$((SECONDS - t0)) $pid $mib"
                done
                sleep "$SOAK_SAMPLE_S"
            done
        ) >"$OUT/soak.smi" 2>/dev/null &
        SMI_PID=$!
    fi
}

any_alive() {
    local pid
    for pid in "$@"; do
        kill -0 "$pid" 2>/dev/null && return 0
    done
    return 1
}

declare -A SOAK_RC
wait_soaks() {
    local v pid rc
    for v in "${!SOAK_PID[@]}"; do
        pid=${SOAK_PID[$v]}
        # Waits up to the tail's start plus a little, then kills.
        while kill -0 "$pid" 2>/dev/null && [ "$(remaining)" -gt 10 ]; do sleep 1; done
        kill -0 "$pid" 2>/dev/null && { kill -9 "$pid" 2>/dev/null; echo "== soak $v: killed at the budget's end"; }
        wait "$pid"
        rc=$?
        SOAK_RC[$v]=$rc
    done
    [ -n "${SMI_PID:-}" ] && { kill "$SMI_PID" 2>/dev/null; wait "$SMI_PID" 2>/dev/null; }
}

# "<t> <value>" lines on stdin: "first last slope-per-minute count" (least squares).
trend() {
    awk '{ n++; t[n] = $1; v[n] = $2; st += $1; sv += $2; stt += $1 * $1; stv += $1 * $2 }
         END {
             if (n == 0) { print "- - - 0"; exit }
             d = n * stt - st * st
             slope = d > 0 ? (n * stv - st * sv) / d * 60 : 0
             printf "%s %s %.1f %d\n", v[1], v[n], slope, n
         }'
}

# "grows" when the last sample is above the first by more than the measure's allowance, or (for
# the memory measures, whose allowance is not 0) when the slope would pass the allowance in five
# minutes and the last sample is above the first.
grows() {
    local first=$1 last=$2 allowance=$3 slope=$4
    case $first$last in *-*) echo "?"; return ;; esac
    awk -v f="$first" -v l="$last" -v a="$allowance" -v s="$slope" \
        'BEGIN { print (l - f > a || (a > 0 && l > f && s * 5 > a)) ? "grows" : "flat" }'
}

SOAK_ROWS=()
SOAK_FAIL=0
soak_report() {
    local v metric col allowance line first last slope n verdict
    declare -A verdicts
    for v in $VARIANTS; do
        [ -f "$OUT/soak.$v.err" ] || continue
        for metric in rss_kb device_used_kb fds threads smi_mib; do
            case $metric in
            rss_kb) col=5 allowance=8192 ;;          # 8 MB
            device_used_kb) col=7 allowance=16384 ;; # 16 MB, the whole device's
            fds) col=9 allowance=0 ;;
            threads) col=11 allowance=0 ;;
            smi_mib) col=0 allowance=16 ;;           # MiB, this process's
            esac
            if [ "$metric" = smi_mib ]; then
                line=$(awk -v p="$(cat "$OUT/soak.$v.pid" 2>/dev/null)" '$2 == p { print $1, $3 }' \
                    "$OUT/soak.smi" 2>/dev/null | trend)
            else
                line=$(awk -v c="$col" '$1 == "soak" && $2 == "sample" { print $3, $c }' \
                    "$OUT/soak.$v.err" | trend)
            fi
            read -r first last slope n <<<"$line"
            verdict=$(grows "$first" "$last" "$allowance" "$slope")
            [ "$n" = 0 ] && verdict="no samples"
            verdicts[$v.$metric]=$verdict
            SOAK_ROWS+=("$(printf 'soak %-10s %-15s first %-10s last %-10s slope/min %-9s (%s samples) %s' \
                "$v" "$metric" "$first" "$last" "$slope" "$n" "$verdict")")
        done
    done
    # A measure that grows under minicudart and not under NVIDIA's runtime.
    for metric in rss_kb device_used_kb fds threads smi_mib; do
        if [ "${verdicts[minicudart.$metric]:-}" = grows ] && [ "${verdicts[nvidia.$metric]:-}" != grows ]; then
            SOAK_FAIL=$((SOAK_FAIL + 1))
            SOAK_ROWS+=("soak: $metric grows under minicudart only: FAIL")
        fi
    done
}

# ---- (c) the stress ---------------------------------------------------------------------------

STRESS_ROW=""
STRESS_FAIL=0
NOGPU=0
run_stress() {
    local len=$STRESS_SECONDS v rc rcs=""
    # Both runs, each with up to a minute of start and finish, before the tail.
    local most=$((($(remaining) - TAIL) / 2 - 60))
    [ "$len" -gt "$most" ] && len=$most
    if [ "$most" -lt 5 ]; then
        STRESS_ROW="stress_concurrency: skipped (time)"
        STRESS_FAIL=1
        return
    fi
    for v in $VARIANTS; do
        echo "== stress_concurrency.$v: $STRESS_THREADS threads, ${len}s"
        bounded $((len + 60)) env STRESS_SECONDS="$len" STRESS_THREADS="$STRESS_THREADS" \
            STRESS_TIMEOUT_S=$((len + 45)) "$BIN/stress_concurrency.$v" \
            >"$OUT/stress.$v.out" 2>"$OUT/stress.$v.err"
        rc=$?
        echo "exit code $rc" >>"$OUT/stress.$v.out"
        rcs="$rcs $v=$rc"
        [ "$rc" = 2 ] && NOGPU=1
    done
    local same=no
    diff "$OUT/stress.nvidia.out" "$OUT/stress.minicudart.out" >"$OUT/stress.diff" && same=yes
    local res=PASS
    if grep -q '^exit code 0$' "$OUT/stress.nvidia.out" && [ "$same" = yes ]; then
        res=PASS
    else
        res=FAIL
        STRESS_FAIL=1
        head -n 8 "$OUT/stress.diff"
    fi
    STRESS_ROW=$(printf 'stress_concurrency %ss x %s threads: exit%s, transcripts equal: %s: %s' \
        "$len" "$STRESS_THREADS" "$rcs" "$same" "$res")
}

# ---- (a) compute-sanitizer --------------------------------------------------------------------

declare -A SAN
SAN_SKIPPED=0
# One run: "<errors>" from the ERROR SUMMARY line ("+<bytes>B" leaked, for memcheck), T/O, or
# "rc<code>" when the tool printed no summary.
sanitize_one() {
    local tool=$1 p=$2 v=$3 log opts=() rc errors leaked
    log=$OUT/san/$tool.$p.$v.log
    [ "$tool" = memcheck ] && opts=(--leak-check full)
    bounded "$SANITIZER_RUN_S" "$SANITIZER" --tool "$tool" "${opts[@]}" --log-file "$log" \
        "$BIN/$p.$v" >"$OUT/san/$tool.$p.$v.out" 2>&1
    rc=$?
    errors=$(sed -n 's/^========= ERROR SUMMARY: \([0-9][0-9]*\) error.*/\1/p' "$log" 2>/dev/null | tail -n 1)
    leaked=$(sed -n 's/^========= LEAK SUMMARY: \([0-9][0-9]*\) bytes leaked.*/\1/p' "$log" 2>/dev/null | tail -n 1)
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        echo "T/O"
    elif [ -z "$errors" ]; then
        echo "rc$rc"
    elif [ -n "$leaked" ] && [ "$leaked" != 0 ]; then
        echo "$errors+${leaked}B"
    else
        echo "$errors"
    fi
}

SAN_ROWS=()
SAN_FAIL=0
run_sanitizers() {
    if [ ! -x "$SANITIZER" ]; then
        SAN_ROWS+=("compute-sanitizer: not found at $SANITIZER")
        SAN_FAIL=1
        return
    fi
    mkdir -p "$OUT/san"
    local tool p v
    # Tool by tool, memcheck first: what is cut by the budget is the least important.
    for tool in $SANITIZER_TOOLS; do
        for p in $SANITIZER_PROGRAMS; do
            for v in $VARIANTS; do
                if [ ! -x "$BIN/$p.$v" ]; then
                    SAN[$tool.$p.$v]=build
                elif [ "$(($(remaining) - TAIL))" -lt 15 ]; then
                    SAN[$tool.$p.$v]=skip
                    SAN_SKIPPED=$((SAN_SKIPPED + 1))
                else
                    SAN[$tool.$p.$v]=$(sanitize_one "$tool" "$p" "$v")
                fi
            done
        done
        echo "== compute-sanitizer $tool done at $((SECONDS - START))s"
    done
}

# A count's errors as a number (for comparison), or nothing.
errors_of() { case $1 in [0-9]*) echo "${1%%+*}" ;; esac; }

san_report() {
    local tool p nv mc n m verdict pairs=0 equal=0
    for tool in $SANITIZER_TOOLS; do
        for p in $SANITIZER_PROGRAMS; do
            nv=${SAN[$tool.$p.nvidia]:-}
            mc=${SAN[$tool.$p.minicudart]:-}
            [ -z "$nv$mc" ] && continue
            pairs=$((pairs + 1))
            n=$(errors_of "$nv")
            m=$(errors_of "$mc")
            if [ "$nv" = "$mc" ] && [ -n "$n" ]; then
                equal=$((equal + 1))
                continue
            elif [ "$nv" = skip ] || [ "$mc" = skip ]; then
                verdict="skipped (time)"
            elif [ "$nv" = "$mc" ]; then
                verdict="no count under either: FAIL"   # both timed out, unbuilt, or no summary
                SAN_FAIL=$((SAN_FAIL + 1))
            elif [ -n "$n" ] && [ -n "$m" ] && [ "$m" -le "$n" ]; then
                # Fewer reports, or the same errors with other leaked bytes: listed, not failed.
                verdict=differs
                [ "$m" -lt "$n" ] && verdict="fewer under minicudart"
                [ "$m" = "$n" ] && [ "$mc" != "$nv" ] && { verdict="leaks differ: FAIL"; SAN_FAIL=$((SAN_FAIL + 1)); }
            else
                verdict=FAIL
                SAN_FAIL=$((SAN_FAIL + 1))
            fi
            SAN_ROWS+=("$(printf 'sanitizer %-10s %-20s nvidia %-12s minicudart %-12s %s' \
                "$tool" "$p" "$nv" "$mc" "$verdict")")
        done
    done
    SAN_ROWS=("$(printf 'compute-sanitizer: %d program/tool pairs, %d with the same count under both runtimes, %d runs skipped (time); the others:' \
        "$pairs" "$equal" "$SAN_SKIPPED")" "${SAN_ROWS[@]}")
}

# ---- main -----------------------------------------------------------------------------------

main() {
    rm -rf "${OUT:?}/san" "$OUT"/soak.* "$OUT"/stress.*
    mkdir -p "$OUT"
    echo "== tests/gpu/reliability.sh: $(date -u +%FT%TZ), budget ${BUDGET}s"
    echo "== $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') $(git -C "$ROOT" status --short 2>/dev/null | wc -l) changed files"
    if command -v nvidia-smi >/dev/null; then
        nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 2
    else
        echo "(no nvidia-smi)"
    fi
    "$SANITIZER" --version 2>/dev/null | tail -n 1

    local build_rc=0
    build || build_rc=$?
    start_soaks
    run_stress
    run_sanitizers
    [ "$SOAK_LEN" -gt 0 ] && wait_soaks

    local soak_row="soak: skipped (time)" soak_same=no v rcs=""
    if [ "$SOAK_LEN" -gt 0 ]; then
        soak_report
        for v in $VARIANTS; do
            rcs="$rcs $v=${SOAK_RC[$v]:-none}"
            [ "${SOAK_RC[$v]:-}" = 2 ] && NOGPU=1
        done
        diff "$OUT/soak.nvidia.out" "$OUT/soak.minicudart.out" >"$OUT/soak.diff" 2>&1 && soak_same=yes
        local res=PASS
        if [ "${SOAK_RC[nvidia]:-}" != 0 ] || [ "${SOAK_RC[minicudart]:-}" != 0 ] || [ "$soak_same" != yes ]; then
            res=FAIL
            SOAK_FAIL=$((SOAK_FAIL + 1))
        fi
        local its=""
        for v in $VARIANTS; do
            its="$its $v=$(sed -n 's/^soak iterations \([0-9]*\).*/\1/p' "$OUT/soak.$v.err" 2>/dev/null)"
        done
        soak_row=$(printf 'soak_api %ss (both at once): exit%s, transcripts equal: %s, iterations%s: %s' \
            "$SOAK_LEN" "$rcs" "$soak_same" "$its" "$res")
    else
        SOAK_FAIL=1
    fi
    san_report

    {
        echo
        echo "== minicudart reliability (issue 18): $((SECONDS - START))s of ${BUDGET}s; logs in $OUT"
        [ "$build_rc" = 0 ] || echo "build: FAILED (rc $build_rc; $OUT/build.log)"
        printf '%s\n' "${SAN_ROWS[@]}"
        printf '%s\n' "${SOAK_ROWS[@]}"
        echo "$soak_row"
        echo "$STRESS_ROW"
    } | tee "$OUT/summary.txt"
    tar -C "$OUT" -czf "$OUT/logs.tar.gz" --exclude logs.tar.gz . 2>/dev/null
    if [ "$NOGPU" = 1 ]; then echo "RESULT: NO GPU"; return 3; fi
    local failures=$((SAN_FAIL + SOAK_FAIL + STRESS_FAIL + (build_rc != 0)))
    if [ "$failures" -gt 0 ]; then echo "RESULT: $failures FAIL"; return 1; fi
    echo "RESULT: PASS"
}

mkdir -p "$OUT"
main "$@" 2>&1 | tee "$OUT/run.log"
exit "${PIPESTATUS[0]}"
