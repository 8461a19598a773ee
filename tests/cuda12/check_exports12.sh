#!/usr/bin/env bash
# check_exports12.sh OURS NVIDIAS OURS_13 ARCHIVE [drop|add]
# minicudart's libcudart.so.12 (OURS) against NVIDIA's 12.9 one (NVIDIAS): the same SONAME, the
# same version definitions (readelf -V), the same cuda* and __cuda* exports, each of the same kind
# under the same version node (nm -D: "T cudaMalloc@@libcudart.so.12"), and nothing else but
# minicudart_* additions; none of the names that only our libcudart.so.13 (OURS_13) exports;
# and libminicudart12.a (ARCHIVE) defines every name NVIDIA's library exports.
# The last argument doctors NVIDIA's list before the comparisons, to show that they fail: drop
# takes cudaMalloc out of it (ours then has one name too many), add puts a name ours lacks in.
set -u
export LC_ALL=C   # one sort order for sort and comm
ours=$1 nvidia=$2 ours13=$3 archive=$4 doctor=${5:-}
fail=0
bad() { echo "exports12: $*"; fail=1; }
one_line() { tr '\n' ' ' | head -c 600; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

exports() {   # "kind name@@node" of each defined dynamic symbol but the version's own
    nm -D --defined-only "$1" | awk '$2 != "A" { print $2, $3 }' | sort -u
}
names() { sed 's/^. //; s/@.*//' "$1" | sort -u; }
soname() { readelf -d "$1" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p'; }
verdefs() { readelf -V "$1" | sed -n 's/.*Rev: [0-9]*  *Flags: \([^ ]*\) .*Name: \(.*\)$/\1 \2/p'; }

exports "$nvidia" | grep -E ' (cuda|__cuda)' >"$tmp/nvidia"
case $doctor in
    drop) grep -v ' cudaMalloc@' "$tmp/nvidia" >"$tmp/d" && mv "$tmp/d" "$tmp/nvidia" ;;
    add) echo 'T cudaNotAFunctionOfAnyRuntime@@libcudart.so.12' >>"$tmp/nvidia"
         sort -o "$tmp/nvidia" "$tmp/nvidia" ;;
    '') ;;
    *) echo "check_exports12.sh: unknown doctoring '$doctor'"; exit 2 ;;
esac
exports "$ours" >"$tmp/ours.all"
grep -E ' (cuda|__cuda)' "$tmp/ours.all" >"$tmp/ours"
names "$tmp/nvidia" >"$tmp/nvidia.names"
names "$tmp/ours.all" >"$tmp/ours.names"

# The library compared with must be the one tools/install-deps.sh pins (12.9.79: 435 names).
[ -n "$doctor" ] || [ "$(wc -l <"$tmp/nvidia")" = 435 ] ||
    bad "NVIDIA's library exports $(wc -l <"$tmp/nvidia") cuda* names, not 12.9's 435: $nvidia"

[ "$(soname "$ours")" = libcudart.so.12 ] || bad "SONAME is '$(soname "$ours")', not libcudart.so.12"
[ "$(soname "$ours")" = "$(soname "$nvidia")" ] || bad "SONAME differs from NVIDIA's '$(soname "$nvidia")'"
if [ "$(verdefs "$ours")" != "$(verdefs "$nvidia")" ]; then
    bad "version definitions differ: ours '$(verdefs "$ours" | tr '\n' ';')'," \
        "NVIDIA's '$(verdefs "$nvidia" | tr '\n' ';')'"
fi
[ -n "$(verdefs "$ours")" ] || bad "no version definitions"

missing=$(comm -23 "$tmp/nvidia" "$tmp/ours")
[ -z "$missing" ] || bad "NVIDIA's, not ours (or not of that kind and node): $(one_line <<<"$missing")"
extra=$(comm -13 "$tmp/nvidia" "$tmp/ours")
[ -z "$extra" ] || bad "ours, not NVIDIA's: $(one_line <<<"$extra")"
others=$(grep -vE ' (cuda|__cuda|minicudart_)' "$tmp/ours.all")
[ -z "$others" ] || bad "exported, neither NVIDIA's nor minicudart_*: $(one_line <<<"$others")"

# What only the 13 library has (its names that NVIDIA's 12.9 lacks, but minicudart_*).
exports "$ours13" >"$tmp/ours13.all"
names "$tmp/ours13.all" | grep -v '^minicudart_' | comm -23 - "$tmp/nvidia.names" >"$tmp/only13"
[ -s "$tmp/only13" ] || bad "our libcudart.so.13 has no name that NVIDIA's 12.9 lacks: $ours13"
leaked=$(comm -12 "$tmp/only13" "$tmp/ours.names")
[ -z "$leaked" ] || bad "names only libcudart.so.13 has, exported by ours: $(one_line <<<"$leaked")"

# The archive: every name, defined (a global symbol of any member).
nm --defined-only "$archive" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TWDBRV]$/ { print $3 }' |
    sort -u >"$tmp/archive"
undefined=$(comm -23 "$tmp/nvidia.names" "$tmp/archive")
[ -z "$undefined" ] || bad "not defined by $(basename "$archive"): $(one_line <<<"$undefined")"

echo "NVIDIA's: $(wc -l <"$tmp/nvidia") names under $(verdefs "$nvidia" | tr '\n' ' ');" \
     "ours: $(wc -l <"$tmp/ours") and $(grep -c ' minicudart_' "$tmp/ours.all") minicudart_*;" \
     "$(wc -l <"$tmp/only13") names only libcudart.so.13 has"
[ "$fail" = 0 ] && echo "exports12: OK" || echo "exports12: FAILED"
exit $fail
