"""``--statistics``: findings counted per rule, most frequent first (text or JSON)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass

from xlacheck.diagnostics import RunResult
from xlacheck.fixes import is_applicable


@dataclass(frozen=True)
class CodeCount:
    code: str
    name: str
    count: int
    fixable: int  # how many of them --fix (with --unsafe-fixes when given) would fix


def count(result: RunResult, *, unsafe_fixes: bool = False) -> tuple[CodeCount, ...]:
    totals = Counter((d.code, d.name) for d in result.diagnostics)
    fixable = Counter(d.code for d in result.diagnostics if is_applicable(d, unsafe=unsafe_fixes))
    rows = (CodeCount(code, name, n, fixable[code]) for (code, name), n in totals.items())
    return tuple(sorted(rows, key=lambda r: (-r.count, r.code)))


def render(result: RunResult, fmt: str, *, unsafe_fixes: bool = False) -> str:
    rows = count(result, unsafe_fixes=unsafe_fixes)
    if fmt == "json":
        return json.dumps([asdict(r) for r in rows], indent=2) + "\n"
    if not rows:
        return ""
    width = max(len(str(r.count)) for r in rows)
    # ruff's layout: count, code, [*] when every finding of the code is fixable, name.
    return "".join(
        f"{r.count:>{width}}\t{r.code}\t{'[*] ' if r.fixable == r.count else '    '}{r.name}\n" for r in rows
    )
