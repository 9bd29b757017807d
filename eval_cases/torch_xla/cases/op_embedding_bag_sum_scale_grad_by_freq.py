"""op_embedding_bag_sum_scale_grad_by_freq.

Source: https://github.com/pytorch/xla/issues/2403 (EmbeddingBag on XLA; `aten::embedding_bag` in
the profile). A bag-of-words classifier with `mode="sum"`, which lowers, and
`scale_grad_by_freq=True` (word2vec-style frequency scaling), which sends the op to the CPU.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BagClassifier(nn.Module):
    def __init__(self, vocab=50, dim=16, n_classes=3):
        super().__init__()
        self.bag = nn.EmbeddingBag(vocab, dim, mode="sum", scale_grad_by_freq=True)  # XLA: op
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, ids):
        return self.fc(self.bag(ids))


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
    ids = torch.randint(0, 50, (4, 6), generator=g)
    return ids.to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = BagClassifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
