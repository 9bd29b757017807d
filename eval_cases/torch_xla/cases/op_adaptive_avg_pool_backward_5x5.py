"""Small CNN whose head average-pools 12x12 feature maps to a 5x5 grid with AdaptiveAvgPool2d before a
linear classifier, trained on the XLA device: 5 does not divide 12.

Source: https://github.com/pytorch/xla/issues/3764 ("_adaptive_avg_pool2d_backward": the op and its
backward run on the CPU when the output size does not divide the input size).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GridNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1),
                                      nn.ReLU())
        self.avgpool = nn.AdaptiveAvgPool2d((5, 5))  # XLA: op
        self.classifier = nn.Linear(8 * 25, n_classes)

    def forward(self, x):
        return self.classifier(torch.flatten(self.avgpool(self.features(x)), 1))


def make_train_step(model, opt):
    def train_step(img, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(img), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, 12, 12, generator=g).to(device), torch.randint(0, 4, (2,), generator=g).to(device)


def ENTRY(device):
    model = GridNet().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
