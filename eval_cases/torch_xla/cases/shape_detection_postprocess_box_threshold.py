"""Open-vocabulary detector inference whose post-processing keeps the boxes above a score threshold on
the device: `keep = scores > box_threshold; boxes[keep]`, run right after the forward.

Source: https://github.com/pytorch/xla/issues/8346 (grounding-dino on a TPU via torch_xla: the forward
and `processor.post_process_grounded_object_detection(outputs, box_threshold=0.4, ...)` never
returned in lazy mode and failed in eager mode).
"""
import torch
import torch.nn as nn


class TinyDetector(nn.Module):
    def __init__(self, d=16, n_queries=10, n_phrases=4):
        super().__init__()
        self.backbone = nn.Conv2d(3, d, 4, stride=4)
        self.queries = nn.Parameter(torch.randn(n_queries, d))
        self.box_head = nn.Linear(d, 4)
        self.cls_head = nn.Linear(d, n_phrases)

    def forward(self, img):
        feats = self.backbone(img).flatten(2).mean(-1)
        q = self.queries[None] + feats[:, None]
        return self.cls_head(q), self.box_head(q).sigmoid()


def make_detect(model, box_threshold=0.4):
    @torch.no_grad()
    def detect(img):
        logits, boxes = model(img)
        scores = logits.sigmoid().max(-1).values
        results = []
        for s, b in zip(scores, boxes):
            keep = s > box_threshold
            results.append(b[keep])  # XLA: shape
        return results
    return detect


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(2, 3, 16, 16, generator=g).to(device),)


def ENTRY(device):
    model = TinyDetector().to(device)
    return make_detect(model), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
