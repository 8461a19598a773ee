#!/usr/bin/env bash
# nodriver_test.sh PROBE OURS NVIDIAS - with no usable driver, every function that NVIDIA's
# runtime NVIDIAS exports and that returns a cudaError_t, called in ours and in NVIDIA's with
# NULL arguments and again with pointers to zeroed buffers (nodriver_probe.c), must give the
# same answer: NVIDIA's runtime initialises the driver before it reads a call's arguments, so it
# answers cudaErrorInsufficientDriver from nearly every function, whatever the arguments, and
# the few it answers otherwise (the version queries, __cudaGetKernel's and cudaGetExportTable's
# NULL checks) are answered alike.  Where NVIDIA's crashes, ours may answer; ours must never
# crash.  The one difference allowed is listed below with its reason.
#
# By default there is no driver: none on this machine's search path, and ours is pointed at none
# (cudaErrorInsufficientDriver, 35).  On a GPU machine, NODRIVER_FAILURE=100 with
# CUDA_VISIBLE_DEVICES set empty runs the same comparison with a driver whose cuInit fails
# (cudaErrorNoDevice): the driver is then left as it is found.
set -uo pipefail
probe=$1 ours=$2 nvidias=$3
failure=${NODRIVER_FAILURE:-35}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "$failure" = 35 ]; then
    export MINICUDART_DRIVER=/nonexistent/libcuda.so.1
    unset LD_LIBRARY_PATH
fi

# The functions that return something else, or that take no part in a program's calls.
not_errors='^(__cudaRegister.*|__cudaUnregisterFatBinary|__cudaInitModule|__cudaPushCallConfiguration|__cudaPopCallConfiguration|cudaGetErrorName|cudaGetErrorString|cudaCreateChannelDesc)$'
nm -D --defined-only "$nvidias" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
    grep -Ev "$not_errors" | sort -u >"$work/names"
count=$(wc -l <"$work/names")
[ "$count" -gt 300 ] || { echo "nodriver: only $count functions in $nvidias"; exit 1; }

# cudaGetExportTable with an id no table has: NVIDIA's runtime answers cudaErrorUnknown from its
# own tables; minicudart asks the driver's cuGetExportTable for every id, and with no driver
# answers the driver's failure.
allowed="^cudaGetExportTable buffers 999 $failure\$"

failed=0
for mode in null buffers; do
    "$probe" "$nvidias" "$work/names" $mode >"$work/nvidia.$mode" || exit 1
    "$probe" "$ours" "$work/names" $mode >"$work/ours.$mode" || exit 1
    # NVIDIA's own answer must be that of a machine with no driver.
    grep -qx "cudaGetDeviceCount $failure" "$work/nvidia.$mode" ||
        { echo "nodriver: NVIDIA's runtime did not answer $failure: $(grep cudaGetDeviceCount "$work/nvidia.$mode")"; exit 1; }
    while read -r name theirs; do
        mine=$(grep -m1 "^$name " "$work/ours.$mode" | cut -d' ' -f2-)
        [ "$mine" = "$theirs" ] && continue
        case $mine in crash*|absent|'')
            echo "nodriver: $name ($mode): ours $mine, NVIDIA's $theirs"; failed=1; continue ;;
        esac
        case $theirs in crash*)
            echo "nodriver: $name ($mode): NVIDIA's $theirs, ours answers $mine"; continue ;;
        esac
        if echo "$name $mode $theirs $mine" | grep -Eqx "$allowed"; then
            echo "nodriver: $name ($mode): ours $mine, NVIDIA's $theirs (allowed)"
            continue
        fi
        echo "nodriver: $name ($mode): ours $mine, NVIDIA's $theirs"
        failed=1
    done <"$work/nvidia.$mode"
done
[ "$failed" = 0 ] || exit 1
echo "nodriver: $count functions, both argument forms, answered as NVIDIA's runtime answers ($failure)"
