#!/usr/bin/env python3
"""dlopen(libtorch_cuda.so) under NVIDIA's runtime and under minicudart, in fresh processes.

    python3 bench/pytorch/dlopen.py MINICUDART_LIBCUDART [ROUNDS]

libtorch_cuda.so's constructors register its fatbins and kernels with the runtime (about 450
and 21,500 in PyTorch 2.11): that registration is the part of the load a runtime decides.  Each
child first loads, RTLD_GLOBAL, the runtime (NVIDIA's libcudart.so.13 from the wheel's nvidia
package, or minicudart's) and libtorch_cuda.so's PyTorch dependencies (libc10.so,
libtorch_cpu.so), so that only libtorch_cuda.so and what it alone needs (cuBLAS, cuDNN, ... the
same for both) are timed.  Rounds alternate the order; each round's two loads are a pair, and the
last lines are bench/stats.py's report: medians, spreads, the median of the per-round ratios
with its 95% interval, and whether the two runtimes are separated at all.
"""

import ctypes
import glob
import os
import statistics
import subprocess
import sys
import time


def torch_lib_dir():
    import importlib.util

    spec = importlib.util.find_spec("torch")
    return os.path.join(os.path.dirname(spec.origin), "lib")


def nvidia_cudart():
    site = os.path.dirname(os.path.dirname(torch_lib_dir()))
    found = sorted(glob.glob(os.path.join(site, "nvidia", "**", "libcudart.so.13"), recursive=True))
    return found[0] if found else "libcudart.so.13"


def child(runtime):
    lib = torch_lib_dir()
    ctypes.CDLL(runtime, mode=ctypes.RTLD_GLOBAL)
    for dep in ("libc10.so", "libtorch_cpu.so"):
        ctypes.CDLL(os.path.join(lib, dep), mode=ctypes.RTLD_GLOBAL)
    t = time.perf_counter()
    ctypes.CDLL(os.path.join(lib, "libtorch_cuda.so"), mode=ctypes.RTLD_GLOBAL)
    print("DLOPEN_MS %.2f" % ((time.perf_counter() - t) * 1e3), flush=True)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
        return
    mini = os.path.realpath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    runtimes = {"nvidia": nvidia_cudart(), "minicudart": mini}
    print("# NVIDIA's runtime: %s" % runtimes["nvidia"])
    times = {k: [] for k in runtimes}
    for r in range(rounds):
        order = ["nvidia", "minicudart"] if r % 2 == 0 else ["minicudart", "nvidia"]
        got = {}
        for name in order:
            out = subprocess.run([sys.executable, __file__, "--child", runtimes[name]],
                                 capture_output=True, text=True, timeout=120).stdout
            ms = [float(l.split()[1]) for l in out.splitlines() if l.startswith("DLOPEN_MS")]
            if ms:
                got[name] = ms[0]
            print("round %d %s %s" % (r + 1, name, "%.1f ms" % ms[0] if ms else "failed"))
        if len(got) == 2:   # a round counts only as a pair
            for name in runtimes:
                times[name].append(got[name])
    if len(times["nvidia"]) < 2:
        print("dlopen(libtorch_cuda.so): fewer than 2 complete rounds")
        sys.exit(1)
    a, b = statistics.median(times["nvidia"]), statistics.median(times["minicudart"])
    print("dlopen(libtorch_cuda.so): NVIDIA %.1f ms, minicudart %.1f ms (medians of %d pairs): "
          "ratio %.3fx" % (a, b, len(times["nvidia"]), b / a))
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import stats
    print(stats.report(stats.compare(times["nvidia"], times["minicudart"]),
                       name="dlopen(libtorch_cuda.so) ms", labels=("NVIDIA", "minicudart")))


if __name__ == "__main__":
    main()
