"""Source: https://github.com/pytorch/xla/issues/3763 (`_adaptive_avg_pool2d` lowering; torch_xla
lowers it where the output size divides the input size).

An AlexNet-style classifier: nn.AdaptiveAvgPool2d((6, 6)) after a feature stack that yields a 12x12
map (6 divides 12: a plain average pool).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyAlexNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.avgpool = nn.AdaptiveAvgPool2d((6, 6))
        self.classifier = nn.Sequential(nn.Dropout(0.0), nn.Linear(8 * 36, n_classes))

    def forward(self, img):
        return self.classifier(torch.flatten(self.avgpool(self.features(img)), 1))


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
    return torch.randn(2, 3, 24, 24, generator=g).to(device), torch.randint(0, 4, (2,), generator=g).to(device)


def ENTRY(device):
    model = TinyAlexNet().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
