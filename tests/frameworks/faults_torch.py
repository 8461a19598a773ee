#!/usr/bin/env python3
"""faults_torch.py - PyTorch under faults (issue 18): the same transcript on both runtimes.

What it checks: that the failures a PyTorch program meets, and what it can do after them, come
out the same on minicudart's libcudart.so.13 as on NVIDIA's. Cases (each independent):

  oom_step      out of memory in the middle of a training step: a wide embedding model whose
                first activation, for a huge batch of tokens, is alone more than 1.2 times the
                GPU's total memory (sizes from get_device_properties(0).total_memory; the token
                tensors stay small), so that one cudaMalloc fails at once and nothing else on
                the GPU is squeezed. torch.OutOfMemoryError raised; num_ooms up by one;
                memory_allocated back to what it was; then empty_cache and the training goes
                on with the small batch: losses finite, lower after 3 steps, and bitwise equal
                to a second run in the same process that never met the OOM
  oom_raw       torch.empty of twice the total memory: OutOfMemoryError, and the process still
                works afterwards (a 1 GiB tensor filled and checked)
  dataloader    a DataLoader with num_workers=2, multiprocessing_context="fork", started after
                CUDA is initialised in the parent: the workers do CPU work only; the parent
                moves the pinned batches (pin_memory=True) to the GPU with non_blocking=True;
                the sums checked exactly
  fork_child    a child made with os.fork() after CUDA is initialised: what is_available() and
                device_count() say there, the exception type of a CUDA op (PyTorch's
                "Cannot re-initialize CUDA in forked subprocess"), what the runtime itself
                answers to cudaGetDeviceCount there (through ctypes), and its exit code
  capture_*     a stream capture that fails part-way: inside torch.cuda.graph(...), a .item()
                or torch.cuda.synchronize(), in several capture_error_modes: the exception
                types raised (and the CUDA error string in their message), then the stream is
                no longer capturing, and a new capture of a small op replays correctly
(A device-side assert or an illegal address is not here: tests/gpu/ covers those in C.)

How it is run: on the GPU machine, once as installed (NVIDIA's runtime) and once with
minicudart's libcudart.so.13 in LD_PRELOAD; the two stdouts are diffed line by line:
    python3 tests/frameworks/faults_torch.py > faults.<runtime>.out
Locally (no GPU): `python3 faults_torch.py --device cpu` runs the parts that can run on the
CPU (the training reference, the DataLoader without pinning, the fork child) and prints
`RESULT <case> skipped=cpu` for the rest: it exercises the logic, nothing more.
--only CASE[,CASE] runs some cases.

Output protocol (stdout): one line per check,
    RESULT <case> <key>=<value>
values are booleans, integers or names (no spaces; never an address, a size that depends on
the machine, a timing or an exception's message, except the CUDA error string that PyTorch
puts after "CUDA error: ", which is fixed text); a case that raises where it should not prints
`RESULT <case> error=<ExceptionType>` and the script goes on with the next case (traceback on
stderr). The last line is `FAULTS DONE`. Exit status 0 unless the script itself breaks; 2
with --device cuda (the default) where PyTorch sees no GPU.
Notes and tracebacks go to stderr only, so that the whole stdout can be diffed.

Determinism: fixed seeds, models initialised and data generated on the CPU, deterministic
algorithms, CUBLAS_WORKSPACE_CONFIG set before torch is imported.
"""

import os

# Must be set before torch (and its cuBLAS handle) is created.
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import argparse
import ctypes
import gc
import math
import re
import select
import signal
import sys
import time
import traceback

import torch
import torch.nn as nn
import torch.nn.functional as F

DEV = None


def fmt(v):
    if isinstance(v, BaseException):
        return type(v).__name__
    return str(v).replace(" ", "_").replace("\n", "_")


def check(case, key, value):
    print("RESULT %s %s=%s" % (case, key, fmt(value)), flush=True)


def note(text):
    sys.stderr.write("# %s\n" % text)
    sys.stderr.flush()


def cuda_error_text(e):
    """The fixed text PyTorch puts after "CUDA error: " (cudaGetErrorString), or none."""
    m = re.search(r"CUDA error: ([^\n]*)", str(e)) if e is not None else None
    return m.group(1).strip() if m else "none"


