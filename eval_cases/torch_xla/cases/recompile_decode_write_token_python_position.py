"""Source: https://github.com/huggingface/optimum-tpu/pull/6

Decoding into a preallocated `input_ids` buffer by direct assignment at a Python-int position
(`input_ids[:, cur_len] = next_token`, and the logits read at `cur_len - 1`): the shapes never
change, but the position is a constant of the traced graph, so every decode step compiles.
"""
import torch
import torch.nn as nn


class TinyDecoder(nn.Module):
    def __init__(self, vocab=48, d=16, max_len=24):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(max_len, d) * 0.1)
        self.mix = nn.Linear(d, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids, attention_mask):
        h = self.tok(input_ids) + self.pos[: input_ids.size(1)]
        w = attention_mask.unsqueeze(-1).float()
        ctx = (h * w).cumsum(1) / w.cumsum(1).clamp(min=1.0)
        return self.head(torch.tanh(self.mix(ctx)) + h)


class Generator:
    def __init__(self, model, prompt, max_len=24):
        B, T = prompt.shape
        self.model = model
        self.input_ids = torch.zeros(B, max_len, dtype=torch.long, device=prompt.device)
        self.attention_mask = torch.zeros(B, max_len, dtype=torch.long, device=prompt.device)
        self.input_ids[:, :T] = prompt
        self.attention_mask[:, :T] = 1
        self.cur_len = T

    @torch.no_grad()
    def step(self):
        logits = self.model(self.input_ids, self.attention_mask)
        next_token = logits[:, self.cur_len - 1].argmax(-1)
        self.input_ids[:, self.cur_len] = next_token  # XLA: recompile
        self.attention_mask[:, self.cur_len] = 1
        self.cur_len += 1
        return next_token


# --- oracle ---
def ENTRY(device):
    model = TinyDecoder().to(device)
    g = torch.Generator().manual_seed(0)
    prompt = torch.randint(0, 48, (2, 4), generator=g).to(device)
    return Generator(model, prompt).step, ()


REPEAT = 6
