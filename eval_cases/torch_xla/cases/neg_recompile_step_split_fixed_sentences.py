"""Multi-sentence pooling with a fixed number of sentences per document (the dataset pads each document
to 3 sentences): the loop splits the encoded sentences with a constant section size, one graph.

Source: https://github.com/pytorch/pytorch/issues/47479 (a near miss of it: split sizes that are
constants of the program, not `tensor.tolist()` of the batch, give the same graph every step).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla
from torch.utils.data import DataLoader

SENTENCES_PER_DOC = 3


class SentenceEncoder(nn.Module):
    def __init__(self, d_in=12, dim=16):
        super().__init__()
        self.enc = nn.Linear(d_in, dim)
        self.head = nn.Linear(dim, 2)

    def forward(self, sentences):
        return torch.tanh(self.enc(sentences))


def train(model, opt, dataset, device):
    loader = DataLoader(dataset, batch_size=4, drop_last=True)
    for sentences, labels in loader:
        sentences, labels = sentences.to(device), labels.to(device)
        opt.zero_grad()
        h = model(sentences)
        docs = torch.split(h, SENTENCES_PER_DOC)
        pooled = torch.stack([d.mean(0) for d in docs])
        loss = F.cross_entropy(model.head(pooled), labels)
        loss.backward()
        opt.step()
        torch_xla.sync()


# --- oracle ---
def _args(device, seed):
    g = torch.Generator().manual_seed(seed)
    sentences = torch.randn(12, 12, generator=g)
    return sentences.to(device), torch.randint(0, 2, (4,), generator=g).to(device)


def ENTRY(device):
    model = SentenceEncoder().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def step(sentences, labels):
        opt.zero_grad()
        h = model(sentences)
        docs = torch.split(h, SENTENCES_PER_DOC)
        pooled = torch.stack([d.mean(0) for d in docs])
        loss = F.cross_entropy(model.head(pooled), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return step, _args(device, 0)


def ALT_ARGS(device):
    return [_args(device, 1), _args(device, 2), _args(device, 3)]
