"""Source: https://github.com/huggingface/transformers/pull/30070

The SDPA mask shortcut: when not tracing, the attention code checks `torch.all(attention_mask ==
1)` and drops the mask (uses `is_causal=True`) if nothing is padded. Under lazy XLA execution the
check is a Python branch on a device value, read back every forward.
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
        if torch.all(attention_mask == 1):  # XLA: host
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=ids.device))
            mask = causal[None, None] & attention_mask[:, None, None, :].bool()
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
