"""A GRU-cell language classifier unrolled in Python over time steps up to the batch's longest sequence
(`int(lengths.max())`, lengths kept on the CPU): the trip count changes with the batch, and torch_xla
unrolls the loop into the graph, so each new longest length is a new graph.

Source: https://github.com/pytorch/xla/issues/2422 (fastai's AWD_LSTM, an RNN trained on variable-length
text, far slower on TPU than on CPU; the analysis found the forward and optimizer step compiling again).
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
        ids, labels = ids.to(device), labels.to(device)
        opt.zero_grad()
        x = model.emb(ids)
        h = torch.zeros(ids.size(0), 16, device=device)
        steps = int(lengths.max())
        for t in range(steps):  # XLA: recompile
            h = model.cell(x[:, t], h)
        loss = F.cross_entropy(model.head(h), labels)
        loss.backward()
        opt.step()
        torch_xla.sync()


# --- oracle ---
def _args(device, seed, lengths):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 50, (4, 12), generator=g)
    return ids.to(device), torch.tensor(lengths), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = GRUClassifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def step(ids, lengths, labels):
        opt.zero_grad()
        x = model.emb(ids)
        h = torch.zeros(ids.size(0), 16, device=device)
        for t in range(int(lengths.max())):
            h = model.cell(x[:, t], h)
        loss = F.cross_entropy(model.head(h), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return step, _args(device, 0, (5, 7, 3, 6))


def ALT_ARGS(device):
    return [_args(device, 1, (9, 2, 4, 4)), _args(device, 2, (3, 3, 11, 5)), _args(device, 3, (6, 8, 1, 2))]
