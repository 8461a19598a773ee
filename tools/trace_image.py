#!/usr/bin/env python3
"""trace_image.py - draws a Chrome trace-event timeline (MINICUDART_TRACE=FILE.json) as an SVG.

usage: trace_image.py TRACE.json -o OUT.svg [--window START END] [--title T] [--width PX]
                      [--labels N]

What a reader of a page sees of the timeline without opening Perfetto: one lane per thread
(pid, tid), spans stacked by nesting inside it (as tools/trace_check.py nests them), the time axis
in ms from the window's start, the N longest spans labelled, a legend of span kinds with their
counts.  Launch spans are coloured by the kind of kernel (from its name: FlashAttention,
optimizer, elementwise, reduction, normalisation, loss, copy, other), everything else by span
name.  --window START END (the trace's own microseconds, CLOCK_MONOTONIC) keeps the spans that
start inside it.  A file whose process died before its end is read line by line.  Pure Python:
the SVG is written by hand.
"""
import argparse
import json
import re
import sys
from xml.sax.saxutils import escape

PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
EPS = 0.002


def read_events(path):
    try:
        with open(path) as f:
            doc = json.load(f)
        return doc["traceEvents"] if isinstance(doc, dict) else doc
    except (ValueError, KeyError, TypeError):
        pass
    events = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip().rstrip(",")
            if line.startswith("{") and not line.startswith('{"traceEvents"'):
                try:
                    events.append(json.loads(line))
                except ValueError:
                    pass
    return events


def short_kernel(name):
    """The innermost identifier of an Itanium-mangled name (_ZN2at6native6foo_kernelI...E -> foo_kernel)."""
    if not name.startswith("_Z"):
        return name.split("<")[0].split("(")[0].split("::")[-1] or name
    i = 3 if name.startswith("_ZN") else 2
    last = name
    while i < len(name):
        if name[i] == "L":          # internal linkage marker before a local name
            i += 1
            continue
        if name.startswith("St", i):
            i += 2
            continue
        m = re.match(r"\d+", name[i:])
        if not m:
            break
        n = int(m.group(0))
        i += len(m.group(0))
        last = name[i:i + n]
        i += n
    return last


def kernel_kind(name):
    n = name.lower()
    for kind, keys in (("FlashAttention", ("flash",)),
                       ("optimizer (fused AdamW)", ("adam", "multi_tensor", "fused_optim")),
                       ("normalisation", ("norm",)),
                       ("loss (softmax, cross entropy)", ("softmax", "nll", "cross_entropy")),
                       ("reduction", ("reduce",)),
                       ("copy, fill, index", ("copy", "fill", "index", "embedding", "cat")),
                       ("elementwise", ("elementwise", "unrolled", "vectorized"))):
        if any(k in n for k in keys):
            return "launch: " + kind
    return "launch: other"


def kind_of(e):
    if e["name"] == "launch":
        return kernel_kind(str(e.get("args", {}).get("kernel", "")))
    return e["name"]


def label_of(e):
    if e["name"] == "launch":
        return short_kernel(str(e.get("args", {}).get("kernel", "launch")))
    return e["name"]


