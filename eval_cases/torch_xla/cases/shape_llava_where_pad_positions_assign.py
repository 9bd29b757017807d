"""LLaVA-style merge that zeroes the embeddings at padding positions through the index pair returned by
one-argument `torch.where`: `batch_indices, pad_indices = torch.where(input_ids == pad_token_id)`, then
`final_embedding[batch_indices, pad_indices] = 0`.

Source: https://github.com/turboderp-org/exllamav2/issues/399 (the `_merge_input_ids_with_image_features`
code quoted there: "Mask out the embedding at padding positions").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLlava(nn.Module):
    def __init__(self, vocab=40, d=16, pad_token_id=0):
        super().__init__()
        self.pad_token_id = pad_token_id
        self.embed_tokens = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, input_ids):
        final_embedding = self.embed_tokens(input_ids)
        batch_indices, pad_indices = torch.where(input_ids == self.pad_token_id)  # XLA: shape
        final_embedding[batch_indices, pad_indices] = 0
        return self.lm_head(torch.tanh(self.mix(final_embedding)))


def make_train_step(model, opt):
    def train_step(input_ids, labels):
        opt.zero_grad()
        logits = model(input_ids)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, n_pad=2):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 40, (3, 8), generator=g)
    ids[0, :n_pad] = 0
    return ids.to(device), torch.randint(0, 40, (3, 8), generator=g).to(device)


def ENTRY(device):
    model = TinyLlava().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, 1, n_pad=3), _batch(device, 2, n_pad=1)]
