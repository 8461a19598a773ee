#!/usr/bin/env python3
"""One process, two GPUs: a model split over cuda:0 and cuda:1, for comparison (issue 21).

What it checks: that a single process driving two devices (cudaSetDevice switching, copies
between devices, peer access) gives the same results on minicudart's libcudart.so.13 as on
NVIDIA's. Sections, each reseeded:

  peer        torch.cuda.can_device_access_peer both ways; a tensor copied cuda:0 -> cuda:1 ->
              cuda:0 with copy_ (a peer copy, cudaMemcpyPeerAsync or a copy kernel where peer
              access is on) and with .to(non_blocking=True), checked exactly; a 256 MiB copy
              timed with CUDA events, its bandwidth a '#' note
  split       workloads.py's small GPT with the embeddings and the blocks on cuda:0 and the
              final norm, the head and the loss on cuda:1: the activations go over with .to(),
              the gradients come back through autograd; fp32, AdamW; losses per step

How it is run: by tests/frameworks/multigpu.sh on a machine with two GPUs, once on NVIDIA's
runtime and once with minicudart's libcudart.so.13 preloaded; compare.py compares the RESULT
lines. With one GPU it prints `RESULT two_gpu skipped=one_gpu` and exits 0. Locally (no GPU):
`python3 two_gpu.py --device cpu --quick` runs both sections with both "devices" on the CPU.

Output protocol: as workloads.py; the last line is `TWO_GPU DONE`. Timings are '#' lines:
    # TIMING split step_ms=<median> steps=<n>
    # PEERCOPY bytes=<n> time_ms=<x> GBps=<x>
Determinism: as ddp_train.py (fp32, TF32 off, weights and data made on the CPU); rtol 1e-4.
"""

import os

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import argparse
import functools
import statistics
import sys
import time
import traceback

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workloads import BATCH, GPT, SEQ, VOCAB, result  # noqa: E402 - workloads.py's model, lines

ARGS = None
D0 = D1 = None
ERRORS = []


def sync():
    if D0.type == "cuda":
        torch.cuda.synchronize(D0)
        torch.cuda.synchronize(D1)


def section(name):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper():
            torch.manual_seed(0)
            t0 = time.time()
            try:
                fn()
                sync()
            except Exception as e:  # noqa: BLE001 - report and go on
                ERRORS.append(name)
                result(name, {"error": type(e).__name__})
                traceback.print_exc(file=sys.stderr)
            print("# section %s took %.1f s" % (name, time.time() - t0), flush=True)

        wrapper.section_name = name
        return wrapper

    return deco


@section("peer")
def peer():
    cuda = D0.type == "cuda"
    fields = {
        "can_access_01": torch.cuda.can_device_access_peer(0, 1) if cuda else "cpu",
        "can_access_10": torch.cuda.can_device_access_peer(1, 0) if cuda else "cpu",
    }
    n = 1 << 20
    src = torch.arange(n, dtype=torch.int64).to(D0)
    on1 = torch.empty(n, dtype=torch.int64, device=D1)
    on1.copy_(src)                       # device 0 -> device 1
    on1.mul_(3)                          # work on device 1, on its current stream
    back = torch.empty(n, dtype=torch.int64, device=D0)
    back.copy_(on1)                      # device 1 -> device 0
    nb = (on1 + 1).to(D0, non_blocking=True)
    sync()
    expect = 3 * n * (n - 1) // 2
    fields.update({"sum_on1": int(on1.sum().item()), "sum_back": int(back.sum().item()),
                   "sum_nonblocking": int(nb.sum().item()),
                   "correct": int(back.sum().item()) == expect
                   and int(nb.sum().item()) == expect + n})
    result("peer", fields)

    nbytes = (16 << 20) if ARGS.quick else (256 << 20)
    a = torch.ones(nbytes // 4, dtype=torch.float32, device=D0)
    b = torch.empty(nbytes // 4, dtype=torch.float32, device=D1)
    for _ in range(2):
        b.copy_(a)
    sync()
    iters = 3 if ARGS.quick else 10
    if cuda:
        with torch.cuda.device(D1):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(iters):
                b.copy_(a)
            end.record()
            end.synchronize()
            ms = start.elapsed_time(end) / iters
    else:
        t0 = time.perf_counter()
        for _ in range(iters):
            b.copy_(a)
        ms = (time.perf_counter() - t0) * 1e3 / iters
    result("peer_big", {"bytes": nbytes, "sum": float(b.sum().item())})
    print("# PEERCOPY bytes=%d time_ms=%.4f GBps=%.2f"
          % (nbytes, ms, nbytes / (ms * 1e-3) / 1e9), flush=True)


def split_forward(model, idx, targets):
    """GPT.forward with the head on the second device."""
    T = idx.shape[1]
    x = model.tok(idx) + model.pos(torch.arange(T, device=idx.device))
    for blk in model.blocks:
        x = blk(x)
    x = x.to(D1)                          # activations over; gradients come back in backward
    logits = model.head(model.ln_f(x))
    return F.cross_entropy(logits.float().view(-1, VOCAB), targets.reshape(-1))


@section("split")
def split():
    torch.manual_seed(0)
    model = GPT()                         # initialised on the CPU, then placed
    model.to(D0)
    model.ln_f.to(D1)
    model.head.to(D1)
    toks = torch.randint(0, VOCAB, (BATCH, SEQ + 1), generator=torch.Generator().manual_seed(1234))
    x = toks[:, :-1].contiguous().to(D0)
    y = toks[:, 1:].contiguous().to(D1)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    losses, times = [], []
    for _ in range(ARGS.steps or (4 if ARGS.quick else 30)):
        sync()
        t0 = time.perf_counter()
        loss = split_forward(model, x, y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        sync()
        times.append(time.perf_counter() - t0)
        losses.append(loss.item())
    devices = sorted({str(p.device) for p in model.parameters()})
    fields = {"steps": len(losses)}
    for i, l in enumerate(losses):
        fields["loss%d" % i] = l
    fields["param_abs"] = sum(p.detach().abs().sum().item() for p in model.parameters())
    fields["devices"] = ",".join(devices)
    result("split", fields, 1e-4)
    timed = times[2:] if len(times) > 3 else times
    print("# TIMING split step_ms=%.3f steps=%d" % (statistics.median(timed) * 1e3, len(timed)),
          flush=True)


SECTIONS = [peer, split]


def main():
    global ARGS, D0, D1
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--quick", action="store_true", help="fewer steps, smaller copies")
    ap.add_argument("--steps", type=int, default=0, help="training steps (default 30, quick 4)")
    ap.add_argument("--only", default="", help="comma-separated section names to run")
    ARGS = ap.parse_args()
    if ARGS.device == "cuda":
        n = torch.cuda.device_count()
        print("# torch %s cuda %s devices %d" % (torch.__version__, torch.version.cuda, n),
              flush=True)
        if n < 2:
            result("two_gpu", {"skipped": "one_gpu" if n == 1 else "no_gpu"})
            print("TWO_GPU DONE", flush=True)
            return
        D0, D1 = torch.device("cuda", 0), torch.device("cuda", 1)
    else:
        D0 = D1 = torch.device("cpu")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.use_deterministic_algorithms(True, warn_only=True)
    only = set(filter(None, ARGS.only.split(",")))
    t0 = time.time()
    for sec in SECTIONS:
        if only and sec.section_name not in only:
            continue
        sec()
    print("# %d section(s) raised: %s; total %.1f s"
          % (len(ERRORS), " ".join(ERRORS) or "-", time.time() - t0), flush=True)
    print("TWO_GPU DONE", flush=True)


if __name__ == "__main__":
    main()
