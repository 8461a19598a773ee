#!/usr/bin/env bash
# bench/pytorch/anatomy.sh - the measurements of docs/pytorch.md ("Anatomy, part 2"), on the GPU
# machine (where PyTorch is installed), with minicudart's libcudart.so.13 preloaded.
#
# Each phase runs in its own process (bench/pytorch/anatomy.py says what each does), with
# MINICUDART_SUMMARY=all (every runtime function's calls and host time at exit) and, where the
# phase needs the timeline, MINICUDART_TRACE=FILE.json:
#   import          `import torch`, timed, summary only
#   import_trace    the same with the timeline: which library registered which fatbin
#   step_lazy       setup, warm-up step, measured step, the step under torch.profiler; timeline
#   step_eager      the same with CUDA_MODULE_LOADING=EAGER (the README's `--eager`)
#   steps_M_0/_n    M = eager, graph (torch.cuda.CUDAGraph), compile (mode="reduce-overhead"):
#                   set up and warm up, then 0 or ANATOMY_STEPS steps; the difference of both
#                   processes' summaries, divided by the steps, is what one step costs
#                   (steps_compile_warm, run first, fills inductor's cache for both)
# Then bench/pytorch/anatomy_report.py analyses everything into results.json, tools/
# trace_image.py draws the measured step's timeline as pytorch_step.svg, and the table comes
# last.  Each phase has a timeout, and all of them a deadline (ANATOMY_DEADLINE_S, 165 s from the
# start of the first phase), so the table always prints; a phase cut short shows as "n/a".
#
# usage (repository root):  bash bench/pytorch/anatomy.sh
# environment: ANATOMY_OUT (where every file goes; default build-bench/anatomy/out), ANATOMY_STEPS (20),
#              ANATOMY_DEADLINE_S (165), PYTHON (python3), MINICUDART_LIB (a built
#              libcudart.so.13; default: build it in build-bench/anatomy),
#              OUT (if set: results.json, pytorch_step.svg, table.txt and anatomy_raw.tar.gz, the
#              rest, are copied there)
# Afterwards: python3 bench/pytorch/anatomy_report.py fill DIR   (DIR holding results.json and
#             pytorch_step.svg: fills docs/pytorch.md, copies the picture to docs/img/)
set -u
cd "$(dirname "$0")/../.." || exit 1
W=build-bench/anatomy
D=${ANATOMY_OUT:-$W/out}
PY=${PYTHON:-python3}
STEPS=${ANATOMY_STEPS:-20}
mkdir -p "$W" "$D"
LIB=${MINICUDART_LIB:-}
if [ -z "$LIB" ]; then
    cmake -S . -B "$W/cmake" -DCMAKE_BUILD_TYPE=Release -DMINICUDART_TESTS=OFF >"$W/build.log" 2>&1 &&
        cmake --build "$W/cmake" -j "$(nproc)" --target minicudart_shared >>"$W/build.log" 2>&1 ||
        { echo "build failed: $W/build.log"; tail -20 "$W/build.log"; exit 1; }
    LIB=$W/cmake/lib/libcudart.so.13
fi
LIB=$(realpath "$LIB")
END=$(( $(date +%s) + ${ANATOMY_DEADLINE_S:-165} ))

# phase TAG LIMIT_S [VAR=VALUE...] -- ARGS: one anatomy.py process, cut at LIMIT_S or the deadline.
phase() {
    local tag=$1 limit=$2 left
    shift 2
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    left=$(( END - $(date +%s) ))
    [ "$left" -lt "$limit" ] && limit=$left
    if [ "$limit" -le 5 ]; then
        echo "phase $tag: skipped, the deadline has passed" | tee "$D/$tag.err"
        return
    fi
    local t0
    t0=$(date +%s%N)
    env LD_PRELOAD="$LIB" MINICUDART_SUMMARY=all ${envs[@]+"${envs[@]}"} \
        timeout -k 5 "$limit" "$PY" bench/pytorch/anatomy.py "$1" "$tag" "$D" "${@:2}" \
        >"$D/$tag.out" 2>"$D/$tag.err"
    local rc=$?
    printf 'phase %-16s exit %3d  %6d ms\n' "$tag" "$rc" $(( ($(date +%s%N) - t0) / 1000000 ))
}

rm -f "$D"/import* "$D"/step_* "$D"/steps_* "$D"/results.json "$D"/table.txt "$D"/image.txt \
      "$D"/report.err "$D"/pytorch_step.svg
phase import 40 -- import
phase import_trace 40 MINICUDART_TRACE="$D/import_trace.trace.json" -- import
phase step_lazy 50 MINICUDART_TRACE="$D/step_lazy.trace.json" -- step
phase step_eager 50 CUDA_MODULE_LOADING=EAGER MINICUDART_TRACE="$D/step_eager.trace.json" -- step
for mode in eager graph; do
    phase "steps_${mode}_0" 30 -- steps "$mode" 0
    phase "steps_${mode}_n" 30 -- steps "$mode" "$STEPS"
done
# A compile process finds the kernels of those before it in inductor's cache and compiles less;
# so a first one (not analysed) fills the cache, and the two that are compared both find it full
# and set up alike.
phase steps_compile_warm 90 -- steps compile 0
phase steps_compile_0 60 -- steps compile 0
phase steps_compile_n 60 -- steps compile "$STEPS"

"$PY" bench/pytorch/anatomy_report.py analyse "$D" >"$D/table.txt" 2>"$D/report.err"
window=$("$PY" -c 'import json,sys; w=json.load(open(sys.argv[1])).get("step.window"); print("%f %f" % tuple(w) if w else "")' \
         "$D/results.json" 2>/dev/null)
if [ -n "$window" ]; then
    # shellcheck disable=SC2086
    "$PY" tools/trace_image.py "$D/step_lazy.trace.json" -o "$D/pytorch_step.svg" --window $window \
        --title "one training step of a small GPT on minicudart (PyTorch, H200): the runtime's trace" \
        >"$D/image.txt" 2>&1 || echo "trace_image failed: $D/image.txt"
fi
# $OUT (the GPU machine's return folder) takes few files: the results, the picture, the table
# and everything else in one compressed archive.
if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    cp "$D/results.json" "$D/table.txt" "$OUT/" 2>/dev/null
    [ -f "$D/pytorch_step.svg" ] && cp "$D/pytorch_step.svg" "$OUT/"
    tar -C "$D" -czf "$OUT/anatomy_raw.tar.gz" . 2>/dev/null
    if [ "$(stat -c %s "$OUT/anatomy_raw.tar.gz")" -gt 15000000 ]; then
        tar -C "$D" -czf "$OUT/anatomy_raw.tar.gz" --exclude='*.trace.json' --exclude='*.prof.json' .
    fi
    ls -la "$OUT" | sed 's/^/OUT: /'
fi
du -sh "$D" 2>/dev/null | sed 's/^/output: /'
cat "$D/report.err" "$D/table.txt"
