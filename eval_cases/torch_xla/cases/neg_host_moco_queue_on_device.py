"""MoCo-style contrastive step whose negative bank is a fixed-size queue kept on the device: new keys are
concatenated in front and the oldest dropped (`torch.cat([k, queue[:-B]])`), so the shape never changes.

Source: https://github.com/pytorch/xla/issues/2098 (moving every batch of embeddings to the CPU was the
bottleneck; a device-side bank of fixed size avoids the transfer).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d_in=16, dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, dim))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


def make_train_step(q_enc, k_enc, opt, queue, tau=0.2, m=0.99):
    state = {"queue": queue}

    def train_step(x_q, x_k):
        opt.zero_grad()
        q = q_enc(x_q)
        with torch.no_grad():
            for pq, pk in zip(q_enc.parameters(), k_enc.parameters()):
                pk.mul_(m).add_(pq.detach(), alpha=1 - m)
            k = k_enc(x_k)
        pos = (q * k).sum(-1, keepdim=True)
        neg = q @ state["queue"].t()
        logits = torch.cat([pos, neg], 1) / tau
        loss = F.cross_entropy(logits, torch.zeros(q.size(0), dtype=torch.long, device=q.device))
        loss.backward()
        opt.step()
        state["queue"] = torch.cat([k, state["queue"][:-k.size(0)]], 0)
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(4, 16, generator=g)
    return x.to(device), (x + 0.1 * torch.randn(4, 16, generator=g)).to(device)


def ENTRY(device):
    q_enc = Encoder().to(device)
    k_enc = Encoder().to(device)
    k_enc.load_state_dict(q_enc.state_dict())
    queue = F.normalize(torch.randn(32, 8, generator=torch.Generator().manual_seed(5)), dim=-1).to(device)
    opt = torch.optim.SGD(q_enc.parameters(), lr=0.05)
    return make_train_step(q_enc, k_enc, opt, queue), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
