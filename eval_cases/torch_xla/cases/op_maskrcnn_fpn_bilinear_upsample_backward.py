"""Source: https://github.com/pytorch/xla/issues/3367

"Lower `upsample_bilinear2d`": the op "falls back to `aten` in PyTorch/XLA ... This op is required
for running Mask RCNN efficiently." A mask head trained on an XLA device that upsamples its coarse
mask logits to the RoI size with `F.interpolate(..., mode="bilinear", align_corners=False)`, so the
backward pass runs `upsample_bilinear2d_backward` every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskHead(nn.Module):
    def __init__(self, cin=8, n_classes=3):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1)
        self.logits = nn.Conv2d(16, n_classes, 1)

    def forward(self, roi_feats):
        x = F.relu(self.conv2(F.relu(self.conv1(roi_feats))))
        x = self.logits(x)
        return F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)  # XLA: op


def make_step(head, opt):
    def step(roi_feats, gt_masks, labels):
        opt.zero_grad()
        mask_logits = head(roi_feats)
        picked = mask_logits[torch.arange(labels.size(0), device=labels.device), labels]
        loss = F.binary_cross_entropy_with_logits(picked, gt_masks)
        loss.backward()
        opt.step()
        return loss.detach()
    return step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(4, 8, 7, 7, generator=g)
    masks = (torch.rand(4, 14, 14, generator=g) > 0.5).float()
    return feats.to(device), masks.to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    head = MaskHead().to(device)
    return make_step(head, torch.optim.SGD(head.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
