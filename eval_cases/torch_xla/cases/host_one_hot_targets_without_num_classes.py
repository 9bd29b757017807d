"""Label-smoothed soft targets built with `F.one_hot(targets)` and no `num_classes`: one_hot then
has to find the number of classes from the data (`targets.max() + 1`), which reads the maximum on the
host in every step (the "validation lines in one_hot that call item()" of the report).

Source: https://github.com/pytorch/xla/pull/2543 ("Option to allow all constant scalars to be baked into the
graph": "the only change in the pytorch version is commenting out a couple of validation lines in
one_hot that call item(), which destabilize the graph").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, d_in=12, n_classes=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 24), nn.ReLU(), nn.Linear(24, n_classes))

    def forward(self, x):
        return self.net(x)


def smooth_targets(targets, smoothing=0.1):
    onehot = F.one_hot(targets).float()  # XLA: host
    return onehot * (1 - smoothing) + smoothing / onehot.size(-1)


def make_train_step(model, opt):
    def train_step(x, y):
        opt.zero_grad()
        logits = model(x)
        soft = smooth_targets(y)
        loss = -(soft * F.log_softmax(logits[:, : soft.size(-1)], -1)).sum(-1).mean()
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 6, (12,), generator=g)
    y[0] = 5
    return torch.randn(12, 12, generator=g).to(device), y.to(device)


def ENTRY(device):
    model = Classifier().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
