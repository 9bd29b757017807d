"""Generate xlacheck/data/number_functions.json: which functions of Python's ``math`` module and of
NumPy's top level take Python numbers and return one number that changes with them.

One command (needs NumPy; xlacheck itself never imports it):

    python tools/generate_number_function_table.py
    python tools/generate_number_function_table.py --check   # exit 1 when the committed table is stale

Each public function (no class, no module, no file or printing function) is called with the first
argument tuple of ``ARGUMENTS`` it accepts and that gives one number (a Python int/float or a NumPy
scalar; a bool is no number). Then each argument in turn is replaced by each of ``_others(value)``: the
position ``follows`` when some replacement changes the result. A row is written for every function
that returns a number: ``args`` the tuple, ``follows`` the positions. The torch model (XLA450) reads
it: a call whose argument at a following position is a Python number new at every step
(``np.sqrt(1 - np.random.beta(a, a))``, ``math.log2(random.randint(2, 64))``) gives one too.
"""

from __future__ import annotations

import inspect
import sys
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _table_check  # noqa: E402  (tools/ is not a package)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "number_functions.json"
COMMAND = "python tools/generate_number_function_table.py"
# Argument tuples tried in order: floats in (0, 1) (a ratio, a draw), then ints (a count, a size)
ARGUMENTS: tuple[tuple[Any, ...], ...] = ((0.3,), (0.3, 0.7), (0.3, 0.1, 0.9), (5,), (5, 2), (5, 2, 9))
# NumPy functions never called: they read or write files, print, run tests or set global state
_SKIPPED_PREFIXES = ("save", "load", "from", "genfromtxt", "show", "info", "test", "set", "get", "memmap", "tofile",
                     "printoptions", "disp", "errstate")


def _number(value: Any) -> bool:
    import numpy as np

    return isinstance(value, (int, float, np.number)) and not isinstance(value, (bool, np.bool_))


def _others(value: Any) -> tuple[Any, ...]:
    """Replacements for one argument: near and far, above and below (a clip bound, a floor step)."""
    if isinstance(value, int):
        return value + 1, value * 3 + 2, value - 7
    return value + 0.11, value * 3 + 1.7, -value - 0.4


def _call(fn: Any, args: tuple[Any, ...]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


def _row(fn: Any) -> dict[str, Any] | None:
    for args in ARGUMENTS:
        try:
            result = _call(fn, args)
        except Exception:  # noqa: BLE001 - the next argument tuple may fit
            continue
        if not _number(result):
            continue
        follows = []
        for i, value in enumerate(args):
            for other in _others(value):
                try:
                    changed = _call(fn, (*args[:i], other, *args[i + 1:]))
                except Exception:  # noqa: BLE001 - a value outside the domain says nothing
                    continue
                if _number(changed) and changed != result:
                    follows.append(i)
                    break
        return {"args": repr(args), "follows": follows}
    return None


def _functions(module: Any, names: list[str]) -> list[tuple[str, Any]]:
    out = []
    for name in sorted(names):
        fn = getattr(module, name, None)
        if name.startswith("_") or fn is None or inspect.isclass(fn) or inspect.ismodule(fn) or not callable(fn):
            continue
        if module.__name__ == "numpy" and name.startswith(_SKIPPED_PREFIXES):
            continue
        out.append((name, fn))
    return out


def generate() -> dict[str, Any]:
    """The rows: each function's measured facts, by its full name."""
    import math

    import numpy as np

    rows: dict[str, Any] = {}
    for module, names in ((math, dir(math)), (np, list(np.__all__) if hasattr(np, "__all__") else dir(np))):
        for name, fn in _functions(module, names):
            row = _row(fn)
            if row is not None:
                rows[f"{module.__name__}.{name}"] = row
    return rows


def main(argv: list[str] | None = None) -> int:
    return _table_check.rows_table_main(argv, Path(__file__).name, __doc__, DEFAULT_OUT, COMMAND, generate)


if __name__ == "__main__":
    raise SystemExit(main())
