#!/usr/bin/env python3
"""PyTorch workloads run under both CUDA runtimes, for comparison.

What it checks: that real PyTorch training and CUDA features give the same results on
minicudart's libcudart.so.13 as on NVIDIA's. Sections (each independent, each reseeded):

  device_info   what PyTorch learns from the runtime: device count, name, capability,
                SM count, total memory (cudaGetDeviceProperties, cudaMemGetInfo)
  gpt_bf16      small GPT-style transformer, bf16 autocast, fused AdamW
  gpt_fp16      the same with fp16 autocast and torch.amp.GradScaler stepping the fused
                AdamW (the grad_scale/found_inf path of the fused kernel, which failed in
                one of PyTorch's own tests under minicudart)
  resnet        torchvision resnet18 (10 classes), channels_last, fp16 autocast +
                GradScaler, SGD with momentum
  compile_*     torch.compile of the transformer: default mode, and "reduce-overhead"
                (CUDA graph trees: captured, then replayed on the later steps)
  sdpa_*        scaled_dot_product_attention fwd+bwd with the FLASH, EFFICIENT and MATH
                backends (bf16, causal)
  cudagraph_*   torch.cuda.CUDAGraph by hand: a whole MLP training step captured and
                replayed; two graphs sharing one private memory pool
  allocator_*   caching allocator counters for a fixed sequence of allocations and frees
  streams_*     side streams, wait_stream, record_stream, events, priorities, pinned memory
  ipc_spawn     a CUDA tensor shared with a process started by torch.multiprocessing (spawn):
                written by the child in place, and one the child allocated read by the parent

How it is run: by tests/frameworks/run.sh on the GPU machine, once on NVIDIA's runtime and
once with minicudart's libcudart.so.13 preloaded; compare.py then compares the two outputs
line by line. Locally (no GPU): `python3 workloads.py --device cpu --quick` runs what can run
on the CPU and prints `RESULT <name> skipped=cpu` for the CUDA-only sections.

Output protocol (stdout): one line per result,
    RESULT <name> <key>=<value> [<key>=<value> ...] [rtol=<x>]
values are integers, strings (no spaces) or floats printed as %.6e; rtol= (optional, last)
is the relative tolerance for the float values of that line, absent = exact. A section that
raises prints `RESULT <name> error=<ExceptionType>` (no message: messages may contain
addresses) and the script goes on with the next section; the traceback goes to stderr. The
last line is `WORKLOADS DONE`. Every other line (timings, '#' notes, warnings on stderr) is
ignored by the comparison. The exit status is 0 unless the script itself breaks.

Determinism: fixed seeds, models initialised and data generated on the CPU (so the starting
point does not depend on the device's RNG), cuDNN deterministic, no cuDNN benchmark,
deterministic algorithms where PyTorch has them (warn_only), CUBLAS_WORKSPACE_CONFIG set
before torch is imported. Losses still get an rtol: cuBLAS/cuDNN heuristics may pick a
different kernel (e.g. from what the runtime reports about the device, or from the workspace
they manage to get), which changes float rounding; 1e-4 on fp32 paths, 1e-2 on bf16/fp16
and compiled paths (half precision rounding is ~4e-3 for bf16, and Inductor/Triton fusions
are a different rounding order again). Training overfits one fixed batch so that the losses
fall by far more than the tolerance: an optimizer step that silently did nothing shows.
"""

import os

# Must be set before torch (and its cuBLAS handle) is created.
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import argparse
import functools
import sys
import time
import traceback

import torch
import torch.nn as nn
import torch.nn.functional as F

ARGS = None
DEV = None
ERRORS = []


# --------------------------------------------------------------------------- output


def fmt(v):
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "%.6e" % v
    if isinstance(v, torch.Tensor):
        return fmt(v.item())
    return str(v).replace(" ", "_")


def result(name, fields, rtol=None):
    parts = ["RESULT", name] + ["%s=%s" % (k, fmt(v)) for k, v in fields.items()]
    if rtol is not None:
        parts.append("rtol=%g" % rtol)
    print(" ".join(parts), flush=True)


def losses_result(name, losses, rtol, **extra):
    fields = {"steps": len(losses)}
    for i, l in enumerate(losses):
        fields["loss%d" % i] = float(l)
    fields.update(extra)
    result(name, fields, rtol)


