#!/usr/bin/env python3
"""soak_torch.py - the PyTorch soak of issue 18: real training for a long time on one runtime.

What it does: for $SOAK_SECONDS seconds (300 by default) one loop trains a small GPT-style
transformer (bf16 autocast, fused AdamW) one step per iteration, the model and optimizer built
anew (on the CPU, from a fixed seed) every EPOCH_STEPS steps; every $SOAK_EVERY iterations (10
by default; also at iteration 0, so that a short run does each once) it also does:

  graphs    a whole small training step (MLP, SGD) captured with torch.cuda.CUDAGraph after a
            warm-up on a side stream, replayed, the graph and its private pool destroyed; the
            replayed losses checked against the same steps run eagerly
  cache     torch.cuda.empty_cache(): memory_allocated unchanged, memory_reserved not larger
  streams   a side stream (wait_stream), events recorded on it (timing, query), the main
            stream waiting on one (wait_event), record_stream; the int64 result checked exactly
  pinned    pinned host tensors (1 to 16 MiB of int64, by turns) copied to the GPU and back with
            non_blocking=True; checked exactly

Checks (training): every loss finite; in each epoch the loss after 5 steps below the first
one; each epoch's first loss (the same weights on the same batch) equal to the first epoch's
within a relative 1e-3 (a forward pass that went wrong shows).

How it is run: by tests/gpu/reliability.sh (or by hand) on the GPU machine, once as installed
(NVIDIA's runtime) and once with minicudart's libcudart.so.13 in LD_PRELOAD:
    SOAK_SECONDS=300 SOAK_SAMPLE_S=5 python3 tests/frameworks/soak_torch.py
Locally (no GPU): `python3 soak_torch.py --device cpu --tiny` runs the training family on the CPU
(the CUDA-only families print SKIPPED) and the samples (device_used_kb -1): it exercises the
logic, nothing more (--tiny: batch 2, sequence 16, 8-step epochs, so that a CPU gets through
several epochs).
Environment: SOAK_SECONDS (300), SOAK_SAMPLE_S (5), SOAK_EVERY (10), SOAK_TIMEOUT_S (the
watchdog: SOAK_SECONDS + 120; past it the program prints a FAIL line and exits 1).

Output protocol, as tests/gpu/soak_api.cu's (so that reliability.sh reads both alike):
  stderr: after the first iteration, then every SOAK_SAMPLE_S seconds, and once at the end,
      soak sample <seconds, %.1f> rss_kb <VmRSS> device_used_kb <total - free, kB> fds <n> threads <n>
    (VmRSS and Threads from /proc/self/status; device memory from torch.cuda.mem_get_info()
    taken right after torch.cuda.synchronize(), torch.cuda.empty_cache() and the emptying of
    the pinned-memory cache, so that what the caching allocators hold at that moment does not
    make the samples jump; fds: the entries of /proc/self/fd less the one the listing itself
    opens, as soak_api counts them; threads include the watchdog's, there from the start); then
      soak iterations <n> in <seconds> s
    and tracebacks of anything that raised.
  stdout: nothing that depends on timing or on the runtime: at most one
      FAIL <family>: <what>
    line per family (its first failure; exception type names only, never messages), then one
      <family>: PASS|FAIL
    per family (SKIPPED on the CPU), and last `soak_torch: PASS|FAIL`. A family passes when it
    ran at least once and never failed.
Exit: 0 pass, 1 fail, 2 no GPU (with --device cuda).

Determinism: fixed seeds, models initialised and data generated on the CPU, cuDNN
deterministic, CUBLAS_WORKSPACE_CONFIG set before torch is imported (as workloads.py).
"""

import os

# Must be set before torch (and its cuBLAS handle) is created.
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import argparse
import faulthandler
import math
import sys
import threading
import time
import traceback

import torch
import torch.nn as nn
import torch.nn.functional as F

DEV = None
# Side streams made once: torch.cuda.Stream() hands out streams from a pool of 32 by turns, and
# cuBLAS keeps a workspace for every stream it ran on, so a new Stream() each time would make
# device memory grow for the first few hundred iterations under either runtime.
SIDE = SIDE_HI = None

# --------------------------------------------------------------------------- families

TRAIN, GRAPHS, CACHE, STREAMS, PINNED = range(5)
FAMILY_NAMES = [
    "training steps: GPT, bf16 autocast, fused AdamW, rebuilt every epoch",
    "CUDA graphs: a training step captured, replayed and destroyed",
    "caching allocator emptied (torch.cuda.empty_cache)",
    "side stream with events: wait_stream, record, wait_event, elapsed_time, record_stream",
    "pinned host memory: non_blocking copies both ways",
]
CUDA_ONLY = {GRAPHS, CACHE, STREAMS, PINNED}
failures = [0] * len(FAMILY_NAMES)
done = [0] * len(FAMILY_NAMES)


