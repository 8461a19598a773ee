#!/usr/bin/env bash
# run12_test.sh MINICUDART_CMD STANDIN12 STANDIN13 RUN12_PROGRAM RUN_HOST EXT12 OURS12 OURS13
#               [CUDA12_SHARED CUDA12_STATIC NVIDIA12_DIR]
# `minicudart run -- CMD` gives each program of CMD's tree minicudart's runtime of the CUDA
# major its NEEDED (or dlopen) asks for, whatever would have found NVIDIA's:
#   1. a program needing libcudart.so.12 (RUN12_PROGRAM, whose RPATH finds the stand-in
#      STANDIN12 even before LD_LIBRARY_PATH) gets OURS12; in the same process, the stand-in by
#      its full path is OURS12 too, libcudart.so.13 by name OURS13, and EXT12 (a library that
#      needs libcudart.so.12 by its RPATH) OURS12; no exit notice;
#   2. a process tree: a python-like host (RUN_HOST, no runtime of its own) loads EXT12 and starts
#      RUN12_PROGRAM, which loads libcudart.so.13: each gets ours of its major;
#   3. a program that loads no runtime at all: the exit notice names it;
#   4. --lib PATH replaces the library of the major its name says; a name of no major is a usage
#      error;
#   5. --version names both ABIs with the versions the libraries answered in 1, and both files;
#   6. with nvcc 12.4's programs: a -cudart=shared one answers under `minicudart run` as under
#      NVIDIA's 12.9 runtime (NVIDIA12_DIR first in LD_LIBRARY_PATH), and a -cudart=static one
#      gets the exit notice.
set -u
cmd=$1 standin12=$2 standin13=$3 prog12=$4 host=$5 ext12=$6 ours12=$(realpath "$7") ours13=$(realpath "$8")
shared12=${9:-} static12=${10:-} nvidia12=${11:-}
fail() { echo "run12: FAIL: $*"; exit 1; }
expect() {   # expect FILE LINE: FILE has the line LINE
    grep -qxF "$2" "$1" || { cat "$1"; fail "$1 has no line '$2'"; }
}
notice='no CUDA runtime call reached it'
[[ $(basename "$standin12") == libcudart.so.12 && $(basename "$standin13") == libcudart.so.13 ]] ||
    fail "the stand-ins are $standin12 and $standin13"
standin12=$(realpath "$standin12")

# What --version says each library answers to cudaRuntimeGetVersion.
"$cmd" --version >version.out 2>&1 || fail "--version failed"
abi() { sed -n "s/^runtime ABI: NVIDIA's CUDA [0-9.]* (libcudart\.so\.$1; cudaRuntimeGetVersion \([0-9]*\))\$/\1/p" version.out; }
v12=$(abi 12) v13=$(abi 13)
[ -n "$v12" ] && [ -n "$v13" ] || fail "--version names not both ABIs: $(cat version.out)"

# 0. Without minicudart run: the stand-in answers (found by the program's RPATH).
"$prog12" >plain12.out 2>&1 || fail "run12_program alone: exit $?: $(cat plain12.out)"
expect plain12.out "linked: cudaRuntimeGetVersion 12040 from $standin12"

# 1. One process, both majors, every way of finding a runtime.
LD_LIBRARY_PATH=$(dirname "$standin12"):$(dirname "$standin13") \
    "$cmd" run -- "$prog12" "$standin12" libcudart.so.13 "$ext12" >one.out 2>one.err ||
    fail "run12_program under minicudart run: exit $?: $(cat one.out one.err)"
expect one.out "linked: cudaRuntimeGetVersion $v12 from $ours12"
expect one.out "$standin12: cudaRuntimeGetVersion $v12 from $ours12"
expect one.out "libcudart.so.13: cudaRuntimeGetVersion $v13 from $ours13"
expect one.out "$ext12: cudaRuntimeGetVersion $v12 from $ours12"
grep -q "$notice" one.err && fail "an exit notice for a program minicudart served: $(cat one.err)"

# 2. A process tree: the host loads a CUDA 12 extension, its child needs 12 and loads 13.
"$cmd" run -- "$host" "$ext12" -- "$prog12" libcudart.so.13 >tree.out 2>tree.err ||
    fail "the tree under minicudart run: exit $?: $(cat tree.out tree.err)"
expect tree.out "$ext12: cudaRuntimeGetVersion $v12 from $ours12"
expect tree.out "linked: cudaRuntimeGetVersion $v12 from $ours12"
expect tree.out "libcudart.so.13: cudaRuntimeGetVersion $v13 from $ours13"
grep -q "$notice" tree.err && fail "an exit notice in a tree minicudart served: $(cat tree.err)"

# 3. No runtime loaded: the notice, which says how to check.
"$cmd" run -- "$host" >none.out 2>none.err || fail "the host alone: exit $?"
grep -q "$notice" none.err || fail "no notice for a program that loaded no runtime: $(cat none.err)"
grep -qF "fatbin check $(realpath "$host")" none.err || fail "the notice does not name the program: $(cat none.err)"

# 4. --lib for one major; the other stays minicudart's.
"$cmd" run --lib "$standin12" -- "$prog12" libcudart.so.13 >lib.out 2>&1 || fail "--lib: exit $?: $(cat lib.out)"
expect lib.out "linked: cudaRuntimeGetVersion 12040 from $standin12"
expect lib.out "libcudart.so.13: cudaRuntimeGetVersion $v13 from $ours13"
"$cmd" run --lib "$ext12" -- "$prog12" >/dev/null 2>libname.err
[ $? = 2 ] || fail "--lib with a library of no CUDA major is not a usage error (2)"
grep -q 'not a libcudart.so.12 or libcudart.so.13' libname.err || fail "--lib's error: $(cat libname.err)"

# 5. --version: both libraries (the ABIs' versions were read above and answered in 1).
expect version.out "library: $ours12"
expect version.out "library: $ours13"
[ "$v12" -ge 12000 ] && [ "$v12" -lt 13000 ] || fail "--version: libcudart.so.12 answers $v12"

# 6. Programs of a CUDA 12 toolkit.
if [ -n "$shared12" ]; then
    LD_LIBRARY_PATH=$nvidia12 "$shared12" >nvidia12.out 2>&1
    nv_rc=$?
    LD_LIBRARY_PATH=$nvidia12 "$cmd" run -- "$shared12" >mc12.out 2>mc12.err
    [ $? = $nv_rc ] || fail "nvcc 12.4's program: exit status differs under minicudart run"
    expect nvidia12.out "runtime: NVIDIA"
    expect mc12.out "runtime: minicudart"
    diff <(tail -n +2 nvidia12.out) <(tail -n +2 mc12.out) || fail "nvcc 12.4's program: outputs differ"
    grep -q "$notice" mc12.err && fail "a notice for nvcc 12.4's program: $(cat mc12.err)"
    "$static12" >/dev/null 2>&1
    st_rc=$?
    "$cmd" run -- "$static12" >/dev/null 2>static12.err
    [ $? = $st_rc ] || fail "nvcc 12.4's static program: exit status differs under minicudart run"
    grep -q "$notice" static12.err || fail "no notice for nvcc 12.4's static program: $(cat static12.err)"
    echo "run12: nvcc 12.4's -cudart=shared program answered as on NVIDIA's 12.9 runtime"
else
    echo "run12: no nvcc 12.4 or NVIDIA's 12.9 runtime: its programs not run"
fi
cat one.out
echo "run12: all checks passed"
