"""Source: https://github.com/pytorch/xla/issues/6002

The feature-matching trainer with the running means kept out of the traced step: the three detached
losses are handed to `xm.add_step_closure`, which runs after the step's graph has executed at the
sync, so the `.cpu().numpy()` reads there only fetch values that are already computed.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class CorrespondenceNet(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.point = nn.Sequential(nn.Linear(4, d), nn.ReLU(), nn.Linear(d, d), nn.ReLU())
        self.logit = nn.Linear(d, 1)
        self.ess = nn.Linear(d, 9)

    def forward(self, corr):
        h = self.point(corr)
        return self.logit(h).squeeze(-1), self.ess(h.mean(1))


class MatchTrainer:
    def __init__(self, model, opt):
        self.model = model
        self.opt = opt
        self.sums = [0.0, 0.0, 0.0]
        self.count = 0

    def _accumulate(self, losses, batch_size):
        for i, value in enumerate(losses):
            self.sums[i] += float(value.cpu().numpy()) * batch_size
        self.count += batch_size

    def train_step(self, corr, inlier, ess_gt):
        self.opt.zero_grad()
        logits, ess = self.model(corr)
        classif_loss = F.binary_cross_entropy_with_logits(logits, inlier)
        ess_loss = F.mse_loss(F.normalize(ess, dim=-1), ess_gt)
        geo_loss = (torch.sigmoid(logits) * (corr[..., :2] - corr[..., 2:]).pow(2).sum(-1)).mean()
        loss = classif_loss + 0.1 * ess_loss + 0.5 * geo_loss
        loss.backward()
        self.opt.step()
        losses = [classif_loss.detach(), ess_loss.detach(), geo_loss.detach()]
        if corr.device.type == "xla":
            xm.add_step_closure(self._accumulate, args=(losses, corr.shape[0]))
        else:
            self._accumulate(losses, corr.shape[0])
        return loss.detach()


# --- oracle ---
_KEEP = [MatchTrainer]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    corr = torch.randn(4, 32, 4, generator=g)
    inlier = (torch.rand(4, 32, generator=g) > 0.5).float()
    ess = F.normalize(torch.randn(4, 9, generator=g), dim=-1)
    return corr.to(device), inlier.to(device), ess.to(device)


def ENTRY(device):
    model = CorrespondenceNet().to(device)
    trainer = MatchTrainer(model, torch.optim.Adam(model.parameters(), lr=1e-3))
    return trainer.train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
