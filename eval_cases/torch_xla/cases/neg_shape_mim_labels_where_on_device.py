"""Source: https://github.com/huggingface/open-muse/pull/42

The same MUSE-style masking written with `torch.where` on the device: the masked input ids and
the -100 labels are computed element-wise over the full token grid, so nothing depends on how
many tokens were masked.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CODEBOOK, MASK_ID = 64, 64


class MaskGitTransformer(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.emb = nn.Embedding(CODEBOOK + 1, d)
        self.enc = nn.TransformerEncoderLayer(d, 2, 32, batch_first=True, dropout=0.0)
        self.head = nn.Linear(d, CODEBOOK)

    def forward(self, ids):
        return self.head(self.enc(self.emb(ids)))


def make_train_step(model, opt):
    def train_step(image_tokens, mask_prob):
        B, T = image_tokens.shape
        scores = torch.rand(B, T, device=image_tokens.device)
        mask = scores < mask_prob[:, None]
        input_ids = torch.where(mask, MASK_ID, image_tokens)
        labels = torch.where(mask, image_tokens, -100)
        opt.zero_grad()
        loss = F.cross_entropy(model(input_ids).flatten(0, 1), labels.flatten(), ignore_index=-100)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, CODEBOOK, (2, 16), generator=g)
    ratio = torch.cos(torch.rand(2, generator=g) * math.pi / 2).clamp(min=0.3)
    return tokens.to(device), ratio.to(device)


def ENTRY(device):
    model = MaskGitTransformer().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]


COMPARE = False  # torch.rand on the device: the XLA and CPU streams differ
