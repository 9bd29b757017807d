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
    result = check_source(example.code, f"{rule.code}_{kind}.py", preview=rule.preview or example.preview,
                          torch_xla=example.torch_xla,
                          jit_compiled=example.jit_compiled,
                          target_python=example.target_python)
    assert result.error is None, result.error
    codes = [d.code for d in result.diagnostics]
    if kind == "invalid":
        assert rule.code in codes, f"{rule.code} not reported; got {codes}"
        found = tuple((d.start.line, d.start.col + 1, d.message) for d in result.diagnostics if d.code == rule.code)
        if example.expected is None:
            pytest.fail(
                f"{rule.code}: an INVALID example without pins. Review these findings and, if each is right, "
                f"add them to the Example as expected=((line, column, message), ...), 1-based as reporters "
                f"show them:\n    expected={found!r}"
            )
        assert found == example.expected, f"{rule.code} findings (line, column, message) differ from the pins"
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
        result = check_source(example.code, f"{rule.code}_invalid.py", preview=rule.preview or example.preview,
                              torch_xla=example.torch_xla, jit_compiled=example.jit_compiled,
                              target_python=example.target_python)
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


def test_an_invalid_example_without_pins_fails_and_says_how_to_pin_it() -> None:
    rule = next(r for r in ALL_RULES if r.code == "XLA309")
    unpinned = Example(rule.INVALID[0].code)
    with pytest.raises(pytest.fail.Exception, match=r"expected=\(\(4, 12, .tf\.linalg\.det uses ops"):
        test_rule_example(rule, "invalid", unpinned)


def test_a_wrong_pin_fails() -> None:
    rule = next(r for r in ALL_RULES if r.code == "XLA309")
    (line, column, message), = rule.INVALID[0].expected or ()
    with pytest.raises(AssertionError, match="differ from the pins"):
        test_rule_example(rule, "invalid", Example(rule.INVALID[0].code, expected=((line, column + 1, message),)))


def test_examples_may_be_indented_triple_quoted_strings() -> None:
    example = Example("""
        import tensorflow as tf
        @tf.function(jit_compile=True)
        def f(k):
            return tf.linalg.det(k)
        """, expected=[(4, 12, "m")])
    assert example.code == ("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(k):\n"
                            "    return tf.linalg.det(k)\n")
    assert example.expected == ((4, 12, "m"),)
    assert example == Example(example.code, expected=((4, 12, "m"),))
