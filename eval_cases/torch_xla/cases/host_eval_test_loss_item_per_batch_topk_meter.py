"""Source: https://github.com/pytorch/xla/issues/2550

Multi-core test loop of an image classifier: every test batch adds its summed cross-entropy to a
Python float with `.item()` and feeds top-1/top-5 counts to an `AverageMeter`, and the totals are
combined across cores with `xm.mesh_reduce` only after the loop. The `.item()` reads the loss
back from the device at every batch of the evaluation.
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


def accuracy(output, target, topk=(1, 5)):
    maxk = max(topk)
    _, pred = output.topk(maxk, 1, True, True)
    correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
    return [correct[:k].reshape(-1).float().sum(0, keepdim=True) * (100.0 / target.size(0)) for k in topk]


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum = self.sum + val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / self.count


class Evaluator:
    def __init__(self, model):
        self.model = model.eval()
        self.test_loss = 0.0
        self.top1, self.top5 = AverageMeter(), AverageMeter()

    @torch.no_grad()
    def eval_batch(self, data, target):
        output = self.model(data)
        self.test_loss += F.cross_entropy(output, target, reduction="sum").item()  # XLA: host
        correct_top1, correct_top5 = accuracy(output, target, topk=(1, 5))
        self.top1.update(correct_top1[0], data.size(0))
        self.top5.update(correct_top5[0], data.size(0))
        return output


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 3, 16, 16, generator=g).to(device), torch.randint(0, 10, (8,), generator=g).to(device)


def ENTRY(device):
    return Evaluator(SmallConvNet().to(device)).eval_batch, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
