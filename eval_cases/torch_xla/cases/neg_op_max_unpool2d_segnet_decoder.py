"""Source: https://github.com/pytorch/xla/issues/2162 ("Error while running max_unpool2d with xla";
"fyi, `max_unpool2d` lowering is added").

SegNet-style encoder/decoder: `max_pool2d(return_indices=True)` in the encoder and
`nn.MaxUnpool2d` with those indices in the decoder. The report's `max_unpool2d` failure was fixed by
a lowering (pytorch/xla PR #2188), so this no longer falls back.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MiniSegNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.pool = nn.MaxPool2d(2, 2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2, 2)
        self.dec = nn.Conv2d(8, n_classes, 3, padding=1)

    def forward(self, x):
        feat = self.enc(x)
        pooled, idx = self.pool(feat)
        return self.dec(self.unpool(pooled, idx, output_size=feat.shape))


def make_step(model, opt):
    def train_step(img, mask):
        opt.zero_grad()
        loss = F.cross_entropy(model(img), mask)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, 16, 16, generator=g).to(device), torch.randint(0, 3, (2, 16, 16), generator=g).to(device)


def ENTRY(device):
    model = MiniSegNet().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
