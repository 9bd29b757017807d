"""shape_mlm_select_mask_param_masked_fill.

Source: https://github.com/pytorch/xla/issues/4248 (`a[mask]` on an XLA tensor runs `aten::nonzero`
on the CPU; the mask's count is data dependent). Here the mask is a parameter of a helper that
also hands it to `masked_fill`, which torch accepts only with a bool mask.
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


def mlm_loss(hidden, head, labels, predict):
    # hidden: (B, T, D); predict: (B, T) positions that were masked out in the input
    hidden = hidden.masked_fill(~predict[..., None], 0.0)
    picked = hidden[predict]  # XLA: shape
    return F.cross_entropy(head(picked), labels[predict])


def make_train_step(model, opt):
    def train_step(ids, labels, predict):
        opt.zero_grad()
        loss = mlm_loss(model(ids), model.head, labels, predict)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, b=4, t=12):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 32, (b, t), generator=g)
    predict = torch.rand(b, t, generator=g) < 0.3
    predict[:, 0] = True
    return ids.to(device), ids.to(device), predict.to(device)


def ENTRY(device):
    model = Encoder().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
