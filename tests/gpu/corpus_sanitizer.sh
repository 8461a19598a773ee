#!/usr/bin/env bash
# tests/gpu/corpus_sanitizer.sh - issue 18's compute-sanitizer step over the public corpus: the
# programs by others that tests/gpu/corpus.sh builds (NVIDIA/cuda-samples and llm.c's
# layernorm_forward), each under NVIDIA's runtime (<name>.nvidia, -cudart=shared) and under
# minicudart (<name>.minicudart, the same objects relinked against libminicudart.a), with
# memcheck --leak-check full, synccheck, initcheck and racecheck.
#
# A report is counted per tool, program and runtime (tests/gpu/sanitizer_count.sh); minicudart
# with more reports than NVIDIA's runtime for the same program, or other leaked bytes, fails.
# Where the counts differ, the first report lines of each log are printed, so the difference can
# be read without the logs.  tests/gpu/reliability.sh does the same over the GPU suite's own
# programs, one at a time while its soaks run; these runs have the machine to themselves and go
# CORPUS_SANITIZER_JOBS at a time (every run is a process of its own with its own context; the
# counts do not depend on the others).
#
# Binaries: build-gpurun/corpus/bin/<name>/ (CORPUS_BUILD), as `SAMPLES_COMPILE_ONLY=1
# tests/gpu/corpus.sh` leaves them (it can run on a machine without a GPU, and the bin folder be
# carried); when none is there this script runs that first (sources in .gpu/, see corpus.sh).
# Each run happens in the program's own folder (its data files beside it).  vectorAdd_nvrtc
# has no runtime at all (NVRTC and the driver only) and is left out.
#
# usage (on the GPU machine):  tests/gpu/corpus_sanitizer.sh
# environment: CORPUS_SANITIZER_ONLY (program names; default every built one),
#              CORPUS_SANITIZER_TOOLS (memcheck synccheck initcheck racecheck),
#              CORPUS_SANITIZER_JOBS (runs at once, 8), CORPUS_SANITIZER_RUN_S (one run, 150),
#              CORPUS_SANITIZER_BUDGET_S (the whole script, 480: no run goes past it, and
#              those not begun are listed as skipped), CORPUS_BUILD, CUDA_HOME, COMPUTE_SANITIZER, OUT (when set,
#              the logs go there as corpus_sanitizer_logs.tgz).
# Exit: 0 no program has more reports under minicudart, 1 otherwise (or nothing ran),
#       3 no GPU.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
. "$ROOT/tests/gpu/sanitizer_count.sh"
W=${CORPUS_BUILD:-$ROOT/build-gpurun/corpus}
case $W in /*) ;; *) W=$ROOT/$W ;; esac
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
SANITIZER=${COMPUTE_SANITIZER:-$CUDA_HOME/bin/compute-sanitizer}
TOOLS=${CORPUS_SANITIZER_TOOLS:-"memcheck synccheck initcheck racecheck"}
JOBS=${CORPUS_SANITIZER_JOBS:-8}
RUN_S=${CORPUS_SANITIZER_RUN_S:-150}
BUDGET=${CORPUS_SANITIZER_BUDGET_S:-480}
L=$W/sanitizer
START=$SECONDS

if ! command -v nvidia-smi >/dev/null && [ ! -e /dev/nvidia0 ]; then
    echo "corpus_sanitizer.sh: no nvidia-smi, no /dev/nvidia0"
    echo "RESULT: NO GPU"
    exit 3
fi
[ -x "$SANITIZER" ] || { echo "corpus_sanitizer.sh: no compute-sanitizer at $SANITIZER"; echo "RESULT: FAIL"; exit 1; }
if ! ls "$W"/bin/*/*.minicudart >/dev/null 2>&1; then
    echo "== no corpus binaries in $W/bin: SAMPLES_COMPILE_ONLY=1 tests/gpu/corpus.sh"
    SAMPLES_COMPILE_ONLY=1 CORPUS_BUILD=$W "$ROOT/tests/gpu/corpus.sh" | tail -n 25
