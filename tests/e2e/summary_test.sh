#!/usr/bin/env bash
# summary_test.sh PROGRAM: the exit summary (MINICUDART_SUMMARY=1) of an nvcc-compiled program on
# the fake driver agrees with the trace of the same run: as many launches as the trace shows
# successful ones, each kernel the trace launched listed, the fatbins registered, the calls by
# function counting the launches; MINICUDART_SUMMARY=all listing every function; and without the variable, no summary.
set -u
program=$1
fail() { echo "summary: $*"; exit 1; }
MINICUDART_SUMMARY=1 MINICUDART_TRACE=1 "$program" >out.txt 2>err.txt || fail "the program failed"
grep -q '^minicudart summary' err.txt || fail "no summary"
traced=$(grep -c '^minicudart: launch .*-> cudaSuccess' err.txt)
summed=$(sed -n 's/^  launches *\([0-9]*\)$/\1/p' err.txt)
[ "$traced" -gt 0 ] || fail "the trace shows no launch"
[ "$summed" = "$traced" ] || fail "the summary counts $summed launches, the trace $traced"
for k in $(sed -n 's/^minicudart: launch \([^ ]*\) grid.*-> cudaSuccess.*/\1/p' err.txt | sort -u); do
    grep -q "  $k\$" err.txt || fail "kernel $k launched but not listed"
done
regs=$(grep -c '^minicudart: register fatbin .*: wrapper' err.txt)
grep -q "^  registered  $regs fatbins" err.txt || fail "registered fatbins differ from the trace's $regs"
grep -q '^  loaded ' err.txt || fail "no module load counted"
grep -qE '^  calls +[0-9]+ to [0-9]+ runtime functions, [0-9.]+ ms of host time$' err.txt ||
    fail "no line of runtime calls"
# Each successful launch was one call of the stub's launch function (more if some failed).
stub=$(sed -n 's/^ *\([0-9]*\) *[0-9.]* ms  __cudaLaunchKernel$/\1/p' err.txt)
[ -n "$stub" ] && [ "$stub" -ge "$traced" ] || fail "__cudaLaunchKernel counted ${stub:-no} calls for $traced launches"
# MINICUDART_SUMMARY=all: every function called is listed, none folded into "other functions".
MINICUDART_SUMMARY=all "$program" >/dev/null 2>all.txt || fail "the program failed with =all"
grep -q 'other functions)$' all.txt && fail "MINICUDART_SUMMARY=all folds functions together"
nfun=$(sed -n 's/^  calls .* to \([0-9]*\) runtime functions.*/\1/p' all.txt)
listed=$(sed -n '/^  calls /,/^  cudaMalloc /p' all.txt | grep -cE '^ +[0-9]+ +[0-9.]+ ms  ')
[ -n "$nfun" ] && [ "$listed" = "$nfun" ] || fail "=all lists $listed of ${nfun:-?} functions"
"$program" >/dev/null 2>plain.txt || fail "the program failed without the summary"
grep -q '^minicudart summary' plain.txt && fail "a summary without MINICUDART_SUMMARY"
sed -n '/^minicudart summary/,$p' err.txt
echo "summary: agrees with the trace ($summed launches)"
