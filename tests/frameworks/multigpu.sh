#!/usr/bin/env bash
# tests/frameworks/multigpu.sh - PyTorch on two GPUs under minicudart (issue 21).
#
# Needs a machine with two or more GPUs (the nvidia-h200-x2 kind); with fewer it prints
# "RESULT: NEEDS 2 GPUS" and exits 3 before building anything.
#   1. builds minicudart's shared library as tests/frameworks/run.sh does (Release,
#      build-gpurun/frameworks, target minicudart_shared; run.sh cannot be sourced, it runs);
#   2. runs, under NVIDIA's runtime and then with minicudart's libcudart.so.13 in LD_PRELOAD:
#        torchrun --standalone --nproc_per_node 2 tests/frameworks/ddp_train.py
#          (all-reduce of 64 MiB, DDP, FSDP; LD_PRELOAD is exported, so torchrun's two ranks
#          both load minicudart)
#        python3 tests/frameworks/two_gpu.py   (one process: model on cuda:0, loss on cuda:1)
#   3. runs both again with minicudart and MINICUDART_TRACE=1, --quick (the trace prints every
#      launch, so these runs are not timed), stderr to files; counts the "minicudart: " lines
#      (minicudart served the run) and those saying error or fail, apart from cudaErrorNotReady
#      (a query's "not yet", not a failure); the distinct ones are listed;
#   4. compares the RESULT lines of step 2 with tests/frameworks/compare.py (losses with the
#      rtol the scripts print), and the step times: the median step time under minicudart
#      over NVIDIA's, per run (ddp, fsdp, split), within 2% (ratio <= 1.02) or not;
#   5. prints a table LAST: per run the comparison, the step times and their ratio, the
#      all-reduce bus bandwidth and the peer copy bandwidth under each runtime, the trace counts,
#      then "RESULT: PASS" or "RESULT: FAIL".
#
# usage (on the GPU machine, from the repository root):  tests/frameworks/multigpu.sh
# environment: MULTIGPU_TIMEOUT_S (one run, 150), MULTIGPU_DEADLINE_S (420: runs not begun by
#   then are skipped and none runs past it by more than 50 s, so that the table comes within
#   8 minutes, the build included), FRAMEWORK_BUILD
#   (build-gpurun/frameworks), PYTHON (python3), OUT (when set, the outputs go there as
#   multigpu_logs.tgz), MULTIGPU_CPU=1 (tests this script's plumbing on a machine without GPUs:
#   no build, no preload, both "runtimes" run the scripts with --device cpu; not a result).
# Exit: 0 PASS (RESULT lines equal, every run exited 0, minicudart traced and no error in its
#   trace, every step time within 2%); 1 FAIL; 3 fewer than 2 GPUs.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
W=${FRAMEWORK_BUILD:-$ROOT/build-gpurun/frameworks}
PY=${PYTHON:-python3}
RUN_TIMEOUT=${MULTIGPU_TIMEOUT_S:-150}
DEADLINE=${MULTIGPU_DEADLINE_S:-420}
CPU=${MULTIGPU_CPU:-0}
START=$SECONDS

if [ "$CPU" != 1 ]; then
    NGPU=0
    command -v nvidia-smi >/dev/null && NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
    if [ "$NGPU" -lt 2 ]; then
        echo "== tests/frameworks/multigpu.sh: $NGPU GPU(s) here; issue 21's runs need two"
        echo "RESULT: NEEDS 2 GPUS"
        exit 3
    fi
fi

R=$W/multigpu
rm -rf "$R"
mkdir -p "$R"
# As run.sh: NVLink multicast stays off on the GPU machines.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
unset PYTORCH_CUDA_ALLOC_CONF PYTORCH_ALLOC_CONF CUDA_LAUNCH_BLOCKING MINICUDART_TRACE LD_PRELOAD
echo "== tests/frameworks/multigpu.sh: $(date -u +%FT%TZ)"
command -v nvidia-smi >/dev/null &&
    nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>&1 | head -n 8

