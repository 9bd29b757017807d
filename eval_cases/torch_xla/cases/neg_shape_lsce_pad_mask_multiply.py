"""fairseq's label-smoothed cross entropy after the TPU change: the padding positions are zeroed
with `masked_fill_` instead of being removed, so the summed losses are the same and every tensor
keeps the batch's shape.

Source: https://github.com/facebookresearch/fairseq/pull/876 ("Forcing static shapes in loss computation (LSCE)":
"This is an equivalent loss computation (tested), but tensor shapes are constant").
"""
import torch
import torch.nn as nn


def label_smoothed_nll_loss(lprobs, target, epsilon, ignore_index):
    if target.dim() == lprobs.dim() - 1:
        target = target.unsqueeze(-1)
    nll_loss = -lprobs.gather(dim=-1, index=target)
    smooth_loss = -lprobs.sum(dim=-1, keepdim=True)
    pad_mask = target.eq(ignore_index)
    nll_loss.masked_fill_(pad_mask, 0.0)
    smooth_loss.masked_fill_(pad_mask, 0.0)
    nll_loss = nll_loss.sum()
    smooth_loss = smooth_loss.sum()
    eps_i = epsilon / lprobs.size(-1)
    return (1.0 - epsilon) * nll_loss + eps_i * smooth_loss, nll_loss


class TinyDecoder(nn.Module):
    def __init__(self, vocab=30, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, prev_tokens):
        return self.out(torch.tanh(self.emb(prev_tokens)))


def make_train_step(model, opt, pad=1, eps=0.1):
    def train_step(prev_tokens, target):
        opt.zero_grad()
        lprobs = torch.log_softmax(model(prev_tokens), dim=-1).view(-1, 30)
        loss, _ = label_smoothed_nll_loss(lprobs, target.view(-1), eps, ignore_index=pad)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    prev = torch.randint(2, 30, (4, 9), generator=g)
    tgt = torch.randint(2, 30, (4, 9), generator=g)
    lengths = torch.randint(4, 10, (4,), generator=g)
    tgt[torch.arange(9)[None, :] >= lengths[:, None]] = 1
    return prev.to(device), tgt.to(device)


def ENTRY(device):
    model = TinyDecoder().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
