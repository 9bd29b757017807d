"""A LLaMA-style decoder with a preallocated KV cache for TPU inference: each step feeds only the new
token, and the key/value of that position are written into the fixed-size caches with
`cache_k.index_copy_(1, input_pos, xk)`, `input_pos` being a device tensor. Attention always runs over
the whole cache with a position mask, so every decoding step has the same shapes and one graph.

Source: https://github.com/pytorch-tpu/llama/pull/59 ("Use the in-place index_copy_ op instead of index_copy for kv
cache": updating the caches in place "prevents the dynamo graph from recompiling every time we generate a new
token").
"""
import torch
import torch.nn as nn


class CachedAttentionLM(nn.Module):
    def __init__(self, vocab=48, d=16, max_seq_len=16, batch=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(max_seq_len, d)
        self.wq, self.wk, self.wv = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.register_buffer("cache_k", torch.zeros(batch, max_seq_len, d))
        self.register_buffer("cache_v", torch.zeros(batch, max_seq_len, d))
        self.max_seq_len = max_seq_len

    def forward(self, token, input_pos):
        h = self.wte(token) + self.wpe(input_pos)[None]
        xq, xk, xv = self.wq(h), self.wk(h), self.wv(h)
        self.cache_k.index_copy_(1, input_pos, xk)
        self.cache_v.index_copy_(1, input_pos, xv)
        scores = xq @ self.cache_k.transpose(1, 2) / 4.0
        positions = torch.arange(self.max_seq_len, device=token.device)
        scores = scores.masked_fill(positions[None, None, :] > input_pos[:, None], float("-inf"))
        out = torch.softmax(scores, dim=-1) @ self.cache_v
        return self.lm_head(out)


class Generator:
    def __init__(self, model, first_token):
        self.model, self.token = model, first_token
        self.input_pos = torch.zeros(1, dtype=torch.long, device=first_token.device)

    @torch.no_grad()
    def step(self):
        logits = self.model(self.token, self.input_pos)
        self.token = logits[:, -1].argmax(-1, keepdim=True)
        self.input_pos = (self.input_pos + 1) % self.model.max_seq_len
        return self.token


# --- oracle ---
def ENTRY(device):
    model = CachedAttentionLM().to(device)
    g = torch.Generator().manual_seed(0)
    first = torch.randint(0, 48, (2, 1), generator=g).to(device)
    return Generator(model, first).step, ()


REPEAT = 6
