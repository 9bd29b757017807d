"""The beam search of pytorch/xla#2757 with the decode position kept as a device tensor: the
chosen tokens are written with `index_copy_` at a position tensor that is advanced on the device,
and the logits are read with `index_select`, so every step traces the same graph.

Source: https://github.com/pytorch/xla/issues/2757 (the constant-size beam search; the position kept out of the
traced constants).
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
        self.pos = torch.ones(1, dtype=torch.long, device=device)

    @torch.no_grad()
    def step(self):
        logits = self.model(self.prediction, self.mask).index_select(1, self.pos - 1).squeeze(1)
        scores = self.log_probs.unsqueeze(1) + torch.log_softmax(logits, -1)
        top, idx = scores.view(self.X, self.Y * self.V).topk(self.Y, dim=-1)
        beam = (idx // self.V).reshape(-1) + self.offset
        token = (idx % self.V).reshape(-1)
        self.prediction = self.prediction[beam].index_copy(1, self.pos, token.unsqueeze(1))
        self.mask = self.mask.index_fill(1, self.pos, 1.0)
        self.log_probs = top.reshape(-1)
        self.pos = self.pos + 1
        return token


# --- oracle ---
def ENTRY(device):
    torch.manual_seed(0)
    model = TinyLM().to(device)
    return BeamSearch(model, batch=2).step, ()


REPEAT = 6
