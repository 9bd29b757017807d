"""Source: https://github.com/pytorch/xla/issues/2968 ("Lowering of OP IsNan and LERP": requested by a user whose step ran `lerp` on the CPU; both lowerings were merged in June 2021). No longer reproduces on torch_xla 2.9: `lerp_` is lowered. Here a mean-teacher semi-supervised step updates the teacher's weights as an exponential moving average of the student's with `Tensor.lerp_` after every optimizer step. (Mean-teacher consistency training for an image classifier.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def small_net():
    return nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5))


class MeanTeacher:
    def __init__(self, device, ema_decay=0.99, consistency=0.5):
        self.student = small_net().to(device)
        self.teacher = small_net().to(device)
        self.teacher.load_state_dict(self.student.state_dict())
        for p in self.teacher.parameters():
            p.requires_grad_(False)
        self.opt = torch.optim.SGD(self.student.parameters(), lr=0.05)
        self.ema_decay = ema_decay
        self.consistency = consistency

    def train_step(self, x_labeled, y, x_unlabeled):
        self.opt.zero_grad()
        sup = F.cross_entropy(self.student(x_labeled), y)
        with torch.no_grad():
            target = F.softmax(self.teacher(x_unlabeled), dim=-1)
        cons = F.mse_loss(F.softmax(self.student(x_unlabeled), dim=-1), target)
        loss = sup + self.consistency * cons
        loss.backward()
        self.opt.step()
        with torch.no_grad():
            for t_param, s_param in zip(self.teacher.parameters(), self.student.parameters()):
                t_param.lerp_(s_param, 1.0 - self.ema_decay)
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(8, 20, generator=g).to(device), torch.randint(0, 5, (8,), generator=g).to(device),
            torch.randn(16, 20, generator=g).to(device))


def ENTRY(device):
    return MeanTeacher(device).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
