#!/usr/bin/env python3
"""anatomy.py - one measurement process of docs/pytorch.md ("Anatomy, part 2").

bench/pytorch/anatomy.sh runs each phase in its own process, with minicudart's libcudart.so.13
preloaded and MINICUDART_SUMMARY=all (plus MINICUDART_TRACE=FILE.json where the phase needs the
timeline), and then bench/pytorch/anatomy_report.py reads what they left.  Each phase writes
OUT/<tag>.json (its own figures, its pid, and the CLOCK_MONOTONIC bounds of what it did, in the
trace's microseconds) and OUT/<tag>.maps (its /proc/self/maps at the end: the trace names a
fatbin by its wrapper's address, and the maps say which library holds that address).

usage:  anatomy.py import TAG OUT
        anatomy.py step   TAG OUT            warm-up step, measured step, step under torch.profiler
        anatomy.py steps  TAG OUT MODE N     MODE eager|graph|compile: set up, warm up, then N steps

The model: a small GPT (4 blocks, d=256, 4 heads of 64, 256 tokens, batch 16, vocabulary 1024),
bf16 autocast, fused AdamW, attention by F.scaled_dot_product_attention(is_causal=True) with the
FLASH_ATTENTION backend forced (except under torch.compile, which picks its own).
"""

import json
import os
import sys
import time

T_START = time.perf_counter()


def now_us():
    """CLOCK_MONOTONIC in microseconds: the clock of minicudart's trace (lib/core/trace.c rt_now_ns)."""
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) / 1e3


def dump(out, tag, record):
    record["pid"] = os.getpid()
    with open(os.path.join(out, tag + ".maps"), "w") as f, open("/proc/self/maps") as m:
        f.write(m.read())
    with open(os.path.join(out, tag + ".json"), "w") as f:
        json.dump(record, f, indent=1)


def phase_import(tag, out):
    t0 = now_us()
    import torch  # noqa: F401
    t1 = now_us()
    dump(out, tag, {"phase": "import", "import_ms": (t1 - t0) / 1e3,
                    "window": {"import": [t0, t1]}, "torch": torch.__version__})


# ------------------------------------------------------------------------------- the model

VOCAB, D_MODEL, HEADS, LAYERS, SEQ, BATCH = 1024, 256, 4, 4, 256, 16


