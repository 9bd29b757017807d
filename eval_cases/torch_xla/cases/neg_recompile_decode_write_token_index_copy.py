"""Source: https://github.com/huggingface/optimum-tpu/pull/6

The workaround for direct assignment on inputs under torch_xla: the decode position lives on
the device (`cache_position`), the new token is written with `index_copy_` and the last logits
are picked with `index_select`, so the decode graph is the same at every position.
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
        self.cache_position = torch.tensor([T], device=prompt.device)

    @torch.no_grad()
    def step(self):
        logits = self.model(self.input_ids, self.attention_mask)
        last = logits.index_select(1, self.cache_position - 1).squeeze(1)
        next_token = last.argmax(-1)
        self.input_ids.index_copy_(1, self.cache_position, next_token.unsqueeze(1))
        self.attention_mask.index_fill_(1, self.cache_position, 1)
        self.cache_position.add_(1)
        return next_token


# --- oracle ---
def ENTRY(device):
    model = TinyDecoder().to(device)
    g = torch.Generator().manual_seed(0)
    prompt = torch.randint(0, 48, (2, 4), generator=g).to(device)
    return Generator(model, prompt).step, ()


REPEAT = 6
