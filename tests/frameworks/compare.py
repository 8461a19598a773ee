#!/usr/bin/env python3
"""tests/frameworks/compare.py - compare a framework's results under NVIDIA's runtime and minicudart.

Standard library only. Used by tests/frameworks/run.sh; each part runs on its own too.

  compare.py junit NVIDIA MINICUDART [--name NAME]
      NVIDIA and MINICUDART are pytest junit XML files or folders of them (all *.xml under a
      folder are merged: several pytest runs of one test file). Prints the pass/fail/skip/error
      counts under each runtime, every test whose outcome differs, and every test that fails
      under both. Exit 0 when no outcome differs, 1 otherwise.

  compare.py results NVIDIA.out MINICUDART.out [--name NAME] [--done MARKER]
      Compares the lines "RESULT <name> <key>=<value> ..." of two outputs: the same names,
      the same keys; a value equal as text, or, where the line has a field rtol=<x> (under either
      runtime), numbers within that relative tolerance. With --done, both outputs must also
      contain a line MARKER. Exit 0 when equal, 1 otherwise.

  compare.py differing NVIDIA MINICUDART FILE
      The pytest node ids (FILE::Class::test) of the tests of FILE whose outcome differs between
      the two junit files or folders, one per line: what run.sh runs again, each on its own.

  compare.py report --junit-root DIR [--files F1,F2,...] [--workloads NV.out MC.out]
                    [--jax NV.out MC.out] [--trace-lines N] [--rc NAME=NV:MC ...]
                    [--alone-root DIR2]
      Everything above for a run of run.sh, then the summary table, last. DIR holds
      DIR/nvidia/<file stem>/ and DIR/minicudart/<file stem>/, each with junit XML files.
      --rc gives the exit codes of the workload runs (NAME is workloads or jax): they must agree.
      --alone-root: the same layout for the differing tests run again each in a process of its
      own; a test that differs in the full run but agrees alone is reported as such ("settled"),
      and only the tests that still differ alone fail the run.
      Exit 0 when nothing differs (or everything that differed agrees alone) and the trace shows
      minicudart served the run, 1 otherwise.
"""
import argparse
import glob
import math
import os
import sys
import xml.etree.ElementTree as ET

OUTCOMES = ("passed", "failed", "skipped", "error")
# When one test has several <testcase> entries (pytest writes a second one for an error in
# teardown), the worst counts.
SEVERITY = {"skipped": 0, "passed": 1, "failed": 2, "error": 3}


def junit_files(path):
    if path is None:
        return []
    if os.path.isdir(path):
        return sorted(glob.glob(os.path.join(path, "**", "*.xml"), recursive=True))
    return [path] if os.path.exists(path) else []


def load_junit(path):
    """-> ({test id: outcome}, [unreadable files]) for a junit file or a folder of them."""
    results, bad = {}, []
    for f in junit_files(path):
        try:
            root = ET.parse(f).getroot()
        except (ET.ParseError, OSError) as e:
            bad.append(f"{f}: {e}")
            continue
        for tc in root.iter("testcase"):
            cls = tc.get("classname", "") or ""
            name = tc.get("name", "") or ""
            tid = f"{cls}::{name}" if cls else name
            if tc.find("error") is not None:
                outcome = "error"
            elif tc.find("failure") is not None:
                outcome = "failed"
            elif tc.find("skipped") is not None:
                outcome = "skipped"
            else:
                outcome = "passed"
            old = results.get(tid)
            if old is None or SEVERITY[outcome] > SEVERITY[old]:
                results[tid] = outcome
    return results, bad


def counts(results):
    c = dict.fromkeys(OUTCOMES, 0)
    for o in results.values():
        c[o] += 1
    return c


def fmt_counts(c, present=True):
    if not present:
        return "no result"
    s = f"{c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped"
    return s + (f", {c['error']} error" if c["error"] else "")


def node_id(tid, file):
    """junit "module.Class::name" -> pytest "file::Class::name" (or "file::name")."""
    cls, _, name = tid.rpartition("::")
    klass = cls.split(".", 1)[1] if "." in cls else ""
    return f"{file}::{klass}::{name}" if klass else f"{file}::{name}"


def differing(nv_path, mc_path):
    nv, _ = load_junit(nv_path)
    mc, _ = load_junit(mc_path)
    return [t for t in sorted(set(nv) | set(mc)) if nv.get(t, "absent") != mc.get(t, "absent")]


