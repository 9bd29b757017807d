"""Written for torch-recall6 (with the rule change): a recommender tower that looks its item table
up with `F.embedding(..., max_norm=1.0)`, keeping the looked-up rows inside the unit ball.

Source: https://github.com/pytorch/pytorch/issues/30899 and https://github.com/pytorch/pytorch/issues/1278
(`max_norm` on embeddings); the functional form of the same lookup.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ItemTower(nn.Module):
    def __init__(self, n_items=50, d=8):
        super().__init__()
        self.items = nn.Parameter(torch.randn(n_items, d))
        self.proj = nn.Linear(d, d)

    def forward(self, item_ids, user_vec):
        rows = F.embedding(item_ids, self.items, max_norm=1.0)  # XLA: op
        return (self.proj(rows) * user_vec[:, None, :]).sum(-1)


def make_step(model, opt):
    def train_step(item_ids, user_vec, clicks):
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(item_ids, user_vec), clicks)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(0, 50, (4, 6), generator=g).to(device), torch.randn(4, 8, generator=g).to(device),
            torch.randint(0, 2, (4, 6), generator=g).float().to(device))


def ENTRY(device):
    model = ItemTower().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
