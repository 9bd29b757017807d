"""Image-classification benchmark step that computes top-1 and top-5 accuracy of every batch with
`.item()` inside the training step, for the per-step log line.

Source: https://github.com/pytorch/xla/issues/2296 ("call loss.item() takes more than ten seconds":
a pytorch_classify_xla_benchmark loop that logs loss and "Accuracy top1/top5" at every step).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, d=16, n_classes=10):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.body(x)


def topk_accuracy(logits, target, ks=(1, 5)):
    top = logits.topk(max(ks), dim=1).indices
    hit = top.eq(target[:, None])
    return [hit[:, :k].any(1).float().mean().item() * 100 for k in ks]  # XLA: host


def make_train_step(model, opt):
    def train_step(x, y):
        opt.zero_grad()
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()
        opt.step()
        top1, top5 = topk_accuracy(logits.detach(), y)
        return loss.detach(), top1, top5
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randint(0, 10, (8,), generator=g).to(device)


def ENTRY(device):
    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
