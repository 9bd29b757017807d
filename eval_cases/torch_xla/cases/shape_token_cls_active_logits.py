"""Token classification loss on the active (non-padding) tokens only: `logits.view(-1, n)[active_loss]`.

Source: huggingface/transformers PR #13096 (ALBERT, ELECTRA, LayoutLM token classification used masked
indexing, slow on TPU; BERT's `torch.where` version was the fix).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

class TokenTagger(nn.Module):
    def __init__(self, vocab=50, d=16, n_labels=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.out = nn.Linear(d, n_labels)

    def forward(self, ids):
        return self.out(torch.tanh(self.emb(ids)))


def make_train_step(model, opt, device, num_labels=5):
    def train_step(ids, attention_mask, labels):
        opt.zero_grad()
        logits = model(ids)
        active_loss = attention_mask.view(-1) == 1
        active_logits = logits.view(-1, num_labels)[active_loss]  # XLA: shape
        active_labels = labels.view(-1)[active_loss]
        loss = F.cross_entropy(active_logits, active_labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 50, (4, 12), generator=g)
    lengths = torch.randint(4, 13, (4,), generator=g)
    mask = (torch.arange(12)[None] < lengths[:, None]).long()
    labels = torch.randint(0, 5, (4, 12), generator=g)
    return ids.to(device), mask.to(device), labels.to(device)


def ENTRY(device):
    model = TokenTagger().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt, device), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
