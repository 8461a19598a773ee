#!/usr/bin/env python3
"""JAX smoke test on the GPU, run under both CUDA runtimes.

What it checks: that JAX still finds the GPU and computes the same results when minicudart's
libcudart.so.13 is preloaded into the process. JAX's CUDA plugin (jax-cuda13-plugin/pjrt)
carries its own runtime linkage, so this is a smoke test of coexistence: whether JAX's
kernels actually go through minicudart is something run.sh reports separately (from the
trace / loaded libraries), not this script.

Sections: jax_devices (platform, count, device kind), jax_matmul (jitted matmul + reductions
on jax.random.PRNGKey(0) data), jax_conv (a convolution, which XLA hands to cuDNN),
jax_transfer (host <-> device round trip, exact), jax_mlp (a tiny MLP trained with plain
jax.grad SGD), jax_optax (the same with optax.adam when optax is installed).

How it is run: by tests/frameworks/run.sh on the GPU machine, once on NVIDIA's runtime and
once with minicudart's libcudart.so.13 preloaded; compare.py compares the outputs line by
line. Locally (no GPU): `python3 jax_smoke.py --device cpu`.

Output protocol (stdout): one line per result,
    RESULT <name> <key>=<value> [<key>=<value> ...] [rtol=<x>]
values are integers, strings (no spaces) or floats printed as %.6e; rtol= (optional, last)
is the relative tolerance for the float values of that line, absent = exact. A section that
raises prints `RESULT <name> error=<ExceptionType>` and the script goes on; the traceback
goes to stderr. The last line is `JAX DONE`; every other line is ignored by the comparison.
Floats get rtol=1e-4: fp32 with matmul precision HIGHEST (no TF32), but XLA/cuBLAS/cuDNN may
still choose a different algorithm with a different summation order.
"""

import os
import sys

# Before jax is imported: do not grab 75% of the GPU up front (PyTorch or the other run
# may share the device), and on --device cpu keep JAX off the GPU plugin entirely.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
if "--device" in sys.argv and sys.argv[sys.argv.index("--device") + 1:][:1] == ["cpu"]:
    os.environ["JAX_PLATFORMS"] = "cpu"

import argparse
import time
import traceback

import jax
import jax.numpy as jnp
import numpy as np

HIGHEST = jax.lax.Precision.HIGHEST
ERRORS = []


def fmt(v):
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return "%.6e" % float(v)
    if hasattr(v, "shape") and v.shape == ():  # a 0-d jax or numpy array
        return fmt(v.item())
    return str(v).replace(" ", "_")


def result(name, fields, rtol=None):
    parts = ["RESULT", name] + ["%s=%s" % (k, fmt(v)) for k, v in fields.items()]
    if rtol is not None:
        parts.append("rtol=%g" % rtol)
    print(" ".join(parts), flush=True)


def run_section(name, fn):
    t0 = time.time()
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - report and go on
        ERRORS.append(name)
        result(name, {"error": type(e).__name__})
        traceback.print_exc(file=sys.stderr)
    print("# section %s took %.1f s" % (name, time.time() - t0), flush=True)


def devices():
    devs = jax.devices()
    result("jax_devices", {"platform": devs[0].platform, "count": len(devs),
                           "backend": jax.default_backend()})
    result("jax_device_kind", {"kind": devs[0].device_kind})


def matmul():
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    a = jax.random.normal(k1, (512, 512), jnp.float32)
    b = jax.random.normal(k2, (512, 512), jnp.float32)

    @jax.jit
    def f(a, b):
        c = jnp.matmul(a, b, precision=HIGHEST)
        # Absolute/squared sums: a signed sum of random data is near 0, where a relative
        # tolerance means nothing.
        return jnp.abs(c).sum(), (c * c).sum(), jnp.abs(c).max()

    abs_sum, sq_sum, amax = (x.block_until_ready() for x in f(a, b))
    result("jax_matmul", {"a_abs": jnp.abs(a).sum(), "abs": abs_sum, "sq": sq_sum,
                          "max": amax}, 1e-4)


