"""--precision bf16 on torch_xla: autocast keeps the loss curve near fp32 and the compile count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import TINY_FLAGS, copy_of, manifest, run_cli  # type: ignore[import-not-found]

pytestmark = pytest.mark.slow

# Stated tolerance: every logged train loss of the tiny run within 0.05 nats of fp32's.
TOLERANCE = 0.05


def test_bf16_loss_curve_stays_within_tolerance_of_fp32_with_the_same_compiles(
        prepared: Path, full_run: tuple[Path, str], tmp_path: Path) -> None:
    # fp32: the session's uninterrupted run (the default precision) on the same prepared shards
    runs = {"fp32": full_run[0], "bf16": copy_of(prepared, tmp_path / "bf16")}
    proc = run_cli(["run", "--output-dir", str(runs["bf16"]), *TINY_FLAGS, "--precision", "bf16"])
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    histories = {}
    for precision, out in runs.items():
        train = manifest(out)["train"]
        assert train["config"]["precision"] == precision
        assert train["accounting"]["compiles"] == 1 and train["accounting"]["fallbacks"] == []
        assert train["accounting"]["in_step_transfers"] == 0
        histories[precision] = [json.loads(line) for line in (out / "train_history.jsonl").read_text().splitlines()]
    fp32, bf16 = histories["fp32"], histories["bf16"]
    assert [r["step"] for r in fp32] == [r["step"] for r in bf16]
    gaps = [abs(a["loss"] - b["loss"]) for a, b in zip(fp32, bf16)]
    assert max(gaps) < TOLERANCE, gaps
    assert bf16[-1]["loss"] < bf16[0]["loss"]
