"""3-D segmentation decoder that upsamples the volumetric features with nn.Upsample(scale_factor=2,
mode="nearest") before a Conv3d, trained with a Dice + cross-entropy loss.

Source: https://github.com/pytorch/xla/issues/6932 (op lowering for Upsample3D: aten::upsample_nearest3d
and its backward are the training bottleneck on TPU).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VolumeDecoder(nn.Module):
    def __init__(self, c=4, n_classes=2):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv3d(1, c, 3, padding=1), nn.ReLU(), nn.MaxPool3d(2))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")  # XLA: op
        self.dec = nn.Conv3d(c, n_classes, 3, padding=1)

    def forward(self, vol):
        return self.dec(self.up(self.enc(vol)))


def dice_loss(logits, target, eps=1.0):
    probs = logits.softmax(1)
    onehot = F.one_hot(target, logits.size(1)).permute(0, 4, 1, 2, 3).to(probs.dtype)
    inter = (probs * onehot).sum((2, 3, 4))
    return 1 - ((2 * inter + eps) / (probs.sum((2, 3, 4)) + onehot.sum((2, 3, 4)) + eps)).mean()


def make_train_step(model, opt):
    def train_step(vol, seg):
        opt.zero_grad()
        logits = model(vol)
        loss = F.cross_entropy(logits, seg) + dice_loss(logits, seg)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(1, 1, 8, 8, 8, generator=g).to(device), torch.randint(0, 2, (1, 8, 8, 8), generator=g).to(device)


def ENTRY(device):
    model = VolumeDecoder().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