def section(name, cuda_only=False):
    """Runs fn reseeded; an exception becomes `RESULT name error=Type`."""

    def deco(fn):
        @functools.wraps(fn)
        def wrapper():
            if cuda_only and DEV.type != "cuda":
                result(name, {"skipped": "cpu"})
                return
            torch.manual_seed(0)
            t0 = time.time()
            try:
                fn()
                if DEV.type == "cuda":
                    torch.cuda.synchronize()
            except Exception as e:  # noqa: BLE001 - report and go on
                ERRORS.append(name)
                result(name, {"error": type(e).__name__})
                traceback.print_exc(file=sys.stderr)
            print("# section %s took %.1f s" % (name, time.time() - t0), flush=True)

        wrapper.section_name = name
        return wrapper

    return deco


def cpu_gen(seed):
    return torch.Generator().manual_seed(seed)


def abs_sum(t):
    return t.detach().float().abs().sum().item()


def param_abs(model):
    return sum(p.detach().float().abs().sum().item() for p in model.parameters())


# --------------------------------------------------------------------------- models

VOCAB, D_MODEL, HEADS, LAYERS, SEQ, BATCH = 512, 256, 4, 2, 128, 16


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


def make_gpt():
    torch.manual_seed(0)  # initialised on the CPU: same weights whatever the device
    return GPT().to(DEV)


def gpt_batch():
    toks = torch.randint(0, VOCAB, (BATCH, SEQ + 1), generator=cpu_gen(1234)).to(DEV)
    return toks[:, :-1].contiguous(), toks[:, 1:].contiguous()


def fused_ok():
    return DEV.type == "cuda" or hasattr(torch, "_fused_adamw_")


def steps(n_full, n_quick):
    return n_quick if ARGS.quick else n_full


# --------------------------------------------------------------------------- sections


@section("device_info", cuda_only=True)
def device_info():
    p = torch.cuda.get_device_properties(0)
    free, total = torch.cuda.mem_get_info(0)
    result("device_info", {
        "available": torch.cuda.is_available(),
        "count": torch.cuda.device_count(),
        "name": p.name,
        "cc": "%d.%d" % (p.major, p.minor),
        "sms": p.multi_processor_count,
        "total_memory": p.total_memory,
        "meminfo_total": total,
        "free_le_total": 0 < free <= total,
        "cudnn": torch.backends.cudnn.version() or 0,
        "bf16": torch.cuda.is_bf16_supported(),
    })