# 1. minicudart's libcudart.so.13 (the lines of run.sh's step 1)
MC_SO=
if [ "$CPU" != 1 ]; then
    gen=()
    command -v ninja >/dev/null && gen=(-G Ninja)
    if { [ -f "$W/CMakeCache.txt" ] ||
         cmake -S "$ROOT" -B "$W" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DMINICUDART_TESTS=OFF; } \
            >"$R/build.log" 2>&1 &&
       cmake --build "$W" -j "$(nproc 2>/dev/null || echo 4)" --target minicudart_shared \
            >>"$R/build.log" 2>&1; then
        MC_SO=$W/lib/libcudart.so.13
        [ -f "$MC_SO" ] || MC_SO=$(find "$W" -name libcudart.so.13 -not -path '*/multigpu/*' | head -n 1)
    fi
    if [ -z "$MC_SO" ] || [ ! -f "$MC_SO" ]; then
        echo "== minicudart did not build:"; tail -n 20 "$R/build.log"
        echo "RESULT: FAIL (minicudart did not build)"
        exit 1
    fi
    echo "== minicudart: $MC_SO ($((SECONDS - START))s)"
fi
"$PY" -c "import torch; print('== torch', torch.__version__, 'CUDA', torch.version.cuda)" 2>&1 | tail -n 1

DEVARGS=()
[ "$CPU" = 1 ] && DEVARGS=(--device cpu)
declare -A RC
run() {      # workload runtime tag [args...]: one run, out/err under $R
    local wl=$1 rt=$2 tag=$3 t0=$SECONDS; shift 3
    local f=$R/$wl.$tag cmd
    case $wl in
    ddp) cmd=("$PY" -m torch.distributed.run --standalone --nproc_per_node 2
              "$ROOT/tests/frameworks/ddp_train.py") ;;
    two_gpu) cmd=("$PY" "$ROOT/tests/frameworks/two_gpu.py") ;;
    esac
    if [ $((SECONDS - START)) -ge "$DEADLINE" ]; then
        echo "   $wl $tag: skipped, past the deadline"; RC[$wl.$tag]=skipped; return
    fi
    # A run may take RUN_TIMEOUT, but none ends later than 50 s past the deadline.
    local lim=$((DEADLINE + 50 - (SECONDS - START)))
    [ "$lim" -gt "$RUN_TIMEOUT" ] && lim=$RUN_TIMEOUT
    [ "$lim" -lt 10 ] && lim=10
    (
        if [ "$rt" = minicudart ] && [ -n "$MC_SO" ]; then export LD_PRELOAD=$MC_SO; fi
        [ "$tag" = trace ] && export MINICUDART_TRACE=1
        exec timeout -k 10 "$lim" "${cmd[@]}" "${DEVARGS[@]}" "$@"
    ) </dev/null >"$f.out" 2>"$f.err"
    RC[$wl.$tag]=$?
    echo "   $wl $tag: exit ${RC[$wl.$tag]}, $((SECONDS - t0))s, $(grep -c '^RESULT ' "$f.out") RESULT lines"
}

# 2. and 3.
for wl in ddp two_gpu; do
    run "$wl" nvidia nvidia
    run "$wl" minicudart minicudart
    run "$wl" minicudart trace --quick
done
echo "== all runs done at $((SECONDS - START))s"

