"""Source: https://github.com/Lightning-AI/litgpt/pull/51

Greedy decoding without a KV cache: every new token is appended to `idx` with `torch.cat` and
the whole (one token longer) sequence goes through the model again, so each decode step traces
a graph of a new length.
"""
import torch
import torch.nn as nn


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=48, d=16, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.qkv = nn.Linear(d, 3 * d)
        self.head = nn.Linear(d, vocab)

    def forward(self, idx):
        T = idx.size(1)
        x = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
        q, k, v = self.qkv(x).chunk(3, -1)
        att = (q @ k.transpose(1, 2)) / 4.0
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool, device=idx.device), 1)
        att = att.masked_fill(causal, float("-inf")).softmax(-1)
        return self.head(x + att @ v)


def make_generator(model, prompt):
    state = {"idx": prompt}

    @torch.no_grad()
    def next_token():
        idx = state["idx"]
        logits = model(idx)
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        state["idx"] = torch.cat([idx, nxt], dim=1)  # XLA: recompile
        return nxt
    return next_token


# --- oracle ---
def ENTRY(device):
    model = TinyCausalLM().to(device)
    g = torch.Generator().manual_seed(0)
    prompt = torch.randint(0, 48, (2, 5), generator=g).to(device)
    return make_generator(model, prompt), ()


REPEAT = 6
