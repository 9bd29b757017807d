"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/4046

The review classifier with the maintainer's fix: every review is truncated or padded to one fixed
length before it is stacked, so each batch has the same shape whatever the review lengths are.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

MAX_LEN = 16


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
    ids = torch.zeros(len(reviews), MAX_LEN, dtype=torch.long)
    for i, r in enumerate(reviews):
        r = r[:MAX_LEN]
        ids[i, :len(r)] = torch.tensor(r)
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
