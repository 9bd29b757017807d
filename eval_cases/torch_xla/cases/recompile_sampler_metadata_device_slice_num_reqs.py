"""A TPU model runner that keeps persistent per-request sampling tensors on the device and slices them
to the live request count before sampling: `temperature[:num_reqs]`, `top_k[:num_reqs]`. `num_reqs` is a
Python int that changes from step to step, so every new count traces a new graph and compiles again.

Source: https://github.com/vllm-project/vllm/pull/15309 ("[TPU][V1] Fix Sampler recompilation": the on-device
slicing inside `_make_sampling_metadata` recompiled "depending on the number of reqs being scheduled"; the
fix moved the slicing to the host and copies padded tensors).
"""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=64, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        return self.head(torch.tanh(self.emb(ids).mean(1)))


class TPURunner:
    def __init__(self, model, device, max_reqs=8):
        self.model = model
        self.temperature = torch.ones(max_reqs, device=device)
        self.top_k = torch.full((max_reqs,), 64, dtype=torch.long, device=device)

    @torch.no_grad()
    def sample(self, ids, num_reqs):
        logits = self.model(ids[:num_reqs])  # XLA: recompile
        temperature = self.temperature[:num_reqs]
        top_k = self.top_k[:num_reqs]
        logits = logits / temperature.unsqueeze(-1)
        kth = logits.sort(dim=-1, descending=True).values.gather(-1, (top_k - 1).unsqueeze(-1))
        return logits.masked_fill(logits < kth, float("-inf")).argmax(-1)


# --- oracle ---
def _batch(device, seed, num_reqs):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 64, (8, 5), generator=g).to(device), num_reqs


def ENTRY(device):
    runner = TPURunner(TinyLM().to(device), device)
    return runner.sample, _batch(device, 0, 4)


def ALT_ARGS(device):
    return [_batch(device, s, n) for s, n in ((1, 3), (2, 7), (3, 5))]