def train_gpt(name, amp_dtype, use_scaler):
    model = make_gpt()
    x, y = gpt_batch()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01, fused=fused_ok())
    scaler = torch.amp.GradScaler(DEV.type, enabled=use_scaler)
    losses = []
    for _ in range(steps(10, 4)):
        with torch.autocast(DEV.type, dtype=amp_dtype):
            loss = model(x, y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
        losses.append(loss.item())
    # 1e-2: half-precision autocast (see the top comment).
    losses_result(name, losses, 1e-2, param_abs=param_abs(model))
    if use_scaler:
        # The scale only changes on an inf/NaN step (halves) or after 2000 good ones.
        result(name + "_scaler", {"scale": float(scaler.get_scale())})


@section("gpt_bf16")
def gpt_bf16():
    train_gpt("gpt_bf16", torch.bfloat16, use_scaler=False)


@section("gpt_fp16")
def gpt_fp16():
    train_gpt("gpt_fp16", torch.float16, use_scaler=True)


@section("resnet")
def resnet():
    import torchvision

    torch.manual_seed(0)
    model = torchvision.models.resnet18(num_classes=10)
    model = model.to(DEV, memory_format=torch.channels_last)
    g = cpu_gen(99)
    x = torch.randn(32, 3, 64, 64, generator=g).to(DEV).contiguous(memory_format=torch.channels_last)
    y = torch.randint(0, 10, (32,), generator=g).to(DEV)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scaler = torch.amp.GradScaler(DEV.type)
    amp_dtype = torch.float16 if DEV.type == "cuda" else torch.bfloat16
    losses = []
    for _ in range(steps(6, 2)):
        with torch.autocast(DEV.type, dtype=amp_dtype):
            loss = F.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
        losses.append(loss.item())
    model.eval()
    with torch.no_grad(), torch.autocast(DEV.type, dtype=amp_dtype):
        out = model(x)
    # 1e-2: fp16 autocast, and cuDNN picks convolution kernels by heuristics.
    losses_result("resnet", losses, 1e-2, eval_abs=abs_sum(out), param_abs=param_abs(model))
    result("resnet_scaler", {"scale": float(scaler.get_scale())})


def compiled_gpt(name, mode, n):
    torch._dynamo.reset()
    model = make_gpt()
    x, y = gpt_batch()
    cmodel = torch.compile(model, mode=mode)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, fused=fused_ok())
    losses = []
    for _ in range(n):
        if mode == "reduce-overhead":
            # Marks a new iteration for CUDA graph trees (outputs of the last replay may
            # be overwritten from here on; we took loss.item() already).
            torch.compiler.cudagraph_mark_step_begin()
        with torch.autocast(DEV.type, dtype=torch.bfloat16):
            loss = cmodel(x, y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        losses.append(loss.item())
    # 1e-2: bf16, plus Inductor/Triton fusion changes the rounding order.
    losses_result(name, losses, 1e-2, param_abs=param_abs(model))
    torch._dynamo.reset()


@section("compile_default")
def compile_default():
    compiled_gpt("compile_default", None, steps(6, 3))


@section("compile_reduce_overhead")
def compile_reduce_overhead():
    # Step 1 warms up, step 2 records the CUDA graphs, the rest replay them.
    compiled_gpt("compile_reduce_overhead", "reduce-overhead", steps(8, 4))


def sdpa_run(name, backend):
    from torch.nn.attention import SDPBackend, sdpa_kernel

    g = cpu_gen(7)
    shape = (4, 8, 512, 64)
    q, k, v, dout = (torch.randn(shape, generator=g).to(DEV, torch.bfloat16) for _ in range(4))
    q, k, v = (t.requires_grad_() for t in (q, k, v))
    with sdpa_kernel(getattr(SDPBackend, backend)):
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        out.backward(dout)
    # Sums of absolute values: a signed sum of random data is near 0, where a relative
    # tolerance means nothing. 1e-2: bf16 inputs, and the backward passes accumulate with
    # atomics in a hardware-dependent order.
    result(name, {
        "out_abs": abs_sum(out), "dq_abs": abs_sum(q.grad),
        "dk_abs": abs_sum(k.grad), "dv_abs": abs_sum(v.grad),
        "dtype": str(out.dtype).replace("torch.", ""),
    }, 1e-2)


@section("sdpa_flash")
def sdpa_flash():
    sdpa_run("sdpa_flash", "FLASH_ATTENTION")


@section("sdpa_efficient")
def sdpa_efficient():
    sdpa_run("sdpa_efficient", "EFFICIENT_ATTENTION")


@section("sdpa_math")
def sdpa_math():
    sdpa_run("sdpa_math", "MATH")


def mlp():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                         nn.Linear(256, 10)).to(DEV)


@section("cudagraph_train", cuda_only=True)
def cudagraph_train():
    # The whole-network capture of PyTorch's CUDA graphs documentation.
    model = mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    g = cpu_gen(5)
    batches = [(torch.randn(32, 64, generator=g), torch.randint(0, 10, (32,), generator=g))
               for _ in range(4)]
    static_x = batches[0][0].to(DEV)
    static_y = batches[0][1].to(DEV)
    warm = []
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(static_x), static_y)
            loss.backward()
            opt.step()
            warm.append(loss.item())
    torch.cuda.current_stream().wait_stream(s)

    graph = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)
    with torch.cuda.graph(graph):
        static_loss = F.cross_entropy(model(static_x), static_y)
        static_loss.backward()
        opt.step()

    losses = []
    for i in range(steps(5, 3)):
        bx, by = batches[i % len(batches)]
        static_x.copy_(bx)
        static_y.copy_(by)
        graph.replay()
        losses.append(static_loss.item())
    # fp32, but cuBLAS may choose another kernel: 1e-4.
    losses_result("cudagraph_warmup", warm, 1e-4)
    losses_result("cudagraph_train", losses, 1e-4, param_abs=param_abs(model))
    del graph


