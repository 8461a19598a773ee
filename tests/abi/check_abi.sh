#!/usr/bin/env bash
# check_abi.sh OURS NVIDIAS STATIC_ARCHIVE [NEWER_FUNCTIONS]
# The drop-in's ABI against NVIDIA's libcudart.so.13: the same SONAME, every exported function
# exported too and under the version node libcudart.so.13, nothing else but minicudart_*
# additions (and, when NVIDIAS is an older release than the one minicudart implements, the
# functions the NEWER_FUNCTIONS file lists: 13.5's 36 against 13.0's library), no libstdc++ and
# no libcuda among the libraries it needs.  Prints how many of NVIDIA's functions are
# implemented (all 458 at CUDA 13.5; for a newer toolkit the rest would be the generated stubs
# of lib/unimplemented.c, which answer cudaErrorNotSupported).
set -u
ours=$1 nvidia=$2 archive=$3 newer=${4:-}
fail=0
bad() { echo "ABI: $*"; fail=1; }

functions() {   # defined functions of a shared library, without version suffix
    nm -D --defined-only "$1" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u
}
soname() { readelf -d "$1" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p'; }

[ "$(soname "$ours")" = libcudart.so.13 ] || bad "SONAME is '$(soname "$ours")', not libcudart.so.13"
[ "$(soname "$nvidia")" = libcudart.so.13 ] || bad "NVIDIA's SONAME is '$(soname "$nvidia")'"

functions "$nvidia" >nvidia.txt
functions "$ours" >ours.txt
if [ -n "$newer" ]; then
    # NVIDIA's older library plus the newer release's additions is the newer one's list.
    sort -u nvidia.txt "$newer" -o nvidia.txt
    echo "compared with $(basename "$nvidia") and the $(wc -l <"$newer") functions of $(basename "$newer")"
fi
missing=$(comm -23 nvidia.txt ours.txt)
[ -z "$missing" ] || bad "not exported: $(echo $missing | head -c 400)"
extra=$(comm -13 nvidia.txt ours.txt | grep -v '^minicudart_')
[ -z "$extra" ] || bad "exported but not NVIDIA's: $(echo $extra | head -c 400)"

# Every dynamic symbol of ours (but the version's own) carries the node libcudart.so.13.
unversioned=$(objdump -T "$ours" | awk '/ DF | DO / && $0 !~ /libcudart\.so\.13/ && $0 !~ /\*UND\*/ { print $NF }')
[ -z "$unversioned" ] || bad "symbols outside the node libcudart.so.13: $(echo $unversioned | head -c 300)"
readelf -V "$ours" | grep -q 'Name: libcudart.so.13' || bad "no version definition libcudart.so.13"

needed=$(readelf -d "$ours" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
case " $needed" in *libstdc++*|*libcuda.so*|*libzstd*|*liblz4*|*libz.so*) bad "needs $needed" ;; esac

total=$(wc -l <nvidia.txt)
# The stubs are the functions of the archive member built from lib/unimplemented.c, if any.
stubbed=$(nm --defined-only "$archive" | awk '/^unimplemented\.c\.o:$/ { on = 1; next } /:$/ { on = 0 }
                                              on && $2 == "T"' | wc -l)
echo "exported: $(wc -l <ours.txt) functions, NVIDIA's $total; needed libraries: $needed"
echo "implemented: $((total - stubbed)) of $total (the other $stubbed answer cudaErrorNotSupported)"
[ "$fail" = 0 ] && echo "ABI: OK" || echo "ABI: FAILED"
exit $fail
