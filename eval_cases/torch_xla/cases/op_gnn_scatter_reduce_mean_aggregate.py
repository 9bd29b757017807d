"""Source: https://github.com/pytorch/xla/pull/4517

A message-passing layer of a graph network: messages on the edges are averaged into the destination
nodes with `Tensor.scatter_reduce(..., reduce="mean")`. The pull request that lowered
`scatter_reduce` supports only the `sum`, `prod`, `amin` and `amax` reductions with
`include_self=True`; other arguments keep the CPU implementation.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MeanAggConv(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.msg = nn.Linear(2 * d, d)
        self.upd = nn.Linear(2 * d, d)

    def forward(self, x, src, dst):
        m = F.relu(self.msg(torch.cat([x[src], x[dst]], dim=-1)))
        index = dst[:, None].expand(-1, m.shape[1])
        agg = torch.zeros_like(x).scatter_reduce(0, index, m, reduce="mean", include_self=False)  # XLA: op
        return F.relu(self.upd(torch.cat([x, agg], dim=-1)))


class NodeClassifier(nn.Module):
    def __init__(self, d_in=8, d=16, n_classes=3):
        super().__init__()
        self.inp = nn.Linear(d_in, d)
        self.conv1 = MeanAggConv(d)
        self.conv2 = MeanAggConv(d)
        self.out = nn.Linear(d, n_classes)

    def forward(self, feats, src, dst):
        h = self.inp(feats)
        return self.out(self.conv2(self.conv1(h, src, dst), src, dst))


def make_train_step(model, opt):
    def train_step(feats, src, dst, labels):
        opt.zero_grad()
        loss = F.cross_entropy(model(feats, src, dst), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(10, 8, generator=g)
    src = torch.randint(0, 10, (24,), generator=g)
    dst = torch.randint(0, 10, (24,), generator=g)
    return feats.to(device), src.to(device), dst.to(device), torch.randint(0, 3, (10,), generator=g).to(device)


def ENTRY(device):
    model = NodeClassifier().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-2)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
