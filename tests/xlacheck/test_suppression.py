"""# noqa / # xlacheck: ignore[...] on the reported line or the statement's first line."""

from __future__ import annotations

import pytest

from xlacheck.diagnostics import Diagnostic, Location
from xlacheck.suppression import filter_suppressed, parse_comment


def diag(code: str, line: int) -> Diagnostic:
    return Diagnostic("m.py", code, "n", "msg", Location(line, 0), Location(line, 1))


@pytest.mark.parametrize(
    ("comment", "expected"),
    [
        ("# noqa", {"ALL"}),
        ("#noqa", {"ALL"}),
        ("# NOQA", {"ALL"}),
        ("# noqa: XLA101", {"XLA101"}),
        ("# noqa:XLA101,XLA2", {"XLA101", "XLA2"}),
        ("# noqa: XLA101, XLA2 explained here", {"XLA101", "XLA2"}),
        ("# xlacheck: ignore[XLA101]", {"XLA101"}),
        ("# xlacheck: ignore[XLA101, XLA3]", {"XLA101", "XLA3"}),
        ("# xlacheck: ignore", {"ALL"}),
        ("# type: ignore  # noqa: XLA301", {"XLA301"}),
        ("# noqanope", None),
        ("# a comment", None),
    ],
)
def test_parse_comment(comment: str, expected: set[str] | None) -> None:
    got = parse_comment(comment)
    assert (set(got) if got is not None else None) == expected


def kept(source: str, *diagnostics: Diagnostic) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in filter_suppressed(source, diagnostics)]


def test_codes_and_prefixes() -> None:
    src = "a = 1  # noqa: XLA101,XLA2\n"
    assert kept(src, diag("XLA101", 1), diag("XLA102", 1), diag("XLA201", 1), diag("XLA203", 1)) == [("XLA102", 1)]


def test_bare_noqa_suppresses_all_on_its_line_only() -> None:
    src = "a = 1  # noqa\nb = 2\n"
    assert kept(src, diag("XLA101", 1), diag("XLA101", 2)) == [("XLA101", 2)]


def test_first_line_of_a_multi_line_statement_counts() -> None:
    src = "loss = tf.boolean_mask(  # noqa: XLA201\n    x,\n    m,\n)\nz = 1\n"
    assert kept(src, diag("XLA201", 3), diag("XLA201", 5)) == [("XLA201", 5)]


def test_reported_line_inside_a_statement_counts() -> None:
    src = "loss = f(\n    x.numpy(),  # xlacheck: ignore[XLA301]\n    y.numpy(),\n)\n"
    assert kept(src, diag("XLA301", 2), diag("XLA301", 3)) == [("XLA301", 3)]


def test_compound_statement_header_is_its_own_statement() -> None:
    src = "if c:  # noqa: XLA101\n    y = x.numpy()\n"
    assert kept(src, diag("XLA101", 1), diag("XLA301", 2)) == [("XLA301", 2)]


def test_noqa_inside_a_string_is_not_a_comment() -> None:
    src = 's = "# noqa"\n'
    assert kept(src, diag("XLA101", 1)) == [("XLA101", 1)]


def test_untokenizable_source_falls_back_to_line_comments() -> None:
    src = "x = (1,  # noqa: XLA101\n"
    assert kept(src, diag("XLA101", 1), diag("XLA102", 1)) == [("XLA102", 1)]
