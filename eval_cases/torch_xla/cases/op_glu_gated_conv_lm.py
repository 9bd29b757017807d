"""Gated convolutional language model (Dauphin et al.): causal Conv1d layers followed by F.glu.

Source: https://github.com/pytorch/xla/issues/9359 (Op(s) not lowered: aten::glu_backward when training
a model that uses F.glu).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedConvLM(nn.Module):
    def __init__(self, vocab=40, dim=16, k=3, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.convs = nn.ModuleList(nn.Conv1d(dim, 2 * dim, k) for _ in range(layers))
        self.k = k
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.emb(ids).transpose(1, 2)
        for conv in self.convs:
            h = h + F.glu(conv(F.pad(h, (self.k - 1, 0))), dim=1)  # XLA: op
        return self.out(h.transpose(1, 2))


def make_train_step(model, opt):
    def train_step(ids):
        opt.zero_grad()
        logits = model(ids[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(0, 40, (2, 12), generator=g).to(device),)


def ENTRY(device):
    model = GatedConvLM().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
