#!/usr/bin/env bash
# names_test.sh STATIC_PROGRAM SHARED_PROGRAM: tests/e2e/names.c on libminicudart.a and on
# libcudart.so.13, with the trace on.  After each "names: call NAME", every trace line that names
# a call ("error ... from X", "X: the driver has no ...", "X(args): ...") must name NAME, each
# case must have failed and left an error line, and the two libraries' transcripts of those
# lines must be the same.  Then the shared library's exit summary (MINICUDART_SUMMARY=all) must
# list the functions by their names, none as "a runtime call".
set -u
fail() { echo "names: $*"; exit 1; }
check() {   # check TRANSCRIPT: prints the trace lines that name a call, NAME: LINE
    awk '
        /^names: call / { name = $3; errors = 0; next }
        /^names: done/ { done = 1; next }
        /^names: .* -> / {
            if ($4 == 0) { print "FAIL " name " succeeded"; bad = 1 }
            if (!errors) { print "FAIL " name " left no error line"; bad = 1 }
            name = ""; next
        }
        name == "" { next }
        / from [A-Za-z_0-9]+$/ && /^minicudart: error / {
            errors++
            if ($NF != name) { print "FAIL " name ": " $0; bad = 1 } else print name ": " $0
            next
        }
        /^minicudart: [A-Za-z_0-9]+: the driver / {
            called = substr($2, 1, length($2) - 1)
            if (called != name) { print "FAIL " name ": " $0; bad = 1 } else print name ": " $0
            next
        }
        /^minicudart: (cuda|__cuda)[A-Za-z_0-9]*\(/ {   # "NAME(args): ..." lines name the call too
            called = $2; sub(/\(.*/, "", called)
            if (called != name) { print "FAIL " name ": " $0; bad = 1 } else print name ": " $0
        }
        END { if (!done) print "FAIL the program did not finish"; exit bad || !done }
    ' "$1"
}
# Twice: with the fake driver whole, and without two optional entry points, so that the helpers
# that take the name from their caller say "NAME: the driver has no ..." as well.
for run in whole older; do
    hide=
    [ $run = older ] && hide=cuGraphicsMapResources,cuMemPrefetchBatchAsync
    FAKECUDA_HIDE=$hide MINICUDART_TRACE=1 "$1" >/dev/null 2>static.$run.txt ||
        fail "the static program failed"
    FAKECUDA_HIDE=$hide MINICUDART_TRACE=1 "$2" >/dev/null 2>shared.$run.txt ||
        fail "the shared program failed"
    check static.$run.txt >static.$run.names ||
        { grep FAIL static.$run.names; fail "libminicudart.a misnames ($run driver)"; }
    check shared.$run.txt >shared.$run.names ||
        { grep FAIL shared.$run.names; fail "libcudart.so.13 misnames ($run driver)"; }
    diff static.$run.names shared.$run.names ||
        fail "the two libraries name the calls differently ($run driver)"
done
[ "$(grep -c ': the driver has no' shared.older.names)" -ge 2 ] ||
    fail "without the two entry points, the trace does not say so twice"
MINICUDART_SUMMARY=all "$2" >/dev/null 2>summary.txt || fail "the shared program failed"
grep -q 'a runtime call' summary.txt && fail "the summary has an unnamed function"
for f in cudaMalloc cudaMemcpy2DAsync_ptsz cudaMemset_ptds cudaGraphicsMapResources \
         cudaExecutionCtxRecordEvent cudaLaunchKernel; do
    grep -qE "^ +1 +[0-9.]+ ms  $f\$" summary.txt || fail "the summary does not list $f once"
done
cat shared.older.names
echo "names: $(cat shared.*.names | wc -l) lines, the same from both libraries"
