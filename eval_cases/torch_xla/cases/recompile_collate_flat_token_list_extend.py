"""A sentence-level tagger whose `collate_fn` flattens every sentence of the batch into one Python token
list (plus a sentence-id per token) before making tensors: the flat length follows the sentences' lengths.

Source: https://github.com/pytorch/xla/issues/1509 (a graph that "keeps recompiling ... due to input
shapes changing across different steps": the reporter's data were of different lengths; training got
faster once every example had the same length).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class TokenTagger(nn.Module):
    def __init__(self, vocab=60, dim=16, tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, tags)

    def forward(self, tokens):
        return self.out(torch.tanh(self.proj(self.emb(tokens))))


def collate(sentences):
    tokens, tags = [], []
    for sent in sentences:
        tokens.extend(sent["tokens"])
        tags.extend(sent["tags"])
    return torch.tensor(tokens), torch.tensor(tags)  # XLA: recompile


def train_step(model, opt, tokens, tags):
    opt.zero_grad()
    loss = F.cross_entropy(model(tokens), tags)
    loss.backward()
    opt.step()
    return loss.detach()


def train(model, opt, dataset, device):
    loader = DataLoader(dataset, batch_size=8, collate_fn=collate, drop_last=True)
    for tokens, tags in loader:
        train_step(model, opt, tokens.to(device), tags.to(device))


# --- oracle ---
import functools


def _sentences(seed, lengths):
    g = torch.Generator().manual_seed(seed)
    return [{"tokens": torch.randint(1, 60, (n,), generator=g).tolist(),
             "tags": torch.randint(0, 5, (n,), generator=g).tolist()} for n in lengths]


def _args(device, seed, lengths):
    tokens, tags = collate(_sentences(seed, lengths))
    return tokens.to(device), tags.to(device)


def ENTRY(device):
    model = TokenTagger().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return functools.partial(train_step, model, opt), _args(device, 0, (5, 7, 3))


def ALT_ARGS(device):
    return [_args(device, 1, (6, 2, 9)), _args(device, 2, (4, 4, 8)), _args(device, 3, (10, 1, 2))]
