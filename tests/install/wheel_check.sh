#!/usr/bin/env bash
# wheel_check.sh VERSION ARCH WHEEL WORK_DIR - what pip_test.sh --wheel (x86_64) and
# wheel_aarch64_test.sh check of a wheel of tools/build-wheel.sh, whichever its machine:
#   - VERSION is a public version, as PyPI takes it (PEP 440, no local "+" label);
#   - the name is minicudart-VERSION-py3-none-manylinux_2_28_ARCH.whl, and so is the WHEEL file's
#     tag;
#   - `auditwheel show` finds it consistent with manylinux_2_N_ARCH, N <= 28, and nothing to graft;
#   - exactly the files of wheel_files.txt (a wheel has no links);
#   - every ELF file (the commands, the libraries, each member of the archives) is for ARCH, the
#     programs and libraries need glibc alone (libc, libpthread, libdl, the loader: for TLS),
#     and glibc 2.28's symbols at most (readelf).
# Prints one line per check; exits 1 at the first that fails.  The tools (auditwheel, packaging)
# are those of tools/install-deps.sh's packaging environment.
set -u
version=$1 arch=$2 wheel=$3 work=$4
fail() { echo "wheel: $*"; exit 1; }
venv=${MINICUDART_PACKAGING_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/minicudart/packaging}
tag=manylinux_2_28_$arch
case $arch in x86_64) machine="Advanced Micro Devices X86-64" ;; aarch64) machine=AArch64 ;;
    *) fail "unknown ARCH $arch" ;; esac
mkdir -p "$work"

"$venv/bin/python" - "$version" <<'PY' || fail "version $version: not a public PEP 440 version"
import sys
from packaging.version import Version
v = Version(sys.argv[1])
sys.exit(0 if v.local is None and str(v) == sys.argv[1] else 1)
PY
name=$(basename "$wheel")
[ "$name" = "minicudart-$version-py3-none-$tag.whl" ] ||
    fail "wheel $name: not minicudart-$version-py3-none-$tag.whl"
unzip -p "$wheel" "minicudart-$version.dist-info/WHEEL" | grep -qx "Tag: py3-none-$tag" ||
    fail "the WHEEL file's tag is not py3-none-$tag"

"$venv/bin/python" -m auditwheel show "$wheel" >"$work/show.log" 2>&1 ||
    { cat "$work/show.log"; fail "auditwheel show failed"; }
verdict=$(tr -s ' \n' ' ' <"$work/show.log")
[[ $verdict =~ consistent\ with\ the\ following\ platform\ tag:\ \"manylinux_2_([0-9]+)_$arch\" ]] ||
    { cat "$work/show.log"; fail "auditwheel show names no manylinux_2_N_$arch tag"; }
shown=${BASH_REMATCH[0]#*: }
[ "${BASH_REMATCH[1]}" -le 28 ] || { cat "$work/show.log"; fail "auditwheel show: $shown, newer than $tag"; }
[[ $verdict == *"external shared libraries"* ]] && { cat "$work/show.log"; fail "auditwheel show: libraries to graft"; }
echo "wheel: $name: auditwheel show: consistent with $shown"

sed -e "s|^DATA/|minicudart-$version.data/data/|" -e "s|^DISTINFO/|minicudart-$version.dist-info/|" \
    "$(dirname "$0")/wheel_files.txt" | sort >"$work/want.txt"
python3 -c 'import sys, zipfile; print("\n".join(n for n in zipfile.ZipFile(sys.argv[1]).namelist() if not n.endswith("/")))' \
    "$wheel" | sort >"$work/have.txt"
diff "$work/want.txt" "$work/have.txt" >"$work/contents.diff" ||
    { cat "$work/contents.diff"; fail "the wheel's files are not the expected ones (< missing, > extra)"; }

rm -rf "$work/unpacked"
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$wheel" "$work/unpacked"
data=$work/unpacked/minicudart-$version.data/data
glibc_max=0.0
for f in "$data"/bin/* "$data"/lib/libcudart.so.* "$data"/lib/*.a; do
    # readelf -h prints one header per archive member.
    machines=$(readelf -h "$f" 2>/dev/null | sed -n 's/^ *Machine: *//p' | sort -u)
    [ "$machines" = "$machine" ] || fail "${f#"$data"/}: machine ${machines:-none}, want $machine"
    case $f in *.a) continue ;; esac
    needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -vx -e libc.so.6 -e libpthread.so.0 -e libdl.so.2 -e ld-linux-x86-64.so.2 -e ld-linux-aarch64.so.1)
    [ -z "$needed" ] || fail "${f#"$data"/} needs $needed"
    max=$(readelf -V "$f" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)
    glibc_max=$(printf '%s\n' "$glibc_max" "$max" | sort -V | tail -n 1)
done
[ "$(printf '%s\n' "$glibc_max" 2.28 | sort -V | tail -n 1)" = 2.28 ] ||
    fail "the binaries need glibc $glibc_max, more than 2.28"
echo "wheel: $(grep -c . "$work/have.txt") files, all $arch ELF for $machine; glibc's libraries alone, GLIBC_$glibc_max at most"
