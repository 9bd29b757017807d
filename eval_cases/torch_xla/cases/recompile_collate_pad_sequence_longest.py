"""A `collate_fn` that pads each batch with `pad_sequence` (to the batch's longest example) feeding the
training loop: a new sequence length, a new graph.

Source: facebookresearch/fairseq issue #4198 and pytorch/xla issue #3356 (RoBERTa pre-training recompiled
nearly every step until collate_tokens padded to a fixed length); pytorch/xla issue #1509.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

class SeqClassifier(nn.Module):
    def __init__(self, vocab=50, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, 2)

    def forward(self, ids):
        return self.head(torch.tanh(self.emb(ids)).mean(1))


def collate(batch):
    ids = pad_sequence([ids for ids, _ in batch], batch_first=True)  # XLA: recompile
    return ids, torch.tensor([label for _, label in batch])


def train_step(model, opt, ids, y):
    opt.zero_grad()
    loss = F.cross_entropy(model(ids), y)
    loss.backward()
    opt.step()
    return loss.detach()


def train(model, dataset, opt, epochs=1):
    loader = DataLoader(dataset, batch_size=4, shuffle=True, collate_fn=collate, drop_last=True)
    for _ in range(epochs):
        for ids, y in loader:
            train_step(model, opt, ids, y)


# --- oracle ---
import functools


def _samples(seed, longest):
    g = torch.Generator().manual_seed(seed)
    lengths = [longest] + [int(n) for n in torch.randint(2, longest + 1, (3,), generator=g)]
    return [(torch.randint(1, 50, (n,), generator=g), int(torch.randint(0, 2, (), generator=g))) for n in lengths]


def _args(device, seed, longest):
    ids, y = collate(_samples(seed, longest))
    return ids.to(device), y.to(device)


def ENTRY(device):
    model = SeqClassifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return functools.partial(train_step, model, opt), _args(device, 0, 7)


def ALT_ARGS(device):
    return [_args(device, 1, 9), _args(device, 2, 5), _args(device, 3, 11)]
