#!/usr/bin/env bash
# tests/gpu/multigpu_samples.sh - NVIDIA's multi-GPU cuda-samples on minicudart.
#
# Builds simpleP2P, streamOrderedAllocationP2P and conjugateGradientMultiDeviceCG from
# $SAMPLES_DIR (a checkout of NVIDIA/cuda-samples' Samples tree, outside this repository; its
# sources never enter it) the way their
# CMakeLists do (C++17, --extended-lambda, CUDA_SEPARABLE_COMPILATION: -rdc + a device link;
# conjugateGradientMultiDeviceCG also links cuBLAS and cuSPARSE), for sm_90, twice:
#   nvidia      nvcc -cudart=shared                       (NVIDIA's libcudart.so.13)
#   minicudart  nvcc -cudart=none ... libminicudart.a -ldl -lpthread   (-cudart=none skips the
#               device link: the explicit nvcc -dlink object is linked in both variants)
# and runs the NVIDIA build a third time with minicudart's libcudart.so.13 first on
# LD_LIBRARY_PATH ("swap", MINICUDART_TRACE=1 counts the lines that prove minicudart served it).
# Compares exit codes and the samples' PASS/FAIL lines; prints a table last.
#
# usage (on a machine with 2 GPUs):   SAMPLES_DIR=<dir> tests/gpu/multigpu_samples.sh
# environment: SAMPLES_BUILD (work dir, default build-gpurun/multigpu-samples),
#              MINICUDART_BUILD (a configured minicudart tree to reuse, e.g. build-gpurun/cmake;
#              default: a Release tree of its own under SAMPLES_BUILD), SAMPLES_TIMEOUT_S (120),
#              SAMPLES_COMPILE_ONLY=1 (build, do not run: for a machine without a GPU),
#              CUDA_HOME (/usr/local/cuda).
# Exit: 0 every sample passed (or was waived) under all three and equalled NVIDIA's result,
#       1 otherwise.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
S=${SAMPLES_DIR:-$ROOT/.gpu/samples}
W=${SAMPLES_BUILD:-$ROOT/build-gpurun/multigpu-samples}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=$CUDA_HOME/bin/nvcc
CUDA_LIB=$CUDA_HOME/lib64
TIMEOUT=${SAMPLES_TIMEOUT_S:-120}
JOBS=$(nproc 2>/dev/null || echo 4)
[ "$JOBS" -gt 16 ] && JOBS=16
export PATH=$CUDA_HOME/bin:$PATH
# NVLink multicast stays off on the GPU machines (none of these samples uses it; NCCL would).
export NCCL_NVLS_ENABLE=0

# name | directory under $SAMPLES_DIR (with Common/ beside) | extra link libraries
SAMPLES="simpleP2P|simpleP2P|
streamOrderedAllocationP2P|streamOrderedAllocationP2P|
conjugateGradientMultiDeviceCG|conjugateGradientMultiDeviceCG|-lcublas -lcusparse"
CFLAGS="-arch=sm_90 -std=c++17 --extended-lambda -lineinfo -Wno-deprecated-gpu-targets -O2"

mkdir -p "$W/logs" "$W/bin" "$W/obj"
echo "== tests/gpu/multigpu_samples.sh: $(date -u +%FT%TZ), work dir $W"
if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>&1 | head -n 8
    nvidia-smi topo -m 2>/dev/null | head -n 4
fi

# 1. minicudart: libminicudart.a and libcudart.so.13.
build_minicudart() {
    local tree=${MINICUDART_BUILD:-$W/minicudart}
    local gen=()
    command -v ninja >/dev/null && gen=(-G Ninja)
    if [ ! -f "$tree/CMakeCache.txt" ]; then
        cmake -S "$ROOT" -B "$tree" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
            -DMINICUDART_TESTS=OFF -DCMAKE_CUDA_COMPILER="$NVCC" || return 1
    fi
    cmake --build "$tree" -j "$JOBS" --target minicudart minicudart_shared || return 1
    MC_A=$(find "$tree" -name libminicudart.a -type f | head -n 1)
    MC_SO_DIR=$(dirname "$(find "$tree" -name 'libcudart.so.13' | head -n 1)")
    [ -f "$MC_A" ]
}