def compare_junit(nv_path, mc_path, name, out=sys.stdout, alone=None):
    """Prints the comparison of one test file; returns a row for the summary table.
    alone: (NVIDIA, minicudart) junit paths of the differing tests run on their own, or None."""
    nv, nv_bad = load_junit(nv_path)
    mc, mc_bad = load_junit(mc_path)
    anv, amc = (load_junit(alone[0])[0], load_junit(alone[1])[0]) if alone else ({}, {})
    nv_present, mc_present = bool(junit_files(nv_path)), bool(junit_files(mc_path))
    cn, cm = counts(nv), counts(mc)
    print(f"== {name}", file=out)
    print(f"   NVIDIA:     {fmt_counts(cn, nv_present)}", file=out)
    print(f"   minicudart: {fmt_counts(cm, mc_present)}", file=out)
    for b in nv_bad + mc_bad:
        print(f"   unreadable junit file {b}", file=out)
    differ = []
    for tid in sorted(set(nv) | set(mc)):
        a, b = nv.get(tid, "absent"), mc.get(tid, "absent")
        if a != b:
            differ.append((tid, a, b))
    still = 0
    for tid, a, b in differ:
        note = ""
        if alone:
            x, y = anv.get(tid, "not run"), amc.get(tid, "not run")
            settled = x == y and x != "not run"
            still += not settled
            note = (f"; alone: NVIDIA {x}, minicudart {y}"
                    f"{' (settled: the same alone)' if settled else ''}")
        print(f"   DIFFERS {tid}: NVIDIA {a}, minicudart {b}{note}", file=out)
    both = [t for t in sorted(set(nv) & set(mc))
            if nv[t] in ("failed", "error") and mc[t] in ("failed", "error")]
    for tid in both:
        print(f"   fails under both: {tid} (NVIDIA {nv[tid]}, minicudart {mc[tid]})", file=out)
    unsettled = still if alone else len(differ)
    ok = not unsettled and nv_present and mc_present and not nv_bad and not mc_bad
    return {"name": name, "nv": cn, "mc": cm, "nv_present": nv_present,
            "mc_present": mc_present, "differ": len(differ), "alone": unsettled,
            "both_fail": len(both), "ok": ok}


def parse_results(path, done=None):
    """-> ({name: {key: value}}, done marker seen, problems) from an output file."""
    res, problems, seen = {}, [], False
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        return {}, False, [f"cannot read {path}: {e}"]
    for line in lines:
        line = line.strip()
        if done is not None and line == done:
            seen = True
        if not line.startswith("RESULT "):
            continue
        fields = line.split()
        if len(fields) < 2:
            problems.append(f"malformed line: {line}")
            continue
        name, kv = fields[1], {}
        for f in fields[2:]:
            k, sep, v = f.partition("=")
            if not sep:
                problems.append(f"malformed field {f!r} in: {line}")
                continue
            kv[k] = v
        if name in res:
            problems.append(f"RESULT {name} appears twice")
        res[name] = kv
    return res, seen, problems


def _num(v):
    try:
        return int(v), True
    except ValueError:
        pass
    try:
        return float(v), False
    except ValueError:
        return None, False


def values_equal(a, b, rtol):
    if a == b:
        return True
    if rtol is None:
        return False
    x, xi = _num(a)
    y, yi = _num(b)
    if x is None or y is None or (xi and yi):
        return False  # integers and text: exact
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return abs(x - y) <= rtol * max(abs(x), abs(y)) or abs(x - y) == 0.0


def compare_results(nv_path, mc_path, name, done=None, out=sys.stdout):
    """Prints the differences; returns True when the RESULT lines agree."""
    nv, nv_done, nv_prob = parse_results(nv_path, done)
    mc, mc_done, mc_prob = parse_results(mc_path, done)
    diffs = []
    for p in nv_prob:
        diffs.append(f"NVIDIA output: {p}")
    for p in mc_prob:
        diffs.append(f"minicudart output: {p}")
    if done is not None:
        if not nv_done:
            diffs.append(f"NVIDIA output lacks {done!r}")
        if not mc_done:
            diffs.append(f"minicudart output lacks {done!r}")
    if not nv and not mc:
        diffs.append("no RESULT lines under either runtime")
    for r in sorted(set(nv) | set(mc)):
        if r not in mc:
            diffs.append(f"RESULT {r}: only under NVIDIA")
            continue
        if r not in nv:
            diffs.append(f"RESULT {r}: only under minicudart")
            continue
        a, b = nv[r], mc[r]
        rtol = None
        for d in (a, b):
            if "rtol" in d:
                v, _ = _num(d["rtol"])
                if v is not None:
                    rtol = v if rtol is None else max(rtol, v)
        for k in sorted(set(a) | set(b)):
            if k == "rtol":
                continue
            if k not in a or k not in b:
                diffs.append(f"RESULT {r} {k}: NVIDIA {a.get(k, '(none)')}, "
                             f"minicudart {b.get(k, '(none)')}")
            elif not values_equal(a[k], b[k], rtol):
                tol = f" (rtol {rtol:g})" if rtol is not None else ""
                diffs.append(f"RESULT {r} {k}: NVIDIA {a[k]}, minicudart {b[k]}{tol}")
    print(f"== {name}: {len(nv)} RESULT lines under NVIDIA, {len(mc)} under minicudart, "
          f"{'equal' if not diffs else f'{len(diffs)} differences'}", file=out)
    for d in diffs:
        print(f"   DIFFERS {d}", file=out)
    return not diffs


