"""Greedy decoding for a fixed number of tokens where finished sequences are tracked with a boolean
`done` tensor and later tokens are replaced by the pad id with torch.where, no Python branch.

Source: https://github.com/pytorch/xla/issues/2855 (branching on the EOS comparison forces an execution;
the fixed-length loop with an on-device finished mask does not).
"""
import torch
import torch.nn as nn


class GreedyDecoder(nn.Module):
    def __init__(self, vocab=30, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.cell = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, vocab)


def make_decode_step(model, bos_id=1, eos_id=2, pad_id=0, max_len=6):
    @torch.no_grad()
    def decode(h):
        b = h.size(0)
        tok = torch.full((b,), bos_id, dtype=torch.long, device=h.device)
        done = torch.zeros(b, dtype=torch.bool, device=h.device)
        out = []
        for _ in range(max_len):
            h = model.cell(model.emb(tok), h)
            nxt = model.out(h).argmax(-1)
            tok = torch.where(done, torch.full_like(nxt, pad_id), nxt)
            done = done | (nxt == eos_id)
            out.append(tok)
        return torch.stack(out, 1), done
    return decode


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(3, 16, generator=g).to(device),)


def ENTRY(device):
    model = GreedyDecoder().to(device).eval()
    return make_decode_step(model), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
