"""Vision-language forward that writes the image features into the text embeddings at the positions
of the image placeholder token: `inputs_embeds[input_ids == image_token_id] = image_features`.

Source: https://github.com/google/torchax/pull/96 ("static shape jaten ops for multimodal embedding":
standard boolean indexing `x[mask] = y` lowers to a dynamic scatter and each distinct mask count
compiles a new graph).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyVLM(nn.Module):
    def __init__(self, vocab=40, d=16, patch_dim=12, image_token_id=39):
        super().__init__()
        self.image_token_id = image_token_id
        self.embed_tokens = nn.Embedding(vocab, d)
        self.vision_proj = nn.Linear(patch_dim, d)
        self.block = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, d), nn.GELU())
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, input_ids, patches):
        inputs_embeds = self.embed_tokens(input_ids)
        image_features = self.vision_proj(patches)
        special_image_mask = input_ids == self.image_token_id
        inputs_embeds[special_image_mask] = image_features.reshape(-1, inputs_embeds.shape[-1])  # XLA: shape
        return self.lm_head(self.block(inputs_embeds))


def make_train_step(model, opt):
    def train_step(input_ids, patches, labels):
        opt.zero_grad()
        logits = model(input_ids, patches)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, n_img=3):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 39, (2, 10), generator=g)
    ids[:, 1:1 + n_img] = 39
    patches = torch.randn(2, n_img, 12, generator=g)
    return ids.to(device), patches.to(device), torch.randint(0, 39, (2, 10), generator=g).to(device)


def ENTRY(device):
    model = TinyVLM().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, 1, n_img=4), _batch(device, 2, n_img=2)]
