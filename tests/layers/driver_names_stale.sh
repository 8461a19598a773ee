#!/usr/bin/env bash
# The check of lib/core/driver_names.h must be able to fail: a copy of lib/core's .def files and
# of the header, one entry point renamed in a .def, handed to tools/gen_driver_names.py --check,
# which must exit 1; the unchanged copy must pass.
set -u
tool=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib/core"
cp "$src"/lib/core/*.def "$src/lib/core/driver_names.h" "$work/lib/core/" || exit 2
python3 "$tool" --check --root "$work" || { echo "driver_names_stale: the copy did not pass"; exit 1; }
sed -i 's/DRIVER_FN(cuStreamSynchronize, /DRIVER_FN(cuStreamSynchronise, /' "$work/lib/core/driver_stream.def"
grep -q cuStreamSynchronise "$work/lib/core/driver_stream.def" || { echo "driver_names_stale: no row renamed"; exit 2; }
out=$(python3 "$tool" --check --root "$work" 2>&1)
rc=$?
echo "$out"
[ "$rc" = 1 ] || { echo "driver_names_stale: exit $rc, not 1"; exit 1; }
echo "driver_names_stale: a renamed entry point was named stale"
