"""Source: https://github.com/pytorch/xla/issues/4203

Fine-tuning a Whisper-style speech-to-text model with the usual seq2seq speech collator: the
log-mel input features have a fixed length, but the transcripts are padded only to the longest
transcript of each batch (`-100` for the loss). The decoder's sequence length therefore changes
from batch to batch, and each new length is a new graph (the report: compiles of 13-16 minutes
that keep coming back).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_ID, BOS_ID = 0, 1


def collate_speech_batch(features):
    input_features = torch.stack([f["input_features"] for f in features])
    longest = max(len(f["labels"]) for f in features)
    labels = torch.full((len(features), longest), -100, dtype=torch.long)  # XLA: recompile
    for i, f in enumerate(features):
        labels[i, :len(f["labels"])] = torch.tensor(f["labels"])
    return input_features, labels


class TinySpeechSeq2Seq(nn.Module):
    def __init__(self, n_mels=8, d=16, vocab=40):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, d, 3, stride=2, padding=1)
        self.enc = nn.TransformerEncoderLayer(d, 2, 32, dropout=0.0, batch_first=True)
        self.tok = nn.Embedding(vocab, d)
        self.dec = nn.TransformerDecoderLayer(d, 2, 32, dropout=0.0, batch_first=True)
        self.proj = nn.Linear(d, vocab)

    def forward(self, input_features, decoder_input_ids):
        memory = self.enc(F.gelu(self.conv(input_features)).transpose(1, 2))
        t = decoder_input_ids.shape[1]
        causal = torch.triu(torch.full((t, t), float("-inf"), device=memory.device), 1)
        return self.proj(self.dec(self.tok(decoder_input_ids), memory, tgt_mask=causal))


def shift_tokens_right(labels):
    shifted = labels.new_full(labels.shape, PAD_ID)
    shifted[:, 1:] = labels[:, :-1]
    shifted[:, 0] = BOS_ID
    return shifted.masked_fill(shifted == -100, PAD_ID)


def make_train_step(model, opt):
    def train_step(input_features, labels):
        opt.zero_grad()
        logits = model(input_features, shift_tokens_right(labels))
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, lengths):
    g = torch.Generator().manual_seed(seed)
    feats = [{"input_features": torch.randn(8, 20, generator=g),
              "labels": torch.randint(2, 40, (n,), generator=g).tolist()} for n in lengths]
    x, y = collate_speech_batch(feats)
    return x.to(device), y.to(device)


def ENTRY(device):
    model = TinySpeechSeq2Seq().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0, (5, 7))


def ALT_ARGS(device):
    return [_batch(device, s, n) for s, n in ((1, (6, 9)), (2, (4, 8)), (3, (10, 3)))]
