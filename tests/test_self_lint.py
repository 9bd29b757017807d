"""The repository holds itself to its own linter: our packages, benchmarks, tools and tests are clean
(the fixtures that exist to hold hazards are excluded in pyproject.toml).

Deliberate exceptions carry an inline `# xlacheck: ignore[CODE]` with the reason beside them.
"""

from __future__ import annotations

from pathlib import Path

from xlacheck.api import check_paths

ROOT = Path(__file__).resolve().parents[1]


def test_repository_lints_clean() -> None:
    result = check_paths([ROOT / name for name in ("xlacheck", "bucketing", "reference_trainer", "benchmarks", "tools", "tests")])
    assert not result.errors, result.errors
    assert [f"{d.path}:{d.line}: {d.code}" for d in result.diagnostics] == []
    assert sum(1 for f in result.files if not f.skipped) >= 10  # the run really looked at our TF code
