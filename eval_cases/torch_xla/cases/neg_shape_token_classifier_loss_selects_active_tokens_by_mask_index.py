"""Source: https://github.com/huggingface/transformers/pull/13096 ("Optimize Token Classification models for TPU": masked indexing of the token logits, `logits.view(-1, num_labels)[active_loss]`, has a data-dependent size and is slow on TPU). The fix used here is the pull request's: the loss runs over every token, with the labels of padding tokens replaced by the loss's `ignore_index` through `torch.where`, so every tensor keeps a static shape. (Named-entity tagger on a small transformer encoder.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Tagger(nn.Module):
    def __init__(self, vocab=50, d=16, num_labels=5):
        super().__init__()
        self.num_labels = num_labels
        self.embed = nn.Embedding(vocab, d)
        self.encoder = nn.TransformerEncoderLayer(d, nhead=2, dim_feedforward=32, batch_first=True, dropout=0.0)
        self.classifier = nn.Linear(d, num_labels)

    def forward(self, input_ids, attention_mask, labels):
        hidden = self.encoder(self.embed(input_ids), src_key_padding_mask=attention_mask == 0)
        logits = self.classifier(hidden)
        active_loss = attention_mask.view(-1) == 1
        active_labels = torch.where(active_loss, labels.view(-1), torch.full_like(labels.view(-1), -100))
        return F.cross_entropy(logits.view(-1, self.num_labels), active_labels, ignore_index=-100)


def make_train_step(model, opt):
    def train_step(input_ids, attention_mask, labels):
        opt.zero_grad()
        loss = model(input_ids, attention_mask, labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 50, (4, 10), generator=g)
    lengths = torch.randint(4, 11, (4,), generator=g)
    mask = (torch.arange(10)[None, :] < lengths[:, None]).long()
    labels = torch.randint(0, 5, (4, 10), generator=g)
    return (ids * mask).to(device), mask.to(device), labels.to(device)


def ENTRY(device):
    model = Tagger().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
