"""Training with a validation pass after every training chunk: one call runs a training step and
then an evaluation forward in `eval()` mode, so the device alternates between two different graphs.
Both graphs are kept in torch_xla's compilation cache, so going back to the training graph after a
validation pass does not compile it again.

Source: https://github.com/pytorch/xla/issues/2065 ("Maintain several computation graphs": "if i move from a
specific computation type A to a computation type B, when i go back to type A, seems that the
computation graph is rebuild").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, padding=1)
        self.bn = nn.BatchNorm2d(6)
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(6, n_classes)

    def forward(self, x):
        x = F.relu(self.bn(self.conv(x)))
        return self.fc(self.drop(x.mean((2, 3))))


class Trainer:
    def __init__(self, model, opt):
        self.model, self.opt = model, opt

    def train_then_validate(self, x, y, x_val, y_val):
        self.model.train()
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        self.opt.step()
        self.model.eval()
        with torch.no_grad():
            val_correct = (self.model(x_val).argmax(-1) == y_val).sum()
        return loss.detach(), val_correct


# --- oracle ---
COMPARE = False


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(4, 3, 8, 8, generator=g).to(device), torch.randint(0, 4, (4,), generator=g).to(device),
            torch.randn(6, 3, 8, 8, generator=g).to(device), torch.randint(0, 4, (6,), generator=g).to(device))


def ENTRY(device):
    model = ConvNet().to(device)
    return Trainer(model, torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)).train_then_validate, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
