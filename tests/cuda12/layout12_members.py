#!/usr/bin/env python3
"""layout12_members.py ABI12_H LAYOUT12_C - every struct of lib/cuda12/abi12.h, and every member
of each (nested ones by their path, res.linear.desc, and the aggregates that hold them), has its
CHECK line in tests/cuda12/layout12.c, and layout12.c checks nothing abi12.h lacks.  layout12.c's
_Static_asserts hold each line to NVIDIA's 12.9 struct; this holds the list of lines to abi12.h,
so that a member or struct added to the header without a check fails here."""
import re
import sys


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def members(body, prefix, out):
    """Appends to out the paths of the members declared in body (the text between a struct's or
    union's braces); nested aggregates add their own path and their members'."""
    i = 0
    while i < len(body):
        m = re.compile(r"\s*(struct|union)\s*\{").match(body, i)
        if m:
            depth, j = 1, m.end()
            while depth:
                depth += {"{": 1, "}": -1}.get(body[j], 0)
                j += 1
            inner = body[m.end():j - 1]
            end = body.index(";", j)
            name = body[j:end].strip()
            out.append(prefix + name)
            members(inner, prefix + name + ".", out)
            i = end + 1
            continue
        end = body.find(";", i)
        if end < 0:
            if body[i:].strip():
                sys.exit(f"layout12_members: cannot read {body[i:]!r}")
            break
        decl = body[i:end].strip()
        name = re.search(r"([A-Za-z_]\w*)\s*(\[[^\]]*\]\s*)*$", decl)
        if not name:
            sys.exit(f"layout12_members: cannot read the declaration {decl!r}")
        out.append(prefix + name.group(1))
        i = end + 1


def header_structs(path):
    text = strip_comments(open(path).read())
    structs = {}
    for m in re.finditer(r"^struct\s+(\w+)\s*\{", text, flags=re.M):
        depth, j = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        paths = []
        members(text[m.end():j - 1], "", paths)
        structs[m.group(1)] = paths
    return structs


def checked(path):
    text = strip_comments(open(path).read())
    done, pairs = {}, {}
    for m in re.finditer(r"^\s*CHECK\(\s*(\w+)\s*,\s*(\w+)\s*,\s*([\w.]+)\s*\)", text, flags=re.M):
        done.setdefault(m.group(1), []).append(m.group(3))
        pairs.setdefault(m.group(1), set()).add(m.group(2))
    sizes = set(re.findall(r"^\s*CHECK_SIZE\(\s*(\w+)\s*,", text, flags=re.M))
    return done, pairs, sizes


def main():
    structs = header_structs(sys.argv[1])
    done, pairs, sizes = checked(sys.argv[2])
    errors = []
    if not structs:
        errors.append(f"no struct found in {sys.argv[1]}")
    for name, paths in structs.items():
        if name not in sizes:
            errors.append(f"struct {name}: no CHECK_SIZE")
        if len(pairs.get(name, ())) > 1:
            errors.append(f"struct {name}: compared with more than one 12.9 struct: {pairs[name]}")
        have = done.get(name, [])
        for p in paths:
            if p not in have:
                errors.append(f"struct {name}: member {p} has no CHECK")
        for p in have:
            if p not in paths:
                errors.append(f"struct {name}: CHECK of {p}, which abi12.h does not declare")
            elif have.count(p) > 1:
                errors.append(f"struct {name}: {p} checked twice")
    for name in set(done) | sizes:
        if name not in structs:
            errors.append(f"struct {name} is checked but abi12.h does not declare it")
    for e in sorted(set(errors)):
        print("layout12_members:", e)
    if errors:
        return 1
    total = sum(len(p) for p in structs.values())
    print(f"layout12_members: {len(structs)} structs, {total} members, each checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