@section("cudagraph_pool", cuda_only=True)
def cudagraph_pool():
    # Two captures sharing one private pool, replayed in capture order; the second one
    # consumes the first one's output (the pattern of the docs' "sharing memory").
    l1, l2 = mlp(), mlp()
    pool = torch.cuda.graph_pool_handle()
    g = cpu_gen(6)
    inputs = [torch.randn(16, 64, generator=g) for _ in range(3)]
    static_x = inputs[0].to(DEV)
    with torch.no_grad():
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(2):
                l2(l1(static_x).softmax(-1).repeat(1, 7)[:, :64])
        torch.cuda.current_stream().wait_stream(s)
        g1, g2 = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
        with torch.cuda.graph(g1, pool=pool):
            mid = l1(static_x).softmax(-1).repeat(1, 7)[:, :64]
        with torch.cuda.graph(g2, pool=pool):
            out = l2(mid)
        vals, close = [], []
        for xin in inputs:
            static_x.copy_(xin)
            g1.replay()
            g2.replay()
            ref = l2(l1(static_x).softmax(-1).repeat(1, 7)[:, :64])
            vals.append(abs_sum(out))
            close.append(bool(torch.allclose(out, ref, rtol=1e-4, atol=1e-5)))
    fields = {"replays": len(vals)}
    for i, v in enumerate(vals):
        fields["out_abs%d" % i] = v
    fields["all_close_to_eager"] = all(close)
    result("cudagraph_pool", fields, 1e-4)
    del g1, g2


