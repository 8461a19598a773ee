#!/usr/bin/env python3
"""The runtime's link-level graph: which object calls a function (or reads a datum) that another
object defines, read with nm from a build's objects of lib/.

    tools/link_graph.py [--check] [--dot FILE] [--lib DIR] OBJDIR

OBJDIR is the object folder of a build (build/rel/lib/CMakeFiles/minicudart_objects.dir).
It prints every cycle (strongly connected component of more than one file), every edge that
goes from a lower layer of lib/ up to a higher one, and the files per layer. With --check it
exits 1 when a cycle has more than MAX_CYCLE files, a cycle spans two folders, an edge goes up
(a call, or an #include of a higher layer's header) or across to another area of the same
layer: the rules of lib/README.md.
"""
import argparse
import os
import re
import subprocess
import sys

# The layers of lib/, bottom first (lib/README.md draws them). A file may call into its own
# folder and into any folder of a lower rank; folders of one rank (the API areas) call none of
# each other. A folder not listed is an error: the map has to name it.
LAYERS = [
    ("core", 0),
    ("device", 1),
    ("load", 2),
    ("launch", 3),
    ("memory", 3),
    ("stream", 3),
    ("graph", 4),
    ("interop", 4),
    ("cuda12", 5),   # the face of CUDA 12.9's ABI, only in the CUDA 12 build's objects
]
RANK = dict(LAYERS)
MAX_CYCLE = 3


LIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib")   # --lib sets it


def objects(objdir):
    """The objects of the sources lib/ has now (a build folder may keep those of moved files)."""
    for root, _, files in os.walk(objdir):
        for name in files:
            if name.endswith(".c.o"):
                path = os.path.join(root, name)
                source = os.path.relpath(path, objdir)[: -len(".o")]
                if os.path.isfile(os.path.join(LIB, source)):
                    yield source, path


def symbols(path):
    out = subprocess.run(["nm", "-P", path], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind in "TDBRCVWGSu":
            defined.add(name)
    return defined, undefined


def graph(objdir):
    files = dict(objects(objdir))
    defs, refs = {}, {}
    for name, path in files.items():
        d, u = symbols(path)
        refs[name] = u
        for s in d:
            defs[s] = name
    edges = {name: set() for name in files}
    for name, u in refs.items():
        for s in u:
            owner = defs.get(s)
            if owner and owner != name:
                edges[name].add(owner)
    return edges


def components(edges):
    """Tarjan's strongly connected components, iteratively (no recursion limit)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges[nxt]))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                out.append(sorted(comp))
    return out


def includes():
    """(file, header) for every #include "folder/header.h" of lib/: a header is a layer's too."""
    for f, _ in LAYERS:
        d = os.path.join(LIB, f)
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if not name.endswith((".c", ".h")):
                continue
            with open(os.path.join(d, name)) as src:
                for line in src:
                    m = re.match(r'#include "([a-z_0-9]+)/([a-z_0-9]+\.h)"', line)
                    if m:
                        yield f + "/" + name, m.group(1) + "/" + m.group(2)


def folder(name):
    return name.split("/")[0] if "/" in name else "."


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("objdir")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--dot")
    ap.add_argument("--lib", help="the source tree the objects were built from (default lib/)")
    args = ap.parse_args()
    if args.lib:
        global LIB
        LIB = args.lib
    edges = graph(args.objdir)
    if not edges:
        print(f"link_graph: no objects under {args.objdir}", file=sys.stderr)
        return 2
    failures = []
    layered = any("/" in n for n in edges)

    comps = [c for c in components(edges) if len(c) > 1]
    comps.sort(key=len, reverse=True)
    print(f"{len(edges)} objects, {sum(len(e) for e in edges.values())} edges, "
          f"{len(comps)} cycles, largest {len(comps[0]) if comps else 0} files")
    for c in comps:
        folders = sorted({folder(n) for n in c})
        print(f"  cycle of {len(c)}: {' '.join(n[:-2] for n in c)}")
        if len(c) > MAX_CYCLE:
            failures.append(f"a cycle of {len(c)} files (more than {MAX_CYCLE})")
        if len(folders) > 1:
            failures.append(f"a cycle across folders {', '.join(folders)}")

    if layered:
        for name in sorted(edges):
            f = folder(name)
            if f not in RANK:
                failures.append(f"{name}: folder {f}/ is not in the map of layers")
                continue
            for to in sorted(edges[name]):
                t = folder(to)
                if t in RANK and RANK[t] > RANK[f]:
                    print(f"  up: {name[:-2]} -> {to[:-2]}")
                    failures.append(f"{name} calls up into {to}")
                elif t in RANK and t != f and RANK[t] == RANK[f]:
                    print(f"  across: {name[:-2]} -> {to[:-2]}")
                    failures.append(f"{name} calls {to}, of another area of its layer")
        for name, header in includes():
            f, t = folder(name), folder(header)
            if t not in RANK:
                failures.append(f"{name} includes {header}, of a folder not in the map")
            elif RANK[t] > RANK[f]:
                print(f"  up: {name} includes {header}")
                failures.append(f"{name} includes {header}, a layer above it")
            elif t != f and RANK[t] == RANK[f]:
                print(f"  across: {name} includes {header}")
                failures.append(f"{name} includes {header}, of another area of its layer")
        for f, rank in LAYERS:
            members = sorted(n[:-2].split("/", 1)[1] for n in edges if folder(n) == f)
            print(f"  layer {rank} {f + '/':9} {len(members):2} files: {' '.join(members)}")

    if args.dot:
        with open(args.dot, "w") as out:
            out.write("digraph lib {\n")
            for a in sorted(edges):
                for b in sorted(edges[a]):
                    out.write(f'  "{a[:-2]}" -> "{b[:-2]}";\n')
            out.write("}\n")

    if args.check and failures:
        for f in sorted(set(failures)):
            print(f"link_graph: {f}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
