"""fairseq-style label-smoothed cross entropy: the per-token NLL and smoothing terms are zeroed at
padding positions with `masked_fill_(pad_mask, 0.0)` and summed, so every batch keeps its shape.

Source: https://github.com/pytorch-tpu/fairseq/pull/6 ("Change masked_fill_ input in loss in order to
accomodate necessary pytorch changes": the TPU fork of fairseq's label_smoothed_nll_loss).
"""
import torch
import torch.nn as nn


def label_smoothed_nll_loss(lprobs, target, epsilon, ignore_index):
    target = target.unsqueeze(-1)
    nll_loss = -lprobs.gather(dim=-1, index=target)
    smooth_loss = -lprobs.sum(dim=-1, keepdim=True)
    pad_mask = target.eq(ignore_index)
    nll_loss.masked_fill_(pad_mask, 0.0)
    smooth_loss.masked_fill_(pad_mask, 0.0)
    nll_loss, smooth_loss = nll_loss.sum(), smooth_loss.sum()
    eps_i = epsilon / lprobs.size(-1)
    return (1.0 - epsilon) * nll_loss + eps_i * smooth_loss


class TinyDecoder(nn.Module):
    def __init__(self, vocab=32, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.ff = nn.Linear(d, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, tokens):
        return torch.log_softmax(self.out(torch.relu(self.ff(self.emb(tokens)))), dim=-1)


def make_train_step(model, opt, padding_idx=1):
    def train_step(prev_tokens, target):
        opt.zero_grad()
        lprobs = model(prev_tokens)
        loss = label_smoothed_nll_loss(lprobs.reshape(-1, lprobs.shape[-1]), target.reshape(-1), 0.1, padding_idx)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    prev = torch.randint(2, 32, (3, 8), generator=g)
    tgt = torch.randint(2, 32, (3, 8), generator=g)
    tgt[0, 5:] = 1
    tgt[2, 7:] = 1
    return prev.to(device), tgt.to(device)


def ENTRY(device):
    model = TinyDecoder().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
