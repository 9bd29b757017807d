"""Source: https://github.com/pytorch/xla/issues/8720

The voxel point-cloud model of the report with the max-pooling written for the lowered form of
`scatter_reduce`: the voxel buffer starts at a very negative value and the reduction keeps the default
`include_self=True`, so the maximum is the same for every voxel that holds a point.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VoxelPointNet(nn.Module):
    def __init__(self, d=16, n_voxels=6, n_classes=4):
        super().__init__()
        self.n_voxels = n_voxels
        self.point = nn.Sequential(nn.Linear(3, d), nn.ReLU(), nn.Linear(d, d))
        self.head = nn.Linear(2 * d, n_classes)

    def forward(self, xyz, voxel):
        f = self.point(xyz)
        index = voxel[:, None].expand(-1, f.shape[1])
        init = torch.full((self.n_voxels, f.shape[1]), -1e4, device=f.device)
        pooled = init.scatter_reduce(0, index, f, reduce="amax")
        return self.head(torch.cat([f, pooled[voxel]], dim=-1))


def make_train_step(model, opt):
    def train_step(xyz, voxel, labels):
        opt.zero_grad()
        loss = F.cross_entropy(model(xyz, voxel), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    xyz = torch.rand(32, 3, generator=g)
    voxel = (xyz[:, 0] * 6).long().clamp(max=5)
    return xyz.to(device), voxel.to(device), torch.randint(0, 4, (32,), generator=g).to(device)


def ENTRY(device):
    model = VoxelPointNet().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-2)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
