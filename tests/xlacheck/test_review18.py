"""review18: the no-compiled-entry fact (analysis.project.uncompiled_modules, engine) kept findings it
has no ground to set aside.

- a rule whose pattern fails in every graph (``Rule.fails_in_any_graph``: ``.numpy()`` on a tensor)
  fails where Keras 2 ``fit`` or a plain ``tf.function`` traces the code, compiled or not;
- a notebook that compiles with ``jit_compile=True`` reaches what its cells import (its JSON quotes
  every line, so the import scan saw none);
- a package with a setup.py of its own inside a project is reached by the project's scripts above it.

And the JAX static-argument fix's Python math takes one number, never a whole shape; constructor_numbers'
cache is bounded; XLA410 reads only the fields a generated __hash__ hashes.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from tests.xlacheck.test_no_compiled_entry import EAGER, LAYER, _run, _write
from tests.xlacheck.test_rewrites import diagnostic_at
from xlacheck.rewrites import attach_fixes
from xlacheck.rewrites._fix import apply_edits

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
    layer = KERAS2_LAYER.replace("        return x * n",
                                 "        return x * n + tf.reduce_sum(tf.random.poisson([3], 2.0))")
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


# The static-argument fix rewrites jax.numpy math on Python values into Python's (math.sqrt, max, abs):
# those take one number, where jnp maps over a tuple. A whole shape (or a slice of it, or a name bound
# to one) stays as it is: math.sqrt(x.shape) and max(x.shape, 1) raise TypeError.
SEQUENCE_MATH = {
    "sqrt_of_a_shape": "@jax.jit\ndef f(x):\n    return jnp.zeros(int(jnp.sqrt(x.shape)))\n",
    "sqrt_of_a_name_bound_to_a_shape_slice": "@jax.jit\ndef f(x):\n    s = x.shape[1:]\n"
                                             "    return jnp.zeros(int(jnp.sqrt(s)))\n",
    "maximum_of_a_shape": "@jax.jit\ndef f(x):\n    return jnp.zeros(jnp.maximum(x.shape, 1))\n",
}


@pytest.mark.parametrize("name", sorted(SEQUENCE_MATH))
def test_jnp_math_over_a_whole_shape_is_not_rewritten_into_python_math(name: str) -> None:
    source = "import jax\nimport jax.numpy as jnp\n\n\n" + SEQUENCE_MATH[name]
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.zeros")
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
    assert result.fix is None or not any(w in e.content for e in result.fix.edits for w in ("math.", "max("))


def test_jnp_math_over_one_dimension_is_still_rewritten() -> None:
    source = "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef f(x):\n    s = x.shape[0]\n" \
             "    return jnp.zeros(int(jnp.sqrt(s)))\n"
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.zeros")
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
    assert result.fix is not None and "math.sqrt(s)" in apply_edits(source, result.fix.edits)


def test_constructor_numbers_keeps_no_file_alive_after_it_is_linted() -> None:
    """torch-prec18's ``constructor_numbers`` is cached on the class node: unbounded, it held every linted
    file's classes (measured 53 -> 349 MB over 250 transformers modeling files); bounded, a long run stays flat."""
    from xlacheck.analysis.torch_model import constructor_numbers
    from xlacheck.engine import check_file

    source = ("import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n    def __init__(self, n: int):\n"
              "        super().__init__()\n        self.n = n\n\n    def forward(self, x):\n"
              "        if self.n > 1:\n            x = x * 2\n"
              "        return x[: self.n] + torch.zeros(self.n, device=x.device)\n")
    for i in range(300):
        check_file(source, f"m{i}.py", torch_xla=True)
    assert constructor_numbers.cache_info().currsize <= 256


# XLA410's frozen dataclass "holding" an unhashable field (reports18-jax): the generated __hash__ leaves out a
# field(hash=False) / field(compare=False), and frozen=True with eq=False generates none (identity hash).
# Measured on jax 0.10.2: jax.jit with such an object as a static argument runs.
HASH_SAFE_HOLDERS = {
    "field_hash_false": "@dataclasses.dataclass(frozen=True)\nclass Cfg:\n    n: int\n"
                        "    ids: dict = dataclasses.field(hash=False)\n",
    "field_compare_false": "@dataclasses.dataclass(frozen=True)\nclass Cfg:\n    n: int\n"
                           "    ids: dict = dataclasses.field(compare=False)\n",
    "eq_false": "@dataclasses.dataclass(frozen=True, eq=False)\nclass Cfg:\n    n: int\n    ids: dict\n",
}
JITTED = ("@partial(jax.jit, static_argnums=1)\ndef f(x, cfg):\n    return x * 2\n\n\n"
          "def run(x):\n    return f(x, Cfg(1, {\"a\": 1})) + f(x, Cfg(n=1, ids={\"a\": 1}))\n")
HEADER = "import dataclasses\nfrom functools import partial\n\nimport jax\n\n\n"


@pytest.mark.parametrize("name", sorted(HASH_SAFE_HOLDERS))
def test_a_field_the_generated_hash_leaves_out_is_no_unhashable_static_argument(name: str) -> None:
    from xlacheck.engine import check_source

    source = HEADER + HASH_SAFE_HOLDERS[name] + "\n\n" + JITTED
    assert [d.code for d in check_source(source, "m.py").diagnostics if d.code == "XLA410"] == []


def test_a_hashed_dict_field_beside_a_left_out_one_is_still_flagged() -> None:
    from xlacheck.engine import check_source

    holder = ("@dataclasses.dataclass(frozen=True)\nclass Cfg:\n    n: dict\n"
              "    ids: dict = dataclasses.field(hash=False)\n")
    calls = JITTED.replace("Cfg(1, {", "Cfg({\"b\": 2}, {").replace("Cfg(n=1,", "Cfg(n={\"b\": 2},")
    found = [d for d in check_source(HEADER + holder + "\n\n" + calls, "m.py").diagnostics if d.code == "XLA410"]
    assert len(found) == 2 and all("holding a dict" in d.message for d in found)
