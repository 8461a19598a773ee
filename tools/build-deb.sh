#!/usr/bin/env bash
# tools/build-deb.sh [OUTDIR] - the Debian package: OUTDIR/minicudart_<version>_<arch>.deb
# (OUTDIR: default dist), made by CPack (cmake/package.cmake says what it holds) from a Release
# tree configured for /usr, with libcudart.so.13 and libcudart.so.12 in the private folder
# lib/<multiarch>/minicudart.
# Needs CMake, a C compiler, the CUDA toolkit's headers and dpkg-dev (dpkg-architecture,
# dpkg-shlibdeps): tools/install-deps.sh installs them.  Prints the package's path.
# Environment: MINICUDART_DEB_BUILD_DIR (the tree; default build/deb, reused), JOBS.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
tree=${MINICUDART_DEB_BUILD_DIR:-build/deb}
jobs=${JOBS:-$(nproc)}

for tool in cmake cpack dpkg-architecture dpkg-shlibdeps; do
    command -v "$tool" >/dev/null ||
        { echo "build-deb: $tool is missing: run tools/install-deps.sh" >&2; exit 1; }
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
if [ -d /usr/local/cuda/bin ]; then
    export PATH=/usr/local/cuda/bin:$PATH
fi

log=$tree.log
mkdir -p "$(dirname "$tree")" "$out"
{
    cmake -S . -B "$tree" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
        -DCMAKE_INSTALL_LIBDIR="lib/$multiarch" \
        -DMINICUDART_INSTALL_DROPIN_DIR="lib/$multiarch/minicudart" \
        -DMINICUDART_TESTS=OFF -DMINICUDART_CUDA=OFF &&
        cmake --build "$tree" -j "$jobs" &&
        (cd "$tree" && rm -f ./*.deb && cpack -G DEB)
} >"$log" 2>&1 || { tail -n 40 "$log" >&2; echo "build-deb: failed (log: $log)" >&2; exit 1; }
debs=("$tree"/*.deb)
if [ ${#debs[@]} != 1 ] || [ ! -f "${debs[0]}" ]; then
    echo "build-deb: cpack made no single package in $tree: ${debs[*]}" >&2
    exit 1
fi
cp "${debs[0]}" "$out/"
echo "$out/$(basename "${debs[0]}")"
