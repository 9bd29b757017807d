"""Embedding extraction step of a retrieval encoder that moves each batch's embeddings to the CPU
(`emb.cpu()`) to append them to an index list while the loop runs.

Source: https://github.com/pytorch/xla/issues/2098 (tensor.cpu() takes a lot of time when saving
transformer embeddings from a TPU loop).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TextEncoder(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.enc = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)

    def forward(self, ids):
        return F.normalize(self.enc(self.emb(ids)).mean(1), dim=-1)


def make_embed_step(model, bank):
    @torch.no_grad()
    def embed_step(ids):
        emb = model(ids)
        bank.append(emb.cpu())  # XLA: host
        return emb
    return embed_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(0, 50, (4, 6), generator=g).to(device),)


def ENTRY(device):
    model = TextEncoder().to(device).eval()
    return make_embed_step(model, []), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
