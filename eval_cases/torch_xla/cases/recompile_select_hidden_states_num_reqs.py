"""A TPU serving step that runs the model over the packed tokens and then selects the hidden state of
each request's last token with `hidden_states[indices_do_sample]`, where `indices_do_sample` holds one
index per live request. The number of requests changes from batch to batch, so the selected shape
changes and every new count compiles a new graph.

Source: https://github.com/pytorch/xla/issues/9094 ("tpu torch xla is not using xla_cache": a
`select_hidden_states(hidden_states, indices_do_sample)` function precompiled for every padded
`num_tokens` x `num_reqs` combination, because each distinct count is its own compiled graph).
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
        selected = hidden_states[indices_do_sample]  # XLA: recompile
        return lm_head(selected).argmax(-1)
    return serve_step


# --- oracle ---
def _batch(device, seed, num_reqs, num_tokens=32):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, 64, (num_tokens,), generator=g)
    last = torch.sort(torch.randperm(num_tokens, generator=g)[:num_reqs]).values
    return tokens.to(device), last.to(device)


def ENTRY(device):
    model = Backbone().to(device)
    return make_serve_step(model, nn.Linear(32, 64).to(device)), _batch(device, 0, 4)


def ALT_ARGS(device):
    return [_batch(device, s, n) for s, n in ((1, 3), (2, 7), (3, 5))]
