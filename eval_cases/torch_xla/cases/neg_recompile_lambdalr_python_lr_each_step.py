"""An MNIST-style training loop with a per-step `LambdaLR` warm-up (`lr_lambda = lambda step: step`
scaled by a small base rate): the learning rate is a new Python float in every step and reaches
`optimizer.step()` as an ordinary scalar argument. torch_xla passes such scalars to the graph as
device data rather than baking them in, so the changing rate does not change the graph.

Source: https://github.com/pytorch/xla/issues/3604 ("Unintended compilation by device data": test_train_mp_mnist
with `LambdaLR(optimizer, lr_lambda=lambda step: step)` and `scheduler.step()` after every batch).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import LambdaLR


class MNISTNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 7 * 7, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(x.flatten(1))


class Trainer:
    def __init__(self, model, base_lr=1e-3, momentum=0.5):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=base_lr, momentum=momentum)
        self.scheduler = LambdaLR(self.optimizer, lr_lambda=lambda step: step + 1)

    def train_step(self, data, target):
        self.optimizer.zero_grad()
        loss = F.nll_loss(F.log_softmax(self.model(data), dim=1), target)
        loss.backward()
        self.optimizer.step()
        self.scheduler.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 1, 14, 14, generator=g).to(device), torch.randint(0, 10, (4,), generator=g).to(device)


def ENTRY(device):
    return Trainer(MNISTNet().to(device)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
