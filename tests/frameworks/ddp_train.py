#!/usr/bin/env python3
"""Data-parallel training on two GPUs (DDP, then FSDP), run by torchrun, for comparison (issue 21).

What it checks: that PyTorch's distributed training gives the same losses on minicudart's
libcudart.so.13 as on NVIDIA's, in every process, and how fast it goes. Sections, each reseeded:

  allreduce   torch.distributed.all_reduce of a 64 MiB fp32 tensor: the sum is checked exactly
              (RESULT), then ITERS all-reduces are timed with CUDA events and the algorithm and
              bus bandwidth printed as a '#' note (busbw = algbw * 2 (n-1) / n, as nccl-tests)
  ddp         workloads.py's small GPT wrapped in DistributedDataParallel (small buckets, so that
              several all-reduces overlap the backward pass), fp32, AdamW; each rank trains on
              its own half of one fixed batch; losses per step (averaged over the ranks),
              and whether every rank ends with the same weights
  fsdp        the same GPT sharded with FSDP (fully_shard, FSDP2, per block and at the top; or
              FullyShardedDataParallel where fully_shard is missing), fp32, AdamW

How it is run: by tests/frameworks/multigpu.sh on a machine with two GPUs,
    torchrun --standalone --nproc_per_node 2 tests/frameworks/ddp_train.py
once on NVIDIA's runtime and once with minicudart's libcudart.so.13 in LD_PRELOAD (exported, so
that both ranks load it); compare.py compares the two outputs' RESULT lines. Locally (no GPU):
    torchrun --standalone --nproc_per_node 2 tests/frameworks/ddp_train.py --device cpu --quick
uses the gloo backend on the CPU.

Output protocol: as workloads.py (`RESULT <name> key=value ... [rtol=]`, a section that raises
prints `RESULT <name> error=<Type>`), printed by rank 0 only; the last line is `DDP DONE`.
Timings are '#' lines, which the comparison ignores; multigpu.sh reads these two forms:
    # TIMING <name> step_ms=<median> steps=<n>
    # ALLREDUCE bytes=<n> iters=<n> time_ms=<per call> algbw_GBps=<x> busbw_GBps=<x>
The step time is the median over the steps after the first two (warm-up: NCCL's communicators,
cuBLAS handles, the caching allocator), each step ended by a device synchronisation.

Determinism: as workloads.py: fixed seeds, weights initialised and data generated on the CPU and
then moved, TF32 off, deterministic algorithms (warn_only). The losses get rtol 1e-4 (fp32;
cuBLAS may pick another kernel, and NCCL's reduction order is fixed for a fixed topology and
message size, so 1e-4 is generous for two ranks).
"""

import os

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import argparse
import datetime
import functools
import statistics
import sys
import time
import traceback

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workloads import BATCH, GPT, SEQ, VOCAB  # noqa: E402 - the same model as workloads.py

ARGS = None
DEV = None
RANK = 0
WORLD = 1
ERRORS = []


def fmt(v):
    if isinstance(v, (bool, int)):
        return str(v)
    if isinstance(v, float):
        return "%.6e" % v
    if isinstance(v, torch.Tensor):
        return fmt(v.item())
    return str(v).replace(" ", "_")


def say(line):
    if RANK == 0:
        print(line, flush=True)


def result(name, fields, rtol=None):
    parts = ["RESULT", name] + ["%s=%s" % (k, fmt(v)) for k, v in fields.items()]
    if rtol is not None:
        parts.append("rtol=%g" % rtol)
    say(" ".join(parts))


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
                print("rank %d: section %s raised:" % (RANK, name), file=sys.stderr)
                traceback.print_exc(file=sys.stderr)
            say("# section %s took %.1f s" % (name, time.time() - t0))

        wrapper.section_name = name
        return wrapper

    return deco


def sync():
    if DEV.type == "cuda":
        torch.cuda.synchronize()


def n_steps():
    return ARGS.steps or (4 if ARGS.quick else 30)


def median_ms(times):
    timed = times[2:] if len(times) > 3 else times
    return statistics.median(timed) * 1e3, len(timed)


def global_sum(x):
    """A float summed over the ranks (gloo has no AVG, so SUM everywhere)."""
    t = torch.tensor([float(x)], dtype=torch.float64, device=DEV)
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    return t.item()


def rank_batch():
    """One fixed global batch made on the CPU; this rank's rows, moved to the device."""
    g = torch.Generator().manual_seed(1234)
    toks = torch.randint(0, VOCAB, (BATCH, SEQ + 1), generator=g)
    per = BATCH // WORLD
    mine = toks[RANK * per:(RANK + 1) * per].to(DEV)
    return mine[:, :-1].contiguous(), mine[:, 1:].contiguous()


def make_gpt():
    torch.manual_seed(0)  # the same weights on every rank, whatever the device
    return GPT().to(DEV)


