"""The TPU model runner after the fix: the per-request sampling parameters live in CPU tensors, the slots
past `num_reqs` are filled with neutral defaults on the host, and the whole padded tensor is copied to the
device; the model always sees the padded batch, so the graph is the same for every request count.

Source: https://github.com/vllm-project/vllm/pull/15309 ("[TPU][V1] Fix Sampler recompilation": "I had to move
the sampling pre-processing (slicing) from on device to host").
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
        self.device = device
        self.temperature_cpu = torch.ones(max_reqs)
        self.top_k_cpu = torch.full((max_reqs,), 64, dtype=torch.long)

    @torch.no_grad()
    def sample(self, ids, num_reqs):
        self.temperature_cpu[num_reqs:] = 1.0
        self.top_k_cpu[num_reqs:] = 64
        temperature = self.temperature_cpu.to(self.device)
        top_k = self.top_k_cpu.to(self.device)
        logits = self.model(ids) / temperature.unsqueeze(-1)
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
