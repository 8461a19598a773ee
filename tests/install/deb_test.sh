#!/usr/bin/env bash
# deb_test.sh VERSION SOURCE_DIR WORK_DIR PROGRAM NVIDIA_LIB_DIR CUDA_COMPILER [PROGRAM12 NVIDIA12_DIR]
# deb_test.sh --arch arm64 VERSION SOURCE_DIR WORK_DIR
# The Debian package (the test package_deb): tools/build-deb.sh makes it; its name, metadata
# (Depends: libc6 alone; Recommends: the codecs) and files (libcudart.so.13 and libcudart.so.12
# only in the private folder, and links to them in its minicudart-run/) are checked, and lintian must report no error.  Then it is installed
# on this machine with dpkg -i and used there: the loader does not know the private folder,
# `minicudart run` from /usr/bin serves the -cudart=shared PROGRAM as NVIDIA's runtime answers it
# (and PROGRAM12, built by nvcc 12.4, where given, as NVIDIA's 12.9 runtime does), and
# examples/cmake-project and a makefile on pkg-config build against it and run.  Last, dpkg -P
# removes it and nothing it installed is left.  A failure on the way still removes it (trap).
#
# Installing needs root: as another user, exit 77 (ctest: skipped), and so when a minicudart
# package is installed already (it is not this test's to replace), or when a file of the package
# exists on the machine outside any package (dpkg would overwrite it, and the removal delete it).
#
# With --arch arm64 (the test package_deb_arm64, on an amd64 machine): tools/build-deb.sh --arch
# arm64 cross-builds it; its name, metadata, files and lintian are checked as above, and besides,
# since it cannot be installed here: every ELF file is AArch64, the Depends that dpkg-shlibdeps
# read from libc6:arm64 covers the newest glibc symbol version the binaries need, and, unpacked
# with dpkg-deb -x, its /usr/bin/minicudart --version runs under qemu-aarch64 and names the
# unpacked libraries in the private folder.  Exit 77 where qemu-aarch64 or libc6:arm64 is missing.
set -u
fail() { echo "deb: FAIL: $*"; exit 1; }
skip() { echo "deb: $* -- skipped"; exit 77; }
arch=$(dpkg --print-architecture) || fail "dpkg --print-architecture failed"
foreign=0
if [ "${1:-}" = --arch ]; then
    [ "$2" != "$arch" ] || fail "--arch $2 is this machine's: run the test without it"
    arch=$2 foreign=1
    shift 2
    version=$1 src=$2 work=$3
    command -v qemu-aarch64 >/dev/null || skip "no qemu-aarch64 (qemu-user)"
    [ -e /lib/ld-linux-aarch64.so.1 ] || skip "no arm64 loader and libc (libc6:arm64)"
else
    version=$1 src=$2 work=$3 program=$4 nvidia_dir=$5 nvcc=$6 program12=${7:-} nvidia12_dir=${8:-}
fi
rm -rf "$work"
mkdir -p "$work"
multiarch=$(dpkg-architecture -a"$arch" -qDEB_HOST_MULTIARCH 2>/dev/null) ||
    fail "dpkg-architecture is missing (dpkg-dev): run tools/install-deps.sh"
command -v lintian >/dev/null || fail "lintian is missing: run tools/install-deps.sh"
command -v pkg-config >/dev/null || fail "pkg-config is missing: run tools/install-deps.sh"

# 1. The package.
start=$SECONDS
deb=$(MINICUDART_DEB_BUILD_DIR=$work/tree "$src/tools/build-deb.sh" --arch "$arch" "$work/dist" 2>"$work/build.err") ||
    { cat "$work/build.err"; fail "tools/build-deb.sh failed"; }
name=$(basename "$deb")
echo "deb: built $name ($(stat -c %s "$deb") bytes) in $((SECONDS - start)) s"
[ "$name" = "minicudart_${version}_$arch.deb" ] || fail "package $name, want minicudart_${version}_$arch.deb"
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = minicudart ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), want $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
[[ $(field Depends) =~ ^libc6(\ \(\>=\ [0-9.]+\))?$ ]] || fail "Depends: $(field Depends), want libc6 alone"
[ "$(field Recommends)" = "libzstd1, liblz4-1, zlib1g" ] || fail "Recommends: $(field Recommends)"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
[ -n "$(field Description)" ] || fail "no Description"
echo "deb: Depends: $(field Depends); Recommends: $(field Recommends)"