def case(name, cuda_only=False):
    def deco(fn):
        def wrapper():
            if cuda_only and DEV.type != "cuda":
                check(name, "skipped", "cpu")
                return
            torch.manual_seed(0)
            t0 = time.time()
            try:
                fn(name)
                if DEV.type == "cuda":
                    torch.cuda.synchronize()
            except Exception as e:  # noqa: BLE001 - report and go on
                check(name, "error", e)
                traceback.print_exc(file=sys.stderr)
            note("case %s took %.1f s" % (name, time.time() - t0))

        wrapper.case_name = name
        return wrapper

    return deco


def cpu_gen(seed):
    return torch.Generator().manual_seed(seed)


def stat(key):
    return torch.cuda.memory_stats().get(key, 0)


# --------------------------------------------------------------------------- (a) out of memory

VOCAB, WIDE, CLASSES, SMALL_TOKENS = 1024, 4096, 16, 4096


class Wide(nn.Module):
    """Tokens -> a WIDE embedding (the first activation: tokens x WIDE x 4 bytes) -> classes."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, WIDE)
        self.fc = nn.Linear(WIDE, CLASSES)

    def forward(self, idx, y):
        return F.cross_entropy(self.fc(F.gelu(self.emb(idx))), y)


def tokens(n, seed):
    """n random tokens and their classes (token % CLASSES: something to learn), made on the
    CPU."""
    idx = torch.randint(0, VOCAB, (n,), generator=cpu_gen(seed))
    return idx.to(DEV), (idx % CLASSES).to(DEV)


def train_step(model, opt, batch):
    opt.zero_grad(set_to_none=True)
    loss = model(*batch)
    loss.backward()
    opt.step()
    return loss.item()


def huge_step(model, opt, n):
    """One training step on n tokens, which must fail with OutOfMemoryError: the type name,
    or "none". Its own frame, so that nothing of the failed step outlives it."""
    big = tokens(n, 77)
    try:
        train_step(model, opt, big)
        return "none"
    except torch.OutOfMemoryError as e:
        return type(e).__name__


def wide_run(with_oom, name=None):
    """Small step, [huge step -> OOM], 3 small steps; returns the 4 losses."""
    torch.manual_seed(0)
    model = Wide().to(DEV)           # initialised on the CPU first
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    small = tokens(SMALL_TOKENS, 5)
    losses = [train_step(model, opt, small)]
    if with_oom:
        total = torch.cuda.get_device_properties(0).total_memory
        n = int(1.2 * total) // (WIDE * 4) + 1024     # the embedding's output alone > 1.2x
        note("huge batch: %d tokens (%.1f GiB of input), first activation %.1f GiB, total %.1f GiB"
             % (n, 2 * n * 8 / 2**30, n * WIDE * 4 / 2**30, total / 2**30))
        torch.cuda.synchronize()
        allocated0, ooms0, retries0 = torch.cuda.memory_allocated(), stat("num_ooms"), \
            stat("num_alloc_retries")
        raised = huge_step(model, opt, n)
        gc.collect()
        check(name, "raised", raised)
        check(name, "num_ooms_delta", stat("num_ooms") - ooms0)
        check(name, "num_alloc_retries_delta", stat("num_alloc_retries") - retries0)
        check(name, "allocated_back", torch.cuda.memory_allocated() == allocated0)
        torch.cuda.empty_cache()
        check(name, "reserved_ge_allocated_after_empty_cache",
              torch.cuda.memory_reserved() >= torch.cuda.memory_allocated())
    for _ in range(3):
        losses.append(train_step(model, opt, small))
    return losses


@case("oom_step")
def oom_step(name):
    if DEV.type == "cuda":
        losses = wide_run(True, name)
    else:
        check(name, "huge_batch", "skipped_cpu")
        losses = wide_run(False)
    reference = wide_run(False)
    check(name, "losses_finite", all(math.isfinite(v) for v in losses))
    check(name, "loss_decreased_after_3_steps", losses[-1] < losses[0])
    check(name, "losses_bitwise_equal_to_run_without_oom", losses == reference)


@case("oom_raw", cuda_only=True)
def oom_raw(name):
    total = torch.cuda.get_device_properties(0).total_memory
    ooms0 = stat("num_ooms")
    raised = "none"
    try:
        t = torch.empty(2 * total, dtype=torch.uint8, device=DEV)
        del t
    except torch.OutOfMemoryError as e:
        raised = type(e).__name__
    check(name, "raised", raised)
    check(name, "num_ooms_delta", stat("num_ooms") - ooms0)
    # The process still works: a fresh 1 GiB segment, filled and read back.
    t = torch.empty(1 << 30, dtype=torch.uint8, device=DEV)
    t.fill_(7)
    check(name, "after_1gib_sum_ok", int(t[: 1 << 20].sum(dtype=torch.int64).item()) == 7 << 20)
    check(name, "after_small_op", int(torch.ones(1 << 20, device=DEV).sum().item()))
    del t
    torch.cuda.empty_cache()


# --------------------------------------------------------------------------- (b) fork


class Rows(torch.utils.data.Dataset):
    """Item i: arange(256) * i, computed on the CPU in the worker, and the worker's pid."""

    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.arange(256, dtype=torch.int64) * i, os.getpid()


