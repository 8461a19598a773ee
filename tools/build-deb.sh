#!/usr/bin/env bash
# tools/build-deb.sh [--arch ARCH] [OUTDIR] - the Debian package:
# OUTDIR/minicudart_<version>_<arch>.deb (OUTDIR: default dist), made by CPack
# (cmake/package.cmake says what it holds) from a Release tree configured for /usr, with
# libcudart.so.13 and libcudart.so.12 in the private folder lib/<multiarch>/minicudart.
#
# ARCH: Debian's name of the machine the package is for; default this machine's, built with its
# C compiler.  arm64 on an amd64 machine is cross-built by zig cc (cmake/zig-aarch64.cmake, for
# glibc 2.28 or newer; zig from the ziglang package of tools/install-deps.sh's packaging
# environment, MINICUDART_PACKAGING_VENV), and dpkg-shlibdeps reads the Depends from the arm64
# libc6 that Debian's multiarch installs (libc6:arm64, which the arm64 development packages of
# zstd, LZ4 and zlib, needed by the configure, bring).
# Needs CMake, a C compiler, the CUDA toolkit's headers and dpkg-dev (dpkg-architecture,
# dpkg-shlibdeps): tools/install-deps.sh installs them.  Prints the package's path.
# Environment: MINICUDART_DEB_BUILD_DIR (the tree; default build/deb, or build/deb-ARCH for
# another machine's; reused), JOBS.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "build-deb: $*" >&2; exit 1; }
for tool in cmake cpack dpkg-architecture dpkg-shlibdeps; do
    command -v "$tool" >/dev/null || fail "$tool is missing: run tools/install-deps.sh"
done
build_arch=$(dpkg-architecture -qDEB_BUILD_ARCH)
arch=$build_arch
if [ "${1:-}" = --arch ]; then
    arch=${2:?"build-deb: --arch needs an architecture (amd64, arm64)"}
    shift 2
fi
out=${1:-dist}
jobs=${JOBS:-$(nproc)}
toolchain=()
if [ "$arch" = "$build_arch" ]; then
    tree=${MINICUDART_DEB_BUILD_DIR:-build/deb}
else
    case $build_arch/$arch in
    amd64/arm64) ;;
    *) fail "--arch $arch: only arm64 is cross-built (on amd64), not on $build_arch" ;;
    esac
    tree=${MINICUDART_DEB_BUILD_DIR:-build/deb-$arch}
    venv=${MINICUDART_PACKAGING_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/packaging}
    zig=$("$venv/bin/python" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))' 2>/dev/null) ||
        fail "$venv has no ziglang: run tools/install-deps.sh"
    toolchain=(-DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/zig-aarch64.cmake" -DZIG="$zig")
    [ -e /usr/lib/aarch64-linux-gnu/libc.so.6 ] ||
        fail "no libc6:arm64, from which dpkg-shlibdeps reads the Depends: run tools/install-deps.sh"
    # dpkg-shlibdeps (run by CPack) looks for the libraries the binaries need in arm64's folders.
    export DEB_HOST_ARCH=$arch
fi
multiarch=$(dpkg-architecture -a"$arch" -qDEB_HOST_MULTIARCH 2>/dev/null)
if [ -d /usr/local/cuda/bin ]; then
    export PATH=/usr/local/cuda/bin:$PATH
fi

log=$tree.log
mkdir -p "$(dirname "$tree")" "$out"
{
    cmake -S . -B "$tree" "${toolchain[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
        -DCMAKE_INSTALL_LIBDIR="lib/$multiarch" -DMINICUDART_DEB_ARCHITECTURE="$arch" \
        -DMINICUDART_INSTALL_DROPIN_DIR="lib/$multiarch/minicudart" \
        -DMINICUDART_TESTS=OFF -DMINICUDART_CUDA=OFF &&
        cmake --build "$tree" -j "$jobs" &&
        (cd "$tree" && rm -f ./*.deb && cpack -G DEB)
} >"$log" 2>&1 || { tail -n 40 "$log" >&2; fail "failed (log: $log)"; }
debs=("$tree"/*.deb)
if [ ${#debs[@]} != 1 ] || [ ! -f "${debs[0]}" ]; then
    echo "build-deb: cpack made no single package in $tree: ${debs[*]}" >&2
    exit 1
fi
cp "${debs[0]}" "$out/"
echo "$out/$(basename "${debs[0]}")"
