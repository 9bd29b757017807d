"""Source: https://github.com/pytorch/xla/issues/5430

"Slower inference performance when switching from `torchxla_trace_once` to `openxla` compile
backend": a ResNet evaluated with `torch.compile(model, backend="openxla")` on batches from a
loader. The evaluation set here has 10 images and the loader keeps the default
`drop_last=False`, so the last batch has 2 images: the compiled model meets a new batch size and
Dynamo traces and XLA compiles the whole network again.
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TinyResNet(nn.Module):
    def __init__(self, c=8, num_classes=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.block = nn.Sequential(nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU(),
                                   nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c))
        self.fc = nn.Linear(c, num_classes)

    def forward(self, x):
        x = self.stem(x)
        x = torch.relu(x + self.block(x))
        return self.fc(x.mean((2, 3)))


def eval_loader(images, labels, batch_size=4):
    return DataLoader(TensorDataset(images, labels), batch_size=batch_size)  # XLA: recompile


class Evaluator:
    def __init__(self, model, device):
        model.eval()
        self.model = torch.compile(model, backend="openxla") if device.type == "xla" else model

    @torch.no_grad()
    def eval_step(self, images, labels):
        logits = self.model(images)
        return logits, (logits.argmax(-1) == labels).sum()


# --- oracle ---
def _batches(device):
    g = torch.Generator().manual_seed(0)
    images, labels = torch.randn(10, 3, 8, 8, generator=g), torch.randint(0, 5, (10,), generator=g)
    return [(x.to(device), y.to(device)) for x, y in eval_loader(images, labels)]


def ENTRY(device):
    return Evaluator(TinyResNet().to(device), device).eval_step, _batches(device)[0]


def ALT_ARGS(device):
    return _batches(device)[1:]
