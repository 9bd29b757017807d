"""Vision-transformer patch embedding done the usual way, a Conv2d with kernel = stride = patch size,
then flatten(2).transpose(1, 2) into tokens with a learned position embedding.

Source: https://github.com/pytorch/xla/issues/5764 (core ATen ops such as col2im are unlowered; the
strided-conv patchify needs none of them).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvViT(nn.Module):
    def __init__(self, patch=4, dim=16, n_classes=3, n_patches=4):
        super().__init__()
        self.patchify = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.pos = nn.Parameter(torch.zeros(1, n_patches, dim))
        self.enc = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, img):
        tokens = self.patchify(img).flatten(2).transpose(1, 2) + self.pos
        return self.head(self.enc(tokens).mean(1))


def make_train_step(model, opt):
    def train_step(img, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(img), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, 8, 8, generator=g).to(device), torch.randint(0, 3, (2,), generator=g).to(device)


def ENTRY(device):
    model = ConvViT().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
