"""The promises of the distribution itself: light imports and declared extras."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_xlacheck_import_pulls_nothing_heavy() -> None:
    code = (
        "import sys, xlacheck, xlacheck.diagnostics, xlacheck.rules;"
        "heavy = {'tensorflow', 'numpy', 'transformers', 'torch', 'jax'} & set(sys.modules);"
        "print(sorted(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_linter_dependencies_stay_light() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    # tomli only backfills tomllib on Python 3.10
    always = [d for d in meta["dependencies"] if ";" not in d]
    names = {re.split(r"[<>=!~; ]", d, maxsplit=1)[0] for d in always}
    # pathspec: .gitignore matching; packaging: the versions a project declares (analysis.keras_version),
    # imported only when a project scan reads them; both pure Python without dependencies. pyyaml: conda
    # environment files (a hard dependency, so the declared Keras, and the cached findings, do not depend
    # on whether it happens to be installed; review19)
    assert names == {"pathspec", "rich", "packaging", "pyyaml"}
    assert all("python_version < '3.11'" in d for d in meta["dependencies"] if ";" in d)
    trainer = " ".join(meta["optional-dependencies"]["trainer"])
    assert "transformers>=4.44,<5" in trainer and "tf-keras" in trainer
