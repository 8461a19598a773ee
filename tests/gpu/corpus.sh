#!/usr/bin/env bash
# tests/gpu/corpus.sh - the public corpus (19 self-checking programs by others) on minicudart.
#
# Builds the programs of the public corpus list (NVIDIA/cuda-samples and llm.c's
# layernorm_forward; their sources live outside this repository and never enter it) the way their
# upstream build does, for sm_90 only: C++17, --extended-lambda and -lineinfo for .cu files,
# Common/ on the include path, the libraries their CMakeLists link (cuBLAS, cuFFT, cuSPARSE,
# cuRAND, NVRTC, the driver), and -rdc=true + an explicit `nvcc -dlink` (+ -lcudadevrt) for every
# target with CUDA_SEPARABLE_COMPILATION (all samples with a .cu file; CORPUS_RDC=needed keeps it
# only where the program cannot work without it: cdpSimpleQuicksort). layernorm_forward as llm.c's
# dev/cuda/Makefile does: -O3 --use_fast_math, compute_90+sm_90, -lcublas -lcublasLt.
# Each program three ways:
#   nvidia      nvcc -cudart=shared                       (NVIDIA's libcudart.so.13)
#   minicudart  the same objects relinked: nvcc -cudart=none ... libminicudart.a -ldl -lpthread
#               (-cudart=none skips the device link: the explicit dlink object is linked in both)
#   swap        the nvidia binary with minicudart's libcudart.so.13 first on LD_LIBRARY_PATH
#               (MINICUDART_TRACE=1: its `minicudart: ` lines prove minicudart served the run)
# vectorAdd_nvrtc uses only NVRTC and the driver API (linked without any cudart, as upstream): it
# is built and run once, its minicudart and swap columns read n/a.
# Each variant runs in the program's own directory (its data files beside the binary: simpleTexture's
# .pgm files, vectorAdd_nvrtc's kernel source, simpleDrvRuntime's vectorAdd_kernel64.fatbin built
# with nvcc -fatbin) under a timeout. Verdict: exit 0 (2 = waived, all three alike), for
# layernorm_forward also "All results match", and the programs' own PASS/FAIL lines (numbers with a
# decimal point masked) equal between the three variants. Prints a table last and a RESULT line.
#
# usage (on a machine with a GPU):  tests/gpu/corpus.sh
#        build only (no GPU needed): SAMPLES_COMPILE_ONLY=1 tests/gpu/corpus.sh
#        a subset:                   CORPUS_ONLY="vectorAdd simpleTexture" tests/gpu/corpus.sh
# environment: SAMPLES_DIR (default $ROOT/.gpu/samples: cuda-samples' Samples/ tree, category
#                folders such as 0_Introduction/vectorAdd or the sample folders directly, with
#                Common/ inside it or beside it), LLMC_DIR (default $ROOT/.gpu/llmc: llm.c's dev/cuda
#                files, layernorm_forward.cu and common.h), CORPUS_BUILD (work dir, default
#                build-gpurun/corpus), MINICUDART_BUILD (a configured minicudart tree to reuse, e.g.
#                build/corpus-mc; default: a Release tree of its own under CORPUS_BUILD),
#                CORPUS_TIMEOUT_S (per run, 60), CORPUS_ONLY (names to build and run),
#                CORPUS_RDC (upstream | needed; default upstream), CORPUS_JOBS (parallel builds,
#                default nproc, at most 16), SAMPLES_COMPILE_ONLY=1 (build and link all ways, print
#                the build table, do not run), CUDA_HOME (/usr/local/cuda).
# Exit: 0 every program passed (or was waived) under all three ways and equalled NVIDIA's result
#       (with SAMPLES_COMPILE_ONLY=1: every program built and linked all ways),
#       1 otherwise, 2 no sources, an unknown name in CORPUS_ONLY or a bad CORPUS_RDC.
#
# Populating .gpu/ (git-ignored; from clones of NVIDIA/cuda-samples at
# c94ff366aed18c797b8a85dfaac7817b0228b420 and karpathy/llm.c at
# f1e2ace651495b74ae22d45d1723443fd00ecd3a, bare or not; 1.8 MB in all):
#   M=<cuda-samples clone> L=<llm.c clone>
#   mkdir -p .gpu/samples .gpu/llmc
#   git -C $M archive --format=tar HEAD $(git -C $M ls-tree --name-only HEAD Common/ |
#       grep -E '\.(h|hxx|cpp)$') | tar -x -C .gpu/samples
#   git -C $M archive --format=tar HEAD $(git -C $M ls-tree -r --name-only HEAD \
#       Samples/0_Introduction/{vectorAdd,simpleMultiCopy,simpleZeroCopy,simpleTexture,simpleDrvRuntime,simpleCallback,vectorAdd_nvrtc} \
#       Samples/2_Concepts_and_Techniques/{reductionMultiBlockCG,radixSortThrust,streamOrderedAllocation,MC_EstimatePiP} \
#       Samples/3_CUDA_Features/{jacobiCudaGraphs,cdpSimpleQuicksort,newdelete} \
#       Samples/4_CUDA_Libraries/{matrixMulCUBLAS,simpleCUFFT,conjugateGradientUM} \
#       Samples/5_Domain_Specific/binomialOptions | grep -vE '/(doc|\.vscode)/') |
#       tar -x -C .gpu/samples --strip-components=1
#   git -C $L archive --format=tar HEAD dev/cuda/layernorm_forward.cu dev/cuda/common.h |
#       tar -x -C .gpu/llmc --strip-components=2
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
S=${SAMPLES_DIR:-$ROOT/.gpu/samples}
LLMC=${LLMC_DIR:-$ROOT/.gpu/llmc}
W=${CORPUS_BUILD:-$ROOT/build-gpurun/corpus}
case $W in /*) ;; *) W=$ROOT/$W ;; esac
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=$CUDA_HOME/bin/nvcc
CUDA_LIB=$CUDA_HOME/lib64
TIMEOUT=${CORPUS_TIMEOUT_S:-60}
RDC=${CORPUS_RDC:-upstream}
JOBS=${CORPUS_JOBS:-$(nproc 2>/dev/null || echo 4)}
[ "$JOBS" -gt 16 ] && JOBS=16
export PATH=$CUDA_HOME/bin:$PATH

# name | where (S:<category>/<sample> under $SAMPLES_DIR, L: $LLMC_DIR) | sources | mode | link
# libraries | extra compile flags (@ = the program's source directory) | files beside the binary
# (path in the source directory, or fatbin:<source>><name>) | arguments
# mode: rdc (upstream CUDA_SEPARABLE_COMPILATION), rdc! (cannot work without it), whole (no .cu
# file or no separable compilation upstream), drv (NVRTC + driver only: no runtime at all)
PROGRAMS="vectorAdd|S:0_Introduction/vectorAdd|vectorAdd.cu|rdc||||
simpleMultiCopy|S:0_Introduction/simpleMultiCopy|simpleMultiCopy.cu|rdc||||
simpleZeroCopy|S:0_Introduction/simpleZeroCopy|simpleZeroCopy.cu|rdc||||
binomialOptions|S:5_Domain_Specific/binomialOptions|binomialOptions.cpp binomialOptions_gold.cpp binomialOptions_kernel.cu|rdc||||
simpleTexture|S:0_Introduction/simpleTexture|simpleTexture.cu|rdc|||data/teapot512.pgm data/ref_rotated.pgm|
reductionMultiBlockCG|S:2_Concepts_and_Techniques/reductionMultiBlockCG|reductionMultiBlockCG.cu|rdc||||
radixSortThrust|S:2_Concepts_and_Techniques/radixSortThrust|radixSortThrust.cu|rdc||||
jacobiCudaGraphs|S:3_CUDA_Features/jacobiCudaGraphs|jacobi.cu main.cpp|rdc||||
matrixMulCUBLAS|S:4_CUDA_Libraries/matrixMulCUBLAS|matrixMulCUBLAS.cpp|whole|-lcublas|||
simpleCUFFT|S:4_CUDA_Libraries/simpleCUFFT|simpleCUFFT.cu|rdc|-lcufft|||
conjugateGradientUM|S:4_CUDA_Libraries/conjugateGradientUM|main.cpp|whole|-lcublas -lcusparse|||
simpleDrvRuntime|S:0_Introduction/simpleDrvRuntime|simpleDrvRuntime.cpp|whole|-lcuda||fatbin:vectorAdd_kernel.cu>vectorAdd_kernel64.fatbin|
layernorm_forward|L:|layernorm_forward.cu|whole|-lcublas -lcublasLt|||
cdpSimpleQuicksort|S:3_CUDA_Features/cdpSimpleQuicksort|cdpSimpleQuicksort.cu|rdc!||||
streamOrderedAllocation|S:2_Concepts_and_Techniques/streamOrderedAllocation|streamOrderedAllocation.cu|rdc||||
simpleCallback|S:0_Introduction/simpleCallback|simpleCallback.cu multithreading.cpp|rdc||||
vectorAdd_nvrtc|S:0_Introduction/vectorAdd_nvrtc|vectorAdd.cpp|drv|-lnvrtc -lcuda||vectorAdd_kernel.cu|
MC_EstimatePiP|S:2_Concepts_and_Techniques/MC_EstimatePiP|src/main.cpp src/piestimator.cu src/test.cpp|rdc|-lcurand|-I@/inc||
newdelete|S:3_CUDA_Features/newdelete|newdelete.cu|rdc||||"
case $RDC in upstream | needed) ;; *) echo "corpus.sh: CORPUS_RDC is upstream or needed, not '$RDC'"; exit 2 ;; esac
ALL_NAMES=$(cut -d'|' -f1 <<<"$PROGRAMS")
if [ -n "${CORPUS_ONLY:-}" ]; then
    for n in $CORPUS_ONLY; do
        grep -qx -- "$n" <<<"$ALL_NAMES" || { echo "corpus.sh: unknown program '$n' (known: $(echo $ALL_NAMES))"; exit 2; }
    done
    PROGRAMS=$(while IFS= read -r line; do
        for n in $CORPUS_ONLY; do [ "${line%%|*}" = "$n" ] && echo "$line"; done
    done <<<"$PROGRAMS")
fi
NAMES=$(cut -d'|' -f1 <<<"$PROGRAMS")

# The samples' flags (their CMakeLists: CMAKE_CUDA_FLAGS, cuda_std_17, --extended-lambda for CUDA
# sources only) and llm.c's (dev/cuda/Makefile with GPU_COMPUTE_CAPABILITY=90).
CU_FLAGS="-arch=sm_90 -std=c++17 --extended-lambda -lineinfo -Wno-deprecated-gpu-targets -O2"
CXX_FLAGS="-std=c++17 -Wno-deprecated-gpu-targets -O2"
LLMC_FLAGS="-O3 --use_fast_math --generate-code arch=compute_90,code=[compute_90,sm_90] -std=c++17"

if [ -d "$S/Common" ]; then COMMON=$S/Common; else COMMON=$S/../Common; fi
src_dir() {     # where -> the program's source directory
    case $1 in
    L:*) echo "$LLMC" ;;
    S:*) local p=${1#S:}
        if [ -d "$S/$p" ] || [ ! -d "$S/${p#*/}" ]; then echo "$S/$p"; else echo "$S/${p#*/}"; fi ;;
    esac
}
missing=0
while IFS='|' read -r name where srcs _; do
    d=$(src_dir "$where")
    for f in $srcs; do [ -f "$d/$f" ] || { echo "corpus.sh: $name: no $d/$f"; missing=1; }; done
