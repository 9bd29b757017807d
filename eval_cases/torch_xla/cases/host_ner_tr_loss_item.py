"""NER fine-tuning loop that accumulates the running loss with `tr_loss += loss.item()` every step.

Source: huggingface/transformers PR #2982 (the NER example's masking and `.item()` calls made TPU slower
than CPU; pytorch/xla TROUBLESHOOTING).
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
    state = {"tr_loss": 0.0}

    def train_step(ids, attention_mask, labels):
        opt.zero_grad()
        logits = model(ids)
        loss = F.cross_entropy(logits.view(-1, num_labels), labels.view(-1))
        loss.backward()
        opt.step()
        state["tr_loss"] += loss.item()  # XLA: host
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
