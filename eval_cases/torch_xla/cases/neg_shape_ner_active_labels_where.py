"""The NER loss after the TPU fix: the padded positions are not removed but relabelled with the
loss's `ignore_index` through `torch.where`, so logits and labels keep the batch's full shape.

Source: https://github.com/huggingface/transformers/pull/2982 ("Change masking to direct labeling for TPU
support": `active_labels = torch.where(active_loss, labels.view(-1), torch.tensor(loss_fct.ignore_index).type_as(labels))`).
"""
import torch
import torch.nn as nn


class TokenTagger(nn.Module):
    def __init__(self, vocab=40, d=16, num_labels=5):
        super().__init__()
        self.num_labels = num_labels
        self.emb = nn.Embedding(vocab, d)
        self.enc = nn.Linear(d, d)
        self.classifier = nn.Linear(d, num_labels)
        self.loss_fct = nn.CrossEntropyLoss()

    def forward(self, input_ids, attention_mask, labels):
        logits = self.classifier(torch.tanh(self.enc(self.emb(input_ids))))
        active_loss = attention_mask.view(-1) == 1
        active_logits = logits.view(-1, self.num_labels)
        active_labels = torch.where(
            active_loss, labels.view(-1), torch.tensor(self.loss_fct.ignore_index).type_as(labels)
        )
        loss = self.loss_fct(active_logits, active_labels)
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
