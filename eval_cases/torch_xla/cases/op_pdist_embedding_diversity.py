"""Metric-learning step with a diversity regulariser: the mean pairwise distance of the batch
embeddings (F.pdist) is pushed up next to a classification loss.

Source: https://github.com/pytorch/xla/issues/5764 (Supporting the Core ATen Opset: the tracker's list of
unlowered ops includes the pdist family).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Embedder(nn.Module):
    def __init__(self, d_in=16, d_emb=8, n_classes=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, d_emb))
        self.cls = nn.Linear(d_emb, n_classes)

    def forward(self, x):
        e = F.normalize(self.enc(x), dim=-1)
        return e, self.cls(e)


def make_train_step(model, opt, weight=0.1):
    def train_step(x, y):
        opt.zero_grad()
        emb, logits = model(x)
        diversity = F.pdist(emb).mean()  # XLA: op
        loss = F.cross_entropy(logits, y) - weight * diversity
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    model = Embedder().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
