#!/usr/bin/env bash
# tests/frameworks/summary.sh CLI LIB: the exit summary of a short PyTorch training run, checked
# against its own trace (on the GPU machine, where PyTorch is installed).
#
#   CLI run --lib LIB --summary --trace -- python3 tests/frameworks/workloads.py --only gpt_bf16 --quick
#
# (CLI is the built `minicudart` command, LIB minicudart's libcudart.so.13.)  The summary's launch
# total equals the number of "launch ... -> cudaSuccess" lines of the trace, and each kernel of its
# top list was launched as many times as it says (names are cut at 60 characters there: the
# kernels whose names share those 60 are counted together).  Prints the summary; exit 0 when
# everything agrees and the training ran, 1 otherwise.
set -u
cli=$1 lib=$2
cd "$(dirname "$0")/../.." || exit 1
out=${OUT:-/tmp}/summary_pytorch
mkdir -p "$out"
"$cli" run --lib "$lib" --summary --trace -- \
    python3 tests/frameworks/workloads.py --only gpt_bf16 --quick >"$out/stdout.txt" 2>"$out/stderr.txt"
rc=$?
python3 - "$out/stderr.txt" "$out/stdout.txt" "$rc" <<'PY'
import re, sys, collections
err = open(sys.argv[1], errors="replace").read().splitlines()
out = open(sys.argv[2], errors="replace").read()
rc = int(sys.argv[3])
launches = collections.Counter()
for line in err:
    m = re.match(r"minicudart: launch (\S+) grid .* -> cudaSuccess", line)
    if m:
        launches[m.group(1)[:60]] += 1
try:
    start = max(i for i, l in enumerate(err) if l.startswith("minicudart summary"))
except ValueError:
    print("summary: none printed"); sys.exit(1)
table = err[start:]
print("\n".join(table))
bad = []
total = next((int(m.group(1)) for l in table for m in [re.match(r"  launches +(\d+)$", l)] if m), None)
if total != sum(launches.values()):
    bad.append("summary counts %s launches, the trace %d" % (total, sum(launches.values())))
top = [(int(m.group(1)), m.group(2)) for l in table
       for m in [re.match(r" +(\d+)  <<<\(.*\)>>>  (\S+)$", l)] if m]
# Two kernels may share a name (two modules, a static kernel in each): the summary lists each.
listed = collections.Counter()
for n, name in top:
    listed[name] += n
for name, n in listed.items():
    if launches[name] < n:
        bad.append("%s: %d in the summary, %d in the trace" % (name, n, launches[name]))
if not top:
    bad.append("no kernel listed")
if rc != 0 or "RESULT gpt_bf16 steps=" not in out:
    bad.append("the training did not run (exit %d)" % rc)
for b in bad:
    print("summary: " + b)
print("summary: %s (%d launches in the trace, %d kernels)" %
      ("FAIL" if bad else "agrees with the trace", sum(launches.values()), len(launches)))
sys.exit(1 if bad else 0)
PY
