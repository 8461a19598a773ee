#!/usr/bin/env bash
# pip_test.sh SOURCE_DIR WORK_DIR PROGRAM NVIDIA_LIB_DIR
# `pip install .` into a fresh virtual environment (scikit-build-core builds minicudart with
# CMake), then the installed command serves a -cudart=shared program, as `minicudart run` and as
# `python -m minicudart run`.  Exit 77 (ctest: skipped) only when no package index is reachable
# for the build backend; everything else failing fails.
set -u
src=$1 work=$2 program=$3 nvidia_dir=$4
fail() { echo "pip: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
python3 -m venv "$work/venv" >"$work/venv.log" 2>&1 || fail "python3 -m venv failed: $(tail -n 2 "$work/venv.log")"
pip=$work/venv/bin/pip
if ! "$pip" download -q --no-deps -d "$work/probe" scikit-build-core >"$work/probe.log" 2>&1; then
    echo "pip: no package index reachable for the build backend: not run"
    tail -n 2 "$work/probe.log"
    exit 77
fi
"$pip" install -q "$src" >"$work/install.log" 2>&1 || { tail -n 20 "$work/install.log"; fail "pip install failed"; }
prefix=$work/venv
for f in bin/minicudart bin/fatbin lib/libcudart.so.13 lib/libminicudart.a include/minicudart.h; do
    [ -e "$prefix/$f" ] || fail "$f not installed"
done
LD_LIBRARY_PATH=$nvidia_dir "$program" >"$work/nvidia.out" 2>&1
nv_rc=$?
for how in command module; do
    if [ $how = command ]; then run=("$prefix/bin/minicudart" run --); else run=("$prefix/bin/python" -m minicudart run --); fi
    LD_LIBRARY_PATH=$nvidia_dir "${run[@]}" "$program" >"$work/$how.out" 2>"$work/$how.err"
    rc=$?
    [ "$rc" = "$nv_rc" ] || fail "$how: exit status $rc, $nv_rc under NVIDIA's runtime"
    grep -qx 'runtime: minicudart' "$work/$how.out" || fail "$how: minicudart did not serve the program"
    diff <(tail -n +2 "$work/nvidia.out") <(tail -n +2 "$work/$how.out") || fail "$how: outputs differ"
done
"$prefix/bin/fatbin" list "$program" | tail -n 1
echo "pip: installed into a fresh environment; minicudart run and python -m minicudart run served the program"
