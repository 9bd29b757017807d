"""Source: https://github.com/princeton-vl/RAFT/pull/113

RAFT's `coords_grid`: the pixel-coordinate grid used to initialise the flow is built with
`torch.meshgrid(torch.arange(ht), torch.arange(wd))` on the CPU in every forward pass and moved to
the device afterwards. The pull request ("Create tensors on device") creates it on the device to save
the host-to-device copy. The copy goes host -> device only: nothing is read back from the device.

Written as a near miss; the oracle disagreed (label `fallback`): the final flow upsampling,
`F.interpolate(..., mode="bilinear", align_corners=True)`, counts `aten::upsample_bilinear2d_backward`
in the training step. Renamed, code unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def coords_grid(batch, ht, wd):
    coords = torch.meshgrid(torch.arange(ht), torch.arange(wd), indexing="ij")
    coords = torch.stack(coords[::-1], dim=0).float()
    return coords[None].repeat(batch, 1, 1, 1)


class TinyFlowNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fnet = nn.Sequential(nn.Conv2d(6, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 16, 3, 2, 1))
        self.update = nn.Conv2d(16 + 2, 2, 3, padding=1)

    def forward(self, image1, image2, iters=3):
        fmap = self.fnet(torch.cat([image1, image2], 1))
        n, _, h, w = fmap.shape
        coords0 = coords_grid(n, h, w).to(fmap.device)
        coords1 = coords0.clone()
        for _ in range(iters):
            coords1 = coords1 + self.update(torch.cat([fmap, coords1 - coords0], 1))
        return F.interpolate(coords1 - coords0, scale_factor=4, mode="bilinear", align_corners=True) * 4  # XLA: op


def make_train_step(model, opt):
    def train_step(image1, image2, flow_gt):
        opt.zero_grad()
        loss = (model(image1, image2) - flow_gt).abs().mean()
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(2, 3, 32, 32, generator=g).to(device), torch.randn(2, 3, 32, 32, generator=g).to(device),
            torch.randn(2, 2, 32, 32, generator=g).to(device))


def ENTRY(device):
    model = TinyFlowNet().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-4)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
