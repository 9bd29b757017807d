"""TensorFlow code that no compiled entry of its project reaches is set aside, not reported.

:func:`xlacheck.analysis.project.uncompiled_modules` finds the files of a project that name an XLA
entry (``jit_compile``, a TPU strategy, Keras ``fit`` under Keras 3; a config that sets ``jit_compile: true``)
and follows their imports; the engine sets aside the findings of TensorFlow functions below
``Level.CERTAIN`` (a Keras ``call``, a plain ``tf.function``, a tensor helper) in the files none of
them reaches (``SetAsideReason.NO_COMPILED_ENTRY``). Each project is written here.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from xlacheck.analysis.project import uncompiled_modules
from xlacheck.api import check_paths
from xlacheck.config import Settings
from xlacheck.diagnostics import SetAsideReason
from xlacheck.engine import check_file

# a layer whose ops XLA rejects (a value-sized output, an op without an XLA kernel); they run eagerly
# and in a plain tf.function (test_the_layer_runs_traced_and_fails_only_under_xla)
LAYER = """
import tensorflow as tf


class CountNoise(tf.keras.layers.Layer):
    def call(self, ids):
        counts = tf.math.bincount(ids)
        noise = tf.random.poisson([3], 2.0)
        return tf.cast(tf.reduce_sum(counts), tf.float32) + tf.reduce_sum(noise)
"""
# an eager GradientTape loop over the layer: nothing compiles it
EAGER = """
import tensorflow as tf
from pkg.layers import CountNoise


def main():
    layer = CountNoise()
    for ids in [tf.constant([1, 2, 2])]:
        with tf.GradientTape():
            loss = layer(ids)
        print(float(loss))


if __name__ == "__main__":
    main()