lib=usr/lib/$multiarch
dropin=$lib/minicudart
printf '%s\n' usr/bin/fatbin usr/bin/minicudart usr/include/minicudart.h \
    "$lib/libminicudart.a" "$lib/libminicudart12.a" "$lib/pkgconfig/minicudart.pc" "$lib/pkgconfig/minicudart12.pc" \
    "$lib/cmake/minicudart/minicudartConfig.cmake" "$lib/cmake/minicudart/minicudartConfigVersion.cmake" \
    "$lib/cmake/minicudart/minicudartTargets.cmake" "$lib/cmake/minicudart/minicudartTargets-release.cmake" \
    "$dropin/libcudart.so.13" "$dropin/libcudart.so" "$dropin/libcudart.so.12" \
    "$dropin/minicudart-run/libcudart.so.13" "$dropin/minicudart-run/libcudart.so.12" \
    usr/share/doc/minicudart/copyright usr/share/doc/minicudart/changelog.gz | sort >"$work/want.txt"
dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./||' | sort >"$work/entries.txt"
grep -v '/$' "$work/entries.txt" | grep -v '^$' >"$work/have.txt"
diff "$work/want.txt" "$work/have.txt" >"$work/contents.diff" ||
    { cat "$work/contents.diff"; fail "the package's files are not the expected ones (< missing, > extra)"; }

# lintian: no error; warnings are reported.
lintian "$deb" >"$work/lintian.out" 2>&1
lintian_rc=$?
grep -v 'running with root privileges' "$work/lintian.out" | sed 's/^/deb: lintian: /'
grep -q '^E: ' "$work/lintian.out" && fail "lintian reports errors"
[ $lintian_rc = 0 ] || fail "lintian exited with $lintian_rc"
echo "deb: lintian: $(grep -c '^E: ' "$work/lintian.out") errors, $(grep -c '^W: ' "$work/lintian.out") warnings"

# Another machine's package: what can be checked here of its binaries.
if [ $foreign = 1 ]; then
    rm -rf "$work/root"
    dpkg-deb -x "$deb" "$work/root" || fail "dpkg-deb -x failed"
    glibc_max=0.0
    for f in usr/bin/minicudart usr/bin/fatbin "$dropin/libcudart.so.13" "$dropin/libcudart.so.12" \
             "$lib/libminicudart.a" "$lib/libminicudart12.a"; do
        machines=$(readelf -h "$work/root/$f" 2>/dev/null | sed -n 's/^ *Machine: *//p' | sort -u)
        [ "$machines" = AArch64 ] || fail "$f: machine ${machines:-none}, want AArch64"
        case $f in *.a) continue ;; esac
        max=$(readelf -V "$work/root/$f" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)
        glibc_max=$(printf '%s\n' "$glibc_max" "$max" | sort -V | tail -n 1)
    done
    [[ $(field Depends) =~ ^libc6\ \(\>=\ ([0-9.]+)\)$ ]] || fail "Depends: $(field Depends), want libc6 (>= X)"
    [ "$(printf '%s\n' "$glibc_max" "${BASH_REMATCH[1]}" | sort -V | tail -n 1)" = "${BASH_REMATCH[1]}" ] ||
        fail "Depends: libc6 (>= ${BASH_REMATCH[1]}), but the binaries need GLIBC_$glibc_max"
    echo "deb: every binary AArch64; newest glibc symbols GLIBC_$glibc_max, within Depends: $(field Depends)"
    (unset QEMU_LD_PREFIX; qemu-aarch64 "$work/root/usr/bin/minicudart" --version) >"$work/version.out" 2>&1 ||
        { cat "$work/version.out"; fail "minicudart --version failed under qemu-aarch64"; }
    grep -qx "minicudart $version" "$work/version.out" || fail "minicudart --version: $(head -n 1 "$work/version.out")"
    for so in libcudart.so.13 libcudart.so.12; do
        grep -qx "library: $work/root/$dropin/$so" "$work/version.out" ||
            fail "minicudart --version does not name $work/root/$dropin/$so: $(cat "$work/version.out")"
    done
    echo "deb: qemu-aarch64 usr/bin/minicudart --version: $(head -n 1 "$work/version.out"), the private folder's libraries"
    echo "deb: $arch: built and checked (not installed: this machine is $(dpkg --print-architecture))"
    exit 0
fi

