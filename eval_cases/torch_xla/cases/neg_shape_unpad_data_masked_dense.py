"""Source: https://github.com/huggingface/trl/pull/2158

The same encoder without unpadding inside the model: every position is computed on the padded
(batch, seq) grid and padding is zeroed with the attention mask; the varlen metadata (if a kernel
needs it) is the collator's job, on the CPU.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedEncoder(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.ff = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d))
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, attention_mask):
        keep = attention_mask.unsqueeze(-1).to(torch.float32)
        h = self.emb(ids) * keep
        h = (h + self.ff(h)) * keep
        return self.head(h)


def train_step(model, opt, ids, attention_mask, labels):
    opt.zero_grad()
    loss = F.cross_entropy(model(ids, attention_mask).flatten(0, 1), labels.flatten(), ignore_index=-100)
    loss.backward()
    opt.step()
    return loss.detach()


# --- oracle ---
import functools


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 40, (3, 10), generator=g)
    lengths = torch.randint(4, 11, (3,), generator=g)
    mask = (torch.arange(10)[None] < lengths[:, None]).long()
    labels = torch.where(mask.bool(), ids, -100)
    return ids.to(device), mask.to(device), labels.to(device)


def ENTRY(device):
    model = MaskedEncoder().to(device)
    return functools.partial(train_step, model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
