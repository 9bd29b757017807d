"""Time-series encoder that feeds the running minimum (torch.cummin over time) of each input channel
as an extra feature to a GRU-free conv classifier.

Source: https://github.com/pytorch/xla/issues/8675 (the cummax report notes `cummin` is not lowered yet).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TroughNet(nn.Module):
    def __init__(self, c=2, hidden=16, n_classes=3):
        super().__init__()
        self.conv = nn.Conv1d(2 * c, hidden, 3, padding=1)
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, series):
        trough = torch.cummin(series, dim=-1).values  # XLA: op
        h = F.relu(self.conv(torch.cat([series, series - trough], 1)))
        return self.head(h.mean(-1))


def make_train_step(model, opt):
    def train_step(series, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(series), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 2, 16, generator=g).to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = TroughNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
