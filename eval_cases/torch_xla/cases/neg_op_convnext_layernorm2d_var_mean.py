"""Source: https://github.com/pytorch/xla/issues/2790

A ConvNeXt-style block whose channels-first LayerNorm computes its moments with one
`torch.var_mean(x, dim=1)` call, trained on an XLA device. The report asked for `std_mean` and
`var_mean` lowerings: "var_mean was not lowered either"; each call ran as `aten::var_mean` on the CPU.
Written as a failing case and renamed after the oracle: torch_xla 2.9.0 lowers `var_mean` (no `aten::`
counter, one compilation).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LayerNorm2d(nn.Module):
    def __init__(self, channels, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))
        self.eps = eps

    def forward(self, x):
        var, mean = torch.var_mean(x, dim=1, keepdim=True, unbiased=False)
        x = (x - mean) * torch.rsqrt(var + self.eps)
        return x * self.weight[:, None, None] + self.bias[:, None, None]


class ConvNeXtBlock(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.dw = nn.Conv2d(dim, dim, 7, padding=3, groups=dim)
        self.norm = LayerNorm2d(dim)
        self.pw1 = nn.Conv2d(dim, 4 * dim, 1)
        self.pw2 = nn.Conv2d(4 * dim, dim, 1)

    def forward(self, x):
        return x + self.pw2(F.gelu(self.pw1(self.norm(self.dw(x)))))


class TinyConvNeXt(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 4, stride=4)
        self.block = ConvNeXtBlock(16)
        self.head = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.head(self.block(self.stem(x)).mean((2, 3)))


def train_step(model, opt, img, label):
    opt.zero_grad()
    loss = F.cross_entropy(model(img), label)
    loss.backward()
    opt.step()
    return loss.detach()


# --- oracle ---
import functools


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 10, (4,), generator=g).to(device)


def ENTRY(device):
    model = TinyConvNeXt().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    return functools.partial(train_step, model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
