"""Source: https://github.com/pytorch/xla/issues/5695 ("OP lowering for `_prelu_kernel_backward`":
`Counter: aten::_prelu_kernel_backward`, "Op(s) not lowered").

The PyTorch/XLA MNIST example with `nn.PReLU` activations: the forward `_prelu_kernel` is lowered,
the report found its backward running on the CPU.

Written as a positive (op_...); the report no longer reproduces on torch_xla 2.9 (the issue is closed):
the oracle measured no `aten::` fallback, one compile and no transfers. Renamed to a negative after
labelling (the split follows the new name); the code is unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MNIST(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=5)
        self.prelu1 = nn.PReLU(4)
        self.bn1 = nn.BatchNorm2d(4)
        self.fc1 = nn.Linear(4 * 4 * 4, 20)
        self.prelu2 = nn.PReLU(20)
        self.fc2 = nn.Linear(20, 10)

    def forward(self, x):
        x = self.prelu1(F.max_pool2d(self.conv1(x), 2))
        x = self.bn1(x)
        x = self.prelu2(self.fc1(torch.flatten(x, 1)))
        return F.log_softmax(self.fc2(x), dim=1)


def make_step(model, opt):
    def train_step(data, target):
        opt.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        opt.step()
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