# 4. the comparisons, then the table
timing() {   # file name -> the median step time in ms, or -
    local v
    v=$(awk -v n="$2" '$1 == "#" && $2 == "TIMING" && $3 == n {
            for (i = 4; i <= NF; i++) if ($i ~ /^step_ms=/) { sub(/^step_ms=/, "", $i); print $i } }' "$1" 2>/dev/null | tail -n 1)
    echo "${v:--}"
}
note() {     # file tag key -> the value of key= on the '# TAG' line, or -
    local v
    v=$(awk -v t="$2" -v k="$3=" '$1 == "#" && $2 == t {
            for (i = 3; i <= NF; i++) if (index($i, k) == 1) print substr($i, length(k) + 1) }' "$1" 2>/dev/null | tail -n 1)
    echo "${v:--}"
}
FAIL=0
ROWS=()
for wl in ddp two_gpu; do
    done_marker=$([ "$wl" = ddp ] && echo "DDP DONE" || echo "TWO_GPU DONE")
    eq=no
    "$PY" "$ROOT/tests/frameworks/compare.py" results "$R/$wl.nvidia.out" "$R/$wl.minicudart.out" \
        --name "$wl" --done "$done_marker" >"$R/$wl.compare.txt" 2>&1 && eq=yes
    cat "$R/$wl.compare.txt"
    [ "$eq" = yes ] || FAIL=1
    for tag in nvidia minicudart trace; do
        if [ "${RC[$wl.$tag]}" = skipped ]; then
            echo "   $wl $tag: not run (past the deadline)"
            FAIL=1
        elif [ "${RC[$wl.$tag]}" != 0 ]; then
            echo "   $wl $tag exited ${RC[$wl.$tag]}; the end of its stderr:"
            grep -v '^minicudart: ' "$R/$wl.$tag.err" | tail -n 8 | sed 's/^/     /'
            FAIL=1
        fi
    done
    err=$R/$wl.trace.err
    served=$(grep -c '^minicudart: ' "$err" 2>/dev/null)
    bad=$(grep '^minicudart: ' "$err" 2>/dev/null | grep -iE 'error|fail' | grep -vc 'cudaErrorNotReady')
    notready=$(grep '^minicudart: ' "$err" 2>/dev/null | grep -c 'cudaErrorNotReady')
    echo "== $wl trace (minicudart, --quick): ${served:-0} lines, ${bad:-0} saying error/fail," \
         "${notready:-0} cudaErrorNotReady (not counted)"
    grep '^minicudart: ' "$err" 2>/dev/null | grep -iE 'error|fail' | grep -v 'cudaErrorNotReady' |
        sed -E 's/0x[0-9a-f]+/0x?/g; s/[0-9]+/N/g' | sort | uniq -c | sort -rn | head -n 10 | sed 's/^/     /'
    if [ "$CPU" != 1 ] && { [ "${served:-0}" -le 0 ] || [ "${bad:-0}" -gt 0 ]; }; then FAIL=1; fi
    names=$([ "$wl" = ddp ] && echo "ddp fsdp" || echo "split")
    for n in $names; do
        a=$(timing "$R/$wl.nvidia.out" "$n")
        b=$(timing "$R/$wl.minicudart.out" "$n")
        ratio=-; verdict=-
        if [ "$a" != - ] && [ "$b" != - ]; then
            ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
            verdict=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.02 ? "within_2%" : "SLOWER") }')
        fi
        [ "$verdict" = within_2% ] || FAIL=1
        ROWS+=("$n $eq $a $b $ratio $verdict ${served:-0} ${bad:-0}")
    done
done
# 4b. an exit with no table is no result; the outputs go to $OUT
tar -C "$R" -czf "$W/multigpu_logs.tgz" . 2>/dev/null
if [ -n "${OUT:-}" ]; then mkdir -p "$OUT" && cp "$W/multigpu_logs.tgz" "$OUT/"; fi

# 5. the table, last
echo
echo "== issue 21: two GPUs, NVIDIA's runtime against minicudart$([ "$CPU" = 1 ] && echo ' (MULTIGPU_CPU=1: plumbing test on the CPU, not a result)')"
printf '%-6s %-6s %12s %12s %7s %-10s %8s %8s\n' run equal "NVIDIA ms" "mini ms" ratio "step time" "trace" "errors"
for row in "${ROWS[@]}"; do
    # shellcheck disable=SC2086 # the row's fields
    printf '%-6s %-6s %12s %12s %7s %-10s %8s %8s\n' $row
done
echo "all-reduce 64 MiB busbw GB/s: NVIDIA $(note "$R/ddp.nvidia.out" ALLREDUCE busbw_GBps)," \
     "minicudart $(note "$R/ddp.minicudart.out" ALLREDUCE busbw_GBps)" \
     "(algbw $(note "$R/ddp.nvidia.out" ALLREDUCE algbw_GBps) / $(note "$R/ddp.minicudart.out" ALLREDUCE algbw_GBps))"
echo "peer copy cuda:0 -> cuda:1 GB/s: NVIDIA $(note "$R/two_gpu.nvidia.out" PEERCOPY GBps)," \
     "minicudart $(note "$R/two_gpu.minicudart.out" PEERCOPY GBps)"
echo "total $((SECONDS - START))s; outputs in $W/multigpu_logs.tgz${OUT:+ and \$OUT}"
if [ "$CPU" = 1 ]; then
    echo "RESULT: PLUMBING ONLY (MULTIGPU_CPU=1)"
    exit "$FAIL"
fi
echo "RESULT: $([ "$FAIL" = 0 ] && echo PASS || echo FAIL)"
exit "$FAIL"
