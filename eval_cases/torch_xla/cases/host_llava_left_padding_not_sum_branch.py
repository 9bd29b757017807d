"""LLaVA-style merge of image features into the text sequence that first decides whether the batch is
left-padded: `left_padding = not torch.sum(input_ids[:, -1] == torch.tensor(self.pad_token_id))`, then
branches on it in the forward.

Source: https://github.com/huggingface/transformers/issues/29891 ("LLaVA `torch.compile`
implementation": `_merge_input_ids_with_image_features` computes `left_padding` from the ids with a
Python `not` on a tensor and branches on it).
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
        left_padding = not torch.sum(input_ids[:, -1] == torch.tensor(self.pad_token_id))  # XLA: host
        h = self.embed_tokens(input_ids)
        if left_padding:
            pooled = h[:, -1]
        else:
            pooled = h.mean(1)
        return self.lm_head(torch.tanh(self.mix(pooled)))


def make_train_step(model, opt):
    def train_step(input_ids, labels):
        opt.zero_grad()
        loss = F.cross_entropy(model(input_ids), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 40, (3, 8), generator=g)
    ids[0, :2] = 0
    return ids.to(device), torch.randint(0, 40, (3,), generator=g).to(device)


def ENTRY(device):
    model = TinyLlava().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
