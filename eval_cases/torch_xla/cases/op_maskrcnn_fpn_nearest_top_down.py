"""Source: https://github.com/pytorch/xla/issues/3367

Written as a near miss of the report's Mask R-CNN upsampling and renamed after the oracle: the FPN
top-down pathway (as in torchvision's `FeaturePyramidNetwork`) merges levels with nearest-neighbour
`F.interpolate(size=...)`, trained on an XLA device with a small detection-style loss on every level.
torch_xla 2.9.0 (PJRT CPU) counts `aten::upsample_nearest2d_backward`: the backward of the resize runs on
the CPU every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyFPN(nn.Module):
    def __init__(self, chans=(8, 16), out=8):
        super().__init__()
        self.c1 = nn.Conv2d(3, chans[0], 3, stride=2, padding=1)
        self.c2 = nn.Conv2d(chans[0], chans[1], 3, stride=2, padding=1)
        self.lat1 = nn.Conv2d(chans[0], out, 1)
        self.lat2 = nn.Conv2d(chans[1], out, 1)
        self.smooth = nn.Conv2d(out, out, 3, padding=1)
        self.obj = nn.Conv2d(out, 1, 1)

    def forward(self, img):
        f1 = F.relu(self.c1(img))
        f2 = F.relu(self.c2(f1))
        p2 = self.lat2(f2)
        p1 = self.lat1(f1) + F.interpolate(p2, size=f1.shape[-2:], mode="nearest")  # XLA: op
        return self.obj(self.smooth(p1)), self.obj(p2)


def make_step(model, opt):
    def step(img, obj1, obj2):
        opt.zero_grad()
        o1, o2 = model(img)
        loss = F.binary_cross_entropy_with_logits(o1, obj1) + F.binary_cross_entropy_with_logits(o2, obj2)
        loss.backward()
        opt.step()
        return loss.detach()
    return step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    img = torch.randn(2, 3, 16, 16, generator=g)
    obj1 = (torch.rand(2, 1, 8, 8, generator=g) > 0.8).float()
    obj2 = (torch.rand(2, 1, 4, 4, generator=g) > 0.8).float()
    return img.to(device), obj1.to(device), obj2.to(device)


def ENTRY(device):
    model = TinyFPN().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
