"""A training step that calls `torch.optim.lr_scheduler.OneCycleLR.step()` after every optimizer step.
OneCycleLR rewrites both `lr` and the SGD `momentum` of the param groups as Python floats each step;
the optimizer passes them to its update ops as scalars, which torch_xla uploads as data, so the
changing hyper-parameters do not change the graph.

Source: https://github.com/pytorch/xla/issues/990 ("hyperparameter scheduling": "Unless you have Python control flow
code which generates different graphs, you should not have any recompilation issue by changing the
hyper-parameters"; the question is about schedulers that change lr and momentum).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(x.flatten(1))


def make_train_step(model, opt, scheduler):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        scheduler.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 1, 8, 8, generator=g).to(device), torch.randint(0, 10, (8,), generator=g).to(device)


def ENTRY(device):
    model = ConvNet().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, nesterov=True)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=50)
    return make_train_step(model, opt, scheduler), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
