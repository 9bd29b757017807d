"""Defects an end-of-session review found in the eleventh session's changes, pinned (each snippet is
written here, not copied from a case)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from xlacheck.api import check_paths
from xlacheck.config import Settings
from xlacheck.engine import check_source
from xlacheck.rewrites import attach_fixes

STEP = """
import torch
import torch_xla

def train_step(model, opt, x, log_every=None):
    loss = model(x).sum()
    loss.backward()
    opt.step()
    if log_every is not None:
        print(loss.item())

def run(model, opt, x):
    train_step(model, opt, x)
"""


def _project(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, str, int]]:
    for name, src in files.items():
        (tmp_path / name).write_text(textwrap.dedent(src))
    result = check_paths([str(tmp_path)], Settings(cache=False, root=tmp_path, torch_xla=True))
    return sorted((Path(r.path).name, d.code, d.line) for r in result.files for d in r.diagnostics)


def test_a_call_through_an_import_alias_keeps_the_parameter_open(tmp_path: Path) -> None:
    # `ts(..., log_every=10)` is a call of train_step: the branch runs, the host read stays reported
    alone = _project(tmp_path, {"model.py": STEP})
    assert ("model.py", "XLA350", 10) in alone
    both = _project(tmp_path, {"model.py": STEP, "train.py": (
        "from model import train_step as ts\n\ndef main(m, o, x):\n    ts(m, o, x, log_every=10)\n")})
    assert ("model.py", "XLA350", 10) in both


BREAK = """
import jax


@jax.jit
def f(x):
    total = 0.0
    for i in range(8):
        total = total + x[i]
        if x[i] > 0:
            break
    return total{tail}
"""


def _fixes(src: str) -> list[str]:
    fixed = attach_fixes(src, ast.parse(src), check_source(src, "brk.py").diagnostics)
    return [d.code for d in fixed if d.fix is not None]


def test_the_break_fix_leaves_loops_whose_index_is_read_after_them() -> None:
    assert "XLA101" in _fixes(BREAK.format(tail=""))  # every iteration runs; only `total` is kept
    assert "XLA101" not in _fixes(BREAK.format(tail=", i"))  # `i` would end at 7, not where Python stopped


def test_a_negative_static_argnums_counts_from_the_end() -> None:
    src = ("from functools import partial\n\nimport jax\n\nSCALES = {0: 0.5}\n\n\n"
           "@partial(jax.jit, static_argnums=N)\ndef r(x, level):\n    return x * SCALES[level]\n")
    assert [d.code for d in check_source(src.replace("N", "-1"), "neg.py").diagnostics] == []
    assert [d.code for d in check_source(src.replace("N", "0"), "neg.py").diagnostics] == ["XLA118"]


def test_full_batches_joined_with_another_dataset_are_not_taken_as_full() -> None:
    src = ("import tensorflow as tf\n\nDATA = tf.data.Dataset.range(10).batch(5){join}\n\n\n"
           "@tf.function(jit_compile=True)\ndef step(x):\n    return tf.reduce_sum(x)\n\n\n"
           "def train():\n    for x in DATA:\n        step(x)\n")
    joined = ".concatenate(tf.data.Dataset.range(3).batch(5))"
    assert [d.code for d in check_source(src.format(join=""), "ds.py").diagnostics] == []
    assert [d.code for d in check_source(src.format(join=joined), "ds.py").diagnostics] == ["XLA402"]