"""
JIT = EAGER.replace("    for ids in", "    step = tf.function(layer, jit_compile=True)\n    for ids in").replace(
    "loss = layer(ids)", "loss = step(ids)")


def _write(root: Path, files: dict[str, str]) -> None:
    for name, src in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(src).lstrip("\n"))


def _run(root: Path) -> tuple[list[tuple[str, int, str]], list[tuple[str, int, str, str]]]:
    result = check_paths([str(root)], Settings(cache=False, root=root))
    return (sorted((Path(d.path).name, d.line, d.code) for d in result.diagnostics),
            sorted((Path(s.diagnostic.path).name, s.diagnostic.line, s.diagnostic.code, s.reason.value)
                   for s in result.set_aside))


def test_a_layer_only_an_eager_loop_runs_is_set_aside(tmp_path: Path) -> None:
    _write(tmp_path, {"setup.py": "", "pkg/__init__.py": "", "pkg/layers.py": LAYER, "train.py": EAGER})
    found, aside = _run(tmp_path)
    assert found == []
    assert aside == [("layers.py", 6, "XLA204", "no-compiled-entry"), ("layers.py", 7, "XLA309", "no-compiled-entry")]
    why = uncompiled_modules([str(tmp_path / "train.py"), str(tmp_path / "pkg/layers.py")])
    assert why[str(tmp_path / "pkg/layers.py")].startswith("no compiled entry reaches it")


def test_a_jit_compile_entry_that_imports_it_keeps_the_findings(tmp_path: Path) -> None:
    _write(tmp_path, {"setup.py": "", "pkg/__init__.py": "", "pkg/layers.py": LAYER, "train.py": JIT})
    found, aside = _run(tmp_path)
    assert ("layers.py", 7, "XLA309") in found and aside == []


def test_an_entry_that_imports_only_something_else_does_not_reach_it(tmp_path: Path) -> None:
    other = "import tensorflow as tf\n\n\n@tf.function(jit_compile=True)\ndef f(x):\n    return x + 1\n"
    _write(tmp_path, {"setup.py": "", "pkg/__init__.py": "", "pkg/layers.py": LAYER, "train.py": EAGER,
                      "pkg/fast.py": other})
    found, aside = _run(tmp_path)
    assert found == [] and [a[3] for a in aside] == ["no-compiled-entry"] * 2


def test_a_tpu_strategy_or_a_config_that_sets_jit_compile_keeps_them(tmp_path: Path) -> None:
    tpu = EAGER.replace("    layer = CountNoise()", "    tf.distribute.TPUStrategy()\n    layer = CountNoise()")
    _write(tmp_path, {"setup.py": "", "pkg/__init__.py": "", "pkg/layers.py": LAYER, "train.py": tpu})
    assert _run(tmp_path)[1] == []
    _write(tmp_path, {"train.py": EAGER, "configs/run.yaml": "model:\n  jit_compile: true\n"})
    assert _run(tmp_path)[1] == []
    _write(tmp_path, {"configs/run.yaml": "model:\n  jit_compile: false\n"})
    assert [a[3] for a in _run(tmp_path)[1]] == ["no-compiled-entry"] * 2


def test_a_package_that_loads_its_folder_is_reached_through_its_init(tmp_path: Path) -> None:
    lazy = "import importlib\nimport os\n\nfor name in os.listdir(os.path.dirname(__file__)):\n" \
           "    importlib.import_module('.' + name[:-3], __name__)\n"
    entry = ("import tensorflow as tf\nimport pkg\n\n\ndef make(model):\n"
             "    return tf.function(model, jit_compile=True)\n")
    _write(tmp_path, {"setup.py": "", "pkg/__init__.py": lazy, "pkg/layers.py": LAYER, "train.py": EAGER,
                      "compile.py": entry})
    assert _run(tmp_path)[1] == []


def test_one_file_alone_gets_no_such_fact(tmp_path: Path) -> None:
    _write(tmp_path, {"layers.py": LAYER})
    assert _run(tmp_path) == ([("layers.py", 6, "XLA204"), ("layers.py", 7, "XLA309")], [])


def test_the_engine_keeps_jit_entries_and_jax_code_of_such_a_file() -> None:
    source = textwrap.dedent(LAYER) + textwrap.dedent("""

        @tf.function(jit_compile=True)
        def sample(x):
            return tf.random.poisson([3], x)
    """)
    result = check_file(source, "pkg/layers.py", uncompiled="no entry").result
    assert [(d.line, d.code) for d in result.diagnostics] == [(14, "XLA309")]
    assert [(s.diagnostic.line, s.reason) for s in result.set_aside] == [
        (7, SetAsideReason.NO_COMPILED_ENTRY), (8, SetAsideReason.NO_COMPILED_ENTRY)]  # LAYER opens with a newline
    jax_source = "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef f(x):\n    return jnp.nonzero(x)\n"
    kept = check_file(jax_source, "pkg/j.py", uncompiled="no entry").result
    assert kept.diagnostics and not kept.set_aside


def test_the_layer_runs_traced_and_fails_only_under_xla() -> None:
    """The premise, measured: what the layer runs works eagerly and in a plain tf.function (what
    Keras 2 fit and an eager loop give it) and fails only when XLA compiles it."""
    code = textwrap.dedent(LAYER) + textwrap.dedent("""
        layer = CountNoise()
        ids = tf.constant([1, 2, 2])
        layer(ids)
        tf.function(layer)(ids)
        try:
            tf.function(layer, jit_compile=True)(ids)
        except Exception as e:
            print("xla failed:", type(e).__name__)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "xla failed:" in out.stdout


def test_the_reach_scan_is_cached_on_what_it_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A warm run does not re-read the project (the answer is kept under a key of every scanned file's path,
    size and modification time, as for unreached modules); an edited file is a new key."""
    import os

    from xlacheck.analysis import project
    from xlacheck.cache import ResultCache

    _write(tmp_path / "proj", {"setup.py": "", "pkg/__init__.py": "", "pkg/layers.py": LAYER, "train.py": EAGER})
    paths = [str(tmp_path / "proj/train.py"), str(tmp_path / "proj/pkg/layers.py")]
    cache = ResultCache(tmp_path / "cache", "salt")
    cold = uncompiled_modules(paths, cache=cache)
    assert sorted(cold) == sorted(paths)  # the eager loop and the layer it runs
    calls = []
    real = project._reached_from_entries
    monkeypatch.setattr(project, "_reached_from_entries", lambda *a: calls.append(a) or real(*a))
    assert uncompiled_modules(paths, cache=cache) == cold and calls == []  # warm: nothing re-read
    train = tmp_path / "proj/train.py"
    train.write_text(JIT)
    os.utime(train, ns=(1, 1))  # a different modification time (and size): a new key
    assert uncompiled_modules(paths, cache=cache) == {} and len(calls) == 1
