"""Bag-of-words classifier written as nn.Embedding over a padded [B, L] id matrix followed by a masked
mean, the workaround suggested for EmbeddingBag on TPU.

Source: https://github.com/pytorch/xla/issues/2318 (terrible EmbeddingBag performance on TPU; the
embedding + reduction formulation stays on the device).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DenseBagClassifier(nn.Module):
    def __init__(self, vocab=50, dim=16, n_classes=3, pad_id=0):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.fc = nn.Linear(dim, n_classes)
        self.pad_id = pad_id

    def forward(self, ids):
        mask = (ids != self.pad_id).unsqueeze(-1).to(self.emb.weight.dtype)
        pooled = (self.emb(ids) * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.fc(pooled)


def make_train_step(model, opt):
    def train_step(ids, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(ids), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 50, (4, 8), generator=g)
    lengths = torch.tensor([5, 6, 7, 8])
    ids = ids.masked_fill(torch.arange(8)[None, :] >= lengths[:, None], 0)
    return ids.to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = DenseBagClassifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
