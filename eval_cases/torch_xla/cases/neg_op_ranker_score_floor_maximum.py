"""Source: https://github.com/tenstorrent/tt-xla/issues/2241

The same pairwise ranking step with the floor taken by `torch.maximum(scores, floor)` (NaN-propagating;
the scores here are finite), the plain elementwise max that XLA lowers; the report ("Figure out what
models are using torchxla host fallback") lists only fmin, fmax and nextafter as falling back.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Scorer(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_train_step(model, opt, floor=-3.0):
    def train_step(pos, neg):
        opt.zero_grad()
        floor_t = torch.full((pos.shape[0],), floor, device=pos.device)
        s_pos = torch.maximum(model(pos), floor_t)
        s_neg = torch.maximum(model(neg), floor_t)
        loss = F.relu(1.0 - s_pos + s_neg).mean()
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randn(8, 16, generator=g).to(device)


def ENTRY(device):
    model = Scorer().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
