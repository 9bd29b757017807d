"""Turn a run's results into text for people (optionally rich-coloured), JSON, SARIF or GitHub annotations.

Each reporter is a pure function returning a string, so the formats are pinned by snapshot tests;
the CLI decides where the string goes and whether the terminal gets colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xlacheck.api import FileFix
from xlacheck.diagnostics import RunResult

FORMATS: tuple[str, ...] = ("text", "json", "sarif", "github")


@dataclass(frozen=True)
class ReportOptions:
    unsafe_fixes: bool = False  # unsafe fixes count as applicable (marked [*])
    show_fixes: bool = False  # text: show each finding's fix, and what --fix changed
    quiet: bool = False  # text: findings only, no summary
    color: bool = False  # text: rich markup (the CLI prints it through a rich Console)
    fixing: bool = False  # the run applied fixes (--fix): the summary says how many
    show_set_aside: bool = False  # text: list the findings project facts set aside, each with its reason


def render(
    fmt: str, result: RunResult, options: ReportOptions = ReportOptions(), fixes: Sequence[FileFix] = ()
) -> str:
    if fmt == "text":
        from xlacheck.reporters import text

        return text.render(result, options, fixes)
    if fmt == "json":
        from xlacheck.reporters import json

        return json.render(result)
    if fmt == "sarif":
        from xlacheck.reporters import sarif

        return sarif.render(result)
    if fmt == "github":
        from xlacheck.reporters import github

        return github.render(result)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
