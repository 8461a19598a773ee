#!/usr/bin/env bash
# The check of public functions' ways out must be able to fail: a small lib/ with a bare return
# after RT_ENTER, a void function that runs off its end, a #define that returns and a helper that
# closes a call it did not open, handed to tools/entry_returns.py --check, which must exit 1 and
# name each; a well-formed function beside them must not be named.
set -u
tool=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib/core"
cat >"$work/lib/core/a.c" <<'C'
/* return in a comment is not a fault */
#define LEAVE_EARLY(e) do { if (e) return e; } while (0)
cudaError_t cudaBare(int x)
{
    RT_ENTER();
    if (x)
        return cudaErrorInvalidValue;
    RT_RETURN(cudaSuccess);
}
void cudaRunsOff(void)
{
    RT_ENTER();
    puts("return");
}
cudaError_t cudaWellFormed(int x)
{
    RT_ENTER();
    if (x)
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(cudaSuccess);
}
static cudaError_t rt_helper(int x)
{
    RT_RETURN(x ? cudaErrorInvalidValue : cudaSuccess);
}
C
out=$(python3 "$tool" --check "$work/lib" 2>&1)
rc=$?
echo "$out"
fail=0
[ "$rc" = 1 ] || { echo "entry_returns_fails: exit $rc, not 1"; fail=1; }
for want in "a.c:2: #define LEAVE_EARLY returns" "a.c:7: bare return after RT_ENTER" \
            "a.c:14: the body can run off its end" \
            "a.c:24: RT_RETURN in a body without RT_ENTER" "3 bodies with RT_ENTER, 4 open ways out"; do
    grep -qF -- "$want" <<<"$out" || { echo "entry_returns_fails: not said: $want"; fail=1; }
done
[ "$fail" = 0 ] && echo "entry_returns_fails: the check failed where it must, 4 of 4 named"
exit $fail
