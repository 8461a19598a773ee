#!/usr/bin/env bash
# tests/gpu/reliability.sh - issue 18, "Reliability under real load": the GPU machine's part
# (PyTorch only where it imports: the python hooks below).  Each step under NVIDIA's runtime and under minicudart, the same binaries
# tests/gpu/run.sh builds (build-gpurun/bin/<program>.nvidia and <program>.minicudart):
#
#   (a) compute-sanitizer (memcheck --leak-check full, synccheck, initcheck, racecheck) over a
#       list of GPU-suite programs: the error reports counted per tool, program and runtime, and
#       every pair whose counts differ listed (minicudart with more reports is a failure);
#   (a') tests/gpu/corpus_sanitizer.sh, the same four tools over the public corpus (programs by
#       others, built by tests/gpu/corpus.sh), in the background while the soaks run, where
#       the corpus binaries are built (build-gpurun/corpus/bin) or RELIABILITY_CORPUS=1 asks
#       for it (it then builds them); its table comes in this one's;
#   (b) the soak: soak_api (streams, events, graphs rebuilt and relaunched, pools, dlopen/dlclose
#       of a library with kernels; tests/gpu/soak_api.cu) for SOAK_SECONDS under each runtime,
#       both at once.  The program samples its resident memory, device memory in use
#       (cudaMemGetInfo: the whole device's, so both soaks and the stress together), open
#       descriptors and threads; this script samples each soak's own device memory with
#       nvidia-smi --query-compute-apps.  First and last samples and the slope per minute are
#       printed; a measure that grows under minicudart and not under NVIDIA's runtime fails.
#       Where `python3 -c 'import torch'` works, tests/frameworks/soak_torch.py (a training loop
#       printing the same samples; SOAK_SECONDS, SOAK_SAMPLE_S and SOAK_TIMEOUT_S passed on) is
#       a second soak, under each runtime (minicudart's libcudart.so.13 in LD_PRELOAD), all four
#       at once, with the same analysis;
#   (c) stress_concurrency (64 threads, own streams, events across threads, graphs;
#       tests/gpu/stress_concurrency.cu) for STRESS_SECONDS under each runtime, one after the
#       other while the soaks run: both must pass with the same transcript;
#   (d) faults in the middle of work (tests/gpu/fault_*.cu): each program under each runtime,
#       transcripts and exit codes compared like (c): fault_illegal, fault_capture,
#       fault_ipc_kill, fault_fork while the soaks run (a fault is contained in its process's
#       context), fault_reset after them (it compares the whole device's free memory before and
#       after a cudaDeviceReset), and fault_reset under memcheck --leak-check full (first of
#       (a)'s memcheck runs); where torch imports, tests/frameworks/faults_torch.py under each
#       runtime after the soaks (it exhausts device memory on purpose), stdout and exit codes
#       compared.
#
# Order: build what is missing (tests/gpu/run.sh with GPU_BUILD_ONLY=1; minicudart's shared
# library for the python runs), start the soaks, run (c), (d)'s first part, then (a) until the
# time kept for after the soaks, wait for the soaks, (d)'s second part, print the table last (the
# tail of the output is what a remote caller gets back).  Everything fits in
# RELIABILITY_BUDGET_S: the soaks and the stress are shortened, and sanitizer runs skipped, when
# time runs short; the table says so.  Without a GPU (no nvidia-smi and no /dev/nvidia0) the
# script says NO GPU at once and exits 3.
#
# usage (from anywhere, on the GPU machine):   tests/gpu/reliability.sh
# environment:
#   RELIABILITY_BUDGET_S  wall-clock budget of the whole script (540)
#   RELIABILITY_OUT       logs (build-gpurun/reliability); RELIABILITY_REBUILD=1 builds again
#   SOAK_SECONDS (300), SOAK_SAMPLE_S (5), STRESS_SECONDS (60), STRESS_THREADS (64)
#   FAULT_PROGRAMS        (d)'s programs (fault_illegal fault_capture fault_ipc_kill fault_fork
#                         fault_reset), FAULT_RUN_S (60: one run)
#   RELIABILITY_TORCH     0: no python steps even where torch imports; PYTHON (python3)
#   FAULTS_TORCH_S        (90: one run of faults_torch.py)
#   AFTER_QUIET_S (20), FAULTS_TORCH_RESERVE_S (60, where it runs): seconds the soaks leave for
#                         what runs after them (the soaks are shortened to keep them)
#   SANITIZER_PROGRAMS    programs of the GPU suite for (a) (default below; misuse programs do
#                         not belong here: they make invalid calls on purpose)
#   SANITIZER_TOOLS       (memcheck synccheck initcheck racecheck), SANITIZER_RUN_S (90: one run)
#   RELIABILITY_CORPUS    1: (a') always, 0: never (default: where the corpus is built);
#                         CORPUS_SANITIZER_JOBS (6 here), CORPUS_SANITIZER_RUN_S (see that script)
#   CUDA_HOME (/usr/local/cuda), COMPUTE_SANITIZER ($CUDA_HOME/bin/compute-sanitizer)
# Exit: 0 pass, 3 no GPU, 1 otherwise.  Documentation: docs/reliability.md.
#
set -u

cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
. "$ROOT/tests/gpu/sanitizer_count.sh"
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
FAULT_PROGRAMS=${FAULT_PROGRAMS:-"fault_illegal fault_capture fault_ipc_kill fault_fork fault_reset"}
FAULT_RUN_S=${FAULT_RUN_S:-60}
FAULTS_TORCH_S=${FAULTS_TORCH_S:-90}
PY=${PYTHON:-python3}
VARIANTS="nvidia minicudart"
TAIL=25                  # seconds kept for waiting on the soaks' last moments and the table
QUIET_FAULTS="fault_reset"   # (d)'s programs run after the soaks, on a quiet device
AFTER=0                  # seconds kept for what runs after the soaks (set in main) ...
RESERVE=0                # ... and kept by bounded and the loops while the soaks run
AFTER_QUIET_S=${AFTER_QUIET_S:-20}                 # fault_reset under both runtimes
FAULTS_TORCH_RESERVE_S=${FAULTS_TORCH_RESERVE_S:-60}   # faults_torch.py under both

START=$SECONDS
remaining() { echo $((BUDGET - (SECONDS - START))); }
# Runs "$@" with a timeout no longer than what is left before the tail and the time kept for
# after the soaks (RESERVE; at least 1 s).
bounded() {
    local limit=$1 left
    shift
    left=$(($(remaining) - TAIL - RESERVE))
    [ "$left" -lt "$limit" ] && limit=$left
    [ "$limit" -lt 1 ] && return 124
    timeout -k 5 "$limit" "$@"
}

# ---- build ----------------------------------------------------------------------------------

