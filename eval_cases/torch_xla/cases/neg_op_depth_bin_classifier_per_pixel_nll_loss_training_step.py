"""Source: https://github.com/pytorch/xla/issues/2363 ("Lowering nll_loss2d_forward and nll_loss2d_backward": a dense-prediction model trained on a TPU whose per-pixel classification loss ran `aten::nll_loss2d_forward` and `aten::nll_loss2d_backward` on the CPU; the request was to lower both). Here a monocular depth network predicts a distribution over depth bins at every pixel and is trained with `F.nll_loss` on `log_softmax` of its 4-D logits, which dispatches to `nll_loss2d`. On torch_xla 2.9 (CPU) both passes are lowered: the report no longer reproduces, and this case is a negative that says so. (Depth-bin classification network, AdaBins style.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DepthBinNet(nn.Module):
    def __init__(self, bins=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        self.bin_logits = nn.Conv2d(16, bins, 1)

    def forward(self, x):
        return self.bin_logits(self.encoder(x))


def depth_to_bins(depth, bins=8, max_depth=10.0):
    return torch.clamp((depth / max_depth * bins).long(), 0, bins - 1)


def make_train_step(model, opt):
    def train_step(images, depth):
        opt.zero_grad()
        log_probs = F.log_softmax(model(images), dim=1)
        loss = F.nll_loss(log_probs, depth_to_bins(depth))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    images = torch.randn(2, 3, 12, 12, generator=g)
    depth = torch.rand(2, 12, 12, generator=g) * 10.0
    return images.to(device), depth.to(device)


def ENTRY(device):
    model = DepthBinNet().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
