#!/usr/bin/env bash
# tests/frameworks/run.sh - PyTorch on minicudart, judged by PyTorch's own CUDA tests.
#
# A framework differential: the installed PyTorch (its wheel loads libcudart.so.13) runs
# PyTorch's CUDA test files twice, once as installed (NVIDIA's runtime) and once with
# minicudart's libcudart.so.13 in LD_PRELOAD (the wheel's libraries then bind to minicudart; its
# SONAME is NVIDIA's), and the outcomes are compared test by test:
#   1. builds minicudart's shared library (Release, build-gpurun/frameworks);
#   2. installs the wheels carried in .whl/ whose module the machine lacks (expecttest, which
#      torch.testing._internal.common_utils imports; psutil, which test_cuda.py imports) into
#      /tmp/site, on PYTHONPATH;
#   3. checks that minicudart serves a preloaded run: MINICUDART_TRACE=1 on a short snippet,
#      counting the stderr lines "minicudart: ";
#   4. runs, under each runtime, pytest on test/test_cuda.py, test/test_cuda_expandable_segments.py,
#      test/test_cuda_trace.py and test/test_cuda_sanitizer.py as PyTorch's run_test.py would:
#      tests not marked serial under pytest-xdist (-n FRAMEWORK_JOBS), then the serial ones
#      (serialTest()) in one process; test_cuda_trace.py one process per test (its hooks are
#      process-wide: "Each test needs to be run in a brand new process"); junit XML per run;
#   5. runs tests/frameworks/workloads.py and tests/frameworks/jax_smoke.py (where present)
#      under each runtime, before step 4's files, and compares their "RESULT <name> key=value"
#      lines;
#   6. runs every test whose outcome differs again, each in a process of its own, under both
#      runtimes (SKIP_ALONE=1 skips this): the report says which differences stay alone;
#   7. prints per file the counts under each runtime, every test whose outcome differs (and how it
#      went alone), every test that fails under both, and LAST a summary table
#      (tests/frameworks/compare.py).
#
# PyTorch's test files: .gpu/pytorch/test/ (git-ignored; PyTorch's code, never committed to
# this repository; PYTORCH_TESTS names another copy), copied byte for byte from the
# pytorch/pytorch repository at these commits (checked by length, test_cuda.py 313,414 characters,
# and by py_compile):
#   test/test_cuda.py                     commit 000e43cdff99f30291164c1f2e90133f19fa83fb
#   test/test_cuda_expandable_segments.py commit 079f90097f3a95c53dee49374203a895885478f4
#   test/test_cuda_trace.py               commit 01ec0f7c969cc2fb1f7a2cf978df3cdf99ad2004
#   test/test_cuda_sanitizer.py           commit 043e97bf5be34c13d92e13a0459d9f9b12d8debb
# (upstream main, a little newer than PyTorch 2.11.0; no v2.11.0 copy was to be had). Ours,
# copied beside them at every run from tests/frameworks/pytorch/: test/conftest.py (defines the
# names these files import that the 2.11.0 wheel lacks, e.g. TEST_CUDAMALLOCASYNC, only where
# missing, and lists those it defined in pytest's header and logs/shims.*.txt; registers the
# "serial" mark;
# FRAMEWORK_EXPANDABLE=1 does what test_cuda_expandable_segments.py's __main__ does and aliases
# test_cuda.TestCudaAllocator, which that newer file imports, to TestCudaMallocAsync) and
# tools/stats/import_test_stats.py (a stand-in: get_disabled_tests() returns {}; the real one
# downloads CI's list of disabled tests).
# .whl/: `python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12
#   --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64
#   --platform manylinux2014_x86_64 --platform any -d .whl expecttest psutil`
#
# usage (on the GPU machine, from the repository root, with .gpu and .whl carried):
#   tests/frameworks/run.sh
#   FRAMEWORK_FILES=test_cuda_trace.py,test_cuda_sanitizer.py SKIP_WORKLOADS=1 tests/frameworks/run.sh
# environment: FRAMEWORK_FILES (the test files, comma or space separated, with or without test/;
#                default all four), FRAMEWORK_K (a pytest -k expression for every pytest run),
#              FRAMEWORK_JOBS (xdist workers and parallel processes, 8), SKIP_PYTEST=1,
#              SKIP_WORKLOADS=1 (workloads.py and jax_smoke.py), SKIP_ALONE=1 (step 6),
#              FRAMEWORK_FILE_TIMEOUT_S (one
#              pytest run, 200), FRAMEWORK_TEST_TIMEOUT_S (one test, pytest-timeout, 300),
#              FRAMEWORK_WORKLOAD_TIMEOUT_S (60), FRAMEWORK_DEADLINE_S (540: past it, steps not
#              yet begun are skipped so that the table still comes before a 600 s limit),
#              FRAMEWORK_ALONE_RESERVE_S (45: the pytest runs end that long before the deadline,
#              for step 6), FRAMEWORK_BUILD (build-gpurun/frameworks), MINICUDART_SO (a library
#              built elsewhere, instead of step 1's build), PYTORCH_TESTS (.gpu/pytorch), PYTHON
#              (python3), OUT (when set, logs and junit files go there as frameworks_logs.tgz).
# Exit: 0 every test's outcome (in the full run, or else alone), and every RESULT line, is the same
#       under both runtimes and the trace shows minicudart served the preloaded run; 1 otherwise
#       (also: no build, no tests).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
W=${FRAMEWORK_BUILD:-$ROOT/build-gpurun/frameworks}
PT=${PYTORCH_TESTS:-$ROOT/.gpu/pytorch}
PY=${PYTHON:-python3}
JOBS=${FRAMEWORK_JOBS:-8}
K=${FRAMEWORK_K:-}
FILE_TIMEOUT=${FRAMEWORK_FILE_TIMEOUT_S:-200}
TEST_TIMEOUT=${FRAMEWORK_TEST_TIMEOUT_S:-300}
WL_TIMEOUT=${FRAMEWORK_WORKLOAD_TIMEOUT_S:-60}
DEADLINE=${FRAMEWORK_DEADLINE_S:-540}
FILES=$(echo "${FRAMEWORK_FILES:-test_cuda_trace.py test_cuda_sanitizer.py test_cuda.py test_cuda_expandable_segments.py}" |
    tr ',' ' ' | xargs -n1 2>/dev/null | sed 's#^test/##' | tr '\n' ' ')
