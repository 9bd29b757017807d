"""A DETR-style training step whose box loss is shaped by the ground truth: for every image the first
`n` query predictions are matched to its `n` target boxes (`pred_boxes[i, :n]` against `tgt[:n]`), where
`n` is the image's box count, a Python int from the data loader. A batch with a new set of counts traces
a new graph and compiles again.

Source: https://github.com/roboflow/rf-detr/pull/1450 ("pad training targets to a fixed row count for XLA":
"The detection loss is shaped by the ground-truth box count, so on TPU a batch with a new per-image count
triggers a recompile").
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
    def train_step(feats, targets):
        opt.zero_grad()
        pred_boxes = model(feats)
        loss = 0.0
        for i, tgt in enumerate(targets):
            n = tgt.shape[0]
            loss = loss + F.l1_loss(pred_boxes[i, :n], tgt, reduction="sum")  # XLA: recompile
        loss = loss / sum(t.shape[0] for t in targets)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, counts):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(len(counts), 6, 32, generator=g).to(device)
    targets = [torch.rand(n, 4, generator=g).to(device) for n in counts]
    return feats, targets


def ENTRY(device):
    model = TinyDetector().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3)), _batch(device, 0, (3, 5))


def ALT_ARGS(device):
    return [_batch(device, s, c) for s, c in ((1, (2, 6)), (2, (4, 1)), (3, (7, 3)))]
