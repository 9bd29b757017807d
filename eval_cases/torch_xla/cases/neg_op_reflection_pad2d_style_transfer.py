"""Fast neural style transfer network (Johnson et al.): every conv layer is preceded by nn.ReflectionPad2d;
trained with a content MSE plus a Gram-matrix style loss.

Source: https://github.com/pytorch/xla/issues/1403 (reflection_pad2d and its backward showed up as CPU
fallbacks in the fast_neural_style example; lowered since).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvLayer(nn.Module):
    def __init__(self, c_in, c_out, k, stride=1):
        super().__init__()
        self.pad = nn.ReflectionPad2d(k // 2)
        self.conv = nn.Conv2d(c_in, c_out, k, stride)

    def forward(self, x):
        return self.conv(self.pad(x))


class TransformerNet(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.net = nn.Sequential(ConvLayer(3, c, 5), nn.InstanceNorm2d(c, affine=True), nn.ReLU(),
                                 ConvLayer(c, c, 3), nn.InstanceNorm2d(c, affine=True), nn.ReLU(),
                                 ConvLayer(c, 3, 5))

    def forward(self, x):
        return self.net(x)


def gram(f):
    b, c, h, w = f.shape
    f = f.reshape(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


def make_train_step(model, opt, style_gram):
    def train_step(content):
        opt.zero_grad()
        out = model(content)
        loss = F.mse_loss(out, content) + 10.0 * F.mse_loss(gram(out), style_gram.expand(out.size(0), -1, -1))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(2, 3, 12, 12, generator=g).to(device),)


def ENTRY(device):
    model = TransformerNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    style = torch.rand(1, 3, 12, 12, generator=torch.Generator().manual_seed(9)).to(device)
    return make_train_step(model, opt, gram(style)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
