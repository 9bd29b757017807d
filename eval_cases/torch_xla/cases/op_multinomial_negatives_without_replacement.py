"""A two-tower recommendation step that draws its negative items on the device with
`torch.multinomial(item_weights, num_negatives, replacement=False)` from the popularity distribution
(distinct negatives per step). torch_xla lowers `multinomial` only with replacement: without it the
draw runs on the CPU every step.

Source: https://github.com/pytorch/xla/issues/4865 ("Lower Multinomial without Replacement": "the current
implementation falls back to the cpu when replacement is False").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoTower(nn.Module):
    def __init__(self, n_users=20, n_items=50, d=16):
        super().__init__()
        self.users = nn.Embedding(n_users, d)
        self.items = nn.Embedding(n_items, d)

    def forward(self, user, pos_item, neg_items):
        u = self.users(user)
        pos = (u * self.items(pos_item)).sum(-1, keepdim=True)
        neg = u @ self.items(neg_items).t()
        return torch.cat([pos, neg], dim=1)


def make_train_step(model, opt, item_weights, num_negatives=8):
    def train_step(user, pos_item):
        opt.zero_grad()
        neg_items = torch.multinomial(item_weights, num_negatives, replacement=False)  # XLA: op
        logits = model(user, pos_item, neg_items)
        loss = F.cross_entropy(logits, torch.zeros_like(user))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
COMPARE = False


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 20, (6,), generator=g).to(device), torch.randint(0, 50, (6,), generator=g).to(device)


def ENTRY(device):
    model = TwoTower().to(device)
    weights = (torch.arange(50, 0, -1).float() ** 0.75).to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-2), weights), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
