"""The deformable attention of rf-detr#1058 with the XLA branch the report asks for: bilinear
sampling written by hand from the four neighbouring cells with `gather` and interpolation weights,
so forward and backward are ordinary gathers/scatters that XLA lowers.

Source: https://github.com/roboflow/rf-detr/issues/1058 ("TPU Training Support", Task 1.1: an XLA branch in
`_bilinear_grid_sample` instead of `F.grid_sample`, whose backward falls back to the CPU).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def bilinear_sample(value, locations):
    """value [B, C, H, W]; locations [B, Q, P, 2] in [0, 1] (x, y); returns [B, C, Q, P]."""
    B, C, H, W = value.shape
    x = locations[..., 0] * W - 0.5
    y = locations[..., 1] * H - 0.5
    x0, y0 = x.floor(), y.floor()
    out = value.new_zeros(B, C, *x.shape[1:])
    flat = value.flatten(2)
    for dx in (0, 1):
        for dy in (0, 1):
            xi, yi = x0 + dx, y0 + dy
            w = (1 - (x - xi).abs()) * (1 - (y - yi).abs())
            valid = (xi >= 0) & (xi <= W - 1) & (yi >= 0) & (yi <= H - 1)
            idx = (yi.clamp(0, H - 1) * W + xi.clamp(0, W - 1)).long().flatten(1)
            g = flat.gather(2, idx[:, None, :].expand(-1, C, -1)).view(B, C, *x.shape[1:])
            out = out + g * (w * valid)[:, None]
    return out


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
        sampled = bilinear_sample(value, locations)
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
