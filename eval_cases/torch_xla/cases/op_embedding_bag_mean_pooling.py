"""fastText-style text classifier: nn.EmbeddingBag(mode="mean") over flat token ids with offsets.

Source: https://github.com/pytorch/xla/issues/2403 (lowering EmbeddingBag to XLA; aten::embedding_bag
appears in the profile).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BagClassifier(nn.Module):
    def __init__(self, vocab=50, dim=16, n_classes=3):
        super().__init__()
        self.bag = nn.EmbeddingBag(vocab, dim, mode="mean")  # XLA: op
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, flat_ids, offsets):
        return self.fc(self.bag(flat_ids, offsets))


def make_train_step(model, opt):
    def train_step(flat_ids, offsets, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(flat_ids, offsets), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 50, (24,), generator=g)
    offsets = torch.tensor([0, 5, 11, 18])
    return ids.to(device), offsets.to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = BagClassifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
