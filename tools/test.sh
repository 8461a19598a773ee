#!/usr/bin/env bash
# tools/test.sh - the whole test run of README.md and CI, on a machine without a GPU (the CUDA
# toolkit is needed: nvcc builds the programs that run against the fake driver).  Four trees:
#
#   build/test        AddressSanitizer + UndefinedBehaviorSanitizer (MINICUDART_SANITIZE): every
#                     test, LeakSanitizer on (a leak fails the program that leaked)
#   build/test-plain  no sanitizer: every test again, as users build it (the install tests and
#                     the compile-only GPU programs are left to the first tree), and the
#                     packages' tests (label packaging: the wheel, and the .deb installed on
#                     this machine with dpkg -i and removed again, as root; skipped otherwise)
#   build/test-tsan   ThreadSanitizer (MINICUDART_TSAN): the tests labelled "threads" (ctest -L)
#   build/test-aarch64  aarch64, cross-compiled by Debian's gcc-aarch64-linux-gnu and CUDA 13.5's
#                     nvcc (cmake/aarch64-linux-gnu.cmake), no sanitizer: its tests run under
#                     qemu-aarch64 against the fake driver built for aarch64; the folders that
#                     prove nothing new there are left to the trees above (docs/arm.md).  Only
#                     where the cross compiler and qemu-aarch64 are installed (install-deps.sh
#                     installs them on Debian x86-64); elsewhere the script says it is skipped.
#
# Each tree is configured fresh.  A tree's tests run while the next one builds; a failure is
# reported with the end of its log, and the script exits non-zero after all of them.
# Environment: JOBS (default 2), TEST_TREES (default "test test-plain test-tsan test-aarch64"),
# TEST_BUILD_DIR (where the trees go; default build).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

if [ -d /usr/local/cuda/bin ]; then
    export PATH=/usr/local/cuda/bin:$PATH
fi
JOBS=${JOBS:-2}
default_trees="test test-plain test-tsan"
if command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null; then
    default_trees="$default_trees test-aarch64"
elif [ -z "${TEST_TREES:-}" ]; then
    echo "== build/test-aarch64 skipped: no aarch64-linux-gnu-gcc or qemu-aarch64 (tools/install-deps.sh)"
fi
TREES=${TEST_TREES:-$default_trees}
B=${TEST_BUILD_DIR:-build}

# Leak checking is ASan's default on Linux; say so, so that no inherited setting turns it off.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}
export UBSAN_OPTIONS=print_stacktrace=1:${UBSAN_OPTIONS:-}
export TSAN_OPTIONS=second_deadlock_stack=1:${TSAN_OPTIONS:-}

options_of() {
    case $1 in
    test) echo "-DMINICUDART_SANITIZE=ON" ;;
    test-plain) echo "-DMINICUDART_TEST_GPU_PROGRAMS=OFF" ;;
    test-tsan) echo "-DMINICUDART_TSAN=ON -DMINICUDART_TEST_GPU_PROGRAMS=OFF" ;;
    test-aarch64) echo "-DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake" ;;
    esac
}
# What to build: everything, or only what the threads tests need.
targets_of() {
    case $1 in
    test-tsan) echo "--target e2e_stress_threads stress_plugin e2e_stress_concurrency e2e_ptsz e2e_life_sticky e2e_fault_illegal e2e_life_early_init e2e_life_unload_race life_plugin gpu135_stress_green e2e_first_launch fakecuda" ;;
    esac
}
ctest_args_of() {
    case $1 in
    test) echo "-LE packaging" ;;
    test-plain) echo "-E ^install_(pip_)?package$" ;;
    test-tsan) echo "-L threads" ;;
    esac
}

failed=""
build() {
    local tree=$1
    rm -rf "${B:?}/$tree" "$B/$tree.ctest.log"
    mkdir -p "$B"
    # shellcheck disable=SC2046
    cmake -S . -B "$B/$tree" $(options_of "$tree") >"$B/$tree.configure.log" 2>&1 ||
        { tail -n 30 "$B/$tree.configure.log"; return 1; }
    # shellcheck disable=SC2046
    cmake --build "$B/$tree" -j "$JOBS" $(targets_of "$tree")
}

# The tests of one tree run in the background (output to $B/<tree>.ctest.log) while the next
# tree builds; finish_pending waits for them and reports.
pending=""
pending_pid=""
finish_pending() {
    [ -n "$pending" ] || return 0
    local log=$B/$pending.ctest.log
    if wait "$pending_pid"; then
        echo "== $B/$pending at ${SECONDS}s: $(grep -m1 'tests passed' "$log")"
        # A skipped test is said, with its reason where it gives one (package_deb, not as root).
        grep ' (Skipped)$' "$log" | sed 's/^[[:space:]]*/   skipped: /'
        # Tests a tree cannot run (the aarch64 tree's under qemu-user: docs/arm.md says why).
        grep ' (Disabled)$' "$log" | sed 's/^[[:space:]]*/   not run here: /'
        grep -h -e '-- skipped$' "$B/$pending/Testing/Temporary/LastTest"*.log 2>/dev/null |
            sed 's/^/   /'
        # The registration benchmark's figure (bench/registration): printed, never judged; the
        # next tree builds meanwhile, so the times are those of a busy machine.
        grep -h -A4 '^registration: dlopen' "$B/$pending/Testing/Temporary/LastTest"*.log \
            2>/dev/null | grep -v '^<end' | sed 's/^/   /'
    else
        failed="$failed $pending"
        echo "== $B/$pending at ${SECONDS}s: FAILED; the end of $log:"
        grep -v '^ *Start \|   Passed  ' "$log" | tail -n 120
    fi
    pending=""
}
for tree in $TREES; do
    echo "== $B/$tree: configure ($(options_of "$tree")) and build at ${SECONDS}s"
    if ! build "$tree"; then
        finish_pending
        failed="$failed $tree(build)"
        continue
    fi
    finish_pending
    # shellcheck disable=SC2046
    ctest --test-dir "$B/$tree" --output-on-failure -j "$JOBS" $(ctest_args_of "$tree") \
        >"$B/$tree.ctest.log" 2>&1 &
    pending=$tree
    pending_pid=$!
done
finish_pending
if [ -n "$failed" ]; then
    echo "tools/test.sh: FAILED:$failed (${SECONDS}s)"
    exit 1
fi
echo "tools/test.sh: all passed (${SECONDS}s)"
