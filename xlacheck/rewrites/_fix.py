"""Building a :class:`Fix` from text edits, and checking that the edits are valid code."""

from __future__ import annotations

import ast
import dataclasses
import re
import textwrap
from collections.abc import Callable, Sequence

from xlacheck.diagnostics import Applicability, Edit, Fix, Location
from xlacheck.positions import LineTable
from xlacheck.rewrites._source import Source

RewriteFn = Callable[[Source, ast.AST], "Fix | None"]


@dataclasses.dataclass(frozen=True)
class Rewriter:
    """One rewriter: the node kinds it starts from, and whether it is tried only on the node a
    finding points at and its ancestors (``pointed``), never on nodes found inside it (an
    iterated name, or a subscript's index, is a tensor only if the finding says so)."""

    name: str
    kinds: tuple[type, ...]
    rewrite: RewriteFn
    pointed: bool = False


_REGISTERED: dict[str, Rewriter] = {}


def rewriter(*kinds: type, pointed: bool = False) -> Callable[[RewriteFn], RewriteFn]:
    """Register the decorated function as the rewriter of its name, tried on nodes of ``kinds``:
    a rule names it in its ``fix`` declaration, and nothing else has to list it."""

    def register(fn: RewriteFn) -> RewriteFn:
        name = fn.__name__  # type: ignore[attr-defined]
        if name in _REGISTERED and _REGISTERED[name].rewrite is not fn:
            raise ValueError(f"two rewriters are named {name}")
        _REGISTERED[name] = Rewriter(name, kinds, fn, pointed)
        return fn

    return register


def registered() -> dict[str, Rewriter]:
    """Every rewriter registered so far, by name (import the rewriter modules first)."""
    return dict(_REGISTERED)


def replace(src: Source, node: ast.AST, content: str) -> Edit:
    return Edit(src.start(node), src.end(node), content)


def replace_lines(first: int, last: int, content: str) -> Edit:
    """Replace whole lines first..last (content ends with a newline unless it is empty)."""
    return Edit(Location(first, 0), Location(last + 1, 0), content)


def _merge_touching(edits: Sequence[Edit]) -> tuple[Edit, ...]:
    """One edit for edits that touch (a deleted line followed by an insertion there): appliers
    reject touching edits as ambiguous."""
    merged: list[Edit] = []
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if merged and merged[-1].end == edit.start:
            last = merged.pop()
            edit = Edit(last.start, edit.end, last.content + edit.content)
        merged.append(edit)
    return tuple(merged)


def make_fix(message: str, edits: Sequence[Edit], unsafe: Sequence[str] = ()) -> Fix:
    """SAFE when no reason against equivalence was found; otherwise UNSAFE, saying why."""
    edits = _merge_touching(edits)
    reasons = list(dict.fromkeys(unsafe))
    if reasons:
        return Fix(f"{message} (unsafe: {'; '.join(reasons)})", tuple(edits), Applicability.UNSAFE)
    return Fix(message, tuple(edits), Applicability.SAFE)


def explain(message: str) -> Fix:
    """No equivalent rewrite exists: say why and what to do; nothing is ever applied."""
    return Fix(message, (), Applicability.DISPLAY_ONLY)


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """The text with non-overlapping edits applied (positions as in :mod:`xlacheck.fixes`)."""
    table = LineTable(text)

    def offset(loc: Location) -> int:
        found = table.offset(loc.line, loc.col)
        if found is None:
            raise ValueError(f"edit position {loc.line}:{loc.col} is outside the text")
        return found

    out, cursor = [], 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        start, end = offset(edit.start), offset(edit.end)
        out += [text[cursor:start], edit.content]
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


# Leading whitespace up to a line's last form feed, which resets the tokenizer's column: Python
# ignores it, textwrap.dedent does not.
_PAGE_BREAK = re.compile(r"^[ \t\f]*\f", re.MULTILINE)


def parses(fix: Fix) -> bool:
    """Each edit is valid code on its own: whole replaced lines parse as statements, and an
    in-line replacement parses as an expression (``ast.parse(..., mode="eval")``: Python's own
    grammar, already loaded; importing libcst for this check cost ~0.3 s, a tenth of a cold lint
    of transformers' TF models). Checking edits, not the whole file, keeps this cheap on long
    files; the fix applier re-parses the file it writes anyway."""
    try:
        for edit in fix.edits:
            if edit.start.col == 0 and edit.end.col == 0:
                # lines copied from a CR or CRLF file keep their ends: dedent splits on \n only
                text = edit.content.replace("\r\n", "\n").replace("\r", "\n")
                ast.parse(textwrap.dedent(_PAGE_BREAK.sub("", text)))
            else:
                _parse_expression(edit.content)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _parse_expression(content: str) -> None:
    """Raise SyntaxError unless ``content`` is one expression; a starred one (``*xs``, an argument
    or element the rewrite replaces) counts, as it did with libcst's ``parse_expression``."""
    if "\n" in content:
        content = f"({content})"
    elif content.startswith("*") and not content.startswith("**"):
        content = f"[{content}]"
    ast.parse(content, mode="eval")


def replace_block(src: Source, first: ast.stmt, last: ast.stmt, lines: list[str]) -> list:
    indent = src.indent_of(first)
    comments = [f"{indent}{c}\n" for c in src.comments_in(first.lineno, last.end_lineno or first.lineno)]
    return [replace_lines(first.lineno, last.end_lineno or first.lineno, src.page_break_of(first)
                          + "".join(comments) + "".join(f"{indent}{line}\n" for line in lines))]