@section("allocator", cuda_only=True)
def allocator():
    # Deltas from this section's own baseline, so earlier sections do not matter.
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    base = torch.cuda.memory_allocated()
    base_allocs = torch.cuda.memory_stats().get("allocation.all.allocated", 0)
    torch.cuda.reset_peak_memory_stats()
    base_peak = torch.cuda.max_memory_allocated()  # == base after the reset
    sizes = [1, 100, 511, 512, 513, 4096, 1 << 20, (1 << 20) + 1, 3 << 20, 10 << 20,
             (20 << 20) + 7, 64 << 20]
    tensors, deltas = [], []
    for n in sizes:
        tensors.append(torch.empty(n, dtype=torch.uint8, device=DEV))
        deltas.append(torch.cuda.memory_allocated() - base)
    peak1 = torch.cuda.max_memory_allocated() - base_peak
    # Free every other one, then allocate some again into the holes.
    del tensors[::2]
    after_half = torch.cuda.memory_allocated() - base
    again = [torch.ones(n // 2 + 1, dtype=torch.uint8, device=DEV) for n in sizes[::2]]
    after_again = torch.cuda.memory_allocated() - base
    again_sum = int(sum(int(t.sum().item()) for t in again))
    del tensors, again
    after_free = torch.cuda.memory_allocated() - base
    reserved_before = torch.cuda.memory_reserved()
    torch.cuda.empty_cache()
    after_empty = torch.cuda.memory_allocated() - base
    reserved_after = torch.cuda.memory_reserved()
    allocs = torch.cuda.memory_stats().get("allocation.all.allocated", 0) - base_allocs
    result("allocator_sizes", {"d%d" % i: d for i, d in enumerate(deltas)})
    result("allocator", {
        "peak": peak1, "after_half": after_half, "after_again": after_again,
        "again_sum": again_sum, "after_free": after_free, "after_empty_cache": after_empty,
        "reserved_shrank": reserved_after <= reserved_before, "allocs": allocs,
        "peak_total": torch.cuda.max_memory_allocated() - base_peak,
    })
    # A big block: cudaMalloc of a fresh segment, given back by empty_cache.
    r0 = torch.cuda.memory_reserved()
    big = torch.empty(512 << 20, dtype=torch.uint8, device=DEV)
    big.fill_(3)
    big_sum = int(big[: 1 << 20].sum().item())
    grew = torch.cuda.memory_reserved() - r0
    del big
    torch.cuda.empty_cache()
    result("allocator_big", {"reserved_grew_by": grew, "sum": big_sum,
                             "reserved_back": torch.cuda.memory_reserved() == r0})


@section("streams", cuda_only=True)
def streams():
    n = 1 << 22
    main = torch.cuda.current_stream()
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    a = torch.arange(n, dtype=torch.int64, device=DEV)
    s1.wait_stream(main)
    with torch.cuda.stream(s1):
        b = a * 3
        for _ in range(20):  # some work to race against if an ordering were lost
            b = b + 1
    s2.wait_stream(s1)
    with torch.cuda.stream(s2):
        c = b * 2
        b.record_stream(s2)
    del b  # the allocator must not reuse b's block before s2 is done with it
    with torch.cuda.stream(s1):
        junk = torch.full((n,), -1, dtype=torch.int64, device=DEV)
    main.wait_stream(s2)
    main.wait_stream(s1)
    total = int(c.sum().item())
    expect = 2 * (3 * (n * (n - 1) // 2) + 20 * n)
    result("streams_order", {"sum": total, "correct": total == expect,
                             "junk": int(junk.sum().item())})

    # Events: timing, query, wait_event.
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    m = torch.randn(1024, 1024, generator=cpu_gen(3)).to(DEV)
    start.record()
    for _ in range(20):
        m = (m @ m).clamp_(-1, 1)
    end.record()
    ev = torch.cuda.Event()
    ev.record(main)
    s2.wait_event(ev)
    with torch.cuda.stream(s2):
        m2 = m.abs().sum()
    s2.synchronize()
    end.synchronize()
    result("streams_events", {
        "elapsed_positive": start.elapsed_time(end) > 0,
        "query_done": end.query(), "stream_query_done": s2.query(),
        "m_abs": m2.item(),
    }, 1e-4)

    # Stream priorities come back from cudaStreamGetPriority.
    hi = torch.cuda.Stream(priority=-1)
    lo = torch.cuda.Stream(priority=0)
    with torch.cuda.stream(hi):
        h = torch.ones(1000, device=DEV).sum()
    hi.synchronize()
    result("streams_priority", {"hi": hi.priority, "lo": lo.priority, "sum": int(h.item())})

    # Pinned host memory and non_blocking copies both ways.
    host = torch.arange(1 << 20, dtype=torch.int64).pin_memory()
    dev = host.to(DEV, non_blocking=True)
    back = torch.empty(1 << 20, dtype=torch.int64).pin_memory()
    back.copy_(dev * 5, non_blocking=True)
    torch.cuda.current_stream().synchronize()
    result("streams_pinned", {"pinned": host.is_pinned() and back.is_pinned(),
                              "sum": int(back.sum().item())})


def _ipc_child(shared, back_q, done):
    """In the spawned process: writes the parent's tensor in place and sends one of its own."""
    shared.mul_(2).add_(1)
    torch.cuda.synchronize()
    mine = torch.arange(4096, dtype=torch.float32, device=shared.device) * 3
    back_q.put(mine)
    done.wait(120)                       # the sender keeps its memory until the parent has read it


@section("ipc_spawn", cuda_only=True)
def ipc_spawn():
    """A CUDA tensor shared through torch.multiprocessing with a spawned process, both ways.

    Parent to child: the storage travels as a cudaIpcGetMemHandle handle (with an interprocess
    event, cudaIpcGetEventHandle); the child opens it (cudaIpcOpenMemHandle) and writes it in
    place; the parent reads the child's writes.  Child to parent: a tensor the child allocated,
    opened by the parent.  The child inherits the environment, so under minicudart both
    processes run on it."""
    import torch.multiprocessing as mp

    ctx = mp.get_context("spawn")
    shared = torch.arange(4096, dtype=torch.float32, device=DEV)
    back_q, done = ctx.Queue(), ctx.Event()
    p = ctx.Process(target=_ipc_child, args=(shared, back_q, done))
    p.start()
    try:
        back = back_q.get(timeout=180)
        back_sum = float(back.sum().item())
        back_dev = back.device.index
        del back
    finally:
        done.set()
        p.join(180)
    torch.cuda.synchronize()
    result("ipc_spawn", {"shared_sum": float(shared.sum().item()),
                         "shared_0": float(shared[0].item()), "shared_last": float(shared[-1].item()),
                         "back_sum": back_sum, "back_device": back_dev,
                         "child_exit": p.exitcode})


SECTIONS = [device_info, gpt_bf16, gpt_fp16, resnet, compile_default,
            compile_reduce_overhead, sdpa_flash, sdpa_efficient, sdpa_math,
            cudagraph_train, cudagraph_pool, allocator, streams, ipc_spawn]


def main():
    global ARGS, DEV
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--quick", action="store_true", help="fewer steps")
    ap.add_argument("--only", default="", help="comma-separated section names to run")
    ARGS = ap.parse_args()
    DEV = torch.device("cuda:0" if ARGS.device == "cuda" else "cpu")

    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    torch.use_deterministic_algorithms(True, warn_only=True)
    print("# torch %s cuda %s device %s" % (torch.__version__, torch.version.cuda, DEV),
          flush=True)
    only = set(filter(None, ARGS.only.split(",")))
    t0 = time.time()
    for sec in SECTIONS:
        if only and sec.section_name not in only:
            continue
        sec()
    print("# %d section(s) raised: %s; total %.1f s"
          % (len(ERRORS), " ".join(ERRORS) or "-", time.time() - t0), flush=True)
    print("WORKLOADS DONE", flush=True)


if __name__ == "__main__":
    main()