# Our shims go beside PyTorch's files at every run (tests/frameworks/pytorch/, see above).
if [ -d "$PT/test" ]; then
    cp "$ROOT/tests/frameworks/pytorch/conftest.py" "$PT/test/conftest.py"
    mkdir -p "$PT/tools/stats"
    cp "$ROOT/tests/frameworks/pytorch/import_test_stats.py" "$PT/tools/stats/import_test_stats.py"
fi
R=$W/results
rm -rf "$R"
mkdir -p "$R/logs" "$R/junit/nvidia" "$R/junit/minicudart" "$R/out"
LOG=$R/logs

# NVLink multicast stays off on the GPU machines; PyTorch's CI settings for a plain CUDA job.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTORCH_TEST_WITH_SLOW=0 PYTORCH_TEST_SKIP_FAST=0 PYTORCH_TEST_WITH_ROCM=0 \
    PYTORCH_TEST_WITH_DYNAMO=0 PYTORCH_TEST_WITH_INDUCTOR=0 PYTORCH_TEST_WITH_CROSSREF=0 \
    PYTORCH_TEST_CUDA_MEM_LEAK_CHECK=0 PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
unset PYTORCH_CUDA_ALLOC_CONF PYTORCH_ALLOC_CONF TORCH_CUDA_SANITIZER CUDA_LAUNCH_BLOCKING \
    MINICUDART_TRACE LD_PRELOAD

START=$SECONDS
echo "== tests/frameworks/run.sh: $(date -u +%FT%TZ), files: $FILES, jobs $JOBS${K:+, -k '$K'}"
command -v nvidia-smi >/dev/null &&
    nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>&1 | head -n 8

save_logs() {   # logs and junit files so far, to $W and $OUT
    tar -C "$R" -czf "$W/frameworks_logs.tgz" logs junit alone out 2>/dev/null
    if [ -n "${OUT:-}" ]; then mkdir -p "$OUT" && cp "$W/frameworks_logs.tgz" "$OUT/"; fi
}
finish() {   # logs to $OUT, then the report, last
    local rc=$1
    save_logs
    [ -f "$R/report.txt" ] && cat "$R/report.txt"
    exit "$rc"
}

# 1. minicudart's libcudart.so.13: MINICUDART_SO names one built elsewhere (the GPU machine's
#    gcc cannot build the link-time optimised library, the default where the compiler can);
#    otherwise it is built here.
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
if [ -n "${MINICUDART_SO:-}" ]; then
    MC_SO=$(readlink -f "$MINICUDART_SO")
