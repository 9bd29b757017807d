"""Bigger realistic fixtures: the expected findings are trailing `# error: XLA201` comments."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xlacheck.engine import check_source

FILES = sorted((Path(__file__).parent / "eval_files").glob("*.py"))
EXPECT = re.compile(r"#\s*error:\s*([A-Z0-9, ]+)")


def expected(source: str) -> set[tuple[int, str]]:
    out = set()
    for lineno, line in enumerate(source.splitlines(), 1):
        m = EXPECT.search(line)
        if m:
            out.update((lineno, code.strip()) for code in m.group(1).split(",") if code.strip())
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_eval_file(path: Path) -> None:
    source = path.read_text()
    result = check_source(source, str(path))
    assert result.error is None, result.error
    found = {(d.line, d.code) for d in result.diagnostics}
    assert found == expected(source), {"missing": expected(source) - found, "unexpected": found - expected(source)}


def test_fixtures_exist() -> None:
    assert len(FILES) >= 5
