"""Source: https://github.com/huggingface/transformers/issues/11832

"Seq2seq-based model running slowly on TPU": fine-tuning a translation model with the seq2seq
example, whose collator pads inputs and labels to the longest example of each batch (labels with
-100). On TPU "with each step, the training duration increases many times"; every new pair of
lengths is a new graph. A small encoder-decoder trained through such a collator.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def seq2seq_collate(features, pad_id=0, label_pad=-100):
    src_len = max(len(f["input_ids"]) for f in features)  # XLA: recompile
    tgt_len = max(len(f["labels"]) for f in features)  # XLA: recompile
    input_ids = torch.full((len(features), src_len), pad_id)
    labels = torch.full((len(features), tgt_len), label_pad)
    for i, f in enumerate(features):
        input_ids[i, :len(f["input_ids"])] = torch.tensor(f["input_ids"])
        labels[i, :len(f["labels"])] = torch.tensor(f["labels"])
    return {"input_ids": input_ids, "attention_mask": (input_ids != pad_id).long(), "labels": labels}


class TinyTranslator(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.encoder = nn.Conv1d(dim, dim, 3, padding=1)
        self.decoder = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids, attention_mask, labels):
        src = self.emb(input_ids) * attention_mask[..., None]
        enc = torch.tanh(self.encoder(src.transpose(1, 2))).transpose(1, 2)
        ctx = enc.mean(1, keepdim=True)
        dec = torch.tanh(self.decoder(self.emb(labels.clamp(min=0)) + ctx))
        logits = self.lm_head(dec)
        return F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100)


def make_step(model, opt, device):
    def step(features):
        batch = {k: v.to(device) for k, v in seq2seq_collate(features).items()}
        opt.zero_grad()
        loss = model(**batch)
        loss.backward()
        opt.step()
        return loss.detach()
    return step


# --- oracle ---
def _features(seed, lengths):
    g = torch.Generator().manual_seed(seed)
    return ([{"input_ids": torch.randint(1, 40, (s,), generator=g).tolist(),
              "labels": torch.randint(1, 40, (t,), generator=g).tolist()} for s, t in lengths],)


def ENTRY(device):
    model = TinyTranslator().to(device)
    return make_step(model, torch.optim.Adam(model.parameters(), lr=1e-3), device), _features(0, ((6, 5), (9, 7)))


def ALT_ARGS(device):
    return [_features(1, ((11, 4), (3, 8))), _features(2, ((7, 9), (12, 6)))]
