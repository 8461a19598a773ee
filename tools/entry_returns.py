#!/usr/bin/env python3
"""Every way out of a public function closes the call that RT_ENTER opened.

    tools/entry_returns.py [--check] [DIR]

RT_ENTER(), RT_ENTER_HOT() and RT_ENTER_AS() open a call (its name and the summary's clock,
lib/core/core.h);
RT_RETURN, RT_RETURN_UNINIT, RT_RETURN_QUERY, RT_RETURN_LAUNCH, RT_RETURN_VALUE, RT_RETURN_VOID
and the CUDA 12 face's RT12_RETURN_CALLED close it as they return.  A bare `return` after
RT_ENTER would leave the call open: the trace and the summary would then name every later call of
that thread by it, and the summary time them as part of it.  So this reads every .c file of DIR
(lib/ by default), finds each function body that holds RT_ENTER, and names every `return` in it
that is not one of those macros, and every body that can run off its closing brace (a function
whose last statement is not a return: void functions end with RT_RETURN_VOID()).  It also names
any #define in DIR whose text returns, other than the closing macros themselves and those listed
in ALLOWED_DEFINES, since a macro that returns would hide a bare return from the first check, and
any closing macro in a body without RT_ENTER, which would close its caller's call.

Comments and string literals are skipped.  --check exits 1 when anything is named.
"""
import argparse
import os
import re
import sys

CLOSING = ("RT_RETURN", "RT_RETURN_UNINIT", "RT_RETURN_QUERY", "RT_RETURN_LAUNCH",
           "RT_RETURN_VALUE", "RT_RETURN_VOID", "RT12_RETURN_CALLED")
# Macros whose text returns and that are not used after RT_ENTER: RT_FORWARD is a family
# member's whole body (it tail-calls the body, which enters and closes), CU_ERROR a case of
# errors.c's mapping switch.
ALLOWED_DEFINES = CLOSING + ("RT_FORWARD", "CU_ERROR")
ENTER = re.compile(r"\bRT_ENTER(_AS|_HOT)?\s*\(")


def blank_comments_and_strings(text):
    """text with comments, string and character literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        two = text[i:i + 2]
        c = text[i]
        if two == "/*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif two == "//":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def line_of(text, at):
    return text.count("\n", 0, at) + 1


def function_bodies(code):
    """(start, end) of each top-level brace block: at file scope these are function bodies,
    struct and enum bodies, and initialisers; only those holding RT_ENTER matter here."""
    depth, start = 0, None
    for m in re.finditer(r"[{}]", code):
        if m.group() == "{":
            if depth == 0:
                start = m.start()
            depth += 1
        else:
            depth -= 1
            if depth == 0 and start is not None:
                yield start, m.end()
                start = None


def check_file(path):
    """(the count of bodies with RT_ENTER, [(line, why), ...]) for one file."""
    text = open(path, encoding="utf-8").read()
    code = blank_comments_and_strings(text)
    faults = []
    if path.endswith(".c") or path.endswith(".h"):
        for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)((?:[^\n]*\\\n)*[^\n]*)", code,
                             re.M):
            if re.search(r"\breturn\b", m.group(2)) and m.group(1) not in ALLOWED_DEFINES:
                faults.append((line_of(code, m.start()),
                               f"#define {m.group(1)} returns: a bare return after RT_ENTER "
                               "could hide in it"))
    entered = 0
    if not path.endswith(".c"):
        return entered, faults
    for start, end in function_bodies(code):
        body = re.sub(r"\\\n", " \n", code[start:end])    # a macro's line continuations
        enter = ENTER.search(body)
        if not enter:
            # A closing macro in a body that opened no call would close its caller's.
            for c in re.finditer(r"\b(%s)\s*\(" % "|".join(CLOSING), body):
                faults.append((line_of(code, start + c.start()),
                               f"{c.group(1)} in a body without RT_ENTER: it closes a call "
                               "this function did not open"))
            continue
        entered += 1
        for r in re.finditer(r"\breturn\b", body):
            faults.append((line_of(code, start + r.start()),
                           "bare return after RT_ENTER: the call stays open (RT_RETURN, "
                           "RT_RETURN_VALUE or RT_RETURN_VOID)"))
        # The last statement before the closing brace must leave through a closing macro.
        tail = body[:-1].rstrip()
        cut = max(tail.rfind(c, 0, len(tail) - 1) for c in ";{}")
        last = tail[cut + 1:]
        if not tail.endswith(";") or not re.match(r"\s*(return\b|(%s)\s*\()" % "|".join(CLOSING),
                                                   last):
            faults.append((line_of(code, end - 1),
                           "the body can run off its end after RT_ENTER (end it with a closing "
                           "macro, e.g. RT_RETURN_VOID())"))
    return entered, faults


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("dir", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "lib"))
    args = ap.parse_args()
    bodies = 0
    faults = []
    for root, _, names in sorted(os.walk(args.dir)):
        for name in sorted(names):
            if name.endswith((".c", ".h")):
                path = os.path.join(root, name)
                entered, found = check_file(path)
                bodies += entered
                faults += [(path, line, why) for line, why in found]
    for path, line, why in faults:
        print(f"{os.path.relpath(path)}:{line}: {why}")
    print(f"{bodies} bodies with RT_ENTER, {len(faults)} open ways out")
    return 1 if args.check and faults else 0


if __name__ == "__main__":
    sys.exit(main())
