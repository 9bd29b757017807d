"""Sequence tagger trained with `nn.CrossEntropyLoss(ignore_index=-1)`: padded positions carry the label
-1 and are left out of the mean.

Source: https://github.com/pytorch/xla/issues/859 ("CrossEntropyLoss with ignore_index is not working
as expected": in 2019 the XLA lowering ran `ignore_index` on the CPU and only for `ignore_index >= 0`;
the averaging ignored the ignored positions).
"""
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self, vocab=30, d=16, n_tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn_like = nn.Linear(d, d)
        self.out = nn.Linear(d, n_tags)

    def forward(self, ids):
        return self.out(torch.tanh(self.rnn_like(self.emb(ids))))


def make_train_step(model, opt):
    criterion = nn.CrossEntropyLoss(ignore_index=-1)

    def train_step(ids, tags):
        opt.zero_grad()
        logits = model(ids)
        loss = criterion(logits.reshape(-1, logits.shape[-1]), tags.reshape(-1))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 30, (4, 9), generator=g)
    tags = torch.randint(0, 5, (4, 9), generator=g)
    tags[:, 6:] = -1
    return ids.to(device), tags.to(device)


def ENTRY(device):
    model = Tagger().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
