"""Measure on torch_xla (PJRT CPU): does an optimizer step with lr == 0.0 compile a graph that lr != 0 steps did not?

Per optimizer, one step per learning rate in (0.1, 0.05, 0.02, 0.03, 0.0, 0.01, 0.0), a sync after each; prints
(lr, new CompileTime samples) per step. Run: ``PJRT_DEVICE=CPU python tools/measure_torch_zero_lr.py``.
Measured with torch/torch_xla 2.9.0 (the fact behind XLA452's LambdaLR branch): every optimizer below compiles 1
(SGD) or 2 (stateful) graphs in warm-up, none for the other non-zero rates, 1 more for the first lr 0.0 step and
none for the second, e.g. ``AdamW [(0.1, 1), (0.05, 1), (0.02, 0), (0.03, 0), (0.0, 1), (0.01, 0), (0.0, 0)]``.
"""
import torch
import torch_xla
import torch_xla.debug.metrics as met

dev = torch_xla.device()


def compiles():
    d = met.metric_data("CompileTime")
    return d[0] if d else 0


for name, make in [("SGD", lambda p, lr: torch.optim.SGD(p, lr=lr)),
                   ("SGD_momentum", lambda p, lr: torch.optim.SGD(p, lr=lr, momentum=0.9)),
                   ("Adam", lambda p, lr: torch.optim.Adam(p, lr=lr)),
                   ("AdamW", lambda p, lr: torch.optim.AdamW(p, lr=lr, weight_decay=0.01)),
                   ("RMSprop", lambda p, lr: torch.optim.RMSprop(p, lr=lr)),
                   ("Adagrad", lambda p, lr: torch.optim.Adagrad(p, lr=lr))]:
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 4).to(dev)
    opt = make(model.parameters(), 0.1)
    x = torch.randn(16, 8).to(dev)
    seq = []
    for lr in (0.1, 0.05, 0.02, 0.03, 0.0, 0.01, 0.0):
        for g in opt.param_groups:
            g["lr"] = lr
        before = compiles()
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
        torch_xla.sync()
        seq.append((lr, compiles() - before))
    print(name, seq, flush=True)
