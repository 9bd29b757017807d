"""Sparse occupancy-grid model: the coordinates of occupied cells come from `torch.nonzero(occ)`, their
features are gathered and pooled into a scene embedding.

Source: https://github.com/pytorch/xla/issues/4155 (forward pass with dynamism: the size of
torch.nonzero's output is only known at run time).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class OccupancyNet(nn.Module):
    def __init__(self, c=4, dim=16, n_classes=3):
        super().__init__()
        self.point_mlp = nn.Sequential(nn.Linear(c + 2, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.head = nn.Linear(dim, n_classes)

    def forward(self, grid_feat, occ):
        coords = torch.nonzero(occ)  # XLA: shape
        feats = grid_feat[:, coords[:, 0], coords[:, 1]].t()
        pts = torch.cat([feats, coords.to(feats.dtype) / occ.size(0)], 1)
        return self.head(self.point_mlp(pts).max(0).values)


def make_train_step(model, opt):
    def train_step(grid_feat, occ, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(grid_feat, occ)[None], y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(4, 8, 8, generator=g).to(device), (torch.rand(8, 8, generator=g) < 0.3).to(device),
            torch.randint(0, 3, (1,), generator=g).to(device))


def ENTRY(device):
    model = OccupancyNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
