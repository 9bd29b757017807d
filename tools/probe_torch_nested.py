"""Probe: can torch.nested build a nested tensor of XLA tensors? (run with PJRT_DEVICE=CPU under a Python that
has torch and torch_xla; prints one JSON object {constructor: "ok" or the error's type and message}).

The answer is the table ``xlacheck.analysis.tables.NO_XLA_TORCH_CALLS``: each constructor listed there failed
here (torch 2.9.0, torch_xla 2.9.0). tests/xlacheck/test_torch_prec25.py reruns it.
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("PJRT_DEVICE", "CPU")

import torch  # noqa: E402
import torch_xla  # noqa: E402


def main() -> None:
    dev = torch_xla.device()
    a, b = torch.randn(3, 4, device=dev), torch.randn(5, 4, device=dev)
    padded = torch.randn(2, 6, 4, device=dev)
    starts, lengths = torch.tensor([0, 1], device=dev), torch.tensor([3, 5], device=dev)
    values, offsets = torch.randn(8, 4, device=dev), torch.tensor([0, 3, 8], device=dev)
    probes = {
        "torch.nested.nested_tensor": lambda: torch.nested.nested_tensor([a, b], layout=torch.jagged),
        "torch.nested.nested_tensor#strided": lambda: torch.nested.nested_tensor([a, b]),
        "torch.nested.nested_tensor#cpu-to-xla": lambda: torch.nested.nested_tensor(
            [a.cpu(), b.cpu()], layout=torch.jagged, device=dev),
        "torch.nested.as_nested_tensor": lambda: torch.nested.as_nested_tensor([a, b], layout=torch.jagged),
        "torch.nested.as_nested_tensor#strided": lambda: torch.nested.as_nested_tensor([a, b]),
        "torch.nested.narrow": lambda: torch.nested.narrow(padded, 1, starts, lengths, layout=torch.jagged),
        "torch.nested.nested_tensor_from_jagged": lambda: torch.nested.nested_tensor_from_jagged(values, offsets),
    }
    out: dict[str, str] = {}
    for name, build in probes.items():
        try:
            t = build()
            (t * 2).values().sum().item()  # a built one must also compute
            out[name] = "ok"
        except Exception as e:  # noqa: BLE001 - the failure is the measurement
            out[name] = f"{type(e).__name__}: {str(e)[:160]}"
    out["versions"] = f"torch {torch.__version__}, torch_xla {torch_xla.__version__}"
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
