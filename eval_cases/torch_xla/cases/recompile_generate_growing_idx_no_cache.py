"""lit-llama's `generate` loop before the TPU work: every new token is written into the sequence
and the model runs on `idx[:, :t]`, the prefix seen so far, so each decoding step feeds the model a
sequence one token longer than the last and torch_xla compiles a new graph for every length.

Source: https://github.com/Lightning-AI/lit-llama/pull/240 ("Add Cached KVs": the XLA changes add a KV cache and
"fix ops and tensors that would cause recompilation" so that the forward "only need the new token and the
cached kvs as inputs").
"""
import torch
import torch.nn as nn


class TinyLLaMA(nn.Module):
    def __init__(self, vocab=48, d=16, block_size=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(block_size, d)
        self.mix = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        t = idx.size(1)
        h = self.wte(idx) + self.wpe(torch.arange(t, device=idx.device))
        h = torch.tanh(self.mix(h.cumsum(1)))
        return self.lm_head(h)


class Generator:
    def __init__(self, model, prompt, max_seq_length=32):
        b, t = prompt.shape
        self.model = model
        self.idx = torch.zeros(b, max_seq_length, dtype=prompt.dtype, device=prompt.device)
        self.idx[:, :t] = prompt
        self.t = t

    @torch.no_grad()
    def step(self):
        logits = self.model(self.idx[:, :self.t])  # XLA: recompile
        idx_next = logits[:, -1].argmax(-1)
        self.idx[:, self.t] = idx_next
        self.t += 1
        return idx_next


# --- oracle ---
def ENTRY(device):
    model = TinyLLaMA().to(device)
    g = torch.Generator().manual_seed(0)
    prompt = torch.randint(0, 48, (2, 4), generator=g).to(device)
    return Generator(model, prompt).step, ()


REPEAT = 6
