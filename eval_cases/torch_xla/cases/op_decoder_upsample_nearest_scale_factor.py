"""A convolutional decoder training step that doubles the resolution with `nn.Upsample(scale_factor=2)`
(nearest) between convolutions. The report found `aten::upsample_nearest2d` falling back to the CPU;
torch_xla 2.9 lowers the forward, but the backward (`aten::upsample_nearest2d_backward`) still falls back,
so every training step copies the gradient to the host. (Written as a near miss,
`neg_op_decoder_upsample_nearest_scale_factor`, and renamed after the oracle labelled it `fallback`.)

Source: https://github.com/pytorch/xla/issues/2588 ("Counter: aten::upsample_nearest2d CPU fallback": a toy
`Conv2d` + `nn.Upsample(scale_factor=2)` model whose metrics report showed the op running on the CPU).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, 1, 1)
        self.up = nn.Upsample(scale_factor=2)
        self.conv2 = nn.Conv2d(8, 3, 3, 1, 1)

    def forward(self, x):
        return self.conv2(self.up(F.relu(self.conv1(x))))  # XLA: op


def make_train_step(model, opt):
    def train_step(x, target):
        opt.zero_grad()
        loss = F.l1_loss(model(x), target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, 16, 16, generator=g).to(device), torch.randn(2, 3, 32, 32, generator=g).to(device)


def ENTRY(device):
    model = Decoder().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
