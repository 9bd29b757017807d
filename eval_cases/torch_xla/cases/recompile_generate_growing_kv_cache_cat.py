"""Greedy decoding with the default dynamic cache: each decode step appends the new key/value to the
cache with `torch.cat([cache_k, k], dim=1)`, so the cache (and the attention over it) is one position
longer every step and torch_xla compiles a new graph for every generated token.

Source: https://github.com/huggingface/transformers/issues/18661 ("Refactor Pytorch `model.generate` method
to work on TPU": "By default, caches grow with the input length, but XLA needs a fixed-size cache").
"""
import torch
import torch.nn as nn


class TinyDecoder(nn.Module):
    def __init__(self, vocab=64, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids, cache):
        h = self.emb(ids)
        k, v = self.k(h), self.v(h)
        if cache:
            k = torch.cat([cache["k"], k], dim=1)  # XLA: recompile
            v = torch.cat([cache["v"], v], dim=1)
        cache["k"], cache["v"] = k, v
        att = torch.softmax(self.q(h) @ k.transpose(1, 2) / 4.0, dim=-1)
        return self.out(att @ v)


class Generator:
    def __init__(self, model, prompt):
        self.model = model
        self.cache = {}
        self.next_ids = prompt

    @torch.no_grad()
    def decode_step(self):
        logits = self.model(self.next_ids, self.cache)
        self.next_ids = logits[:, -1:].argmax(-1)
        return self.next_ids


# --- oracle ---
def ENTRY(device):
    g = torch.Generator().manual_seed(0)
    prompt = torch.randint(0, 64, (2, 4), generator=g).to(device)
    gen = Generator(TinyDecoder().to(device), prompt)
    return gen.decode_step, ()


REPEAT = 6
