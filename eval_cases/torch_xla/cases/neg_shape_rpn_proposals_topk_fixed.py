"""Source: https://github.com/pytorch/vision/issues/2486 ("Torchvision Object detection TPU Support"; the
fixed pre-NMS top-n near miss of the thresholded proposal filter).

Region-proposal head that keeps a fixed number of proposals with `topk` over the objectness
(pre-NMS top-n, as torchvision's `_get_top_n_idx` does) and gathers their deltas by index: the
kept count is a constant, so shapes do not depend on the scores.
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


def make_step(head, opt, pre_nms_top_n=32):
    def train_step(feat, anchors, gt_deltas):
        opt.zero_grad()
        logits, deltas = head(feat)
        scores = logits.flatten()
        deltas = deltas.permute(0, 2, 3, 1).reshape(-1, 4)
        top_scores, idx = scores.topk(pre_nms_top_n)
        boxes = anchors[idx] + deltas[idx]
        loss = F.smooth_l1_loss(boxes, anchors[idx] + gt_deltas[idx]) + top_scores.sigmoid().mean()
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
