"""Test doubles for the CLI/API layer: a fake engine and fake rules that honour the contracts.

The CLI stream tests its own logic (discovery, config, cache, suppressions, fixes, reporters,
exit codes) against these, so the tests pin that logic and not the real rules' judgement.
The fake engine flags, line by line:
- XLA101 ``if tf.``: a tensor condition (no fix);
- XLA201 ``tf.boolean_mask(``: an UNSAFE fix renaming the call to ``masked_select(``;
- XLA301 ``.numpy()``: a SAFE fix deleting it (fixed file re-lints clean);
- XLA302 ``.item()``: a SAFE fix that breaks the syntax (to prove it is never written);
- XLA401 ``padding=True``: a RECOMPILE warning, DISPLAY_ONLY fix;
and a source containing ``CRASH_RULE`` gives an internal FileError, as a rule crash would.
"""

from __future__ import annotations

import ast
import re
import sys
import types
from collections.abc import Callable, Iterator

import pytest

import xlacheck
import xlacheck.rewrites
import xlacheck.rules
from xlacheck.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    FileError,
    FileResult,
    Fix,
    Location,
    Severity,
)
from xlacheck.rules.base import Example, Rule


def _doc(what: str) -> str:
    return f"""{what}

    ## What it does
    {what} Only code that XLA compiles is checked.

    ## Why is this bad?
    XLA needs static shapes and no host round-trips.

    ## Example
    ```python
    y = x.numpy()
    ```

    ## Use instead
    ```python
    y = x
    ```

    ## Fix safety
    The fix is safe when the value is already a tensor.
    """


def _rule(code: str, name: str, what: str, fixed: bool = False) -> type[Rule]:
    invalid = (Example("y = x.numpy()", fixed="y = x" if fixed else None),)
    return type(f"Fake{code}", (Rule,), {"__doc__": _doc(what), "code": code, "name": name, "INVALID": invalid})


FAKE_RULES: tuple[type[Rule], ...] = (
    _rule("XLA101", "tensor-if", "Flags a Python if on a tensor value."),
    _rule("XLA201", "boolean-mask", "Flags boolean masking, which has a data-dependent shape."),
    _rule("XLA301", "numpy-call", "Flags .numpy() calls, host syncs.", fixed=True),
    _rule("XLA302", "item-call", "Flags .item() calls, host syncs.", fixed=True),
    _rule("XLA401", "padding-longest", "Flags padding to the longest sequence."),
)

CALLS: list[str] = []  # paths the fake engine was asked to check, to observe cache and pre-filter


def _diag(path: str, code: str, name: str, msg: str, line: int, col: int, end: int, sev: Severity, fix: Fix | None) -> Diagnostic:
    return Diagnostic(path, code, name, msg, Location(line, col), Location(line, end), sev, fix)


def check_source(source: str, path: str, *, select: Callable[[str], bool] | None = None) -> FileResult:
    CALLS.append(path)
    lines = source.count("\n") + 1
    try:
        ast.parse(source)
    except SyntaxError as e:
        return FileResult(path, error=FileError(path, f"syntax error: {e.msg}", e.lineno or 1, (e.offset or 1) - 1), lines=lines)
    if "CRASH_RULE" in source:
        return FileResult(path, error=FileError(path, "XLA101 crashed: RuntimeError: boom"), lines=lines)
    found: list[Diagnostic] = []
    for number, text in enumerate(re.split(r"\r\n|\r|\n", source), start=1):
        for m in re.finditer(r"\bif tf\.", text):
            found.append(_diag(path, "XLA101", "tensor-if", "Python `if` on a tensor", number, m.start(), m.end(), Severity.ERROR, None))
        for m in re.finditer(r"tf\.boolean_mask\(", text):
            fix = Fix("use masked_select", (Edit(Location(number, m.start()), Location(number, m.end() - 1), "masked_select"),), Applicability.UNSAFE)
            found.append(_diag(path, "XLA201", "boolean-mask", "boolean mask has a data-dependent shape", number, m.start(), m.end(), Severity.WRONG_RESULT, fix))
        for m in re.finditer(r"\.numpy\(\)", text):
            fix = Fix("remove .numpy()", (Edit(Location(number, m.start()), Location(number, m.end()), ""),))
            found.append(_diag(path, "XLA301", "numpy-call", "`.numpy()` syncs with the host", number, m.start(), m.end(), Severity.ERROR, fix))
        for m in re.finditer(r"\.item\(\)", text):
            fix = Fix("break it", (Edit(Location(number, m.start()), Location(number, m.end()), "(("),))
            found.append(_diag(path, "XLA302", "item-call", "`.item()` syncs with the host", number, m.start(), m.end(), Severity.ERROR, fix))
        for m in re.finditer(r"padding=True", text):
            fix = Fix("pad to a multiple of 8", (Edit(Location(number, m.start()), Location(number, m.end()), "padding=True, pad_to_multiple_of=8"),), Applicability.DISPLAY_ONLY)
            found.append(_diag(path, "XLA401", "padding-longest", "padding to the longest sequence recompiles", number, m.start(), m.end(), Severity.RECOMPILE, fix))
    kept = [d for d in found if select is None or select(d.code)]
    kept.sort(key=lambda d: (d.start.line, d.start.col, d.code))
    return FileResult(path, tuple(kept), lines=lines)


def check_source_and_tree(source: str, path: str, *, select: Callable[[str], bool] | None = None,
                          torch_xla: bool = False) -> tuple[FileResult, ast.Module | None]:
    result = check_source(source, path, select=select)
    return result, None if result.error is not None else ast.parse(source)


@pytest.fixture
def fake_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    module = types.ModuleType("xlacheck.engine")
    module.check_source = check_source  # type: ignore[attr-defined]
    module.check_source_and_tree = check_source_and_tree  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "xlacheck.engine", module)
    monkeypatch.setattr(xlacheck, "engine", module, raising=False)
    monkeypatch.setattr(xlacheck.rules, "ALL_RULES", FAKE_RULES)
    # The real rewrites would attach fixes to the fake findings; these tests pin the CLI layer alone.
    monkeypatch.setattr(xlacheck.rewrites, "attach_fixes", lambda source, tree, diagnostics: tuple(diagnostics))
    CALLS.clear()
    yield module
    CALLS.clear()


TF_HEADER = "import tensorflow as tf\n"
