#!/usr/bin/env bash
# pip_test.sh [--wheel VERSION] SOURCE_DIR WORK_DIR PROGRAM NVIDIA_LIB_DIR [PROGRAM12 NVIDIA12_DIR]
# `pip install .` into a fresh virtual environment (scikit-build-core builds minicudart with
# CMake), then the installed command serves a -cudart=shared program, as `minicudart run` and as
# `python -m minicudart run`; and PROGRAM12, built by a CUDA 12 toolkit (nvcc 12.4), where given,
# on the environment's libcudart.so.12 as NVIDIA's 12.9 runtime answers it.  Exit 77 (ctest: skipped) only when no package index is reachable
# for the build backend; everything else failing fails.
#
# With --wheel (the test package_wheel): tools/build-wheel.sh --arch x86_64 makes the x86-64
# binary wheel and the sdist; wheel_check.sh checks the wheel (its name: VERSION, the tree's, and
# manylinux_2_28_x86_64; what auditwheel says of it; its files; glibc 2.28's symbols at most);
# then it is installed with --no-index --only-binary=:all: (no index, no build, no compiler) and
# used as above.  Needs no package index: the tools are those of tools/install-deps.sh, whose
# absence fails the test.  (The aarch64 wheel: wheel_aarch64_test.sh.)
set -u
mode=source
if [ "${1:-}" = --wheel ]; then
    mode=wheel version=$2
    shift 2
fi
src=$1 work=$2 program=$3 nvidia_dir=$4 program12=${5:-} nvidia12_dir=${6:-}
fail() { echo "pip: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
python3 -m venv "$work/venv" >"$work/venv.log" 2>&1 || fail "python3 -m venv failed: $(tail -n 2 "$work/venv.log")"
pip=$work/venv/bin/pip
prefix=$work/venv
if [ $mode = source ]; then
    if ! "$pip" download -q --no-deps -d "$work/probe" scikit-build-core >"$work/probe.log" 2>&1; then
        echo "pip: no package index reachable for the build backend: not run"
        tail -n 2 "$work/probe.log"
        exit 77
    fi
    "$pip" install -q "$src" >"$work/install.log" 2>&1 || { tail -n 20 "$work/install.log"; fail "pip install failed"; }
else
    mkdir -p "$work/tmp"
    start=$SECONDS
    wheel=$(TMPDIR=$work/tmp "$src/tools/build-wheel.sh" --arch x86_64 "$work/dist" 2>"$work/build.err") ||
        { cat "$work/build.err"; fail "tools/build-wheel.sh --arch x86_64 failed"; }
    echo "pip: built $(basename "$wheel") ($(stat -c %s "$wheel") bytes) in $((SECONDS - start)) s"
    [ -f "$work/dist/minicudart-$version.tar.gz" ] || fail "no sdist minicudart-$version.tar.gz"
    for f in pyproject.toml CMakeLists.txt lib/core/core.h python/minicudart/__init__.py \
             cmake/zig-common.cmake cmake/zig-x86_64.cmake cmake/zig-aarch64.cmake; do
        tar -tzf "$work/dist/minicudart-$version.tar.gz" | grep -qx "minicudart-$version/$f" ||
            fail "the sdist has no $f"
    done
    # Its name, tag, auditwheel's verdict, files, machine and glibc symbols.
    "$src/tests/install/wheel_check.sh" "$version" x86_64 "$wheel" "$work/check" ||
        fail "the wheel is not as it should be"
    # No index, binaries only: nothing can be built, so no compiler is used.
    "$pip" install -q --no-index --only-binary=:all: "$wheel" >"$work/install.log" 2>&1 ||
        { tail -n 20 "$work/install.log"; fail "pip install --no-index --only-binary=:all: failed"; }
    echo "pip: sdist $(stat -c %s "$work/dist/minicudart-$version.tar.gz") bytes"
fi
for f in bin/minicudart bin/fatbin lib/libcudart.so.13 lib/libcudart.so.12 \
         lib/minicudart-run/libcudart.so.13 lib/minicudart-run/libcudart.so.12 \
         lib/libminicudart.a lib/libminicudart12.a include/minicudart.h \
         lib/cmake/minicudart/minicudartConfig.cmake lib/pkgconfig/minicudart.pc \
         lib/pkgconfig/minicudart12.pc; do
    [ -e "$prefix/$f" ] || fail "$f not installed"
done
"$prefix/bin/minicudart" --version >"$work/version.out" || fail "minicudart --version failed"
if [ $mode = wheel ]; then
    grep -qx "minicudart $version" "$work/version.out" || fail "minicudart --version: $(head -n 1 "$work/version.out"), want $version"
fi
for lib in libcudart.so.13 libcudart.so.12; do
    grep -qx "library: $(realpath "$prefix/lib/$lib")" "$work/version.out" ||
        fail "minicudart --version does not name the environment's $lib: $(cat "$work/version.out")"
done
grep -q "^search folder: $(realpath "$prefix/lib/minicudart-run") " "$work/version.out" ||
    fail "minicudart --version does not name the environment's minicudart-run: $(cat "$work/version.out")"
[ "$(ls -A "$prefix/lib/minicudart-run" | tr '\n' ' ')" = "libcudart.so.12 libcudart.so.13 " ] ||
    fail "lib/minicudart-run holds $(ls -A "$prefix/lib/minicudart-run")"
# The .pc file names the environment, wherever pip put it (its prefix is relative to the file).
if command -v pkg-config >/dev/null; then
    for pc in minicudart minicudart12; do
        read -r inc _ < <(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags-only-I $pc)
        [ -f "${inc#-I}/minicudart.h" ] || fail "pkg-config --cflags $pc: $inc has no minicudart.h"
    done
fi
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
if [ -n "$program12" ]; then
    LD_LIBRARY_PATH=$nvidia12_dir "$program12" >"$work/nvidia12.out" 2>&1
    nv_rc=$?
    LD_LIBRARY_PATH=$nvidia12_dir "$prefix/bin/minicudart" run -- "$program12" >"$work/run12.out" 2>"$work/run12.err"
    rc=$?
    [ "$rc" = "$nv_rc" ] || fail "CUDA 12 program: exit status $rc, $nv_rc under NVIDIA's 12.9 runtime"
    grep -qx 'runtime: minicudart' "$work/run12.out" || fail "CUDA 12 program: minicudart did not serve it"
    diff <(tail -n +2 "$work/nvidia12.out") <(tail -n +2 "$work/run12.out") || fail "CUDA 12 program: outputs differ"
    echo "pip: minicudart run served a CUDA 12 program with the environment's libcudart.so.12"
fi
"$prefix/bin/fatbin" list "$program" | tail -n 1
if [ $mode = wheel ]; then
    echo "pip: the wheel installed with no index and no build; minicudart run and python -m minicudart run served the program"
else
    echo "pip: installed into a fresh environment; minicudart run and python -m minicudart run served the program"
fi
