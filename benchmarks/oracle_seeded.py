"""The shared oracle (``shared/eval/xla_cases/oracle.py``), with its ``check-fix`` worker seeding the
random state before it imports each of the two modules it compares.

The shared oracle seeds once, after importing the original and the fixed module. A case that
builds a model at module level (``lm = TinyLM()``) draws its weights at import, so the original and
the fixed module get different weights and their outputs differ whatever the fix does (fixes28,
fixes29). Here each import starts from the state the oracle gives ``ENTRY``: ``_seed()``
(``tf.keras.utils.set_random_seed(0)``) in a TensorFlow worker, ``np.random.seed(0)`` in a JAX one.
Nothing else changes: the shared file is loaded as it is and only its module loader is wrapped, so
the two harnesses differ in that one respect (``benchmarks/fix_score.py`` runs both).

    python benchmarks/oracle_seeded.py check-fix ORIG_DIR FIXED_DIR --out report.json   # as oracle.py
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]


def shared_oracle_path() -> Path | None:
    """The shared oracle, found as ``fix_score.find_corpus`` finds it: ``shared/eval/xla_cases``
    beside this checkout or above it."""
    for base in [REPO, *REPO.parents]:
        candidate = base / "shared" / "eval" / "xla_cases" / "oracle.py"
        if candidate.exists():
            return candidate
    return None


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("xla_oracle_seeded", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # registered as an import would be: AutoGraph finds the module of the oracle's `lambda *a: fn(*a)`
    # there; without it the lambda, and so the case's function, is run unconverted (Python loops stay)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def seed_imports(oracle: ModuleType) -> None:
    """Wrap the oracle's module loader so that each case module is imported from a seeded state,
    and make the oracle start its workers through this file (``_run_worker`` runs ``__file__``)."""
    load_module = oracle._load_module

    def seeded(path: str, modname: str) -> ModuleType:
        if oracle.detect_framework(path) == "jax":
            import numpy as np

            np.random.seed(0)  # what worker_check_fix_jax does before ENTRY
        else:
            oracle._seed()  # tf.keras.utils.set_random_seed(0), what worker_check_fix does before ENTRY
        return load_module(path, modname)

    oracle._load_module = seeded
    oracle.__file__ = os.path.abspath(__file__)


def main(argv: list[str] | None = None) -> int:
    path = shared_oracle_path()
    if path is None:
        print("oracle_seeded: no shared/eval/xla_cases/oracle.py above this checkout", file=sys.stderr)
        return 2
    oracle = load(path)
    seed_imports(oracle)
    return oracle.main(argv) or 0


if __name__ == "__main__":
    raise SystemExit(main())
