"""Source: https://github.com/pytorch/xla/issues/2602

The same region-proposal head as the report ("XLA nonzero bug": `remove_small_boxes` with
`keep.nonzero()`), written with a fixed number of outputs: boxes that are too small are ranked last
instead of being removed, and the head returns the `post_nms_top_n` best rows with `topk`, so
every step produces tensors of the same shape whatever the values are. (Too-small boxes are ranked
below all others by `score - 2` rather than a constant, so `topk` meets no ties.)
"""
import torch
import torch.nn as nn


def small_box_mask(boxes, min_size):
    ws, hs = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    return (ws >= min_size) & (hs >= min_size)


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
    def __init__(self, head, min_size=4.0, post_nms_top_n=8):
        self.head = head.eval()
        self.min_size = min_size
        self.top_n = post_nms_top_n

    @torch.no_grad()
    def propose(self, feats):
        boxes, scores = self.head(feats)
        valid = small_box_mask(boxes, self.min_size)
        scores = torch.where(valid, scores, scores - 2.0)
        top, idx = scores.topk(self.top_n)
        return boxes[idx], top


# --- oracle ---
def _feats(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(32, 8, generator=g).to(device),)


def ENTRY(device):
    return Proposer(ProposalHead().to(device)).propose, _feats(device, 0)


def ALT_ARGS(device):
    return [_feats(device, s) for s in (1, 2)]
