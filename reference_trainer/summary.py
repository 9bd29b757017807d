"""The end-of-run summary of both frameworks: one table (figure, value, check), one line of advice
per check that says NO, and the exit code that follows from them.

The TensorFlow path hands over its result dataclasses, the torch_xla path the same figures as
JSON-ready dicts (they may come back from ``torch_xla.launch`` replicas through a file); both are
read as mappings here, so the rows, their wording and the exit code are the same for both.
Building the summary prints nothing; :func:`print_summary` and :func:`exit_code` are the CLI's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

EXIT_CHECKS_FAILED = 3  # the run finished but a check in the summary says NO
# Where a torch_xla accounting failure points the user.
_TORCH_DEBUG = "PT_XLA_DEBUG_LEVEL=1 names the line that causes it"


@dataclass(frozen=True)
class Row:
    figure: str
    value: str
    passed: bool | None = None  # None: a figure without a check
    note: str = ""  # shown in the check column of a row without a check ("reused")
    advice: str = ""  # what to do when ``passed`` is False


@dataclass(frozen=True)
class Summary:
    title: str
    rows: tuple[Row, ...]
    predictions: tuple[tuple[str, tuple[str, ...], tuple[float, ...]], ...] = ()  # fill-mask (prompt, tokens, scores)

    @property
    def failed(self) -> tuple[str, ...]:
        """One line of advice per check that says NO, in table order."""
        return tuple(row.advice for row in self.rows if row.passed is False)


def _fields(result: Any) -> Mapping[str, Any] | None:
    """A stage's figures as a mapping: a result dataclass, a dict (torch_xla), or an object."""
    if result is None or isinstance(result, Mapping):
        return result
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        return {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}
    return vars(result)


def build_summary(results: Mapping[str, Any], timings: Mapping[str, float], artifacts: Sequence[str],
                  framework: str = "tf") -> Summary:
    """The rows for the stages in ``results`` (keys prepare, train, evaluate, fill_mask)."""
    torch = framework == "torch"
    rows: list[Row] = []
    prep = _fields(results.get("prepare"))
    if prep:
        rows.append(Row("data", f"{prep['train_records']} train / {prep['eval_records']} eval records "
                        f"({prep['layout']}), {prep['train_tokens']:,} train tokens, vocab {prep['vocab_size']}",
                        note="reused" if prep["reused"] else ""))
    train = _fields(results.get("train"))
    if train:
        rows += _train_rows(train, torch)
    evaluation = _fields(results.get("evaluate"))
    if evaluation:
        rows += _eval_rows(evaluation, torch)
    predictions: tuple[tuple[str, tuple[str, ...], tuple[float, ...]], ...] = ()
    fill = _fields(results.get("fill_mask"))
    if fill:
        rows.append(Row("fill-mask (reloaded model" + (", CPU)" if torch else ")"),
                        f"top-1 {fill['top1']:.3f}, top-5 {fill['top5']:.3f} on {fill['checked_positions']} "
                        "eval positions"))
        predictions = tuple((p["prompt"], tuple(p["tokens"]), tuple(p["scores"]))
                            for p in map(_fields, fill["predictions"]) if p is not None)
    rows += [Row(f"time: {stage}", f"{seconds:.1f} s") for stage, seconds in timings.items()]
    rows += [Row("artifact", path) for path in artifacts]
    title = "reference_trainer summary" + (" (PyTorch/XLA)" if torch else "")
    return Summary(title, tuple(rows), predictions)


def _train_rows(tr: Mapping[str, Any], torch: bool) -> list[Row]:
    first, last = tr["first_loss"], tr["last_loss"]
    rows = [
        Row("train loss (first -> last log)", f"{first:.3f} -> {last:.3f}", last < first,
            advice=f"train loss did not fall ({first:.3f} -> {last:.3f}): lower --learning-rate, or check that "
            "the corpus is text and not markup or numbers"),
        Row("train masked accuracy (first -> last)",
            f"{tr['first_masked_accuracy']:.3f} -> {tr['last_masked_accuracy']:.3f}"),
        Row("steps", f"{tr['start_step']} -> {tr['final_step']}" + (" (resumed)" if tr["start_step"] else "")),
    ]
    shapes = ", ".join(f"{b}x{n}" for b, n in tr["batch_shapes"])
    if torch:
        rows += _torch_accounting_rows(tr, shapes)
    else:
        compiles, distinct = tr["train_compiles"], len(tr["batch_shapes"])
        rows += [
            Row("train compiles vs distinct batch shapes", f"{compiles} vs {distinct} ({shapes})",
                compiles == distinct,
                advice=f"the train step compiled {compiles} times for {distinct} batch shape(s): something "
                "retraces it (a changed model/loss module? run xlacheck on it)"),
            Row("jit_compile", f"{'on' if tr['jit_compile'] else 'off'} ({tr['jit_reason']})"),
            Row("strategy", f"{tr['strategy']}, {tr['replicas']} replica(s)"),
        ]
    rows += [
        Row("precision", tr.get("precision", "fp32")),
        Row("real tokens/s (after compile)", f"{tr['tokens_per_second']:,.0f}"),
        Row("real tokens/s (incl. compile)", f"{tr['tokens_per_second_with_compile']:,.0f}"),
    ]
    if not torch:
        rows.append(Row("XLA dry run", f"{tr['dry_run_seconds']:.1f} s"))
    return rows


