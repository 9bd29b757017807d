"""Seq2seq encoder whose forward prepends a BOS token only when the batch does not already start with
one, decided by `if input_ids[0, 0] == bos_id` on the device tensor.

Source: https://github.com/pytorch/xla/issues/1984 (control flow is not captured: `if tensor[i] == 1`
triggers a graph execution to pick the branch).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, vocab=40, dim=16, bos_id=1, n_classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)
        self.cls = nn.Linear(dim, n_classes)
        self.bos_id = bos_id

    def forward(self, input_ids):
        if input_ids[0, 0] == self.bos_id:  # XLA: host
            ids = input_ids
        else:
            ids = torch.cat([torch.full_like(input_ids[:, :1], self.bos_id), input_ids[:, :-1]], 1)
        h = torch.relu(self.proj(self.emb(ids)))
        return self.cls(h[:, 0])


def make_train_step(model, opt):
    def train_step(ids, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(ids), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(2, 40, (4, 8), generator=g).to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = Encoder().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
