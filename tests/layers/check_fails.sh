#!/usr/bin/env bash
# The layer check must be able to fail: a small tree whose bottom calls up, whose two areas of one
# rank call and include each other, and whose load/ has a ring of four files, compiled here and
# handed to tools/link_graph.py --check, which must exit 1 and name each fault.
set -u
tool=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib/core" "$work/lib/load" "$work/lib/memory" "$work/lib/stream" "$work/obj"
cat >"$work/lib/core/a.c" <<'C'
void rt_load_b(void);
void rt_core_a(void) { rt_load_b(); }
C
cat >"$work/lib/load/b.c" <<'C'
void rt_load_c(void);
void rt_load_b(void) { rt_load_c(); }
C
cat >"$work/lib/load/c.c" <<'C'
void rt_load_d(void);
void rt_load_c(void) { rt_load_d(); }
C
cat >"$work/lib/load/d.c" <<'C'
void rt_load_e(void);
void rt_load_d(void) { rt_load_e(); }
C
cat >"$work/lib/load/e.c" <<'C'
void rt_load_b(void);
void rt_load_e(void) { rt_load_b(); }
C
cat >"$work/lib/memory/m.c" <<'C'
void rt_stream_s(void);
void rt_memory_m(void) { rt_stream_s(); }
C
cat >"$work/lib/stream/s.c" <<'C'
#include "memory/m.h"
void rt_stream_s(void) {}
C
: >"$work/lib/memory/m.h"
for f in core/a load/b load/c load/d load/e memory/m stream/s; do
    mkdir -p "$work/obj/$(dirname $f)"
    cc -c -I"$work/lib" "$work/lib/$f.c" -o "$work/obj/$f.c.o" || exit 2
done
out=$(python3 "$tool" --check --lib "$work/lib" "$work/obj" 2>&1)
rc=$?
echo "$out"
fail=0
[ "$rc" = 1 ] || { echo "check_fails: exit $rc, not 1"; fail=1; }
for want in "a cycle of 4 files" "core/a.c calls up into load/b.c" \
            "memory/m.c calls stream/s.c, of another area of its layer" \
            "stream/s.c includes memory/m.h, of another area of its layer"; do
    grep -qF -- "$want" <<<"$out" || { echo "check_fails: not said: $want"; fail=1; }
done
[ "$fail" = 0 ] && echo "check_fails: the check failed where it must, 4 of 4 faults named"
exit $fail
