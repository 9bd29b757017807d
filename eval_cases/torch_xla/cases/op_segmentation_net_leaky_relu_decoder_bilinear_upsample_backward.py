"""Source: https://github.com/pytorch/xla/issues/3831 (written as a near miss: the same segmentation network with a fixed-slope `nn.LeakyReLU(0.25)`, the slope PReLU starts from, whose forward and backward are both lowered). The oracle labelled it `fallback` on torch_xla 2.9 (CPU): `aten::upsample_bilinear2d_backward`, the gradient of the decoder's bilinear `F.interpolate` (the `# XLA:` line), runs on the CPU; so it is a failing case, renamed from `neg_op_segmentation_net_prelu_activations_backward`. (Encoder-decoder segmentation network with leaky ReLU activations.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.LeakyReLU(0.25))


class SegNet(nn.Module):
    def __init__(self, n_classes=2):
        super().__init__()
        self.enc1 = block(3, 8)
        self.enc2 = block(8, 16)
        self.dec1 = block(16 + 8, 8)
        self.head = nn.Conv2d(8, n_classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        up = F.interpolate(e2, scale_factor=2, mode="bilinear", align_corners=False)  # XLA: op
        return self.head(self.dec1(torch.cat([up, e1], dim=1)))


def make_train_step(model, opt):
    def train_step(images, masks):
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(images), masks)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    images = torch.randn(2, 3, 16, 16, generator=g)
    masks = (torch.rand(2, 2, 16, 16, generator=g) > 0.5).float()
    return images.to(device), masks.to(device)


def ENTRY(device):
    model = SegNet().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
