"""Serving warm-up with a model wrapped in `torch.compile(backend="openxla")`: requests arrive with
whatever number of sequences the scheduler batched, and the compiled model is called on each batch
as it comes. Every new batch size is a new input shape, so dynamo and XLA compile the model again.

Source: https://github.com/pytorch/xla/issues/7614 ("Dynamo persistent cache real-time look-up": vLLM on TPU
"needs to pre-compile ~30 different input shape combinations ... torch.compile will keep compiling
the model code").
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


class Runner:
    def __init__(self, model, device):
        self.model = torch.compile(model, backend="openxla") if device.type == "xla" else model

    @torch.no_grad()
    def execute(self, input_ids):
        logits = self.model(input_ids)  # XLA: recompile
        return logits[:, -1].argmax(-1)


# --- oracle ---
def _requests(device, seed, n_seqs):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(0, 64, (n_seqs, 16), generator=g).to(device),)


def ENTRY(device):
    return Runner(TinyEncoder().to(device), device).execute, _requests(device, 0, 4)


def ALT_ARGS(device):
    return [_requests(device, s, n) for s, n in ((1, 3), (2, 5), (3, 6), (4, 7))]