done <<<"$PROGRAMS"
if cut -d'|' -f2 <<<"$PROGRAMS" | grep -q '^S:' && [ ! -f "$COMMON/helper_cuda.h" ]; then
    echo "corpus.sh: no $COMMON/helper_cuda.h"; missing=1
fi
if [ "$missing" = 1 ]; then
    echo "corpus.sh: sources missing: set SAMPLES_DIR / LLMC_DIR, or populate .gpu/ (see the header)"
    exit 2
fi

mkdir -p "$W/logs" "$W/bin" "$W/obj" "$W/run"
echo "== tests/gpu/corpus.sh: $(date -u +%FT%TZ), work dir $W, $JOBS parallel builds, rdc: $RDC"
if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>&1 | head -n 8
fi

# 1. minicudart: libminicudart.a and libcudart.so.13.
MC_TREE=${MINICUDART_BUILD:-$W/minicudart}
case $MC_TREE in /*) ;; *) MC_TREE=$ROOT/$MC_TREE ;; esac
build_minicudart() {
    local gen=()
    command -v ninja >/dev/null && gen=(-G Ninja)
    if [ ! -f "$MC_TREE/CMakeCache.txt" ]; then
        cmake -S "$ROOT" -B "$MC_TREE" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
            -DMINICUDART_TESTS=OFF -DCMAKE_CUDA_COMPILER="$NVCC" || return 1
    fi
    cmake --build "$MC_TREE" -j "$JOBS" --target minicudart minicudart_shared
}

# 2. one program: compile, device link where rdc, link against NVIDIA's shared runtime, data files.
mode_of() {     # mode -> the mode used under CORPUS_RDC
    case $1 in
    rdc) [ "$RDC" = needed ] && echo whole || echo rdc ;;
    rdc!) echo rdc ;;
    *) echo "$1" ;;
    esac
}
build_program() {
    local name=$1 where=$2 srcs=$3 mode=$4 libs=$5 extra=$6 data=$7
    local d o=$W/obj/$1 b=$W/bin/$1 f obj objs=() cuobjs=() flags inc
    d=$(src_dir "$where")
    mode=$(mode_of "$mode")
    rm -rf "$o" "$b"
    mkdir -p "$o" "$b"
    extra=${extra//@/$d}
    if [ "${where%%:*}" = L ]; then inc="-I$d"; else inc="-I$COMMON -I$d"; fi
    for f in $srcs; do
        obj=$o/${f//\//_}.o
        case $f in
        *.cu)
            if [ "${where%%:*}" = L ]; then flags=$LLMC_FLAGS; else flags=$CU_FLAGS; fi
            [ "$mode" = rdc ] && flags="$flags -rdc=true"
            cuobjs+=("$obj") ;;
        *) flags=$CXX_FLAGS ;;
        esac
        echo "+ nvcc $flags $inc $extra -c $f"
        "$NVCC" $flags $inc $extra -c "$d/$f" -o "$obj" || return 1
        objs+=("$obj")
    done
    if [ "$mode" = rdc ]; then
        "$NVCC" -arch=sm_90 -dlink "${cuobjs[@]}" -o "$o/dlink.o" -lcudadevrt || return 1
        objs+=("$o/dlink.o")
        libs="$libs -lcudadevrt"
    fi
    echo "$mode|${objs[*]}|$libs" >"$o/link.txt"
    local cudart=shared
    [ "$mode" = drv ] && cudart=none
    echo "+ nvcc -cudart=$cudart ${objs[*]##*/} $libs"
    "$NVCC" -arch=sm_90 -cudart=$cudart "${objs[@]}" -o "$b/$name.nvidia" -L"$CUDA_LIB" $libs \
        -Xlinker -rpath -Xlinker "$CUDA_LIB" || return 1
    for f in $data; do
        case $f in
        fatbin:*)   # simpleDrvRuntime's CMakeLists: nvcc -gencode=arch=compute_XX,code=sm_XX -fatbin
            f=${f#fatbin:}
            echo "+ nvcc -fatbin ${f%%>*} -o ${f#*>}"
            "$NVCC" -Wno-deprecated-gpu-targets -gencode=arch=compute_90,code=sm_90 \
                -o "$b/${f#*>}" -fatbin "$d/${f%%>*}" || return 1 ;;
        *) cp "$d/$f" "$b/" || return 1 ;;
        esac
    done
}
link_minicudart() {
    local name=$1 o=$W/obj/$1 mode objs libs
    IFS='|' read -r mode objs libs <"$o/link.txt"
    "$NVCC" -arch=sm_90 -cudart=none $objs -o "$W/bin/$name/$name.minicudart" -L"$CUDA_LIB" $libs \
        -Xlinker -rpath -Xlinker "$CUDA_LIB" "$MC_A" -ldl -lpthread
}

