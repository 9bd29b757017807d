"""Source: https://github.com/pytorch/xla/issues/2357

The segmentation loop of the report ("Running a model in loop with different inputs"; "As long as
all inputs has same shapes, it should not recompile"), with each photo resized on the host to the
model's 32x32 input before it is moved to the device, so every step feeds the same shape.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinySegmenter(nn.Module):
    def __init__(self, c=8, num_classes=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, c, 3, stride=2, padding=1), nn.ReLU(),
                                 nn.Conv2d(c, c, 3, padding=1), nn.ReLU())
        self.cls = nn.Conv2d(c, num_classes, 1)

    def forward(self, x):
        logits = self.cls(self.enc(x))
        return F.interpolate(logits, size=x.shape[-2:], mode="bilinear", align_corners=False)


def load_image(pixels, size=(32, 32)):
    x = pixels.float().div(255.0).permute(2, 0, 1)[None]
    return F.interpolate(x, size=size, mode="bilinear", align_corners=False)


class Segmenter:
    def __init__(self, model, device):
        self.model = model.eval()
        self.device = device

    @torch.no_grad()
    def segment(self, pixels):
        x = load_image(pixels).to(self.device)
        return self.model(x).argmax(1)


# --- oracle ---
def _photo(h, w, seed):
    return (torch.randint(0, 256, (h, w, 3), generator=torch.Generator().manual_seed(seed), dtype=torch.uint8),)


def ENTRY(device):
    return Segmenter(TinySegmenter().to(device), device).segment, _photo(24, 32, 0)


def ALT_ARGS(device):
    return [_photo(20, 28, 1), _photo(32, 24, 2)]
