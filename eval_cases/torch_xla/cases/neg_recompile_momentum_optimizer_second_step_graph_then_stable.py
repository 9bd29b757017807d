"""Source: https://github.com/pytorch/xla/issues/5554 ("one modle train and compile many time, in pytorch xla? why and solution": a simple model trained with an optimizer that keeps state produced two different graphs, the second one taking the optimizer's state buffers as extra inputs and outputs; the reporter asked how to get a single graph). The optimizer state does not exist before the first `step()`, so the first and second steps trace different graphs; from the third step on the same graph is replayed and nothing compiles again. Here a classifier is trained with SGD with momentum, whose momentum buffers are created by the first step. (MLP classifier trained with momentum SGD.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, d_in=12, hidden=32, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.net(x)


def make_train_step(model, opt):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 12, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    model = Classifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