def build(torch, mode):
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    force_flash = mode != "compile"

    class Block(nn.Module):
        def __init__(self, d, h):
            super().__init__()
            self.h = h
            self.ln1 = nn.LayerNorm(d)
            self.qkv = nn.Linear(d, 3 * d)
            self.proj = nn.Linear(d, d)
            self.ln2 = nn.LayerNorm(d)
            self.fc1 = nn.Linear(d, 4 * d)
            self.fc2 = nn.Linear(4 * d, d)

        def forward(self, x):
            B, T, C = x.shape
            q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
            q, k, v = (t.view(B, T, self.h, C // self.h).transpose(1, 2) for t in (q, k, v))
            if force_flash:
                with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            else:
                y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(y.transpose(1, 2).contiguous().view(B, T, C))
            return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(VOCAB, D_MODEL)
            self.pos = nn.Embedding(SEQ, D_MODEL)
            self.blocks = nn.ModuleList([Block(D_MODEL, HEADS) for _ in range(LAYERS)])
            self.ln_f = nn.LayerNorm(D_MODEL)
            self.head = nn.Linear(D_MODEL, VOCAB, bias=False)

        def forward(self, idx, targets):
            T = idx.shape[1]
            x = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
            for b in self.blocks:
                x = b(x)
            logits = self.head(self.ln_f(x))
            return F.cross_entropy(logits.float().view(-1, VOCAB), targets.reshape(-1))

    torch.manual_seed(0)
    model = GPT().cuda()
    g = torch.Generator().manual_seed(1234)
    toks = torch.randint(0, VOCAB, (BATCH, SEQ + 1), generator=g).cuda()
    x, y = toks[:, :-1].contiguous(), toks[:, 1:].contiguous()
    # capturable: the optimizer's step count stays on the GPU, as a captured graph needs.
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True, capturable=mode == "graph")
    fwd = torch.compile(model, mode="reduce-overhead") if mode == "compile" else model

    def step():
        if mode == "compile":
            torch.compiler.cudagraph_mark_step_begin()
        # cache_enabled=False: a captured graph must not reuse autocast's cast cache.
        with torch.autocast("cuda", dtype=torch.bfloat16, cache_enabled=False):
            loss = fwd(x, y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=mode != "graph")
        return loss

    return model, opt, step


def mem_counts(torch):
    s = torch.cuda.memory_stats()
    return {"tensor_allocs": s.get("allocation.all.allocated", 0),
            "segments": s.get("segment.all.allocated", 0),
            "reserved_bytes": s.get("reserved_bytes.all.current", 0)}


def phase_step(tag, out):
    t0 = now_us()
    import torch
    t_import = now_us()
    os.environ.pop("MINICUDART_TRACE", None)   # the runtime has read it; children must not
    rec = {"phase": "step", "torch": torch.__version__, "window": {"import": [t0, t_import]},
           "module_loading": os.environ.get("CUDA_MODULE_LOADING", "LAZY")}
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    t_ctx = now_us()
    rec["window"]["first_kernel"] = [t_import, t_ctx]
    model, opt, step = build(torch, "eager")
    torch.cuda.synchronize()
    t_setup = now_us()
    rec["window"]["setup"] = [t_ctx, t_setup]
    rec["mem"] = {"setup": mem_counts(torch)}
    for name in ("step1", "step2"):
        a = now_us()
        loss = step()
        torch.cuda.synchronize()
        b = now_us()
        rec["window"][name] = [a, b]
        rec["mem"][name] = mem_counts(torch)
    rec["loss"] = float(loss.item())
    # Step 3: the same step under torch.profiler (CUPTI): the kernels the GPU ran, whoever
    # launched them, and the driver calls that launched them.
    try:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            a = now_us()
            step()
            torch.cuda.synchronize()
            b = now_us()
        rec["window"]["step3"] = [a, b]
        path = os.path.join(out, tag + ".prof.json")
        prof.export_chrome_trace(path)
        rec["profile"] = os.path.basename(path)
    except Exception as e:  # the figure is then missing, the rest stands
        rec["profile_error"] = repr(e)
    rec["mem"]["end"] = mem_counts(torch)
    rec["cudnn"] = torch.backends.cudnn.version() or 0
    rec["device"] = torch.cuda.get_device_name(0)
    dump(out, tag, rec)


def phase_steps(tag, out, mode, n):
    t0 = now_us()
    import torch
    rec = {"phase": "steps", "mode": mode, "steps": n, "torch": torch.__version__}
    model, opt, step = build(torch, mode)
    warm = 5
    if mode == "graph":
        # As torch.cuda.graphs' documentation does it: warm up on a side stream, then capture
        # the whole step (forward, backward, optimizer) and replay it.
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(warm):
                step()
        torch.cuda.current_stream().wait_stream(s)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            step()
        run = graph.replay
        run()
    else:
        for _ in range(warm):
            step()
        run = step
    torch.cuda.synchronize()
    a = now_us()
    for _ in range(n):
        run()
    b = now_us()
    torch.cuda.synchronize()
    c = now_us()
    rec["window"] = {"setup": [t0, a], "steps": [a, c]}
    rec["issue_ms"] = (b - a) / 1e3           # host time to issue N steps
    rec["wall_ms"] = (c - a) / 1e3            # and until the GPU finished them
    rec["mem"] = mem_counts(torch)
    dump(out, tag, rec)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    what, tag, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    if what == "import":
        phase_import(tag, out)
    elif what == "step":
        phase_step(tag, out)
    elif what == "steps":
        phase_steps(tag, out, sys.argv[4], int(sys.argv[5]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    # torch.compile compiles in this process, not in workers that would inherit the preload.
    os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
    main()
