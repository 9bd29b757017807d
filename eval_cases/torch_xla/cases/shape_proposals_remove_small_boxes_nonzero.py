"""Source: https://github.com/pytorch/xla/issues/2602

A region-proposal head that drops degenerate boxes the way torchvision's `remove_small_boxes` does:
the widths and heights are compared with `min_size` and the surviving rows are found with
`keep.nonzero().squeeze(1)`, then `boxes[keep]` / `scores[keep]` gather them. The report ("XLA
nonzero bug") runs exactly this filter on an XLA device: how many boxes survive depends on the
values, so the kept tensors have a data-dependent length in every step.
"""
import torch
import torch.nn as nn


def remove_small_boxes(boxes, min_size):
    ws, hs = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    keep = (ws >= min_size) & (hs >= min_size)
    return keep.nonzero().squeeze(1)  # XLA: shape


class ProposalHead(nn.Module):
    def __init__(self, c=8, num_anchors=32):
        super().__init__()
        self.delta = nn.Linear(c, 4)
        self.objectness = nn.Linear(c, 1)
        self.register_buffer("anchors", torch.linspace(0.0, 24.0, num_anchors))

    def forward(self, feats):
        d = self.delta(feats)
        cx, cy = self.anchors + d[:, 0], self.anchors + d[:, 1]
        w, h = 4.0 * d[:, 2].exp(), 4.0 * d[:, 3].exp()
        boxes = torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=1)
        return boxes, self.objectness(feats).squeeze(1).sigmoid()


class Proposer:
    def __init__(self, head, min_size=4.0):
        self.head = head.eval()
        self.min_size = min_size

    @torch.no_grad()
    def propose(self, feats):
        boxes, scores = self.head(feats)
        keep = remove_small_boxes(boxes, self.min_size)
        return boxes[keep], scores[keep]


# --- oracle ---
def _feats(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(32, 8, generator=g).to(device),)


def ENTRY(device):
    return Proposer(ProposalHead().to(device)).propose, _feats(device, 0)


def ALT_ARGS(device):
    return [_feats(device, s) for s in (1, 2)]
