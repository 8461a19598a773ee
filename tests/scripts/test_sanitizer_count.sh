#!/usr/bin/env bash
# tests/scripts/test_sanitizer_count.sh SANITIZER_COUNT_SH - what tests/gpu/sanitizer_count.sh
# reads from compute-sanitizer's logs (lines as compute-sanitizer 2025.3 writes them): the error
# count, the leaked bytes, racecheck's hazards, a run stopped by its timeout, a run with no
# summary; and sanitizer_errors, the number the scripts compare.
set -u
. "$1" || exit 1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
right=0 total=0
expect() {      # what got want
    total=$((total + 1))
    if [ "$2" = "$3" ]; then right=$((right + 1)); else echo "WRONG: $1: got '$2', want '$3'"; fi
}
printf '%s\n' '========= COMPUTE-SANITIZER' \
    '========= Leaked 3079 bytes at 0x7f0000000000' \
    '========= LEAK SUMMARY: 3079 bytes leaked in 1 allocations' \
    '========= ERROR SUMMARY: 1 error' >"$d/leak.log"
printf '%s\n' '========= COMPUTE-SANITIZER' \
    '========= LEAK SUMMARY: 0 bytes leaked in 0 allocations' \
    '========= ERROR SUMMARY: 0 errors' >"$d/clean.log"
printf '%s\n' '========= COMPUTE-SANITIZER' \
    '========= RACECHECK SUMMARY: 8 hazards displayed (0 errors, 8 warnings)' >"$d/race.log"
printf '%s\n' '========= COMPUTE-SANITIZER' '========= Program hit cudaErrorInvalidValue' >"$d/cut.log"
# Past the print limit (H200, stress_green under memcheck): a second ERROR SUMMARY line.
printf '%s\n' '========= COMPUTE-SANITIZER' \
    '========= LEAK SUMMARY: 2099456 bytes leaked in 131 allocations' \
    '========= ERROR SUMMARY: 142 errors' \
    '========= ERROR SUMMARY: 42 errors were not printed. Use --print-limit option to adjust the number of printed errors' \
    >"$d/limit.log"
expect "memcheck, leaked" "$(sanitizer_count "$d/leak.log" 0)" "1+3079B"
expect "memcheck, clean" "$(sanitizer_count "$d/clean.log" 0)" "0"
expect "memcheck, past the print limit" "$(sanitizer_count "$d/limit.log" 1)" "142+2099456B"
expect "racecheck" "$(sanitizer_count "$d/race.log" 0)" "8"
expect "timeout 124" "$(sanitizer_count "$d/cut.log" 124)" "T/O"
expect "killed 137" "$(sanitizer_count "$d/leak.log" 137)" "T/O"
expect "no summary" "$(sanitizer_count "$d/cut.log" 1)" "rc1"
expect "errors of a leak count" "$(sanitizer_errors 1+3079B)" "1"
expect "errors of T/O" "$(sanitizer_errors T/O)" ""
echo "sanitizer_count: $right of $total right"
[ "$right" = "$total" ]
