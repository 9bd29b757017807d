"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/7497

The same Lightning speech recognizer trained with the attention decoder's cross-entropy alone
(`ctc_weight=0`, the CTC branch not computed): label-smoothed cross-entropy over the decoder
logits, padding ignored. Every op of the step lowers to XLA.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_ID, SOS_ID = 0, 1


class TinyAttentionASR(nn.Module):
    def __init__(self, n_mels=8, d=16, vocab=20):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_mels, d, 3, stride=2, padding=1), nn.GELU())
        self.enc = nn.Linear(d, d)
        self.tok = nn.Embedding(vocab, d)
        self.att_q = nn.Linear(d, d)
        self.dec_out = nn.Linear(2 * d, vocab)

    def forward(self, feats, dec_in):
        enc = torch.tanh(self.enc(self.conv(feats).transpose(1, 2)))
        q = self.att_q(self.tok(dec_in))
        ctx = torch.softmax(q @ enc.transpose(1, 2) / 4.0, dim=-1) @ enc
        return self.dec_out(torch.cat([q, ctx], dim=-1))


class AttentionModule:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def training_step(self, feats, targets):
        self.opt.zero_grad()
        dec_in = torch.cat([torch.full_like(targets[:, :1], SOS_ID), targets[:, :-1]], dim=1)
        logits = self.model(feats, dec_in)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1),
                               ignore_index=PAD_ID, label_smoothing=0.1)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(2, 8, 24, generator=g)
    targets = torch.randint(2, 20, (2, 5), generator=g)
    targets[1, 4] = PAD_ID
    return feats.to(device), targets.to(device)


def ENTRY(device):
    return AttentionModule(TinyAttentionASR().to(device)).training_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
