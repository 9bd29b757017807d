"""The `torch.compile(backend="openxla")` serving loop of pytorch/xla#7614 with the batch padded up
to a fixed bucket before the call: whatever number of sequences a request carries, the compiled
model always sees the same input shape, and the padding rows are dropped afterwards.

Source: https://github.com/pytorch/xla/issues/7614 (vLLM on TPU pre-compiling input shapes; padding to a fixed
set of sizes keeps one graph per bucket).
"""
import torch
import torch.nn as nn


class TinyEncoder(nn.Module):
    def __init__(self, vocab=64, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.ff = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d))
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids):
        h = self.emb(input_ids)
        return self.head(h + self.ff(h))


def collate_to_bucket(seqs, bucket=8):
    """Host-side collate: stack the requests and pad the batch up to the bucket size."""
    ids = torch.stack(seqs)
    return torch.cat([ids, ids.new_zeros(bucket - ids.size(0), ids.size(1))])


class Runner:
    def __init__(self, model, device):
        self.model = torch.compile(model, backend="openxla") if device.type == "xla" else model

    @torch.no_grad()
    def execute(self, input_ids):
        logits = self.model(input_ids)
        return logits[:, -1].argmax(-1)


# --- oracle ---
def _requests(device, seed, n_seqs):
    g = torch.Generator().manual_seed(seed)
    seqs = list(torch.randint(0, 64, (n_seqs, 16), generator=g))
    return (collate_to_bucket(seqs).to(device),)


def ENTRY(device):
    return Runner(TinyEncoder().to(device), device).execute, _requests(device, 0, 4)


def ALT_ARGS(device):
    return [_requests(device, s, n) for s, n in ((1, 3), (2, 5), (3, 6), (4, 7))]
