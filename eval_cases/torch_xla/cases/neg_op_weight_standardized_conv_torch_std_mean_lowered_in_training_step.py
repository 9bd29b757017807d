"""Source: https://github.com/pytorch/xla/issues/2776 (a model's weight standardization called `torch.std_mean` on a layer's weight, and the metrics report of a minimal test on an XLA device showed the `aten::std_mean` counter, an op with no XLA lowering that ran on the CPU, while `torch.std` and `torch.mean` called separately were lowered; the follow-up, pytorch/xla#2790, asked for `std_mean` and `var_mean` to be lowered). Here an NFNet-style classifier with weight-standardized convolutions standardizes each kernel with `torch.std_mean` in every forward pass of a training step. On torch_xla 2.9 (CPU) no `aten::` counter moved and the step compiled once: `std_mean` is lowered now, the report does not reproduce, and this case is a negative that says so (it was named as a failing case before labelling; the rename moved its split). (Normalizer-free CNN classifier with scaled weight standardization.)"""
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
        std, mean = torch.std_mean(self.weight, dim=[1, 2, 3], keepdim=True, unbiased=False)
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
