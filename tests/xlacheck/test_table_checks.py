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
    # the kernel registry (every raw op), 12 API entries, and the argument conditions of 2 (the default)
    ("generate_op_table.py", ("--sample", "12")),
    ("generate_api_table.py", ("--sample", "10")),
    ("generate_autograph_table.py", ()),  # AutoGraph's rules: every one
    ("generate_bounded_dynamic_table.py", ()),  # every probe of a bounded dynamic input (39)
    ("generate_ragged_table.py", ()),  # every probe of a ragged tensor (82)
    ("generate_sparse_table.py", ()),  # every probe of a sparse tensor (107)
    ("generate_tf_branch_carry_table.py", ("--sample", "8")),  # branch/carry/variable shapes under XLA
    ("generate_tf_dtype_table.py", ()),  # every row: dtype-keeping functions, a leading Python int (119)
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


@pytest.mark.tf
@pytest.mark.slow
def test_stale_argument_conditions_fail_the_op_table_check(tmp_path: Path) -> None:
    """The op table's argument conditions (``tf.image.resize(method="area")`` has no kernel) are
    measured again by ``--check``, not only compared with the JSON: a copy whose conditions name an
    op TensorFlow does not create fails (the kernel registry is read, no API entry traced but one
    with conditions; ~40 s)."""
    pytest.importorskip("tensorflow")
    table = json.loads((ROOT / "xlacheck" / "data" / "tf_xla_ops.json").read_text())
    changed = [n for n, e in table["api"].items() if e.get("conditions")]
    assert len(changed) >= 10
    for name in changed:  # whichever the sample draws differs
        for condition in table["api"][name]["conditions"]:
            condition["unsupported"] = ["NotAnOp"]
    stale = tmp_path / "tf_xla_ops.json"
    stale.write_text(json.dumps(table))
    proc = _check("generate_op_table.py", "--out", str(stale), "--sample", "0", "--conditions-sample", "1")
    assert proc.returncode == 1, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert any(f"{name} conditions: table" in proc.stdout for name in changed), proc.stdout
    assert "NotAnOp" in proc.stdout


@pytest.mark.tf
@pytest.mark.slow
def test_stale_argument_conditions_fail_the_api_table_check(tmp_path: Path) -> None:
    """``const_unless`` (``tf.sequence_mask``'s ``lengths`` compiles as a tensor once ``maxlen`` is
    given) and the functions' ``grad_conditions`` (``tf.image.resize(method="bicubic")``'s gradient
    has no kernel) are measured again by ``--check`` for every entry that has them: a copy that
    names another argument, or drops a condition, fails (no sampled entry; ~30 s)."""
    pytest.importorskip("tensorflow")
    table = json.loads((ROOT / "xlacheck" / "data" / "tf_api.json").read_text())
    assert table["entries"]["tf.sequence_mask"]["const_unless"] == {"lengths": ["maxlen"]}
    table["entries"]["tf.sequence_mask"]["const_unless"] = {"lengths": ["dtype"]}
    resize = table["entries"]["tf.image.resize"]["grad_conditions"]
    assert [c["value"] for c in resize][:1] == ["bicubic"]
    del resize[0]
    stale = tmp_path / "tf_api.json"
    stale.write_text(json.dumps(table))
    proc = _check("generate_api_table.py", "--out", str(stale), "--sample", "0")
    assert proc.returncode == 1, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert 'tf.sequence_mask const_unless: table {"lengths": ["dtype"]} != measured {"lengths": ["maxlen"]}' \
        in proc.stdout, proc.stdout
    assert "tf.image.resize grad_conditions: table" in proc.stdout, proc.stdout
    assert "tf.image.resize_with_pad grad_conditions" not in proc.stdout, proc.stdout


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


def test_generated_date_is_pinned_by_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    """One home for every generator's ``generated`` field (five generators had their own copy)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1795651200")  # 2026-11-26 00:00 UTC
    assert _table_check.generated_date() == "2026-11-26"
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert len(_table_check.generated_date()) == 10


@pytest.mark.tf
@pytest.mark.slow
def test_tensor_members_table_agrees_with_tensorflow_and_jax() -> None:
    pytest.importorskip("tensorflow")
    pytest.importorskip("jax")
    _agrees(_check("generate_tensor_members_table.py"))


def test_random_draw_table_agrees_with_python_and_numpy() -> None:
    """xlacheck/data/random_draws.json (which ``random``/``numpy.random`` functions return one number drawn at
    each call; XLA450 reads it): every row measured again."""
    pytest.importorskip("numpy")
    _agrees(_check("generate_random_draw_table.py"))


def test_number_function_table_agrees_with_python_and_numpy() -> None:
    """xlacheck/data/number_functions.json (which ``math``/NumPy functions map Python numbers to one number, and
    which arguments it follows; XLA450 reads it): every row measured again."""
    pytest.importorskip("numpy")
    _agrees(_check("generate_number_function_table.py"))


@pytest.mark.slow
def test_hf_trainer_table_agrees_with_transformers() -> None:
    """xlacheck/data/hf_trainer.json (which methods of transformers' Trainer its loops call once per batch; the
    torch model makes a Trainer subclass's overrides of them step code): measured again on a tiny Trainer."""
    pytest.importorskip("transformers")
    _agrees(_check("generate_hf_trainer_table.py"))
