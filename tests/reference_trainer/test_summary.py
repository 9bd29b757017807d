"""One summary for both frameworks: the same columns and shared rows, each check's advice, the
torch_xla accounting checks, and the exit code (reference_trainer/summary.py)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from reference_trainer.evaluate import EvalResult
from reference_trainer.fill_mask import FillMaskResult, Prediction
from reference_trainer.summary import EXIT_CHECKS_FAILED, build_summary, exit_code, print_summary
from reference_trainer.train import TrainResult

COMMON = dict(start_step=0, final_step=20, first_loss=5.6, last_loss=5.3, first_masked_accuracy=0.01,
              last_masked_accuracy=0.08, tokens_per_second=1000.0, tokens_per_second_with_compile=800.0,
              real_tokens=5000, batch_shapes=((8, 32),), replicas=1, wall_seconds=9.0,
              history=((10, 5.6), (20, 5.3)), artifacts=("RUN/model",))
EVAL = EvalResult(loss=6.0, perplexity=403.4, masked_accuracy=0.08, frequency_baseline=0.06, most_frequent_token="the",
                  masked_tokens=1000, real_tokens=7000, steps=3, eval_compiles=1, batch_shapes=((8, 32),))
FILL = FillMaskResult("RUN/model", (Prediction("The <mask> is.", ("the", "a"), (0.2, 0.1)),), 0.1, 0.25, 64)


def _tf_train(**changes: object) -> TrainResult:
    fields = {**COMMON, "train_compiles": 1, "jit_compile": True, "jit_reason": "auto: on for CPU", "precision": "fp32",
              "strategy": "default", "dry_run_seconds": 2.0, **changes}
    return TrainResult(**fields)  # type: ignore[arg-type]


def _torch_train(**accounting: object) -> dict:
    """The torch path's figures as its CLI receives them: JSON-ready dicts (lists, not tuples)."""
    acc = {"compiles": 1, "distinct_shapes": 1, "recompile_steps": [], "fallbacks": [], "in_step_transfers": 0,
           "syncs": 22, "first_step_seconds": 3.0, **accounting}
    return {**COMMON, "batch_shapes": [[8, 32]], "accounting": acc, "device": "xla:0", "loop": "torch_xla",
            "precision": "fp32"}


def _render(summary: object) -> str:
    console = Console(file=io.StringIO(), width=250)
    print_summary(console, summary)  # type: ignore[arg-type]
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_both_frameworks_share_columns_rows_and_wording() -> None:
    tf = build_summary({"train": _tf_train(), "evaluate": EVAL, "fill_mask": FILL}, {"train": 9.0}, ["RUN/model"])
    torch = build_summary({"train": _torch_train(), "evaluate": EVAL.__dict__, "fill_mask": {
        "model_dir": "RUN/model", "predictions": [{"prompt": "The <mask> is.", "tokens": ["the", "a"],
                                                   "scores": [0.2, 0.1]}], "top1": 0.1, "top5": 0.25,
        "checked_positions": 64}}, {"train": 9.0}, ["RUN/model"], framework="torch")
    assert tf.failed == () and torch.failed == ()
    shared = ["train loss (first -> last log)", "train masked accuracy (first -> last)", "steps", "precision",
              "real tokens/s (after compile)", "real tokens/s (incl. compile)",
              "eval masked accuracy vs frequency baseline", "eval loss / perplexity", "eval compiles vs batch shapes",
              "time: train", "artifact"]
    for summary in (tf, torch):
        figures = [row.figure for row in summary.rows]
        assert [f for f in figures if f in shared] == shared
    tf_rows = {row.figure: row.value for row in tf.rows}
    torch_rows = {row.figure: row.value for row in torch.rows}
    for figure in shared:
        assert tf_rows[figure] == torch_rows[figure], figure
    assert tf_rows["train compiles vs distinct batch shapes"] == "1 vs 1 (8x32)"
    assert torch_rows["compiles (CompileTime) vs distinct batch shapes"] == "1 vs 1 (8x32)"
    assert torch_rows["aten:: CPU fallbacks"] == "0" and torch_rows["syncs / steps"] == "22 / 20"
    tf_text, torch_text = _render(tf), _render(torch)
    assert "reference_trainer summary" in tf_text and "(PyTorch/XLA)" in torch_text
    for text in (tf_text, torch_text):
        assert "figure" in text and "value" in text and "check" in text
        assert "'the' 0.20, 'a' 0.10" in text and "check failed" not in text


def test_every_failed_check_gives_one_line_of_advice() -> None:
    tf = build_summary({"train": _tf_train(last_loss=5.9, train_compiles=3),
                        "evaluate": EvalResult(**{**EVAL.__dict__, "masked_accuracy": 0.05, "eval_compiles": 2})},
                       {}, [])
    assert len(tf.failed) == 4
    assert "train loss did not fall (5.600 -> 5.900)" in tf.failed[0]
    assert "compiled 3 times for 1 batch shape(s)" in tf.failed[1]
    assert "not above the 0.060" in tf.failed[2] and "eval step compiled 2 times" in tf.failed[3]
    assert _render(tf).count("NO") == 4


@pytest.mark.parametrize(("accounting", "expected"), [
    ({"compiles": 3, "recompile_steps": [2, 3]}, "3 compilations for 1 distinct batch shapes (recompiled at steps [2, 3])"),
    ({"fallbacks": ["aten::nonzero"]}, "aten:: CPU fallbacks ['aten::nonzero']"),
    ({"in_step_transfers": 20}, "20 device-to-host transfers inside the step"),
])
def test_torch_xla_accounting_failures_are_failed_checks(accounting: dict, expected: str) -> None:
    summary = build_summary({"train": _torch_train(**accounting)}, {}, [], framework="torch")
    assert len(summary.failed) == 1
    assert summary.failed[0].startswith("torch_xla accounting failed: ") and expected in summary.failed[0]
    console = Console(file=io.StringIO(), width=250)
    assert exit_code(console, summary, allow_failed_checks=False) == EXIT_CHECKS_FAILED
    assert "pass --allow-failed-checks" in console.file.getvalue()  # type: ignore[attr-defined]
    assert exit_code(console, summary, allow_failed_checks=True) == 0


def test_torch_eval_may_compile_fewer_graphs_than_declared_shapes() -> None:
    """torch_xla's eval lists every shape of the spec; a split that never fills one compiles less."""
    ev = {**EVAL.__dict__, "batch_shapes": [[8, 16], [8, 32]], "eval_compiles": 1}
    assert build_summary({"evaluate": ev}, {}, [], framework="torch").failed == ()
    assert build_summary({"evaluate": {**ev, "eval_compiles": 3}}, {}, [], framework="torch").failed != ()
