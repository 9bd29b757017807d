"""Source: https://github.com/huggingface/transformers/issues/43163 (`torch.isin` in the logits
processors' `isin_mps_friendly` on an XLA device).

A sampling step that runs a suppress-tokens logits processor (a callable object): its `__call__`
masks the banned ids with `torch.isin(vocab_ids, suppress_tokens)`.
"""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=32, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids):
        return self.head(torch.tanh(self.emb(input_ids).mean(1)))


class SuppressTokensProcessor:
    def __init__(self, suppress_tokens, device):
        self.suppress_tokens = torch.tensor(suppress_tokens, device=device)

    def __call__(self, input_ids, scores):
        vocab = torch.arange(scores.shape[-1], device=scores.device)
        banned = torch.isin(vocab, self.suppress_tokens)  # XLA: op
        return scores.masked_fill(banned, -float("inf"))


def make_sample_step(model, processor):
    @torch.no_grad()
    def sample_step(input_ids):
        scores = processor(input_ids, model(input_ids))
        return scores.argmax(-1)
    return sample_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(0, 32, (4, 6), generator=g).to(device),)


def ENTRY(device):
    return make_sample_step(TinyLM().to(device), SuppressTokensProcessor([1, 4, 9], device)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
