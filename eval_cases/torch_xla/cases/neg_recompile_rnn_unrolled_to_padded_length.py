"""The GRU-cell classifier unrolled over the padded length of the batch (`ids.size(1)`, fixed by the
collator) with each sequence's state frozen past its own length by a mask: one trip count, one graph.

Source: https://github.com/pytorch/xla/issues/2422 (a near miss of it: an RNN on variable-length text
whose loop runs a fixed number of steps and masks, instead of stopping at the batch's longest).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla
from torch.utils.data import DataLoader


class GRUClassifier(nn.Module):
    def __init__(self, vocab=50, dim=16, classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.cell = nn.GRUCell(dim, dim)
        self.head = nn.Linear(dim, classes)


def train(model, opt, dataset, device):
    loader = DataLoader(dataset, batch_size=4, shuffle=True, drop_last=True)
    for ids, lengths, labels in loader:
        ids, lengths, labels = ids.to(device), lengths.to(device), labels.to(device)
        opt.zero_grad()
        x = model.emb(ids)
        h = torch.zeros(ids.size(0), 16, device=device)
        for t in range(ids.size(1)):
            live = (t < lengths).unsqueeze(1)
            h = torch.where(live, model.cell(x[:, t], h), h)
        loss = F.cross_entropy(model.head(h), labels)
        loss.backward()
        opt.step()
        torch_xla.sync()


# --- oracle ---
def _args(device, seed, lengths):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 50, (4, 12), generator=g)
    return ids.to(device), torch.tensor(lengths).to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = GRUClassifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def step(ids, lengths, labels):
        opt.zero_grad()
        x = model.emb(ids)
        h = torch.zeros(ids.size(0), 16, device=device)
        for t in range(ids.size(1)):
            live = (t < lengths).unsqueeze(1)
            h = torch.where(live, model.cell(x[:, t], h), h)
        loss = F.cross_entropy(model.head(h), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return step, _args(device, 0, (5, 7, 3, 6))


def ALT_ARGS(device):
    return [_args(device, 1, (9, 2, 4, 4)), _args(device, 2, (3, 3, 11, 5)), _args(device, 3, (6, 8, 1, 2))]