# 2. one sample: compile (-rdc), device link, link twice.
build_sample() {
    local name=$1 dir=$2 libs=$3 o=$W/obj/$1
    mkdir -p "$o"
    "$NVCC" $CFLAGS -rdc=true -I"$S/Common" -c "$S/$dir/$name.cu" -o "$o/$name.o" || return 1
    "$NVCC" -arch=sm_90 -dlink "$o/$name.o" -o "$o/dlink.o" -lcudadevrt || return 1
    "$NVCC" -arch=sm_90 -cudart=shared "$o/$name.o" "$o/dlink.o" -o "$W/bin/$name.nvidia" \
        -L"$CUDA_LIB" $libs -Xlinker -rpath -Xlinker "$CUDA_LIB" || return 1
}
link_minicudart() {
    local name=$1 libs=$3 o=$W/obj/$1
    "$NVCC" -arch=sm_90 -cudart=none "$o/$name.o" "$o/dlink.o" -o "$W/bin/$name.minicudart" \
        -L"$CUDA_LIB" $libs -Xlinker -rpath -Xlinker "$CUDA_LIB" "$MC_A" -ldl -lpthread
}

START=$SECONDS
build_minicudart >"$W/logs/build-minicudart.log" 2>&1 &
MC_PID=$!
declare -A BUILD
while IFS='|' read -r name dir libs; do
    ( build_sample "$name" "$dir" "$libs" >"$W/logs/build-$name.log" 2>&1; echo $? >"$W/logs/build-$name.rc" ) &
done <<<"$SAMPLES"
wait
# The minicudart tree ran in a subshell: find its outputs again.
tree=${MINICUDART_BUILD:-$W/minicudart}
MC_A=$(find "$tree" -name libminicudart.a -type f 2>/dev/null | head -n 1)
MC_SO=$(find "$tree" -name 'libcudart.so.13' 2>/dev/null | head -n 1)
MC_SO_DIR=${MC_SO:+$(dirname "$MC_SO")}
if [ -z "$MC_A" ]; then
    echo "== minicudart did not build:"; tail -n 20 "$W/logs/build-minicudart.log"
