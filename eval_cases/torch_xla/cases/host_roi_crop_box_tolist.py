"""Two-stage detector head without roi_align: proposal boxes are read back with `.tolist()` and each
region is cropped with Python-int slices, resized to 4x4 with bilinear interpolation and classified.

Source: https://github.com/pytorch/xla/issues/2487 (no roi_align for MaskRCNN on TPU; hand-written
region cropping needs the box coordinates on the host).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RoIHead(nn.Module):
    def __init__(self, c=8, n_classes=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU())
        self.box_reg = nn.Conv2d(c, 4, 1)
        self.cls = nn.Linear(c * 16, n_classes)

    def forward(self, img):
        feat = self.backbone(img)
        raw = torch.sigmoid(self.box_reg(feat).mean((2, 3)))
        boxes = torch.cat([raw[:, :2] * 6, 8 + raw[:, 2:] * 8], 1).long()
        crops = []
        for b, (x0, y0, x1, y1) in enumerate(boxes.tolist()):  # XLA: host
            crops.append(F.interpolate(feat[b:b + 1, :, y0:y1, x0:x1], size=(4, 4), mode="bilinear", align_corners=False))
        return self.cls(torch.cat(crops).flatten(1))


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
    return torch.randn(2, 3, 16, 16, generator=g).to(device), torch.randint(0, 3, (2,), generator=g).to(device)


def ENTRY(device):
    model = RoIHead().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