fi
NAMES=${CORPUS_SANITIZER_ONLY:-$(for b in "$W"/bin/*/*.minicudart; do basename "${b%.minicudart}"; done)}
rm -rf "$L"
mkdir -p "$L"
echo "== tests/gpu/corpus_sanitizer.sh: $(date -u +%FT%TZ), $JOBS at once, ${RUN_S}s a run, budget ${BUDGET}s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1
"$SANITIZER" --version 2>/dev/null | tail -n 1

# One run into $L/<tool>.<name>.<runtime>.{log,out,count}.
run_one() {
    local tool=$1 name=$2 v=$3 limit=$4 opts=() rc
    [ "$tool" = memcheck ] && opts=(--leak-check full)
    ( cd "$W/bin/$name" &&
        timeout -k 5 "$limit" "$SANITIZER" --tool "$tool" "${opts[@]}" \
            --log-file "$L/$tool.$name.$v.log" "./$name.$v" ) </dev/null >"$L/$tool.$name.$v.out" 2>&1
    rc=$?
    echo "$(sanitizer_count "$L/$tool.$name.$v.log" "$rc") $rc $limit" >"$L/$tool.$name.$v.count"
}

# Tool by tool, memcheck first (what the budget cuts is the least important), both runtimes of a
# program one after the other.
throttle() { while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n 2>/dev/null || sleep 1; done; }
for tool in $TOOLS; do
    for name in $NAMES; do
        for v in nvidia minicudart; do
            if [ ! -x "$W/bin/$name/$name.$v" ]; then
                echo "build -" >"$L/$tool.$name.$v.count"
                continue
            fi
            throttle
            # A run's timeout is RUN_S or what is left of the budget, whichever is less: the
            # script ends within the budget (plus the table); with under 20 s left, no new run.
            limit=$((BUDGET - 10 - (SECONDS - START)))
            [ "$limit" -gt "$RUN_S" ] && limit=$RUN_S
            if [ "$limit" -lt 20 ]; then
                echo "skip -" >"$L/$tool.$name.$v.count"
                continue
            fi
            run_one "$tool" "$name" "$v" "$limit" &
        done
    done
    echo "== $tool: all started by $((SECONDS - START))s"
done
wait

# The first distinct report headers of a log ("========= Invalid __global__ read ...", the API
# error lines, the leak lines), for a pair whose counts differ.
firsts() {
    grep -aE '^========= [A-Z]' "$1" 2>/dev/null | grep -vE 'SUMMARY|^========= (COMPUTE-SANITIZER|Target|Program hit|Saved host)' |
        sed -E 's/0x[0-9a-f]+/0x#/g; s/[0-9]+ bytes/# bytes/g' | sort | uniq -c | sort -rn | head -n 4
}

rows=()
pairs=0 equal=0 fail=0 skipped=0 unmeasured=0
for tool in $TOOLS; do
    for name in $NAMES; do
        read -r nv nvrc _ <"$L/$tool.$name.nvidia.count"
        read -r mc mcrc mclimit <"$L/$tool.$name.minicudart.count"
        pairs=$((pairs + 1))
        n=$(sanitizer_errors "$nv")
        m=$(sanitizer_errors "$mc")
        if [ "$nv" = "$mc" ] && [ -n "$n" ] && [ "$nvrc" = "$mcrc" ]; then
            equal=$((equal + 1))
            rows+=("$(printf '%-10s %-24s %-14s %-14s %s' "$tool" "$name" "$nv" "$mc" same)")
            continue
        fi
        if [ "$nv" = skip ] || [ "$mc" = skip ]; then
            verdict="skipped (budget)"; skipped=$((skipped + 1))
        elif [ "$mc" = T/O ] && [ -n "$n" ] && [ "${mclimit:-0}" = "$RUN_S" ]; then
            verdict="past ${RUN_S}s under minicudart only: FAIL"; fail=$((fail + 1))
        elif [ "$nv" = T/O ] || [ "$mc" = T/O ]; then
            # Cut by its timeout (RUN_S, or the end of the budget): not a count to compare.
            verdict="not measured: cut by the time limit"; unmeasured=$((unmeasured + 1))
        elif [ -n "$n" ] && [ -n "$m" ] && [ "$m" -lt "$n" ]; then
            verdict="fewer under minicudart"
        elif [ -n "$n" ] && [ -n "$m" ] && [ "$m" = "$n" ] && [ "$nvrc" = "$mcrc" ]; then
            verdict="leaks differ: FAIL"; fail=$((fail + 1))
        elif [ -n "$n" ] && [ -n "$m" ] && [ "$m" = "$n" ]; then
            verdict="exit codes differ ($nvrc, $mcrc): FAIL"; fail=$((fail + 1))
        else
            verdict=FAIL; fail=$((fail + 1))
        fi
        rows+=("$(printf '%-10s %-24s %-14s %-14s %s' "$tool" "$name" "$nv" "$mc" "$verdict")")
        case $verdict in
        skipped*) ;;
        *)  echo "== $tool $name: NVIDIA $nv (exit $nvrc), minicudart $mc (exit $mcrc)"
            echo "   NVIDIA's first reports:"; firsts "$L/$tool.$name.nvidia.log" | sed 's/^/     /'
            echo "   minicudart's first reports:"; firsts "$L/$tool.$name.minicudart.log" | sed 's/^/     /' ;;
        esac
    done
done
[ -n "${OUT:-}" ] && mkdir -p "$OUT" && tar -C "$W" -czf "$OUT/corpus_sanitizer_logs.tgz" sanitizer 2>/dev/null

echo
echo "== compute-sanitizer over the public corpus ($((SECONDS - START))s; logs in $L)"
echo "   counts: errors (hazards for racecheck), +<bytes>B leaked, T/O cut by the time limit, rc<n> no summary"
printf '%-10s %-24s %-14s %-14s %s\n' tool program NVIDIA minicudart verdict
printf '%s\n' "${rows[@]}"
echo "pairs $pairs: same $equal, FAIL $fail, skipped $skipped, not measured $unmeasured"
if [ "$fail" -gt 0 ] || [ "$equal" = 0 ]; then echo "RESULT: $fail FAIL"; exit 1; fi
echo "RESULT: PASS"