def train(name, model, params_abs, opt):
    x, y = rank_batch()
    losses, times = [], []
    for _ in range(n_steps()):
        sync()
        t0 = time.perf_counter()
        loss = model(x, y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        sync()
        times.append(time.perf_counter() - t0)
        losses.append(global_sum(loss.item()) / WORLD)
    fields = {"world": WORLD, "steps": len(losses)}
    for i, l in enumerate(losses):
        fields["loss%d" % i] = l
    fields.update(params_abs())
    result(name, fields, 1e-4)
    ms, n = median_ms(times)
    say("# TIMING %s step_ms=%.3f steps=%d" % (name, ms, n))


@section("allreduce")
def allreduce():
    nbytes = (4 << 20) if (ARGS.quick and DEV.type == "cpu") else (64 << 20)
    iters = 3 if ARGS.quick else 20
    t = torch.full((nbytes // 4,), float(RANK + 1), dtype=torch.float32, device=DEV)
    dist.all_reduce(t)
    expect = WORLD * (WORLD + 1) / 2
    result("allreduce", {"world": WORLD, "elements": t.numel(),
                         "correct": bool((t == expect).all().item()),
                         "first": float(t[0].item())})
    for _ in range(3):  # warm-up
        dist.all_reduce(t)
    sync()
    if DEV.type == "cuda":
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        dist.barrier()
        start.record()
        for _ in range(iters):
            dist.all_reduce(t)
        end.record()
        end.synchronize()
        ms = start.elapsed_time(end) / iters
    else:
        dist.barrier()
        t0 = time.perf_counter()
        for _ in range(iters):
            dist.all_reduce(t)
        ms = (time.perf_counter() - t0) * 1e3 / iters
    algbw = nbytes / (ms * 1e-3) / 1e9
    busbw = algbw * 2 * (WORLD - 1) / WORLD
    say("# ALLREDUCE bytes=%d iters=%d time_ms=%.4f algbw_GBps=%.2f busbw_GBps=%.2f"
        % (nbytes, iters, ms, algbw, busbw))


@section("ddp")
def ddp():
    from torch.nn.parallel import DistributedDataParallel as DDP

    model = make_gpt()
    # 1 MiB buckets: the ~7 MiB of gradients go out in several all-reduces while the backward
    # pass is still running (DDP's overlap, on NCCL's stream, with events between the streams).
    dmodel = DDP(model, device_ids=[DEV.index] if DEV.type == "cuda" else None,
                 bucket_cap_mb=1)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01,
                            fused=DEV.type == "cuda")

    def params_abs():
        mine = sum(p.detach().abs().sum().item() for p in model.parameters())
        allp = [None] * WORLD
        dist.all_gather_object(allp, mine)
        return {"param_abs": mine, "ranks_agree": all(v == mine for v in allp)}

    train("ddp", dmodel, params_abs, opt)


def shard(model):
    """FSDP2's fully_shard where this PyTorch has it, else FullyShardedDataParallel."""
    try:
        from torch.distributed.fsdp import fully_shard
    except ImportError:
        fully_shard = None
    if fully_shard is not None:
        for b in model.blocks:
            fully_shard(b)
        fully_shard(model)
        return model, "fully_shard"
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

    return FSDP(model, device_id=DEV if DEV.type == "cuda" else None,
                use_orig_params=True), "FullyShardedDataParallel"


@section("fsdp")
def fsdp():
    model, how = shard(make_gpt())
    say("# fsdp: %s" % how)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)

    def params_abs():
        local = 0.0
        for p in model.parameters():
            t = p.detach()
            if hasattr(t, "to_local"):
                t = t.to_local()  # a DTensor: this rank's shard
            local += t.abs().sum().item()
        # fully_shard: shards summed over the ranks; FullyShardedDataParallel (use_orig_params)
        # shows each rank its part of the flat parameter too.
        return {"param_abs": global_sum(local), "api": how}

    train("fsdp", model, params_abs, opt)


SECTIONS = [allreduce, ddp, fsdp]


def main():
    global ARGS, DEV, RANK, WORLD
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--quick", action="store_true", help="fewer steps, smaller all-reduce on CPU")
    ap.add_argument("--steps", type=int, default=0, help="training steps (default 30, quick 4)")
    ap.add_argument("--only", default="", help="comma-separated section names to run")
    ARGS = ap.parse_args()
    if "RANK" not in os.environ:
        sys.exit("ddp_train.py: run it with torchrun (RANK, WORLD_SIZE, LOCAL_RANK unset)")
    RANK, WORLD = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    local = int(os.environ.get("LOCAL_RANK", RANK))
    if ARGS.device == "cuda":
        torch.cuda.set_device(local)
        DEV = torch.device("cuda", local)
        backend = "nccl"
    else:
        DEV = torch.device("cpu")
        backend = "gloo"
    if BATCH % WORLD:
        sys.exit("ddp_train.py: batch %d does not split over %d ranks" % (BATCH, WORLD))
    dist.init_process_group(backend, timeout=datetime.timedelta(seconds=120),
                            device_id=DEV if DEV.type == "cuda" else None)

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    torch.use_deterministic_algorithms(True, warn_only=True)
    say("# torch %s cuda %s backend %s world %d device %s"
        % (torch.__version__, torch.version.cuda, backend, WORLD, DEV))
    if DEV.type == "cuda":
        say("# nccl %s" % ".".join(map(str, torch.cuda.nccl.version())))
    only = set(filter(None, ARGS.only.split(",")))
    t0 = time.time()
    for sec in SECTIONS:
        if only and sec.section_name not in only:
            continue
        sec()
    say("# %d section(s) raised: %s; total %.1f s"
        % (len(ERRORS), " ".join(ERRORS) or "-", time.time() - t0))
    dist.barrier()
    dist.destroy_process_group()
    say("DDP DONE")


if __name__ == "__main__":
    main()
