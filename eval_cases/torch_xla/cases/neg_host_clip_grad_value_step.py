"""Source: https://github.com/pytorch/xla/issues/2884

A training step that clips with `torch.nn.utils.clip_grad_value_` (elementwise clamp of every
gradient), which the report asks about next to the patched `clip_grad_norm_`: "I am assuming that's
not the case since there are no `.item()` calls". The clamp stays in the step's graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Tagger(nn.Module):
    def __init__(self, vocab=30, d=16, n_tags=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.ff = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, n_tags))

    def forward(self, ids):
        return self.ff(self.emb(ids))


def make_train_step(model, opt, clip=0.5):
    def train_step(ids, tags):
        opt.zero_grad()
        logits = model(ids)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tags.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_value_(model.parameters(), clip)
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 30, (4, 7), generator=g).to(device), torch.randint(0, 6, (4, 7), generator=g).to(device)


def ENTRY(device):
    model = Tagger().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
