"""Source: https://github.com/huggingface/transformers/pull/18288 ("[XLA] Improve t5 model performance":
"I've removed this check completely").

T5-style seq2seq step whose `_shift_right` builds the decoder inputs from the labels without the
value check (the PR removed `assert torch.all(shifted_input_ids >= 0).item()`; a negative id still
fails in the embedding lookup), so the forward never reads a value back.

Written as a negative (neg_host_...); the oracle measured 12 device-to-host reads in every step
(`aten::_local_scalar_dense`), all from `torch.optim.Adafactor`, whose step calls `.item()` on the step
count and on parameter and update norms. Renamed to a positive after labelling; the code is unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyT5(nn.Module):
    def __init__(self, vocab=40, d=16, decoder_start_token_id=0, pad_token_id=0):
        super().__init__()
        self.decoder_start_token_id, self.pad_token_id = decoder_start_token_id, pad_token_id
        self.shared = nn.Embedding(vocab, d)
        self.encoder = nn.Linear(d, d)
        self.decoder = nn.Linear(2 * d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def _shift_right(self, input_ids):
        shifted_input_ids = input_ids.new_zeros(input_ids.shape)
        shifted_input_ids[..., 1:] = input_ids[..., :-1].clone()
        shifted_input_ids[..., 0] = self.decoder_start_token_id
        shifted_input_ids.masked_fill_(shifted_input_ids == -100, self.pad_token_id)
        return shifted_input_ids

    def forward(self, input_ids, labels):
        enc = torch.relu(self.encoder(self.shared(input_ids))).mean(1, keepdim=True)
        dec_in = self.shared(self._shift_right(labels))
        h = torch.relu(self.decoder(torch.cat([dec_in, enc.expand_as(dec_in)], -1)))
        logits = self.lm_head(h)
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100)


def make_step(model, opt):
    def train_step(input_ids, labels):
        opt.zero_grad()
        loss = model(input_ids, labels)
        loss.backward()
        opt.step()  # XLA: host
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(1, 40, (4, 8), generator=g)
    labels[:, 6:] = -100
    return torch.randint(1, 40, (4, 10), generator=g).to(device), labels.to(device)


def ENTRY(device):
    model = TinyT5().to(device)
    return make_step(model, torch.optim.Adafactor(model.parameters(), lr=1e-2)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
