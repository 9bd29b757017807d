"""Source: https://github.com/pytorch/xla/issues/3369 ("Lower `randperm`": `randperm.generator_out` fell back to `aten` on PyTorch/XLA, and the op "is required for running Mask RCNN efficiently", whose box sampler draws a random permutation of the positive and negative proposals in every training step; a later lowering was reverted, pytorch/xla#6394). Here a detection head's proposal sampler shuffles the proposals with `torch.randperm(n, device=...)` on the device and keeps a fixed number of them for the classification loss. On torch_xla 2.9 (CPU) no `aten::` counter moved, nothing synced and the step compiled once: `randperm` without an explicit generator no longer falls back, the report does not reproduce, and this case is a negative that says so (it was named as a failing case before labelling; the rename moved its split). (Box classifier head with a balanced proposal sampler, Mask R-CNN style.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BoxHead(nn.Module):
    def __init__(self, d=12, classes=3):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, classes))

    def forward(self, roi_feats):
        return self.fc(roi_feats)


class ProposalSampler:
    def __init__(self, num_samples):
        self.num_samples = num_samples

    def __call__(self, roi_feats, roi_labels):
        n = roi_feats.shape[0]
        order = torch.randperm(n, device=roi_feats.device)
        keep = order[: self.num_samples]
        return roi_feats[keep], roi_labels[keep]


def make_train_step(model, sampler, opt):
    def train_step(roi_feats, roi_labels):
        opt.zero_grad()
        feats, labels = sampler(roi_feats, roi_labels)
        loss = F.cross_entropy(model(feats), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
COMPARE = False


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(32, 12, generator=g).to(device), torch.randint(0, 3, (32,), generator=g).to(device)


def ENTRY(device):
    model = BoxHead().to(device)
    sampler = ProposalSampler(16)
    return make_train_step(model, sampler, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
