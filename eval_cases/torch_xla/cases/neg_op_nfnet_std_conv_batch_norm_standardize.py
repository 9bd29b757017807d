"""Source: https://github.com/huggingface/pytorch-image-models/issues/428

"nf_resnet50 is not working in pytorch XLA": timm answered by rewriting `StdConv2d` so the weight
standardization runs through `F.batch_norm` on the weight viewed as one batch of `out_channels`
channels (training mode, no running statistics), which avoids the moments op the report tripped on.
A small NF-style classifier trained with that convolution.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StdConv2d(nn.Conv2d):
    def __init__(self, cin, cout, k, stride=1, padding=0, eps=1e-6):
        super().__init__(cin, cout, k, stride=stride, padding=padding, bias=False)
        self.eps = eps

    def forward(self, x):
        weight = F.batch_norm(
            self.weight.reshape(1, self.out_channels, -1), None, None,
            training=True, momentum=0.0, eps=self.eps).reshape_as(self.weight)
        return F.conv2d(x, weight, None, self.stride, self.padding)


class LeafNet(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.stem = StdConv2d(3, 8, 3, stride=2, padding=1)
        self.block = StdConv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        x = F.relu(self.stem(x))
        x = F.relu(self.block(x))
        return self.fc(x.mean((2, 3)))


def make_step(model, opt):
    def step(img, label):
        opt.zero_grad()
        loss = F.cross_entropy(model(img), label)
        loss.backward()
        opt.step()
        return loss.detach()
    return step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    model = LeafNet().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
