#!/usr/bin/env python3
"""Where the bytes of libcudart.so.13 go: by section, and by room of lib/.

    tools/size_table.py BUILD

BUILD is a CMake build folder of this project (tools/measure_sizes.sh makes one, MinSizeRel, in
build/sizes) in which libcudart.so.13 has been built.  The library is linked once more there,
with the link command CMake wrote and a linker map (-Wl,-Map) added, into a temporary file; each
input section the link keeps (after --gc-sections) is charged to the object it came from, so
every byte of .text, .rodata, .data and .bss is found in its room, the string constants too.
Prints Markdown tables: the library's sections, then its bytes by folder and by room.

A library built with link-time optimisation (MINICUDART_LTO) has no rooms left to charge: the
link's inputs are the optimiser's partitions.  Its sections are the ones printed; the rooms come
from the same link made with the plain objects (those of libminicudart.a), whose total the output
states beside the real one.  Those objects also carry each public function's name as __func__
(the shared library's own objects take the names from .dynstr: lib/core/core.h, RT_SELF), about
12 KB of .rodata that the real library does not have.
"""
import collections
import os
import re
import subprocess
import sys


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def sections(library):
    """(name, size) of every allocated section, from readelf."""
    out = []
    for line in run("readelf", "-SW", library).splitlines():
        parts = line.replace("[ ", "[").split()
        if len(parts) < 8 or not parts[0].startswith("[") or parts[0] == "[Nr]":
            continue
        name, size, flags = parts[1], int(parts[5], 16), parts[7] if len(parts) > 7 else ""
        if "A" in flags and size:
            out.append((name, size))
    return out


def link_command(build):
    """CMake's link command of libcudart.so.13, and whether it links with LTO."""
    libdir = os.path.join(build, "lib")
    with open(os.path.join(libdir, "CMakeFiles", "minicudart_shared.dir", "link.txt")) as f:
        command = f.read().split()
    return command, any(a.startswith("-flto") for a in command)


def link_map(build, plain=False):
    """Relinks libcudart.so.13 with a map; returns (library path, map text).  plain: with the
    objects of the build without LTO instead of the LTO ones."""
    libdir = os.path.join(build, "lib")
    command, _ = link_command(build)
    if plain:
        command = [a.replace("minicudart_objects_shared.dir", "minicudart_objects.dir")
                    .replace("fatbin_parse_dl_lto.dir", "fatbin_parse_dl.dir")
                   for a in command if not a.startswith("-flto") and a != "-fno-fat-lto-objects"]
    # In the build tree, not a temporary folder: the caller reads the library after, and a
    # second run replaces it instead of leaving another folder behind.
    tmp = os.path.abspath(os.path.join(build, "size_table_plain" if plain else "size_table"))
    os.makedirs(tmp, exist_ok=True)
    out = os.path.join(tmp, "libcudart.so.13")
    mapfile = os.path.join(tmp, "map.txt")
    i = command.index("-o")
    command[i + 1] = out
    command.append("-Wl,-Map=" + mapfile)
    subprocess.run(command, check=True, cwd=libdir)
    with open(mapfile) as f:
        return out, f.read()


def input_sections(map_text):
    """(input section name, size, object) of every section the link kept."""
    text = map_text.split("Linker script and memory map", 1)[-1]
    pending = None
    for line in text.splitlines():
        one = re.match(r"^ (\.\S+)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S+)$", line)
        if one:
            yield one.group(1), int(one.group(2), 16), one.group(3)
            pending = None
            continue
        name = re.match(r"^ (\.\S+)$", line)
        if name:
            pending = name.group(1)
            continue
        rest = re.match(r"^\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S+)$", line)
        if pending and rest:
            yield pending, int(rest.group(1), 16), rest.group(2)
        pending = None


def room_of(obj):
    """lib/<folder>/<file>.c for a runtime object, fatbin/ for the parser's, else the file."""
    m = re.search(r"minicudart_objects(?:_shared)?\.dir/(.+)\.o$", obj)
    if m:
        return m.group(1)
    if "fatbin" in obj:
        return "fatbin/ (parser)"
    return "(libc, crt: " + os.path.basename(obj) + ")"


def kind_of(section):
    for prefix, kind in ((".text", "text"), (".rodata", "rodata"), (".data.rel.ro", "rodata"),
                         (".data", "data"), (".bss", "bss"), (".tbss", "tls"), (".tdata", "tls")):
        if section.startswith(prefix):
            return kind
    return "other"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    _, lto = link_command(sys.argv[1])
    library, map_text = link_map(sys.argv[1])
    secs = sections(library)
    if lto:
        plain_library, map_text = link_map(sys.argv[1], plain=True)
        plain_total = sum(size for _, size in sections(plain_library))
    per_room = collections.defaultdict(collections.Counter)
    for section, size, obj in input_sections(map_text):
        if size:
            per_room[room_of(obj)][kind_of(section)] += size
    total = sum(size for _, size in secs)
    print(f"libcudart.so.13: {os.path.getsize(library):,} bytes as linked, "
          f"{total:,} in allocated sections" + (", link-time optimised" if lto else ""))
    if lto:
        print(f"(the folders and rooms below: the same link with libminicudart.a's objects, "
              f"without LTO and with each name as __func__, {plain_total:,} bytes in allocated "
              f"sections)")
    print()
    print("| section | bytes | share |")
    print("| --- | --- | --- |")
    for name, size in sorted(secs, key=lambda s: -s[1]):
        if size >= 256:
            print(f"| `{name}` | {size:,} | {100 * size / total:.1f} % |")
    print()
    cols = ("text", "rodata", "data", "bss", "tls")
    folders = collections.defaultdict(collections.Counter)
    for room, c in per_room.items():
        folders[room.split("/")[0] if "/" in room else room].update(c)
    def row(name, c):
        return "| " + name + " | " + " | ".join(f"{c[k]:,}" for k in cols) + \
            f" | {sum(c[k] for k in cols):,} |"
    print("| folder | " + " | ".join(cols) + " | all |")
    print("| --- " * (len(cols) + 2) + "|")
    def weight(kv):
        return -sum(kv[1][k] for k in cols)
    for f, c in sorted(folders.items(), key=weight):
        if -weight((f, c)):
            print(row(f, c))
    print()
    print("| room (the 15 largest) | " + " | ".join(cols) + " | all |")
    print("| --- " * (len(cols) + 2) + "|")
    for room, c in sorted(per_room.items(), key=weight)[:15]:
        print(row(room, c))
    return 0


if __name__ == "__main__":
    sys.exit(main())
