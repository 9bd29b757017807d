"""The molecular-dynamics loop of pytorch/xla#2502 with the state kept on the device: the positions
live in a device tensor, the forces update them with tensor ops, and nothing is copied back to the
host inside a step (the trajectory is read after the run).

Source: https://github.com/pytorch/xla/issues/2502 (`for i in range(num_of_step): forces = model(positions);
positions = update_functions(forces, positions)`, the single-device form of the simulator).
"""
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
    def __init__(self, model, positions, dt=0.01):
        self.model, self.dt = model, dt
        self.positions = positions

    @torch.no_grad()
    def step(self):
        forces = self.model(self.positions)
        self.positions = self.positions + self.dt * forces
        return forces


# --- oracle ---
def ENTRY(device):
    model = ForceField().to(device)
    g = torch.Generator().manual_seed(0)
    return Simulator(model, torch.randn(16, 3, generator=g).to(device)).step, ()


REPEAT = 5