@case("dataloader")
def dataloader(name):
    if DEV.type == "cuda":
        torch.cuda.init()
        torch.ones(1, device=DEV).sum().item()     # CUDA in use in the parent before the fork
    pin = DEV.type == "cuda"
    loader = torch.utils.data.DataLoader(Rows(), batch_size=8, num_workers=2, pin_memory=pin,
                                         multiprocessing_context="fork", shuffle=False)
    total, batches, all_pinned, pids = 0, 0, True, set()
    for rows, pid in loader:
        all_pinned &= rows.is_pinned() == pin
        total += int(rows.to(DEV, non_blocking=True).sum().item())
        pids.update(int(p) for p in pid)
        batches += 1
    check(name, "batches", batches)
    check(name, "sum_ok", total == (63 * 64 // 2) * (255 * 256 // 2))
    check(name, "pinned_as_asked", all_pinned)
    check(name, "worker_processes", len(pids - {os.getpid()}))
    check(name, "parent_after", int(torch.arange(100, device=DEV).sum().item()))


def child_probe(w):
    """In the forked child: one line per probe, written at once (a hang keeps the earlier)."""

    def out(key, fn):
        try:
            value = fn()
        except Exception as e:  # noqa: BLE001
            value = "raised_" + type(e).__name__
            if key == "cuda_op":
                os.write(w, ("cuda_op_reinit_message=%s\n"
                             % ("Cannot re-initialize CUDA in forked subprocess" in str(e))).encode())
        os.write(w, ("%s=%s\n" % (key, fmt(value))).encode())

    out("is_available", torch.cuda.is_available)
    out("device_count", torch.cuda.device_count)
    out("cuda_op", lambda: int(torch.ones(4, device="cuda").sum().item()))

    def raw_count():
        # The runtime that the process loaded (minicudart's under LD_PRELOAD: same SONAME).
        lib = ctypes.CDLL("libcudart.so.13")
        count = ctypes.c_int(-1)
        rc = lib.cudaGetDeviceCount(ctypes.byref(count))
        return "rc%d_count%d" % (rc, count.value if rc == 0 else -1)

    out("raw_cudaGetDeviceCount", raw_count)


@case("fork_child")
def fork_child(name):
    if DEV.type == "cuda":
        torch.ones(1, device=DEV).sum().item()     # CUDA in use in the parent before the fork
        torch.cuda.device_count()
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # the child: never returns
        code = 0
        try:
            os.close(r)
            child_probe(w)
        except BaseException:  # noqa: BLE001
            code = 3
        finally:
            os._exit(code)
    os.close(w)
    data, deadline, status = b"", time.time() + 60, None
    while True:
        ready, _, _ = select.select([r], [], [], max(0.0, deadline - time.time()))
        if not ready:
            break
        chunk = os.read(r, 4096)
        if not chunk:
            break
        data += chunk
    os.close(r)
    while time.time() < deadline:
        done_pid, st = os.waitpid(pid, os.WNOHANG)
        if done_pid == pid:
            status = st
            break
        time.sleep(0.05)
    if status is None:                             # our own child, by its pid
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    for line in data.decode(errors="replace").splitlines():
        key, _, value = line.partition("=")
        check(name, key, value)
    if status is None:
        check(name, "child_exit", "killed_after_60s")
    elif os.WIFEXITED(status):
        check(name, "child_exit", os.WEXITSTATUS(status))
    else:
        check(name, "child_exit", "signal%d" % os.WTERMSIG(status))
    check(name, "parent_after", int(torch.arange(100, device=DEV).sum().item()))


# --------------------------------------------------------------------------- (d) failed capture


def capture_fails(name, mode, what):
    main = torch.cuda.current_stream()
    x = torch.ones(1024, device=DEV)
    graph = torch.cuda.CUDAGraph()
    raised = first = None
    # torch.cuda.graph's __exit__ leaves its capture stream current when capture_end raises;
    # the outer context puts the main stream back whatever happens inside.
    with torch.cuda.stream(main):
        try:
            with torch.cuda.graph(graph, capture_error_mode=mode):
                y = x * 2
                if what == "item":
                    y.sum().item()
                else:
                    torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001
            raised, first = e, e.__context__
            traceback.print_exc(file=sys.stderr)
        left_on_capture_stream = torch.cuda.current_stream() != main
        capturing_inside = torch.cuda.is_current_stream_capturing()
    check(name, "raised", raised if raised is not None else "none")
    check(name, "raised_cuda_error", cuda_error_text(raised))
    check(name, "first", first if first is not None else "none")
    check(name, "first_cuda_error", cuda_error_text(first))
    check(name, "left_on_capture_stream", left_on_capture_stream)
    check(name, "capturing_on_that_stream", capturing_inside)
    check(name, "main_stream_current_after", torch.cuda.current_stream() == main)
    check(name, "capturing_after", torch.cuda.is_current_stream_capturing())
    del graph, raised, first
    gc.collect()
    torch.cuda.synchronize()

    # The next capture, on the same (class-wide) capture stream, works.
    static = torch.ones(1024, device=DEV)
    side = torch.cuda.Stream()
    side.wait_stream(main)
    with torch.cuda.stream(side):
        static * 2 + 1                            # warm-up, as PyTorch's docs do
    main.wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = static * 2 + 1
    graph.replay()
    first_ok = bool((out == 3).all().item())
    static.fill_(5)
    graph.replay()
    second_ok = bool((out == 11).all().item())
    check(name, "next_capture_replays_ok", first_ok and second_ok)
    check(name, "capturing_after_next", torch.cuda.is_current_stream_capturing())
    del graph, out
    check(name, "plain_op_after", int(torch.arange(100, device=DEV).sum().item()))


@case("capture_item_global", cuda_only=True)
def capture_item_global(name):
    capture_fails(name, "global", "item")


@case("capture_item_relaxed", cuda_only=True)
def capture_item_relaxed(name):
    capture_fails(name, "relaxed", "item")


@case("capture_sync_global", cuda_only=True)
def capture_sync_global(name):
    capture_fails(name, "global", "synchronize")


@case("capture_sync_thread_local", cuda_only=True)
def capture_sync_thread_local(name):
    capture_fails(name, "thread_local", "synchronize")


CASES = [oom_step, oom_raw, dataloader, fork_child, capture_item_global, capture_item_relaxed,
         capture_sync_global, capture_sync_thread_local]


def main():
    global DEV
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--only", default="", help="comma-separated case names to run")
    args = ap.parse_args()
    if args.device == "cuda" and not torch.cuda.is_available():
        print("faults_torch: no CUDA GPU here", flush=True)
        return 2
    DEV = torch.device("cuda:0" if args.device == "cuda" else "cpu")
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    torch.use_deterministic_algorithms(True, warn_only=True)
    note("torch %s cuda %s device %s" % (torch.__version__, torch.version.cuda, DEV))
    only = set(filter(None, args.only.split(",")))
    for c in CASES:
        if not only or c.case_name in only:
            c()
    print("FAULTS DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
