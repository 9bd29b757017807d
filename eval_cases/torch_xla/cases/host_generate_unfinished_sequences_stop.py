"""Greedy translation with an encoder-decoder, decoded the way `generate` did in transformers 4.7:
after each new token the finished rows are tracked in `unfinished_sequences`, and the loop stops as
soon as `unfinished_sequences.max() == 0`. That Python test reads a device value after every token.

Source: https://github.com/huggingface/transformers/issues/12322 ("Generate text with `model.generate` on TPU
does not work": M2M100 `generate` on a single TPU core).
"""
import torch
import torch.nn as nn


class TinySeq2Seq(nn.Module):
    def __init__(self, vocab=40, d=16, max_len=12):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.enc = nn.Linear(d, d)
        self.dec = nn.Linear(2 * d, d)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, src, tgt_buffer, step_mask):
        memory = torch.tanh(self.enc(self.embed(src))).mean(1, keepdim=True)
        tgt = self.embed(tgt_buffer) * step_mask.unsqueeze(-1)
        h = torch.tanh(self.dec(torch.cat([tgt, memory.expand_as(tgt)], -1)))
        return self.lm_head(h)


class GreedyTranslator:
    def __init__(self, model, src, max_len=12, bos=1, eos=2, pad=0):
        B = src.size(0)
        self.model, self.src, self.eos, self.pad = model, src, eos, pad
        self.out = torch.full((B, max_len), pad, dtype=torch.long, device=src.device)
        self.out[:, 0] = bos
        self.step_mask = torch.zeros(B, max_len, device=src.device)
        self.step_mask[:, 0] = 1.0
        self.last = torch.zeros(B, 1, max_len, device=src.device)
        self.last[:, 0, 0] = 1.0
        self.unfinished_sequences = torch.ones(B, dtype=torch.long, device=src.device)
        self.done = False

    @torch.no_grad()
    def step(self):
        if self.done:
            return self.unfinished_sequences
        logits = (self.last @ self.model(self.src, self.out, self.step_mask)).squeeze(1)
        next_tokens = logits.argmax(-1)
        next_tokens = next_tokens * self.unfinished_sequences + self.pad * (1 - self.unfinished_sequences)
        self.last = torch.roll(self.last, 1, dims=-1)
        self.out = torch.where(self.last.squeeze(1) > 0, next_tokens[:, None], self.out)
        self.step_mask = torch.maximum(self.step_mask, self.last.squeeze(1))
        self.unfinished_sequences = self.unfinished_sequences.mul((next_tokens != self.eos).long())
        if self.unfinished_sequences.max() == 0:  # XLA: host
            self.done = True
        return self.unfinished_sequences


# --- oracle ---
def ENTRY(device):
    model = TinySeq2Seq().to(device)
    g = torch.Generator().manual_seed(0)
    src = torch.randint(3, 40, (3, 7), generator=g).to(device)
    return GreedyTranslator(model, src).step, ()


REPEAT = 6
