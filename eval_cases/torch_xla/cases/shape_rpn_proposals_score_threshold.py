"""Source: https://github.com/pytorch/vision/issues/2486 ("Torchvision Object detection TPU Support":
`rpn`, `NMS` and `roi_align` in Faster R-CNN do not run on the XLA device).

Region-proposal head that keeps the anchors whose objectness clears a threshold
(`boxes[scores > thresh]`) before regressing them, as torchvision's `filter_proposals` does before
NMS.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RPNHead(nn.Module):
    def __init__(self, c=8, n_anchors=3):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.cls_logits = nn.Conv2d(c, n_anchors, 1)
        self.bbox_pred = nn.Conv2d(c, n_anchors * 4, 1)

    def forward(self, feat):
        t = F.relu(self.conv(feat))
        return self.cls_logits(t), self.bbox_pred(t)


def make_step(head, opt, score_thresh=0.0):
    def train_step(feat, anchors, gt_deltas):
        opt.zero_grad()
        logits, deltas = head(feat)
        scores = logits.flatten()
        deltas = deltas.permute(0, 2, 3, 1).reshape(-1, 4)
        keep = scores > score_thresh
        kept_deltas = deltas[keep]  # XLA: shape
        boxes = anchors[keep] + kept_deltas
        loss = F.smooth_l1_loss(boxes, anchors[keep] + gt_deltas[keep]) + scores.sigmoid().mean()
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    feat = torch.randn(1, 8, 6, 6, generator=g)
    anchors = torch.rand(6 * 6 * 3, 4, generator=g) * 32
    gt = torch.randn(6 * 6 * 3, 4, generator=g) * 0.1
    return feat.to(device), anchors.to(device), gt.to(device)


def ENTRY(device):
    head = RPNHead().to(device)
    return make_step(head, torch.optim.SGD(head.parameters(), lr=0.01)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
