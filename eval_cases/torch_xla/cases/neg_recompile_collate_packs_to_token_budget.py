"""The padding-free LM pipeline with its `collate_fn` truncating the concatenated stream to a fixed token
budget and padding it back to that budget (the padding ignored by the loss): one shape for every batch.

Source: https://github.com/pytorch/xla/issues/1522 (the suggested fix: "further pad the packed sequence so it
always has the same shape").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class StreamLM(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.Conv1d(dim, dim, 3, padding=1)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.emb(ids).t()[None]
        return self.out(torch.relu(self.mix(h))[0].t())


BUDGET = 32
PAD = 0


def collate(batch):
    ids = torch.cat([torch.as_tensor(doc["input_ids"]) for doc in batch])[:BUDGET]
    ids = torch.cat([ids, ids.new_full((BUDGET - ids.numel(),), PAD)])
    return {"input_ids": ids}


def train_step(model, opt, ids):
    opt.zero_grad()
    loss = F.cross_entropy(model(ids[:-1]), ids[1:], ignore_index=PAD)
    loss.backward()
    opt.step()
    return loss.detach()


def train(model, opt, dataset, device):
    loader = DataLoader(dataset, batch_size=4, shuffle=True, collate_fn=collate, drop_last=True)
    for batch in loader:
        train_step(model, opt, batch["input_ids"].to(device))


# --- oracle ---
import functools


def _docs(seed, lengths):
    g = torch.Generator().manual_seed(seed)
    return [{"input_ids": torch.randint(1, 40, (n,), generator=g).tolist()} for n in lengths]


def _args(device, seed, lengths):
    return (collate(_docs(seed, lengths))["input_ids"].to(device),)


def ENTRY(device):
    model = StreamLM().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return functools.partial(train_step, model, opt), _args(device, 0, (7, 9, 4, 6))


def ALT_ARGS(device):
    return [_args(device, 1, (5, 8, 3, 3)), _args(device, 2, (10, 3, 9, 2)), _args(device, 3, (6, 6, 6, 1))]
