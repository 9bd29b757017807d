"""The DETR-style training step after padding the targets to a fixed row count: the collate function
pads every image's boxes to `max_targets` rows and passes a validity mask, and the loss masks the padded
rows out and divides by the real box count as a tensor, so every batch has the same shapes.

Source: https://github.com/roboflow/rf-detr/pull/1450 ("pad training targets to a fixed row count for XLA":
"pads every training image's targets to a fixed row count, so the loss keeps one shape across batches").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDetector(nn.Module):
    def __init__(self, d=16, num_queries=8):
        super().__init__()
        self.backbone = nn.Linear(32, d)
        self.queries = nn.Parameter(torch.randn(num_queries, d) * 0.1)
        self.box_head = nn.Linear(d, 4)

    def forward(self, feats):
        mem = torch.tanh(self.backbone(feats)).mean(1, keepdim=True)
        return self.box_head(mem + self.queries).sigmoid()


def make_train_step(model, opt):
    def train_step(feats, tgt_boxes, tgt_valid):
        opt.zero_grad()
        pred_boxes = model(feats)
        per_box = F.l1_loss(pred_boxes, tgt_boxes, reduction="none").sum(-1)
        loss = (per_box * tgt_valid).sum() / tgt_valid.sum().clamp(min=1)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, counts, max_targets=8):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(len(counts), 6, 32, generator=g)
    boxes = torch.zeros(len(counts), max_targets, 4)
    valid = torch.zeros(len(counts), max_targets)
    for i, n in enumerate(counts):
        boxes[i, :n] = torch.rand(n, 4, generator=g)
        valid[i, :n] = 1.0
    return feats.to(device), boxes.to(device), valid.to(device)


def ENTRY(device):
    model = TinyDetector().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3)), _batch(device, 0, (3, 5))


def ALT_ARGS(device):
    return [_batch(device, s, c) for s, c in ((1, (2, 6)), (2, (4, 1)), (3, (7, 3)))]
