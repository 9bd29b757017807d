"""The TPU sampler as one traced function: every request carries all sampling parameters as device
tensors, with identity defaults for the options it does not use (temperature 1.0, top_p 1.0), so the
temperature division and the nucleus cut always run and the graph is the same for every batch mix.

Source: https://github.com/vllm-project/vllm/pull/13982 ("[V1][TPU] Support standard V1 Sampler": "provide default
values to all sampling options so that we can toggle off the unneeded ones by evaluating them to an
Identity operation (eg `top_p=1.0`)").
"""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=64, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        return self.head(torch.tanh(self.emb(ids).mean(1)))


def make_sample_step(model):
    @torch.no_grad()
    def sample_step(ids, temperature, top_p):
        logits = model(ids) / temperature.unsqueeze(-1)
        probs_sort, idx = logits.softmax(-1).sort(-1, descending=True)
        drop = probs_sort.cumsum(-1) - probs_sort > top_p.unsqueeze(-1)
        logits = logits.masked_fill(drop.scatter(-1, idx, drop), float("-inf"))
        return logits.argmax(-1)
    return sample_step


# --- oracle ---
def _batch(device, seed, greedy, use_top_p):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 64, (4, 6), generator=g).to(device)
    temperature = torch.ones(4) if greedy else 0.5 + torch.rand(4, generator=g)
    top_p = 0.5 + 0.5 * torch.rand(4, generator=g) if use_top_p else torch.ones(4)
    return ids, temperature.to(device), top_p.to(device)


def ENTRY(device):
    return make_sample_step(TinyLM().to(device)), _batch(device, 0, False, False)


def ALT_ARGS(device):
    return [_batch(device, s, ag, tp) for s, ag, tp in ((1, True, False), (2, False, True), (3, True, True))]
