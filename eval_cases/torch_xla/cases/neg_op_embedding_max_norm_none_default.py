"""Written for torch-recall6 (with the rule change): a word-embedding classifier whose config passes
`max_norm=None` explicitly (the default): no renormalisation, the lookup lowers.

Source: https://github.com/pytorch/pytorch/issues/30899 (`max_norm` on nn.Embedding); near miss with
`max_norm=None`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BagClassifier(nn.Module):
    def __init__(self, vocab=60, d=8, n_classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0, max_norm=None)
        self.out = nn.Linear(d, n_classes)

    def forward(self, ids):
        return self.out(self.emb(ids).mean(1))


def make_step(model, opt):
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
    return torch.randint(0, 60, (4, 7), generator=g).to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = BagClassifier().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
