"""Written for torch-recall11 (with the rule change): a random crop applied to the batch on the XLA
device, its offsets drawn the way torchvision's `RandomCrop.get_params` draws them,
`torch.randint(0, h - th + 1, size=(1,)).item()`: a new Python int at every step, baked into the
slice.

Source: https://github.com/pytorch/vision/pull/2401 ("Fixed torch randint incoherent sampling": the
transforms draw crop offsets with `torch.randint(...).item()` instead of `random.randint`).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_params(img, output_size):
    h, w = img.shape[-2:]
    th, tw = output_size
    i = torch.randint(0, h - th + 1, size=(1,)).item()
    j = torch.randint(0, w - tw + 1, size=(1,)).item()
    return i, j, th, tw


class SmallNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8, n_classes)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).mean((2, 3)))


def make_train_step(model, opt):
    def train_step(img, y):
        i, j, th, tw = get_params(img, (12, 12))
        opt.zero_grad()
        loss = F.cross_entropy(model(img[..., i:i + th, j:j + tw]), y)  # XLA: recompile
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 10, (4,), generator=g).to(device)


def ENTRY(device):
    torch.manual_seed(0)
    model = SmallNet().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
