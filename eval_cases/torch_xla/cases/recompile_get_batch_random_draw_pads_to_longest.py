"""Source: the `get_batch` of Lightning-AI/lit-llama's finetune scripts (finetune/lora.py, adapter.py),
judged in docs/real-code-judgments-13.md: each iteration draws random examples and pads them to the
longest of that draw, so the batch shape follows the data. Written with the rule (XLA453's value flow
through a nested pad helper), not a first sight.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla

micro_batch_size = 4


class TinyLM(nn.Module):
    def __init__(self, vocab=64, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, idx):
        return self.head(torch.tanh(self.emb(idx)))


def get_batch(data, device):
    ix = torch.randint(len(data), (micro_batch_size,))
    input_ids = [data[i]["input_ids"].type(torch.int64) for i in ix]
    labels = [data[i]["labels"].type(torch.int64) for i in ix]

    max_len = max(len(s) for s in input_ids)  # XLA: recompile

    def pad_right(x, pad_id):
        # pad right based on the longest sequence
        n = max_len - len(x)
        return torch.cat((x, torch.full((n,), pad_id, dtype=x.dtype)))

    x = torch.stack([pad_right(x, pad_id=0) for x in input_ids])
    y = torch.stack([pad_right(x, pad_id=-1) for x in labels])
    return x.to(device), y.to(device)


def train_step(model, opt, x, y):
    opt.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), y[:, 1:].reshape(-1), ignore_index=-1)
    loss.backward()
    opt.step()
    return loss.detach()


def train(model, opt, data, device, iters):
    losses = []
    for _ in range(iters):
        x, y = get_batch(data, device)
        losses.append(train_step(model, opt, x, y))
        torch_xla.sync()
    return losses


# --- oracle ---
CATEGORY = "recompile"
MARK_STEP = False  # the loop syncs after each step


def _data(seed=0, n=16):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        ids = torch.randint(1, 64, (int(torch.randint(5, 20, (1,), generator=g)),), generator=g)
        out.append({"input_ids": ids, "labels": ids.clone()})
    return out


def ENTRY(device):
    model = TinyLM().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = _data()
    return (lambda: train(model, opt, data, device, 1)), ()
