"""Vision-language forward that merges the image features with `masked_scatter` under a mask built by
comparing the ids with the placeholder token and expanding it to the embedding width.

Source: https://github.com/vllm-project/vllm/pull/13754 ("Support VLMs with transformers backend":
`mask = (input_ids == self.config.image_token_index).unsqueeze(-1).expand_as(inputs_embeds)`;
`inputs_embeds = inputs_embeds.masked_scatter(mask, multimodal_embeddings)`), the TPU worker path.

Written as a negative; the oracle measured aten::masked_select falling back (masked_scatter's backward
to its source), so it was renamed after labelling; the code is unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyVLM(nn.Module):
    def __init__(self, vocab=40, d=16, patch_dim=12, image_token_index=39):
        super().__init__()
        self.image_token_index = image_token_index
        self.embed_tokens = nn.Embedding(vocab, d)
        self.vision_proj = nn.Linear(patch_dim, d)
        self.block = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, d), nn.GELU())
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, input_ids, patches):
        inputs_embeds = self.embed_tokens(input_ids)
        multimodal_embeddings = self.vision_proj(patches)
        mask = (input_ids == self.image_token_index).unsqueeze(-1).expand_as(inputs_embeds)
        inputs_embeds = inputs_embeds.masked_scatter(mask, multimodal_embeddings)
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
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 39, (2, 10), generator=g)
    ids[:, 1:4] = 39
    patches = torch.randn(2, 3, 12, generator=g)
    return ids.to(device), patches.to(device), torch.randint(0, 39, (2, 10), generator=g).to(device)


def ENTRY(device):
    model = TinyVLM().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
