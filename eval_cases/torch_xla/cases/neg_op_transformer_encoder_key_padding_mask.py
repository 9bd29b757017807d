"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/3815

A Lightning user's Transformer model was "extremely slow" on TPU, and the reply suggested that
multi-head attention was not well implemented for TPUs (ops falling back to the CPU). Rebuilt as a
sequence classifier with `nn.TransformerEncoder` and a key padding mask, trained on the XLA device:
in torch_xla 2.9 the attention, layer norm and masking ops all have lowerings.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EncoderClassifier(nn.Module):
    def __init__(self, vocab=40, dim=16, classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        layer = nn.TransformerEncoderLayer(dim, 4, 32, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(dim, classes)

    def forward(self, ids):
        pad = ids == 0
        h = self.encoder(self.emb(ids), src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        return self.head((h * keep).sum(1) / keep.sum(1))


def make_train_step(model, opt):
    def train_step(ids, labels):
        model.train()
        opt.zero_grad()
        loss = F.cross_entropy(model(ids), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 40, (4, 12), generator=g)
    ids[1, 8:] = 0
    ids[3, 5:] = 0
    return ids.to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = EncoderClassifier().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