def stem(f):
    return os.path.splitext(os.path.basename(f))[0]


def report(args):
    rows = []
    for f in args.files:
        s = stem(f)
        alone = None
        if args.alone_root:
            alone = (os.path.join(args.alone_root, "nvidia", s),
                     os.path.join(args.alone_root, "minicudart", s))
        rows.append(compare_junit(os.path.join(args.junit_root, "nvidia", s),
                                  os.path.join(args.junit_root, "minicudart", s), f,
                                  alone=alone))
    rcs = {}
    for item in args.rc or []:
        n, _, v = item.partition("=")
        a, _, b = v.partition(":")
        rcs[n] = (a, b)
    extra = {}
    for key, pair, done in (("workloads", args.workloads, "WORKLOADS DONE"),
                            ("jax", args.jax, None)):
        if not pair:
            extra[key] = "n/a"
            continue
        eq = compare_results(pair[0], pair[1], key, done)
        if key in rcs and rcs[key][0] != rcs[key][1]:
            print(f"   DIFFERS {key} exit code: NVIDIA {rcs[key][0]}, minicudart {rcs[key][1]}")
            eq = False
        elif key in rcs and rcs[key][0] != "0":
            print(f"   {key}: exit code {rcs[key][0]} under both")
        extra[key] = "yes" if eq else "no"

    failed = any(not r["ok"] for r in rows) or "no" in extra.values()
    if args.trace_lines is not None and args.trace_lines <= 0:
        failed = True
    print()
    print("== PyTorch's CUDA tests, NVIDIA's runtime against minicudart (pass/fail/skip; "
          "fail includes errors)")
    w = max([len(r["name"]) for r in rows] + [len("file")])
    print(f"{'file':<{w}}  {'NVIDIA':>15}  {'minicudart':>15}  {'differ':>6}  "
          f"{'alone':>5}  {'both fail':>9}")

    def pfs(c, present):
        return f"{c['passed']}/{c['failed'] + c['error']}/{c['skipped']}" if present else "-"
    for r in rows:
        print(f"{r['name']:<{w}}  {pfs(r['nv'], r['nv_present']):>15}  "
              f"{pfs(r['mc'], r['mc_present']):>15}  {r['differ']:>6}  "
              f"{r['alone'] if args.alone_root else '-':>5}  {r['both_fail']:>9}")
    if args.alone_root:
        print("(alone: of the tests that differ, those that still differ when each runs in a "
              "process of its own)")
    print(f"workloads equal: {extra['workloads']}")
    print(f"jax equal: {extra['jax']}")
    if args.trace_lines is not None:
        print(f"minicudart trace lines: {args.trace_lines}"
              f"{'' if args.trace_lines > 0 else ' (minicudart did not serve the run)'}")
    print(f"RESULT: {'FAIL' if failed else 'PASS'}")
    return 1 if failed else 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    j = sub.add_parser("junit")
    j.add_argument("nvidia")
    j.add_argument("minicudart")
    j.add_argument("--name", default="tests")
    r = sub.add_parser("results")
    r.add_argument("nvidia")
    r.add_argument("minicudart")
    r.add_argument("--name", default="results")
    r.add_argument("--done")
    rp = sub.add_parser("report")
    rp.add_argument("--junit-root", required=True)
    rp.add_argument("--files", default="", type=lambda s: [x for x in s.split(",") if x])
    rp.add_argument("--workloads", nargs=2, metavar=("NVIDIA", "MINICUDART"))
    rp.add_argument("--jax", nargs=2, metavar=("NVIDIA", "MINICUDART"))
    rp.add_argument("--trace-lines", type=int)
    rp.add_argument("--rc", action="append")
    rp.add_argument("--alone-root")
    d = sub.add_parser("differing")
    d.add_argument("nvidia")
    d.add_argument("minicudart")
    d.add_argument("file")
    a = p.parse_args(argv)
    if a.cmd == "differing":
        for tid in differing(a.nvidia, a.minicudart):
            print(node_id(tid, a.file))
        return 0
    if a.cmd == "junit":
        return 0 if compare_junit(a.nvidia, a.minicudart, a.name)["ok"] else 1
    if a.cmd == "results":
        return 0 if compare_results(a.nvidia, a.minicudart, a.name, a.done) else 1
    return report(a)


if __name__ == "__main__":
    sys.exit(main())