# Builds (through tests/gpu/run.sh) when a binary this script runs is missing.  run.sh starts
# by removing build-gpurun/bin, so the binaries of programs not named here are gone afterwards.
build() {
    local need="$SANITIZER_PROGRAMS soak_api stress_concurrency $FAULT_PROGRAMS" p v missing=""
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

# The python steps: where torch imports (PYTHONPATH gets /tmp/site, where tests/frameworks/run.sh
# installs the wheels it carries), with minicudart's libcudart.so.13 for LD_PRELOAD: the one
# run.sh builds beside libminicudart.a (build-gpurun/cmake), or tests/frameworks/run.sh's, or
# built here (Release, target minicudart_shared).  TORCH=1 when both are there.
TORCH=0
MC_SO=""
find_torch() {
    [ "${RELIABILITY_TORCH:-1}" = 0 ] && { echo "== python steps: off (RELIABILITY_TORCH=0)"; return; }
    [ -d /tmp/site ] && export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
    if ! timeout -k 5 120 "$PY" -c 'import torch' >"$OUT/torch_import.log" 2>&1; then
        echo "== python steps: skipped (no torch: $(tail -n 1 "$OUT/torch_import.log"))"
        return
    fi
    local so
    for so in "$W/cmake/lib/libcudart.so.13" "$W/frameworks/lib/libcudart.so.13"; do
        [ -f "$so" ] && { MC_SO=$so; break; }
    done
    if [ -z "$MC_SO" ]; then
        local gen=()
        command -v ninja >/dev/null && gen=(-G Ninja)
        { [ -f "$W/cmake/CMakeCache.txt" ] ||
            bounded 240 cmake -S "$ROOT" -B "$W/cmake" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
                -DMINICUDART_TESTS=OFF -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc"; } \
            >"$OUT/build_shared.log" 2>&1 &&
            bounded 240 cmake --build "$W/cmake" -j "$(nproc 2>/dev/null || echo 4)" \
                --target minicudart_shared >>"$OUT/build_shared.log" 2>&1
        MC_SO=$(find "$W/cmake" -name libcudart.so.13 2>/dev/null | head -n 1)
    fi
    if [ -z "$MC_SO" ]; then
        echo "== python steps: skipped (minicudart's libcudart.so.13 did not build: $OUT/build_shared.log)"
        return
    fi
    TORCH=1
    echo "== python steps: torch $("$PY" -c 'import torch; print(torch.__version__)' 2>/dev/null | tail -n 1), LD_PRELOAD=$MC_SO"
}
# The command line of a python step under runtime $1, into PYCMD (env execs python, so that $!
# is python's pid).
PYCMD=()
python_cmd() {
    local v=$1 script=$2
    PYCMD=(env "$PY" "$ROOT/$script")
    [ "$v" = minicudart ] && PYCMD=(env "LD_PRELOAD=$MC_SO" "$PY" "$ROOT/$script")
}

# ---- (b) the soaks, every runtime and soak at once ------------------------------------------

# The soaks: soak_api always, soak_torch where torch imports and tests/frameworks/soak_torch.py
# exists (set in main).  Each prints "soak sample <s> rss_kb <n> device_used_kb <n> fds <n>
# threads <n>" on stderr and PASS/FAIL lines on stdout; files $OUT/<soak>.<runtime>.{out,err,pid}.
SOAKS="soak_api"
SOAK_LEN=0
declare -A SOAK_PID
soak_start_one() {
    local soak=$1 v=$2 len=$3
    case $soak in
    soak_api)
        [ -x "$BIN/soak_api.$v" ] || return
        # Started directly (no timeout wrapper), so that $! is the program's pid, the one
        # nvidia-smi lists; its own alarm ends it at SOAK_TIMEOUT_S, and wait_soaks kills it
        # at the budget's end.
        SOAK_SECONDS=$len SOAK_SAMPLE_S=$SOAK_SAMPLE_S SOAK_TIMEOUT_S=$((len + 10)) \
            "$BIN/soak_api.$v" >"$OUT/$soak.$v.out" 2>"$OUT/$soak.$v.err" &
        ;;
    soak_torch)
        python_cmd "$v" tests/frameworks/soak_torch.py
        SOAK_SECONDS=$len SOAK_SAMPLE_S=$SOAK_SAMPLE_S SOAK_TIMEOUT_S=$((len + 30)) \
            "${PYCMD[@]}" >"$OUT/$soak.$v.out" 2>"$OUT/$soak.$v.err" &
        ;;
    esac
    SOAK_PID[$soak.$v]=$!
    echo "${SOAK_PID[$soak.$v]}" >"$OUT/$soak.$v.pid"
}

