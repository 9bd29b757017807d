"""Source: https://github.com/pytorch/xla/pull/855

A fairseq-style translation trainer: the sentence indices are cut into batches of
`max_sentences`, and then the list of batches is shuffled. The remainder batch (fewer sentences)
does not stay at the end of the epoch - it lands somewhere in the middle, and its new batch size
triggers a graph compile mid-epoch ("bad-size batches trigger graph compiles").
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

SRC_LEN, TGT_LEN = 10, 8


def batch_by_size(indices, max_sentences):
    return [indices[i:i + max_sentences] for i in range(0, len(indices), max_sentences)]


def shuffled_batches(num_sentences, max_sentences, seed):
    batches = batch_by_size(list(range(num_sentences)), max_sentences)  # XLA: recompile
    random.Random(seed).shuffle(batches)
    return batches


class TinyTranslator(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.src = nn.Embedding(vocab, d, padding_idx=1)
        self.tgt = nn.Embedding(vocab, d)
        self.enc = nn.Sequential(nn.Linear(d, d), nn.Tanh())
        self.dec = nn.Conv1d(2 * d, d, 3, padding=2)
        self.out = nn.Linear(d, vocab)

    def forward(self, src_tokens, prev_output_tokens):
        ctx = self.enc(self.src(src_tokens)).mean(1, keepdim=True)
        y = self.tgt(prev_output_tokens)
        y = torch.cat([y, ctx.expand_as(y)], dim=-1).transpose(1, 2)
        y = torch.relu(self.dec(y)[..., :prev_output_tokens.shape[1]]).transpose(1, 2)
        return self.out(y)


def make_train_step(model, opt):
    def train_step(src_tokens, prev_output_tokens, target):
        opt.zero_grad()
        logits = model(src_tokens, prev_output_tokens)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1), ignore_index=1)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _epoch(device):
    g = torch.Generator().manual_seed(0)
    src = torch.randint(2, 40, (14, SRC_LEN), generator=g)
    tgt = torch.randint(2, 40, (14, TGT_LEN), generator=g)
    steps = []
    for idx in shuffled_batches(14, max_sentences=4, seed=2):
        prev = torch.cat([torch.zeros(len(idx), 1, dtype=torch.long), tgt[idx, :-1]], dim=1)
        steps.append((src[idx].to(device), prev.to(device), tgt[idx].to(device)))
    return steps


def ENTRY(device):
    model = TinyTranslator().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _epoch(device)[0]


def ALT_ARGS(device):
    return _epoch(device)[1:]
