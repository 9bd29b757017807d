"""Vision-transformer patch embedding written with F.unfold (im2col) and a Linear projection, followed by
one encoder layer and mean pooling.

Source: https://github.com/pytorch/xla/issues/5764 (Supporting the Core ATen Opset: AtenCol2im is on the
list of unlowered core ops; unfold/fold go through im2col/col2im).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class UnfoldViT(nn.Module):
    def __init__(self, patch=4, dim=16, n_classes=3):
        super().__init__()
        self.patch = patch
        self.proj = nn.Linear(3 * patch * patch, dim)
        self.enc = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, img):
        patches = F.unfold(img, kernel_size=self.patch, stride=self.patch).transpose(1, 2)  # XLA: op
        tokens = self.enc(self.proj(patches))
        return self.head(tokens.mean(1))


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
    model = UnfoldViT().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
