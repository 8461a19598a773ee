#!/usr/bin/env bash
# make_lib.sh - builds the registration benchmark's library, OUTDIR/libregbench.so (see
#   bench/registration/README.md), linked against CUDART_DIR/libcudart.so.13 (DT_NEEDED
#   libcudart.so.13, as a framework's library has; any libcudart.so.13 serves at run time).
# usage: make_lib.sh OUTDIR NVCC CC CUDART_DIR [ARCH]
# environment: REGBENCH_FATBINS (450), REGBENCH_KERNELS (48 per fatbin), REGBENCH_SOURCES (4),
#              REGBENCH_FILES (10), REGBENCH_FILLER (2), JOBS (2)
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 OUTDIR NVCC CC CUDART_DIR [ARCH]" >&2; exit 2; }
OUT=$1 NVCC=$2 CC=$3 CUDART_DIR=$4 ARCH=${5:-sm_90}
HERE=$(cd "$(dirname "$0")" && pwd)
JOBS=${JOBS:-2}
FILES=${REGBENCH_FILES:-10}
SOURCES=${REGBENCH_SOURCES:-4}

mkdir -p "$OUT"
cd "$OUT"
rm -f src_*.cu src_*.fatbin units_*.S table.S ./*.o libregbench*.so
python3 "$HERE/gen.py" . --fatbins "${REGBENCH_FATBINS:-450}" --kernels "${REGBENCH_KERNELS:-48}" \
    --sources "$SOURCES" --files "$FILES" --filler "${REGBENCH_FILLER:-2}"

# The device code: nvcc, a few sources of many kernels each.
seq 0 $((SOURCES - 1)) |
    xargs -P "$JOBS" -I{} "$NVCC" -fatbin -arch="$ARCH" src_{}.cu -o src_{}.fatbin

# The host side: the generated units (assembly) and lib.c, the constructor.
seq 0 $((FILES - 1)) | xargs -P "$JOBS" -I{} "$CC" -c units_{}.S -o units_{}.o
"$CC" -c table.S -o table.o
"$CC" -O2 -fPIC -Wall -Wextra -c "$HERE/lib.c" -o lib.o
"$CC" -shared -o libregbench.so lib.o table.o units_*.o -L"$CUDART_DIR" -l:libcudart.so.13
rm -f units_*.o units_*.S
echo "make_lib.sh: $OUT/libregbench.so"
