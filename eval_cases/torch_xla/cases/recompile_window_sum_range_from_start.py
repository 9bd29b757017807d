"""Source: https://github.com/pytorch/pytorch/issues/114293

A sequence model step that pools the hidden states of a window that starts at a position drawn per
batch: `for i in range(start + 1, end): acc = acc + h[:, i]`. The loop bounds are Python ints that
change from call to call, so the traced graph has a different number of adds and different slice
offsets each time; the report ("Recompilation triggered at each step of the loop involving array
indexing") shows one compile per new `start`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d=8, n_classes=3):
        super().__init__()
        self.inp = nn.Linear(d, d)
        self.cls = nn.Linear(d, n_classes)

    def forward(self, x, start, end):
        h = torch.tanh(self.inp(x))
        acc = h[:, start]
        for i in range(start + 1, end):  # XLA: recompile
            acc = acc + h[:, i]
        return self.cls(acc / (end - start))


def make_train_step(model, opt):
    def train_step(x, y, start, end):
        opt.zero_grad()
        loss = F.cross_entropy(model(x, start, end), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, start, end=8):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 8, 8, generator=g).to(device), torch.randint(0, 3, (4,), generator=g).to(device), start, end


def ENTRY(device):
    model = Encoder().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0, 2)


def ALT_ARGS(device):
    return [_batch(device, s, st) for s, st in ((1, 4), (2, 1), (3, 5))]
