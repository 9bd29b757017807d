"""Applying Fix edits: overlap (outermost wins), passes, re-parse guard, atomic encoding-preserving writes."""

from __future__ import annotations

import ast
import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xlacheck.diagnostics import Applicability, Diagnostic, Edit, Fix, Location
from xlacheck.fixes import apply_fixes, decode_source, encode_source, fix_source, unified_diff, write_atomic


def edit(l1: int, c1: int, l2: int, c2: int, content: str) -> Edit:
    return Edit(Location(l1, c1), Location(l2, c2), content)


def diag(*edits: Edit, code: str = "XLA301", applicability: Applicability = Applicability.SAFE) -> Diagnostic:
    first = edits[0].start if edits else Location(1, 0)
    return Diagnostic("m.py", code, "n", "msg", first, first, fix=Fix("fix it", edits, applicability))


def test_single_and_multi_edit_fixes() -> None:
    src = "a = x.numpy()\nb = 2\n"
    result = apply_fixes(src, [diag(edit(1, 5, 1, 13, "")), diag(edit(2, 4, 2, 5, "3"), edit(1, 0, 1, 1, "A"))])
    assert result.text == "A = x\nb = 3\n" and len(result.applied) == 2


def test_applicability_filters() -> None:
    src = "a\n"
    unsafe = diag(edit(1, 0, 1, 1, "b"), applicability=Applicability.UNSAFE)
    display = diag(edit(1, 0, 1, 1, "c"), applicability=Applicability.DISPLAY_ONLY)
    assert apply_fixes(src, [unsafe, display]).text == "a\n"
    assert apply_fixes(src, [unsafe, display], unsafe=True).text == "b\n"


def test_outermost_wins_and_inner_is_deferred() -> None:
    src = "f(g(x))\n"
    outer = diag(edit(1, 0, 1, 7, "F(g(x))"), code="XLA101")
    inner = diag(edit(1, 2, 1, 6, "G(x)"), code="XLA102")
    for order in ([outer, inner], [inner, outer]):
        result = apply_fixes(src, order)
        assert result.text == "F(g(x))\n" and result.applied == (outer,) and result.deferred == (inner,)


def test_insertions_touching_an_edit_are_deferred() -> None:
    src = "abc\n"
    result = apply_fixes(src, [diag(edit(1, 0, 1, 3, "xyz")), diag(edit(1, 3, 1, 3, "!"))])
    assert result.text == "xyz\n" and len(result.deferred) == 1


def test_invalid_positions_are_never_applied() -> None:
    src = "ab\n"
    bad = [diag(edit(1, 0, 1, 9, "")), diag(edit(5, 0, 5, 1, "")), diag(edit(1, 2, 1, 1, ""))]
    overlapping_own = diag(edit(1, 0, 1, 2, "x"), edit(1, 1, 1, 2, "y"))
    result = apply_fixes(src, [*bad, overlapping_own])
    assert result.text == src and len(result.invalid) == 4


def test_end_of_file_position_is_valid() -> None:
    assert apply_fixes("a\n", [diag(edit(2, 0, 2, 0, "b\n"))]).text == "a\nb\n"


def test_crlf_files_keep_crlf_in_inserted_text() -> None:
    src = "a = 1\r\nb = 2\r\n"
    result = apply_fixes(src, [diag(edit(2, 0, 2, 5, "b = 2\nc = 3"))], newline="\r\n")
    assert result.text == "a = 1\r\nb = 2\r\nc = 3\r\n"


def test_passes_retry_deferred_fixes_after_relinting() -> None:
    # Two nested findings; after the outer one is fixed, the linter reports the inner at its new place.
    src = "y = f(g(x))\n"

    def lint(text: str) -> list[Diagnostic]:
        out = []
        if "f(" in text:
            out.append(diag(edit(1, text.index("f("), 1, text.index("f(") + 2, "F("), code="XLA101"))
        if "g(" in text:
            out.append(diag(edit(1, text.index("g("), 1, text.index("g(") + 2, "G("), code="XLA102"))
        return out

    wide = diag(edit(1, 4, 1, 11, "F(g(x))"), code="XLA101")
    outcome = fix_source(src, [wide, *lint(src)[1:]], lint)
    assert outcome.text == "y = F(G(x))\n" and outcome.passes == 2 and outcome.remaining == ()
    again = fix_source(outcome.text, lint(outcome.text), lint)  # idempotent
    assert again.text == outcome.text and not again.changed and again.passes == 0


def test_pass_limit_stops_a_fix_that_never_settles() -> None:
    def lint(text: str) -> list[Diagnostic]:
        return [diag(edit(1, 0, 1, 0, "#"))]

    outcome = fix_source("x\n", lint("x\n"), lint, max_passes=3)
    assert outcome.passes == 3 and outcome.text == "###x\n"


def test_fix_that_does_not_parse_changes_nothing() -> None:
    src = "a = x.item()\n"
    outcome = fix_source(src, [diag(edit(1, 5, 1, 12, "(("))], lambda t: [])
    assert outcome.text == src and not outcome.changed and outcome.error and "XLA301" in outcome.error
    assert outcome.fixed == () and len(outcome.remaining) == 1


def test_decode_and_encode_keep_bom_cookie_and_newlines() -> None:
    for raw in (
        b"\xef\xbb\xbfimport tensorflow\r\nx = 'h\xc3\xa9'\r\n",
        b"# -*- coding: latin-1 -*-\nx = 'h\xe9'\n",
        b"x = 1\ry = 2\r",
    ):
        source = decode_source(raw)
        assert "\ufeff" not in source.text
        assert encode_source(source, source.text) == raw
    assert decode_source(b"a\r\nb").newline == "\r\n"
    assert decode_source(b"a\rb").newline == "\r"


