"""Multi-sentence pooling: the training loop reads each batch's per-document sentence counts with
`.tolist()` and splits the encoded sentences by them (`torch.split(h, counts)`), so the split sections,
Python ints baked into the graph, change with every batch.

Source: https://github.com/pytorch/pytorch/issues/47479 (code "currently do[es]
`split_size_or_sections=tensor.tolist()`" and a traced graph records the sizes as constants, so it fails
on other inputs; on torch_xla the same constants make a new graph per batch).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla
from torch.utils.data import DataLoader


class SentenceEncoder(nn.Module):
    def __init__(self, d_in=12, dim=16):
        super().__init__()
        self.enc = nn.Linear(d_in, dim)
        self.head = nn.Linear(dim, 2)

    def forward(self, sentences):
        return torch.tanh(self.enc(sentences))


def train(model, opt, dataset, device):
    loader = DataLoader(dataset, batch_size=4, drop_last=True)
    for sentences, counts, labels in loader:
        sentences, labels = sentences.to(device), labels.to(device)
        opt.zero_grad()
        h = model(sentences)
        docs = torch.split(h, counts.tolist())  # XLA: recompile
        pooled = torch.stack([d.mean(0) for d in docs])
        loss = F.cross_entropy(model.head(pooled), labels)
        loss.backward()
        opt.step()
        torch_xla.sync()


# --- oracle ---
def _args(device, seed, counts):
    g = torch.Generator().manual_seed(seed)
    sentences = torch.randn(12, 12, generator=g)  # 12 sentences in all, grouped differently per batch
    return sentences.to(device), torch.tensor(counts), torch.randint(0, 2, (4,), generator=g).to(device)


def ENTRY(device):
    model = SentenceEncoder().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def step(sentences, counts, labels):
        opt.zero_grad()
        h = model(sentences)
        docs = torch.split(h, counts.tolist())
        pooled = torch.stack([d.mean(0) for d in docs])
        loss = F.cross_entropy(model.head(pooled), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return step, _args(device, 0, (3, 3, 3, 3))


def ALT_ARGS(device):
    return [_args(device, 1, (2, 4, 3, 3)), _args(device, 2, (5, 1, 3, 3)), _args(device, 3, (1, 1, 5, 5))]