start_soaks() {
    SOAK_LEN=$SOAK_SECONDS
    # The soaks must end before the tail and what runs after them; the stress, the faults and
    # the sanitizer runs go on meanwhile.
    local most=$(($(remaining) - TAIL - 15 - AFTER))
    [ "$SOAK_LEN" -gt "$most" ] && SOAK_LEN=$most
    if [ "$SOAK_LEN" -lt 30 ]; then
        echo "== soak: skipped, ${most}s left"
        SOAK_LEN=0
        return
    fi
    local soak v
    for soak in $SOAKS; do
        for v in $VARIANTS; do
            soak_start_one "$soak" "$v" "$SOAK_LEN"
        done
    done
    echo "== soak: ${!SOAK_PID[*]} for ${SOAK_LEN}s, samples every ${SOAK_SAMPLE_S}s"
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
    local key pid rc
    for key in "${!SOAK_PID[@]}"; do
        pid=${SOAK_PID[$key]}
        # Waits up to the start of what runs after the soaks, plus a little, then kills.
        while kill -0 "$pid" 2>/dev/null && [ "$(($(remaining) - AFTER))" -gt 10 ]; do sleep 1; done
        kill -0 "$pid" 2>/dev/null && { kill -9 "$pid" 2>/dev/null; echo "== $key: killed at the soaks' end"; }
        wait "$pid"
        rc=$?
        SOAK_RC[$key]=$rc
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
# The samples' table and verdicts of one soak.
soak_report() {
    local soak=$1 v metric col allowance line first last slope n verdict
    declare -A verdicts
    for v in $VARIANTS; do
        [ -f "$OUT/$soak.$v.err" ] || continue
        for metric in rss_kb device_used_kb fds threads smi_mib; do
            case $metric in
            rss_kb) col=5 allowance=8192 ;;          # 8 MB
            device_used_kb) col=7 allowance=16384 ;; # 16 MB, the whole device's
            fds) col=9 allowance=0 ;;
            threads) col=11 allowance=0 ;;
            smi_mib) col=0 allowance=16 ;;           # MiB, this process's
            esac
            if [ "$metric" = smi_mib ]; then
                line=$(awk -v p="$(cat "$OUT/$soak.$v.pid" 2>/dev/null)" '$2 == p { print $1, $3 }' \
                    "$OUT/soak.smi" 2>/dev/null | trend)
            else
                line=$(awk -v c="$col" '$1 == "soak" && $2 == "sample" { print $3, $c }' \
                    "$OUT/$soak.$v.err" | trend)
            fi
            read -r first last slope n <<<"$line"
            verdict=$(grows "$first" "$last" "$allowance" "$slope")
            [ "$n" = 0 ] && verdict="no samples"
            verdicts[$v.$metric]=$verdict
            SOAK_ROWS+=("$(printf '%-10s %-10s %-15s first %-10s last %-10s slope/min %-9s (%s samples) %s' \
                "$soak" "$v" "$metric" "$first" "$last" "$slope" "$n" "$verdict")")
        done
    done
    # A measure that grows under minicudart and not under NVIDIA's runtime.
    for metric in rss_kb device_used_kb fds threads smi_mib; do
        if [ "${verdicts[minicudart.$metric]:-}" = grows ] && [ "${verdicts[nvidia.$metric]:-}" != grows ]; then
            SOAK_FAIL=$((SOAK_FAIL + 1))
            SOAK_ROWS+=("$soak: $metric grows under minicudart only: FAIL")
        fi
    done
}

# The line of one soak (into SOAK_LINES): exit codes, transcripts, iterations (soak_api's
# "soak iterations N").
SOAK_LINES=()
soak_line() {
    local soak=$1 v rcs="" its="" same=no res=PASS
    for v in $VARIANTS; do
        rcs="$rcs $v=${SOAK_RC[$soak.$v]:-none}"
        [ "${SOAK_RC[$soak.$v]:-}" = 2 ] && NOGPU=1
        its="$its $v=$(sed -n 's/^soak iterations \([0-9]*\).*/\1/p' "$OUT/$soak.$v.err" 2>/dev/null | tail -n 1)"
    done
    diff "$OUT/$soak.nvidia.out" "$OUT/$soak.minicudart.out" >"$OUT/$soak.diff" 2>&1 && same=yes
    if [ "${SOAK_RC[$soak.nvidia]:-}" != 0 ] || [ "${SOAK_RC[$soak.minicudart]:-}" != 0 ] || [ "$same" != yes ]; then
        res=FAIL
        SOAK_FAIL=$((SOAK_FAIL + 1))
    fi
    SOAK_LINES+=("$(printf '%s %ss (all soaks at once): exit%s, transcripts equal: %s, iterations%s: %s' \
        "$soak" "$SOAK_LEN" "$rcs" "$same" "$its" "$res")")
}

