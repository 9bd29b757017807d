"""Generate xlacheck/data/torch_module.json: the attribute names of ``torch.nn.Module``, and the loss modules.

One command (needs torch; xlacheck itself never imports it):

    python tools/generate_torch_module_table.py
    python tools/generate_torch_module_table.py --check   # exit 1 when the installed torch differs

``nn.Module`` calls some of its own methods with arguments the project never spells (``eval()`` calls
``self.train(False)``, ``state_dict`` recurses with ``prefix=``), so a project method of one of these
names may be called with any arguments: :mod:`xlacheck.analysis.calls` leaves them out of the
parameters every call leaves at one literal.

``losses``: the ``torch.nn`` classes that subclass ``torch.nn.modules.loss._Loss`` (``nn.CrossEntropyLoss``,
``nn.MSELoss`` ...), whose ``forward`` returns one tensor (a 0-d one unless ``reduction="none"``): called
in step code, an instance of one gives a proven tensor (``loss = self.criterion(logits, y)``), where
other modules give a module output (a tensor or a structure of them).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _table_check  # noqa: E402  (tools/ is not a package)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "torch_module.json"
COMMAND = "python tools/generate_torch_module_table.py"


def measure() -> tuple[str, list[str], list[str]]:
    import torch

    names = sorted(n for n in dir(torch.nn.Module) if not (n.startswith("__") and n.endswith("__")))
    losses = sorted(f"torch.nn.{n}" for n in dir(torch.nn) if isinstance(getattr(torch.nn, n), type)
                    and issubclass(getattr(torch.nn, n), torch.nn.modules.loss._Loss) and not n.startswith("_"))
    return torch.__version__, names, losses


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="compare with the installed torch; write nothing")
    args = ap.parse_args(argv)
    try:
        version, names, losses = measure()
    except ImportError:
        print("skipped: torch is not installed")
        return 0
    if args.check:
        table = json.loads(args.out.read_text())
        missing = sorted(set(names) - set(table["methods"]))
        print(f"{len(names)} names, {len(missing)} missing from the table" + (f": {missing}" if missing else ""))
        stale = losses != table.get("losses")
        said = f", the table has {table.get('losses')}" if stale else ", as in the table"
        print(f"{len(losses)} loss modules{said}")
        return 1 if missing or stale else 0
    table = {"schema": 1, "command": COMMAND, "generated": _table_check.generated_date(), "torch": version,
             "methods": names, "losses": losses}
    args.out.write_text(json.dumps(table, indent=1) + "\n")
    print(f"wrote {args.out} ({len(names)} names, {len(losses)} loss modules)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
