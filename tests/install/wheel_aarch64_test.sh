#!/usr/bin/env bash
# wheel_aarch64_test.sh VERSION SOURCE_DIR WORK_DIR - the aarch64 wheel (the test
# package_wheel_aarch64), on this x86-64 machine: tools/build-wheel.sh --arch aarch64 cross-builds
# it (zig cc); wheel_check.sh checks its name (manylinux_2_28_aarch64), auditwheel's verdict, its
# files, that every binary is AArch64 and needs glibc 2.28's symbols at most; pip accepts it for
# that platform; then, unpacked as pip installs it into an environment (the data under the
# prefix: `pip install --target` would leave lib/ out), its commands run under qemu-aarch64:
#   - `minicudart --version`: VERSION, and the unpacked libraries;
#   - `minicudart run -- qemu-aarch64 arm_program`: arm_program (arm_program.c, linked here by
#     zig with the wheel's libcudart.so.13 and no search path) is served by the preloaded
#     libcudart.so.13 of the wheel, the version `--version` names; without `run` it does not
#     start.  qemu-user cannot follow an exec into an aarch64 program without binfmt_misc, so
#     `run` starts qemu-aarch64 (an x86-64 program: the preload is ignored there, with a line of
#     the loader's), which hands `run`'s environment to the program it emulates.
# qemu runs without -L (QEMU_LD_PREFIX): with it, qemu 7.2 hangs a child forked after the parent
# changed its environment, which `run` does; the arm64 loader and libc are then Debian's
# multiarch ones (libc6:arm64, which the arm64 development packages bring).
# Exit 77 (ctest: skipped) where qemu-aarch64 or libc6:arm64 is missing (tools/install-deps.sh
# installs both on Debian x86-64).
set -u
version=$1 src=$2 work=$3
fail() { echo "aarch64 wheel: FAIL: $*"; exit 1; }
skip() { echo "aarch64 wheel: $* -- skipped"; exit 77; }
qemu=$(command -v qemu-aarch64) || skip "no qemu-aarch64 (qemu-user)"
[ -e /lib/ld-linux-aarch64.so.1 ] && [ -e /usr/lib/aarch64-linux-gnu/libc.so.6 ] ||
    skip "no arm64 loader and libc (libc6:arm64)"
unset QEMU_LD_PREFIX
venv=${MINICUDART_PACKAGING_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/packaging}
rm -rf "$work"
mkdir -p "$work/tmp"

start=$SECONDS
wheel=$(TMPDIR=$work/tmp "$src/tools/build-wheel.sh" --arch aarch64 "$work/dist" 2>"$work/build.err") ||
    { cat "$work/build.err"; fail "tools/build-wheel.sh --arch aarch64 failed"; }
echo "aarch64 wheel: built $(basename "$wheel") ($(stat -c %s "$wheel") bytes) in $((SECONDS - start)) s"
"$src/tests/install/wheel_check.sh" "$version" aarch64 "$wheel" "$work/check" ||
    fail "the wheel is not as it should be"
# pip takes it for an aarch64 machine of glibc 2.28 (and would for none older).
"$venv/bin/python" -m pip install -q --dry-run --no-index --no-deps --only-binary=:all: \
    --platform manylinux_2_28_aarch64 --target "$work/pipcheck" "$wheel" >"$work/pip.log" 2>&1 ||
    { cat "$work/pip.log"; fail "pip does not take the wheel for manylinux_2_28_aarch64"; }
if "$venv/bin/python" -m pip install -q --dry-run --no-index --no-deps --only-binary=:all: \
    --platform manylinux_2_27_aarch64 --target "$work/pipcheck" "$wheel" >/dev/null 2>&1; then
    fail "pip takes the wheel for glibc 2.27"
fi

# Installed as pip installs a wheel's data into an environment: under the prefix.
prefix=$work/prefix
rm -rf "$prefix"
mkdir -p "$prefix"
cp -a "$work/check/unpacked/minicudart-$version.data/data/." "$prefix/"
chmod +x "$prefix/bin/minicudart" "$prefix/bin/fatbin"

"$qemu" "$prefix/bin/minicudart" --version >"$work/version.out" 2>&1 ||
    { cat "$work/version.out"; fail "minicudart --version failed under qemu-aarch64"; }
grep -qx "minicudart $version" "$work/version.out" ||
    fail "minicudart --version: $(head -n 1 "$work/version.out"), want minicudart $version"
for so in libcudart.so.13 libcudart.so.12; do
    grep -qx "library: $prefix/lib/$so" "$work/version.out" ||
        fail "minicudart --version does not name $prefix/lib/$so: $(cat "$work/version.out")"
done
abi=$(sed -n "s/^runtime ABI: .*(libcudart.so.13; cudaRuntimeGetVersion \([0-9]*\))$/\1/p" "$work/version.out")
[ -n "$abi" ] || fail "minicudart --version names no libcudart.so.13 ABI: $(cat "$work/version.out")"
echo "aarch64 wheel: qemu-aarch64 minicudart --version: $(head -n 1 "$work/version.out"), libcudart.so.13 answers $abi"

zig=$("$venv/bin/python" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))') ||
    fail "no ziglang in $venv: run tools/install-deps.sh"
"$zig" cc -target aarch64-linux-gnu.2.28 -O2 -g0 "$src/tests/install/arm_program.c" \
    "$prefix/lib/libcudart.so.13" -ldl -o "$work/arm_program" >"$work/cc.log" 2>&1 ||
    { cat "$work/cc.log"; fail "zig cc could not build arm_program"; }
if "$qemu" "$work/arm_program" >"$work/alone.out" 2>&1; then
    fail "arm_program started with no libcudart.so.13 given: $(cat "$work/alone.out")"
fi
"$qemu" "$prefix/bin/minicudart" run -- "$qemu" "$work/arm_program" >"$work/run.out" 2>"$work/run.err" ||
    { cat "$work/run.out" "$work/run.err"; fail "minicudart run -- qemu-aarch64 arm_program failed"; }
grep -qx "runtime version $abi (cudaSuccess)" "$work/run.out" ||
    { cat "$work/run.out"; fail "arm_program under run: not the runtime version $abi"; }
grep -qx "library: $prefix/lib/libcudart.so.13" "$work/run.out" ||
    { cat "$work/run.out"; fail "arm_program under run: not served by the preloaded $prefix/lib/libcudart.so.13"; }
grep -q '^cudaGetDeviceCount: cudaError' "$work/run.out" ||
    { cat "$work/run.out"; fail "arm_program under run: cudaGetDeviceCount answered no error without a driver"; }
echo "aarch64 wheel: qemu-aarch64 minicudart run: arm_program served by the wheel's libcudart.so.13 ($(grep '^cudaGetDeviceCount' "$work/run.out"))"
echo "aarch64 wheel: built, checked, and run under qemu-aarch64"
