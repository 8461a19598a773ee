#!/usr/bin/env python3
"""make_seeds.py - (re)makes the committed seed corpus of the fuzz targets from real nvcc output.

    python3 tests/fatbin/seeds/make_seeds.py [--nvcc /usr/local/cuda/bin/nvcc]

Compiles tests/fatbin/kernels/*.cu with nvcc (CUDA 13.0) into fatbins, cubins, an object and an
executable, then writes each target's seeds in its input layout (see the target's file):

    container/   the files whole, and 24-byte wrappers in front of containers
    choose/      SM byte, flag byte, container
    cubin/       cubins whole; 3-byte header + a .nv.info.<kernel> section cut from a cubin
    decompress/  12-byte header + a compressed (or stored) entry payload cut from a fatbin
    ptx/         PTX text from nvcc 13.0 (and 13.5 with --nvcc135), and hand-made texts with
                 what nvcc writes rarely or never: aligned and array parameters, comments and
                 strings holding `.entry`, entries without a list, a cut text, NUL padding

Files named regression-* are minimised campaign findings; this script leaves them alone.  The
seeds depend on nvcc's exact output, so rerunning it with another toolkit changes them.
"""
import argparse
import os
import pathlib
import shutil
import struct
import subprocess
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
KERNELS = HERE.parent / "kernels"

CONTAINER_MAGIC = 0xBA55ED50
WRAPPER_MAGIC = 0x466243B1
KIND_PTX, KIND_ELF = 1, 2
FLAG_ZLIB, FLAG_LZ4_BLOCK, FLAG_LZ4_FRAME, FLAG_ZSTD = 0x1000, 0x2000, 0x4000, 0x8000
# fuzz_decompress.c's method byte: index into its `methods` table.
METHOD = {0: 0, FLAG_ZLIB: 1, FLAG_LZ4_BLOCK: 2, FLAG_LZ4_FRAME: 3, FLAG_ZSTD: 4}

MULTI = ["-gencode", "arch=compute_80,code=sm_80",
         "-gencode", "arch=compute_90,code=[sm_90,compute_90]",
         "-gencode", "arch=compute_90a,code=sm_90a",
         "-gencode", "arch=compute_100,code=sm_100"]
FAMILY = ["-gencode", "arch=compute_100f,code=[sm_100f,compute_100f]",
          "-gencode", "arch=compute_103a,code=sm_103a",
          "-gencode", "arch=compute_120,code=compute_120"]
ALL = ["-Xfatbin", "-compress-all"]


def entries(fatbin):
    """(header fields, payload) of each entry of the first container of a raw fatbin."""
    magic, _version, hsize, fat_size = struct.unpack_from("<IHHQ", fatbin, 0)
    assert magic == CONTAINER_MAGIC and hsize == 16
    pos, end = 16, 16 + fat_size
    while pos < end:
        (kind, _v, ehsize, payload_size, compressed, _ext, _minor, _major, arch, _io, _is,
         flags, _res, uncompressed) = struct.unpack_from("<HHIQIIHHIIIQQQ", fatbin, pos)
        payload = fatbin[pos + ehsize:pos + ehsize + payload_size]
        yield dict(kind=kind, arch=arch, flags=flags, compressed=compressed,
                   uncompressed=uncompressed), payload
        pos += ehsize + payload_size


def sections(elf):
    """{name: bytes} of the sections of an ELF64 little-endian file."""
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3a)
    headers = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    strtab = headers[shstrndx]
    names = elf[strtab[4]:strtab[4] + strtab[5]]
    out = {}
    for name, sh_type, _f, _a, offset, size, *_rest in headers:
        if sh_type != 8:                      # SHT_NOBITS has no bytes
            out[names[name:names.index(b"\0", name)].decode()] = elf[offset:offset + size]
    return out


def eiattr_header(info):
    """fuzz_cubin.c's 3-byte header for a .nv.info.<kernel> section: count and list size."""
    count, size, pos = 0, 0, 0
    while pos + 4 <= len(info):
        fmt, attr, value = struct.unpack_from("<BBH", info, pos)
        if fmt == 4 and attr in (0x17, 0x45):
            count += 1
        if fmt == 3 and attr == 0x19:
            size = value
        pos += 4 + (value if fmt == 4 else 0)
    return struct.pack("<BH", count, size)


