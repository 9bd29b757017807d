"""Greedy decoding step loop of a small GRU decoder that stops as soon as the argmax token equals the
end-of-sequence id, checked with a Python `if` on the device tensor every token.

Source: https://github.com/pytorch/xla/issues/2855 ("If statement very slow": `if` on an XLA tensor
compared with tokenizer.stoi["<eos>"] executes the pending graph each time).
"""
import torch
import torch.nn as nn


class GreedyDecoder(nn.Module):
    def __init__(self, vocab=30, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.cell = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, vocab)


def make_decode_step(model, bos_id=1, eos_id=2, max_len=6):
    @torch.no_grad()
    def decode(h):
        tok = torch.full((1,), bos_id, dtype=torch.long, device=h.device)
        out = []
        for _ in range(max_len):
            h = model.cell(model.emb(tok), h)
            tok = model.out(h).argmax(-1)
            out.append(tok)
            if tok == eos_id:  # XLA: host
                break
        return torch.cat(out)
    return decode


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(1, 16, generator=g).to(device),)


def ENTRY(device):
    model = GreedyDecoder().to(device).eval()
    return make_decode_step(model), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
