"""Source: https://github.com/pytorch/xla/issues/2776 (`torch.std_mean` on a layer's weight ran on the CPU, counted as `aten::std_mean` in the metrics report, while `torch.std` and `torch.mean` called separately were lowered). The fix used here is the one shown in the report: the kernel's standard deviation and mean are computed with two separate calls, `torch.std` and `torch.mean`. (Normalizer-free CNN classifier with scaled weight standardization.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledStdConv2d(nn.Conv2d):
    def __init__(self, c_in, c_out, k, eps=1e-5, **kwargs):
        super().__init__(c_in, c_out, k, **kwargs)
        self.gain = nn.Parameter(torch.ones(c_out, 1, 1, 1))
        self.eps = eps

    def forward(self, x):
        fan_in = self.weight[0].numel()
        std = torch.std(self.weight, dim=[1, 2, 3], keepdim=True, unbiased=False)
        mean = torch.mean(self.weight, dim=[1, 2, 3], keepdim=True)
        weight = self.gain * (self.weight - mean) / (std * fan_in ** 0.5 + self.eps)
        return F.conv2d(x, weight, self.bias, self.stride, self.padding)


class NFNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = ScaledStdConv2d(3, 8, 3, padding=1)
        self.block = ScaledStdConv2d(8, 16, 3, padding=1, stride=2)
        self.head = nn.Linear(16, classes)

    def forward(self, x):
        x = F.gelu(self.stem(x))
        x = F.gelu(self.block(x))
        return self.head(x.mean(dim=(2, 3)))


def make_train_step(model, opt):
    def train_step(images, labels):
        opt.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 8, 8, generator=g).to(device), torch.randint(0, 10, (4,), generator=g).to(device)


def ENTRY(device):
    model = NFNet().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
