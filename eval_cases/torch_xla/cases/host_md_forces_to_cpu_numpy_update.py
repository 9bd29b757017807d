"""A molecular-dynamics driver with a learned force field: each step moves the current positions
(kept as a NumPy array on the host) to the device, predicts forces, copies them back with
`forces.to(cpu_device).numpy()` and integrates the positions in NumPy. The forces are read on the
host inside every step.

Source: https://github.com/pytorch/xla/issues/2502 ("How to prevent cyclic computation graph in torch xla
multiprocessing?": `cpu_forces = forces.to(cpu_device).numpy()` then
`structure.positions = update_function(cpu_forces, structure.positions)`).
"""
import numpy as np
import torch
import torch.nn as nn


class ForceField(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.Tanh(), nn.Linear(hidden, 3))

    def forward(self, positions):
        centered = positions - positions.mean(0, keepdim=True)
        return self.net(centered)


class Simulator:
    def __init__(self, model, positions, device, dt=0.01):
        self.model, self.device, self.dt = model, device, dt
        self.positions = positions
        self.cpu_device = torch.device("cpu")

    @torch.no_grad()
    def step(self):
        positions = torch.tensor(self.positions, dtype=torch.float32).to(self.device)
        forces = self.model(positions)
        cpu_forces = forces.to(self.cpu_device).numpy()  # XLA: host
        self.positions = self.positions + self.dt * cpu_forces
        return forces


# --- oracle ---
def ENTRY(device):
    model = ForceField().to(device)
    rng = np.random.default_rng(0)
    return Simulator(model, rng.standard_normal((16, 3)).astype(np.float32), device).step, ()


REPEAT = 5
