"""Sampling generation in the style of `model.generate(**inputs, max_new_tokens=..., do_sample=True)`
without a static cache: every new token is drawn with `torch.multinomial` and appended with
`torch.cat`, and the next step runs the model on the whole, one-token-longer sequence. Each decode
step therefore traces a graph of a new length and compiles again, which is why a large
`max_new_tokens` never finishes.

Source: https://github.com/pytorch/xla/issues/8901 ("Torch-XLA gets stuck with large max_new_tokens when
running HF CausalLM inference": GPT-2 `generate(..., do_sample=True)` on an XLA device).
"""
import torch
import torch.nn as nn


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=50, d=16, max_pos=64):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(max_pos, d)
        self.proj = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, input_ids):
        pos = torch.arange(input_ids.size(1), device=input_ids.device)
        h = self.wte(input_ids) + self.wpe(pos)
        h = h.cumsum(1) / torch.arange(1, input_ids.size(1) + 1, device=input_ids.device)[None, :, None]
        return self.lm_head(torch.tanh(self.proj(h)))


class SampleGenerator:
    def __init__(self, model, input_ids, temperature=0.8):
        self.model, self.input_ids, self.temperature = model, input_ids, temperature

    @torch.no_grad()
    def step(self):
        logits = self.model(self.input_ids)[:, -1, :] / self.temperature
        probs = torch.softmax(logits, dim=-1)
        next_tokens = torch.multinomial(probs, num_samples=1)
        self.input_ids = torch.cat([self.input_ids, next_tokens], dim=-1)  # XLA: recompile
        return next_tokens


# --- oracle ---
COMPARE = False


def ENTRY(device):
    model = TinyCausalLM().to(device)
    g = torch.Generator().manual_seed(0)
    prompt = torch.randint(0, 50, (2, 3), generator=g).to(device)
    return SampleGenerator(model, prompt).step, ()


REPEAT = 6
