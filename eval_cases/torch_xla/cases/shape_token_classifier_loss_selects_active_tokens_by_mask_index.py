"""Source: https://github.com/huggingface/transformers/pull/13096 ("Optimize Token Classification models for TPU": ALBERT, ELECTRA and LayoutLM computed the token-classification loss on `logits.view(-1, num_labels)[active_loss]` with `active_loss = attention_mask.view(-1) == 1`, masked indexing whose result size depends on the data, which "causes performance issues on TPU"; the pull request switched them to BERT's form, `torch.where(active_loss, labels.view(-1), ignore_index)` over all tokens). Here a small ELECTRA-style tagger is trained on a torch_xla device with the masked-indexing loss. (Named-entity tagger on a small transformer encoder.)"""
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
        active_logits = logits.view(-1, self.num_labels)[active_loss]  # XLA: shape
        active_labels = labels.view(-1)[active_loss]
        return F.cross_entropy(active_logits, active_labels)


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
