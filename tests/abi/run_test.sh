#!/usr/bin/env bash
# run_test.sh MINICUDART_CMD SHARED_PROGRAM STATIC_PROGRAM NVIDIA_LIB_DIR VERSION LIBRARY
# `minicudart run -- CMD` without rebuilding CMD:
#   1. a -cudart=shared program that finds NVIDIA's libcudart.so.13 first by LD_LIBRARY_PATH:
#      preloaded, minicudart answers instead, the same output as NVIDIA's (but the first line,
#      which names the runtime) and the same exit status, and no exit notice;
#   2. with --summary and --trace the run still answers the same (the options reach the runtime);
#   3. a program with NVIDIA's runtime linked statically: the exit notice says no CUDA call
#      reached minicudart, and the exit status is the program's;
#   4. the exit status of a command that fails, and usage errors;
#   5. --version: the package's VERSION, the runtime ABI that cudaRuntimeGetVersion answered in
#      1, and LIBRARY (the build tree's, which `run` preloads from there; run12_test.sh checks the
#      libcudart.so.12 lines and the search folder).
set -u
cmd=$1 shared=$2 static=$3 nvidia_dir=$4 version=$5 library=$6
fail() { echo "run: $*"; exit 1; }

LD_LIBRARY_PATH=$nvidia_dir "$shared" >nvidia.out 2>nvidia.err
nv_rc=$?
LD_LIBRARY_PATH=$nvidia_dir "$cmd" run -- "$shared" >run.out 2>run.err
run_rc=$?
[ "$run_rc" = "$nv_rc" ] || fail "exit status $run_rc under minicudart run, $nv_rc under NVIDIA's runtime"
grep -qx 'runtime: NVIDIA' nvidia.out || fail "NVIDIA's library was not the one loaded"
grep -qx 'runtime: minicudart' run.out || fail "minicudart was not the one loaded: $(head -n 1 run.out)"
diff <(tail -n +2 nvidia.out) <(tail -n +2 run.out) || fail "outputs differ"
grep -q 'no CUDA runtime call reached it' run.err && fail "notice printed for a program minicudart served"

LD_LIBRARY_PATH=$nvidia_dir "$cmd" run --trace --summary -- "$shared" >trace.out 2>trace.err
[ $? = "$nv_rc" ] || fail "exit status differs with --trace --summary"
diff <(tail -n +2 nvidia.out) <(tail -n +2 trace.out) || fail "outputs differ with --trace"
grep -q '^minicudart: ' trace.err || fail "--trace showed no trace lines"

"$static" >static.out 2>static.err
st_rc=$?
"$cmd" run -- "$static" >static_run.out 2>static_run.err
[ $? = "$st_rc" ] || fail "exit status of the static program differs under minicudart run"
grep -q 'no CUDA runtime call reached it' static_run.err ||
    fail "no notice for a program with NVIDIA's static runtime: $(cat static_run.err)"
grep -q 'fatbin check' static_run.err || fail "the notice does not say how to check"

# CMD's own arguments, options included, are CMD's: passed on, not read as the command's.
LD_LIBRARY_PATH=$nvidia_dir "$cmd" run -- "$shared" --trace --no-such-option >args.out 2>args.err
[ $? = "$nv_rc" ] || fail "exit status differs when CMD has arguments"
grep -q '^minicudart: ' args.err && fail "CMD's --trace was read as the command's option"
diff <(tail -n +2 nvidia.out) <(tail -n +2 args.out) || fail "outputs differ when CMD has arguments"
"$cmd" run -- /nonexistent/program 2>missing.err
[ $? = 127 ] || fail "a missing command is not exit status 127"
"$cmd" run 2>/dev/null
[ $? = 2 ] || fail "no command is not a usage error (2)"
"$cmd" run --bogus -- "$shared" 2>/dev/null
[ $? = 2 ] || fail "an unknown option is not a usage error (2)"
"$cmd" run --lib /nonexistent/libcudart.so.13 -- "$shared" 2>/dev/null
[ $? = 2 ] || fail "an unreadable --lib is not a usage error (2)"

"$cmd" --version >version.out 2>&1 || fail "--version failed: $(cat version.out)"
grep -qx "minicudart $version" version.out || fail "--version: $(head -n 1 version.out), want minicudart $version"
abi=$(sed -n 's/^runtime version \([0-9][0-9]*\)$/\1/p' run.out)
[ -n "$abi" ] || fail "the program printed no runtime version: $(cat run.out)"
grep -qx "runtime ABI: NVIDIA's CUDA $((abi / 1000)).$((abi % 1000 / 10)) (libcudart.so.13; cudaRuntimeGetVersion $abi)" version.out ||
    fail "--version's ABI lines: $(grep '^runtime ABI' version.out), cudaRuntimeGetVersion answered $abi"
grep -qx "library: $(realpath "$library")" version.out || fail "--version's libraries: $(grep '^library' version.out), want $library"
"$cmd" --version extra >/dev/null 2>&1
[ $? = 2 ] || fail "--version with an argument is not a usage error (2)"
head -n 3 static_run.err
echo "run: all checks passed"
