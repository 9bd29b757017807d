"""Token-classification (NER) loss as the transformers examples computed it: only the positions
with `attention_mask == 1` take part, selected by boolean indexing,
`active_logits = logits.view(-1, num_labels)[active_loss]`. How many rows survive depends on the
padding of each batch, a data-dependent shape on every step.

Source: https://github.com/huggingface/transformers/pull/2982 ("Change masking to direct labeling for TPU
support": "binary masking and calls to item()" make TPU slower than CPU; the NER loss is rewritten with
`torch.where(active_loss, labels.view(-1), ignore_index)`).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TokenTagger(nn.Module):
    def __init__(self, vocab=40, d=16, num_labels=5):
        super().__init__()
        self.num_labels = num_labels
        self.emb = nn.Embedding(vocab, d)
        self.enc = nn.Linear(d, d)
        self.classifier = nn.Linear(d, num_labels)

    def forward(self, input_ids, attention_mask, labels):
        logits = self.classifier(torch.tanh(self.enc(self.emb(input_ids))))
        active_loss = attention_mask.view(-1) == 1
        active_logits = logits.view(-1, self.num_labels)[active_loss]  # XLA: shape
        active_labels = labels.view(-1)[active_loss]
        loss = F.cross_entropy(active_logits, active_labels)
        return loss, logits


def make_train_step(model, opt):
    def train_step(input_ids, attention_mask, labels):
        opt.zero_grad()
        loss, _ = model(input_ids, attention_mask, labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 40, (4, 12), generator=g)
    lengths = torch.randint(5, 13, (4,), generator=g)
    mask = (torch.arange(12)[None, :] < lengths[:, None]).long()
    labels = torch.randint(0, 5, (4, 12), generator=g)
    return ids.to(device), mask.to(device), labels.to(device)


def ENTRY(device):
    model = TokenTagger().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
