"""Source: https://github.com/huggingface/accelerate/issues/226

"About the use of gather to compute metrics": an MNIST classifier evaluated with an `Accuracy`
class that "stores predictions/labels at each step" and computes the epoch accuracy once at the
end, the way the report's code does with scikit-learn. Each evaluation step gathers the arg-max
predictions and labels and keeps them as CPU tensors, so every step copies them back from the device.
"""
import torch
import torch.nn as nn


class Accuracy:
    def __init__(self):
        self.preds, self.labels = [], []

    def update(self, preds, labels):
        self.preds.append(preds.cpu())  # XLA: host
        self.labels.append(labels.cpu())

    def compute(self):
        preds, labels = torch.cat(self.preds), torch.cat(self.labels)
        return (preds == labels).float().mean().item()


class Evaluator:
    def __init__(self, model):
        self.model = model.eval()
        self.metric = Accuracy()

    @torch.no_grad()
    def eval_step(self, images, labels):
        logits = self.model(images)
        self.metric.update(logits.argmax(dim=-1), labels)
        return logits


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 1, 8, 8, generator=g).to(device), torch.randint(0, 10, (16,), generator=g).to(device)


def ENTRY(device):
    model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(256, 10))
    return Evaluator(model.to(device)).eval_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