fi
while IFS='|' read -r name dir libs; do
    rc=$(cat "$W/logs/build-$name.rc" 2>/dev/null || echo none)
    if [ "$rc" != 0 ]; then
        BUILD[$name]="build-failed"
        echo "== $name: build failed: $(grep -m1 -iE 'error|undefined' "$W/logs/build-$name.log")"
        continue
    fi
    if [ -n "$MC_A" ] && link_minicudart "$name" "$dir" "$libs" >"$W/logs/link-$name.log" 2>&1; then
        BUILD[$name]=ok
    else
        BUILD[$name]="link-failed"
        echo "== $name: minicudart link failed; undefined: $(grep -o "undefined reference to \`[^']*'" "$W/logs/link-$name.log" | sort -u | tr '\n' ' ')"
    fi
done <<<"$SAMPLES"
echo "== builds done at $((SECONDS - START))s"
for name in $(cut -d'|' -f1 <<<"$SAMPLES"); do
    [ -x "$W/bin/$name.minicudart" ] || continue
    printf '%s: NVIDIA runtime linked in: %s\n' "$name" \
        "$(ldd "$W/bin/$name.minicudart" 2>/dev/null | grep -c 'libcudart\.so')"
done
if [ "${SAMPLES_COMPILE_ONLY:-0}" = 1 ]; then
    for name in $(cut -d'|' -f1 <<<"$SAMPLES"); do echo "$name: ${BUILD[$name]}"; done
    exit 0
fi

# 3. runs: exit code and the PASS/FAIL lines of each.
verdict_lines() {   # the samples' own result lines
    grep -E 'Test passed|Test failed|PASSED|FAILED|Waiving|waiv|Verification error|mismatch' "$1" |
        sed 's/[[:space:]]*$//'
}
run_variant() {     # name variant -> prints the exit code; output in $W/run/<name>.<variant>.out
    local name=$1 variant=$2 bin out err rc
    mkdir -p "$W/run"
    out=$W/run/$name.$variant.out
    err=$W/run/$name.$variant.err
    case $variant in
    nvidia) bin=$W/bin/$name.nvidia ;;
    minicudart) bin=$W/bin/$name.minicudart ;;
    swap) bin=$W/bin/$name.nvidia ;;
    esac
    [ -x "$bin" ] || { echo build; return; }
    if [ "$variant" = swap ]; then
        [ -n "$MC_SO_DIR" ] || { echo build; return; }
        ( cd "$W/run" && LD_LIBRARY_PATH=$MC_SO_DIR:$CUDA_LIB MINICUDART_TRACE=1 \
            timeout -k 5 "$TIMEOUT" "$bin" ) </dev/null >"$out" 2>"$err"
    else
        ( cd "$W/run" && timeout -k 5 "$TIMEOUT" "$bin" ) </dev/null >"$out" 2>"$err"
    fi
    rc=$?
    echo "$rc"
}

rows=()
failures=0
for name in $(cut -d'|' -f1 <<<"$SAMPLES"); do
    t0=$SECONDS
    nv=$(run_variant "$name" nvidia)
    t1=$SECONDS
    mc=$(run_variant "$name" minicudart)
    t2=$SECONDS
    sw=$(run_variant "$name" swap)
    served=$(grep -c '^minicudart: ' "$W/run/$name.swap.err" 2>/dev/null)
    served=${served:-0}
    same_lines=-
    if [ -f "$W/run/$name.nvidia.out" ] && [ -f "$W/run/$name.minicudart.out" ]; then
        if diff <(verdict_lines "$W/run/$name.nvidia.out") \
                <(verdict_lines "$W/run/$name.minicudart.out") >"$W/run/$name.diff" &&
           diff <(verdict_lines "$W/run/$name.nvidia.out") \
                <(verdict_lines "$W/run/$name.swap.out" 2>/dev/null) >>"$W/run/$name.diff"; then
            same_lines=yes
        else
            same_lines=no
        fi
    fi
    verdict=$(verdict_lines "$W/run/$name.minicudart.out" 2>/dev/null | tail -n 1 | cut -c1-40)
    # 2 is the samples' EXIT_WAIVED (helper_cuda.h): fewer than 2 suitable GPUs.
    if [ "$nv" = 0 ] && [ "$mc" = 0 ] && [ "$sw" = 0 ] && [ "$same_lines" = yes ] && [ "$served" -gt 0 ]; then
        res=PASS
    elif [ "$nv" = 2 ] && [ "$mc" = 2 ] && [ "$sw" = 2 ]; then
        res=WAIVED
    else
        res=FAIL; failures=$((failures + 1))
        echo "== $name: FAIL (nvidia $nv, minicudart $mc, swap $sw, lines equal $same_lines, swap trace lines $served)"
        [ -s "$W/run/$name.diff" ] && head -n 8 "$W/run/$name.diff"
        tail -n 6 "$W/run/$name.minicudart.out" 2>/dev/null
        grep -m3 -E '^minicudart: .*(error|fail|not implemented)' "$W/run/$name.swap.err" 2>/dev/null
    fi
    rows+=("$(printf '%-32s %-7s %-10s %-5s %-6s %-6s %-7s %-30s %s' "$name" "$nv" "$mc" "$sw" \
        "$served" "$same_lines" "$((t1 - t0))/$((t2 - t1))s" "$verdict" "$res")")
done
tar -C "$W" -czf "$W/logs.tar.gz" logs run 2>/dev/null
[ -n "${OUT:-}" ] && mkdir -p "$OUT" && cp "$W/logs.tar.gz" "$OUT/multigpu_samples_logs.tar.gz" 2>/dev/null

echo
echo "== multi-GPU cuda-samples on minicudart ($((SECONDS - START))s; logs in $W/logs.tar.gz)"
printf '%-32s %-7s %-10s %-5s %-6s %-6s %-7s %-30s %s\n' sample "NVIDIA" minicudart swap traced equal "time" "minicudart's verdict line" result
printf '%s\n' "${rows[@]}"
if [ "$failures" -gt 0 ]; then echo "RESULT: $failures FAIL"; exit 1; fi
echo "RESULT: PASS"
exit 0