def _torch_accounting_rows(tr: Mapping[str, Any], shapes: str) -> list[Row]:
    """torch_xla's own metrics over the train loop: compiles, aten:: fallbacks, in-step reads."""
    acc = _fields(tr["accounting"]) or {}
    compiles, distinct, recompiled = acc["compiles"], acc["distinct_shapes"], list(acc["recompile_steps"])
    fallbacks, transfers = list(acc["fallbacks"]), acc["in_step_transfers"]
    where = f" (recompiled at steps {recompiled[:5]})" if recompiled else ""
    return [
        Row("compiles (CompileTime) vs distinct batch shapes", f"{compiles} vs {distinct} ({shapes})",
            compiles == distinct and not recompiled,
            advice=f"torch_xla accounting failed: {compiles} compilations for {distinct} distinct batch shapes"
            f"{where}: something in the step changes its graph (a Python number that varies, a shape); "
            + _TORCH_DEBUG),
        Row("aten:: CPU fallbacks", ", ".join(fallbacks) or "0", not fallbacks,
            advice=f"torch_xla accounting failed: aten:: CPU fallbacks {fallbacks}: these ops have no XLA "
            "lowering and run on the CPU every step; replace them (xlacheck --select XLA3 names known ones)"),
        Row("device-to-host transfers inside the step", str(transfers), transfers == 0,
            advice=f"torch_xla accounting failed: {transfers} device-to-host transfers inside the step (an "
            ".item(), a print or a Python `if` on a tensor); read values in xm.add_step_closure; " + _TORCH_DEBUG),
        Row("syncs / steps", f"{acc['syncs']} / {tr['final_step'] - tr['start_step']}"),
        Row("device", f"{tr['device']}, {tr['replicas']} replica(s), loop {tr['loop']}"),
        Row("first step (trace + compile + run)", f"{acc['first_step_seconds']:.1f} s"),
    ]


def _eval_rows(ev: Mapping[str, Any], torch: bool) -> list[Row]:
    accuracy, baseline, token = ev["masked_accuracy"], ev["frequency_baseline"], ev["most_frequent_token"]
    compiles, shapes = ev["eval_compiles"], len(ev["batch_shapes"])
    # torch_xla's eval lists the shapes it may meet (the spec's), TF's the ones it met
    compiles_ok = compiles <= shapes if torch else compiles == shapes
    return [
        Row("eval masked accuracy vs frequency baseline", f"{accuracy:.3f} vs {baseline:.3f} (always {token!r})",
            accuracy > baseline,
            advice=f"eval masked accuracy {accuracy:.3f} is not above the {baseline:.3f} of always predicting "
            f"{token!r}: train longer (rerun with a higher --train-steps to continue this run, e.g. 4x), give "
            "more text (--train-files), or try --learning-rate 2e-3"),
        Row("eval loss / perplexity",
            f"{ev['loss']:.3f} / {ev['perplexity']:.1f} on {ev['masked_tokens']:,} masked tokens"),
        Row("eval compiles vs batch shapes", f"{compiles} vs {shapes}", compiles_ok,
            advice=f"the eval step compiled {compiles} times for {shapes} batch shape(s): something retraces it"),
    ]


def print_summary(console: Any, summary: Summary) -> None:
    """The table (rich), the fill-mask predictions under it, then one line per failed check."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=summary.title)
    for column in ("figure", "value", "check"):
        table.add_column(column)
    for row in summary.rows:
        check = {True: "[green]ok[/]", False: "[red]NO[/]", None: escape(row.note)}[row.passed]
        table.add_row(escape(row.figure), escape(row.value), check)
    console.print(table)
    for prompt, tokens, scores in summary.predictions:
        guesses = ", ".join(f"{t!r} {s:.2f}" for t, s in zip(tokens, scores))
        console.print(f"  [bold]{escape(prompt)}[/] -> {escape(guesses)}")
    for advice in summary.failed:
        console.print(f"[red]check failed:[/] {escape(advice)}", soft_wrap=True)


def exit_code(console: Any, summary: Summary, allow_failed_checks: bool) -> int:
    """0, or :data:`EXIT_CHECKS_FAILED` (with one line saying so) when a check says NO."""
    if summary.failed and not allow_failed_checks:
        console.print(f"exit code {EXIT_CHECKS_FAILED}: a check says NO (pass --allow-failed-checks to exit 0 anyway)",
                      soft_wrap=True)
        return EXIT_CHECKS_FAILED
    return 0
