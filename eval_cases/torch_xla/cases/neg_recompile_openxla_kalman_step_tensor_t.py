"""Source: https://github.com/pytorch/pytorch/issues/99091

The same compiled Kalman-filter update with the time index passed as a device tensor and read
with `index_select`: the index is data of the graph, not a guarded Python constant, so one graph
serves every time step.
"""
import torch


def kf_update(mu, P, xs, ys, t, obs_var=0.5):
    x, y = xs.index_select(0, t).squeeze(0), ys.index_select(0, t).squeeze(0)
    s = x @ P @ x + obs_var
    k = P @ x / s
    mu = mu + k * (y - x @ mu)
    P = P - torch.outer(k, x @ P)
    return mu, P


class OnlineRegression:
    def __init__(self, dim, device):
        self.mu = torch.zeros(dim, device=device)
        self.P = torch.eye(dim, device=device)
        self.update = torch.compile(kf_update, backend="openxla") if device.type == "xla" else kf_update

    def step(self, xs, ys, t):
        self.mu, self.P = self.update(self.mu, self.P, xs, ys, t)
        return self.mu


# --- oracle ---
_KEEP = [OnlineRegression]


def _series(device):
    g = torch.Generator().manual_seed(0)
    xs = torch.randn(16, 6, generator=g)
    ys = xs @ torch.randn(6, generator=g) + 0.1 * torch.randn(16, generator=g)
    return xs.to(device), ys.to(device)


def ENTRY(device):
    xs, ys = _series(device)
    return OnlineRegression(6, device).step, (xs, ys, torch.tensor([0]).to(device))


def ALT_ARGS(device):
    xs, ys = _series(device)
    return [(xs, ys, torch.tensor([t]).to(device)) for t in (1, 2, 3)]
