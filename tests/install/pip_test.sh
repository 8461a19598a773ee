#!/usr/bin/env bash
# pip_test.sh [--wheel VERSION] SOURCE_DIR WORK_DIR PROGRAM NVIDIA_LIB_DIR [PROGRAM12 NVIDIA12_DIR]
# `pip install .` into a fresh virtual environment (scikit-build-core builds minicudart with
# CMake), then the installed command serves a -cudart=shared program, as `minicudart run` and as
# `python -m minicudart run`; and PROGRAM12, built by a CUDA 12 toolkit (nvcc 12.4), where given,
# on the environment's libcudart.so.12 as NVIDIA's 12.9 runtime answers it.  Exit 77 (ctest: skipped) only when no package index is reachable
# for the build backend; everything else failing fails.
#
# With --wheel (the test package_wheel): tools/build-wheel.sh makes the binary wheel and the
# sdist; the wheel's name (VERSION, the tree's, and a manylinux tag), what auditwheel says of it
# and its contents are checked; then it is installed with --no-index --only-binary=:all: (no
# index, no build, no compiler) and used as above.  Needs no package index: the tools are those
# of tools/install-deps.sh, whose absence fails the test.
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
    wheel=$(TMPDIR=$work/tmp "$src/tools/build-wheel.sh" "$work/dist" 2>"$work/build.err") ||
        { cat "$work/build.err"; fail "tools/build-wheel.sh failed"; }
    name=$(basename "$wheel")
    echo "pip: built $name ($(stat -c %s "$wheel") bytes) in $((SECONDS - start)) s"
    [[ $name =~ ^minicudart-${version//+/\\+}-py3-none-manylinux_2_([0-9]+)_x86_64\.whl$ ]] ||
        fail "wheel $name: not minicudart-$version-py3-none-manylinux_2_<N>_x86_64.whl"
    tag=manylinux_2_${BASH_REMATCH[1]}_x86_64
    [ -f "$work/dist/minicudart-$version.tar.gz" ] || fail "no sdist minicudart-$version.tar.gz"
    for f in pyproject.toml CMakeLists.txt lib/core/core.h python/minicudart/__init__.py; do
        tar -tzf "$work/dist/minicudart-$version.tar.gz" | grep -qx "minicudart-$version/$f" ||
            fail "the sdist has no $f"
    done
    # auditwheel's verdict on the repaired wheel: that tag, and nothing grafted in.
    venv_tools=${MINICUDART_PACKAGING_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/packaging}
    "$venv_tools/bin/python" -m auditwheel show "$wheel" >"$work/show.log" 2>&1 ||
        { cat "$work/show.log"; fail "auditwheel show failed"; }
    tr -s ' \n' ' ' <"$work/show.log" | grep -q "consistent with the following platform tag: \"$tag\"" ||
        { cat "$work/show.log"; fail "auditwheel show does not say $tag"; }
    # Exactly these files (a wheel has no links: no libcudart.so copy, and minicudart-run/ holds
    # copies of the two libraries), and no grafted library.
    data=minicudart-$version.data/data
    printf '%s\n' minicudart/__init__.py minicudart/__main__.py \
        "$data/bin/fatbin" "$data/bin/minicudart" "$data/include/minicudart.h" \
        "$data/lib/libcudart.so.13" "$data/lib/libcudart.so.12" \
        "$data/lib/minicudart-run/libcudart.so.13" "$data/lib/minicudart-run/libcudart.so.12" \
        "$data/lib/libminicudart.a" "$data/lib/libminicudart12.a" \
        "$data/lib/pkgconfig/minicudart.pc" "$data/lib/pkgconfig/minicudart12.pc" \
        "$data/lib/cmake/minicudart/minicudartConfig.cmake" \
        "$data/lib/cmake/minicudart/minicudartConfigVersion.cmake" \
        "$data/lib/cmake/minicudart/minicudartTargets.cmake" \
        "$data/lib/cmake/minicudart/minicudartTargets-release.cmake" \
        "minicudart-$version.dist-info/METADATA" "minicudart-$version.dist-info/WHEEL" \
        "minicudart-$version.dist-info/RECORD" "minicudart-$version.dist-info/licenses/LICENSE" |
        sort >"$work/want.txt"
    python3 -c 'import sys, zipfile; print("\n".join(n for n in zipfile.ZipFile(sys.argv[1]).namelist() if not n.endswith("/")))' \
        "$wheel" | sort >"$work/have.txt"
    diff "$work/want.txt" "$work/have.txt" >"$work/contents.diff" ||
        { cat "$work/contents.diff"; fail "the wheel's files are not the expected ones (< missing, > extra)"; }
    unzip -p "$wheel" "minicudart-$version.dist-info/WHEEL" | grep -qx "Tag: py3-none-$tag" ||
        fail "the WHEEL file's tag is not py3-none-$tag"
    # No index, binaries only: nothing can be built, so no compiler is used.
    "$pip" install -q --no-index --only-binary=:all: "$wheel" >"$work/install.log" 2>&1 ||
        { tail -n 20 "$work/install.log"; fail "pip install --no-index --only-binary=:all: failed"; }
    echo "pip: $tag; sdist $(stat -c %s "$work/dist/minicudart-$version.tar.gz") bytes"
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
