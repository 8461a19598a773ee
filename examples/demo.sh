#!/usr/bin/env bash
# examples/demo.sh - build minicudart and the seed program, and run it with the trace on.
#
# usage (from anywhere):  examples/demo.sh
# On a machine with a GPU: vadd adds two vectors through minicudart, and the trace on stderr
# (lines "minicudart: ...") shows the fatbin being registered, the image chosen for the GPU and
# the launch.  Without a GPU or driver, vadd exits with code 2, and the demo shows instead what
# can be seen without one: the fatbin inside the vadd binary, the image minicudart would choose
# for sm_90, and the kernels in it, through the `fatbin` inspector.
# Exit: 0 on PASS or when the no-GPU part was shown; non-zero on a real failure.
set -u
cd "$(dirname "$0")/.." || exit 1

echo "== building minicudart, vadd and the fatbin inspector in build/"
mkdir -p build
{ cmake -S . -B build -DMINICUDART_TESTS=OFF && cmake --build build -j2 --target vadd fatbin; } \
    >build/demo-build.log 2>&1 ||
    { tail -n 30 build/demo-build.log; echo "demo: build failed (log: build/demo-build.log)"; exit 1; }

vadd=build/examples/vadd/vadd
fatbin=build/fatbin/fatbin
echo
echo "== MINICUDART_TRACE=1 $vadd"
MINICUDART_TRACE=1 "$vadd" 2>&1  # the trace goes to stderr; keep it in order with the output
rc=$?
case $rc in
0)
    echo "== demo: vadd ran on the GPU through minicudart and matched the CPU"
    exit 0
    ;;
2)
    echo
    echo "== demo: no CUDA driver or GPU on this machine, so vadd could not run (exit code 2)."
    echo "   Registration ran anyway (it needs no GPU: see the trace above).  What minicudart"
    echo "   would load, read from the vadd binary itself:"
    failed=0
    for cmd in "list $vadd" "choose --sm 90 $vadd" "kernels $vadd --sm 90"; do
        echo
        echo "== $fatbin $cmd"
        # shellcheck disable=SC2086  # the words of $cmd are separate arguments
        "$fatbin" $cmd || { echo "demo: fatbin $cmd failed"; failed=1; }
    done
    exit $failed
    ;;
*)
    echo "== demo: vadd FAILED (exit code $rc)"
    exit 1
    ;;
esac
