"""Source: https://docs.pytorch.org/xla/release/r2.8/learn/eager.html ("PyTorch/XLA Compile API and
it's interaction with Eager mode").

Decoder-only training step wrapped with `torch_xla.compile`, as the PyTorch/XLA compile-API docs
show (`self.compiled_step_fn = torch_xla.compile(self.step_fn)`): the wrapper syncs before and after
the function, so a loop that never calls `mark_step` still runs one fixed graph per step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla


class TinyDecoder(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        return self.head(h + self.ff(h))


class TrainDecoderOnly:
    def __init__(self, device):
        self.model = TinyDecoder().to(device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.loss_fn = nn.CrossEntropyLoss()
        self.compiled_step_fn = torch_xla.compile(self.step_fn) if device.type == "xla" else self.step_fn

    def step_fn(self, data, target):
        self.optimizer.zero_grad()
        logits = self.model(data)
        loss = self.loss_fn(logits.view(-1, logits.shape[-1]), target.view(-1))
        loss.backward()
        self.optimizer.step()
        return loss

    def __call__(self, data, target):
        return self.compiled_step_fn(data, target).detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 40, (4, 11), generator=g)
    return ids[:, :-1].contiguous().to(device), ids[:, 1:].contiguous().to(device)


def ENTRY(device):
    return TrainDecoderOnly(device), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]


MARK_STEP = False  # torch_xla.compile syncs around the step itself
