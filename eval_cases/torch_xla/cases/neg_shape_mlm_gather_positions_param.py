"""neg_shape_mlm_gather_positions_param.

Source: https://github.com/pytorch/xla/issues/4248 (the static-shape alternative to boolean
indexing): the masked positions arrive as a fixed number of integer indices per row (padded),
so `hidden[rows, positions]` is a gather with a static shape.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, vocab=32, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.proj = nn.Linear(d, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        return self.proj(self.emb(ids))


def mlm_loss(hidden, head, labels, positions, weights):
    # positions: (B, K) integer indices of the masked tokens, padded; weights: (B, K) 1.0 / 0.0
    rows = torch.arange(hidden.shape[0], device=hidden.device)[:, None]
    picked = hidden[rows, positions]
    target = labels[rows, positions]
    per = F.cross_entropy(head(picked).flatten(0, 1), target.flatten(), reduction="none")
    return (per * weights.flatten()).sum() / weights.sum()


def make_train_step(model, opt):
    def train_step(ids, labels, positions, weights):
        opt.zero_grad()
        loss = mlm_loss(model(ids), model.head, labels, positions, weights)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, b=4, t=12, k=4):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 32, (b, t), generator=g)
    positions = torch.randint(0, t, (b, k), generator=g)
    weights = (torch.rand(b, k, generator=g) < 0.7).float()
    weights[:, 0] = 1.0
    return ids.to(device), ids.to(device), positions.to(device), weights.to(device)


def ENTRY(device):
    model = Encoder().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
