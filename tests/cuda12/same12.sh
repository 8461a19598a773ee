#!/usr/bin/env bash
# same12.sh PROGRAM12 OURS_DIR PROGRAM13
# A tests/gpu misuse program built twice from one source, by nvcc 12.4 (PROGRAM12, run on our
# libcudart.so.12 in OURS_DIR) and by nvcc 13.0 (PROGRAM13, tests/e2e's, libminicudart.a linked
# in), both run untraced against the fake driver (MINICUDART_DRIVER, set by ctest).  PROGRAM12
# must answer every case (exit 0, tests/gpu/misuse.h), and every case's line as PROGRAM13 answers
# it, but for the cases abi_differences.txt lists, where CUDA 12.9's runtime answers otherwise.
# Prints PROGRAM12's output, then the lines that differ.
set -u
p12=$1 ours=$2 p13=$3
out12=$(mktemp) out13=$(mktemp)
trap 'rm -f "$out12" "$out13"' EXIT
LD_LIBRARY_PATH=$ours "$p12" >"$out12"
rc=$?
cat "$out12"
[ "$rc" = 0 ] || { echo "same12: $(basename "$p12") exited $rc"; exit 1; }
"$p13" >"$out13"
rc=$?
[ "$rc" = 0 ] || { echo "same12: $(basename "$p13") (the 13 build) exited $rc"; exit 1; }
# Where CUDA 12.9 answers otherwise (abi_differences.txt), the 13 build's line is made 12.9's.
python3 - "$(dirname "$0")/abi_differences.txt" "$out13" <<'PY'
import re, sys
rules = []
for line in open(sys.argv[1]):
    if line.strip() and not line.startswith("#"):
        name, was, now = line.rstrip("\n").split("\t")
        rules.append((re.compile(name), was, now))
lines = open(sys.argv[2]).read().split("\n")
for i, line in enumerate(lines):
    m = re.match(r"case \d+ ([^:]+):", line)
    for name, was, now in rules:
        if m and name.search(m.group(1)):
            lines[i] = line.replace(was, now)
open(sys.argv[2], "w").write("\n".join(lines))
PY
if ! diff "$out13" "$out12" >/dev/null; then
    echo "same12: answered otherwise than by the 13 build (< 13, > 12):"
    diff "$out13" "$out12" | grep '^[<>]' | head -n 40
    exit 1
fi
echo "same12: $(grep -c '^case ' "$out12") cases, answered as by the 13 build"
