"""Scene classifier whose head max-pools the 8x8 feature map to a 3x3 grid with AdaptiveMaxPool2d.

Source: https://github.com/pytorch/xla/issues/2629 (aten::adaptive_max_pool2d and its backward
show up in the metrics report of a fastai cnn_learner on TPU).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GridPoolNet(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveMaxPool2d((3, 3))  # XLA: op
        self.head = nn.Linear(32 * 9, n_classes)

    def forward(self, img):
        f = self.pool(self.stem(img))
        return self.head(f.flatten(1))


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
    return torch.randn(4, 3, 8, 8, generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    model = GridPoolNet().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
