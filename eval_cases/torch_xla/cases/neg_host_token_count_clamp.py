"""The same token-normalised LM loss with the zero guard kept on the device:
`loss_sum / n_tokens.clamp(min=1)`.

Source: https://github.com/pytorch/xla/issues/3429 (the `tensor or 1.0` default forces an execution; a
clamp keeps the guard in the graph).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.out(torch.tanh(self.mix(self.emb(ids))))


def make_train_step(model, opt, pad_id=0):
    def train_step(ids, targets):
        opt.zero_grad()
        logits = model(ids)
        loss_sum = F.cross_entropy(logits.flatten(0, 1), targets.flatten(), ignore_index=pad_id, reduction="sum")
        n_tokens = (targets != pad_id).sum()
        loss = loss_sum / n_tokens.clamp(min=1)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 40, (2, 8), generator=g)
    targets = ids.roll(-1, 1)
    targets[:, -2:] = 0
    return ids.to(device), targets.to(device)


def ENTRY(device):
    model = TinyLM().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
