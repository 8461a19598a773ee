#!/usr/bin/env python3
"""doc_names_check.py - every file and C function a page names in backticks exists.

usage: doc_names_check.py [--root DIR] [--cuda-include DIR] PAGE.md...

In the inline code spans of each page (`...`, possibly across a line break; fenced blocks are
commands and output, and are left alone), each word is checked:
  - a path whose first component is a top-level entry of the repository (lib/x.c, tools/y.py,
    tests/gpu/, lib/driver_*.def, tests/api/<area>/: `*` and `<...>` match anything) must exist;
    other paths (build trees, other projects' files, absolute paths) are not this repository's;
  - a C name that looks like the runtime's or the driver's (cuda*, cu* followed by a capital,
    __cuda*, rt_*) must occur as an identifier in the repository's C sources and headers, or for
    the others in the CUDA toolkit's headers and crt/ (nvcc's macros; --cuda-include, default
    /usr/local/cuda/include).
Relative links ([text](path)) must point at a file too; on a page that still has {{placeholders}}
(docs/pytorch.md before bench/pytorch/anatomy_report.py fills it) a missing picture under img/ is
reported as waiting for the fill, not as an error.
Prints what it checked; exits 1 if anything named is missing.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

FUNC = re.compile(r"^(cuda[A-Z]\w*|cu[A-Z]\w*|__cuda\w+|rt_\w+)$")
SOURCE_EXT = (".c", ".h", ".def", ".cu", ".cuh", ".inc")


def tracked(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True,
                             check=True).stdout.split("\n")
        return [f for f in out if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, _, names in os.walk(root):
            if "/." in d or "/build" in d:
                continue
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
        return files


def identifiers(paths):
    ids = set()
    for p in paths:
        try:
            with open(p, errors="replace") as f:
                ids.update(re.findall(r"[A-Za-z_]\w*", f.read()))
        except OSError:
            pass
    return ids


def code_spans(text):
    text = re.sub(r"^[ \t]*```.*?^[ \t]*```", "", text, flags=re.S | re.M)
    return [s.replace("\n", " ") for s in re.findall(r"`([^`]+)`", text)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pages", nargs="+")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--cuda-include", default="/usr/local/cuda/include")
    opt = ap.parse_args()
    root = os.path.abspath(opt.root)
    files = tracked(root)
    top = {f.split("/")[0] for f in files if "/" in f}
    ours = identifiers(os.path.join(root, f) for f in files if f.endswith(SOURCE_EXT))
    cuda = identifiers(glob.glob(os.path.join(opt.cuda_include, "*.h")) +
                       glob.glob(os.path.join(opt.cuda_include, "crt", "*.h*")))
    if not cuda:
        print(f"doc_names_check: no headers in {opt.cuda_include}: cuda*/cu* names are looked "
              "for in the repository only")

    bad = 0
    for page in opt.pages:
        text = open(page).read()
        unfilled = "{{" in text
        paths, funcs, missing, waiting = set(), set(), [], []
        for span in code_spans(text):
            for word in re.split(r"[\s,;()\[\]=|]+", span):
                word = word.strip(":.'\"→")
                if not word or "://" in word:
                    continue
                if "/" in word and not word.startswith(("/", "~")) and word.split("/")[0] in top:
                    paths.add(word)
                elif FUNC.match(word):
                    funcs.add(word)
        for p in sorted(paths):
            pattern = re.sub(r"<[^>]*>", "*", p).rstrip("/")
            if not glob.glob(os.path.join(root, pattern)):
                missing.append(f"file {p}")
        for fn in sorted(funcs):
            if fn not in ours and not (not fn.startswith("rt_") and fn in cuda):
                missing.append(f"function {fn}")
        base = os.path.dirname(os.path.abspath(page))
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if "://" in target or target.startswith("#"):
                continue
            target = target.split("#")[0]
            if not os.path.exists(os.path.join(base, target)):
                if unfilled and target.startswith("img/"):
                    waiting.append(target)
                else:
                    missing.append(f"link {target}")
        for w in waiting:
            print(f"doc_names_check: {page}: {w} comes with the fill (the page has placeholders)")
        for m in missing:
            print(f"doc_names_check: {page}: names a missing {m}")
        print(f"doc_names_check: {page}: {len(paths)} paths, {len(funcs)} functions: "
              + (f"{len(missing)} missing" if missing else "all found"))
        bad += len(missing)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
