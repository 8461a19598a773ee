#!/usr/bin/env bash
# bench/callgrind/run.sh - instructions the runtime adds to one cudaGraphLaunch, counted with
# callgrind against the fake driver (no GPU needed; valgrind needed).
#
# usage (repository root):  bash bench/callgrind/run.sh [BUILD_DIR] [LAUNCHES]
#   BUILD_DIR: a configured build with libminicudart.a and the fake driver (default build);
#   the two targets are built there first.  LAUNCHES: per loop (default 1000).
# Prints per call: the runtime's loop, the driver's loop, what the fake driver's functions cost
# inside the runtime's loop, and what is left: the runtime's own instructions.
set -eu
cd "$(dirname "$0")/../.." || exit 1
B=${1:-build}
N=${2:-1000}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
cmake --build "$B" -j 2 --target minicudart fakecuda >/dev/null
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
gcc -std=c11 -O2 -g -I"$CUDA_HOME/include" bench/callgrind/graph_launch.c "$B/lib/libminicudart.a" \
    -ldl -lpthread -o "$T/graph_launch"
export MINICUDART_DRIVER=$PWD/$B/tests/fake/libfakecuda.so
for loop in loop_runtime loop_driver; do
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect="$loop" \
        --callgrind-out-file="$T/$loop.out" "$T/graph_launch" "$N" >/dev/null 2>&1
    callgrind_annotate --inclusive=yes "$T/$loop.out" 2>/dev/null >"$T/$loop.txt"
done
# inclusive Ir of a function in a loop's profile
ir() { awk -v f="$2" '$0 ~ (":" f " \\[") { gsub(",", "", $1); print $1; exit }' "$T/$1.txt"; }
awk -v n="$N" -v rt="$(ir loop_runtime loop_runtime)" -v drv="$(ir loop_driver loop_driver)" \
    -v fl="$(ir loop_runtime f_cuGraphLaunch)" -v fc="$(ir loop_runtime f_cuCtxGetCurrent)" 'BEGIN {
    printf "instructions per call (%d calls a loop, callgrind, fake driver):\n", n
    printf "  cudaGraphLaunch loop          %8.1f\n", rt / n
    printf "  cuGraphLaunch loop (driver)   %8.1f\n", drv / n
    printf "  of the runtime loop, fake cuGraphLaunch %8.1f, fake cuCtxGetCurrent %8.1f\n", fl / n, fc / n
    printf "  the runtime'"'"'s own code            %8.1f\n", (rt - fl - fc) / n }'
