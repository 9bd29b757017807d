"""A hand-rolled training loop with a tqdm-style progress bar that shows the running loss: after each
step the bar's postfix is refreshed with `f"{loss:.4f}"` of the step's loss tensor. Formatting a device
tensor as a float reads it back to the host, so every step waits for the device at the refresh.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/15743 ("TQDMProgressBar refresh forces TPU to recompile
compute graph": the progress bar's refresh reads the step's loss on every batch).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ProgressBar:
    def __init__(self):
        self.postfix = {}
        self.n = 0

    def set_postfix(self, **kwargs):
        self.postfix.update(kwargs)

    def update(self, n=1):
        self.n += n


class Classifier(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, x):
        return self.net(x)


def make_train_step(model, opt, pbar):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        pbar.set_postfix(loss=f"{loss:.4f}")  # XLA: host
        pbar.update()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 32, generator=g).to(device), torch.randint(0, 2, (8,), generator=g).to(device)


def ENTRY(device):
    model = Classifier().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3), ProgressBar()), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
