#!/usr/bin/env bash
# Measures what the drop-in costs on disk: the shared libcudart.so.13, and the seed program
# examples/vadd linked statically with minicudart, against the same program with NVIDIA's
# cudart_static (nvcc's default).  Release build for size (MinSizeRel) in build/sizes.
# Then the library's bytes by section and by room of lib/ (tools/size_table.py).
# usage: tools/measure_sizes.sh
set -eu
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
out=build/sizes
# MINICUDART_SIZES_LTO=OFF: the library without link-time optimisation (MINICUDART_LTO, AUTO by
# default: on where the compiler can), 8 KB larger.
cmake -S . -B $out -DMINICUDART_TESTS=OFF -DCMAKE_BUILD_TYPE=MinSizeRel \
    -DMINICUDART_LTO=${MINICUDART_SIZES_LTO:-AUTO} >/dev/null
cmake --build $out -j2 --target minicudart minicudart_shared >/dev/null
strip -o $out/libcudart.so.13.stripped $out/lib/libcudart.so.13
# A tiny static deployment: unused sections dropped, segments packed, symbols stripped.
nvcc -arch=sm_90 -O2 -cudart=none examples/vadd/vadd.cu -o $out/vadd.minicudart \
    $out/lib/libminicudart.a -ldl -lpthread \
    -Xlinker --gc-sections -Xlinker -z,noseparate-code
strip -o $out/vadd.minicudart.stripped $out/vadd.minicudart
nvcc -arch=sm_90 -O2 examples/vadd/vadd.cu -o $out/vadd.cudart_static
strip -o $out/vadd.cudart_static.stripped $out/vadd.cudart_static
size_of() { stat -c %s "$1"; }
printf '%-48s %10s %10s\n' "file" "bytes" "stripped"
printf '%-48s %10s %10s\n' "libcudart.so.13 (minicudart)" "$(size_of $out/lib/libcudart.so.13)" \
    "$(size_of $out/libcudart.so.13.stripped)"
printf '%-48s %10s %10s\n' "libcudart.so.13 (NVIDIA, toolkit)" \
    "$(size_of "$(readlink -f /usr/local/cuda/lib64/libcudart.so.13)")" "-"
printf '%-48s %10s %10s\n' "examples/vadd, static minicudart" "$(size_of $out/vadd.minicudart)" \
    "$(size_of $out/vadd.minicudart.stripped)"
printf '%-48s %10s %10s\n' "examples/vadd, NVIDIA's cudart_static" \
    "$(size_of $out/vadd.cudart_static)" "$(size_of $out/vadd.cudart_static.stripped)"
echo "libraries libcudart.so.13 needs: $(readelf -d $out/lib/libcudart.so.13 |
      sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')"
# Where the library's bytes go, by section and by room (a relink with a linker map).
python3 tools/size_table.py $out
