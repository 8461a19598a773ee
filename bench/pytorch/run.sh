#!/usr/bin/env bash
# bench/pytorch/run.sh - PyTorch on minicudart against PyTorch on NVIDIA's runtime, on the GPU
# machine (where PyTorch is installed): import, first kernel, an eager small op, one training
# step (bench/pytorch/bench.py says what each figure is).
#
# Each round runs bench.py twice, in fresh processes, in alternating order (NVIDIA's runtime as
# installed; minicudart's libcudart.so.13 in LD_PRELOAD, which every PyTorch library then binds
# to); the table gives the median of each figure per runtime, the ratio minicudart / NVIDIA of
# the medians, and the range of the per-round ratios.  The table comes last.
#
# usage (repository root):  bash bench/pytorch/run.sh
# environment: PTBENCH_ROUNDS (5), PTBENCH_OPS, PTBENCH_STEPS (bench.py), PYTHON (python3),
#              MINICUDART_LIB (a built libcudart.so.13; default: build it in build-bench/pytorch),
#              OUT (where raw.txt goes; default build-bench/pytorch)
set -u
cd "$(dirname "$0")/../.." || exit 1
W=build-bench/pytorch
OUT=${OUT:-$W}
ROUNDS=${PTBENCH_ROUNDS:-5}
PY=${PYTHON:-python3}
mkdir -p "$W" "$OUT"
LIB=${MINICUDART_LIB:-}
if [ -z "$LIB" ]; then
    cmake -S . -B "$W/cmake" -DCMAKE_BUILD_TYPE=Release -DMINICUDART_TESTS=OFF >"$W/build.log" 2>&1 &&
        cmake --build "$W/cmake" -j "$(nproc)" --target minicudart_shared >>"$W/build.log" 2>&1 ||
        { echo "build failed: $W/build.log"; exit 1; }
    LIB=$W/cmake/lib/libcudart.so.13
fi
LIB=$(realpath "$LIB")
RAW=$OUT/raw.txt
: >"$RAW"
for r in $(seq "$ROUNDS"); do
    order="nvidia minicudart"
    [ $((r % 2)) = 0 ] && order="minicudart nvidia"
    for rt in $order; do
        pre=
        [ "$rt" = minicudart ] && pre=$LIB
        line=$(LD_PRELOAD=$pre timeout 300 "$PY" bench/pytorch/bench.py 2>>"$OUT/stderr.$rt.txt" |
               grep '^PTBENCH ')
        echo "round $r $rt ${line:-PTBENCH failed}" | tee -a "$RAW"
    done
done
"$PY" - "$RAW" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"round (\d+) (\S+) PTBENCH (.*)", line)
    if not m or "failed" in m.group(3):
        continue
    vals = dict(kv.split("=") for kv in m.group(3).split())
    rows.setdefault(m.group(2), {})[int(m.group(1))] = {k: float(v) for k, v in vals.items()}
nv, mc = rows.get("nvidia", {}), rows.get("minicudart", {})
both = sorted(set(nv) & set(mc))
print("\n== PyTorch, minicudart against NVIDIA's runtime (%d rounds with both)" % len(both))
print("%-16s %12s %12s %8s %18s" % ("figure", "NVIDIA", "minicudart", "ratio", "per-round ratios"))
for k in ("import_ms", "first_kernel_ms", "op_us", "step_ms"):
    if not both:
        break
    a = statistics.median(nv[r][k] for r in both)
    b = statistics.median(mc[r][k] for r in both)
    per = [mc[r][k] / nv[r][k] for r in both if nv[r][k] > 0]
    print("%-16s %12.3f %12.3f %7.3fx %8.3f-%.3f" % (k, a, b, b / a if a else 0, min(per), max(per)))
if both:
    same = all(abs(nv[r]["loss"] - mc[r]["loss"]) <= 1e-3 * abs(nv[r]["loss"]) for r in both)
    print("last loss: NVIDIA %.4f, minicudart %.4f (%s)" % (nv[both[0]]["loss"], mc[both[0]]["loss"],
          "equal to 1e-3 in every round" if same else "DIFFER"))
PY
