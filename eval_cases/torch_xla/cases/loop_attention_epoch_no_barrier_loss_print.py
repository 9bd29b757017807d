"""Source: https://github.com/pytorch/xla/issues/1155

"Cannot train complex model with attention": the reporter moved batches with `.to(device)` in their
own loop, stepped with `xm.optimizer_step(optimizer)` without `barrier=True`, and printed the loss.
The maintainer: "Your graph is recompiling because it is growing step over step (see
`SyncTensorsGraphSize` metric growing)". One call here is one pass over a few batches.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class AttnClassifier(nn.Module):
    def __init__(self, vocab=40, dim=16, n_classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.out = nn.Linear(dim, n_classes)

    def forward(self, ids):
        h = self.emb(ids)
        a, _ = self.attn(h, h, h)
        return self.out((h + a).mean(1))


def make_epoch(model, opt, device):
    def run_epoch(batches):  # XLA: loop
        for step, (ids, y) in enumerate(batches):
            ids, y = ids.to(device), y.to(device)
            opt.zero_grad()
            loss = F.cross_entropy(model(ids), y)
            loss.backward()
            xm.optimizer_step(opt)
            print(f"step {step} loss {loss.item():.4f}")
        return loss.detach()
    return run_epoch


# --- oracle ---
def _batches(seed, n=3):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randint(0, 40, (4, 10), generator=g), torch.randint(0, 3, (4,), generator=g)) for _ in range(n)]


def ENTRY(device):
    model = AttnClassifier().to(device)
    return make_epoch(model, torch.optim.SGD(model.parameters(), lr=0.05), device), (_batches(0),)


def ALT_ARGS(device):
    return [(_batches(s),) for s in (1, 2)]


MARK_STEP = False  # the user's loop has no barrier