# ---- (c) the stress ---------------------------------------------------------------------------

STRESS_ROW=""
STRESS_FAIL=0
NOGPU=0
run_stress() {
    local len=$STRESS_SECONDS v rc rcs=""
    # Both runs, each with up to a minute of start and finish, before the tail.
    local most=$((($(remaining) - TAIL - RESERVE) / 2 - 60))
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

# ---- (d) faults in the middle of work -------------------------------------------------------

FAULT_ROWS=()
FAULT_FAIL=0
# One program (or python script, "py:<path>") under each runtime, transcripts with their exit
# codes compared: a row, PASS when NVIDIA's run passed and the transcripts are identical.
fault_pair() {
    local p=$1 limit=$2 name=${1#py:} v rc rcs="" same=no res=PASS
    name=${name##*/}
    name=${name%.py}
    for v in $VARIANTS; do
        if [ "${p#py:}" != "$p" ]; then
            python_cmd "$v" "${p#py:}"
            bounded "$limit" "${PYCMD[@]}" >"$OUT/fault.$name.$v.out" 2>"$OUT/fault.$name.$v.err"
        elif [ -x "$BIN/$p.$v" ]; then
            bounded "$limit" "$BIN/$p.$v" >"$OUT/fault.$name.$v.out" 2>"$OUT/fault.$name.$v.err"
        else
            echo "not built" >"$OUT/fault.$name.$v.out"
            false
        fi
        rc=$?
        echo "exit code $rc" >>"$OUT/fault.$name.$v.out"
        rcs="$rcs $v=$rc"
        [ "$rc" = 2 ] && NOGPU=1
    done
    diff "$OUT/fault.$name.nvidia.out" "$OUT/fault.$name.minicudart.out" >"$OUT/fault.$name.diff" && same=yes
    if ! grep -q '^exit code 0$' "$OUT/fault.$name.nvidia.out" || [ "$same" != yes ]; then
        res=FAIL
        FAULT_FAIL=$((FAULT_FAIL + 1))
        echo "== $name: NVIDIA's WRONG/FAIL lines and the first differences:"
        grep -E 'WRONG|FAIL' "$OUT/fault.$name.nvidia.out" | head -n 5
        head -n 10 "$OUT/fault.$name.diff"
    fi
    FAULT_ROWS+=("$(printf 'fault %-16s exit%s, transcripts equal: %s: %s' "$name" "$rcs" "$same" "$res")")
}

# (d) while the soaks run: every fault program but the quiet ones.
run_faults_busy() {
    local p
    for p in $FAULT_PROGRAMS; do
        case " $QUIET_FAULTS " in *" $p "*) continue ;; esac
        if [ "$(($(remaining) - TAIL - RESERVE))" -lt 20 ]; then
            FAULT_ROWS+=("fault $p: skipped (time)")
            FAULT_FAIL=$((FAULT_FAIL + 1))
            continue
        fi
        echo "== $p"
        fault_pair "$p" "$FAULT_RUN_S"
    done
}

# (d) after the soaks: the quiet programs, then faults_torch.py.
run_faults_quiet() {
    local p
    for p in $FAULT_PROGRAMS; do
        case " $QUIET_FAULTS " in *" $p "*) ;; *) continue ;; esac
        echo "== $p (after the soaks)"
        fault_pair "$p" "$FAULT_RUN_S"
    done
    if [ "$TORCH" = 1 ]; then
        if [ -f "$ROOT/tests/frameworks/faults_torch.py" ]; then
            echo "== faults_torch.py (after the soaks)"
            fault_pair py:tests/frameworks/faults_torch.py "$FAULTS_TORCH_S"
        else
            FAULT_ROWS+=("fault faults_torch: tests/frameworks/faults_torch.py not present")
        fi
    fi
}

