"""Assign every case of this corpus to ``train`` or ``validation`` from its file name alone.

The rule: a case file ``[neg_]NAME.py`` is in ``validation`` iff
``int(sha1(b"NAME.py").hexdigest(), 16) % 2 == 1``, else in ``train``. The ``neg_`` prefix (the
author's guess that the case compiles) is left out of the hash, so when the compiler disagrees
with the guess and the file is renamed, the case stays in its split. The split depends on nothing
but the file name, so it is fixed the moment the file is named, before it is labelled, and adding
cases never moves an old one.
``split.json`` records the result (``{"tf/NAME.py": "train", ...}``) so that a reader sees it
without running code; ``tests/xlacheck/test_eval_cases.py`` checks that it matches the rule and
covers every case file.

    python eval_cases/split.py --write    # after adding cases, BEFORE labelling them
    python eval_cases/split.py --check    # exit 1 when split.json is stale

The PyTorch/XLA corpus (``torch_xla/cases``) has its own rule, kept as it was when that corpus was
started (``tests/xlacheck/test_torch.py`` checks it): ``validation`` iff
``int(sha1(b"FILE.py").hexdigest(), 16) % 3 == 0`` over the whole file name, ``neg_`` included, so a
rename after labelling can move a torch case. ``--torch`` writes/checks ``torch_xla/split.json``
(``{"NAME.py": "train", ...}``):

    python eval_cases/split.py --write --torch
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOLDERS = ("tf", "jax")


def split_for(file_name: str) -> str:
    """``train`` or ``validation`` for a case file name such as ``cond_foo.py``."""
    key = file_name.removeprefix("neg_")
    return "validation" if int(hashlib.sha1(key.encode()).hexdigest(), 16) % 2 else "train"


def case_files(root: Path = HERE) -> list[str]:
    """``folder/NAME.py`` for every case file (files starting with ``_`` are not cases)."""
    return sorted(f"{folder}/{p.name}" for folder in FOLDERS if (root / folder).is_dir()
                  for p in (root / folder).glob("*.py") if not p.name.startswith("_"))


def compute(root: Path = HERE) -> dict[str, str]:
    return {key: split_for(key.split("/", 1)[1]) for key in case_files(root)}


def torch_split_for(file_name: str) -> str:
    """``train`` or ``validation`` for a ``torch_xla/cases`` file name (the whole name is hashed)."""
    return "validation" if int(hashlib.sha1(file_name.encode()).hexdigest(), 16) % 3 == 0 else "train"


def compute_torch(root: Path = HERE) -> dict[str, str]:
    cases = root / "torch_xla" / "cases"
    return {p.name: torch_split_for(p.name) for p in sorted(cases.glob("*.py")) if not p.name.startswith("_")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="(re)write split.json")
    group.add_argument("--check", action="store_true", help="exit 1 when split.json is stale")
    ap.add_argument("--torch", action="store_true", help="the PyTorch/XLA corpus (torch_xla/split.json)")
    args = ap.parse_args(argv)
    want = compute_torch() if args.torch else compute()
    path = HERE / "torch_xla" / "split.json" if args.torch else HERE / "split.json"
    if args.write:
        path.write_text(json.dumps(want, indent=1, sort_keys=True) + "\n")
        n_val = sum(v == "validation" for v in want.values())
        print(f"wrote {path}: {len(want)} cases, {len(want) - n_val} train, {n_val} validation")
        return 0
    have = json.loads(path.read_text()) if path.exists() else {}
    if have != want:
        print(f"{path} is stale: run `python eval_cases/split.py --write{' --torch' if args.torch else ''}`",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
