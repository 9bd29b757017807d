"""Source: https://github.com/huggingface/transformers/pull/29459

A greedy decode step with the stopping check moved into an EOS criterion that tests the last
token with `torch.isin(input_ids[:, -1], eos_token_id)` (the PR's version; several EOS ids, as
for chat models) and folds it into `unfinished_sequences` on the device.
"""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=30, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids):
        h = self.emb(input_ids)
        return self.head(torch.tanh(self.mix(h.mean(1))))


class EosTokenCriteria:
    def __init__(self, eos_token_id):
        self.eos_token_id = torch.tensor(eos_token_id)

    def __call__(self, input_ids):
        return torch.isin(input_ids[:, -1], self.eos_token_id.to(input_ids.device))  # XLA: op


def make_decode_step(model, criteria, pad_token_id=0):
    @torch.no_grad()
    def decode_step(input_ids, unfinished_sequences):
        next_tokens = model(input_ids).argmax(-1)
        next_tokens = next_tokens * unfinished_sequences + pad_token_id * (1 - unfinished_sequences)
        unfinished_sequences = unfinished_sequences & ~criteria(torch.cat([input_ids[:, 1:], next_tokens[:, None]], 1))
        return next_tokens, unfinished_sequences
    return decode_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 30, (4, 6), generator=g).to(device), torch.ones(4, dtype=torch.long).to(device)


def ENTRY(device):
    return make_decode_step(TinyLM().to(device), EosTokenCriteria([2, 5, 7])), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
