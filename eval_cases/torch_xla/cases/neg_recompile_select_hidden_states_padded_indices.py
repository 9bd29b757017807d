"""The TPU serving step with the request indices padded to a fixed bucket: `indices_do_sample` always
has `max_num_reqs` entries (padding slots repeat index 0) and the host drops the padded rows after the
step, so the selection has the same shape for every request count and compiles once.

Source: https://github.com/pytorch/xla/issues/9094 ("tpu torch xla is not using xla_cache": the
`num_reqs_paddings` buckets that `indices_do_sample` is padded to before `select_hidden_states`).
"""
import torch
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.mlp = nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.Linear(d, d))

    def forward(self, tokens):
        return self.mlp(self.emb(tokens))


def make_serve_step(model, lm_head):
    @torch.no_grad()
    def serve_step(tokens, indices_do_sample):
        hidden_states = model(tokens)
        selected = hidden_states[indices_do_sample]
        return lm_head(selected).argmax(-1)
    return serve_step


# --- oracle ---
def _batch(device, seed, num_reqs, num_tokens=32, max_num_reqs=8):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, 64, (num_tokens,), generator=g)
    last = torch.sort(torch.randperm(num_tokens, generator=g)[:num_reqs]).values
    padded = torch.zeros(max_num_reqs, dtype=torch.long)
    padded[:num_reqs] = last
    return tokens.to(device), padded.to(device)


def ENTRY(device):
    model = Backbone().to(device)
    return make_serve_step(model, nn.Linear(32, 64).to(device)), _batch(device, 0, 4)


def ALT_ARGS(device):
    return [_batch(device, s, n) for s, n in ((1, 3), (2, 7), (3, 5))]
