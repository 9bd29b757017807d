"""Beam search for an autoregressive model with every buffer preallocated at a fixed size
(`prediction = torch.zeros([X * Y, Z])`), as in the report: the shapes never change, but each decode
step writes the chosen tokens into column `i` of the buffer with a Python int, so the column is a
constant of the traced graph and every new position compiles a new graph.

Source: https://github.com/pytorch/xla/issues/2757 ("Beam Search Compiles Frequently": "I've tried my best to
ensure everything has constant sizes", `prediction[:, 0] = bos_value` and the loop over positions).
"""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, tokens, mask):
        h = self.emb(tokens) * mask.unsqueeze(-1)
        ctx = h.cumsum(1) / mask.cumsum(1).clamp(min=1.0).unsqueeze(-1)
        return self.out(torch.tanh(self.mix(ctx)))


class BeamSearch:
    def __init__(self, model, batch, beam_size=3, max_len=20, bos=1, vocab=40):
        X, Y, Z = batch, beam_size, max_len
        self.model, self.X, self.Y, self.V = model, X, Y, vocab
        device = next(model.parameters()).device
        self.prediction = torch.zeros(X * Y, Z, dtype=torch.long, device=device)
        self.prediction[:, 0] = bos
        self.mask = torch.zeros(X * Y, Z, device=device)
        self.mask[:, 0] = 1.0
        self.log_probs = torch.zeros(X * Y, device=device)
        self.offset = (torch.arange(X, device=device) * Y).repeat_interleave(Y)
        self.i = 1

    @torch.no_grad()
    def step(self):
        logits = self.model(self.prediction, self.mask)[:, self.i - 1]
        scores = self.log_probs.unsqueeze(1) + torch.log_softmax(logits, -1)
        top, idx = scores.view(self.X, self.Y * self.V).topk(self.Y, dim=-1)
        beam = (idx // self.V).reshape(-1) + self.offset
        token = (idx % self.V).reshape(-1)
        self.prediction = self.prediction[beam]
        self.prediction[:, self.i] = token  # XLA: recompile
        self.mask[:, self.i] = 1.0
        self.log_probs = top.reshape(-1)
        self.i += 1
        return token


# --- oracle ---
def ENTRY(device):
    torch.manual_seed(0)
    model = TinyLM().to(device)
    return BeamSearch(model, batch=2).step, ()


REPEAT = 6