def nice_step(span, target=8):
    """A tick interval of 1, 2 or 5 times a power of ten, about span / target."""
    raw = span / target
    p = 1.0
    while p * 10 <= raw:
        p *= 10
    while p > raw:
        p /= 10
    for m in (1, 2, 5, 10):
        if p * m >= raw:
            return p * m
    return p * 10


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--window", nargs=2, type=float)
    ap.add_argument("--title", default="")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--labels", type=int, default=16)
    opt = ap.parse_args()

    spans = [e for e in read_events(opt.trace)
             if isinstance(e, dict) and e.get("ph") == "X"
             and isinstance(e.get("ts"), (int, float)) and isinstance(e.get("dur"), (int, float))]
    if opt.window:
        lo, hi = opt.window
        spans = [e for e in spans if lo <= e["ts"] <= hi]
    if not spans:
        print("trace_image: no spans to draw" + (" in the window" if opt.window else ""))
        sys.exit(1)
    t0 = opt.window[0] if opt.window else min(e["ts"] for e in spans)
    t1 = max(opt.window[1] if opt.window else 0, max(e["ts"] + e["dur"] for e in spans))
    total = max(t1 - t0, 1e-3)

    # Lanes: one per thread, in the order the threads first appear; rows by nesting depth.
    lanes = {}
    for e in sorted(spans, key=lambda e: (e["ts"], -e["dur"])):
        lanes.setdefault((e.get("pid"), e.get("tid")), []).append(e)
    depth = {}
    for items in lanes.values():
        stack = []
        for e in items:
            while stack and e["ts"] >= stack[-1]["ts"] + stack[-1]["dur"] - EPS:
                stack.pop()
            depth[id(e)] = len(stack)
            stack.append(e)

    kinds = {}
    for e in spans:
        kinds.setdefault(kind_of(e), []).append(e)
    order = sorted(kinds, key=lambda k: -sum(x["dur"] for x in kinds[k]))
    color = {k: PALETTE[i % len(PALETTE)] for i, k in enumerate(order)}

    left, right, row_h, lane_gap = 170, 20, 16, 14
    plot_w = opt.width - left - right
    x_of = lambda ts: left + (ts - t0) / total * plot_w  # noqa: E731
    y = 48 if opt.title else 28
    parts = []
    lane_top = {}
    for key, items in lanes.items():
        rows = 1 + max(depth[id(e)] for e in items)
        lane_top[key] = y
        pid, tid = key
        busy = sum(e["dur"] for e in items if depth[id(e)] == 0)
        name = "main thread" if pid == tid else f"thread {tid}"
        parts.append(f'<text x="8" y="{y + 12}" class="lane">{escape(name)}</text>')
        parts.append(f'<text x="8" y="{y + 26}" class="small">{len(items)} spans, '
                     f'{busy / 1e3:.2f} ms busy</text>')
        parts.append(f'<line x1="{left}" x2="{opt.width - right}" y1="{y - 3}" y2="{y - 3}" '
                     f'stroke="#ddd"/>')
        for e in items:
            x = x_of(e["ts"])
            w = max(e["dur"] / total * plot_w, 0.6)
            ry = y + depth[id(e)] * row_h
            tip = f'{label_of(e)}: {e["dur"]:.1f} us'
            parts.append(f'<rect class="span" x="{x:.2f}" y="{ry}" width="{w:.2f}" '
                         f'height="{row_h - 2}" fill="{color[kind_of(e)]}">'
                         f'<title>{escape(tip)}</title></rect>')
        y += max(rows * row_h, 30) + lane_gap
    plot_bottom = y

    # Labels on the longest spans wide enough to carry one.
    for e in sorted(spans, key=lambda e: -e["dur"])[:opt.labels]:
        w = e["dur"] / total * plot_w
        if w < 30:
            continue
        ry = lane_top[(e.get("pid"), e.get("tid"))] + depth[id(e)] * row_h
        text = label_of(e)
        text = text[:max(int(w / 6.5), 3)]
        parts.append(f'<text x="{x_of(e["ts"]) + 2:.2f}" y="{ry + 11}" class="label">'
                     f'{escape(text)}</text>')

    # Time axis.
    step = nice_step(total / 1e3)
    axis = [f'<line x1="{left}" x2="{opt.width - right}" y1="{plot_bottom}" y2="{plot_bottom}" '
            f'stroke="#444"/>']
    t = 0.0
    while t <= total / 1e3 + 1e-9:
        x = x_of(t0 + t * 1e3)
        axis.append(f'<line x1="{x:.2f}" x2="{x:.2f}" y1="{plot_bottom}" y2="{plot_bottom + 5}" '
                    f'stroke="#444"/><text x="{x:.2f}" y="{plot_bottom + 17}" class="small" '
                    f'text-anchor="middle">{t:g}</text>')
        t += step
    axis.append(f'<text x="{opt.width - right}" y="{plot_bottom + 30}" class="small" '
                f'text-anchor="end">ms from the window\'s start ({total / 1e3:.2f} ms shown)</text>')

    # Legend.
    ly = plot_bottom + 46
    legend = []
    x = left
    for k in order:
        n, d = len(kinds[k]), sum(e["dur"] for e in kinds[k]) / 1e3
        text = f"{k} ({n}, {d:.2f} ms)"
        wtext = 14 + 6.2 * len(text) + 18
        if x + wtext > opt.width - right:
            x = left
            ly += 18
        legend.append(f'<rect x="{x}" y="{ly - 10}" width="11" height="11" fill="{color[k]}"/>'
                      f'<text x="{x + 15}" y="{ly}" class="small">{escape(text)}</text>')
        x += wtext
    height = ly + 16
    head = []
    if opt.title:
        head.append(f'<text x="8" y="22" class="title">{escape(opt.title)}</text>')
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{opt.width}" height="{height}" '
           f'viewBox="0 0 {opt.width} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
           '<style>.title{font-size:15px;font-weight:bold}.lane{font-size:12px;font-weight:bold}'
           '.small{font-size:10px;fill:#333}.label{font-size:10px;fill:#fff;pointer-events:none}'
           '</style>',
           f'<rect width="{opt.width}" height="{height}" fill="#fff"/>']
    svg += head + parts + axis + legend + ["</svg>"]
    with open(opt.output, "w") as f:
        f.write("\n".join(svg) + "\n")
    print(f"trace_image: {len(spans)} spans on {len(lanes)} thread(s), {len(kinds)} kinds, "
          f"{total / 1e3:.3f} ms -> {opt.output}")


if __name__ == "__main__":
    main()