# 2. Install, on this machine.
[ "$(id -u)" = 0 ] || skip "dpkg -i needs root; package built and checked, not installed"
dpkg -s minicudart >/dev/null 2>&1 && skip "a minicudart package is installed already (dpkg -P minicudart to run this test)"
while read -r f; do
    if [ -e "/$f" ] || [ -L "/$f" ]; then skip "/$f exists already: installing would overwrite it"; fi
done <"$work/have.txt"
# The folders the package brings that the machine lacks: the removal must take them away again.
grep '/$' "$work/entries.txt" | sed 's|/$||' | while read -r d; do
    [ -n "$d" ] && [ ! -e "/$d" ] && echo "/$d"
done >"$work/new_dirs.txt"

installed=0
cleanup() {
    if [ $installed = 1 ]; then
        dpkg -P minicudart >"$work/purge_on_exit.log" 2>&1 ||
            echo "deb: dpkg -P minicudart failed: $(cat "$work/purge_on_exit.log")"
    fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
installed=1
dpkg -i "$deb" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "dpkg -i failed"; }
dpkg -L minicudart >"$work/installed.txt" || fail "dpkg -L minicudart failed"
echo "deb: dpkg -i: $(grep -c . "$work/installed.txt") paths"

# The loader's search path does not reach the private folder: programs that did not ask for
# minicudart keep NVIDIA's runtime.
if ldconfig -p | grep -q "/minicudart/"; then fail "ldconfig's cache names the private folder"; fi
for so in libcudart.so.13 libcudart.so.12; do
    [ -e "/$lib/$so" ] && [ "$(realpath "/$lib/$so")" = "/$dropin/$so" ] && fail "/$lib/$so is minicudart's"
done

# minicudart --version and run, from /usr/bin.
/usr/bin/minicudart --version >"$work/version.out" || fail "minicudart --version failed"
grep -qx "minicudart $version" "$work/version.out" || fail "minicudart --version: $(head -n 1 "$work/version.out")"
for so in libcudart.so.13 libcudart.so.12; do
    grep -qx "library: /$dropin/$so" "$work/version.out" ||
        fail "minicudart --version does not name /$dropin/$so: $(cat "$work/version.out")"
    [ "$(readlink "/$dropin/minicudart-run/$so")" = "../$so" ] ||
        fail "/$dropin/minicudart-run/$so -> $(readlink "/$dropin/minicudart-run/$so"), want ../$so"
done
grep -q "^search folder: /$dropin/minicudart-run " "$work/version.out" ||
    fail "minicudart --version does not name /$dropin/minicudart-run: $(cat "$work/version.out")"
LD_LIBRARY_PATH=$nvidia_dir "$program" >"$work/nvidia.out" 2>&1
nv_rc=$?
LD_LIBRARY_PATH=$nvidia_dir /usr/bin/minicudart run -- "$program" >"$work/run.out" 2>"$work/run.err"
rc=$?
[ "$rc" = "$nv_rc" ] || fail "minicudart run: exit status $rc, $nv_rc under NVIDIA's runtime"
grep -qx 'runtime: minicudart' "$work/run.out" || fail "minicudart run: minicudart did not serve the program"
diff <(tail -n +2 "$work/nvidia.out") <(tail -n +2 "$work/run.out") || fail "minicudart run: outputs differ"
/usr/bin/fatbin list "$program" >"$work/fatbin.out" 2>&1 || { cat "$work/fatbin.out"; fail "fatbin list failed"; }
echo "deb: /usr/bin/minicudart run served the program as NVIDIA's runtime answers it (exit $rc)"
if [ -n "$program12" ]; then
    LD_LIBRARY_PATH=$nvidia12_dir "$program12" >"$work/nvidia12.out" 2>&1
    nv_rc=$?
    LD_LIBRARY_PATH=$nvidia12_dir /usr/bin/minicudart run -- "$program12" >"$work/run12.out" 2>"$work/run12.err"
    rc=$?
    [ "$rc" = "$nv_rc" ] || fail "minicudart run, CUDA 12 program: exit status $rc, $nv_rc under NVIDIA's 12.9 runtime"
    grep -qx 'runtime: minicudart' "$work/run12.out" || fail "minicudart run: minicudart did not serve the CUDA 12 program"
    diff <(tail -n +2 "$work/nvidia12.out") <(tail -n +2 "$work/run12.out") || fail "minicudart run: the CUDA 12 program's outputs differ"
    echo "deb: /usr/bin/minicudart run served a CUDA 12 program with /$dropin/libcudart.so.12"
