"""Inline suppressions: ``# noqa``, ``# noqa: XLA101,XLA2`` and ``# xlacheck: ignore[XLA101]``.

A comment suppresses a finding when it sits on the reported line or on the first line of the
logical statement that holds it (so a multi-line call can carry the comment on its opening
line). Codes are selectors: ``XLA2`` covers the whole XLA2xx family. Comments are found with
``tokenize``, so a ``# noqa`` inside a string literal does not count; this runs only for files
that have findings.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass

from xlacheck.diagnostics import Diagnostic

_NOQA = re.compile(r"#\s*noqa(?![\w-])(?:\s*:\s*(?P<codes>[A-Za-z]+[0-9]+(?:[\s,]+[A-Za-z]+[0-9]+)*))?", re.I)
_IGNORE = re.compile(r"#\s*xlacheck\s*:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.I)
_ANY_MARKER = re.compile(r"noqa|xlacheck", re.I)
ALL_CODES: frozenset[str] = frozenset({"ALL"})


def parse_comment(comment: str) -> frozenset[str] | None:
    """The selectors a comment suppresses (``ALL`` for a bare ``# noqa``), or None."""
    found: set[str] = set()
    for pattern in (_NOQA, _IGNORE):
        for match in pattern.finditer(comment):
            codes = match.group("codes")
            if codes is None or not codes.strip():
                return ALL_CODES
            found.update(c.upper() for c in re.split(r"[\s,]+", codes.strip()) if c)
    return frozenset(found) if found else None


@dataclass(frozen=True)
class SuppressionMap:
    by_line: dict[int, frozenset[str]]  # physical line -> selectors its comment suppresses
    statement_start: dict[int, int]  # physical line -> first line of its logical statement

    def suppresses(self, diagnostic: Diagnostic) -> bool:
        line = diagnostic.start.line
        for candidate in {line, self.statement_start.get(line, line)}:
            selectors = self.by_line.get(candidate)
            if selectors and ("ALL" in selectors or any(diagnostic.code.startswith(s) for s in selectors)):
                return True
        return False


def build_map(source: str) -> SuppressionMap:
    by_line: dict[int, frozenset[str]] = {}
    statement_start: dict[int, int] = {}
    start: int | None = None
    skip = {tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE, tokenize.ENDMARKER}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                selectors = parse_comment(tok.string)
                if selectors:
                    by_line[tok.start[0]] = selectors
            elif tok.type == tokenize.NEWLINE:
                if start is not None:
                    for line in range(start, tok.end[0] + 1):
                        statement_start[line] = start
                start = None
            elif start is None and tok.type not in skip:
                start = tok.start[0]
    except (tokenize.TokenError, SyntaxError):
        # Unfinished source: fall back to a line-by-line scan, which is right for one-line statements.
        for number, text in enumerate(source.splitlines(), start=1):
            if "#" in text and (selectors := parse_comment(text[text.index("#") :])):
                by_line[number] = selectors
    return SuppressionMap(by_line, statement_start)


def filter_suppressed(source: str, diagnostics: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
    diagnostics = tuple(diagnostics)
    if not diagnostics or not _ANY_MARKER.search(source):
        return diagnostics
    suppressions = build_map(source)
    return tuple(d for d in diagnostics if not suppressions.suppresses(d))