def conv():
    k1, k2 = jax.random.split(jax.random.PRNGKey(1))
    x = jax.random.normal(k1, (8, 16, 32, 32), jnp.float32)  # NCHW
    w = jax.random.normal(k2, (32, 16, 3, 3), jnp.float32)  # OIHW
    f = jax.jit(lambda x, w: jax.lax.conv_general_dilated(
        x, w, (1, 1), "SAME", precision=HIGHEST))
    y = f(x, w).block_until_ready()
    result("jax_conv", {"shape": "x".join(map(str, y.shape)), "abs": jnp.abs(y).sum()}, 1e-4)


def transfer():
    host = np.arange(1 << 20, dtype=np.int32)
    dev = jax.device_put(host)
    back = np.asarray(jax.jit(lambda v: v * 3 + 1)(dev))
    result("jax_transfer", {"sum": int(back.astype(np.int64).sum()),
                            "equal": bool((back == host * 3 + 1).all())})


def mlp_setup():
    k = jax.random.PRNGKey(0)
    k1, k2, k3, k4 = jax.random.split(k, 4)
    params = {
        "w1": jax.random.normal(k1, (32, 64)) * (1 / np.sqrt(32)), "b1": jnp.zeros(64),
        "w2": jax.random.normal(k2, (64, 4)) * (1 / np.sqrt(64)), "b2": jnp.zeros(4),
    }
    x = jax.random.normal(k3, (256, 32))
    y = jax.random.randint(k4, (256,), 0, 4)

    def loss_fn(p, x, y):
        h = jnp.tanh(jnp.dot(x, p["w1"], precision=HIGHEST) + p["b1"])
        logits = jnp.dot(h, p["w2"], precision=HIGHEST) + p["b2"]
        logp = jax.nn.log_softmax(logits)
        return -jnp.take_along_axis(logp, y[:, None], axis=1).mean()

    return params, x, y, loss_fn


def losses_fields(losses, params):
    fields = {"steps": len(losses)}
    for i, l in enumerate(losses):
        fields["loss%d" % i] = float(l)
    fields["param_abs"] = float(sum(jnp.abs(v).sum() for v in jax.tree_util.tree_leaves(params)))
    return fields


def mlp_sgd():
    params, x, y, loss_fn = mlp_setup()

    @jax.jit
    def step(p, x, y):
        loss, g = jax.value_and_grad(loss_fn)(p, x, y)
        return jax.tree_util.tree_map(lambda a, b: a - 0.5 * b, p, g), loss

    losses = []
    for _ in range(8):
        params, loss = step(params, x, y)
        losses.append(float(loss))
    result("jax_mlp", losses_fields(losses, params), 1e-4)


def mlp_optax():
    try:
        import optax
    except ImportError:
        result("jax_optax", {"skipped": "no_optax"})
        return
    params, x, y, loss_fn = mlp_setup()
    opt = optax.adam(1e-2)
    state = opt.init(params)

    @jax.jit
    def step(p, s, x, y):
        loss, g = jax.value_and_grad(loss_fn)(p, x, y)
        upd, s = opt.update(g, s, p)
        return optax.apply_updates(p, upd), s, loss

    losses = []
    for _ in range(8):
        params, state, loss = step(params, state, x, y)
        losses.append(float(loss))
    result("jax_optax", losses_fields(losses, params), 1e-4)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="gpu", choices=["gpu", "cpu"])
    ap.parse_args()
    print("# jax %s" % jax.__version__, flush=True)
    for name, fn in [("jax_devices", devices), ("jax_matmul", matmul), ("jax_conv", conv),
                     ("jax_transfer", transfer), ("jax_mlp", mlp_sgd),
                     ("jax_optax", mlp_optax)]:
        run_section(name, fn)
    print("# %d section(s) raised: %s" % (len(ERRORS), " ".join(ERRORS) or "-"), flush=True)
    print("JAX DONE", flush=True)


if __name__ == "__main__":
    main()
