"""Source: https://github.com/pytorch/pytorch/issues/99091

An online Kalman-filter linear regression whose update is compiled (`torch.compile`, here with the
`openxla` backend) and called once per time step with the Python int `t` that selects the
observation. The report's recompile log: "Recompiling function step ... triggered by the following
guard failure: L['t'] == 0", then `== 1`, `== 2`, ... - the int is a guarded constant of the graph.
"""
import torch


def kf_update(mu, P, xs, ys, t, obs_var=0.5):
    x, y = xs[t], ys[t]  # XLA: recompile
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
    return OnlineRegression(6, device).step, (xs, ys, 0)


def ALT_ARGS(device):
    xs, ys = _series(device)
    return [(xs, ys, t) for t in (1, 2, 3)]
