"""Source: https://github.com/pytorch/xla/issues/7396 (a request to lower `torch.bucketize`, which ran on the CPU on PyTorch/XLA). The fix used here: the bin id of each value is the number of boundaries it exceeds, `(numeric.unsqueeze(-1) > boundaries).sum(-1)`, a comparison and a sum that XLA compiles (the same bins as `torch.bucketize` with `right=False`). (Tabular CTR model with quantile-binned numeric features.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BinnedTabularModel(nn.Module):
    def __init__(self, boundaries, n_features=3, d=8):
        super().__init__()
        self.register_buffer("boundaries", boundaries)
        self.bin_embed = nn.Embedding(len(boundaries) + 1, d)
        self.mlp = nn.Sequential(nn.Linear(n_features * d, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, numeric):
        bins = (numeric.unsqueeze(-1) > self.boundaries).sum(dim=-1)
        return self.mlp(self.bin_embed(bins).flatten(1)).squeeze(-1)


def make_train_step(model, opt):
    def train_step(numeric, clicks):
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(numeric), clicks)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 3, generator=g).to(device), (torch.rand(16, generator=g) > 0.7).float().to(device)


def ENTRY(device):
    model = BinnedTabularModel(torch.tensor([-1.0, -0.3, 0.3, 1.0])).to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-2)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
