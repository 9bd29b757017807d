"""WaveNet-style autoregressive model that re-packs each sample's valid window after down/up-sampling:
per-sample `beg, end` offsets (Python ints that change every batch) slice `x[b, :, beg:end]`.

Source: https://github.com/pytorch/xla/issues/1368 (how to tell a recompilation is happening: the IR
graphs differ only in the start/end of generic_slice, one graph per offset).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TrimNet(nn.Module):
    def __init__(self, c=8, win=12):
        super().__init__()
        self.down = nn.Conv1d(1, c, 3, padding=1)
        self.up = nn.Conv1d(c, 1, 3, padding=1)
        self.win = win

    def forward(self, x, trim):
        h = F.relu(self.down(x))
        rows = []
        for b, (beg, _) in enumerate(trim):
            rows.append(h[b, :, beg:beg + self.win])  # XLA: recompile
        return self.up(torch.stack(rows))


def make_train_step(model, opt):
    def train_step(x, target, trim):
        opt.zero_grad()
        loss = F.mse_loss(model(x, trim), target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    starts = torch.randint(0, 4, (2,), generator=g).tolist()
    trim = [(s, 4 - s) for s in starts]
    return torch.randn(2, 1, 16, generator=g).to(device), torch.randn(2, 1, 12, generator=g).to(device), trim


def ENTRY(device):
    model = TrimNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
