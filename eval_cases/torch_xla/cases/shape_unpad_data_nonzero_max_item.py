"""Source: https://github.com/huggingface/trl/pull/2158

Padding-free / varlen attention prep inside the model forward (transformers' `_get_unpad_data`):
`indices = torch.nonzero(attention_mask.flatten())`, `cu_seqlens` from a cumsum and
`max_seqlen = seqlens.max().item()`, then the tokens are gathered by `indices`; the PR moves these
to the collator because they sync with the host inside the model.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_unpad_data(attention_mask):
    seqlens_in_batch = attention_mask.sum(dim=-1, dtype=torch.int32)
    indices = torch.nonzero(attention_mask.flatten(), as_tuple=False).flatten()  # XLA: shape
    max_seqlen_in_batch = seqlens_in_batch.max().item()
    cu_seqlens = F.pad(torch.cumsum(seqlens_in_batch, dim=0, dtype=torch.int32), (1, 0))
    return indices, cu_seqlens, max_seqlen_in_batch


class VarlenEncoder(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.ff = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d))
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, attention_mask):
        B, T = ids.shape
        indices, cu_seqlens, max_seqlen = get_unpad_data(attention_mask)
        h = self.emb(ids).view(B * T, -1).index_select(0, indices)  # (total_tokens, d)
        h = h + self.ff(h)
        out = torch.zeros(B * T, h.size(-1), device=ids.device, dtype=h.dtype).index_copy(0, indices, h)
        return self.head(out.view(B, T, -1))


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
    model = VarlenEncoder().to(device)
    return functools.partial(train_step, model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
