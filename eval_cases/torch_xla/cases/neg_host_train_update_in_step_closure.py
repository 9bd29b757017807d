"""Source: https://github.com/pytorch/xla/issues/1795 (tensorboard support: `_train_update(device, x,
loss, tracker)` calls `loss.item()` from a step closure).

MNIST step that reports its loss through `xm.add_step_closure`, as the PyTorch/XLA MNIST
example does: the closure (and its `loss.item()`) runs after the step's graph has executed at the
sync, so the step itself never reads a value back.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class MNIST(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3)
        self.bn1 = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4 * 5 * 5, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = self.bn1(x)
        return F.log_softmax(self.fc(torch.flatten(x, 1)), dim=1)


history = []


def _train_update(step, loss):
    history.append((step, loss.item()))


def make_step(model, opt):
    state = {"step": 0}

    def train_step(data, target):
        opt.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        opt.step()
        state["step"] += 1
        xm.add_step_closure(_train_update, args=(state["step"], loss))
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 1, 12, 12, generator=g).to(device), torch.randint(0, 10, (8,), generator=g).to(device)


def ENTRY(device):
    model = MNIST().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.5)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
