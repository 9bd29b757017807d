"""Every generated API table, checked against the installed framework: each generator's
``--check --sample N`` re-measures a deterministic sample of its checked-in JSON with the probe
that wrote it and exits 1 when an entry differs (tools/_table_check.py holds what they share).

The TensorFlow and JAX checks run in this interpreter's environment; the torch_xla ones in a
Python that has torch_xla (this one, else ``XLACHECK_TORCH_XLA_PYTHON``; skipped without either,
as the other torch_xla tests are). A check that finds its framework missing prints ``skipped:``
and the test skips with that reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.xlacheck.test_torch import _torch_xla_python

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import _table_check  # noqa: E402


def _check(tool: str, *args: str, python: str = sys.executable) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TF_USE_LEGACY_KERAS": "1", "TF_CPP_MIN_LOG_LEVEL": "3", "PJRT_DEVICE": "CPU",
           "JAX_PLATFORMS": "cpu"}
    proc = subprocess.run([python, str(ROOT / "tools" / tool), "--check", *args], capture_output=True, text=True,
                          env=env, timeout=900, cwd=ROOT)
    if "--check: skipped:" in proc.stdout:
        pytest.skip(proc.stdout.strip().splitlines()[-1])
    return proc


def _agrees(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 0 and "re-measured facts agree" in proc.stdout, proc.stdout[-4000:] + proc.stderr[-2000:]


@pytest.mark.tf
@pytest.mark.slow
@pytest.mark.parametrize(("tool", "args"), [
    ("generate_op_table.py", ("--sample", "12")),  # the kernel registry (every raw op), 12 API entries
    ("generate_api_table.py", ("--sample", "10")),
    ("generate_autograph_table.py", ()),  # AutoGraph's rules: every one
])
def test_tensorflow_tables_agree_with_tensorflow(tool: str, args: tuple[str, ...]) -> None:
    pytest.importorskip("tensorflow")
    _agrees(_check(tool, *args))


@pytest.mark.slow
def test_jax_table_agrees_with_jax() -> None:
    pytest.importorskip("jax")
    _agrees(_check("generate_jax_api_table.py", "--sample", "12"))


@pytest.mark.torch_xla
@pytest.mark.slow
@pytest.mark.parametrize(("tool", "args"), [
    ("generate_torch_table.py", ("--sample", "4")),  # 4 each of forward, backward, argument and variant probes
    # one fresh process per probe (as the full run): no graph of another probe is in the compilation cache
    ("generate_torch_recompile_table.py", ("--sample", "4")),
    # every sink, optimizer, function and size probe, in one process, and 40 of the Tensor-method sweep
    ("generate_torch_host_table.py", ("--sample", "40")),
    ("generate_torch_pool_table.py", ("--sample", "24")),
])
def test_torch_xla_tables_agree_with_torch_xla(tool: str, args: tuple[str, ...]) -> None:
    python = _torch_xla_python()
    _agrees(_check(tool, *args, python=python))


# -- a stale table is caught (the cheap checks, on a copy with one fact changed) -------------------


@pytest.mark.tf
@pytest.mark.slow
def test_a_stale_autograph_table_fails_its_check(tmp_path: Path) -> None:
    pytest.importorskip("tensorflow")
    table = json.loads((ROOT / "xlacheck" / "data" / "autograph_do_not_convert.json").read_text())
    table["modules"] = table["modules"][1:]
    stale = tmp_path / "autograph.json"
    stale.write_text(json.dumps(table))
    proc = _check("generate_autograph_table.py", "--out", str(stale))
    assert proc.returncode == 1 and "modules: table" in proc.stdout, proc.stdout


@pytest.mark.slow
def test_a_stale_jax_table_fails_its_check(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    table = json.loads((ROOT / "xlacheck" / "data" / "jax_api.json").read_text())
    changed = [n for n, e in table["entries"].items() if e.get("jit_error") == "ConcretizationTypeError"]
    for name in changed:  # a wrong return kind for every data-dependent entry: whichever the sample draws differs
        table["entries"][name]["returns"] = "object"
    stale = tmp_path / "jax_api.json"
    stale.write_text(json.dumps(table))
    proc = _check("generate_jax_api_table.py", "--out", str(stale))
    assert proc.returncode == 1 and any(f"{name}: table" in proc.stdout for name in changed), proc.stdout


# -- the sample (no framework) -------------------------------------------------------------------


def test_spread_sample_is_deterministic_and_takes_from_every_group() -> None:
    groups = {"lowered": [f"op{i}" for i in range(50)], "fallback": ["f1", "f2"], "error": ["e1"]}
    first = _table_check.spread_sample(groups, 7)
    assert first == _table_check.spread_sample({k: list(reversed(v)) for k, v in groups.items()}, 7)
    assert len(first) == 7 and {"f1", "f2", "e1"} <= set(first)
    assert _table_check.spread_sample(groups, 100) == sorted({n for v in groups.values() for n in v})
    assert _table_check.spread_sample(groups, 7, seed=12) != first


def test_difference_names_the_entry_and_both_values() -> None:
    assert _table_check.difference("tf.x", {"a": 1}, {"a": 1}) is None
    assert _table_check.difference("tf.x", {"a": 1}, {"a": 2}) == 'tf.x: table {"a": 1} != measured {"a": 2}'
