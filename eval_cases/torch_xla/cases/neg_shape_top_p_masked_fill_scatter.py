"""Source: https://github.com/huggingface/optimum-tpu/pull/5

Top-p filtering the way transformers' `TopPLogitsWarper` does it: sort, mark the tail whose
cumulative probability exceeds `top_p`, scatter the mark back to vocabulary order and
`masked_fill` those logits with -inf; every tensor keeps the vocabulary size.
"""
import torch
import torch.nn as nn


class LMHead(nn.Module):
    def __init__(self, d=16, vocab=50):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.proj = nn.Linear(d, vocab)

    def forward(self, h):
        return self.proj(self.norm(h))


def top_p_filter(scores, top_p=0.8, min_tokens_to_keep=1):
    sorted_logits, sorted_indices = torch.sort(scores, descending=False)
    cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    sorted_indices_to_remove = cumulative_probs <= (1 - top_p)
    sorted_indices_to_remove[..., -min_tokens_to_keep:] = 0
    indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
    return scores.masked_fill(indices_to_remove, float("-inf"))


def make_decode_step(head):
    @torch.no_grad()
    def decode_step(hidden):
        return top_p_filter(head(hidden)).argmax(-1)
    return decode_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(1, 16, generator=g).mul(3).to(device),)


def ENTRY(device):
    return make_decode_step(LMHead().to(device)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
