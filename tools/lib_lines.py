#!/usr/bin/env python3
"""Lines and comment lines of the runtime's rooms: per file, per folder and in all.

    tools/lib_lines.py [--check] [--rev REV] [DIR]

DIR defaults to lib/.  A comment line is a line with comment text on it: inside a /* */ block,
or holding a /* */ or // comment after code.  --rev REV counts the tree of a git revision
instead of the work tree (before/after figures).  --check exits 1 when a file has more than
MAX_LINES lines (lib/README.md: rooms of 150 to 800 lines).
"""
import argparse
import os
import re
import subprocess
import sys

MAX_LINES = 800
SOURCE = re.compile(r".*\.(c|h)$")


def comment_lines(text):
    """How many lines carry comment text (string literals are skipped)."""
    count, in_block = 0, False
    for line in text.splitlines():
        has, i, in_string = in_block, 0, False
        while i < len(line):
            two = line[i:i + 2]
            if in_block:
                if two == "*/":
                    in_block = False
                    i += 2
                    continue
                i += 1
                continue
            c = line[i]
            if in_string:
                if c == "\\":
                    i += 2
                    continue
                if c == '"':
                    in_string = False
            elif c == '"':
                in_string = True
            elif two == "/*":
                in_block, has = True, True
                i += 2
                continue
            elif two == "//":
                has = True
                break
            i += 1
        if has and line.strip():
            count += 1
    return count


def files_of(root, rev):
    if rev:
        out = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, "--", root],
                             check=True, capture_output=True, text=True).stdout.split()
        for path in out:
            if SOURCE.match(path):
                yield path, subprocess.run(["git", "show", f"{rev}:{path}"], check=True,
                                           capture_output=True, text=True).stdout
        return
    for base, _, names in os.walk(root):
        for name in sorted(names):
            if SOURCE.match(name):
                path = os.path.join(base, name)
                with open(path) as f:
                    yield path, f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default="lib")
    ap.add_argument("--rev")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    rows = []
    for path, text in files_of(args.dir.rstrip("/"), args.rev):
        rel = os.path.relpath(path, args.dir)
        rows.append((rel, text.count("\n"), comment_lines(text)))
    if not rows:
        print(f"lib_lines: no sources under {args.dir}", file=sys.stderr)
        return 2
    folders = {}
    for rel, n, c in rows:
        f = rel.split("/")[0] if "/" in rel else "."
        t = folders.setdefault(f, [0, 0, 0])
        t[0] += 1
        t[1] += n
        t[2] += c
    total = sum(r[1] for r in rows)
    comments = sum(r[2] for r in rows)
    print(f"{len(rows)} files, {total} lines, {comments} comment lines ({100 * comments / total:.1f} %)")
    for f, (k, n, c) in sorted(folders.items()):
        print(f"  {f + '/':10} {k:3} files {n:6} lines  comments {100 * c / n:5.1f} %")
    over = [r for r in rows if r[1] > MAX_LINES]
    for rel, n, c in sorted(rows):
        mark = "  over the house's 800" if n > MAX_LINES else ""
        print(f"    {rel:30} {n:5} lines  comments {100 * c / max(n, 1):5.1f} %{mark}")
    if args.check and over:
        for rel, n, _ in over:
            print(f"lib_lines: {rel} has {n} lines (more than {MAX_LINES})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
