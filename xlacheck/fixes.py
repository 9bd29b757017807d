"""Apply the text edits of fixes: one pass at a time, outermost first, never writing broken code.

Edit positions are :class:`~xlacheck.diagnostics.Location`\\ s with 1-based lines and 0-based
columns counted in *characters* of the decoded line (``str`` indices), not in the UTF-8 bytes
``ast`` counts: the rewrites (``xlacheck.rewrites._source``) convert node positions, so an edit
is plain text surgery here. Lines end at ``\\n``, ``\\r\\n`` or ``\\r``, as Python's tokenizer
counts them (:class:`xlacheck.positions.LineTable`; never at a form feed).

A pass takes every applicable fix, the widest first; a fix whose edits overlap an already
taken one waits for the next pass, when the file has been re-linted and the waiting fix (if
still reported) has positions that fit the new text. Passes repeat until nothing changes (at
most :data:`MAX_PASSES`). The final text must parse with ``ast.parse`` or nothing is written.
"""

from __future__ import annotations

import ast
import bisect
import io
import os
import stat
import tokenize
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from xlacheck.diagnostics import Applicability, Diagnostic
from xlacheck.positions import LINE_END, LineTable

MAX_PASSES = 10


# -- reading and writing source files, keeping encoding, BOM, newlines and permissions ----------
@dataclass(frozen=True)
class DecodedSource:
    text: str  # newlines kept as in the file
    encoding: str  # as tokenize.detect_encoding names it; "utf-8-sig" when the file has a BOM
    newline: str  # the file's first line ending, used for text that fixes insert


def decode_source(data: bytes) -> DecodedSource:
    """Decode like Python does (BOM, ``# coding:`` cookie); raises SyntaxError/UnicodeDecodeError."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    if encoding == "utf-8-sig" or text.startswith("\ufeff"):
        encoding, text = "utf-8-sig", text.removeprefix("\ufeff")
    match = LINE_END.search(text)
    return DecodedSource(text, encoding, match.group() if match else "\n")


def encode_source(source: DecodedSource, text: str) -> bytes:
    return text.encode(source.encoding)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path``'s content without a window where it is half-written; keep its mode."""
    import tempfile

    target = Path(os.path.realpath(path))
    mode = stat.S_IMODE(os.stat(target).st_mode)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".xlacheck-tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def unified_diff(path: str, before: str, after: str) -> str:
    """A ``git diff``-style unified diff of one file (empty when nothing changes)."""

    import difflib

    def lines(text: str) -> list[str]:
        out = LineTable(text).lines()  # Python's lines: a form feed does not end one
        if out and not out[-1].endswith(("\n", "\r")):
            out[-1] += "\n\\ No newline at end of file\n"
        return out

    return "".join(difflib.unified_diff(lines(before), lines(after), f"a/{path}", f"b/{path}"))


# -- one pass -------------------------------------------------------------------------------------
def is_applicable(diagnostic: Diagnostic, *, unsafe: bool) -> bool:
    fix = diagnostic.fix
    if fix is None or not fix.edits:
        return False
    return fix.applicability is Applicability.SAFE or (unsafe and fix.applicability is Applicability.UNSAFE)


@dataclass(frozen=True)
class PassResult:
    text: str
    applied: tuple[Diagnostic, ...]  # their fixes are in ``text``
    deferred: tuple[Diagnostic, ...]  # overlapped a wider fix; retried after re-linting
    invalid: tuple[Diagnostic, ...]  # edits outside the text or overlapping each other: never applied


def _spans(diagnostic: Diagnostic, table: LineTable) -> list[tuple[int, int, str]] | None:
    assert diagnostic.fix is not None
    spans = []
    for edit in diagnostic.fix.edits:
        start = table.offset(edit.start.line, edit.start.col)
        end = table.offset(edit.end.line, edit.end.col)
        if start is None or end is None or end < start:
            return None
        spans.append((start, end, edit.content))
    spans.sort()
    if any(_overlap(a, b) for a, b in zip(spans, spans[1:])):
        return None
    return spans


