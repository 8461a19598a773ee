#!/bin/sh
# fatbin_vs_cuobjdump.sh FATBIN CUOBJDUMP FILE WORKDIR - `fatbin list FILE` against NVIDIA's
# cuobjdump, an independent reader of the same file: both must name the same images (kind and
# SM) in the same order, and each image must come out of `fatbin extract` with the bytes
# `cuobjdump -xelf/-xptx` gives.  -all makes cuobjdump read every fatbin section, as fatbin does
# (by default it skips a linked program's __nv_relfatbin).  cuobjdump names PTX by SM, not by
# virtual arch: "PTX file 1: x.1.sm_90.ptx" is fatbin's compute_90.  An uncompressed image is
# stored padded to 8 bytes and `fatbin extract` writes it as stored, while cuobjdump cuts a
# cubin at its ELF size (13.5's cubins end on 4-byte boundaries, 13.0's happened to end on 8):
# up to 7 zero bytes more on fatbin's side are accepted.  Exit 0 when they agree.
set -eu
fatbin=$1 cuobjdump=$2 file=$3 work=$4
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work/fatbin" "$work/cuobjdump"

"$fatbin" list "$file" >"$work/list.txt" || fail "fatbin list exited non-zero"
cat "$work/list.txt"
tail -n 1 "$work/list.txt" | grep -q ', 0 errors$' || fail "fatbin list reports errors"
# "c0 e1 ptx compute_90 zstd ... .nv_fatbin" -> "ptx 90 c0-e1.compute_90.ptx" (the name fatbin
# extract gives it).  fatbin lists in file order, cuobjdump the executable fatbin (.nv_fatbin)
# before the relocatable one (__nv_relfatbin), wherever the linker put them: a stable sort by
# section puts fatbin's list in cuobjdump's order.
awk '$1 ~ /^c[0-9]+$/ {
       if ($3 != "elf" && $3 != "ptx") { print "unexpected kind " $3; exit 1 }
       sm = $4; sub(/^(sm|compute)_/, "", sm)
       print ($NF == "__nv_relfatbin"), $3, sm, $1 "-" $2 "." $4 "." ($3 == "elf" ? "cubin" : "ptx")
     }' "$work/list.txt" >"$work/fatbin.unsorted" || fail "$(cat "$work/fatbin.unsorted")"
sort -s -n -k1,1 "$work/fatbin.unsorted" | cut -d' ' -f2- >"$work/fatbin.seq"

"$cuobjdump" -all --list-elf --list-ptx "$file" >"$work/cuobjdump.txt" ||
    fail "cuobjdump exited non-zero"
cat "$work/cuobjdump.txt"
sed -n -e 's/^ELF file *[0-9]*: \(.*\.sm_\([0-9a-z]*\)\.cubin\)$/elf \2 \1/p' \
       -e 's/^PTX file *[0-9]*: \(.*\.sm_\([0-9a-z]*\)\.ptx\)$/ptx \2 \1/p' \
       "$work/cuobjdump.txt" >"$work/cuobjdump.seq"
[ -s "$work/fatbin.seq" ] || fail "no image listed"
[ "$(wc -l <"$work/cuobjdump.txt")" -eq "$(wc -l <"$work/cuobjdump.seq")" ] ||
    fail "cuobjdump printed a line of another form"
cut -d' ' -f1,2 "$work/fatbin.seq" >"$work/fatbin.kinds"
cut -d' ' -f1,2 "$work/cuobjdump.seq" >"$work/cuobjdump.kinds"
diff "$work/fatbin.kinds" "$work/cuobjdump.kinds" >"$work/kinds.diff" ||
    fail "the lists differ (< fatbin, > cuobjdump): $(cat "$work/kinds.diff")"

(cd "$work/fatbin" && "$fatbin" extract "$file" -o . >/dev/null) || fail "fatbin extract failed"
(cd "$work/cuobjdump" && "$cuobjdump" -all -xelf all -xptx all "$file" >/dev/null) ||
    fail "cuobjdump -xelf/-xptx failed"
images=0
padded=0
while read -r kind sm ours <&3 && read -r _ _ theirs <&4; do
    ours_size=$(wc -c <"$work/fatbin/$ours")
    theirs_size=$(wc -c <"$work/cuobjdump/$theirs")
    pad=$((ours_size - theirs_size))
    if [ "$pad" -lt 0 ] || [ "$pad" -ge 8 ]; then
        fail "$kind sm_$sm: fatbin's $ours has $ours_size bytes, cuobjdump's $theirs $theirs_size"
    fi
    cmp -n "$theirs_size" "$work/fatbin/$ours" "$work/cuobjdump/$theirs" ||
        fail "$kind sm_$sm: fatbin's $ours differs from cuobjdump's $theirs"
    [ "$(tail -c "$pad" "$work/fatbin/$ours" | tr -d '\000' | wc -c)" -eq 0 ] ||
        fail "$kind sm_$sm: fatbin's $ours ends in $pad bytes that are not padding"
    [ "$pad" -eq 0 ] || padded=$((padded + 1))
    images=$((images + 1))
done 3<"$work/fatbin.seq" 4<"$work/cuobjdump.seq"
echo "fatbin_vs_cuobjdump: $images images agree in order, kind, SM and bytes ($padded with padding)"