def wrapper(version, container, prelinked):
    # Non-zero pointers: fuzz_container.c redirects them to the bytes after the wrapper.
    return struct.pack("<IIQQ", WRAPPER_MAGIC, version, 1, 1 if prelinked else 0) + container


# Texts nvcc writes rarely or never, each with at least one whole entry (a seed must be
# accepted): fuzz_ptx.c holds the table and the one-entry count to each other on them.
HAND_PTX = {
    "align_arrays.ptx": b"""//
// Parameters of every kind nvcc writes
.version 9.0
.target sm_90
.address_size 64
.visible .entry _Z6k_kindPKfP4pairA4_ii(
	.param .u64 .ptr .global .align 4 _Z6k_kindPKfP4pairA4_ii_param_0,
	.param .align 8 .b8 _Z6k_kindPKfP4pairA4_ii_param_1[16],
	.param .align 4 .b8 _Z6k_kindPKfP4pairA4_ii_param_2[16],
	.param .u32 _Z6k_kindPKfP4pairA4_ii_param_3
)
.maxntid 256, 1, 1
{
	ret;
}
.entry k_empty()
{
	ret;
}
""",
    "comments_strings.ptx": b"""// .entry in_a_line_comment(.param .u32 a)
/* .entry in_a_block_comment(
   .param .u32 a,
   .param .u32 b
) */
.global .align 1 .b8 $str[12] = {46, 101, 110, 116, 114, 121, 32, 120, 40, 41, 0};
.visible .entry k_after_comments(
	.param .u32 a, // .param in a comment does not count
	.param .u32 b /* nor ) here */
)
{
	// "a string .entry s(.param .u32 x)"
	ret;
}
.pragma "nounroll .entry p(.param .u32 q)";
.visible .entry k_second(.param .u64 p)
{
	ret;
}
""",
    "no_list_and_funcs.ptx": b""".visible .func (.param .b32 func_retval0) helper(
	.param .b32 helper_param_0
)
{
	ret;
}
.visible .entry k_nolist
.maxntid 32, 1, 1
{
	ret;
}
.visible .entry k_nolistIi
{
	ret;
}
.visible .entry k_nolistIiE(.param .u32 a, .param .u32 b, .param .u32 c)
{
	ret;
}
""",
}