def _overlap(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    """Half-open ranges overlap; an insertion touching another edit's range is ambiguous, so it counts."""
    (s1, e1, _), (s2, e2, _) = a, b
    if s1 == e1 or s2 == e2:
        return s1 <= e2 and s2 <= e1
    return s1 < e2 and s2 < e1


class _Taken:
    """The spans taken so far in a pass, sorted by start. No two of them overlap, so their starts
    differ and a new span can only overlap the one starting before it or those starting inside
    it, the first of which settles the question: a bisection, not a scan of every taken span
    (thousands of fixes in one file made the scan quadratic)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.spans: list[tuple[int, int, str]] = []

    def overlaps(self, span: tuple[int, int, str]) -> bool:
        for i in range(max(bisect.bisect_left(self.starts, span[0]) - 1, 0), len(self.spans)):
            other = self.spans[i]
            if other[0] > span[1]:
                return False
            if _overlap(span, other):
                return True
        return False

    def add(self, span: tuple[int, int, str]) -> None:
        i = bisect.bisect_left(self.starts, span[0])
        self.starts.insert(i, span[0])
        self.spans.insert(i, span)


def _normalize_newlines(content: str, newline: str) -> str:
    return content if newline == "\n" else LINE_END.sub(newline, content)


def _sort_key(item: tuple[Diagnostic, list[tuple[int, int, str]]]) -> tuple[object, ...]:
    diagnostic, spans = item
    lo, hi = spans[0][0], max(e for _, e, _ in spans)
    # Widest first (the outermost of nested fixes wins), then a total order so input order never matters.
    return (-(hi - lo), lo, hi, diagnostic.code, diagnostic.message, tuple(spans))


def apply_fixes(
    text: str, diagnostics: Iterable[Diagnostic], *, unsafe: bool = False, newline: str = "\n"
) -> PassResult:
    """Apply, in one pass, every applicable fix that does not overlap a wider one."""
    table = LineTable(text)
    candidates, invalid = [], []
    for diagnostic in diagnostics:
        if not is_applicable(diagnostic, unsafe=unsafe):
            continue
        spans = _spans(diagnostic, table)
        if spans is None:
            invalid.append(diagnostic)
        else:
            candidates.append((diagnostic, spans))
    taken = _Taken()
    applied, deferred = [], []
    for diagnostic, spans in sorted(candidates, key=_sort_key):
        if any(taken.overlaps(s) for s in spans):
            deferred.append(diagnostic)
            continue
        for span in spans:
            taken.add(span)
        applied.append(diagnostic)
    pieces, cursor = [], 0
    for start, end, content in taken.spans:
        pieces += [text[cursor:start], _normalize_newlines(content, newline)]
        cursor = end
    pieces.append(text[cursor:])
    return PassResult("".join(pieces), tuple(applied), tuple(deferred), tuple(invalid))


# -- passes until nothing changes -----------------------------------------------------------------
@dataclass(frozen=True)
class FixOutcome:
    original: str
    text: str  # == original when nothing was fixed or the result did not parse
    fixed: tuple[Diagnostic, ...]  # diagnostics whose fixes are in ``text``
    remaining: tuple[Diagnostic, ...]  # what the linter reports on ``text``
    passes: int
    error: str | None = None  # set when the fixed text did not parse: nothing may be written

    @property
    def changed(self) -> bool:
        return self.text != self.original


def fix_source(
    text: str,
    diagnostics: Sequence[Diagnostic],
    lint: Callable[[str], Sequence[Diagnostic]],
    *,
    unsafe: bool = False,
    newline: str = "\n",
    max_passes: int = MAX_PASSES,
) -> FixOutcome:
    """Fix ``text`` (whose findings are ``diagnostics``), re-linting with ``lint`` after each pass."""
    current, remaining = text, tuple(diagnostics)
    fixed: list[Diagnostic] = []
    passes = 0
    while passes < max_passes:
        result = apply_fixes(current, remaining, unsafe=unsafe, newline=newline)
        if not result.applied or result.text == current:
            break
        passes += 1
        try:
            ast.parse(result.text)
        except (SyntaxError, ValueError) as e:
            codes = ", ".join(sorted({d.code for d in result.applied}))
            detail = e.msg if isinstance(e, SyntaxError) else str(e)
            return FixOutcome(
                text,
                text,
                (),
                tuple(diagnostics),
                passes,
                error=f"fixes for {codes} would produce code that does not parse ({detail}); file left unchanged",
            )
        fixed.extend(result.applied)
        current = result.text
        remaining = tuple(lint(current))
    return FixOutcome(text, current, tuple(fixed), remaining, passes)

