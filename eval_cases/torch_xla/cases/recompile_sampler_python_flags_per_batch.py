"""A TPU sampler that decides per batch, on the host, which sampling options to apply: `if not
all_greedy:` divides by the temperatures, `if use_top_p:` applies the nucleus cut, `if use_min_p:` the
min-p filter. Each combination of these Python flags is a different traced graph, so a batch that mixes
requests differently from the previous ones compiles again.

Source: https://github.com/vllm-project/vllm/pull/13982 ("[V1][TPU] Support standard V1 Sampler": a single traced
sampling function needs default values for all sampling options "so that we can toggle off the unneeded
ones by evaluating them to an Identity operation (eg `top_p=1.0`)", avoiding "recompiling optional
parameters").
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
    def sample_step(ids, temperature, top_p, all_greedy, use_top_p):
        logits = model(ids)
        if not all_greedy:  # XLA: recompile
            logits = logits / temperature.unsqueeze(-1)
        if use_top_p:
            probs_sort, idx = logits.softmax(-1).sort(-1, descending=True)
            drop = probs_sort.cumsum(-1) - probs_sort > top_p.unsqueeze(-1)
            logits = logits.masked_fill(drop.scatter(-1, idx, drop), float("-inf"))
        return logits.argmax(-1)
    return sample_step


# --- oracle ---
def _batch(device, seed, all_greedy, use_top_p):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 64, (4, 6), generator=g).to(device)
    temperature = (0.5 + torch.rand(4, generator=g)).to(device)
    top_p = (0.5 + 0.5 * torch.rand(4, generator=g)).to(device)
    return ids, temperature, top_p, all_greedy, use_top_p


def ENTRY(device):
    return make_sample_step(TinyLM().to(device)), _batch(device, 0, False, False)


def ALT_ARGS(device):
    return [_batch(device, s, ag, tp) for s, ag, tp in ((1, True, False), (2, False, True), (3, True, True))]
