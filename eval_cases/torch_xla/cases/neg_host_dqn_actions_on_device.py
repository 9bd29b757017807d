"""Vectorised-environment DQN step that returns epsilon-greedy actions for all environments as a device
tensor (torch.where over a random mask), leaving the single transfer to the caller.

Source: https://github.com/pytorch/xla/issues/2607 (RL on TPU: per-step CPU<->device exchange is the
bottleneck; keeping the action choice in the graph avoids the in-step read).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, obs=8, n_actions=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs, 32), nn.ReLU(), nn.Linear(32, n_actions))

    def forward(self, s):
        return self.net(s)


def make_train_step(q, q_target, opt, gamma=0.99):
    def train_step(s, a, r, s2, done, obs_now, explore, rand_actions):
        opt.zero_grad()
        q_sa = q(s).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            target = r + gamma * (1 - done) * q_target(s2).max(1).values
        loss = F.smooth_l1_loss(q_sa, target)
        loss.backward()
        opt.step()
        with torch.no_grad():
            actions = torch.where(explore, rand_actions, q(obs_now).argmax(-1))
        return loss.detach(), actions
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    s, s2 = torch.randn(8, 8, generator=g), torch.randn(8, 8, generator=g)
    a = torch.randint(0, 4, (8,), generator=g)
    r = torch.randn(8, generator=g)
    done = (torch.rand(8, generator=g) < 0.1).float()
    obs_now = torch.randn(4, 8, generator=g)
    explore = torch.rand(4, generator=g) < 0.1
    rand_actions = torch.randint(0, 4, (4,), generator=g)
    return tuple(t.to(device) for t in (s, a, r, s2, done, obs_now, explore, rand_actions))


def ENTRY(device):
    q, q_target = QNet().to(device), QNet().to(device)
    q_target.load_state_dict(q.state_dict())
    opt = torch.optim.Adam(q.parameters(), lr=1e-3)
    return make_train_step(q, q_target, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
