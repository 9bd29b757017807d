"""op_interpolate_bilinear_antialias_downsample.

Source: https://github.com/pytorch/pytorch/issues/82397 (`F.interpolate(..., mode="bilinear",
antialias=True)` downsampling in vision models; torch_xla has no lowering of
`aten::_upsample_bilinear2d_aa`, the CPU runs it). A two-scale classifier that downsamples with
antialiasing.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiScale(nn.Module):
    def __init__(self, c=3, n_classes=4):
        super().__init__()
        self.conv = nn.Conv2d(c, 8, 3, padding=1)
        self.fc = nn.Linear(16, n_classes)

    def forward(self, img):
        small = F.interpolate(img, size=(8, 8), mode="bilinear", antialias=True, align_corners=False)  # XLA: op
        a = self.conv(img).mean((2, 3))
        b = self.conv(small).mean((2, 3))
        return self.fc(torch.cat([a, b], 1))


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
    return torch.rand(2, 3, 16, 16, generator=g).to(device), torch.randint(0, 4, (2,), generator=g).to(device)


def ENTRY(device):
    model = MultiScale().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