# ---- (a) compute-sanitizer --------------------------------------------------------------------

declare -A SAN
SAN_SKIPPED=0
# One run: its count (sanitizer_count, tests/gpu/sanitizer_count.sh).
sanitize_one() {
    local tool=$1 p=$2 v=$3 log opts=() rc
    log=$OUT/san/$tool.$p.$v.log
    [ "$tool" = memcheck ] && opts=(--leak-check full)
    bounded "$SANITIZER_RUN_S" "$SANITIZER" --tool "$tool" "${opts[@]}" --log-file "$log" \
        "$BIN/$p.$v" >"$OUT/san/$tool.$p.$v.out" 2>&1
    rc=$?
    sanitizer_count "$log" "$rc"
}

# The programs of a tool: memcheck's begin with fault_reset (when (d) has it), whose leak check
# at cudaDeviceReset is (d)'s sanitizer pass.
san_programs() {
    if [ "$1" = memcheck ] && case " $FAULT_PROGRAMS " in *" fault_reset "*) true ;; *) false ;; esac; then
        echo "fault_reset $SANITIZER_PROGRAMS"
    else
        echo "$SANITIZER_PROGRAMS"
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
        for p in $(san_programs "$tool"); do
            for v in $VARIANTS; do
                if [ ! -x "$BIN/$p.$v" ]; then
                    SAN[$tool.$p.$v]=build
                elif [ "$(($(remaining) - TAIL - RESERVE))" -lt 15 ]; then
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

