#!/usr/bin/env bash
# run12_test.sh MINICUDART_CMD STANDIN12 STANDIN13 PROG12 PROG13 PROG12_SEARCH HOST EXT12 EXT13
#               EXT12_SEARCH OURS12 OURS13 [CUDA12_SHARED CUDA12_STATIC NVIDIA12_DIR]
# `minicudart run -- CMD` and the two CUDA majors.  CMD gets one of minicudart's runtimes
# preloaded: libcudart.so.12 when its executable needs libcudart.so.12 and not .so.13, else
# libcudart.so.13; and the folder holding both goes first on LD_LIBRARY_PATH.  The programs and
# extensions find NVIDIA's stand-ins (STANDIN12, STANDIN13) by DT_RPATH, which the loader searches
# before LD_LIBRARY_PATH, or, the *_SEARCH ones, by DT_RUNPATH, which it searches after.
#   1. a CUDA 12 program (PROG12): OURS12 preloaded (and nothing else), so its own runtime and a
#      CUDA 12 extension's (EXT12, DT_RPATH) are OURS12; libcudart.so.13 by name is OURS13, by
#      search; CMD found through PATH as execvp finds it gets the same; no exit notice;
#   2. a CUDA 13 program (PROG13): OURS13 preloaded, its runtime OURS13, libcudart.so.12 by name
#      OURS12;
#   3. a python-like host (HOST, no runtime of its own): a CUDA 13 extension (EXT13, DT_RPATH) gets
#      OURS13 (the preload); a CUDA 12 extension found by search (EXT12_SEARCH) gets OURS12, and so
#      does a CUDA 12 program it starts that finds its runtime by search (PROG12_SEARCH);
#   4. what is not served, and stays NVIDIA's: from the host, a CUDA 12 extension or program that
#      finds libcudart.so.12 by DT_RPATH (EXT12, PROG12), and a runtime opened by its full path;
#   5. a program that never calls the runtime: the exit notice names it;
#   6. --lib PATH: the preload when CMD gets that major preloaded, else found by search in its
#      folder; a name of no major, or one the loader could not find by search, is a usage error;
#   7. --version names both ABIs with the versions the libraries answered in 1 and 2, both files,
#      and the folder, which holds the two libraries and nothing else;
#   8. with nvcc 12.4's programs: a -cudart=shared one answers under `minicudart run` as under
#      NVIDIA's 12.9 runtime (NVIDIA12_DIR first in LD_LIBRARY_PATH), and a -cudart=static one
#      gets the exit notice.
set -u
cmd=$1 standin12=$2 standin13=$3 prog12=$4 prog13=$5 prog12s=$6 host=$7 ext12=$8 ext13=$9
ext12s=${10} ours12=$(realpath "${11}") ours13=$(realpath "${12}")
shared12=${13:-} static12=${14:-} nvidia12=${15:-}
fail() { echo "run12: FAIL: $*"; exit 1; }
expect() {   # expect FILE LINE: FILE has the line LINE
    grep -qxF "$2" "$1" || { cat "$1"; fail "$1 has no line '$2'"; }
}
notice='but no CUDA runtime call reached it'
[[ $(basename "$standin12") == libcudart.so.12 && $(basename "$standin13") == libcudart.so.13 ]] ||
    fail "the stand-ins are $standin12 and $standin13"
standin12=$(realpath "$standin12") standin13=$(realpath "$standin13")
sd12=$(dirname "$standin12") sd13=$(dirname "$standin13")

# What --version says each library answers to cudaRuntimeGetVersion, and the folder.
"$cmd" --version >version.out 2>&1 || fail "--version failed"
abi() { sed -n "s/^runtime ABI: NVIDIA's CUDA [0-9.]* (libcudart\.so\.$1; cudaRuntimeGetVersion \([0-9]*\))\$/\1/p" version.out; }
v12=$(abi 12) v13=$(abi 13)
[ -n "$v12" ] && [ -n "$v13" ] || fail "--version names not both ABIs: $(cat version.out)"
folder=$(sed -n 's/^search folder: \(.*\) (first on LD_LIBRARY_PATH under run)$/\1/p' version.out)
[ -d "$folder" ] || fail "--version names no search folder: $(cat version.out)"

