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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from xlacheck.diagnostics import Diagnostic, Location, Severity

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
    comments: dict[int, tuple[int, str]] = field(default_factory=dict)  # line -> (column, comment text)

    def suppressing(self, diagnostic: Diagnostic) -> tuple[int, str] | None:
        """(line, selector) of the directive that suppresses ``diagnostic``, or None."""
        line = diagnostic.start.line
        for candidate in sorted({line, self.statement_start.get(line, line)}, reverse=True):
            selectors = self.by_line.get(candidate)
            if not selectors:
                continue
            if "ALL" in selectors:
                return candidate, "ALL"
            for selector in selectors:
                if diagnostic.code.startswith(selector):
                    return candidate, selector
        return None

    def suppresses(self, diagnostic: Diagnostic) -> bool:
        return self.suppressing(diagnostic) is not None


def build_map(source: str) -> SuppressionMap:
    by_line: dict[int, frozenset[str]] = {}
    statement_start: dict[int, int] = {}
    comments: dict[int, tuple[int, str]] = {}
    start: int | None = None
    skip = {tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE, tokenize.ENDMARKER}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                selectors = parse_comment(tok.string)
                if selectors:
                    by_line[tok.start[0]] = selectors
                    comments[tok.start[0]] = (tok.start[1], tok.string)
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
                comments[number] = (text.index("#"), text[text.index("#") :])
    return SuppressionMap(by_line, statement_start, comments)


def filter_suppressed(source: str, diagnostics: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
    diagnostics = tuple(diagnostics)
    if not diagnostics or not _ANY_MARKER.search(source):
        return diagnostics
    suppressions = build_map(source)
    return tuple(d for d in diagnostics if not suppressions.suppresses(d))


# -- checks of the directives themselves (XLA0xx: about xlacheck's own comments) -----------------
@dataclass(frozen=True)
class SuppressionRule:
    """A check of ``# noqa`` / ``# xlacheck: ignore`` comments, run after suppression (not a
    per-node rule of ``xlacheck.rules``: it needs every finding of the file, suppressed or not)."""

    code: str
    name: str
    summary: str
    default: bool  # selected unless the configuration selects otherwise
    doc: str


UNUSED_NOQA = SuppressionRule(
    "XLA001",
    "unused-noqa",
    "A `# noqa: XLA...` or `# xlacheck: ignore` that suppresses nothing (ruff's RUF100).",
    False,
    "Off by default, as ruff's RUF100 is: turn it on with `extend-select = [\"XLA001\"]` (or "
    "`--extend-select XLA001`; `select = [\"ALL\"]` turns it on too). A code counts as unused only "
    "when its rule is selected for the file (a comment for a rule you switched off is left alone). "
    "Bare `# noqa` and codes of other tools (`# noqa: F401`) are never reported: they may serve "
    "another linter. No automatic fix.",
)
UNKNOWN_NOQA_CODE = SuppressionRule(
    "XLA002",
    "unknown-noqa-code",
    "A `# noqa:` or `# xlacheck: ignore[...]` names an XLA code that no rule has (a typo suppresses nothing).",
    True,
    "On by default: a code that starts with `XLA` and matches no rule (nor a family of rules) is "
    "reported at the comment. Codes of other tools (`# noqa: E501`) are never reported. No automatic fix.",
)
SUPPRESSION_RULES: tuple[SuppressionRule, ...] = (UNUSED_NOQA, UNKNOWN_NOQA_CODE)
DEFAULT_OFF: tuple[str, ...] = tuple(r.code for r in SUPPRESSION_RULES if not r.default)


def check_suppressions(
    source: str,
    path: str,
    diagnostics: Iterable[Diagnostic],
    *,
    is_selected: Callable[[str], bool],
    known_codes: Callable[[], frozenset[str]],
    ignored: tuple[str, ...] = (),
    set_aside: Iterable[Diagnostic] = (),
) -> tuple[Diagnostic, ...]:
    """Suppress as :func:`filter_suppressed` does, then add XLA001/XLA002 findings (when selected)
    about the directives. ``ignored``: selectors per-file-ignores turns off for this file.
    ``set_aside``: findings a project fact set aside; a directive that suppresses one is used (the
    fact may not hold tomorrow: another file imports the module), never reported as unused."""
    diagnostics = tuple(diagnostics)
    unused_on = is_selected(UNUSED_NOQA.code) and not _covered(UNUSED_NOQA.code, ignored)
    unknown_on = is_selected(UNKNOWN_NOQA_CODE.code) and not _covered(UNKNOWN_NOQA_CODE.code, ignored)
    if not _ANY_MARKER.search(source):
        return diagnostics
    suppressions = build_map(source)
    used: set[tuple[int, str]] = set()
    kept = []
    for d in diagnostics:
        hit = suppressions.suppressing(d)
        if hit is None:
            kept.append(d)
        else:
            used.add(hit)
    for d in set_aside:
        hit = suppressions.suppressing(d)
        if hit is not None:
            used.add(hit)
    if not (unused_on or unknown_on):
        return tuple(kept)
    extra: list[Diagnostic] = []
    for line, selectors in sorted(suppressions.by_line.items()):
        col, comment = suppressions.comments.get(line, (0, ""))
        end = Location(line, col + len(comment))
        bare_ignore = selectors == ALL_CODES and bool(_IGNORE.search(comment)) and not _NOQA.search(comment)
        ours = sorted(s for s in selectors if s.startswith("XLA"))
        unknown = [s for s in ours if not any(code.startswith(s) for code in known_codes())]
        if unknown_on and unknown:
            extra.append(Diagnostic(
                path, UNKNOWN_NOQA_CODE.code, UNKNOWN_NOQA_CODE.name,
                f"unknown rule code{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} in a suppression "
                "comment: it suppresses nothing; `xlacheck rule --all` lists the codes",
                Location(line, col), end, Severity.WARNING))
        if not unused_on:
            continue
        checked = ["ALL"] if bare_ignore else [s for s in ours if s not in unknown]
        unused = [
            s for s in checked
            if (line, s) not in used and (s == "ALL" or _selects_any(s, is_selected, known_codes(), ignored))
        ]
        if unused:
            what = "`# xlacheck: ignore`" if unused == ["ALL"] else ", ".join(unused)
            extra.append(Diagnostic(
                path, UNUSED_NOQA.code, UNUSED_NOQA.name,
                f"unused suppression ({what}): nothing is reported here; remove it",
                Location(line, col), end, Severity.WARNING))
    return tuple(sorted((*kept, *extra), key=lambda d: (d.start.line, d.start.col, d.code)))


def _covered(code: str, selectors: tuple[str, ...]) -> bool:
    return any(s == "ALL" or code.startswith(s) for s in selectors)


def _selects_any(selector: str, is_selected: Callable[[str], bool], codes: frozenset[str], ignored: tuple[str, ...]) -> bool:
    return any(code.startswith(selector) and is_selected(code) and not _covered(code, ignored) for code in codes)
