# tests/gpu/sanitizer_count.sh - sourced by tests/gpu/reliability.sh and tests/gpu/corpus_sanitizer.sh:
# what one compute-sanitizer run reported, read from its --log-file.
#
# sanitizer_count LOG RC  ->  "<errors>" from the ERROR SUMMARY line, "<errors>+<bytes>B" when
# memcheck's leak check found bytes leaked, "T/O" when the run was killed by its timeout (RC 124
# or 137), or "rc<RC>" when the tool printed no summary.  racecheck ends with
# "RACECHECK SUMMARY: <n> hazards displayed (<e> errors, <w> warnings)" instead of an ERROR
# SUMMARY (compute-sanitizer 2025.3 on the H200): its hazards are the count.
sanitizer_count() {
    local log=$1 rc=$2 errors leaked
    # Past --print-limit (100 by default) memcheck adds a second line, "ERROR SUMMARY: <n> errors
    # were not printed...": the count is the line that ends after "errors".
    errors=$(sed -n 's/^========= ERROR SUMMARY: \([0-9][0-9]*\) errors\{0,1\}$/\1/p' "$log" 2>/dev/null |
        tail -n 1)
    [ -z "$errors" ] && errors=$(sed -n 's/^========= RACECHECK SUMMARY: \([0-9][0-9]*\) hazard.*/\1/p' \
        "$log" 2>/dev/null | tail -n 1)
    leaked=$(sed -n 's/^========= LEAK SUMMARY: \([0-9][0-9]*\) bytes leaked.*/\1/p' "$log" 2>/dev/null | tail -n 1)
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        echo "T/O"
    elif [ -z "$errors" ]; then
        echo "rc$rc"
    elif [ -n "$leaked" ] && [ "$leaked" != 0 ]; then
        echo "$errors+${leaked}B"
    else
        echo "$errors"
    fi
}

# sanitizer_errors COUNT -> the number of errors in a sanitizer_count answer, or nothing.
sanitizer_errors() { case $1 in [0-9]*) echo "${1%%+*}" ;; esac; }
