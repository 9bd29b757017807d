"""Source: https://github.com/huggingface/transformers/pull/28802

The mask handling that does not look at the data: always build the causal-and-padding mask and
pass it to SDPA, and un-mask fully masked rows with `mask | ~mask.any(-1)` (the memory-efficient
kernel's workaround in the PR), all as tensor ops; no Python branch on device values.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttentionLM(nn.Module):
    def __init__(self, vocab=40, d=16, heads=2):
        super().__init__()
        self.h = heads
        self.emb = nn.Embedding(vocab, d)
        self.qkv = nn.Linear(d, 3 * d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, attention_mask):
        B, T = ids.shape
        x = self.emb(ids)
        q, k, v = (t.view(B, T, self.h, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, -1))
        causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=ids.device))
        mask = causal[None, None] & attention_mask[:, None, None, :].bool()
        mask = mask | ~mask.any(-1, keepdim=True)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.head(x + out.transpose(1, 2).reshape(B, T, -1))


def train_step(model, opt, ids, attention_mask, labels):
    opt.zero_grad()
    loss = F.cross_entropy(model(ids, attention_mask).flatten(0, 1), labels.flatten(), ignore_index=-100)
    loss.backward()
    opt.step()
    return loss.detach()


# --- oracle ---
import functools


def _batch(device, seed, padded=True):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 40, (2, 8), generator=g)
    mask = torch.ones(2, 8, dtype=torch.long)
    if padded:
        mask[1, 6:] = 0
    labels = torch.where(mask.bool(), ids, -100)
    return ids.to(device), mask.to(device), labels.to(device)


def ENTRY(device):
    model = SelfAttentionLM().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return functools.partial(train_step, model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, 1), _batch(device, 2, padded=False)]
