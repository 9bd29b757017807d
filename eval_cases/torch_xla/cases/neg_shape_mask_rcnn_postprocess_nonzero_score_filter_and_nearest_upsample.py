"""Source: https://github.com/pytorch/xla/issues/524 (fix twin: keep a fixed number of detections, as static-shape detection heads do on TPU: `topk` of the scores plus a validity mask instead of `nonzero`, so every output has the same shape at every step). The same Mask R-CNN style head returns the top-k detections with a score mask and upsamples their masks with nearest-neighbour interpolation. (Instance segmentation head post-processing at inference time.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskHead(nn.Module):
    def __init__(self, channels=8, n_det=16):
        super().__init__()
        self.score = nn.Linear(channels * 7 * 7, 1)
        self.box = nn.Linear(channels * 7 * 7, 4)
        self.mask = nn.Conv2d(channels, 1, 3, padding=1)

    def forward(self, roi_feats):
        flat = roi_feats.flatten(1)
        return torch.sigmoid(self.score(flat)).squeeze(1), self.box(flat), self.mask(roi_feats)


def make_infer_step(head, thresh=0.5, max_det=8):
    @torch.no_grad()
    def infer_step(roi_feats):
        scores, boxes, mask_logits = head(roi_feats)
        top_scores, top = scores.topk(max_det)
        valid = top_scores > thresh
        masks = F.interpolate(mask_logits[top], scale_factor=4, mode="nearest")
        return boxes[top], top_scores * valid, (masks.sigmoid() > 0.5) & valid[:, None, None, None]
    return infer_step


# --- oracle ---
def _rois(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 8, 7, 7, generator=g).to(device)


def ENTRY(device):
    return make_infer_step(MaskHead().to(device).eval()), (_rois(device, 0),)


def ALT_ARGS(device):
    return [(_rois(device, s),) for s in (1, 2)]
