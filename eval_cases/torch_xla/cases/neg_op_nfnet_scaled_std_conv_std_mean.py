"""Source: https://github.com/pytorch/xla/issues/2790

An NF-ResNet stem trained on an XLA device. Its convolutions standardize their weights on every call
the way timm's `ScaledStdConv2d` did when the report was filed: `torch.std_mean(weight, dim=[1, 2, 3])`
returns both moments in one call. The report ("please lower std_mean and var_mean", from the
NormFreeNets thread pytorch/xla#2776) found `aten::std_mean` in the metrics report, a CPU fallback in
every forward and backward. Written as a failing case and renamed after the oracle: torch_xla 2.9.0
lowers `std_mean` (no `aten::` counter, one compilation).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledStdConv2d(nn.Conv2d):
    def __init__(self, cin, cout, k, stride=1, padding=0, gamma=1.0, eps=1e-5):
        super().__init__(cin, cout, k, stride=stride, padding=padding)
        self.gain = nn.Parameter(torch.ones(cout, 1, 1, 1))
        self.scale = gamma * self.weight[0].numel() ** -0.5
        self.eps = eps

    def get_weight(self):
        std, mean = torch.std_mean(self.weight, dim=[1, 2, 3], keepdim=True, unbiased=False)
        return self.gain * self.scale * (self.weight - mean) / (std + self.eps)

    def forward(self, x):
        return F.conv2d(x, self.get_weight(), self.bias, self.stride, self.padding)


class NFStem(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.conv1 = ScaledStdConv2d(3, 8, 3, stride=2, padding=1)
        self.conv2 = ScaledStdConv2d(8, 16, 3, padding=1)
        self.head = nn.Linear(16, n_classes)

    def forward(self, x):
        x = F.gelu(self.conv1(x))
        x = F.gelu(self.conv2(x))
        return self.head(x.mean((2, 3)))


class Trainer:
    def __init__(self, model, opt):
        self.model = model
        self.opt = opt

    def step(self, img, label):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(img), label)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
_KEEP = [Trainer]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    model = NFStem().to(device)
    return Trainer(model, torch.optim.SGD(model.parameters(), lr=0.05)).step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
