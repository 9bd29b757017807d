"""``path:line:col: CODE message`` lines and a summary; rich markup when ``color`` is on.

Columns are shown 1-based (the diagnostics hold 0-based ones, like ``ast``). ``[*]`` marks a
finding whose fix ``--fix`` would apply (or ``--fix --unsafe-fixes`` when that flag is given).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from xlacheck.api import FileFix
from xlacheck.diagnostics import Diagnostic, FileError, RunResult, SetAsideReason
from xlacheck.fixes import is_applicable
from xlacheck.reporters import ReportOptions


def _one_line(text: str) -> str:
    """One finding, one line: grep and editors' error parsers depend on it."""
    return " ".join(text.split())


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}{'es' if word.endswith(('x', 's', 'sh', 'ch')) else 's'}"


class _Style:
    def __init__(self, color: bool) -> None:
        self.color = color
        if color:
            from rich.markup import escape

            self._escape = escape

    def __call__(self, text: str, style: str | None = None) -> str:
        if not self.color:
            return text
        escaped = self._escape(text)
        return f"[{style}]{escaped}[/{style}]" if style else escaped


def _cell(cell: int | None) -> str:
    """ruff's notebook positions: ``nb.ipynb:cell 3:2:5``."""
    return "" if cell is None else f"cell {cell}:"


def diagnostic_line(d: Diagnostic, options: ReportOptions, s: _Style) -> str:
    fixable = s("[*] ", "cyan") if is_applicable(d, unsafe=options.unsafe_fixes) else ""
    where = s(d.path, "bold") + s(":") + f"{_cell(d.cell)}{d.start.line}:{d.start.col + 1}:"
    return f"{where} {s(d.code, 'bold red')} {fixable}{s(_one_line(d.message))}"


def error_line(e: FileError, s: _Style) -> str:
    where = f"{s(e.path, 'bold')}:{_cell(e.cell)}{e.line}:{e.col + 1}"
    return f"{where}: {s('error:', 'bold red')} {s(_one_line(e.message))}"


def render(result: RunResult, options: ReportOptions, fixes: Sequence[FileFix] = ()) -> str:
    s = _Style(options.color)
    out: list[str] = []
    for file in result.files:
        if file.error is not None:
            out.append(error_line(file.error, s))
        for e in file.incomplete:
            out.append(error_line(e, s))
        for d in file.diagnostics:
            out.append(diagnostic_line(d, options, s))
            if options.show_fixes and d.fix is not None:
                out.append(s(f"    fix ({d.fix.applicability.value}): {d.fix.message}", "dim"))
        if options.show_set_aside:
            for a in file.set_aside:  # never fixed: no [*]
                out.append(diagnostic_line(a.diagnostic, options, s))
                out.append(s(f"    set aside ({a.reason.value}): {_one_line(a.why)}", "dim"))
    for fix in fixes:
        if fix.error is not None:
            out.append(f"{s(fix.path, 'bold')}: {s('fix not applied:', 'bold yellow')} {s(fix.error)}")
    if options.quiet:
        return "".join(line + "\n" for line in out)

    fixed = [f for f in fixes if f.error is None and f.fixed]
    if options.show_fixes and fixed:
        total = _plural(sum(len(f.fixed) for f in fixed), "finding")
        out.append(s(f"{'Fixed' if options.fixing else 'Would fix'} {total}:", "bold"))
        for f in fixed:
            out.append(f"- {s(f.path, 'bold')}:")
            for (code, name), count in sorted(Counter((d.code, d.name) for d in f.fixed).items()):
                out.append(f"    {count} × {s(code, 'red')} ({s(name)})")
    out.extend(summary(result, options, fixes, s))
    return "".join(line + "\n" for line in out)


def summary(result: RunResult, options: ReportOptions, fixes: Sequence[FileFix], s: _Style) -> list[str]:
    diagnostics = result.diagnostics
    errors = result.errors
    unchecked = [f for f in result.files if f.error is not None]
    partial = [f for f in result.files if f.error is None and f.incomplete]
    n_fixed = sum(len(f.fixed) for f in fixes if f.error is None)
    lines: list[str] = []
    if not diagnostics and not errors and not n_fixed:
        lines.append(s("All checks passed!", "bold green"))
    elif diagnostics or n_fixed:
        files = len({d.path for d in diagnostics} | {f.path for f in fixes if f.fixed})
        text = f"Found {_plural(len(diagnostics) + n_fixed, 'finding')} in {_plural(files, 'file')}"
        if options.fixing:
            text += f" ({n_fixed} fixed, {len(diagnostics)} remaining)"
        lines.append(s(text + ".", "bold"))
    if unchecked:
        lines.append(s(f"{_plural(len(unchecked), 'file')} could not be checked (see the error lines above).",
                       "bold red"))
    if partial:
        parts = sum(len(f.incomplete) for f in partial)
        lines.append(s(f"{_plural(len(partial), 'file')} checked only in part: {_plural(parts, 'function')} "
                       "not analyzed (see the error lines above).", "bold red"))
    # Findings in files whose fixes could not be applied are not "fixable" by rerunning --fix.
    failed = {f.path for f in fixes if f.error is not None}
    if failed:
        lines.append(s(f"{_plural(len(failed), 'file')} could not be fixed (see `fix not applied` above).",
                       "bold yellow"))
    fixable = [d for d in diagnostics if d.path not in failed]
    safe = sum(is_applicable(d, unsafe=False) for d in fixable)
    unsafe_only = sum(is_applicable(d, unsafe=True) for d in fixable) - safe
    if options.unsafe_fixes:
        safe, unsafe_only = safe + unsafe_only, 0
        flag = "`--fix --unsafe-fixes`"
    else:
        flag = "`--fix`"
    if safe:
        hint = f"[*] {safe} fixable with the {flag} option"
        if unsafe_only:
            hint += f" ({_plural(unsafe_only, 'hidden fix')} can be enabled with the `--unsafe-fixes` option)"
        lines.append(s(hint + ".", "cyan"))
    elif unsafe_only:
        hidden = _plural(unsafe_only, "hidden fix")
        lines.append(s(f"No fixes available ({hidden} can be enabled with the `--unsafe-fixes` option).", "cyan"))
    lines.extend(set_aside_summary(result, options, s))
    return lines


_REASON_WORDS = {SetAsideReason.UNREACHED_MODULE: "unreached module", SetAsideReason.ONCE_PER_RUN: "once per run",
                 SetAsideReason.NO_COMPILED_ENTRY: "no compiled entry", SetAsideReason.UNUSED_CLASS: "unused class"}


def set_aside_line(result: RunResult, tail: str) -> str | None:
    """How many findings project facts set aside, per fact, then ``tail`` (how to list them); None: none."""
    aside = result.set_aside
    if not aside:
        return None
    counts = Counter(a.reason for a in aside)
    parts = ", ".join(f"{counts[r]} {_REASON_WORDS.get(r, r.value)}" for r in SetAsideReason if counts[r])
    return f"{_plural(len(aside), 'finding')} set aside by project facts ({parts}); {tail}."


def set_aside_summary(result: RunResult, options: ReportOptions, s: _Style) -> list[str]:
    """One line when project facts set findings aside: how many, per fact, and how to list them."""
    line = set_aside_line(result, "listed above" if options.show_set_aside else "use --show-set-aside to list them")
    return [] if line is None else [s(line, "dim")]

