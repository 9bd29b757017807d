"""Source: https://github.com/oumi-ai/oumi/pull/2540

Supervised fine-tuning of a small causal LM with a text-completions collator that pads every batch
to its longest row (right padding, `-100` labels on the padding, sequential `position_ids`). The
pull request adds `pad_to_multiple_of` because a compiled model sees a new sequence length on
almost every batch ("per-shape bucket compiles" and recompile limits).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=50, dim=16, max_pos=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_pos, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 32), nn.GELU(), nn.Linear(32, dim))
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, ids, position_ids):
        h = self.tok(ids) + self.pos(position_ids)
        return self.lm_head(h + self.mlp(h))


def collate(features, pad_id=0):
    longest = max(len(f) for f in features)  # XLA: recompile
    ids = torch.full((len(features), longest), pad_id, dtype=torch.long)
    labels = torch.full((len(features), longest), -100, dtype=torch.long)
    for i, f in enumerate(features):
        ids[i, :len(f)] = torch.tensor(f)
        labels[i, :len(f)] = torch.tensor(f)
    position_ids = torch.arange(longest).expand(len(features), longest)
    return ids, labels, position_ids


def make_train_step(model, opt, device):
    def train_step(features):
        ids, labels, position_ids = (t.to(device) for t in collate(features))
        opt.zero_grad()
        logits = model(ids, position_ids)
        loss = F.cross_entropy(logits[:, :-1].flatten(0, 1), labels[:, 1:].flatten(), ignore_index=-100)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _features(seed, lengths):
    g = torch.Generator().manual_seed(seed)
    return ([torch.randint(1, 50, (n,), generator=g).tolist() for n in lengths],)


def ENTRY(device):
    model = TinyCausalLM().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3), device), _features(0, (7, 12, 9, 5))


def ALT_ARGS(device):
    return [_features(1, (20, 6, 8, 11)), _features(2, (4, 15, 17, 9))]
