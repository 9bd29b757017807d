"""wav2vec 2.0 with SpecAugment applied without boolean indexing: the host-drawn span mask is moved to
the device and the mask embedding is blended in with `torch.where(mask[..., None], embed, hidden)`, so
the hidden states keep their shape and only the mask's values change from step to step.

Source: https://github.com/huggingface/transformers/issues/22849 ("Fine-tuning wav2vec 2.0 with `torch.compile`":
the SpecAugment masking needs to be static in shape; here the assignment becomes a `torch.where`).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def _compute_mask_indices(shape, mask_prob, mask_length, rng):
    batch_size, sequence_length = shape
    spec_aug_mask = np.zeros((batch_size, sequence_length), dtype=bool)
    num_masked_span = max(int(mask_prob * sequence_length / mask_length + rng.random()), 1)
    for b in range(batch_size):
        starts = rng.choice(sequence_length - mask_length, num_masked_span, replace=False)
        for s in starts:
            spec_aug_mask[b, s:s + mask_length] = True
    return spec_aug_mask


class TinyWav2Vec2(nn.Module):
    def __init__(self, d=16, vocab=12, seed=0):
        super().__init__()
        self.feature_extractor = nn.Conv1d(1, d, 10, stride=5)
        self.masked_spec_embed = nn.Parameter(torch.rand(d))
        self.encoder = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab)
        self.rng = np.random.default_rng(seed)

    def _mask_hidden_states(self, hidden_states):
        mask_time_indices = _compute_mask_indices(hidden_states.shape[:2], 0.2, 3, self.rng)
        mask_time_indices = torch.tensor(mask_time_indices, device=hidden_states.device, dtype=torch.bool)
        embed = self.masked_spec_embed.to(hidden_states.dtype)
        return torch.where(mask_time_indices[..., None], embed, hidden_states)

    def forward(self, input_values):
        hidden_states = self.feature_extractor(input_values.unsqueeze(1)).transpose(1, 2)
        hidden_states = self._mask_hidden_states(hidden_states)
        return self.lm_head(torch.tanh(self.encoder(hidden_states)))


def make_train_step(model, opt):
    def train_step(input_values, labels):
        opt.zero_grad()
        logits = model(input_values)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 105, generator=g).to(device), torch.randint(0, 12, (2, 20), generator=g).to(device)


def ENTRY(device):
    model = TinyWav2Vec2().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
