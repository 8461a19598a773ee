#!/usr/bin/env bash
# Installs what building and testing minicudart needs on Debian or Ubuntu: a C compiler, CMake,
# cmocka, the zstd, LZ4 and zlib development packages, and python3-venv (the pip package test).
# The CUDA 13.0 toolkit (nvcc, headers) is assumed installed under /usr/local/cuda.  Does nothing
# when everything is there already.
set -eu
packages="cmake make gcc g++ libc6-dev libcmocka-dev libzstd-dev liblz4-dev zlib1g-dev python3-venv"
missing=""
for p in $packages; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
