"""Source: https://github.com/pytorch/xla/issues/2592 ("Op Lowering Request": aten::adaptive_avg_pool3d,
aten::adaptive_avg_pool3d_backward).

Video classifier (a small 3D-conv stem) whose head pools the clip features with
`nn.AdaptiveAvgPool3d((1, 1, 1))` before the linear classifier, as R(2+1)D/R3D heads do.

Written as a positive (op_...); the report no longer reproduces on torch_xla 2.9: the oracle measured
no `aten::` fallback (one compile, no transfers) for the (1, 1, 1) pool and its backward. Renamed to a
negative after labelling; the code is unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyR3D(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv3d(3, 8, kernel_size=3, padding=1), nn.BatchNorm3d(8), nn.ReLU())
        self.layer = nn.Conv3d(8, 16, kernel_size=3, stride=2, padding=1)
        self.avgpool = nn.AdaptiveAvgPool3d((1, 1, 1))
        self.fc = nn.Linear(16, n_classes)

    def forward(self, clip):
        x = F.relu(self.layer(self.stem(clip)))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def make_step(model, opt):
    def train_step(clips, labels):
        opt.zero_grad()
        loss = F.cross_entropy(model(clips), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, 5, 14, 14, generator=g).to(device), torch.randint(0, 5, (2,), generator=g).to(device)


def ENTRY(device):
    model = TinyR3D().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.01)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
