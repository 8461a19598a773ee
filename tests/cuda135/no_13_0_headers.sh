#!/bin/sh
# no_13_0_headers.sh INCLUDE_13_0 DIR... - the builds of tests/cuda135 read no header of the
# 13.0 toolkit.  A header missing from the 13.5 tree is not an error for the compiler: it falls
# through to a system folder, and on a machine that links the 13.0 toolkit's headers into
# /usr/local/include it is 13.0's, which then brings 13.0's driver_types.h along (its include
# guard hides 13.5's).  So every dependency file (*.d) under DIR... is read, each header
# resolved through its links, and none may lie in INCLUDE_13_0 (also resolved).
set -eu
old=$(realpath "$1")
shift
depfiles=$(find "$@" -name '*.d' -type f | sort)
[ -n "$depfiles" ] || { echo "FAIL: no dependency file under $*"; exit 1; }
# Make syntax, "target: dep dep \" lines: every word but the targets and the backslashes, each
# resolved once.
# shellcheck disable=SC2086
headers=$(sed 's/\\$//' $depfiles | tr -s '[:blank:]' '\n' | grep -v -e ':$' -e '^$' | sort -u)
resolved=$(echo "$headers" | xargs realpath -m)
if echo "$resolved" | grep -q "^$old/"; then
    echo "FAIL: headers of the 13.0 toolkit were read:"
    # shellcheck disable=SC2086
    echo "$headers" | while read -r header; do
        case $(realpath -m "$header") in
        "$old"/*) echo "  $header, read by: $(grep -l -F "$header" $depfiles | head -n 3)" ;;
        esac
    done
    exit 1
fi
echo "no_13_0_headers: $(echo "$depfiles" | wc -l) dependency files," \
     "$(echo "$headers" | wc -l) headers, none from $old"
