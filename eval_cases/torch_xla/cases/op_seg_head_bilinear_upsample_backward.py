"""Source: https://github.com/pytorch/xla/issues/8754

A semantic-segmentation training step whose decoder resizes the stride-4 logits back to the label
resolution with `F.interpolate(..., mode="bilinear", align_corners=False)`. The report
("upsample_bilinear2d_backward lowering on GPU") shows the forward lowered but
`aten::upsample_bilinear2d_backward` counted as a CPU fallback on every step of training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SegNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                                 nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.cls = nn.Conv2d(16, n_classes, 1)

    def forward(self, img):
        logits = self.cls(self.enc(img))
        return F.interpolate(logits, size=img.shape[-2:], mode="bilinear", align_corners=False)  # XLA: op


def make_train_step(model, opt):
    def train_step(img, mask):
        opt.zero_grad()
        loss = F.cross_entropy(model(img), mask)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, 16, 16, generator=g).to(device), torch.randint(0, 4, (2, 16, 16), generator=g).to(device)


def ENTRY(device):
    model = SegNet().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
