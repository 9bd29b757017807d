"""Source: https://github.com/pytorch/pytorch/issues/30899 ("Adding max_norm constraint to an Embedding
layer leads to an error": `nn.Embedding(max_separation, position_embedding_size, max_norm=3.0)` in a
drug-drug interaction model).

Relation classifier whose position embedding is built with `max_norm=3.0`: every lookup first
renormalises the looked-up rows in place (`torch.embedding_renorm_`).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DDIModel(nn.Module):
    def __init__(self, max_separation=20, position_embedding_size=8, output_classes=5):
        super().__init__()
        self.max_separation = max_separation
        self.position_embedding = nn.Embedding(max_separation, position_embedding_size, max_norm=3.0)  # XLA: op
        self.hidden2class = nn.Linear(position_embedding_size, output_classes)

    def forward(self, positions):
        out = self.position_embedding(positions).sum(dim=1)
        return F.log_softmax(self.hidden2class(out), dim=1)


def make_step(model, opt):
    def train_step(positions, labels):
        opt.zero_grad()
        loss = F.nll_loss(model(positions), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 20, (6, 7), generator=g).to(device), torch.randint(0, 5, (6,), generator=g).to(device)


def ENTRY(device):
    model = DDIModel().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.5)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
