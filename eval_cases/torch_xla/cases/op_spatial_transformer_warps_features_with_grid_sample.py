"""Source: https://github.com/pytorch/xla/issues/5868 ("[Core ATen Opset] Lower aten_grid_sampler_2d": `aten::grid_sampler_2d`, the op behind `F.grid_sample`, had no torch_xla lowering and was tracked for the core ATen opset). On torch_xla 2.9 `F.grid_sample` still runs through the CPU fallback. Here a spatial-transformer classifier predicts an affine transform with a localisation net, builds the sampling grid with `F.affine_grid` (lowered) and warps its input with `F.grid_sample` in every training step. (Spatial transformer network classifying 28x28 digits.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpatialTransformerClassifier(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.loc = nn.Sequential(nn.Conv2d(1, 8, 5, stride=2), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 12 * 12, 6))
        nn.init.zeros_(self.loc[-1].weight)
        with torch.no_grad():
            self.loc[-1].bias.copy_(torch.tensor([1.0, 0.0, 0.0, 0.0, 1.0, 0.0]))
        self.body = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                  nn.Linear(8, n_classes))

    def forward(self, x):
        theta = self.loc(x).view(-1, 2, 3)
        grid = F.affine_grid(theta, list(x.shape), align_corners=False)
        warped = F.grid_sample(x, grid, align_corners=False)  # XLA: op
        return self.body(warped)


def make_train_step(model, opt):
    def train_step(images, labels):
        opt.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 1, 28, 28, generator=g).to(device), torch.randint(0, 10, (4,), generator=g).to(device)


def ENTRY(device):
    model = SpatialTransformerClassifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
