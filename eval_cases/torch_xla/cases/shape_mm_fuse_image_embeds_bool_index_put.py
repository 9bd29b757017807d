"""Source: https://github.com/pytorch/xla/issues/7622

A multi-modal language model: image features from a vision encoder replace the embeddings of the
`<image>` placeholder tokens in the text. As in the report, the fusion is the dynamic part: it writes the
image features through a boolean mask, `embeds[input_ids == IMAGE_TOKEN] = image_embeds`, so the number
of positions written depends on the token values.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

IMAGE_TOKEN = 3


class TinyVLM(nn.Module):
    def __init__(self, vocab=32, d=16, patch_dim=12):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.vision = nn.Sequential(nn.Linear(patch_dim, d), nn.GELU(), nn.Linear(d, d))
        self.block = nn.TransformerEncoderLayer(d, 2, 32, batch_first=True, dropout=0.0)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, input_ids, patches):
        embeds = self.tok(input_ids)
        image_embeds = self.vision(patches).reshape(-1, embeds.shape[-1])
        embeds = embeds.clone()
        embeds[input_ids == IMAGE_TOKEN] = image_embeds  # XLA: shape
        return self.lm_head(self.block(embeds))


def make_train_step(model, opt):
    def train_step(input_ids, patches, labels):
        opt.zero_grad()
        logits = model(input_ids, patches)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(4, 32, (2, 12), generator=g)
    ids[:, 1:5] = IMAGE_TOKEN
    labels = ids.clone()
    labels[ids == IMAGE_TOKEN] = -100
    return ids.to(device), torch.randn(2, 4, 12, generator=g).to(device), labels.to(device)


def ENTRY(device):
    model = TinyVLM().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
