"""Source: https://github.com/pytorch/xla/issues/2550

The same multi-core test loop with the summed cross-entropy and the top-1/top-5 counts kept as
device tensors: each batch only adds to running tensors, and the totals are read (and reduced
across cores) once, after the last test batch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallConvNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(32, classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def topk_correct(output, target, topk=(1, 5)):
    _, pred = output.topk(max(topk), 1, True, True)
    correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
    return [correct[:k].reshape(-1).float().sum() for k in topk]


class Evaluator:
    def __init__(self, model, device):
        self.model = model.eval()
        self.totals = torch.zeros(3, device=device)
        self.seen = 0

    @torch.no_grad()
    def eval_batch(self, data, target):
        output = self.model(data)
        loss_sum = F.cross_entropy(output, target, reduction="sum")
        c1, c5 = topk_correct(output, target)
        self.totals = self.totals + torch.stack([loss_sum, c1, c5])
        self.seen += data.size(0)
        return output

    def summary(self):
        loss_sum, c1, c5 = self.totals.tolist()
        return loss_sum / self.seen, 100.0 * c1 / self.seen, 100.0 * c5 / self.seen


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 3, 16, 16, generator=g).to(device), torch.randint(0, 10, (8,), generator=g).to(device)


def ENTRY(device):
    return Evaluator(SmallConvNet().to(device), device).eval_batch, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
