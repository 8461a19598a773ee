#!/usr/bin/env python3
"""anatomy_report.py - turns what bench/pytorch/anatomy.sh's processes left into figures.

usage:  anatomy_report.py analyse OUT      writes OUT/results.json, prints the table last
        anatomy_report.py fill OUT [PAGE]  replaces every {{key}} of PAGE (docs/pytorch.md) with
                                           OUT/results.json's value and copies OUT/pytorch_step.svg
                                           to docs/img/; a key missing from the results stays
                                           visible as {{key}} and is listed (exit 1)

Sources, per phase tag (anatomy.py says what each process does):
  TAG.json    the process's own figures, its pid and the monotonic windows of its steps (us)
  TAG.err     its stderr, ending in minicudart's exit summary (MINICUDART_SUMMARY=all: every
              runtime function with its call count and host time)
  TAG.maps    its /proc/self/maps: which library holds a fatbin wrapper's address
  TAG.trace.json  minicudart's timeline (MINICUDART_TRACE=FILE.json), where the phase has one
  TAG.prof.json   torch.profiler's (CUPTI's) trace of step 3, where the phase has one
"""

import bisect
import collections
import datetime
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def load(out, name):
    try:
        with open(os.path.join(out, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def trace_events(path):
    """minicudart's timeline, one event per line; read line by line, so a file whose process died
    before writing the end still gives its events."""
    events = []
    try:
        with open(path, errors="replace") as f:
            for line in f:
                line = line.strip().rstrip(",")
                if not line.startswith('{"name"'):
                    continue
                try:
                    events.append(json.loads(line))
                except ValueError:
                    pass
    except OSError:
        pass
    return events


def summary(path, pid):
    """The exit summary printed by process pid (children print their own, or none)."""
    try:
        lines = open(path, errors="replace").read().splitlines()
    except OSError:
        return None
    start = [i for i, l in enumerate(lines) if l.startswith("minicudart summary (pid %s)" % pid)]
    if not start:
        return None
    s = {"functions": {}, "function_ms": {}, "loaded": {}}
    in_calls = False
    for l in lines[start[-1] + 1:]:
        if l.startswith("minicudart summary"):
            break
        m = re.match(r"  registered  (\d+) fatbins, (\d+) kernels, (\d+) variables", l)
        if m:
            s["fatbins"], s["kernels"], s["variables"] = map(int, m.groups())
        m = re.match(r"  loaded +(\d+) modules from (.+?) in ([\d.]+) ms", l)
        if m:
            s["loaded"][m.group(2)] = (int(m.group(1)), float(m.group(3)))
        m = re.match(r"  launches +(\d+)$", l)
        if m:
            s["launches"] = int(m.group(1))
        m = re.match(r"  calls +(\d+) to (\d+) runtime functions, ([\d.]+) ms", l)
        if m:
            s["calls"], s["nfunctions"], s["calls_ms"] = int(m.group(1)), int(m.group(2)), \
                float(m.group(3))
            in_calls = True
            continue
        m = re.match(r"  cudaMalloc +(\d+) calls", l)
        if m:
            s["cudamalloc"] = int(m.group(1))
            in_calls = False
        m = re.match(r" +(\d+) +([\d.]+) ms  (\S+)$", l)
        if in_calls and m:
            s["functions"][m.group(3)] = int(m.group(1))
            s["function_ms"][m.group(3)] = float(m.group(2))
    return s


class Maps:
    """/proc/self/maps of one process: address -> the file mapped there."""

    def __init__(self, path):
        self.rows = []
        try:
            for line in open(path):
                parts = line.split(None, 5)
                if len(parts) == 6 and parts[5].strip().startswith("/"):
                    a, b = (int(x, 16) for x in parts[0].split("-"))
                    self.rows.append((a, b, parts[5].strip()))
        except OSError:
            pass
        self.rows.sort()
        self.starts = [r[0] for r in self.rows]

    def library(self, addr):
        i = bisect.bisect_right(self.starts, addr) - 1
        if i >= 0 and addr < self.rows[i][1]:
            name = os.path.basename(self.rows[i][2])
            return re.sub(r"\.so[.\d]*$", ".so", name)
        return "(not in a file)"


def inside(e, w):
    return w and w[0] <= e["ts"] <= w[1]


def param_bytes(params):
    total = 0
    for p in params.split():
        m = re.match(r"\d+@(\d+)\+(\d+)", p)
        if m:
            total = max(total, int(m.group(1)) + int(m.group(2)))
    return total


def family(name):
    n = name.lower()
    if "flash" in n:
        return "FlashAttention"
    if "triton" in n:
        return "Triton"
    if "cudnn" in n:
        return "cuDNN"
    if any(k in n for k in ("nvjet", "gemm", "cutlass", "xmma", "cublas", "gemv")):
        return "cuBLAS (GEMM)"
    return "other ATen kernels"


def demangle(names):
    """c++filt where there is one; else the names as they are."""
    names = list(names)
    try:
        r = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                           timeout=30)
        out = r.stdout.splitlines()
        if len(out) == len(names):
            return dict(zip(names, out))
    except (OSError, subprocess.SubprocessError):
        pass
    return {n: n for n in names}


def base_name(demangled):
    """void at::native::(anonymous namespace)::foo<...>(...) -> at::native::anon::foo"""
    s = demangled.replace("(anonymous namespace)", "anon")
    s = re.sub(r"^void ", "", s.strip())
    return re.split(r"[<(]", s, maxsplit=1)[0].strip()


def dim3(v):
    return "(%s)" % ", ".join(str(x) for x in v) if isinstance(v, list) else str(v)


def md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def fmt(v, nd=1):
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return "%.*f" % (nd, v)
    return str(v)


# ------------------------------------------------------------------------------------ phases

def analyse_import(out, R):
    plain = load(out, "import.json")
    if plain:
        R["import.ms"] = fmt(plain["import_ms"])
        R["meta.torch"] = plain.get("torch", "n/a")
        s = summary(os.path.join(out, "import.err"), plain["pid"])
        if s:
            R["import.fatbins"], R["import.kernels"] = s.get("fatbins"), s.get("kernels")
            R["import.variables"] = s.get("variables")
            reg = {k: v for k, v in s["function_ms"].items() if k.startswith("__cudaRegister")}
            R["import.register_ms"] = fmt(sum(reg.values()))
            R["import.register_calls"] = sum(s["functions"][k] for k in reg)
            R["import.calls"] = s.get("calls")
            R["import.calls_table"] = md_table(
                ["runtime function", "calls", "host ms"],
                [(f"`{k}`", s["functions"][k], fmt(s["function_ms"][k]))
                 for k in sorted(s["functions"], key=lambda k: -s["function_ms"][k])])
    traced = load(out, "import_trace.json")
    if not traced:
        return
    R["import.ms_traced"] = fmt(traced["import_ms"])
    maps = Maps(os.path.join(out, "import_trace.maps"))
    by_lib = collections.defaultdict(lambda: [0, 0, 0])
    for e in trace_events(os.path.join(out, "import_trace.trace.json")):
        msg = e.get("args", {}).get("msg", "") if e.get("name") == "trace" else ""
        m = re.match(r"register fatbin (0x[0-9a-f]+) done: (\d+) kernels, (\d+) variables", msg)
        if m:
            row = by_lib[maps.library(int(m.group(1), 16))]
            row[0] += 1
            row[1] += int(m.group(2))
            row[2] += int(m.group(3))
    rows = sorted(by_lib.items(), key=lambda kv: -kv[1][1])
    # The totals come from the trace: the exit summary's "registered" line counts what is still
    # registered when it prints, and PyTorch's libraries unregister their fatbins (atexit
    # handlers of their own) before the runtime's exit handler runs, so it reads 0 there.
    if rows:
        R["import.fatbins"] = sum(v[0] for _, v in rows)
        R["import.kernels"] = sum(v[1] for _, v in rows)
        R["import.variables"] = sum(v[2] for _, v in rows)
    R["import.libraries"] = len(rows)
    R["import.library_table"] = md_table(["library", "fatbins", "kernels", "variables"],
                                         [(f"`{k}`", *v) for k, v in rows])
    if rows:
        R["import.top_library"] = rows[0][0]
        R["import.top_library_kernels"] = rows[0][1][1]


def module_loads(events, maps, windows):
    """Module loads per window of the step process, with the library and the launch behind each."""
    loads = [e for e in events if e.get("ph") == "X" and e["name"] == "module load"]
    launches = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and e["name"] == "launch":
            launches[e["tid"]].append(e)
    per = collections.Counter()
    libs = collections.defaultdict(lambda: [0, 0.0, []])
    for e in loads:
        w = next((k for k, w in windows.items() if inside(e, w)), "other")
        per[w] += 1
        lib = maps.library(int(e["args"].get("module", "0x0"), 16))
        row = libs[(w, lib)]
        row[0] += 1
        row[1] += e["dur"] / 1e3
        if len(row[2]) < 3 and len(loads) < 400:
            for l in launches[e["tid"]]:
                if l["ts"] <= e["ts"] and e["ts"] + e["dur"] <= l["ts"] + l["dur"] + 0.002:
                    row[2].append(l["args"].get("kernel", "?")[:48])
                    break
    return loads, per, libs


def analyse_step(out, R, tag, key):
    rec = load(out, tag + ".json")
    if not rec:
        return None
    w = rec["window"]
    R["meta.device"] = rec.get("device", "n/a")
    R["meta.cudnn"] = rec.get("cudnn", "n/a")
    R[key + ".first_kernel_ms"] = fmt((w["first_kernel"][1] - w["first_kernel"][0]) / 1e3)
    R[key + ".step1_ms"] = fmt((w["step1"][1] - w["step1"][0]) / 1e3)
    R[key + ".step2_ms"] = fmt((w["step2"][1] - w["step2"][0]) / 1e3)
    s = summary(os.path.join(out, tag + ".err"), rec["pid"])
    if s:
        # SASS, PTX (JIT) and -rdc (JIT-linked) loads together.
        R[key + ".modules"] = sum(n for n, _ in s["loaded"].values())
        R[key + ".modules_ms"] = fmt(sum(ms for _, ms in s["loaded"].values()))
        R[key + ".cudamalloc"] = s.get("cudamalloc")
    events = trace_events(os.path.join(out, tag + ".trace.json"))
    maps = Maps(os.path.join(out, tag + ".maps"))
    windows = {k: w[k] for k in ("first_kernel", "setup", "step1", "step2", "step3") if k in w}
    loads, per, libs = module_loads(events, maps, windows)
    for k in windows:
        R[f"{key}.loads_{k}"] = per.get(k, 0)
    R[key + ".load_table"] = md_table(
        ["when", "library", "modules", "load ms", "first launches that needed one"],
        [(k[0], f"`{k[1]}`", v[0], fmt(v[1]), ", ".join(f"`{n}`" for n in v[2]) or "-")
         for k, v in sorted(libs.items(), key=lambda kv: list(windows).index(kv[0][0])
                            if kv[0][0] in windows else 99)])
    return rec, events, s


def analyse_launches(out, R, rec, events):
    w = rec["window"]
    step2 = [e for e in events if e.get("ph") == "X" and e["name"] == "launch" and inside(e, w["step2"])]
    R["step.launches"] = len(step2)
    R["step.threads"] = len({e["tid"] for e in step2})
    names = collections.Counter(e["args"]["kernel"] for e in step2)
    R["step.kernels"] = len(names)
    fam_rt = collections.Counter(family(e["args"]["kernel"]) for e in step2)
    sizes = sorted(param_bytes(e["args"].get("params", "")) for e in step2)
    if sizes:
        R["step.param_bytes_median"] = sizes[len(sizes) // 2]
        R["step.param_bytes_max"] = sizes[-1]
    first = {}
    for e in step2:
        first.setdefault(e["args"]["kernel"], e)
    R["step.launch_table"] = md_table(
        ["launches", "kernel", "grid", "block", "param bytes"],
        [(n, f"`{k[:70]}`", dim3(first[k]["args"]["grid"]), dim3(first[k]["args"]["block"]),
          param_bytes(first[k]["args"].get("params", ""))) for k, n in names.most_common(12)])
    # The flash-attention forward kernel's launch: its parameter block.
    flash = [e for e in step2 if "flash" in e["args"]["kernel"].lower()]
    fwd = [e for e in flash if "fwd" in e["args"]["kernel"].lower()] or flash
    R["flash.launches"] = len(flash)
    R["flash.kernels"] = ", ".join(sorted({f"`{e['args']['kernel'][:60]}`" for e in flash})) or "none"
    if fwd:
        a = fwd[0]["args"]
        R["flash.kernel"] = a["kernel"]
        R["flash.grid"], R["flash.block"] = dim3(a["grid"]), dim3(a["block"])
        R["flash.shared"] = a["shared"]
        R["flash.params"] = a.get("params", "")
        R["flash.param_bytes"] = param_bytes(a.get("params", ""))
        R["flash.nparams"] = len(a.get("params", "").split())
        R["flash.mode"] = a.get("mode")
        R["flash.launch_us"] = fmt(fwd[0]["dur"], 1)
    # Step 3: what the GPU ran (CUPTI) against what went through the runtime.
    step3 = [e for e in events if e.get("ph") == "X" and e["name"] == "launch" and inside(e, w.get("step3"))]
    R["step3.runtime_launches"] = len(step3)
    prof = load(out, rec["profile"]) if rec.get("profile") else None
    if not prof:
        R["step3.error"] = rec.get("profile_error", "no profile")
        return
    pev = [e for e in prof.get("traceEvents", []) if isinstance(e, dict) and e.get("ph") == "X"]
    kernels = [e for e in pev if e.get("cat") == "kernel"]
    R["step3.gpu_kernels"] = len(kernels)
    R["step3.driver_only"] = len(kernels) - len(step3)
    fam_gpu = collections.Counter(family(e["name"]) for e in kernels)
    fam_rt3 = collections.Counter(family(e["args"]["kernel"]) for e in step3)
    R["step3.family_table"] = md_table(
        ["kernels", "the GPU ran (torch.profiler)", "launched through minicudart (trace)",
         "launched some other way"],
        [(f, fam_gpu[f], fam_rt3[f], fam_gpu[f] - fam_rt3[f])
         for f in sorted(set(fam_gpu) | set(fam_rt3), key=lambda f: -fam_gpu[f])])
    for cat in ("cuda_driver", "cuda_runtime"):
        c = collections.Counter(e["name"] for e in pev if e.get("cat") == cat)
        R[f"step3.{cat}_calls"] = sum(c.values())
        R[f"step3.{cat}_table"] = md_table(["call (CUPTI)", "count"],
                                           [(f"`{k}`", v) for k, v in c.most_common(10)]) if c else "(none)"
    # Which kernels, by name: the runtime's mangled names demangled, matched by base name.
    dm = demangle({e["args"]["kernel"] for e in step3})
    rt = collections.Counter(base_name(dm[e["args"]["kernel"]]) for e in step3)
    gpu = collections.Counter(base_name(e["name"]) for e in kernels)
    extra = [(k, n - rt.get(k, 0)) for k, n in gpu.items() if n > rt.get(k, 0)]
    extra.sort(key=lambda kv: -kv[1])
    R["step3.driver_only_table"] = md_table(
        ["kernel (base name, as CUPTI names it)", "launches not seen by the runtime"],
        [(f"`{k[:80]}`", n) for k, n in extra[:12]]) if extra else "(none)"
    R["step3.gpu_time_ms"] = fmt(sum(e["dur"] for e in kernels) / 1e3, 2)


def analyse_memory(R, rec, s):
    m = rec.get("mem", {})
    if "step1" in m and "step2" in m:
        R["mem.step_tensor_allocs"] = m["step2"]["tensor_allocs"] - m["step1"]["tensor_allocs"]
        R["mem.step_segments"] = m["step2"]["segments"] - m["step1"]["segments"]
        R["mem.step1_segments"] = m["step1"]["segments"] - m["setup"]["segments"]
        R["mem.step1_tensor_allocs"] = m["step1"]["tensor_allocs"] - m["setup"]["tensor_allocs"]
    if "end" in m:
        R["mem.tensor_allocs"] = m["end"]["tensor_allocs"]
        R["mem.segments"] = m["end"]["segments"]
        R["mem.reserved_mib"] = fmt(m["end"]["reserved_bytes"] / 2**20)
    if s:
        R["mem.cudamalloc"] = s.get("cudamalloc")


def analyse_modes(out, R):
    rows = []
    for mode in ("eager", "graph", "compile"):
        a, b = load(out, f"steps_{mode}_0.json"), load(out, f"steps_{mode}_n.json")
        if not a or not b:
            rows.append((mode, "failed", "", "", "", "", ""))
            continue
        sa = summary(os.path.join(out, f"steps_{mode}_0.err"), a["pid"])
        sb = summary(os.path.join(out, f"steps_{mode}_n.err"), b["pid"])
        n = b["steps"]
        if not sa or not sb or n <= 0:
            rows.append((mode, "no summary", "", "", "", "", ""))
            continue
        calls = (sb["calls"] - sa["calls"]) / n
        launches = (sb.get("launches", 0) - sa.get("launches", 0)) / n
        per = {k: (sb["functions"].get(k, 0) - sa["functions"].get(k, 0)) / n
               for k in set(sb["functions"]) | set(sa["functions"])}
        per = {k: v for k, v in per.items() if abs(v) >= 0.5 / n}
        # Host time in the runtime per step: the difference of the two processes' times, over
        # the functions the steps call only.  The set-up's functions (cudaMalloc, module loads
        # outside a launch, host allocations) differ in time from one process to the next by
        # more than a step's whole cost; counting them made the figure noise, even negative.
        host = sum(sb["function_ms"].get(k, 0.0) - sa["function_ms"].get(k, 0.0)
                   for k in per) / n
        top = sorted(per.items(), key=lambda kv: -kv[1])
        if calls < 0 or launches < 0:
            # The two processes' set-up differed (torch.compile: the second process finds the
            # first one's kernels in inductor's cache and compiles less), so their difference
            # is not what the steps cost; the in-process times still are.
            R[f"modes.{mode}.calls"] = R[f"modes.{mode}.host_ms"] = "n/a"
            R[f"modes.{mode}.launches"] = "n/a"
            R[f"modes.{mode}.issue_ms"] = fmt(b["issue_ms"] / n, 3)
            R[f"modes.{mode}.wall_ms"] = fmt(b["wall_ms"] / n, 3)
            R[f"modes.{mode}.functions"] = "n/a (set-up differed between the two processes)"
            rows.append((mode, "n/a", "n/a", "n/a", fmt(b["issue_ms"] / n, 3),
                         fmt(b["wall_ms"] / n, 3), R[f"modes.{mode}.functions"]))
            continue
        R[f"modes.{mode}.calls"] = fmt(calls)
        R[f"modes.{mode}.host_ms"] = fmt(host, 3)
        R[f"modes.{mode}.launches"] = fmt(launches)
        R[f"modes.{mode}.issue_ms"] = fmt(b["issue_ms"] / n, 3)
        R[f"modes.{mode}.wall_ms"] = fmt(b["wall_ms"] / n, 3)
        R[f"modes.{mode}.functions"] = ", ".join(f"`{k}` {fmt(v)}" for k, v in top[:8]) or "none"
        if mode == "eager":
            se = [(k, v) for k, v in top if "Stream" in k or "Event" in k]
            R["stream.table"] = md_table(["runtime function", "calls per step"],
                                         [(f"`{k}`", fmt(v)) for k, v in se]) if se else "(none)"
            R["stream.calls"] = fmt(sum(v for _, v in se))
            R["mem.step_cudamalloc"] = fmt(per.get("cudaMalloc", 0.0))
        rows.append((mode, fmt(calls), fmt(host, 3), fmt(launches), fmt(b["issue_ms"] / n, 3),
                     fmt(b["wall_ms"] / n, 3), R[f"modes.{mode}.functions"]))
    R["modes.steps"] = next((load(out, f"steps_{m}_n.json") or {}).get("steps")
                            for m in ("eager", "graph", "compile")) or "n/a"
    R["modes.table"] = md_table(
        ["mode", "runtime calls / step", "host ms in them / step", "<<<>>> launches / step",
         "issue ms / step", "wall ms / step", "calls per step, most first"], rows)


def analyse(out):
    R = {"meta.date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")}
    steps = {}
    for fn in (lambda: analyse_import(out, R),):
        try:
            fn()
        except Exception as e:  # one phase's trouble leaves the others' figures
            R.setdefault("errors", []).append("import: %r" % e)
    for tag, key in (("step_lazy", "lazy"), ("step_eager", "eager")):
        try:
            steps[key] = analyse_step(out, R, tag, key)
        except Exception as e:
            R.setdefault("errors", []).append("%s: %r" % (tag, e))
    if steps.get("lazy"):
        rec, events, s = steps["lazy"]
        for name, fn in (("launches", lambda: analyse_launches(out, R, rec, events)),
                         ("memory", lambda: analyse_memory(R, rec, s))):
            try:
                fn()
            except Exception as e:
                R.setdefault("errors", []).append("%s: %r" % (name, e))
        R["step.window"] = rec["window"]["step2"]
    try:
        analyse_modes(out, R)
    except Exception as e:
        R.setdefault("errors", []).append("modes: %r" % e)
    # A phase that left no record: the last line of its stderr says why.
    for name in sorted(os.listdir(out)):
        tag = name[:-4]
        if name.endswith(".err") and name != "report.err" and not os.path.exists(
                os.path.join(out, tag + ".json")):
            tail = [l for l in open(os.path.join(out, name), errors="replace").read().splitlines()
                    if l.strip() and not l.startswith(("minicudart", "  ", "    "))]
            R.setdefault("errors", []).append("phase %s: %s" % (tag, tail[-1] if tail else "no record"))
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(R, f, indent=1, sort_keys=True)
    return R


def table(R):
    g = lambda k: fmt(R.get(k))  # noqa: E731
    print("\n== PyTorch anatomy (%s, %s, torch %s)" % (g("meta.date"), g("meta.device"), g("meta.torch")))
    rows = [
        ("import torch", "%s ms; %s fatbins, %s kernels, %s variables from %s libraries; "
         "registration %s ms" % (g("import.ms"), g("import.fatbins"), g("import.kernels"),
                                 g("import.variables"), g("import.libraries"), g("import.register_ms"))),
        ("lazy loading", "first kernel %s ms; modules %s (setup %s, step 1 %s, step 2 %s); step 1 "
         "%s ms, step 2 %s ms" % (g("lazy.first_kernel_ms"), g("lazy.modules"), g("lazy.loads_setup"),
                                  g("lazy.loads_step1"), g("lazy.loads_step2"), g("lazy.step1_ms"),
                                  g("lazy.step2_ms"))),
        ("eager loading", "first kernel %s ms; modules %s in %s ms; step 1 %s ms" % (
            g("eager.first_kernel_ms"), g("eager.modules"), g("eager.modules_ms"), g("eager.step1_ms"))),
        ("one step", "%s launches through the runtime (%s kernels, %s threads); GPU ran %s in step 3, "
         "%s through the runtime, %s otherwise" % (g("step.launches"), g("step.kernels"),
                                                   g("step.threads"), g("step3.gpu_kernels"),
                                                   g("step3.runtime_launches"), g("step3.driver_only"))),
        ("memory", "%s tensor allocations and %s new segments in step 2; %s cudaMalloc in the "
         "process" % (g("mem.step_tensor_allocs"), g("mem.step_segments"), g("mem.cudamalloc"))),
        ("flash", "%s <<<%s, %s>>> %s param bytes" % (g("flash.kernel")[:50], g("flash.grid"),
                                                       g("flash.block"), g("flash.param_bytes"))),
    ]
    for mode in ("eager", "graph", "compile"):
        rows.append((mode, "%s calls/step, %s host ms/step in the runtime, %s launches/step, "
                     "issue %s ms/step, wall %s ms/step" % (
                         g(f"modes.{mode}.calls"), g(f"modes.{mode}.host_ms"),
                         g(f"modes.{mode}.launches"), g(f"modes.{mode}.issue_ms"),
                         g(f"modes.{mode}.wall_ms"))))
    for k, v in rows:
        print("%-14s %s" % (k, v))
    for e in R.get("errors", []):
        print("error: " + e)


def fill(out, page):
    R = load(out, "results.json")
    if R is None:
        sys.exit("fill: no %s/results.json" % out)
    text = open(page).read()
    missing = []

    def sub(m):
        k = m.group(1)
        if k in R and R[k] is not None:
            v = R[k]
            return json.dumps(v) if isinstance(v, (list, dict)) else str(v)
        missing.append(k)
        return m.group(0)

    text = re.sub(r"\{\{([a-z0-9_.]+)\}\}", sub, text)
    with open(page, "w") as f:
        f.write(text)
    svg = os.path.join(out, "pytorch_step.svg")
    if os.path.exists(svg):
        shutil.copyfile(svg, os.path.join(ROOT, "docs", "img", "pytorch_step.svg"))
    else:
        missing.append("pytorch_step.svg")
    for k in missing:
        print("fill: no value for {{%s}}" % k)
    print("fill: %s filled from %s/results.json%s" % (page, out, ", %d missing" % len(missing)
                                                      if missing else ""))
    sys.exit(1 if missing else 0)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if sys.argv[1] == "analyse":
        table(analyse(sys.argv[2]))
    elif sys.argv[1] == "fill":
        fill(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "docs", "pytorch.md"))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
