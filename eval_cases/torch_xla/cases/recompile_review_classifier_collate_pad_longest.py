"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/4046

A review classifier trained on a TPU core from variable-length token lists. The batch is collated by
padding every review to the longest one in the batch, so the input shape changes from batch to batch;
the Lightning maintainer's diagnosis: "XLA will compile a new graph for every example if it has a
different size than the others. Try padding your inputs to maintain a consistent size."
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence


class ReviewClassifier(nn.Module):
    def __init__(self, vocab=50, d=16, n_classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.proj = nn.Linear(d, d)
        self.out = nn.Linear(d, n_classes)

    def forward(self, ids):
        mask = (ids != 0).float()[..., None]
        h = torch.tanh(self.proj(self.emb(ids)))
        return self.out((h * mask).sum(1) / mask.sum(1).clamp(min=1))


def collate(reviews, device):
    ids = pad_sequence([torch.tensor(r) for r in reviews], batch_first=True, padding_value=0)  # XLA: recompile
    return ids.to(device)


def make_train_step(model, opt, device):
    def train_step(reviews, labels):
        ids = collate(reviews, device)
        opt.zero_grad()
        loss = F.cross_entropy(model(ids), labels.to(device))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(seed, lengths):
    g = torch.Generator().manual_seed(seed)
    reviews = [torch.randint(1, 50, (n,), generator=g).tolist() for n in lengths]
    return reviews, torch.randint(0, 2, (len(lengths),), generator=g)


def ENTRY(device):
    model = ReviewClassifier().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3), device), _batch(0, (5, 9, 3))


def ALT_ARGS(device):
    return [_batch(1, (11, 4, 6)), _batch(2, (7, 7, 2)), _batch(3, (14, 3, 8))]
