"""review18: the no-compiled-entry fact (analysis.project.uncompiled_modules, engine) kept findings it
has no ground to set aside.

- a rule whose pattern fails in every graph (``Rule.fails_in_any_graph``: ``.numpy()`` on a tensor)
  fails where Keras 2 ``fit`` or a plain ``tf.function`` traces the code, compiled or not;
- a notebook that compiles with ``jit_compile=True`` reaches what its cells import (its JSON quotes
  every line, so the import scan saw none);
- a package with a setup.py of its own inside a project is reached by the project's scripts above it.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.xlacheck.test_no_compiled_entry import EAGER, LAYER, _run, _write

KERAS2_LAYER = """
import tensorflow as tf


class Scale(tf.keras.layers.Layer):
    def call(self, x):
        n = int(x.numpy().sum())
        return x * n
"""
KERAS2_FIT = """
import tensorflow as tf
from pkg.layers import Scale

model = tf.keras.Sequential([Scale()])
model.compile(loss="mse")
model.fit(tf.zeros([4, 2]), tf.zeros([4, 2]))
"""


def test_a_finding_that_fails_in_any_graph_is_not_set_aside(tmp_path: Path) -> None:
    _write(tmp_path, {"setup.py": "", "pkg/__init__.py": "", "pkg/layers.py": KERAS2_LAYER, "train.py": KERAS2_FIT})
    found, aside = _run(tmp_path)
    assert ("layers.py", 6, "XLA301") in found and aside == []


def test_what_fails_only_under_xla_is_still_set_aside_beside_it(tmp_path: Path) -> None:
    layer = KERAS2_LAYER.replace("        return x * n", "        return x * n + tf.reduce_sum(tf.random.poisson([3], 2.0))")
    _write(tmp_path, {"setup.py": "", "pkg/__init__.py": "", "pkg/layers.py": layer, "train.py": KERAS2_FIT})
    found, aside = _run(tmp_path)
    assert [f[2] for f in found] == ["XLA301"] and [(a[2], a[3]) for a in aside] == [("XLA309", "no-compiled-entry")]


def _notebook(*lines: str) -> str:
    cell = {"cell_type": "code", "metadata": {}, "source": list(lines), "outputs": [], "execution_count": None}
    meta = {"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"},
            "language_info": {"name": "python"}}
    return json.dumps({"cells": [cell], "metadata": meta, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def test_a_notebook_that_compiles_reaches_what_it_imports(tmp_path: Path) -> None:
    notebook = _notebook("import tensorflow as tf\n", "from pkg.layers import CountNoise\n",
                         "step = tf.function(CountNoise(), jit_compile=True)\n")
    _write(tmp_path, {"setup.py": "", "pkg/__init__.py": "", "pkg/layers.py": LAYER, "train.py": EAGER,
                      "run.ipynb": notebook})
    found, aside = _run(tmp_path)
    assert ("layers.py", 7, "XLA309") in found and aside == []


def test_a_package_with_its_own_setup_py_is_reached_by_the_projects_scripts(tmp_path: Path) -> None:
    jit = EAGER.replace("from pkg.layers", "from mylib.layers").replace(
        "layer = CountNoise()", "layer = tf.function(CountNoise(), jit_compile=True)")
    _write(tmp_path, {"pyproject.toml": "", "lib/setup.py": "", "lib/mylib/__init__.py": "",
                      "lib/mylib/layers.py": LAYER, "lib/mylib/other.py": "from mylib import layers\n",
                      "scripts/train.py": jit})
    found, aside = _run(tmp_path)
    assert ("layers.py", 7, "XLA309") in found and aside == []


def test_projects_side_by_side_in_an_unmarked_folder_stay_apart(tmp_path: Path) -> None:
    jit = EAGER.replace("layer = CountNoise()", "layer = tf.function(CountNoise(), jit_compile=True)")
    _write(tmp_path, {"a/setup.py": "", "a/pkg/__init__.py": "", "a/pkg/layers.py": LAYER, "a/train.py": EAGER,
                      "b/setup.py": "", "b/pkg/__init__.py": "", "b/pkg/layers.py": "", "b/train.py": jit})
    found, aside = _run(tmp_path)
    assert found == [] and [a[3] for a in aside] == ["no-compiled-entry"] * 2
