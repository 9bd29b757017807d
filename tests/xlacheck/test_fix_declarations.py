"""Each rule declares its fix next to it (``Rule.fix``); attach_fixes tries only what it declares."""

from __future__ import annotations

import ast

import pytest

from xlacheck import rewrites
from xlacheck.diagnostics import Diagnostic, Location
from xlacheck.rules import ALL_RULES
from xlacheck.rules.base import INLINE, Rule


def test_every_rule_declares_its_fix_in_its_own_class() -> None:
    names = {r.name for r in rewrites.rewriters()}
    for rule in ALL_RULES:
        assert "fix" in vars(rule), f"{rule.code}: declare `fix = ...` (None for no fix) on the class"
        if rule.fix not in (None, INLINE):
            assert rule.fix and set(rule.fix) <= names, f"{rule.code}: {rule.fix} names no rewriter"


def test_every_rewriter_is_declared_by_some_rule() -> None:
    declared = {name for rule in ALL_RULES if rule.fix not in (None, INLINE) for name in rule.fix}
    assert declared == {r.name for r in rewrites.rewriters()}


def test_rules_that_build_their_fix_get_no_rewriter_and_undeclared_codes_get_all() -> None:
    inline = [rule.code for rule in ALL_RULES if rule.fix == INLINE]
    assert sorted(inline) == ["XLA250", "XLA350", "XLA401", "XLA403", "XLA501", "XLA553", "XLA554"]
    for code in inline:
        assert rewrites.rewriters_for(code) == ()
    assert rewrites.rewriters_for("XLA000") == rewrites.rewriters()  # a finding made by hand (tests)


def test_a_finding_gets_only_the_rewrites_its_rule_declares() -> None:
    source = "import tensorflow as tf\n\n\ndef f(x):\n    assert tf.reduce_all(x > 0)\n    return x\n"
    node = ast.parse(source).body[1].body[0]  # type: ignore[attr-defined]
    at = Location(node.lineno, node.col_offset), Location(node.end_lineno, node.end_col_offset)

    def finding(code: str) -> Diagnostic:
        return Diagnostic("f.py", code, "n", "m", *at)

    (asserted,) = rewrites.attach_fixes(source, ast.parse(source), [finding("XLA102")])
    assert asserted.fix is not None and "tf.debugging.Assert" in asserted.fix.edits[0].content
    (no_fix,) = rewrites.attach_fixes(source, ast.parse(source), [finding("XLA110")])  # declares None
    assert no_fix.fix is None


def test_a_declaration_naming_no_rewriter_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    class Typo(Rule):
        code = "XLA997"
        name = "typo"
        fix = ("rewrite_iff",)

    monkeypatch.setattr("xlacheck.rules.ALL_RULES", (*ALL_RULES, Typo))
    rewrites._declared.cache_clear()
    try:
        with pytest.raises(ValueError, match="XLA997: fix names no rewriter"):
            rewrites.rewriters_for("XLA101")
    finally:
        rewrites._declared.cache_clear()


def test_rewriters_register_themselves_and_a_name_is_taken_once() -> None:
    from xlacheck.rewrites import _fix

    by_name = {r.name: r for r in rewrites.rewriters()}
    assert by_name["rewrite_list_index"].pointed and not by_name["rewrite_if"].pointed
    assert by_name["rewrite_if"].kinds == (ast.If,)

    def rewrite_if(src: object, node: ast.AST) -> None:  # another function under a taken name
        return None

    with pytest.raises(ValueError, match="two rewriters are named rewrite_if"):
        _fix.rewriter(ast.If)(rewrite_if)  # type: ignore[arg-type]
    assert _fix.registered()["rewrite_if"].rewrite is by_name["rewrite_if"].rewrite


def test_a_rule_tries_its_rewriters_in_the_order_it_names_them() -> None:
    assert [r.name for r in rewrites.rewriters_for("XLA101")] == ["rewrite_if", "rewrite_ternary", "rewrite_while",
                                                               "rewrite_jax_cond", "rewrite_jax_loop",
                                                               "rewrite_jax_check", "rewrite_jax_static_condition"]
