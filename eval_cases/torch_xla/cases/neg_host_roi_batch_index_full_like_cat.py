"""Source: https://github.com/pytorch/xla/issues/1749 and the fix in pytorch/vision PR #1979 (build
the tensor on the device of the boxes).

RoI heads convert per-image boxes to the (batch_index, x1, y1, x2, y2) format with
`torch.full_like(boxes[i][:, :1], i)`, which follows the boxes onto the XLA device.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BoxHead(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.reg = nn.Linear(d, 4)

    def forward(self, feats):
        boxes = self.reg(feats)  # [images, boxes, 4]
        rois = []
        for i in range(boxes.shape[0]):
            idx = torch.full_like(boxes[i][:, :1], float(i))
            rois.append(torch.cat([idx, boxes[i]], dim=1))
        return torch.cat(rois, 0)


def make_train_step(model, opt):
    def train_step(feats, target):
        opt.zero_grad()
        loss = F.smooth_l1_loss(model(feats)[:, 1:], target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, 8, generator=g).to(device), torch.randn(6, 4, generator=g).to(device)


def ENTRY(device):
    model = BoxHead().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
