#!/usr/bin/env bash
# tools/cuda12-toolkit.sh [PREFIX] - nvcc 12.4, unpacked privately under PREFIX (default
# $MINICUDART_CUDA124_DIR, else ~/.cache/minicudart/cuda-12.4), for tests/cuda12: programs built
# by a CUDA 12 toolkit, whose host stubs call the runtime's CUDA 12 face (lib/cuda12).  Run by
# tools/install-deps.sh; cmake/cuda12.cmake finds PREFIX/bin/nvcc.
#
# NVIDIA's PyPI wheels of CUDA 12 carry no nvcc (ptxas alone), so the compiler comes from
# Debian trixie's non-free nvidia-cuda-toolkit (12.4.131: nvcc, cicc, cudafe++, ptxas, nvlink,
# fatbinary, libdevice), fetched with apt-get under a sources list, lists and cache of its own
# in a scratch folder (nothing of the system's apt state or dpkg database is touched; trixie's
# keys are in Debian's archive keyring).  Its headers and libcudart.so.12 come from the PyPI
# wheels of the same release, CUDA 12.4.1 (the runtime 12.4.127, crt/ from nvcc's 12.4.131,
# CCCL's Thrust, CUB and libcu++ from 12.4.127.post1, which cooperative_groups and the public
# programs include), which Debian packs into nvidia-cuda-dev, a download of 930 MB.  The programs are linked by
# the host compiler: nvcc's device link (-dlink) needs no libcudadevrt.a, which only that
# package has.
#
# Everything is assembled in a scratch folder beside PREFIX, which replaces PREFIX only once
# nvcc 12.4 answers from it; a stamp file in PREFIX makes a second run instant.  Layout:
#   PREFIX/bin/nvcc                          a wrapper running the real nvcc below
#   PREFIX/usr/lib/nvidia-cuda-toolkit/bin/  nvcc, cicc, nvcc.profile (ours), crt/*.stub
#   PREFIX/usr/bin/                          ptxas, nvlink, fatbinary, cudafe++, cuobjdump...
#   PREFIX/usr/include/                      12.4's headers (cuda_runtime.h, crt/...)
#   PREFIX/usr/lib/x86_64-linux-gnu/         NVIDIA's libcudart.so.12 and its .so link
# nvcc picks its host compiler with Debian's bin/g++ wrapper: the newest g++ from 13 down.
#
# Environment: MINICUDART_DEBIAN_MIRROR (default: the Debian mirror /etc/apt names, else
# deb.debian.org), MINICUDART_CUDA124_SUITE (default trixie).
set -euo pipefail

prefix=${1:-${MINICUDART_CUDA124_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/cuda-12.4}}
suite=${MINICUDART_CUDA124_SUITE:-trixie}
wheels="nvidia-cuda-runtime-cu12==12.4.127 nvidia-cuda-nvcc-cu12==12.4.131 nvidia-cuda-cccl-cu12==12.4.127.post1"
# The stamp: what the tree was made of.  A change to this list makes it again.
want="rev=2 suite=$suite nvidia-cuda-toolkit=12.4 $wheels"
stamp=$prefix/.minicudart-cuda124

say() { echo "cuda12-toolkit: $*" >&2; }
die() { say "$*"; exit 1; }

if [ -f "$stamp" ] && [ "$(head -n 1 "$stamp")" = "$want" ] &&
   "$prefix/bin/nvcc" --version 2>/dev/null | grep -q 'release 12\.4,'; then
  exit 0
fi

[ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] || die "only amd64 is supported"
mirror=${MINICUDART_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  # deb822 sources first, then one-line ones; Ubuntu's mirrors have no trixie.
  mirror=$(awk '/^URIs:/ && $2 ~ /debian\/?$/ {print $2; exit}' /etc/apt/sources.list.d/*.sources \
           2>/dev/null || true)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" {for (i = 2; i <= NF; i++)
      if ($i ~ /:\/\/.*debian\/?$/) {print $i; exit}}' /etc/apt/sources.list 2>/dev/null || true)
  [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || die "no $keyring (Debian's archive keys: apt-get install debian-archive-keyring)"

say "installing nvcc 12.4 into $prefix (Debian $suite's nvidia-cuda-toolkit, PyPI's $wheels)"
t0=$SECONDS
mkdir -p "$(dirname "$prefix")"
work=$(mktemp -d "$prefix.partial.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
apt=$work/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$root"

# ---- the toolkit's .deb, through apt with state of its own --------------------------------------
# non-free alone: its lists are 0.3 MB, where main's are 20 MB.
echo "deb [arch=amd64 signed-by=$keyring] $mirror $suite non-free" >"$apt/sources.list"
apt_options=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
             -o "Dir::State::status=/dev/null" -o Acquire::Languages=none
             -o Acquire::Retries=3)
if [ "$(id -u)" = 0 ]; then
  apt_options+=(-o APT::Sandbox::User=root)   # _apt could not write into the scratch folder
else
  apt_options+=(-o Debug::NoLocking=1)        # the lock files are root's to take
fi
apt-get "${apt_options[@]}" -qq update || die "apt-get update of $mirror $suite non-free failed"
version=$(apt-cache "${apt_options[@]}" show --no-all-versions nvidia-cuda-toolkit |
          awk '/^Version:/ {print $2; exit}')
case $version in
  12.4.*) ;;
  *) die "$suite's nvidia-cuda-toolkit is '$version', not 12.4 (set MINICUDART_CUDA124_SUITE)" ;;
esac
(cd "$apt/debs" && apt-get "${apt_options[@]}" -qq download "nvidia-cuda-toolkit=$version") ||
  die "apt-get download nvidia-cuda-toolkit=$version failed"
# Not the compute sanitizer, nvdisasm or the documentation (80 of its 250 MB).
dpkg-deb --fsys-tarfile "$apt"/debs/nvidia-cuda-toolkit_*.deb |
  tar -x -C "$root" --exclude='./usr/lib/nvidia-cuda-toolkit/compute-sanitizer' \
      --exclude='./usr/bin/compute-sanitizer' --exclude='./usr/bin/nvdisasm' \
      --exclude='./usr/share' --exclude='./etc' --exclude='./usr/lib/cuda'
say "nvidia-cuda-toolkit $version unpacked ($((SECONDS - t0)) s)"

# ---- headers and runtime from the wheels ----------------------------------------------------------
# shellcheck disable=SC2086
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  -d "$work/wheels" $wheels || die "pip download $wheels failed"
unzip -q "$work"/wheels/nvidia_cuda_runtime_cu12-*.whl 'nvidia/cuda_runtime/*' -d "$work/w"
unzip -q "$work"/wheels/nvidia_cuda_nvcc_cu12-*.whl 'nvidia/cuda_nvcc/include/*' -d "$work/w"
unzip -q "$work"/wheels/nvidia_cuda_cccl_cu12-*.whl 'nvidia/cuda_cccl/include/*' -d "$work/w"
find "$work/w" -name __init__.py -delete
mkdir -p "$root/usr/include" "$root/usr/lib/x86_64-linux-gnu" "$root/bin"
cp -r "$work/w/nvidia/cuda_runtime/include/." "$work/w/nvidia/cuda_nvcc/include/." \
      "$work/w/nvidia/cuda_cccl/include/." "$root/usr/include/"
cp "$work/w/nvidia/cuda_runtime/lib/libcudart.so.12" "$root/usr/lib/x86_64-linux-gnu/"
# Wheels hold no links; -cudart=shared links -lcudart.
ln -s libcudart.so.12 "$root/usr/lib/x86_64-linux-gnu/libcudart.so"

# ---- nvcc's profile and the wrapper -------------------------------------------------------------------
# Debian's profile is a link to /etc/nvcc.profile, with /usr paths; ours is relative to nvcc
# (_HERE_ is the folder of the nvcc run, not of a link to it: hence a wrapper, not a link).
tk=$root/usr/lib/nvidia-cuda-toolkit/bin
rm -f "$tk/nvcc.profile"
cat >"$tk/nvcc.profile" <<'EOF'
# nvcc 12.4 unpacked by minicudart's tools/cuda12-toolkit.sh: everything from this tree.
NVVMIR_LIBRARY_DIR = $(_HERE_)/../libdevice
PATH		+= $(_HERE_):$(_HERE_)/../../../bin:
INCLUDES	+= "-I$(_HERE_)/../../../include" $(_SPACE_)
LIBRARIES	=+ $(_SPACE_) "-L$(_HERE_)/../../x86_64-linux-gnu"
EOF
rm -f "$root/usr/bin/nvcc"   # Debian's, with absolute paths
cat >"$root/bin/nvcc" <<'EOF'
#!/bin/sh
# nvcc 12.4 of this tree (minicudart's tools/cuda12-toolkit.sh).
exec "$(dirname "$(readlink -f "$0")")/../usr/lib/nvidia-cuda-toolkit/bin/nvcc" "$@"
EOF
chmod +x "$root/bin/nvcc"
absolute=$(find "$root" -lname '/*')
[ -z "$absolute" ] || die "links out of the tree: $absolute"
"$root/bin/nvcc" --version | grep -q 'release 12\.4,' || die "the unpacked nvcc is not 12.4"

printf '%s\nnvidia-cuda-toolkit=%s from %s\n' "$want" "$version" "$mirror" >"$root/.minicudart-cuda124"
rm -rf "$prefix"
mv "$root" "$prefix"
say "nvcc 12.4 ready: $prefix/bin/nvcc ($((SECONDS - t0)) s)"
