"""Source: https://github.com/huggingface/trl/pull/2001 (OrpoTrainer on TPU: "too many dynamic
shapes"; the PR pads every batch to the global `max_length` when torch_xla is available).

ORPO collator that pads chosen/rejected completions to the longest sequence of each batch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyPolicy(nn.Module):
    def __init__(self, vocab=32, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.proj = nn.Linear(d, vocab)

    def forward(self, ids):
        return self.proj(torch.tanh(self.emb(ids)))


def pad_collate(features, pad_value=0, label_pad=-100):
    longest = max(len(f["chosen"]) for f in features)  # XLA: recompile
    ids = [f["chosen"] + [pad_value] * (longest - len(f["chosen"])) for f in features]
    labels = [f["chosen"] + [label_pad] * (longest - len(f["chosen"])) for f in features]
    return torch.tensor(ids), torch.tensor(labels)


def make_step(model, opt, device):
    def train_step(features):
        ids, labels = pad_collate(features)
        ids, labels = ids.to(device), labels.to(device)
        opt.zero_grad()
        logits = model(ids)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _features(seed, lengths):
    g = torch.Generator().manual_seed(seed)
    return [{"chosen": torch.randint(1, 32, (n,), generator=g).tolist()} for n in lengths]


def ENTRY(device):
    model = TinyPolicy().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.1), device), (_features(0, [7, 9, 5, 8]),)


def ALT_ARGS(device):
    return [(_features(1, [6, 11, 4, 5]),), (_features(2, [13, 3, 6, 7]),)]
