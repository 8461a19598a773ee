#!/usr/bin/env python3
"""trace_check.py - reads a MINICUDART_TRACE=FILE.json timeline, checks it and prints its spans.

usage: trace_check.py FILE.json [--expect NAME,NAME...] [--nested CHILD:PARENT ...] [--tree N]

Checks, exiting 1 on the first failure:
  - the file is strict JSON in the trace-event format ({"traceEvents": [...]});
  - every complete event ("ph":"X") has a name, ts, dur >= 0, pid, tid and an args object;
  - on each thread the spans nest: a span that starts inside another ends inside it too;
  - --expect: each name occurs as a span at least once;
  - --nested CHILD:PARENT: every CHILD span lies inside a PARENT span of the same thread.
Prints the first N spans (--tree, default 40) as an indented tree with their durations.
"""
import argparse
import json
import sys

EPS = 0.002  # us: ts and dur are written with 3 decimals, so ends may differ by rounding


def fail(msg):
    print(f"trace_check: FAIL: {msg}")
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--expect", default="")
    ap.add_argument("--nested", action="append", default=[])
    ap.add_argument("--tree", type=int, default=40)
    opt = ap.parse_args()

    try:
        with open(opt.file) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{opt.file}: not valid JSON: {e}")
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no traceEvents array")
    events = doc["traceEvents"]

    spans = []
    for i, e in enumerate(events):
        if not isinstance(e, dict) or "ph" not in e or "name" not in e:
            fail(f"event {i} lacks ph or name: {e!r}")
        if e["ph"] != "X":
            continue
        for key in ("ts", "dur", "pid", "tid"):
            if not isinstance(e.get(key), (int, float)):
                fail(f"span {i} ({e['name']}) lacks a numeric {key}")
        if e["dur"] < 0:
            fail(f"span {i} ({e['name']}) has a negative duration")
        if not isinstance(e.get("args"), dict):
            fail(f"span {i} ({e['name']}) has no args object")
        spans.append(e)

    # Nesting per thread: sorted by start (longer first on ties), a stack of open spans.
    parent_of = {}
    depth_of = {}
    threads = {}
    for e in spans:
        threads.setdefault((e["pid"], e["tid"]), []).append(e)
    for key, items in threads.items():
        items.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for e in items:
            end = e["ts"] + e["dur"]
            while stack and e["ts"] >= stack[-1]["ts"] + stack[-1]["dur"] - EPS:
                stack.pop()
            if stack:
                top = stack[-1]
                if end > top["ts"] + top["dur"] + EPS:
                    fail(f"span {e['name']} at {e['ts']:.3f} starts inside {top['name']} "
                         f"at {top['ts']:.3f} but ends after it")
                parent_of[id(e)] = top
            depth_of[id(e)] = len(stack)
            stack.append(e)

    names = {e["name"] for e in spans}
    for want in filter(None, opt.expect.split(",")):
        if want not in names:
            fail(f"no span named {want!r} (spans: {', '.join(sorted(names))})")
    for rule in opt.nested:
        child, _, parent = rule.partition(":")
        for e in spans:
            if e["name"] != child:
                continue
            p = parent_of.get(id(e))
            while p is not None and p["name"] != parent:
                p = parent_of.get(id(p))
            if p is None:
                fail(f"a {child!r} span at {e['ts']:.3f} is not inside a {parent!r} span")

    ordered = sorted(spans, key=lambda e: (e["ts"], -e["dur"]))
    t0 = ordered[0]["ts"] if ordered else 0
    print(f"trace_check: {opt.file}: {len(events)} events, {len(spans)} spans on "
          f"{len(threads)} thread(s), nesting ok")
    for e in ordered[:opt.tree]:
        label = "  " * depth_of[id(e)] + e["name"]
        print(f"  {e['ts'] - t0:12.1f} us  {e['dur']:10.1f} us  {label}")
    if len(ordered) > opt.tree:
        print(f"  ... {len(ordered) - opt.tree} more spans")


if __name__ == "__main__":
    main()