san_report() {
    local tool p nv mc n m verdict pairs=0 equal=0
    for tool in $SANITIZER_TOOLS; do
        for p in $(san_programs "$tool"); do
            nv=${SAN[$tool.$p.nvidia]:-}
            mc=${SAN[$tool.$p.minicudart]:-}
            [ -z "$nv$mc" ] && continue
            pairs=$((pairs + 1))
            n=$(sanitizer_errors "$nv")
            m=$(sanitizer_errors "$mc")
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

# ---- (a') compute-sanitizer over the public corpus, in the background -------------------------

CORPUS_PID=""
CORPUS_ROWS=()
CORPUS_FAIL=0
start_corpus_sanitizer() {
    local want=${RELIABILITY_CORPUS:-}
    if [ -z "$want" ]; then
        want=0
        ls "$W"/corpus/bin/*/*.minicudart >/dev/null 2>&1 && want=1
    fi
    [ "$want" = 1 ] || return
    # Ends with the soaks (its budget is a hard end), or with what is left when there are none.
    local budget=$SOAK_LEN
    [ "$budget" -gt 0 ] || budget=$(($(remaining) - TAIL - RESERVE))
    echo "== corpus sanitizer: tests/gpu/corpus_sanitizer.sh in the background, ${budget}s"
    CORPUS_SANITIZER_BUDGET_S=$budget CORPUS_SANITIZER_JOBS=${CORPUS_SANITIZER_JOBS:-6} \
        "$ROOT/tests/gpu/corpus_sanitizer.sh" >"$OUT/corpus_sanitizer.log" 2>&1 &
    CORPUS_PID=$!
}
wait_corpus_sanitizer() {
    [ -n "$CORPUS_PID" ] || return
    while kill -0 "$CORPUS_PID" 2>/dev/null && [ "$(($(remaining) - AFTER))" -gt 10 ]; do sleep 1; done
    kill -0 "$CORPUS_PID" 2>/dev/null && { kill "$CORPUS_PID" 2>/dev/null; echo "== corpus sanitizer: killed at the soaks' end"; }
    wait "$CORPUS_PID"
    local rc=$?
    tar -C "$W/corpus" -czf "$OUT/corpus_sanitizer_logs.tgz" sanitizer 2>/dev/null
    # Its table (the lines after its "== compute-sanitizer over the public corpus" header) less
    # the pairs with the same count: the whole table is in corpus_sanitizer.log.
    mapfile -t CORPUS_ROWS < <(sed -n '/^== compute-sanitizer over the public corpus/,$p' \
        "$OUT/corpus_sanitizer.log" | grep -v ' same$')
    [ ${#CORPUS_ROWS[@]} -gt 0 ] || CORPUS_ROWS=("corpus sanitizer: no table (exit $rc; $OUT/corpus_sanitizer.log)")
    [ "$rc" = 0 ] || CORPUS_FAIL=1
}

# ---- main -----------------------------------------------------------------------------------

main() {
    rm -rf "${OUT:?}/san" "$OUT"/soak* "$OUT"/stress.* "$OUT"/fault.*
    mkdir -p "$OUT"
    echo "== tests/gpu/reliability.sh: $(date -u +%FT%TZ), budget ${BUDGET}s"
    echo "== $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') $(git -C "$ROOT" status --short 2>/dev/null | wc -l) changed files"
    if command -v nvidia-smi >/dev/null; then
        nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 2
    elif [ ! -e /dev/nvidia0 ]; then
        # Nothing to build for: say so at once (the programs would say it too, minutes later).
        echo "(no nvidia-smi, no /dev/nvidia0)"
        echo "RESULT: NO GPU"
        return 3
    else
        echo "(no nvidia-smi)"
    fi
    "$SANITIZER" --version 2>/dev/null | tail -n 1

    local build_rc=0
    build || build_rc=$?
    find_torch
    local notes=()
    if [ "$TORCH" = 1 ]; then
        if [ -f "$ROOT/tests/frameworks/soak_torch.py" ]; then
            SOAKS="soak_api soak_torch"
        else
            notes+=("soak_torch: tests/frameworks/soak_torch.py not present")
        fi
    fi
    AFTER=$AFTER_QUIET_S
    [ "$TORCH" = 1 ] && [ -f "$ROOT/tests/frameworks/faults_torch.py" ] &&
        AFTER=$((AFTER + FAULTS_TORCH_RESERVE_S))
    RESERVE=$AFTER
    start_soaks
    start_corpus_sanitizer
    run_stress
    run_faults_busy
    run_sanitizers
    [ "$SOAK_LEN" -gt 0 ] && wait_soaks
    wait_corpus_sanitizer
    RESERVE=0
    run_faults_quiet

    local soak
    if [ "$SOAK_LEN" -gt 0 ]; then
        for soak in $SOAKS; do
            soak_report "$soak"
            soak_line "$soak"
        done
    else
        SOAK_FAIL=1
        SOAK_LINES=("soak: skipped (time)")
    fi
    san_report

    {
        echo
        echo "== minicudart reliability (issue 18): $((SECONDS - START))s of ${BUDGET}s; logs in $OUT"
        [ "$build_rc" = 0 ] || echo "build: FAILED (rc $build_rc; $OUT/build.log)"
        printf '%s\n' "${SAN_ROWS[@]}"
        [ ${#CORPUS_ROWS[@]} -gt 0 ] && printf '%s\n' "${CORPUS_ROWS[@]}"
        printf '%s\n' "${SOAK_ROWS[@]}"
        printf '%s\n' "${SOAK_LINES[@]}"
        echo "$STRESS_ROW"
        printf '%s\n' "${FAULT_ROWS[@]}"
        [ ${#notes[@]} -gt 0 ] && printf '%s\n' "${notes[@]}"
    } | tee "$OUT/summary.txt"
    tar -C "$OUT" -czf "$OUT/logs.tar.gz" --exclude logs.tar.gz . 2>/dev/null
    if [ "$NOGPU" = 1 ]; then echo "RESULT: NO GPU"; return 3; fi
    local failures=$((SAN_FAIL + CORPUS_FAIL + SOAK_FAIL + STRESS_FAIL + FAULT_FAIL + (build_rc != 0)))
    if [ "$failures" -gt 0 ]; then echo "RESULT: $failures FAIL"; return 1; fi
    echo "RESULT: PASS"
}

mkdir -p "$OUT"
main "$@" 2>&1 | tee "$OUT/run.log"
exit "${PIPESTATUS[0]}"
