"""Greedy decode that keeps the per-sequence "finished" flags on the CPU: after every token it does
`is_finished = is_finished | (next_token == eos_id).cpu()` and stops when all are finished.

Source: https://github.com/mistralai/mistral-inference/pull/214 ("Fix generation not concluding when
eos was hit for each prompt": `is_finished = is_finished ^ (next_token == eos_id).cpu()`, then
`if is_finished.all(): break`).
"""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=20, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, tokens):
        return self.out(torch.tanh(self.mix(self.emb(tokens).mean(1))))


def make_generate(model, eos_id=3, max_new=4):
    @torch.no_grad()
    def generate(prompt):
        tokens = prompt
        is_finished = torch.zeros(prompt.shape[0], dtype=torch.bool)
        for _ in range(max_new):
            next_token = model(tokens).argmax(-1)
            tokens = torch.cat([tokens, next_token[:, None]], dim=1)
            is_finished = is_finished | (next_token == eos_id).cpu()  # XLA: host
            if is_finished.all():
                break
        return tokens
    return generate


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(4, 20, (2, 5), generator=g).to(device),)


def ENTRY(device):
    model = TinyLM().to(device)
    return make_generate(model), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
