"""Bigger realistic fixtures: the expected findings are trailing `# error: XLA201` comments; a
`# preview: XLA207` comment is a finding that only ``--preview`` reports (a rule or an evidence
level below 90% true findings on real code), and must be absent without it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xlacheck.engine import check_source

FILES = sorted((Path(__file__).parent / "eval_files").glob("*.py"))
EXPECT = re.compile(r"#\s*error:\s*([A-Z0-9, ]+)")
EXPECT_PREVIEW = re.compile(r"#\s*preview:\s*([A-Z0-9, ]+)")


def expected(source: str, preview: bool = False) -> set[tuple[int, str]]:
    out = set()
    for lineno, line in enumerate(source.splitlines(), 1):
        for pattern in (EXPECT, EXPECT_PREVIEW) if preview else (EXPECT,):
            m = pattern.search(line)
            if m:
                out.update((lineno, code.strip()) for code in m.group(1).split(",") if code.strip())
    return out


@pytest.mark.parametrize("preview", [False, True], ids=["default", "preview"])
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_eval_file(path: Path, preview: bool) -> None:
    source = path.read_text()
    # the fixtures stand for project code, not for tests: lint them under their own name, as a
    # project's model or training file (engine.is_test_file would read tests/... as a test)
    result = check_source(source, path.name, preview=preview)
    assert result.error is None, result.error
    found = {(d.line, d.code) for d in result.diagnostics}
    want = expected(source, preview)
    assert found == want, {"missing": want - found, "unexpected": found - want}


def test_fixtures_exist() -> None:
    assert len(FILES) >= 5