elif { [ -f "$W/CMakeCache.txt" ] ||
     cmake -S "$ROOT" -B "$W" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DMINICUDART_TESTS=OFF; } \
        >"$LOG/build.log" 2>&1 &&
   cmake --build "$W" -j "$(nproc 2>/dev/null || echo 4)" --target minicudart_shared \
        >>"$LOG/build.log" 2>&1; then
    MC_SO=$W/lib/libcudart.so.13
    [ -f "$MC_SO" ] || MC_SO=$(find "$W" -name libcudart.so.13 -not -path '*/results/*' | head -n 1)
fi
if [ -z "${MC_SO:-}" ] || [ ! -f "$MC_SO" ]; then
    echo "== minicudart did not build:"; tail -n 20 "$LOG/build.log"
    echo "RESULT: FAIL (minicudart did not build)" >"$R/report.txt"
    finish 1
fi
echo "== minicudart: $MC_SO ($((SECONDS - START))s)"

# 2. carried wheels, for the modules this machine lacks
if compgen -G "$ROOT/.whl/*.whl" >/dev/null; then
    need=()
    for whl in "$ROOT"/.whl/*.whl; do
        mod=$(basename "$whl" | cut -d- -f1 | tr 'A-Z-' 'a-z_')
        "$PY" -c "import $mod" 2>/dev/null || need+=("$whl")
    done
    if [ ${#need[@]} -gt 0 ]; then
        "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site \
            "${need[@]}" >"$LOG/pip.log" 2>&1 || { echo "== pip install failed:"; tail -n 5 "$LOG/pip.log"; }
        export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
        echo "== installed into /tmp/site: $(for w in "${need[@]}"; do basename "$w" | cut -d- -f1-2; done | tr '\n' ' ')"
    fi
fi
"$PY" -c "import torch; print('== torch', torch.__version__, 'CUDA', torch.version.cuda)" 2>&1 | tail -n 1

# 3. did minicudart serve a preloaded run?
SNIPPET="import torch; torch.ones(4, device='cuda').add_(1); torch.cuda.synchronize()"
MINICUDART_TRACE=1 LD_PRELOAD=$MC_SO timeout -k 5 120 "$PY" -c "$SNIPPET" \
    >"$LOG/trace.out" 2>"$LOG/trace.err"
TRACE_RC=$?
TRACE_LINES=$(grep -c '^minicudart: ' "$LOG/trace.err")
echo "== minicudart trace lines: $TRACE_LINES (snippet exit code $TRACE_RC)"
[ "$TRACE_RC" = 0 ] || tail -n 5 "$LOG/trace.err"

# 4. PyTorch's CUDA tests
END_AT=$(( $(date +%s) + DEADLINE - (SECONDS - START) ))
left() { echo $((END_AT - $(date +%s))); }
# The pytest runs of step 4 stop ALONE_RESERVE seconds before the deadline, so that step 4b can
# still run the differing tests alone (it was cut by the deadline otherwise: 2026-12-01).
ALONE_RESERVE=${FRAMEWORK_ALONE_RESERVE_S:-45}
limit() {   # [reserve]: seconds one pytest run may take: the file timeout, less near the deadline
    local l; l=$(( $(left) - ${1:-20} ))
    [ "$l" -gt "$FILE_TIMEOUT" ] && l=$FILE_TIMEOUT
    [ "$l" -lt 10 ] && l=10
    echo "$l"
}
# Each runtime compiles its own extensions and kernels: PyTorch's tests build C++ extensions under
# one name from different sources (test_cuda.py's dummy allocators), so a cache shared between
# the two runs would hand one run the other's library, and Inductor's cache would let the second
# run skip the compilation the first did.
runtime_env() {   # runtime -> the environment assignments that make it (for env)
    echo "FRAMEWORK_RUNTIME=$1"
    echo "TORCH_EXTENSIONS_DIR=$R/cache/$1/extensions"
    echo "TORCHINDUCTOR_CACHE_DIR=$R/cache/$1/inductor"
    echo "TRITON_CACHE_DIR=$R/cache/$1/triton"
    [ "$1" = minicudart ] && echo "LD_PRELOAD=$MC_SO"
}
TIMEOUT_ARG=
"$PY" -c "import pytest_timeout" 2>/dev/null && TIMEOUT_ARG="--timeout $TEST_TIMEOUT"
"$PY" -c "import xdist" 2>/dev/null && HAVE_XDIST=1 || HAVE_XDIST=0
PYTEST_ARGS=(-p no:cacheprovider -q -rfEs --tb=short --rootdir "$PT/test"
    -o junit_logging=no -o junit_log_passing_tests=false $TIMEOUT_ARG)
[ -n "$K" ] && PYTEST_ARGS+=(-k "$K")
export END_AT FILE_TIMEOUT PT PY R LOG MC_SO TIMEOUT_ARG ALONE_RESERVE

pytest_run() {    # runtime file tag [pytest args...]: one pytest run, junit/<rt>/<stem>/<tag>.xml
    local rt=$1 f=$2 tag=$3 s=${2%.py} rc t0=$SECONDS; shift 3
    mkdir -p "$R/junit/$rt/$s"
    ( cd "$PT/test" && env $(runtime_env "$rt") FRAMEWORK_SHIM_LOG="$LOG/shims.$rt.txt" \
        FRAMEWORK_EXPANDABLE=$([ "$f" = test_cuda_expandable_segments.py ] && echo 1 || echo 0) \
        timeout -k 10 "$(limit "$ALONE_RESERVE")" "$PY" -m pytest "${PYTEST_ARGS[@]}" \
        --junitxml="$R/junit/$rt/$s/$tag.xml" "$@" "$f" ) </dev/null >"$LOG/$s.$rt.$tag.log" 2>&1
    rc=$?
    echo "   $rt $f [$tag]: exit $rc, $((SECONDS - t0))s: $(tail -n 1 "$LOG/$s.$rt.$tag.log" | cut -c1-100)"
}
one_test() {      # runtime junit-dir index test-id: one test in a process of its own
    local name=${2#"$R"/}
    # Past the deadline a test is not started (no result: the report says it did not run), so
    # that a long list of differing tests cannot carry the run past its caller's limit.
    [ "$(left)" -le 5 ] && return 0
    mkdir -p "$2"
    cd "$PT/test" && env $(runtime_env "$1") FRAMEWORK_SHIM_LOG="$LOG/shims.$1.txt" \
        FRAMEWORK_EXPANDABLE=$(case $4 in test_cuda_expandable_segments.py::*) echo 1 ;; *) echo 0 ;; esac) \
        timeout -k 10 "$(limit 5)" "$PY" -m pytest -p no:cacheprovider -q -rfEs --tb=short \
        --rootdir "$PT/test" -o junit_logging=no $TIMEOUT_ARG \
        --junitxml="$2/$3.xml" "$4" </dev/null >"$LOG/${name//\//.}.$3.log" 2>&1
    return 0
}
export -f one_test runtime_env limit left

run_file() {      # runtime file
    local rt=$1 f=$2 s=${2%.py} t0=$SECONDS
    case $f in
    test_cuda_trace.py)   # "Each test needs to be run in a brand new process"
        mkdir -p "$R/junit/$rt/$s"
        ( cd "$PT/test" && env $(runtime_env "$rt") timeout -k 10 120 "$PY" -m pytest \
            -p no:cacheprovider --rootdir "$PT/test" --collect-only -q ${K:+-k "$K"} "$f" ) \
            </dev/null >"$LOG/$s.$rt.collect.log" 2>&1
        grep '::' "$LOG/$s.$rt.collect.log" >"$LOG/$s.$rt.ids"
        awk '{ print rt; print dir; print NR; print $0 }' rt="$rt" dir="$R/junit/$rt/$s" "$LOG/$s.$rt.ids" |
            xargs -d '\n' -n 4 -P "$JOBS" bash -c 'one_test "$@"' one_test
        echo "   $rt $f: $(wc -l <"$LOG/$s.$rt.ids") tests, one process each, $((SECONDS - t0))s" ;;
    test_cuda_sanitizer.py)
        pytest_run "$rt" "$f" all ;;
    *)  # as PyTorch's run_test.py: the parallel tests first, then the serial ones alone
        if [ "$HAVE_XDIST" = 1 ]; then
            pytest_run "$rt" "$f" parallel -n "$JOBS" -m "not serial"
        else
            pytest_run "$rt" "$f" parallel -m "not serial"
        fi
        [ "$(left)" -gt 30 ] && pytest_run "$rt" "$f" serial -m serial ;;
    esac
}

# 5. workloads (before the long test files, so that a deadline cuts those instead)
CMP=()
if [ "${SKIP_WORKLOADS:-0}" != 1 ]; then
    for wl in workloads jax_smoke; do
        [ -f "$ROOT/tests/frameworks/$wl.py" ] || continue
        if [ "$(left)" -le 20 ]; then echo "== $wl: skipped, past the deadline"; continue; fi
        rcs=()
        for rt in nvidia minicudart; do
            t0=$SECONDS
            env $(runtime_env "$rt") timeout -k 10 "$WL_TIMEOUT" "$PY" "$ROOT/tests/frameworks/$wl.py" \
                </dev/null >"$R/out/$wl.$rt.out" 2>"$R/out/$wl.$rt.err"
            rcs+=($?)
            echo "   $rt $wl.py: exit ${rcs[-1]}, $((SECONDS - t0))s, $(grep -c '^RESULT ' "$R/out/$wl.$rt.out") RESULT lines"
        done
        key=$([ "$wl" = workloads ] && echo workloads || echo jax)
        CMP+=(--"$key" "$R/out/$wl.nvidia.out" "$R/out/$wl.minicudart.out" --rc "$key=${rcs[0]}:${rcs[1]}")
    done
fi

RUN_FILES=()
if [ "${SKIP_PYTEST:-0}" != 1 ]; then
    for f in $FILES; do
        if [ ! -f "$PT/test/$f" ]; then echo "== $f: not in $PT/test"; continue; fi
        RUN_FILES+=("$f")
        for rt in nvidia minicudart; do
            if [ "$(left)" -le 30 ]; then echo "   $rt $f: skipped, past the deadline"; continue; fi
            run_file "$rt" "$f"
        done
        echo "== $f done at $((SECONDS - START))s"
    done
    for rt in nvidia minicudart; do
        [ -s "$LOG/shims.$rt.txt" ] &&
            echo "== conftest shims ($rt): $(tr ' ' '\n' <"$LOG/shims.$rt.txt" | sort -u | tr '\n' ' ')"
    done
fi
# The pytest runs' logs are kept before step 4b, so that a run cut short there still has them.
save_logs
# 4b. every test whose outcome differs, again in a process of its own under each runtime: a
# difference that goes away alone came from the schedule (tests sharing the card, state a
# neighbour in the same pytest worker left behind); one that stays is the runtime's.
if [ ${#RUN_FILES[@]} -gt 0 ] && [ "${SKIP_ALONE:-0}" != 1 ]; then
    : >"$LOG/alone.ids"
    for f in "${RUN_FILES[@]}"; do
        "$PY" "$ROOT/tests/frameworks/compare.py" differing "$R/junit/nvidia/${f%.py}" \
            "$R/junit/minicudart/${f%.py}" "$f" >>"$LOG/alone.ids"
    done
    n=$(wc -l <"$LOG/alone.ids")
    if [ "$n" -gt 0 ] && [ "$(left)" -gt 30 ]; then
        t0=$SECONDS
        for rt in nvidia minicudart; do
            awk '{ split($0, p, "::"); sub(/\.py$/, "", p[1]);
                   print rt; print root "/" rt "/" p[1]; print NR; print $0 }' \
                rt="$rt" root="$R/alone" "$LOG/alone.ids" |
                xargs -d '\n' -n 4 -P "$JOBS" bash -c 'one_test "$@"' one_test
        done
        echo "== $n differing tests run again alone under both runtimes, $((SECONDS - t0))s"
        CMP+=(--alone-root "$R/alone")
    elif [ "$n" -gt 0 ]; then
        echo "== $n differing tests not run again alone: past the deadline"
    fi
fi
CMP+=(--junit-root "$R/junit" --files "$(IFS=,; echo "${RUN_FILES[*]}")" --trace-lines "$TRACE_LINES")

# 6. the comparison; the table last
echo "== all runs done at $((SECONDS - START))s; logs in $W/frameworks_logs.tgz${OUT:+ and \$OUT}"
if [ ${#RUN_FILES[@]} -eq 0 ] && [ "${SKIP_PYTEST:-0}" != 1 ]; then
    echo "== no test file found under $PT/test"
fi
"$PY" "$ROOT/tests/frameworks/compare.py" report "${CMP[@]}" >"$R/report.txt" 2>&1
RC=$?
if [ ${#RUN_FILES[@]} -eq 0 ] && [ "${SKIP_PYTEST:-0}" != 1 ]; then RC=1; fi
finish "$RC"
