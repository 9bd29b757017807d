"""Source: https://github.com/pytorch/vision/pull/9518

A box-regression head trained with a generalized-IoU loss that guards against empty boxes with
boolean-mask indexing: `iou[valid] = inter[valid] / union[valid]`. "Indexing with a boolean mask
causes a GPU to CPU sync"; under torch_xla the mask's nonzero runs on the CPU, its count is read
back, and the masked assignment is traced with a data-dependent shape every step. The PR replaces
the masking with a clamp.
"""
import torch
import torch.nn as nn


def generalized_box_iou_loss(pred, target, eps=1e-7):
    x1 = torch.max(pred[:, 0], target[:, 0])
    y1 = torch.max(pred[:, 1], target[:, 1])
    x2 = torch.min(pred[:, 2], target[:, 2])
    y2 = torch.min(pred[:, 3], target[:, 3])
    inter = (x2 - x1).clamp(min=0) * (y2 - y1).clamp(min=0)
    area_p = (pred[:, 2] - pred[:, 0]) * (pred[:, 3] - pred[:, 1])
    area_t = (target[:, 2] - target[:, 0]) * (target[:, 3] - target[:, 1])
    union = area_p + area_t - inter
    valid = union > eps
    iou = torch.zeros_like(union)
    iou[valid] = inter[valid] / union[valid]  # XLA: op
    cw = torch.max(pred[:, 2], target[:, 2]) - torch.min(pred[:, 0], target[:, 0])
    ch = torch.max(pred[:, 3], target[:, 3]) - torch.min(pred[:, 1], target[:, 1])
    area_c = cw * ch
    return (1 - iou + (area_c - union) / (area_c + eps)).mean()


class BoxHead(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, feats, anchors):
        delta = self.mlp(feats)
        xy = anchors[:, :2] + delta[:, :2]
        wh = anchors[:, 2:] - anchors[:, :2]
        wh = wh * delta[:, 2:].exp()
        return torch.cat([xy, xy + wh], dim=-1)


def make_train_step(head, opt):
    def train_step(feats, anchors, gt_boxes):
        opt.zero_grad()
        loss = generalized_box_iou_loss(head(feats, anchors), gt_boxes)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _boxes(g, n):
    xy = torch.rand(n, 2, generator=g) * 10
    return torch.cat([xy, xy + 1 + torch.rand(n, 2, generator=g) * 4], dim=-1)


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(12, 16, generator=g).to(device), _boxes(g, 12).to(device), _boxes(g, 12).to(device))


def ENTRY(device):
    head = BoxHead().to(device)
    return make_train_step(head, torch.optim.SGD(head.parameters(), lr=0.01)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
