"""Packed-sequence (padding-free) language-model step: all documents of the batch are concatenated into
one [T] token stream, so T = total tokens in the batch changes from batch to batch.

Source: https://github.com/pytorch/xla/issues/6413 ([Dynamic Shape] input with dynamic shape: the input
varies like batch_size * sequence_length).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PackedLM(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.Conv1d(dim, dim, 3, padding=1)
        self.out = nn.Linear(dim, vocab)

    def forward(self, flat_ids):
        h = self.emb(flat_ids).t()[None]
        return self.out(torch.relu(self.mix(h))[0].t())


def make_train_step(model, opt):
    def train_step(flat_ids):  # XLA: recompile
        opt.zero_grad()
        logits = model(flat_ids[:-1])
        loss = F.cross_entropy(logits, flat_ids[1:])
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, lengths):
    g = torch.Generator().manual_seed(seed)
    return (torch.cat([torch.randint(1, 40, (n,), generator=g) for n in lengths]).to(device),)


def ENTRY(device):
    model = PackedLM().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0, (7, 9))


def ALT_ARGS(device):
    return [_batch(device, 1, (5, 8)), _batch(device, 2, (10, 3)), _batch(device, 3, (6, 6))]