fi

# A program's verdict: PASS (exit 0) on a GPU, exit 2 saying so without one.
verdict() {
    local what=$1 out rc
    shift
    out=$("$@" 2>&1)
    rc=$?
    if [ $rc = 0 ] && [[ $out == *PASS* ]]; then echo "deb: $what: PASS"
    elif [ $rc = 2 ] && [[ $out == *"no "*GPU* ]]; then echo "deb: $what: exit 2, no GPU here"
    else echo "$out"; fail "$what: exit $rc"; fi
}

# 3. examples/cmake-project against the installed package (found in /usr, no prefix given).
if ! cmake -S "$src/examples/cmake-project" -B "$work/example" -DCMAKE_CUDA_COMPILER="$nvcc" \
        -DCMAKE_CUDA_ARCHITECTURES=90 >"$work/example.log" 2>&1 ||
   ! cmake --build "$work/example" -j 2 >>"$work/example.log" 2>&1; then
    tail -n 30 "$work/example.log"
    fail "examples/cmake-project did not build"
fi
found=$(sed -n 's/^minicudart_DIR:PATH=//p' "$work/example/CMakeCache.txt")
[ "$found" = "/$lib/cmake/minicudart" ] || fail "find_package(minicudart) found $found, not /$lib/cmake/minicudart"
ldd "$work/example/saxpy_shared" | grep -q "libcudart.so.13 => /$dropin/libcudart.so.13" ||
    fail "saxpy_shared does not load /$dropin/libcudart.so.13: $(ldd "$work/example/saxpy_shared")"
verdict "examples/cmake-project saxpy" "$work/example/saxpy"
verdict "examples/cmake-project saxpy_shared" "$work/example/saxpy_shared"

# 4. A makefile on pkg-config: a C program and nvcc's vadd, linked with libminicudart.a.
for pc in minicudart minicudart12; do
    [ "$(pkg-config --variable=dropindir $pc)" = "/$dropin" ] ||
        fail "pkg-config --variable=dropindir $pc: $(pkg-config --variable=dropindir $pc)"
done
[[ " $(pkg-config --static --libs minicudart12) " == *" -lminicudart12 "* ]] ||
    fail "pkg-config --static --libs minicudart12: $(pkg-config --static --libs minicudart12)"
mkdir -p "$work/make"
cp "$src/examples/vadd/vadd.cu" "$work/make/"
cat >"$work/make/pc.c" <<'EOF'
#include <minicudart.h>
int main(void) { return minicudart_set_launch_params("no-such-mode") == -1 ? 0 : 1; }
EOF
cat >"$work/make/Makefile" <<'EOF'
NVCC ?= nvcc
CFLAGS += $(shell pkg-config --cflags minicudart)
LDLIBS += $(shell pkg-config --static --libs minicudart)
all: pc vadd
vadd: vadd.cu
	$(NVCC) -arch=sm_90 -cudart=none $< -o $@ $(CFLAGS) $(LDLIBS)
EOF
make -C "$work/make" NVCC="$nvcc" >"$work/make.log" 2>&1 || { cat "$work/make.log"; fail "the pkg-config makefile did not build"; }
"$work/make/pc" || fail "the pkg-config C program failed"
verdict "pkg-config makefile vadd" "$work/make/vadd"

# 5. Remove: nothing of it is left.
dpkg -P minicudart >"$work/purge.log" 2>&1 || { cat "$work/purge.log"; fail "dpkg -P minicudart failed"; }
installed=0
dpkg -s minicudart >/dev/null 2>&1 && fail "dpkg still knows minicudart after dpkg -P"
left=0
while read -r p; do
    [ -d "$p" ] && [ ! -L "$p" ] && continue          # shared folders: checked below
    if [ -e "$p" ] || [ -L "$p" ]; then echo "deb: left after removal: $p"; left=1; fi
done <"$work/installed.txt"
while read -r d; do
    if [ -e "$d" ]; then echo "deb: folder left after removal: $d"; left=1; fi
done <"$work/new_dirs.txt"
[ $left = 0 ] || fail "dpkg -P left files behind"
echo "deb: dpkg -P removed all $(grep -c . "$work/installed.txt") paths"
echo "deb: built, checked, installed, used and removed"
