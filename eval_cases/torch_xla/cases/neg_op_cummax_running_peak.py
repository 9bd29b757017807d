"""Sequence regressor for a price series trained with a drawdown-aware loss: the running peak comes from
torch.cummax over time (values only).

Source: https://github.com/pytorch/xla/issues/8675 (`cummax` is lowered; the issue is about which index it
returns on ties, not about a fallback).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReturnPredictor(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, hidden, 3, padding=1), nn.Tanh(), nn.Conv1d(hidden, 1, 3, padding=1))

    def forward(self, prices):
        return self.net(prices.unsqueeze(1)).squeeze(1)


def make_train_step(model, opt):
    def train_step(prices, future):
        opt.zero_grad()
        pred = model(prices)
        equity = torch.cumsum(pred.tanh() * future, dim=1)
        peak = torch.cummax(equity, dim=1).values
        drawdown = (peak - equity).mean()
        loss = -equity[:, -1].mean() + 0.5 * drawdown
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 16, generator=g).to(device), 0.01 * torch.randn(4, 16, generator=g).to(device)


def ENTRY(device):
    model = ReturnPredictor().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
