"""Source: https://github.com/pytorch/xla/pull/8091

A TransE knowledge-graph training step whose entity table is an `nn.Embedding(..., max_norm=1.0)`:
each lookup first renormalises the rows it touches in place (`embedding_renorm_`), the op the report
lowered ("Add lowering torch.ops.aten.embedding_renorm_ to support embedding"). Written as a negative;
torch_xla 2.9.0 on the CPU counts `aten::embedding_renorm_` as a CPU fallback at every lookup, so it was
renamed after the oracle.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TransE(nn.Module):
    def __init__(self, n_ent=20, n_rel=4, d=8):
        super().__init__()
        self.ent = nn.Embedding(n_ent, d, max_norm=1.0)
        self.rel = nn.Embedding(n_rel, d)

    def score(self, h, r, t):
        return (self.ent(h) + self.rel(r) - self.ent(t)).norm(p=1, dim=-1)  # XLA: op


def make_train_step(model, opt, margin=1.0):
    def train_step(h, r, t, t_neg):
        opt.zero_grad()
        loss = F.relu(margin + model.score(h, r, t) - model.score(h, r, t_neg)).mean()
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randint(0, n, (6,), generator=g).to(device) for n in (20, 4, 20, 20))


def ENTRY(device):
    model = TransE().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