# 0. Without minicudart run: the stand-ins answer (found by the programs' RPATH).
"$prog12" >plain12.out 2>&1 || fail "run12_program alone: exit $?: $(cat plain12.out)"
expect plain12.out "linked: cudaRuntimeGetVersion 12040 from $standin12"
"$prog13" >plain13.out 2>&1 || fail "run13_program alone: exit $?: $(cat plain13.out)"
expect plain13.out "linked: cudaRuntimeGetVersion 13000 from $standin13"

# 1. A CUDA 12 program: ours12 preloaded, alone, in front of LD_PRELOAD's own (EXT12_SEARCH here,
#    whose libcudart.so.12 is then ours12); env, its child, shows the environment it inherits.
LD_PRELOAD=$ext12s LD_LIBRARY_PATH=$sd12:$sd13 \
    "$cmd" run -- "$prog12" libcudart.so.13 "$ext12" -- env >one.out 2>one.err ||
    fail "run12_program under minicudart run: exit $?: $(cat one.out one.err)"
expect one.out "linked: cudaRuntimeGetVersion $v12 from $ours12"
expect one.out "libcudart.so.13: cudaRuntimeGetVersion $v13 from $ours13"
expect one.out "$ext12: cudaRuntimeGetVersion $v12 from $ours12"
expect one.out "LD_PRELOAD=$ours12 $ext12s"
expect one.out "LD_LIBRARY_PATH=$folder:$sd12:$sd13"
grep -q "$notice" one.err && fail "an exit notice for a program minicudart served: $(cat one.err)"
# CMD by its name, found through PATH: the same preload.
PATH=$(dirname "$prog12"):$PATH "$cmd" run -- "$(basename "$prog12")" >path.out 2>&1 ||
    fail "run12_program through PATH: exit $?: $(cat path.out)"
expect path.out "linked: cudaRuntimeGetVersion $v12 from $ours12"

# 2. A CUDA 13 program: ours13 preloaded; libcudart.so.12 by name is ours12, by search.
LD_LIBRARY_PATH=$sd12:$sd13 "$cmd" run -- "$prog13" libcudart.so.12 -- env >two.out 2>two.err ||
    fail "run13_program under minicudart run: exit $?: $(cat two.out two.err)"
expect two.out "linked: cudaRuntimeGetVersion $v13 from $ours13"
expect two.out "libcudart.so.12: cudaRuntimeGetVersion $v12 from $ours12"
expect two.out "LD_PRELOAD=$ours13"
grep -q "$notice" two.err && fail "an exit notice for a program minicudart served: $(cat two.err)"

# 3. A python-like host: a CUDA 13 extension gets the preload whatever its RPATH.
"$cmd" run -- "$host" "$ext13" >ext13.out 2>ext13.err || fail "the host with EXT13: exit $?: $(cat ext13.out ext13.err)"
expect ext13.out "$ext13: cudaRuntimeGetVersion $v13 from $ours13"
grep -q "$notice" ext13.err && fail "an exit notice for a host minicudart served: $(cat ext13.err)"
#    A CUDA 12 extension found by search gets ours12, and so does a CUDA 12 program the host
#    starts that finds its runtime by search.  The host's preloaded libcudart.so.13, which no call
#    reached, still gives the exit notice (known: each runtime knows only its own calls).
"$cmd" run -- "$host" "$ext12s" -- "$prog12s" >search.out 2>search.err ||
    fail "the host with EXT12_SEARCH: exit $?: $(cat search.out search.err)"
expect search.out "$ext12s: cudaRuntimeGetVersion $v12 from $ours12"
expect search.out "linked: cudaRuntimeGetVersion $v12 from $ours12"
grep -q "loaded into $(realpath "$host") .*$notice" search.err ||
    fail "the host's libcudart.so.13 no longer gives the notice (update this test and the docs): $(cat search.err)"

# 4. Not served: from the host, a CUDA 12 extension and program that find NVIDIA's
#    libcudart.so.12 by DT_RPATH (before LD_LIBRARY_PATH), and runtimes opened by full path.
"$cmd" run -- "$host" "$ext12" "$standin13" -- "$prog12" "$standin12" >kept.out 2>kept.err ||
    fail "the host with EXT12: exit $?: $(cat kept.out kept.err)"
