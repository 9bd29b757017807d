"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/7497

Speech recognition with Lightning on a TPU (`tpu_cores=8`), an encoder-decoder model trained with
the usual joint CTC-attention objective: the encoder's frame log-probabilities go through
`F.ctc_loss` against the transcripts, and the decoder's cross-entropy is added with a weight.
The report: TPU training "too slow" with the same code that trains well on GPUs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BLANK_ID, SOS_ID = 0, 1


class TinyJointASR(nn.Module):
    def __init__(self, n_mels=8, d=16, vocab=20):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_mels, d, 3, stride=2, padding=1), nn.GELU())
        self.enc = nn.Linear(d, d)
        self.ctc_head = nn.Linear(d, vocab)
        self.tok = nn.Embedding(vocab, d)
        self.att_q = nn.Linear(d, d)
        self.dec_out = nn.Linear(2 * d, vocab)

    def forward(self, feats, dec_in):
        enc = torch.tanh(self.enc(self.conv(feats).transpose(1, 2)))
        q = self.att_q(self.tok(dec_in))
        ctx = torch.softmax(q @ enc.transpose(1, 2) / 4.0, dim=-1) @ enc
        return self.ctc_head(enc), self.dec_out(torch.cat([q, ctx], dim=-1))


class JointCTCAttentionModule:
    def __init__(self, model, ctc_weight=0.3):
        self.model = model
        self.ctc_weight = ctc_weight
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def training_step(self, feats, feat_lens, targets, target_lens):
        self.opt.zero_grad()
        dec_in = torch.cat([torch.full_like(targets[:, :1], SOS_ID), targets[:, :-1]], dim=1)
        ctc_logits, dec_logits = self.model(feats, dec_in)
        log_probs = ctc_logits.log_softmax(-1).transpose(0, 1)
        ctc = F.ctc_loss(log_probs, targets, feat_lens, target_lens, blank=BLANK_ID, zero_infinity=True)  # XLA: op
        att = F.cross_entropy(dec_logits.reshape(-1, dec_logits.shape[-1]), targets.reshape(-1), ignore_index=BLANK_ID)
        loss = self.ctc_weight * ctc + (1 - self.ctc_weight) * att
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(2, 8, 24, generator=g)
    targets = torch.randint(2, 20, (2, 5), generator=g)
    targets[1, 4] = BLANK_ID
    return (feats.to(device), torch.tensor([12, 12]).to(device), targets.to(device),
            torch.tensor([5, 4]).to(device))


def ENTRY(device):
    return JointCTCAttentionModule(TinyJointASR().to(device)).training_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
