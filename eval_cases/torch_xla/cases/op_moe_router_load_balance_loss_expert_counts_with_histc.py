"""Source: https://github.com/tenstorrent/tt-xla/issues/5264 (a mixture-of-experts diffusion model run through torch_xla crashed; the root-cause analysis in the linked pull request #5280 is that `torch.histc` has no XLA lowering, so torch_xla routes it to a CPU fallback that materializes the partial graph mid-step, and the fix decomposes `histc` into `one_hot` + `sum`). Here a small mixture-of-experts layer is trained on a torch_xla device with a Switch-style load-balancing loss whose per-expert token counts come from `torch.histc` over the router's top-1 choices. (Top-1 mixture-of-experts feed-forward layer with a load-balancing loss.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MoELayer(nn.Module):
    def __init__(self, d=16, n_experts=4):
        super().__init__()
        self.n_experts = n_experts
        self.router = nn.Linear(d, n_experts)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d)) for _ in range(n_experts))

    def forward(self, x):
        probs = F.softmax(self.router(x), dim=-1)
        top_p, top_i = probs.max(dim=-1)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            out = out + (top_i == e).unsqueeze(-1) * top_p.unsqueeze(-1) * expert(x)
        counts = torch.histc(top_i.float(), bins=self.n_experts, min=0, max=self.n_experts - 1)  # XLA: op
        fraction = counts / x.shape[0]
        aux = self.n_experts * torch.sum(fraction * probs.mean(dim=0))
        return out, aux


def make_train_step(model, head, opt):
    def train_step(tokens, targets):
        opt.zero_grad()
        hidden, aux = model(tokens)
        loss = F.mse_loss(head(hidden), targets) + 0.01 * aux
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(32, 16, generator=g).to(device), torch.randn(32, 1, generator=g).to(device)


def ENTRY(device):
    model, head = MoELayer().to(device), nn.Linear(16, 1).to(device)
    opt = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.05)
    return make_train_step(model, head, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