expect kept.out "$ext12: cudaRuntimeGetVersion 12040 from $standin12"
expect kept.out "$standin13: cudaRuntimeGetVersion 13000 from $standin13"
expect kept.out "linked: cudaRuntimeGetVersion 12040 from $standin12"
expect kept.out "$standin12: cudaRuntimeGetVersion 12040 from $standin12"

# 5. No runtime call: the notice, which names the program and says how to check.
"$cmd" run -- "$host" >none.out 2>none.err || fail "the host alone: exit $?"
grep -q "$notice" none.err || fail "no notice for a program that called no runtime: $(cat none.err)"
grep -qF "fatbin check $(realpath "$host")" none.err || fail "the notice does not name the program: $(cat none.err)"

# 6. --lib: the preload of a CUDA 12 program, or the libcudart.so.13 found by search.
"$cmd" run --lib "$standin12" -- "$prog12" libcudart.so.13 >lib.out 2>&1 || fail "--lib 12: exit $?: $(cat lib.out)"
expect lib.out "linked: cudaRuntimeGetVersion 12040 from $standin12"
expect lib.out "libcudart.so.13: cudaRuntimeGetVersion $v13 from $ours13"
"$cmd" run --lib "$standin13" -- "$prog12" libcudart.so.13 >lib13.out 2>&1 || fail "--lib 13: exit $?: $(cat lib13.out)"
expect lib13.out "linked: cudaRuntimeGetVersion $v12 from $ours12"
expect lib13.out "libcudart.so.13: cudaRuntimeGetVersion 13000 from $standin13"
"$cmd" run --lib "$standin13" -- "$prog13" >lib13p.out 2>&1 || fail "--lib 13, preloaded: exit $?: $(cat lib13p.out)"
expect lib13p.out "linked: cudaRuntimeGetVersion 13000 from $standin13"
#    A file named libcudart.so.12.4.127 alone in its folder: preloaded, yes; found by search, no.
mkdir -p versioned && cp "$standin12" versioned/libcudart.so.12.4.127
"$cmd" run --lib versioned/libcudart.so.12.4.127 -- "$prog12" >libv.out 2>&1 || fail "--lib libcudart.so.12.4.127: exit $?: $(cat libv.out)"
expect libv.out "linked: cudaRuntimeGetVersion 12040 from $(realpath versioned/libcudart.so.12.4.127)"
"$cmd" run --lib versioned/libcudart.so.12.4.127 -- "$prog13" >/dev/null 2>libv.err
[ $? = 2 ] || fail "--lib of a file the loader cannot find by search is not a usage error (2)"
grep -q 'must be found by search' libv.err || fail "--lib's error: $(cat libv.err)"
"$cmd" run --lib "$ext12" -- "$prog12" >/dev/null 2>libname.err
[ $? = 2 ] || fail "--lib with a library of no CUDA major is not a usage error (2)"
grep -q 'not a libcudart.so.12 or libcudart.so.13' libname.err || fail "--lib's error: $(cat libname.err)"

# 7. --version: both libraries (the ABIs' versions were read above and answered in 1 and 2), and
#    the folder: the two libraries, nothing else.
expect version.out "library: $ours12"
expect version.out "library: $ours13"
[ "$v12" -ge 12000 ] && [ "$v12" -lt 13000 ] || fail "--version: libcudart.so.12 answers $v12"
[ "$(ls -A "$folder" | tr '\n' ' ')" = "libcudart.so.12 libcudart.so.13 " ] ||
    fail "the search folder $folder holds: $(ls -A "$folder")"
[ "$(realpath "$folder/libcudart.so.12")" = "$ours12" ] && [ "$(realpath "$folder/libcudart.so.13")" = "$ours13" ] ||
    fail "the search folder's libraries are not ours: $(ls -l "$folder")"

# 8. Programs of a CUDA 12 toolkit.
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
grep -h 'cudaRuntimeGetVersion' one.out search.out kept.out
echo "run12: all checks passed"
