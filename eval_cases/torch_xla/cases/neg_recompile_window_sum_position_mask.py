"""Source: https://github.com/pytorch/pytorch/issues/114293

The same window pooling written with the window bounds as data: `start` and `end` arrive as device
tensors, a position mask `(pos >= start) & (pos < end)` selects the window, and the pooled state is a
masked sum over the whole sequence, so every batch runs the same graph whatever the window is.
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
        pos = torch.arange(h.shape[1], device=h.device)
        mask = ((pos >= start) & (pos < end)).float()
        acc = (h * mask[None, :, None]).sum(1)
        return self.cls(acc / mask.sum())


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
    x = torch.randn(4, 8, 8, generator=g).to(device)
    y = torch.randint(0, 3, (4,), generator=g).to(device)
    return x, y, torch.tensor(start).to(device), torch.tensor(end).to(device)


def ENTRY(device):
    model = Encoder().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0, 2)


def ALT_ARGS(device):
    return [_batch(device, s, st) for s, st in ((1, 4), (2, 1), (3, 5))]