def fail(f, what):
    if failures[f] == 0:
        print("FAIL %s: %s" % (FAMILY_NAMES[f], what), flush=True)
    failures[f] += 1


def run_family(f, fn, *args):
    """fn returns True when its checks passed (it calls fail() itself when not); an
    exception is a failure named by its type, the traceback going to stderr."""
    try:
        if fn(*args):
            done[f] += 1
    except Exception as e:  # noqa: BLE001 - report and go on
        fail(f, "raised %s" % type(e).__name__)
        traceback.print_exc(file=sys.stderr)


def cpu_gen(seed):
    return torch.Generator().manual_seed(seed)


# --------------------------------------------------------------------------- training

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workloads import GPT, VOCAB  # noqa: E402 - the same model as workloads.py

SEQ, BATCH = 128, 16      # workloads.py's; --tiny makes the data smaller (the model stays)
EPOCH_STEPS = 100
CHECK_AFTER = 5           # the loss after this many steps must be below the first


class Trainer:
    """The training family's state: the batch (made once), the model and optimizer of the
    current epoch, its losses, and the first epoch's first loss."""

    def __init__(self):
        toks = torch.randint(0, VOCAB, (BATCH, SEQ + 1), generator=cpu_gen(1234)).to(DEV)
        self.x, self.y = toks[:, :-1].contiguous(), toks[:, 1:].contiguous()
        self.model = self.opt = None
        self.losses = []
        self.first_loss0 = None
        self.fused = DEV.type == "cuda" or hasattr(torch, "_fused_adamw_")

    def new_epoch(self):
        self.model = self.opt = None          # the old ones freed before the new ones exist
        torch.manual_seed(0)                  # initialised on the CPU: same weights every epoch
        self.model = GPT().to(DEV)
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=3e-3, weight_decay=0.01,
                                     fused=self.fused)
        self.losses = []

    def step(self):
        if self.model is None or len(self.losses) >= EPOCH_STEPS:
            self.new_epoch()
        with torch.autocast(DEV.type, dtype=torch.bfloat16):
            loss = self.model(self.x, self.y)
        loss.backward()
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)
        value = loss.item()
        self.losses.append(value)
        if not math.isfinite(value):
            fail(TRAIN, "loss not finite")
            return False
        if len(self.losses) == 1:
            if self.first_loss0 is None:
                self.first_loss0 = value
            elif abs(value - self.first_loss0) > 1e-3 * abs(self.first_loss0):
                fail(TRAIN, "an epoch's first loss differs from the first epoch's")
                return False
        if len(self.losses) == CHECK_AFTER + 1 and not self.losses[-1] < self.losses[0]:
            fail(TRAIN, "loss did not decrease over the first %d steps" % CHECK_AFTER)
            return False
        return True


# --------------------------------------------------------------------------- the periodic families


def small_mlp():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).to(DEV)


def graphs(it):
    """The whole-network capture of PyTorch's CUDA graphs documentation, on a fresh MLP,
    against the same steps run eagerly on another fresh MLP."""
    g = cpu_gen(it)
    x = torch.randn(32, 64, generator=g).to(DEV)
    y = torch.randint(0, 10, (32,), generator=g).to(DEV)
    warm, replays = 2, 3

    def train_step(model, opt):
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    eager = small_mlp()
    eager_opt = torch.optim.SGD(eager.parameters(), lr=0.1)
    eager_losses = [train_step(eager, eager_opt).item() for _ in range(warm + replays)]

    model = small_mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    side = SIDE
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        warm_losses = [train_step(model, opt).item() for _ in range(warm)]
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)
    with torch.cuda.graph(graph):
        static_loss = F.cross_entropy(model(x), y)
        static_loss.backward()
        opt.step()
    losses = list(warm_losses)
    for _ in range(replays):
        graph.replay()
        losses.append(static_loss.item())
    del graph, static_loss
    if not all(math.isfinite(v) for v in losses):
        fail(GRAPHS, "loss not finite")
        return False
    close = all(abs(a - b) <= 1e-4 * abs(b) + 1e-6 for a, b in zip(losses, eager_losses))
    if not close:
        fail(GRAPHS, "replayed losses differ from the eager ones")
        return False
    if not losses[-1] < losses[warm]:
        fail(GRAPHS, "replays did not lower the loss")
        return False
    return True


def cache(_it):
    torch.cuda.synchronize()
    allocated, reserved = torch.cuda.memory_allocated(), torch.cuda.memory_reserved()
    torch.cuda.empty_cache()
    if torch.cuda.memory_allocated() != allocated:
        fail(CACHE, "memory_allocated changed")
        return False
    if torch.cuda.memory_reserved() > reserved:
        fail(CACHE, "memory_reserved grew")
        return False
    return True


