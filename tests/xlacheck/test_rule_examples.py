"""Every rule's own VALID/INVALID examples, one parametrized test (ids like ``XLA101-invalid-2``)."""

from __future__ import annotations

import re

import pytest

from xlacheck.engine import check_source
from xlacheck.rules import ALL_RULES
from xlacheck.rules.base import Example, Rule
from xlacheck.rules.module_base import ModuleRule

SECTIONS = ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety")


def _cases() -> list:
    out = []
    for rule in ALL_RULES:
        for kind, examples in (("valid", rule.VALID), ("invalid", rule.INVALID)):
            for i, example in enumerate(examples, 1):
                out.append(pytest.param(rule, kind, example, id=f"{rule.code}-{kind}-{i}"))
    return out


@pytest.mark.parametrize(("rule", "kind", "example"), _cases())
def test_rule_example(rule: type[Rule], kind: str, example: Example) -> None:
    result = check_source(example.code, f"{rule.code}_{kind}.py")
    assert result.error is None, result.error
    codes = [d.code for d in result.diagnostics]
    if kind == "invalid":
        assert rule.code in codes, f"{rule.code} not reported; got {codes}"
    else:
        assert rule.code not in codes, [d.message for d in result.diagnostics if d.code == rule.code]


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_rule_contract(rule: type[Rule]) -> None:
    assert re.fullmatch(r"XLA[1-5]\d\d", rule.code)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", rule.name)
    doc = rule.__doc__ or ""
    positions = [doc.find(s) for s in SECTIONS]
    assert all(p >= 0 for p in positions), f"missing sections in {rule.code}"
    assert positions == sorted(positions), f"sections out of order in {rule.code}"
    assert rule.VALID and rule.INVALID
    assert rule.node_types or issubclass(rule, ModuleRule)  # dispatched per node, or run once per file


def test_codes_and_names_are_unique() -> None:
    assert len({r.code for r in ALL_RULES}) == len(ALL_RULES)
    assert len({r.name for r in ALL_RULES}) == len(ALL_RULES)


def _offered(rule: type[Rule]) -> set[str]:
    """Applicabilities of the fixes attached to this rule's findings on its INVALID examples."""
    import ast

    from xlacheck.rewrites import attach_fixes

    offered = set()
    for example in rule.INVALID:
        result = check_source(example.code, f"{rule.code}_invalid.py")
        for diagnostic in attach_fixes(example.code, ast.parse(example.code), result.diagnostics):
            if diagnostic.code == rule.code and diagnostic.fix is not None:
                offered.add(diagnostic.fix.applicability.value)
    return offered - {"display-only"}


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_fix_safety_section_matches_the_fixes_offered(rule: type[Rule]) -> None:
    """The generated docs must not say "No automatic fix" for a rule whose findings get one, nor
    describe a fix that is never offered; and they name every applicability offered."""
    section = (rule.__doc__ or "").split("## Fix safety", 1)[1].split("## ", 1)[0]
    offered = _offered(rule)
    if not offered:
        assert section.strip().startswith("No automatic fix"), section
        return
    assert not section.strip().startswith("No automatic fix"), (offered, section)
    for applicability in offered:
        assert re.search(rf"\b{applicability}\b", section, re.IGNORECASE), (applicability, section)
