#!/usr/bin/env bash
# run12.sh PROGRAM shared|static OURS_DIR [IMPORT | !IMPORT]... [-- ARG...]
# A program of tests/cuda12, checked and then run against the fake driver (MINICUDART_DRIVER,
# set by ctest).
#   shared: it needs libcudart.so.12 (no other runtime), every cuda* and __cuda* symbol it
#           imports is versioned @libcudart.so.12, it imports each IMPORT and no !IMPORT; with
#           LD_LIBRARY_PATH=OURS_DIR the loader resolves libcudart.so.12 to minicudart's there
#           (ldd), and the run prints minicudart's trace (MINICUDART_TRACE=1): NVIDIA's library,
#           which the program was linked against, is never the one that answers.
#   static: it needs no libcudart, imports no cuda* symbol and defines minicudart's own
#           (libminicudart12.a linked in, -cudart=none); the run prints the trace.
# Then the program's own verdict (cmocka) is the test's, printed with its output.  The ARGs
# after "--" are the program's (test_errors.c's scenario, for one).
set -u
program=$1 kind=$2 ours=$3
shift 3
wants=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    wants+=("$1")
    shift
done
[ $# -gt 0 ] && shift
fail=0
bad() { echo "run12: $(basename "$program"): $*"; fail=1; }
one_line() { tr '\n' ' ' | head -c 400; }

needed=$(readelf -d "$program" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
imports=$(nm -D --undefined-only "$program" | awk '{ print $2 }' | grep -E '^(cuda|__cuda)')
case $kind in
shared)
    grep -qx 'libcudart.so.12' <<<"$needed" || bad "does not need libcudart.so.12: $(one_line <<<"$needed")"
    others=$(grep -E '^libcudart' <<<"$needed" | grep -vx 'libcudart.so.12')
    [ -z "$others" ] || bad "needs another runtime too: $others"
    [ -n "$imports" ] || bad "imports no cuda* symbol"
    unversioned=$(grep -v '@libcudart\.so\.12$' <<<"$imports")
    [ -z "$unversioned" ] || bad "imports not from libcudart.so.12: $(one_line <<<"$unversioned")"
    for want in ${wants[@]+"${wants[@]}"}; do
        case $want in
        !*) ! grep -qx "${want#!}@libcudart.so.12" <<<"$imports" || bad "imports ${want#!}" ;;
        *) grep -qx "$want@libcudart.so.12" <<<"$imports" || bad "does not import $want" ;;
        esac
    done
    resolved=$(LD_LIBRARY_PATH=$ours ldd "$program" | awk '$1 == "libcudart.so.12" { print $3 }')
    [ "$(readlink -f "$resolved")" = "$(readlink -f "$ours/libcudart.so.12")" ] ||
        bad "libcudart.so.12 resolves to '$resolved', not $ours/libcudart.so.12"
    ;;
static)
    ! grep -q '^libcudart' <<<"$needed" || bad "needs a shared runtime: $(one_line <<<"$needed")"
    [ -z "$imports" ] || bad "imports runtime symbols: $(one_line <<<"$imports")"
    nm --defined-only "$program" | grep -q ' T minicudart_set_trace_hook$' ||
        bad "does not define minicudart_set_trace_hook (libminicudart12.a not linked in)"
    ;;
*)
    echo "run12.sh: unknown kind '$kind'"; exit 2 ;;
esac
[ "$fail" = 0 ] || exit 1

# The run, traced: the trace goes to stderr, which is kept apart to be searched.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
LD_LIBRARY_PATH=$ours MINICUDART_TRACE=1 "$program" "$@" 2>"$err"
rc=$?
grep -v '^minicudart: ' "$err" >&2
traced=$(grep -c '^minicudart: ' "$err")
echo "run12: $(basename "$program") ($kind): $traced lines of minicudart's trace, exit $rc"
[ "$traced" -gt 0 ] || { echo "run12: no trace: minicudart did not answer"; exit 1; }
exit $rc