def ptx_seeds(nvcc, nvcc135):
    """seeds/ptx/: real PTX of the kernels, a cut copy, a NUL-padded copy, the hand-made texts."""
    out = dict(HAND_PTX)
    multi = nvcc("multi.ptx", "multi.cu", "-ptx", "-arch=compute_90")
    out["multi_cuda130.ptx"] = multi
    out["check_app_cuda130.ptx"] = nvcc("check_app.ptx", "check_app.cu", "-ptx", "-arch=compute_90")
    out["rdc_a_cuda130.ptx"] = nvcc("rdc_a.ptx", "rdc_a.cu", "-ptx", "-rdc=true", "-arch=compute_90")
    if nvcc135:
        out["multi_cuda135.ptx"] = nvcc("multi135.ptx", "multi.cu", "-ptx", "-arch=compute_90",
                                        compiler=nvcc135)
    # Cut inside the parameter list of the last entry (the ones before it stay whole), and the
    # whole text followed by a fatbin's NUL padding and bytes that must never be read.
    last = multi.rfind(b".entry")
    out["cut_in_last_list.ptx"] = multi[:multi.index(b"(", last) + 20]
    out["nul_padded.ptx"] = multi + b"\0" * 7 + b".entry after_nul(.param .u32 a)"
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    parser.add_argument("--nvcc135", help="nvcc of CUDA 13.5, for PTX of ISA 9.5 (ptx/)")
    parser.add_argument("--targets", default="container,choose,cubin,decompress,ptx",
                        help="the seed directories to remake (comma separated)")
    args = parser.parse_args()
    wanted = set(args.targets.split(","))
    work = pathlib.Path(tempfile.mkdtemp(prefix="minicudart-seeds-"))

    def nvcc(out, source, *flags, compiler=None):
        subprocess.run([compiler or args.nvcc, *flags, "-o", str(work / out),
                        str(KERNELS / source)], check=True, cwd=work)
        return (work / out).read_bytes()

    multi = nvcc("multi.fatbin", "multi.cu", "-fatbin", *MULTI, *ALL)
    family = nvcc("family.fatbin", "multi.cu", "-fatbin", *FAMILY, *ALL)
    lz4 = nvcc("lz4.fatbin", "multi.cu", "-fatbin", "-arch=sm_90", "--compress-mode=speed", *ALL)
    zlib = nvcc("zlib.fatbin", "multi.cu", "-fatbin", "-arch=sm_90", *ALL,
                "-Xfatbin", "--compress-algorithm=1")
    lz4frame = nvcc("lz4frame.fatbin", "multi.cu", "-fatbin", "-arch=sm_90", *ALL,
                    "-Xfatbin", "--compress-algorithm=3")
    ptxonly = nvcc("ptxonly.fatbin", "multi.cu", "-fatbin",
                   "-gencode", "arch=compute_90,code=compute_90")
    stored = nvcc("stored.fatbin", "rdc_a.cu", "-fatbin", "-rdc=true", "-arch=sm_90",
                  "--no-compress")
    rdc_obj = nvcc("rdc_a.o", "rdc_a.cu", "-c", "-rdc=true", "-arch=sm_90")
    app = nvcc("app_shared", "check_app.cu", "-arch=sm_90", "-cudart=shared", *ALL)
    cubins = {
        "multi_sm90.cubin": nvcc("multi_sm90.cubin", "multi.cu", "-cubin", "-arch=sm_90"),
        "app_sm100.cubin": nvcc("app_sm100.cubin", "check_app.cu", "-cubin", "-arch=sm_100"),
        "rdc_sm90.cubin": nvcc("rdc_sm90.cubin", "rdc_a.cu", "-cubin", "-rdc=true", "-arch=sm_90"),
        "rdc_debug_sm90.cubin": nvcc("rdc_debug.cubin", "rdc_a.cu", "-cubin", "-rdc=true", "-G",
                                     "-arch=sm_90"),
    }

    seeds = {"container": {}, "choose": {}, "cubin": {}, "decompress": {}}
    pad8 = b"\0" * (-len(ptxonly) % 8)
    seeds["container"].update({
        "multi_zstd.fatbin": multi, "family_zstd.fatbin": family, "lz4_block.fatbin": lz4,
        "zlib.fatbin": zlib, "lz4_frame.fatbin": lz4frame, "ptx_only.fatbin": ptxonly,
        "stored_rdc.fatbin": stored, "two_containers.fatbin": ptxonly + pad8 + stored,
        "rdc_a.o": rdc_obj, "app_shared_runtime": app,
        "wrapper_v1.bin": wrapper(1, ptxonly, False), "wrapper_v2.bin": wrapper(2, stored, True),
    })
    seeds["choose"].update({
        "sm90_multi.bin": bytes([90, 0]) + multi,
        "sm103_family.bin": bytes([103, 0]) + family,
        "sm120_force_ptx.bin": bytes([120, 1]) + ptxonly,
    })
    seeds["cubin"].update(cubins)
    info = sections(cubins["multi_sm90.cubin"])
    for kernel in ("k_many", "k_v2", "k_shared"):
        section = info[".nv.info." + kernel]
        seeds["cubin"]["records_%s.bin" % kernel] = eiattr_header(section) + section

    # One payload per compression method, as stored in the entry (padded to 8), with the
    # header's sizes; the zstd one twice, the second into a buffer 64 bytes larger.
    for name, fatbin in (("zstd", multi), ("lz4_block", lz4), ("lz4_frame", lz4frame),
                         ("zlib", zlib), ("stored", stored)):
        for fields, payload in entries(fatbin):
            if fields["kind"] != KIND_ELF or fields["arch"] != 90:
                continue
            method = METHOD[fields["flags"] & 0xF000]
            head = struct.pack("<BBHII", method, 0, 0, fields["uncompressed"], fields["compressed"])
            seeds["decompress"][name + "_sm90.bin"] = head + payload
            if name == "zstd":
                head = struct.pack("<BBHII", method, 3, 64, fields["uncompressed"],
                                   fields["compressed"])
                seeds["decompress"][name + "_sm90_roomy.bin"] = head + payload
            break

    seeds["ptx"] = ptx_seeds(nvcc, args.nvcc135)

    for target, files in seeds.items():
        if target not in wanted:
            continue
        directory = HERE / target
        directory.mkdir(exist_ok=True)
        for old in directory.iterdir():
            if not old.name.startswith("regression-"):
                old.unlink()
        for name, data in sorted(files.items()):
            (directory / name).write_bytes(data)
        print("%-11s %2d seeds, %7d bytes" % (target, len(files), sum(map(len, files.values()))))
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
