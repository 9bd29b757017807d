"""Source: https://github.com/pytorch/xla/pull/7584

A click-through-rate model whose categorical fields are pooled with
`nn.EmbeddingBag(..., mode="sum", sparse=True)`, the setting GPU recommender code uses so that the
optimizer only touches the looked-up rows. XLA has no sparse tensors; the pull request made the
backward fall back (`_embedding_bag_backward`) to the dense gradient on the CPU. The model is trained
with plain SGD, which accepts the gradient either way.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CTRModel(nn.Module):
    def __init__(self, n_feats=200, d=16, k=3):
        super().__init__()
        self.bags = nn.ModuleList(nn.EmbeddingBag(n_feats, d, mode="sum", sparse=True) for _ in range(k))  # XLA: op
        self.top = nn.Sequential(nn.Linear(k * d, d), nn.ReLU(), nn.Linear(d, 1))

    def forward(self, fields):
        pooled = [bag(f) for bag, f in zip(self.bags, fields.unbind(1))]
        return self.top(torch.cat(pooled, dim=-1)).squeeze(-1)


def make_train_step(model, opt):
    def train_step(fields, clicks):
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(fields), clicks)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    fields = torch.randint(0, 200, (8, 3, 4), generator=g)
    return fields.to(device), (torch.rand(8, generator=g) > 0.7).float().to(device)


def ENTRY(device):
    model = CTRModel().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
