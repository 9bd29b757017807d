"""Lines and columns of a source text as Python counts them: the one line table of xlacheck.

Python's tokenizer ends a line at ``\\r\\n``, ``\\r`` or ``\\n`` and nowhere else; ``str.splitlines``
also splits at a form feed, vertical tab, ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028`` and
``\\u2029``, so a table built with it numbers every later line wrongly. ``ast`` counts columns in
UTF-8 bytes; people, editors, ruff and the fix applier count characters (code points: a tab, a
form feed, ``"▁"`` and ``"😀"`` are one column each). Diagnostics, fixes and rewrites all convert
through :class:`LineTable`, so they agree on every line.

Conventions (those of :class:`xlacheck.diagnostics.Location`): lines are 1-based; columns are
0-based character offsets into the line, shown 1-based by every reporter (as ruff shows them).
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_right
from collections.abc import Iterable

from xlacheck.diagnostics import Diagnostic, Edit, Location

LINE_END = re.compile(r"\r\n|\r|\n")


class LineTable:
    """Line starts of ``text`` (split only at ``\\r\\n|\\r|\\n``) and column conversions.

    ``LineTable(source).char_col(lineno, node.col_offset)`` turns an ``ast`` column into the
    character column; :meth:`offset` and :meth:`position` convert between a (line, column) and
    an index into ``text``, both ways. A text of ``n`` line ends has ``n + 1`` lines, the last one
    possibly empty (its start is the end of the text)."""

    __slots__ = ("text", "starts", "_ascii", "_line_ascii")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] = [0]
        self.starts.extend(m.end() for m in LINE_END.finditer(text))
        self._ascii = text.isascii()  # then every byte column is a character column
        self._line_ascii: dict[int, bool] = {}

    @property
    def line_count(self) -> int:
        return len(self.starts)

    # -- lines ---------------------------------------------------------------------------------
    def line(self, lineno: int, *, keepends: bool = False) -> str:
        """Line ``lineno`` (1-based); ``""`` past the end of the text."""
        if not 1 <= lineno <= len(self.starts):
            return ""
        start = self.starts[lineno - 1]
        end = self.starts[lineno] if lineno < len(self.starts) else len(self.text)
        line = self.text[start:end]
        if keepends:
            return line
        if line.endswith("\r\n"):
            return line[:-2]
        return line[:-1] if line.endswith(("\r", "\n")) else line

    def lines(self) -> list[str]:
        """Every line with its line end kept (``"".join`` gives the text back); no empty last line."""
        starts = self.starts
        out = [self.text[a:b] for a, b in zip(starts, starts[1:])]
        if starts[-1] < len(self.text):
            out.append(self.text[starts[-1]:])
        return out

    # -- columns -------------------------------------------------------------------------------
    def _is_ascii(self, lineno: int) -> bool:
        if self._ascii:
            return True
        known = self._line_ascii.get(lineno)
        if known is None:
            known = self._line_ascii[lineno] = self.line(lineno).isascii()
        return known

    def char_col(self, lineno: int, byte_col: int) -> int:
        """The 0-based character column of ``ast``'s UTF-8 byte column ``byte_col`` on ``lineno``."""
        if byte_col <= 0 or self._is_ascii(lineno):
            return byte_col
        prefix = self.line(lineno).encode("utf-8")[:byte_col]
        return len(prefix.decode("utf-8", errors="replace")) + max(byte_col - len(prefix), 0)

    def byte_col(self, lineno: int, char_col: int) -> int:
        """The UTF-8 byte column (``ast``'s) of the 0-based character column ``char_col``."""
        if char_col <= 0 or self._is_ascii(lineno):
            return char_col
        line = self.line(lineno)
        return len(line[:char_col].encode("utf-8")) + max(char_col - len(line), 0)

    def char_location(self, lineno: int, byte_col: int) -> Location:
        return Location(lineno, self.char_col(lineno, byte_col))

    # -- offsets into the text -----------------------------------------------------------------
    def offset(self, lineno: int, col: int) -> int | None:
        """Index into the text of (line, character column); None when the position is not in the
        text (a column past the line's end, line end included). ``(line_count + 1, 0)`` is the
        end of the text too, so "up to the start of the line after the last" is valid."""
        if lineno < 1 or col < 0:
            return None
        if lineno > len(self.starts):
            return len(self.text) if lineno == len(self.starts) + 1 and col == 0 else None
        start = self.starts[lineno - 1]
        end = self.starts[lineno] if lineno < len(self.starts) else len(self.text)
        return start + col if start + col <= end else None

    def position(self, offset: int) -> Location:
        """(line, character column) of an index into the text (clamped to the text)."""
        offset = min(max(offset, 0), len(self.text))
        lineno = bisect_right(self.starts, offset)
        return Location(lineno, offset - self.starts[lineno - 1])


def diagnostics_in_characters(source: str, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics whose positions (and their fixes' edits) count UTF-8 bytes, as ``ast`` and the
    rules do, converted to character columns. The engine calls this once per file; nothing after
    it sees a byte column."""
    diagnostics = list(diagnostics)
    if source.isascii() or not diagnostics:
        return diagnostics
    table = LineTable(source)

    def convert(loc: Location) -> Location:
        return table.char_location(loc.line, loc.col)

    out = []
    for d in diagnostics:
        fix = d.fix
        if fix is not None and fix.edits:
            edits = tuple(Edit(convert(e.start), convert(e.end), e.content) for e in fix.edits)
            fix = dataclasses.replace(fix, edits=edits)
        out.append(dataclasses.replace(d, start=convert(d.start), end=convert(d.end), fix=fix))
    return out
