"""Source: https://github.com/pytorch/xla/issues/524 ("metric report from mask rcnn inference run": the report of a Mask R-CNN inference run shows `aten::_th_nonzero` (93 calls) and `aten::upsample_nearest2d` among the ops that fell back to the CPU; the maintainers answered that `nonzero` cannot be lowered easily, its output size depends on the data). Here the inference step of a Mask R-CNN style head keeps the detections whose score passes a threshold with `torch.nonzero`, gathers their boxes and masks, and upsamples the masks with nearest-neighbour interpolation. (Instance segmentation head post-processing at inference time.)"""
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


def make_infer_step(head, thresh=0.5):
    @torch.no_grad()
    def infer_step(roi_feats):
        scores, boxes, mask_logits = head(roi_feats)
        keep = torch.nonzero(scores > thresh).squeeze(1)  # XLA: shape
        masks = F.interpolate(mask_logits[keep], scale_factor=4, mode="nearest")
        return boxes[keep], scores[keep], masks.sigmoid() > 0.5
    return infer_step


# --- oracle ---
def _rois(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 8, 7, 7, generator=g).to(device)


def ENTRY(device):
    return make_infer_step(MaskHead().to(device).eval()), (_rois(device, 0),)


def ALT_ARGS(device):
    return [(_rois(device, s),) for s in (1, 2)]
