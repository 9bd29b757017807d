"""Source: https://github.com/pytorch/xla/issues/7943

Batch inference with a ResNet-style classifier over an XLA data loader: the predictions of every
batch are copied back with `.cpu()` inside the loop, next to the `mark_step`. The report: "`.cpu()`
increases the CompileTime and makes the code much slower. Not matter the order of `.cpu()` and
`xm.mark_step()`."
"""
import torch
import torch.nn as nn


class SmallResNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU())
        self.block = nn.Sequential(nn.Conv2d(16, 16, 3, 1, 1), nn.BatchNorm2d(16), nn.ReLU(),
                                   nn.Conv2d(16, 16, 3, 1, 1), nn.BatchNorm2d(16))
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        h = self.stem(x)
        h = torch.relu(h + self.block(h))
        return self.fc(h.mean((2, 3)))


class Predictor:
    def __init__(self, model):
        self.model = model.eval()
        self.predictions = []

    @torch.no_grad()
    def predict_batch(self, images):
        logits = self.model(images)
        self.predictions.append(logits.softmax(-1).cpu())  # XLA: host
        return logits


# --- oracle ---
_KEEP = [Predictor]


def _images(device, seed):
    return (torch.randn(4, 3, 32, 32, generator=torch.Generator().manual_seed(seed)).to(device),)


def ENTRY(device):
    return Predictor(SmallResNet().to(device)).predict_batch, _images(device, 0)


def ALT_ARGS(device):
    return [_images(device, s) for s in (1, 2)]
