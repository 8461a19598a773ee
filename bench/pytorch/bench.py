#!/usr/bin/env python3
"""One round of the PyTorch benchmark: what a PyTorch user feels of the CUDA runtime.

Run by bench/pytorch/run.sh once per round and runtime (NVIDIA's libcudart.so.13 as installed,
or minicudart's preloaded); prints one line

    PTBENCH import_ms=.. first_kernel_ms=.. op_us=.. step_ms=.. loss=..

  import_ms        `import torch` (its libraries load; their constructors register every fatbin
                   with the runtime)
  first_kernel_ms  from the start of this script (before the import) to the first kernel done:
                   import, driver start, context, the first module load
  op_us            eager x.add_(1) on a small tensor, per op (host-bound: the launch path of the
                   runtime under ATen's dispatcher), OPS ops after a warm-up
  step_ms          one training step of a small GPT-style transformer with bf16 autocast and
                   fused AdamW, the median of STEPS steps after warm-up
  loss             the last step's loss (both runtimes must train the same model the same way)
"""

import os
import time

T0 = time.perf_counter()
import torch  # noqa: E402

T_IMPORT = time.perf_counter()
import torch.nn as nn  # noqa: E402

OPS = int(os.environ.get("PTBENCH_OPS", "20000"))
STEPS = int(os.environ.get("PTBENCH_STEPS", "30"))


def first_kernel():
    x = torch.ones(16, device="cuda")
    x.add_(1)
    torch.cuda.synchronize()
    return time.perf_counter()


def eager_op_us():
    x = torch.zeros(256, device="cuda")
    for _ in range(1000):
        x.add_(1)
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(OPS):
        x.add_(1)
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / OPS * 1e6


class GPT(nn.Module):
    def __init__(self, vocab=512, dim=256, heads=8, layers=4, seq=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(seq, dim))
        layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.0, batch_first=True,
                                           norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(dim, vocab)
        self.mask = nn.Transformer.generate_square_subsequent_mask(seq)

    def forward(self, idx):
        h = self.tok(idx) + self.pos[: idx.shape[1]]
        h = self.blocks(h, mask=self.mask.to(idx.device), is_causal=True)
        return self.head(h)


def train_step_ms():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    model = GPT().cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
    data = torch.randint(0, 512, (16, 129), generator=g).cuda()
    x, y = data[:, :-1], data[:, 1:]
    times, loss = [], None
    for i in range(STEPS + 5):
        torch.cuda.synchronize()
        t = time.perf_counter()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = model(x)
            loss = nn.functional.cross_entropy(logits.float().reshape(-1, 512), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        torch.cuda.synchronize()
        if i >= 5:
            times.append(time.perf_counter() - t)
    times.sort()
    return times[len(times) // 2] * 1e3, float(loss.item())


def main():
    t_first = first_kernel()
    op = eager_op_us()
    step, loss = train_step_ms()
    print("PTBENCH import_ms=%.1f first_kernel_ms=%.1f op_us=%.3f step_ms=%.3f loss=%.4f"
          % ((T_IMPORT - T0) * 1e3, (t_first - T0) * 1e3, op, step, loss), flush=True)


if __name__ == "__main__":
    main()
