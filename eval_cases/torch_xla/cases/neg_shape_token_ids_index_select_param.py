"""neg_shape_token_ids_index_select_param.

Source: https://github.com/pytorch/xla/issues/4248 (integer index tensors lower to a gather with a
static shape; only boolean masks need `aten::nonzero`). The keep-indices are a parameter passed
to `index_select` and used to index: integer, not a mask.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Tagger(nn.Module):
    def __init__(self, vocab=32, d=16, n_tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.out = nn.Linear(d, n_tags)

    def forward(self, ids):
        return self.out(torch.tanh(self.emb(ids)))


def first_subword_loss(logits, tags, keep):
    # keep: (K,) integer indices of the first sub-word of each word (fixed K per batch)
    flat = logits.flatten(0, 1)
    chosen = flat.index_select(0, keep)
    return F.cross_entropy(chosen, tags.flatten()[keep])


def make_train_step(model, opt):
    def train_step(ids, tags, keep):
        opt.zero_grad()
        loss = first_subword_loss(model(ids), tags, keep)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, b=4, t=10, k=12):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 32, (b, t), generator=g)
    tags = torch.randint(0, 5, (b, t), generator=g)
    keep = torch.randperm(b * t, generator=g)[:k]
    return ids.to(device), tags.to(device), keep.to(device)


def ENTRY(device):
    model = Tagger().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
