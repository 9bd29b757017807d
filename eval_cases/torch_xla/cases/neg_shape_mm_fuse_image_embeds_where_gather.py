"""Source: https://github.com/pytorch/xla/issues/7622

The multi-modal model with a static fusion: each text position looks up "its" image feature with an
index built by a cumulative sum over the placeholder mask (clamped into range), and `torch.where`
picks the image feature at placeholder positions and the token embedding elsewhere. Every tensor keeps
the shape of the input ids, whatever the token values are.
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
        image_embeds = self.vision(patches)
        is_image = input_ids == IMAGE_TOKEN
        slot = (is_image.long().cumsum(1) - 1).clamp(0, image_embeds.shape[1] - 1)
        gathered = torch.gather(image_embeds, 1, slot[..., None].expand(-1, -1, embeds.shape[-1]))
        embeds = torch.where(is_image[..., None], gathered, embeds)
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