def streams(it):
    n = 1 << 20
    main = torch.cuda.current_stream()
    side = SIDE_HI if it % 2 else SIDE
    a = torch.arange(n, dtype=torch.int64, device=DEV)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    side.wait_stream(main)
    with torch.cuda.stream(side):
        start.record(side)
        b = a * 3
        for _ in range(8):      # some work to race against if an ordering were lost
            b = b + 1
        end.record(side)
    main.wait_event(end)
    b.record_stream(main)
    total = int(b.sum().item())
    del b
    end.synchronize()
    if total != 3 * (n * (n - 1) // 2) + 8 * n:
        fail(STREAMS, "wrong sum")
        return False
    if not start.elapsed_time(end) >= 0:
        fail(STREAMS, "negative elapsed time")
        return False
    if not (end.query() and side.query()):
        fail(STREAMS, "event or stream not complete after synchronize")
        return False
    return True


def pinned(it):
    n = (1 << 17) << (it % 5)                  # 1 to 16 MiB of int64
    host = torch.arange(n, dtype=torch.int64).pin_memory()
    dev = host.to(DEV, non_blocking=True)
    back = torch.empty(n, dtype=torch.int64, pin_memory=True)
    back.copy_(dev * 2 + 1, non_blocking=True)
    torch.cuda.current_stream().synchronize()
    if not (host.is_pinned() and back.is_pinned()):
        fail(PINNED, "not pinned")
        return False
    if not torch.equal(back, host * 2 + 1):
        fail(PINNED, "wrong values")
        return False
    return True


# --------------------------------------------------------------------------- samples


def status_field(name):
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(name + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return -1


def open_fds():
    try:
        return len(os.listdir("/proc/self/fd")) - 1   # the listing's own descriptor
    except OSError:
        return -1


def sample(seconds):
    used_kb = -1
    if DEV.type == "cuda":
        try:
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
            if hasattr(torch._C, "_host_emptyCache"):     # the pinned blocks cached
                torch._C._host_emptyCache()
            free, total = torch.cuda.mem_get_info()
            used_kb = (total - free) >> 10
        except Exception:  # noqa: BLE001 - a sample never stops the soak
            traceback.print_exc(file=sys.stderr)
    # Read last, so that the descriptor and the memory of the reads above are not counted
    # at one sample and not at the next.
    sys.stderr.write("soak sample %.1f rss_kb %d device_used_kb %d fds %d threads %d\n"
                     % (seconds, status_field("VmRSS"), used_kb, open_fds(),
                        status_field("Threads")))
    sys.stderr.flush()


def watchdog():
    sys.stdout.write("FAIL soak_torch: not finished in time (hang?)\n")
    sys.stdout.flush()
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    os._exit(1)


def env_float(name, default):
    try:
        v = float(os.environ.get(name) or default)
    except ValueError:
        return default
    return v if v > 0 else default


def main():
    global DEV, BATCH, SEQ, EPOCH_STEPS, SIDE, SIDE_HI
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--tiny", action="store_true",
                    help="a tiny batch and 8-step epochs: for trying the logic on a CPU")
    args = ap.parse_args()
    if args.tiny:
        BATCH, SEQ, EPOCH_STEPS = 2, 16, 8
    if args.device == "cuda" and not torch.cuda.is_available():
        print("soak_torch: no CUDA GPU here", flush=True)
        return 2
    DEV = torch.device("cuda:0" if args.device == "cuda" else "cpu")
    seconds = env_float("SOAK_SECONDS", 300)
    every_s = env_float("SOAK_SAMPLE_S", 5)
    every = max(1, int(env_float("SOAK_EVERY", 10)))
    timer = threading.Timer(env_float("SOAK_TIMEOUT_S", seconds + 120), watchdog)
    timer.daemon = True
    timer.start()

    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    if DEV.type == "cuda":
        SIDE, SIDE_HI = torch.cuda.Stream(), torch.cuda.Stream(priority=-1)
    trainer = Trainer()
    periodic = [(GRAPHS, graphs), (CACHE, cache), (STREAMS, streams), (PINNED, pinned)]

    start = time.monotonic()
    elapsed, next_sample, it = 0.0, 0.0, 0
    while True:
        run_family(TRAIN, trainer.step)
        if DEV.type == "cuda" and it % every == 0:
            for f, fn in periodic:
                run_family(f, fn, it // every)
        it += 1
        elapsed = time.monotonic() - start
        if elapsed >= next_sample:        # the first after one iteration: all loaded by then
            sample(elapsed)
            next_sample = elapsed + every_s
        if elapsed >= seconds:
            break
    sample(elapsed)
    sys.stderr.write("soak iterations %d in %.1f s\n" % (it, elapsed))
    sys.stderr.flush()
    timer.cancel()

    ok = True
    for f, name in enumerate(FAMILY_NAMES):
        if DEV.type != "cuda" and f in CUDA_ONLY:
            print("%s: SKIPPED" % name)
            continue
        good = failures[f] == 0 and done[f] > 0
        print("%s: %s" % (name, "PASS" if good else "FAIL"))
        ok &= good
    print("soak_torch: %s" % ("PASS" if ok else "FAIL"), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
