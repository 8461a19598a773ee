#!/usr/bin/env python3
"""Writes lib/core/driver_names.h: the names of the driver entry points of lib/core/driver_api.def
(and the driver_<area>.def files it includes, in the order the preprocessor reads them), front
coded: each name is stored as the number of leading characters it shares with the name before
it, as one byte, then the rest of it, NUL-terminated.  lib/core/driver.c rebuilds each name in a
buffer as it walks the table.  cuGraphAddKernelNode after cuGraphAddHostNode costs 1 + 10 bytes
instead of 21: over the whole table a third of the names' bytes.

    tools/gen_driver_names.py            write lib/core/driver_names.h
    tools/gen_driver_names.py --check    exit 1 (and say so) when the file is not what it
                                         would write: a test, so that a .def edited without
                                         running this fails before any driver is asked
    --root DIR                           the tree holding lib/core (default: this one's)

driver.c checks at compile time that the file has as many names as the .def files have rows;
a renamed entry is caught by --check, and against the fake driver by every end-to-end test.
"""
import argparse
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ROW = re.compile(r"\b(DRIVER_FN(?:_OPTIONAL|_PTDS|_PTSZ)?|DRIVER_FN_NEWER)\s*\(([^)]*)\)")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def names_of(path):
    """The entry points' names of a .def file, its includes read where they stand."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"),
                  open(path, encoding="utf-8").read(), flags=re.S)
    names = []
    for line in text.splitlines():
        inc = INCLUDE.match(line)
        if inc:
            names += names_of(os.path.join(os.path.dirname(path), inc.group(1)))
            continue
        for macro, args in ROW.findall(line):
            args = [a.strip() for a in args.split(",")]
            names.append(args[1] if macro == "DRIVER_FN_NEWER" else args[0])
    return names


def shared(a, b):
    n = 0
    while n < min(len(a), len(b), 255) and a[n] == b[n]:
        n += 1
    return n


def render(names):
    longest = max(len(n) for n in names)
    lines = []
    prev, stored = "", 0
    for name in names:
        keep = shared(prev, name)
        lines.append(f'    "\\{keep:03o}" "{name[keep:]}\\0"')
        stored += 1 + len(name) - keep + 1
        prev = name
    plain = sum(len(n) + 1 for n in names)
    return f"""/*
 * driver_names.h - the driver entry points' names, front coded.  Written by
 * tools/gen_driver_names.py from driver_api.def and the files it includes: do not edit; run it
 * again when a .def changes (a test checks that this file is what it would write).
 *
 * Each name: one byte, the number of characters it shares with the name before it, then the
 * rest of it and a NUL.  {len(names)} names, {stored} bytes ({plain} stored plainly).
 */
#define RT_DRIVER_NAME_COUNT {len(names)}
#define RT_DRIVER_NAME_SIZE {longest + 1}      /* the longest name and its NUL */

static const char rt_driver_names[] =
""" + "\n".join(lines) + "\n    ;\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--root", default=ROOT)
    args = ap.parse_args()
    core = os.path.join(args.root, "lib", "core")
    out = os.path.join(core, "driver_names.h")
    text = render(names_of(os.path.join(core, "driver_api.def")))
    if args.check:
        old = open(out, encoding="utf-8").read() if os.path.exists(out) else ""
        if old != text:
            print("lib/core/driver_names.h is not what tools/gen_driver_names.py writes: run it")
            return 1
        print("lib/core/driver_names.h is up to date")
        return 0
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