def test_write_atomic_keeps_mode_and_leaves_no_temp(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("old\n")
    os.chmod(path, 0o754)
    write_atomic(path, b"new\n")
    assert path.read_bytes() == b"new\n" and stat.S_IMODE(path.stat().st_mode) == 0o754
    assert [p.name for p in tmp_path.iterdir()] == ["m.py"]


def test_write_atomic_follows_symlinks(tmp_path: Path) -> None:
    target = tmp_path / "real.py"
    target.write_text("old\n")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    write_atomic(link, b"new\n")
    assert link.is_symlink() and target.read_text() == "new\n"


def test_unified_diff() -> None:
    text = unified_diff("m.py", "a = x.numpy()\nb\n", "a = x\nb\n")
    assert text.splitlines()[:2] == ["--- a/m.py", "+++ b/m.py"]
    assert "-a = x.numpy()\n+a = x\n" in text
    assert unified_diff("m.py", "a", "a") == ""
    assert "\\ No newline at end of file" in unified_diff("m.py", "a", "b")


# -- properties ----------------------------------------------------------------------------------
LINE = st.text(alphabet="abc xyz()=", min_size=0, max_size=12)


@st.composite
def source_and_disjoint_edits(draw: st.DrawFn) -> tuple[str, list[Diagnostic]]:
    lines = draw(st.lists(LINE, min_size=1, max_size=6))
    text = "\n".join(lines) + "\n"
    # Cut points over the whole text; consecutive pairs give disjoint, non-touching ranges.
    positions = [(i + 1, c) for i, line in enumerate(lines) for c in range(len(line) + 1)]
    picks = sorted(set(draw(st.lists(st.integers(0, len(positions) - 1), max_size=8))))
    diagnostics = []
    for k in range(0, len(picks) - 1, 3):  # skip one cut between edits so ranges never touch
        (l1, c1), (l2, c2) = positions[picks[k]], positions[picks[k + 1]]
        diagnostics.append(diag(edit(l1, c1, l2, c2, draw(st.text(alphabet="XYZ", max_size=3)))))
    return text, diagnostics


@given(source_and_disjoint_edits(), st.randoms())
@settings(max_examples=150, deadline=None)
def test_disjoint_edits_give_one_result_in_any_order(case: tuple[str, list[Diagnostic]], rnd) -> None:  # type: ignore[no-untyped-def]
    text, diagnostics = case
    shuffled = diagnostics[:]
    rnd.shuffle(shuffled)
    first, second = apply_fixes(text, diagnostics), apply_fixes(text, shuffled)
    assert first.text == second.text and len(first.applied) == len(diagnostics) and not first.deferred
    # Applying one at a time, last position first, gives the same text too.
    sequential = text
    for d in sorted(diagnostics, key=lambda d: (d.fix.edits[0].start, d.fix.edits[0].end), reverse=True):  # type: ignore[union-attr]
        sequential = apply_fixes(sequential, [d]).text
    assert sequential == first.text


@given(st.lists(st.sampled_from(["x = 1", "if a:", "    pass", "y = (", ")", "def f(:"]), min_size=1, max_size=5))
@settings(max_examples=100, deadline=None)
def test_a_result_that_does_not_parse_is_never_produced(lines: list[str]) -> None:
    src = "z = 0\n"
    replacement = "\n".join(lines) + "\n"
    outcome = fix_source(src, [diag(edit(1, 0, 2, 0, replacement))], lambda t: [])
    try:
        ast.parse(replacement)
        parses = True
    except SyntaxError:
        parses = False
    assert outcome.text == (replacement if parses else src)
    assert (outcome.error is None) is parses


def test_edit_columns_count_characters_not_utf8_bytes() -> None:
    src = "s = 'héllo' + x.numpy()\n"
    start = src.index(".numpy()")  # a str index: ast's col_offset would be one more (é is 2 bytes)
    assert apply_fixes(src, [diag(edit(1, start, 1, start + len(".numpy()"), ""))]).text == "s = 'héllo' + x\n"


@given(st.lists(st.sampled_from(["x = 1", "if a:", "    pass", "y = (", ")", "def f(:", "é = 2"]), min_size=1, max_size=4))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_file_is_written_only_when_the_fixed_text_parses(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    """Through fix_paths: a fix whose result does not parse leaves the file's bytes untouched."""
    import sys
    import tempfile
    import types

    import xlacheck
    from xlacheck.api import fix_paths
    from xlacheck.config import Settings
    from xlacheck.diagnostics import FileResult

    replacement = "\n".join(lines) + "\n"

    def check_source_and_tree(source: str, path: str, *, select=None):  # type: ignore[no-untyped-def]
        if "z = 0" not in source:
            return FileResult(path), None
        return FileResult(path, (diag(edit(2, 0, 3, 0, replacement)),)), None  # the finding carries its fix

    engine = types.ModuleType("xlacheck.engine")
    engine.check_source_and_tree = check_source_and_tree  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "xlacheck.engine", engine)
    monkeypatch.setattr(xlacheck, "engine", engine, raising=False)  # the real one may be imported already
    original = b"import tensorflow as tf\r\nz = 0\r\n"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.py"
        path.write_bytes(original)
        run = fix_paths([str(path)], Settings(cache=False, root=Path(folder)))
        try:
            ast.parse(replacement)
            parses = True
        except SyntaxError:
            parses = False
        written = path.read_bytes()
        if parses:
            assert written == b"import tensorflow as tf\r\n" + replacement.replace("\n", "\r\n").encode()
        else:
            assert written == original and run.fixes[0].error is not None
