"""Findings and their messages do not depend on Python's string-hash seed (a message named one caller or
another with PYTHONHASHSEED, seen on flax/linen by reports20-jax: sets of called names were iterated)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SOURCE = '''
import jax
import jax.numpy as jnp
import numpy as np


def helper(x):
    return np.argsort(x)


def first(x):
    return helper(x) + 1


def second(x):
    return helper(x) * 2


def third(x):
    return helper(x) - 1


@jax.jit
def step(x):
    return first(x) + second(x) + third(x)
'''


def _messages(path: Path, seed: str) -> list[tuple[int, str, str]]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run([sys.executable, "-m", "xlacheck", "--no-cache", "--preview", "--output-format", "json",
                          str(path)], capture_output=True, text=True, env=env, cwd=Path(__file__).parents[2])
    found = json.loads(out.stdout)["diagnostics"]
    return sorted((d["line"], d["code"], d["message"]) for d in found)


def test_messages_are_the_same_under_every_hash_seed(tmp_path: Path) -> None:
    path = tmp_path / "model.py"
    path.write_text(SOURCE)
    runs = [_messages(path, seed) for seed in ("0", "1", "2", "3", "4", "5")]
    assert runs[0], "the helper's NumPy call on a traced array is reported"
    assert all(run == runs[0] for run in runs[1:])
