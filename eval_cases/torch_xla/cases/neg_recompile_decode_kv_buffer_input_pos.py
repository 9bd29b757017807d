"""Source: https://github.com/Lightning-AI/litgpt/pull/51

The static-shape decode the XLA review asked for: a preallocated token buffer of
`max_seq_length`, the write position kept as a device tensor (`input_pos`), the new token
written with `index_copy_` and the next-token logits picked with `gather`, so every decode step
has the same graph.
"""
import torch
import torch.nn as nn


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=48, d=16, max_len=32):
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


def make_generator(model, prompt, max_seq_length=32):
    B, T0 = prompt.shape
    buf = torch.zeros(B, max_seq_length, dtype=torch.long, device=prompt.device)
    buf[:, :T0] = prompt
    input_pos = torch.tensor([T0], device=prompt.device)

    @torch.no_grad()
    def next_token():
        logits = model(buf)
        last = logits.gather(1, (input_pos - 1).view(1, 1, 1).expand(B, 1, logits.size(-1))).squeeze(1)
        nxt = last.argmax(-1, keepdim=True)
        buf.index_copy_(1, input_pos, nxt)
        input_pos.add_(1)
        return nxt
    return next_token


# --- oracle ---
def ENTRY(device):
    model = TinyCausalLM().to(device)
    g = torch.Generator().manual_seed(0)
    prompt = torch.randint(0, 48, (2, 5), generator=g).to(device)
    return make_generator(model, prompt), ()


REPEAT = 6
