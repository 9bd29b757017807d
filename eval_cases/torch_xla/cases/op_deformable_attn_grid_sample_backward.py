"""Multi-scale deformable attention as in Deformable-DETR / RF-DETR: each query samples the value
map at learned offsets with `F.grid_sample(..., mode="bilinear", align_corners=False)` and mixes the
samples with attention weights. Training the detector runs the backward of `grid_sample`, which is a
CPU fallback on XLA.

Source: https://github.com/roboflow/rf-detr/issues/1058 ("TPU Training Support": "`F.grid_sample` backward is a
known CPU-fallback op on XLA", Task 1.1, an XLA branch in `_bilinear_grid_sample`).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DeformableAttention(nn.Module):
    def __init__(self, d=16, n_points=4):
        super().__init__()
        self.n_points = n_points
        self.sampling_offsets = nn.Linear(d, n_points * 2)
        self.attention_weights = nn.Linear(d, n_points)
        self.value_proj = nn.Linear(d, d)
        self.output_proj = nn.Linear(d, d)

    def forward(self, query, reference_points, value_map):
        B, Q, _ = query.shape
        value = self.value_proj(value_map.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)
        offsets = self.sampling_offsets(query).view(B, Q, self.n_points, 2).tanh() * 0.1
        locations = reference_points[:, :, None, :] + offsets
        grid = 2 * locations - 1
        sampled = F.grid_sample(value, grid, mode="bilinear", padding_mode="zeros",  # XLA: op
                                align_corners=False)
        weights = self.attention_weights(query).softmax(-1)
        out = (sampled * weights[:, None]).sum(-1).transpose(1, 2)
        return self.output_proj(out)


class TinyDetectorHead(nn.Module):
    def __init__(self, d=16, n_queries=6, n_classes=3):
        super().__init__()
        self.query_embed = nn.Parameter(torch.randn(n_queries, d))
        self.ref = nn.Linear(d, 2)
        self.attn = DeformableAttention(d)
        self.cls = nn.Linear(d, n_classes)
        self.box = nn.Linear(d, 4)

    def forward(self, features):
        q = self.query_embed.expand(features.size(0), -1, -1)
        ref = self.ref(q).sigmoid()
        h = q + self.attn(q, ref, features)
        return self.cls(h), self.box(h).sigmoid()


def make_train_step(model, opt):
    def train_step(features, labels, boxes):
        logits, pred_boxes = model(features)
        loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten()) + F.l1_loss(pred_boxes, boxes)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(2, 16, 8, 8, generator=g).to(device), torch.randint(0, 3, (2, 6), generator=g).to(device),
            torch.rand(2, 6, 4, generator=g).to(device))


def ENTRY(device):
    model = TinyDetectorHead().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
