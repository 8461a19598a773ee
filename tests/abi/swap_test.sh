#!/usr/bin/env bash
# swap_test.sh PROGRAM NVIDIA_LIB_DIR MINICUDART_LIB_DIR
# Runs a -cudart=shared program on NVIDIA's libcudart.so.13 and on minicudart's, by
# LD_LIBRARY_PATH alone (no rebuild), and compares what they answer.
set -u
program=$1 nvidia_dir=$2 ours_dir=$3
LD_LIBRARY_PATH=$nvidia_dir "$program" >nvidia.out 2>&1
LD_LIBRARY_PATH=$ours_dir "$program" >minicudart.out 2>&1
head -n 1 nvidia.out
head -n 1 minicudart.out
grep -qx 'runtime: NVIDIA' nvidia.out || { echo "swap: NVIDIA's library was not the one loaded"; exit 1; }
grep -qx 'runtime: minicudart' minicudart.out || { echo "swap: minicudart was not the one loaded"; exit 1; }
if diff <(tail -n +2 nvidia.out) <(tail -n +2 minicudart.out); then
    tail -n +2 minicudart.out
    echo "swap: same output"
else
    echo "swap: outputs differ"
    exit 1
fi
