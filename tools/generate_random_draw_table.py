"""Generate xlacheck/data/random_draws.json: which functions of Python's ``random`` module and of
``numpy.random`` return one number drawn anew at each call.

One command (needs NumPy; xlacheck itself never imports it):

    python tools/generate_random_draw_table.py
    python tools/generate_random_draw_table.py --check   # exit 1 when the committed table is stale

Each public function is called with the first argument tuple of ``ARGUMENTS`` it accepts, 16 times on
one seeded generator. A row is written when a call works: ``scalar`` says whether the result is one
number (a Python int/float or a NumPy scalar), ``draws`` whether the results of 16 calls differ (a
random draw, not ``get_state``), and ``size`` is the position of the ``size`` parameter (NumPy's
distributions return an array when it is passed; 0 for ``rand``/``randn``, whose positional arguments
are the array's dimensions), or null. The torch model (XLA450) reads the rows
with ``scalar`` and ``draws``: such a call, without ``size``, is a Python number new at every step.
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
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "random_draws.json"
COMMAND = "python tools/generate_random_draw_table.py"
# Argument tuples tried in order (distribution parameters, bounds, a population): the first that works
# (never more positional arguments than the parameters before ``size``: a size passed so would give an array)
ARGUMENTS: tuple[tuple[Any, ...], ...] = ((), (0.5,), (2,), (4, 0.5), (2, 9), (0.2, 0.5, 0.9), (4, 3, 2), ([1, 2, 3],),
                                          ([1, 2, 3], 2), ([0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]]))
CALLS = 16  # calls per function: a draw gives at least two different results among them


def _scalar(value: Any) -> bool:
    import numpy as np

    return isinstance(value, (int, float, np.generic)) and not isinstance(value, bool)


def _differs(a: Any, b: Any) -> bool:
    import numpy as np

    try:
        return not bool(np.all(np.asarray(a) == np.asarray(b)))
    except Exception:  # noqa: BLE001 - an unorderable result is no draw of numbers
        return False


def _size_position(fn: Any) -> int | None:
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return None
    if "size" in params:
        return params.index("size")
    # rand(d0, d1, ...), randn(...): every positional argument is a dimension of the array drawn
    first = next(iter(inspect.signature(fn).parameters.values()), None)
    return 0 if first is not None and first.kind is inspect.Parameter.VAR_POSITIONAL else None


def _row(method: Any, size: int | None) -> dict[str, Any] | None:
    for args in ARGUMENTS:
        if size is not None and len(args) > size:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                results = [method(*args) for _ in range(CALLS)]
        except Exception:  # noqa: BLE001 - the next argument tuple may fit
            continue
        return {"args": repr(args), "scalar": all(_scalar(r) for r in results),
                "draws": any(_differs(results[0], r) for r in results[1:]), "size": size}
    return None


def generate() -> dict[str, Any]:
    """The rows: each function's measured facts, by its full name."""
    import random

    import numpy as np

    rows: dict[str, Any] = {}
    for name in sorted(random.__all__):
        fn = getattr(random, name)
        if inspect.isclass(fn) or name in ("seed", "setstate"):
            continue
        row = _row(getattr(random.Random(0), name), None)
        if row is not None:
            rows[f"random.{name}"] = row
    for name in sorted(np.random.__all__):
        fn = getattr(np.random, name)
        if inspect.isclass(fn) or name in ("seed", "set_state", "default_rng"):
            continue
        method = getattr(np.random.RandomState(0), name, None)
        row = None if method is None else _row(method, _size_position(fn))
        if row is not None:
            rows[f"numpy.random.{name}"] = row
    return rows


def main(argv: list[str] | None = None) -> int:
    return _table_check.rows_table_main(argv, Path(__file__).name, __doc__, DEFAULT_OUT, COMMAND, generate)


if __name__ == "__main__":
    raise SystemExit(main())