START=$SECONDS
build_minicudart >"$W/logs/build-minicudart.log" 2>&1 &
throttle() { while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n 2>/dev/null || sleep 1; done; }
while IFS='|' read -r name where srcs mode libs extra data args; do
    throttle
    rm -f "$W/logs/build-$name.rc"
    ( t0=$SECONDS
      build_program "$name" "$where" "$srcs" "$mode" "$libs" "$extra" "$data" >"$W/logs/build-$name.log" 2>&1
      rc=$?; echo "$rc $((SECONDS - t0))" >"$W/logs/build-$name.rc" ) &
done <<<"$PROGRAMS"
wait
MC_A=$MC_TREE/lib/libminicudart.a
[ -f "$MC_A" ] || MC_A=$(find "$MC_TREE" -name libminicudart.a -type f 2>/dev/null | head -n 1)
MC_SO=$(find "$MC_TREE" -name 'libcudart.so.13' 2>/dev/null | head -n 1)
MC_SO_DIR=${MC_SO:+$(dirname "$MC_SO")}
if [ -z "$MC_A" ] || [ -z "$MC_SO" ]; then
    echo "== minicudart did not build:"; tail -n 20 "$W/logs/build-minicudart.log"
fi
declare -A BUILD MODE NEEDED LDD BTIME
build_failures=0
while IFS='|' read -r name where srcs mode libs extra data args; do
    MODE[$name]=$(mode_of "$mode")
    rc=none; secs=-
    [ -f "$W/logs/build-$name.rc" ] && read -r rc secs <"$W/logs/build-$name.rc"
    BTIME[$name]=${secs}s
    NEEDED[$name]=-; LDD[$name]=-
    if [ "$rc" != 0 ]; then
        BUILD[$name]="build-failed"; build_failures=$((build_failures + 1))
        echo "== $name: build failed: $(grep -m1 -iE 'error|undefined' "$W/logs/build-$name.log")"
        continue
    fi
    # swap needs libcudart.so.13 among the NVIDIA binary's own DT_NEEDED entries
    NEEDED[$name]=$(readelf -d "$W/bin/$name/$name.nvidia" 2>/dev/null | grep -c 'NEEDED.*libcudart\.so')
    if [ "${MODE[$name]}" = drv ]; then
        BUILD[$name]="ok (no runtime)"
        continue
    fi
    if [ -n "$MC_A" ] && link_minicudart "$name" >"$W/logs/link-$name.log" 2>&1; then
        BUILD[$name]=ok
        # the relinked binary must not load NVIDIA's runtime, not even through a library
        LDD[$name]=$(ldd "$W/bin/$name/$name.minicudart" 2>/dev/null | grep -c 'libcudart\.so')
    else
        BUILD[$name]="link-failed"; build_failures=$((build_failures + 1))
        echo "== $name: minicudart link failed; undefined: $(grep -o "undefined reference to \`[^']*'" "$W/logs/link-$name.log" | sort -u | tr '\n' ' ')"
    fi
done <<<"$PROGRAMS"
echo "== builds done at $((SECONDS - START))s"
if [ "${SAMPLES_COMPILE_ONLY:-0}" = 1 ]; then
    echo
    echo "== corpus builds (nvidia: -cudart=shared; minicudart: -cudart=none + libminicudart.a)"
    printf '%-24s %-6s %-6s %-16s %-14s %s\n' program mode build result "nvidia:cudart" "minicudart:ldd"
    for name in $NAMES; do
        printf '%-24s %-6s %-6s %-16s %-14s %s\n' "$name" "${MODE[$name]}" "${BTIME[$name]}" \
            "${BUILD[$name]}" "${NEEDED[$name]}" "${LDD[$name]}"
    done
    [ "$build_failures" -gt 0 ] && { echo "RESULT: $build_failures BUILD FAIL"; exit 1; }
    echo "RESULT: BUILT"
    exit 0
fi

# 3. runs: exit code and the programs' own verdict lines.
verdict_lines() {   # the programs' result lines, numbers with a decimal point masked
    grep -aE 'Test passed|Test failed|PASS|FAIL|Waiving|waiv|Verification error|[Mm]ismatch|does not match|Success|Failure|SUCCESS|All results match|Test Summary|Result = ' "$1" |
        sed -E 's/[-+]?[0-9]*\.[0-9]+([eE][-+]?[0-9]+)?/#/g; s/[[:space:]]*$//'
}
run_variant() {     # name variant args -> prints the exit code; output in $W/run/<name>.<variant>.out
    local name=$1 variant=$2 args=$3 bin out err rc
    out=$W/run/$name.$variant.out
    err=$W/run/$name.$variant.err
    rm -f "$out" "$err"
    case $variant in
    minicudart) bin=$W/bin/$name/$name.minicudart ;;
    *) bin=$W/bin/$name/$name.nvidia ;;
    esac
    [ -x "$bin" ] || { echo build; return; }
    if [ "$variant" = swap ]; then
        [ -n "$MC_SO_DIR" ] || { echo build; return; }
        ( cd "$W/bin/$name" && LD_LIBRARY_PATH=$MC_SO_DIR:$CUDA_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
            MINICUDART_TRACE=1 timeout -k 5 "$TIMEOUT" "$bin" $args ) </dev/null >"$out" 2>"$err"
    else
        ( cd "$W/bin/$name" && timeout -k 5 "$TIMEOUT" "$bin" $args ) </dev/null >"$out" 2>"$err"
    fi
    rc=$?
    echo "$rc"
}

rows=()
failures=0
while IFS='|' read -r name where srcs mode libs extra data args; do
    t0=$SECONDS
    nv=$(run_variant "$name" nvidia "$args")
    t1=$SECONDS
    t_mc=$t1
    if [ "${MODE[$name]}" = drv ]; then
        mc=n/a; sw=n/a; served=n/a
    else
        mc=$(run_variant "$name" minicudart "$args")
        t_mc=$SECONDS
        sw=$(run_variant "$name" swap "$args")
        served=$(grep -c '^minicudart: ' "$W/run/$name.swap.err" 2>/dev/null)
        served=${served:-0}
    fi
    t2=$SECONDS
    same_lines=-
    : >"$W/run/$name.diff"
    if [ "${MODE[$name]}" != drv ] && [ -f "$W/run/$name.nvidia.out" ]; then
        same_lines=yes
        for v in minicudart swap; do
            diff <(verdict_lines "$W/run/$name.nvidia.out") \
                 <(verdict_lines "$W/run/$name.$v.out" 2>/dev/null) >>"$W/run/$name.diff" || same_lines=no
        done
    fi
    match=yes   # llm.c's kernels: the text that says every block size matched the CPU
    if [ "$name" = layernorm_forward ]; then
        for v in nvidia minicudart swap; do
            grep -q 'All results match' "$W/run/$name.$v.out" 2>/dev/null || match=no
        done
    fi
    last=minicudart; [ "${MODE[$name]}" = drv ] && last=nvidia
    verdict=$(verdict_lines "$W/run/$name.$last.out" 2>/dev/null | tail -n 1 | cut -c1-34)
    if [ "${MODE[$name]}" = drv ]; then
        if [ "$nv" = 0 ]; then res=PASS; elif [ "$nv" = 2 ]; then res=WAIVED; else res=FAIL; fi
    elif [ "$nv" = 0 ] && [ "$mc" = 0 ] && [ "$sw" = 0 ] && [ "$same_lines" = yes ] &&
         [ "$served" -gt 0 ] && [ "$match" = yes ]; then
        res=PASS
    elif [ "$nv" = 2 ] && [ "$mc" = 2 ] && [ "$sw" = 2 ]; then
        res=WAIVED     # helper_cuda.h's EXIT_WAIVED: the GPU lacks what the sample needs
    else
        res=FAIL
    fi
    if [ "$res" = FAIL ]; then
        failures=$((failures + 1))
        echo "== $name: FAIL (nvidia $nv, minicudart $mc, swap $sw, lines equal $same_lines, swap trace lines $served, results match $match)"
        [ -s "$W/run/$name.diff" ] && head -n 8 "$W/run/$name.diff"
        tail -n 6 "$W/run/$name.$last.out" 2>/dev/null
        grep -v '^minicudart: ' "$W/run/$name.$last.err" 2>/dev/null | tail -n 3
        grep -m3 -E '^minicudart: .*(error|fail|not implemented)' "$W/run/$name.swap.err" 2>/dev/null
    fi
    rows+=("$(printf '%-24s %-5s %-7s %-10s %-5s %-7s %-6s %-10s %-34s %s' "$name" "${MODE[$name]}" "$nv" \
        "$mc" "$sw" "$served" "$same_lines" "$((t1 - t0))/$((t_mc - t1))/$((t2 - t_mc))s" "$verdict" "$res")")
done <<<"$PROGRAMS"
tar -C "$W" -czf "$W/logs.tar.gz" logs run 2>/dev/null
[ -n "${OUT:-}" ] && mkdir -p "$OUT" && cp "$W/logs.tar.gz" "$OUT/corpus_logs.tar.gz" 2>/dev/null

echo
echo "== public corpus on minicudart ($((SECONDS - START))s; logs in $W/logs.tar.gz)"
printf '%-24s %-5s %-7s %-10s %-5s %-7s %-6s %-10s %-34s %s\n' program mode NVIDIA minicudart swap traced \
    equal "s:nv/mc/sw" "verdict line (minicudart)" result
printf '%s\n' "${rows[@]}"
if [ "$failures" -gt 0 ]; then echo "RESULT: $failures FAIL"; exit 1; fi
echo "RESULT: PASS"
exit 0
