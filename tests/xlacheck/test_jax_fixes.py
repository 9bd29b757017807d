"""XLA101's jax.lax.cond fix (xlacheck/rewrites/jax_conditions.py) on JAX code: the fixed code
compiles under jax.jit and gives the values and gradients the original gives without jit, on
drawn inputs with NaN, inf and zeros among them; TensorFlow code never gets it."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from xlacheck.diagnostics import Applicability
from xlacheck.rewrites import attach_fixes
from xlacheck.rewrites._fix import apply_edits

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from test_rewrites import diagnostic_at  # noqa: E402

HEADER = "import jax\nimport jax.numpy as jnp\n\n\n"
CASES = {
    "assigned_without_else": (
        "def clip_norm(x):\n    n = jnp.linalg.norm(x)\n    if n > 1.0:\n        x = x / n\n    return x\n",
        "    x = jax.lax.cond(n > 1.0, lambda: x / n, lambda: x)\n"),
    "assigned_in_both_branches": (
        "def soft(x):\n    if jnp.sum(x) > 0:\n        y = jnp.log1p(jnp.abs(x))\n    else:\n        y = x * 2.0\n"
        "    return jnp.sum(y)\n",
        "    y = jax.lax.cond(jnp.sum(x) > 0, lambda: jnp.log1p(jnp.abs(x)), lambda: x * 2.0)\n"),
    "augmented_assignment": (
        "def bump(x):\n    if jnp.max(x) > 1.0:\n        x += 1.0\n    return x\n",
        "    x = jax.lax.cond(jnp.max(x) > 1.0, lambda: x + (1.0), lambda: x)\n"),
    "conditional_expression": (
        "def tern(x):\n    return jnp.sqrt(jnp.abs(x)) if jnp.sum(x) > 0 else x - 1.0\n",
        "jax.lax.cond(jnp.sum(x) > 0, lambda: jnp.sqrt(jnp.abs(x)), lambda: x - 1.0)"),
    "early_return": (
        "def early(x):\n    if jnp.all(jnp.isfinite(x)):\n        return jnp.sum(x * x)\n    return jnp.float32(0.0)\n",
        "    return jax.lax.cond(jax.numpy.asarray(jnp.all(jnp.isfinite(x))) != 0, lambda: jnp.sum(x * x), "
        "lambda: jnp.float32(0.0))\n"),
    "early_return_before_the_rest": (
        "def scaled(x, rate):\n    if jnp.sum(rate) == 0.0:\n        return x\n    x = x / (1.0 - jnp.sum(rate))\n"
        "    y = jnp.tanh(x)\n    return x + y\n",
        "    def otherwise(x):\n        x = x / (1.0 - jnp.sum(rate))\n        y = jnp.tanh(x)\n        return x + y\n"
        "    return jax.lax.cond(jnp.sum(rate) == 0.0, lambda: x, lambda: otherwise(x))\n"),
    # the forms tools/generate_fix_forms.py writes: branches of several statements or names, `not`
    "statements_reading_each_other": (
        "def dep(x):\n    if jnp.sum(x) > 0:\n        h = x * 2.0\n        y = h + 1.0\n    else:\n"
        "        y = x - 1.0\n    return y\n",
        "    y = jax.lax.cond(jnp.sum(x) > 0, lambda: true_branch(), lambda: false_branch())\n"),
    "two_names_without_else": (
        "def two(x):\n    a = x * 1.0\n    b = x + 0.0\n    if jnp.max(x) > 1.0:\n        a = a * 0.5\n"
        "        b = b - a\n    return a + b\n",
        "    a, b = jax.lax.cond(jnp.max(x) > 1.0, lambda: true_branch(a, b), lambda: (a, b))\n"),
    "bool_of_a_reduction": (
        "def scaled(x):\n    s = 2.0 if bool(jnp.all(x > -1.0)) else 1.0\n    return x * s\n",
        "jax.lax.cond(jax.numpy.asarray(jnp.all(x > -1.0)) != 0, lambda: 2.0, lambda: 1.0)"),
    "one_differing_value_in_the_same_call": (
        "def app(x):\n    out = []\n    if jnp.sum(x) > 0:\n        out.append(x * 2.0)\n    else:\n"
        "        out.append(-x)\n    return jnp.stack(out)\n",
        "    out.append(jax.lax.cond(jnp.sum(x) > 0, lambda: x * 2.0, lambda: -x))\n"),
    "negated_reduction": (
        "def neg(x):\n    if not jnp.all(x > 0.0):\n        y = jnp.abs(x)\n    else:\n        y = x\n    return y\n",
        "    y = jax.lax.cond(jax.numpy.logical_not(jax.numpy.asarray(jnp.all(x > 0.0)) != 0), lambda: jnp.abs(x), "
        "lambda: x)\n"),
    # fixes33: a later operand of `and` calls array methods (the JAX table's array_methods), computed as jnp's
    "and_of_array_methods": (
        "def both(x):\n    if x.sum() > 0 and x.max() < 2.0:\n        return x * 2.0\n    return -x\n",
        "    return jax.lax.cond(jax.numpy.logical_and(x.sum() > 0, x.max() < 2.0), lambda: x * 2.0, lambda: -x)\n"),
}


def fixed_source(source: str):
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, (ast.If, ast.IfExp)))
    diagnostic = diagnostic_at(node.test, "XLA101")
    (result,) = attach_fixes(source, tree, [diagnostic])
    return result.fix


def load(name: str, source: str, tmp: Path):
    path = tmp / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return [v for k, v in vars(module).items() if callable(v) and getattr(v, "__module__", None) == name][-1]


def original_and_compiled_fix(name: str, source: str, fix, expected: str, reason: str, tmp: Path):
    """The original function and the jitted fixed one, after checking that the fix is unsafe,
    says ``reason`` and writes ``expected``."""
    assert fix is not None and fix.applicability is Applicability.UNSAFE and reason in fix.message
    fixed = apply_edits(source, fix.edits)
    assert expected in fixed
    return load(f"orig_{name}", source, tmp), jax.jit(load(f"fixed_{name}", fixed, tmp))


VALUES = st.floats(-3, 3, width=32, allow_subnormal=False) | st.sampled_from([0.0, np.nan, np.inf, -np.inf])


@pytest.mark.parametrize("name", sorted(CASES))
def test_jax_cond_fix_text_is_unsafe_and_says_why(name):
    source, expected = CASES[name]
    fix = fixed_source(HEADER + source)
    assert fix is not None and fix.applicability is Applicability.UNSAFE
    assert "traces both branches" in fix.message
    assert expected in apply_edits(HEADER + source, fix.edits)


@pytest.mark.parametrize("name", sorted(CASES))
def test_jax_cond_fix_compiles_and_matches_the_original(name, tmp_path):
    source = HEADER + CASES[name][0]
    fixed = apply_edits(source, fixed_source(source).edits)
    two_args = name == "early_return_before_the_rest"
    original, rewritten = load(f"orig_{name}", source, tmp_path), load(f"fixed_{name}", fixed, tmp_path)
    compiled = jax.jit(rewritten)
    # gradients match where the branches read only the inputs: clip_norm's branch reads the norm,
    # whose derivative at 0 is NaN, and the untaken branch's zero cotangent times NaN is NaN (the
    # fix's message says so)
    grad_of = (lambda f: jax.grad(lambda x: jnp.sum(f(x)))) if name not in ("early_return",
                                                                          "assigned_without_else") else None

    @settings(max_examples=40, deadline=None)
    @given(st.lists(VALUES, min_size=3, max_size=3), st.sampled_from([0.0, 0.5, -1.0]))
    def check(values, rate):
        x = jnp.asarray(values, dtype=jnp.float32)
        args = (x, jnp.asarray([rate, 0.0], dtype=jnp.float32)) if two_args else (x,)
        with jax.disable_jit():
            expected = original(*args)
        np.testing.assert_allclose(np.asarray(compiled(*args)), np.asarray(expected), rtol=1e-6, equal_nan=True)
        if two_args:
            return
        if grad_of is not None:
            with jax.disable_jit():
                g_expected = grad_of(original)(x)
            np.testing.assert_allclose(np.asarray(jax.jit(grad_of(rewritten))(x)), np.asarray(g_expected),
                                       rtol=1e-6, equal_nan=True)

    check()


def test_tensorflow_code_does_not_get_the_jax_fix():
    source = ("import tensorflow as tf\nimport jax\n\n\n@tf.function(jit_compile=True, autograph=False)\n"
              "def f(x):\n    return tf.reduce_sum(x) if tf.reduce_sum(x) > 0 else x\n")
    fix = fixed_source(source)
    assert fix is None or "jax" not in "".join(e.content for e in fix.edits)


def test_an_elif_is_rewritten_from_its_chain():
    """A finding on the `elif` rewrites the whole chain (the else branch holds the `elif` as a plain
    `if`, rewritten in the next pass), never the `elif` alone after the first arm."""
    source = HEADER + ("def chain(x):\n    s = jnp.sum(x)\n    if s > 1.0:\n        y = x * 2.0\n"
                       "    elif s < -1.0:\n        y = -x\n    else:\n        y = x + 0.5\n    return y\n")
    tree = ast.parse(source)
    elif_ = [n for n in ast.walk(tree) if isinstance(n, ast.If)][1]
    (result,) = attach_fixes(source, tree, [diagnostic_at(elif_.test, "XLA101")])
    fixed = apply_edits(source, result.fix.edits)
    assert "    if s > 1.0:" not in fixed and "        if s < -1.0:\n            y = -x\n" in fixed
    assert "    y = jax.lax.cond(s > 1.0, lambda: true_branch(), lambda: false_branch())\n" in fixed


def test_short_circuit_conditions_evaluate_every_operand_only_through_jax():
    """`and`/`or` of JAX operands: logical_and/logical_or, saying that every operand is evaluated;
    a later operand that calls anything else (side effects or errors Python may skip): no fix."""
    source = HEADER + "def f(x):\n    if jnp.sum(x) > 0 and jnp.max(x) < 5:\n        x = x * 0.5\n    return x\n"
    fix = fixed_source(source)
    assert "evaluates all of them" in fix.message
    assert "jax.lax.cond(jax.numpy.logical_and(jnp.sum(x) > 0, jnp.max(x) < 5), lambda: x * 0.5, lambda: x)" in \
        apply_edits(source, fix.edits)
    source = HEADER + "def f(x):\n    if jnp.sum(x) > 0 and check(x):\n        x = x * 0.5\n    return x\n"
    assert fixed_source(source) is None


LOOPS = {
    "while_loop": (
        "def doubling(x):\n    total = jnp.float32(0.0)\n    while jnp.sum(jnp.abs(x)) < 50.0:\n"
        "        x = x * 2.0 + 0.5\n        total += 1.0\n    return x, total\n",
        "    (x, total) = jax.lax.while_loop(loop_cond, loop_body, (x, total))\n"),
    "fori_loop": (
        "def euler(y, n):\n    dt = 0.1\n    for _ in range(n):\n        y = y + dt * (-0.5 * y)\n    return y\n",
        "    (y,) = jax.lax.fori_loop(0, n, loop_body, (y,))\n"),
    "fori_loop_of_a_tuple_assignment_and_an_if": (  # the body moves as written; an `if` in it is fixed on its own
        "def recur(y, n):\n    a, b = y, y * 0.5\n    dt = 0.1\n    for _ in range(n):\n        a, b = b, a + dt * b\n"
        "        if dt > 0.05:\n            b = b * 0.9\n        else:\n            pass\n    return a + b\n",
        "    (a, b) = jax.lax.fori_loop(0, n, loop_body, (a, b))\n"),
}


def loop_fix(source: str):
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, (ast.While, ast.For)))
    at = node.test if isinstance(node, ast.While) else node.iter
    (result,) = attach_fixes(source, tree, [diagnostic_at(at, "XLA101" if isinstance(node, ast.While) else "XLA302")])
    return result.fix


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_jax_loop_fix_compiles_and_matches_the_original(name, tmp_path):
    source = HEADER + LOOPS[name][0]
    original, compiled = original_and_compiled_fix(name, source, loop_fix(source), LOOPS[name][1], "reverse mode",
                                                   tmp_path)

    @settings(max_examples=30, deadline=None)
    @given(st.lists(st.floats(-3, 3, width=32, allow_subnormal=False) | st.sampled_from([0.0, 1.0]),
                    min_size=3, max_size=3), st.integers(-2, 6))
    def check(values, n):
        x = jnp.asarray(values, dtype=jnp.float32)
        if name == "while_loop" and not float(jnp.sum(jnp.abs(x))) > 0.0:
            x = x + 1.0  # a loop that never ends is outside the claim
        args = (x,) if name == "while_loop" else (x, jnp.asarray(n, dtype=jnp.int32))
        with jax.disable_jit():
            expected_out = original(*args)
        for e, a in zip(jax.tree_util.tree_leaves(expected_out), jax.tree_util.tree_leaves(compiled(*args))):
            np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-5, equal_nan=True)

    check()


def test_a_loop_variable_read_after_the_loop_is_not_rewritten():
    source = HEADER + "def f(y, n):\n    for i in range(n):\n        y = y * 2.0\n    return y + i\n"
    assert loop_fix(source) is None


# XLA207: boolean-mask selections consumed by a reduction or set through .at -> where= / jnp.where.
MASKS = {
    "sum_of_squares_of_a_selection": (
        "def off_modes(b, m):\n    keep = m > 0.5\n    return jnp.sqrt(jnp.sum(b[~keep] ** 2))\n",
        "b[~keep]", "return jnp.sqrt(jnp.sum(b ** 2, where=~keep))\n"),
    "mean_of_a_difference": (
        "def masked_err(b, m):\n    return jnp.mean(b[m > 0.0] - 2.0 * m[m > 0.0])\n",
        "b[m > 0.0]", "return jnp.mean(b - (2.0 * m), where=m > 0.0)\n"),
    "product_method_over_nonzero": (
        "def active_gain(b, m):\n    g = jnp.abs(b) + m\n    return g[jnp.nonzero(g)].prod()\n",
        "jnp.nonzero(g)", "return g.prod(where=g != 0)\n"),
    "mean_of_a_suffix_of_traced_length": (  # `-k` counts from the end; `-0` is the whole array
        "def tail_mean(b, m):\n    k = jnp.sum(m > 0.5)\n    return jnp.mean(b[-k:])\n", "b[-k:]",
        "return jnp.mean(b, where=jax.lax.broadcasted_iota(jnp.int32, b.shape, 0) >= "
        "jnp.where((-k) < 0, (-k) + b.shape[0], (-k)))\n"),
    "negated_selection_assigned_then_summed": (
        "def neg_loss(b, m):\n    nll = -b[m > 0.0] * 2.0\n    return nll.sum()\n", "b[m > 0.0]",
        "return (-(b) * 2.0).sum(where=m > 0.0)\n"),
    "elementwise_of_a_selection_assigned_then_averaged": (
        "def exp_mean(b, m):\n    w = jnp.abs(m)\n    e = jnp.exp(b[w > 0.5])\n    return e.mean()\n", "b[w > 0.5]",
        "    return (jnp.exp(b)).mean(where=w > 0.5)\n"),  # w is bound once, before: the reads take its text
    "at_set_with_a_number": (
        "def masked_scores(b, m):\n    return b.at[m < 0.0].set(-1e6)\n",
        "b.at[m < 0.0]", "return jnp.where(m < 0.0, -1e6, b)\n"),
    "sum_of_a_prefix_of_traced_length": (
        "def prefix(b, m):\n    k = jnp.sum(m > 0.5)\n    return jnp.sum(b[:k] * 2.0)\n", "b[:k]",
        "return jnp.sum(b * 2.0, where=jax.lax.broadcasted_iota(jnp.int32, b.shape, 0) < k)\n"),
    "first_hit_coordinates": (
        "def at_peak(b, m):\n    (hit,) = jnp.nonzero(m >= jnp.max(m))\n    return b[hit[0]] * 2.0\n",
        "jnp.nonzero(m >= jnp.max(m))", "(hit,) = jnp.nonzero(m >= jnp.max(m), size=1)\n"),
    "first_hit_of_an_indexed_coordinate_array": (
        "def at_peak_idx(b, m):\n    hit = jnp.nonzero(m >= jnp.max(m))[0]\n    return b[hit[0]] + b[hit[0]]\n",
        "jnp.nonzero(m >= jnp.max(m))", "hit = jnp.nonzero(m >= jnp.max(m), size=1)[0]\n"),
    "at_set_at_unpacked_coordinates": (
        "def zero_hits(b, m):\n    (hits,) = jnp.nonzero(m > 0.5)\n    out = b.at[hits].set(0.0)\n"
        "    return out * 2.0\n",
        "jnp.nonzero(m > 0.5)", "def zero_hits(b, m):\n    out = jnp.where(m > 0.5, 0.0, b)\n"),
    "selection_assigned_then_reduced": (
        "def pos_energy(b, m):\n    sel = b[m > 0.5]\n    e = jnp.sum(sel * sel)\n    return e + sel.mean()\n",
        "b[m > 0.5]", "    e = jnp.sum(b * b, where=m > 0.5)\n    return e + b.mean(where=m > 0.5)\n"),
    "at_set_at_coordinates_of_an_array_rebound_before_it": (
        "def bump(b, m):\n    (hits,) = jnp.nonzero(b > 0.5)\n    b = b * 3.0 + m\n    b = b.at[hits].set(0.0)\n"
        "    return b * 2.0\n", "jnp.nonzero(b > 0.5)",
        "    hit_mask = b > 0.5\n    b = b * 3.0 + m\n    b = jnp.where(hit_mask, 0.0, b)\n"),
    "at_set_that_rebinds_the_masked_array": (
        "def bump(b, m):\n    (hits,) = jnp.nonzero(b > m)\n    b = b.at[hits].set(0.0)\n    return b * 2.0\n",
        "jnp.nonzero(b > m)", "def bump(b, m):\n    b = jnp.where(b > m, 0.0, b)\n"),
    "selection_of_an_array_rebound_after_it": (  # a loop carry or `x = x * jnp.sum(sel)`
        "def rescale(b, m):\n    sel = b[m > 0.5]\n    b = b * jnp.sum(sel)\n    return b + jnp.mean(sel * 2.0)\n",
        "b[m > 0.5]", "    sel, sel_mask = b, m > 0.5\n    b = b * jnp.sum(sel, where=sel_mask)\n"
        "    return b + jnp.mean(sel * 2.0, where=sel_mask)\n"),
    # XLA207: more consumers of a selection (extremes, spread, truth, products, elementwise functions), slices
    # along another axis, and arrays created at a traced size with a static bound. An empty selection's extreme
    # raises in the original: those draws are left out.
    "at_set_with_a_special_float": (
        "def f(b, m):\n    return b.at[m > 0.5].set(-jnp.inf)\n", "b.at[m > 0.5]",
        "return jnp.where(m > 0.5, -jnp.inf, b)\n"),
    "at_multiply_with_a_number": (
        "def f(b, m):\n    return b.at[m > 0.5].multiply(0.1)\n", "b.at[m > 0.5]",
        "return jnp.where(m > 0.5, b * 0.1, b)\n"),
    "at_max_with_a_reduction": (
        "def f(b, m):\n    return b.at[m > 0.5].max(jnp.mean(m))\n", "b.at[m > 0.5]",
        "return jnp.where(m > 0.5, jnp.maximum(b, jnp.mean(m)), b)\n"),
    "at_set_from_the_same_selection_of_another_array": (
        "def f(b, m):\n    k = m > 0.5\n    return b.at[k].set(m[k])\n", "b.at[k]", "return jnp.where(k, m, b)\n"),
    "maximum_of_a_selection": (
        "def peak(b, m):\n    return jnp.max(b[m > 0.5]) * 2.0\n", "b[m > 0.5]",
        "return jnp.max(b, where=m > 0.5, initial=-jnp.inf) * 2.0\n"),
    "minimum_method_and_mean_of_a_named_selection": (
        "def low(b, m):\n    sel = b[m > 0.5]\n    return sel.min() + jnp.mean(sel)\n", "b[m > 0.5]",
        "return b.min(where=m > 0.5, initial=jnp.inf) + jnp.mean(b, where=m > 0.5)\n"),
    "spread_of_an_elementwise_function": (
        "def spread(b, m):\n    return jnp.std(jnp.abs(b[m > 0.5])) * 2.0\n", "b[m > 0.5]",
        "jnp.std(jnp.abs(b), where=m > 0.5)"),
    "any_of_a_comparison": (
        "def big(b, m):\n    return jnp.any(b[m > 0.5] > 1.0)\n", "b[m > 0.5]",
        "return jnp.any(b > 1.0, where=m > 0.5)\n"),
    "dot_of_two_selections": (
        "def corr(b, m):\n    k = m > 0.5\n    return jnp.dot(b[k], m[k])\n", "b[k]",
        "return jnp.sum(b * m, where=k)\n"),
    "sum_of_a_prefix_of_a_row": (
        "def row(b, m):\n    x = b.reshape(2, 2)\n    n = jnp.sum(m > 0.5) // 2\n    return jnp.sum(x[1, :n])\n",
        "x[1, :n]", "return jnp.sum(x[1, :], where=jax.lax.broadcasted_iota(jnp.int32, x[1, :].shape, "
        "x[1, :].ndim - x.ndim + 1) < n)\n"),
    "mean_over_a_prefix_of_the_second_axis": (
        "def cols(b, m):\n    x = b.reshape(2, 2)\n    n = jnp.sum(m > 0.5) // 2 + 1\n    return jnp.mean(x[:, :n])\n",
        "x[:, :n]", "return jnp.mean(x, where=jax.lax.broadcasted_iota(jnp.int32, x.shape, 1) < n)\n"),
    "arange_to_a_count_summed": (
        "def steps(b, m):\n    n = jnp.sum(m > 0.5)\n    s = jnp.arange(n)\n    b = b + jnp.sum(s)\n    return b\n",
        "jnp.arange(n)", "    s, s_mask = jnp.arange(jnp.size(m > 0.5)), jnp.arange(jnp.size(m > 0.5)) < n\n"
        "    b = b + jnp.sum(s, where=s_mask)\n"),
    "rows_of_a_constant_at_a_count_plus_one_averaged": (
        "def fill(b, m):\n    return b * jnp.full((jnp.count_nonzero(m) + 1, 2), 3.0).mean()\n",
        "jnp.full((jnp.count_nonzero(m) + 1, 2), 3.0)",
        "return b * jnp.full((jnp.size(m) + 1, 2), 3.0).mean(where=jax.lax.broadcasted_iota(jnp.int32, "
        "(jnp.size(m) + 1, 2), 0) < (jnp.count_nonzero(m) + 1))\n"),
    "zeros_at_a_bounded_minimum_summed": (
        "def pad(b, m):\n    k = jnp.minimum(jnp.argmax(m), 2)\n    return b + jnp.sum(jnp.zeros(k) + 1.0)\n",
        "jnp.zeros(k)", "return b + jnp.sum(jnp.zeros((2,)) + 1.0, where=jnp.arange(2) < k)\n"),
    "constant_sized_by_a_unique_count_read_by_items": (  # numpyro issue 853's form
        "def items(b, m):\n    s = jnp.full((jnp.unique(m).size,), 2.0)\n    return b * s[jnp.arange(4) % 3]\n",
        "jnp.unique(m)", "    s = jnp.full((jnp.size(m),), 2.0)\n"),
    # a named selection read by reductions and for its length (its rows: the mask's hits)
    "selection_averaged_by_its_length": (
        "def avg(b, m):\n    sel = b[m > 0.5]\n    return sel.sum() / sel.shape[0]\n", "b[m > 0.5]",
        "return b.sum(where=m > 0.5) / jnp.count_nonzero(m > 0.5)\n"),
    "selection_of_a_rebound_array_averaged_by_len": (
        "def avg(b, m):\n    sel = b[m > 0.5]\n    b = b * 2.0\n    return jnp.sum(sel) / len(sel) + b\n", "b[m > 0.5]",
        "    sel, sel_mask = b, m > 0.5\n    b = b * 2.0\n"
        "    return jnp.sum(sel, where=sel_mask) / jnp.count_nonzero(sel_mask) + b\n"),
    # reductions of every entry with no `where=` of their own, or under another module
    "norm_of_a_selection": (
        "def size(b, m):\n    return jnp.linalg.norm(b[m > 0.5]) * 2.0\n", "b[m > 0.5]",
        "return jnp.sqrt(jnp.sum(jnp.abs(b) ** 2, where=m > 0.5)) * 2.0\n"),
    "count_of_a_comparison_in_a_selection": (
        "def big(b, m):\n    return jnp.count_nonzero(b[m > 0.5] > 1.0) + b\n", "b[m > 0.5]",
        "return jnp.sum((b > 1.0) != 0, where=m > 0.5) + b\n"),
    # a reduction over axis 0 of a selection: the axes the mask covers, the mask broadcast over the trailing ones
    # (masks over rows or over every axis), and a product on the right by a matrix read row by row
    "mean_over_axis_0_of_rows_selected_by_a_row_mask": (
        "def rows(b, m):\n    x = b.reshape(2, 2)\n    k = m[:2] > 0.5\n    return jnp.mean(x[k], axis=0)\n", "x[k]",
        "return jnp.mean(x, axis=tuple(range(jnp.ndim(k))), where=jnp.expand_dims(k, tuple(range(jnp.ndim(k), "
        "x.ndim))))\n"),
    "sum_method_over_axis_0_of_a_mask_of_every_axis": (
        "def every(b, m):\n    x = b.reshape(2, 2)\n    return x[m.reshape(2, 2) > 0.5].sum(0) * 2.0\n",
        "x[m.reshape(2, 2) > 0.5]", "x.sum(axis=tuple(range(jnp.ndim((m.reshape(2, 2) > 0.5)))), "),
    "mean_over_axis_0_of_a_prefix_times_a_matrix": (
        "def project(b, m):\n    w = jnp.ones((1, 3)) * jnp.arange(3.0)\n"
        "    valid = b.reshape(4, 1)[:jnp.sum(m > 0.5)]\n    return jnp.mean(valid @ w, axis=0)\n",
        "b.reshape(4, 1)[:jnp.sum(m > 0.5)]",
        "return jnp.mean(b.reshape(4, 1) @ w, axis=0, where=jnp.expand_dims(jnp.arange(b.reshape(4, 1).shape[0]) < "),
    "mean_over_axis_0_of_a_bound_prefix": (
        "def prefix_rows(b, m):\n    x = b.reshape(2, 2)\n    n = jnp.sum(m > 0.5) // 2\n    valid = x[:n]\n"
        "    return jnp.mean(valid * 2.0, axis=0)\n", "x[:n]",
        "    return jnp.mean(x * 2.0, axis=0, where=jnp.expand_dims(jnp.arange(x.shape[0]) < n, "
        "tuple(range(1, x.ndim))))\n"),
    "mean_over_axis_0_of_a_prefix_of_an_array_rebound_after_it": (
        "def prefix_rows(b, m):\n    x = b.reshape(2, 2)\n    n = jnp.sum(m > 0.5) // 2\n    valid = x[:n]\n"
        "    x = x * 3.0\n    return jnp.mean(valid * 2.0, axis=0) + x\n", "x[:n]",
        "    return jnp.mean(valid * 2.0, axis=0, where=valid_mask) + x\n"),
    "named_selection_beside_a_direct_one_by_the_same_mask": (  # one mask text: `keep` bound once, before
        "def mse(b, m):\n    keep = m > 0.5\n    p = b[keep]\n    return jnp.mean((p - m[keep]) ** 2)\n", "b[keep]",
        "    keep = m > 0.5\n    return jnp.mean((b - m) ** 2, where=keep)\n"),
    "mean_of_a_selection_by_a_mask_cast_to_bool": (
        "def f(b, m):\n    k = (m > 0.5).astype(jnp.int32)\n    return jnp.mean(b[k.astype(bool)])\n",
        "b[k.astype(bool)]", "return jnp.mean(b, where=k.astype(bool))\n"),
    # a chain: a name bound to a row-wise function of a named selection, then reduced
    "max_over_axis_0_of_a_projection_of_a_bound_prefix": (
        "def pooled(b, m):\n    x = b.reshape(2, 2)\n    w = jnp.eye(2) * 2.0\n    n = jnp.sum(m > 0.5) // 2\n"
        "    valid = x[:n]\n    h = jnp.tanh(valid @ w)\n    return jnp.max(h, axis=0)\n", "x[:n]",
        "    h = jnp.tanh((x @ w))\n    return jnp.max(h, axis=0, where=jnp.expand_dims(jnp.arange(h.shape[0]) < n, "
        "tuple(range(1, h.ndim))), initial=-jnp.inf)\n"),
    "sum_of_a_function_of_a_named_selection": (
        "def f(b, m):\n    keep = m > 0.5\n    valid = b[keep]\n    h = jnp.tanh(valid) * 2.0\n    return jnp.sum(h)\n",
        "b[keep]", "    keep = m > 0.5\n    h = jnp.tanh(b) * 2.0\n    return jnp.sum(h, where=keep)\n"),
    # per-row operations: argmax over the last axis; log_softmax of a named selection, reduced over the last axis
    "accuracy_of_the_argmax_of_selected_rows": (
        "def acc(b, m):\n    logits = b.reshape(2, 2)\n    keep = m[:2] > 0.5\n"
        "    labels = (m[2:] > 0.5).astype(jnp.int32)\n"
        "    return jnp.mean(jnp.argmax(logits[keep], axis=-1) == labels[keep])\n", "logits[keep]",
        "return jnp.mean(jnp.argmax(logits, axis=-1) == labels, where=keep)\n"),
    "cross_entropy_of_a_named_log_softmax_of_selected_rows": (
        "def xent(b, m):\n    logits = jnp.clip(b.reshape(2, 2), -3.0, 3.0)\n    keep = m[:2] > 0.5\n"
        "    labels = (m[2:] > 0.5).astype(jnp.int32)\n    logp = jax.nn.log_softmax(logits[keep])\n"
        "    return -jnp.mean(jnp.sum(logp * jax.nn.one_hot(labels[keep], 2), axis=-1))\n", "logits[keep]",
        "return -jnp.mean(jnp.sum(((jax.nn.log_softmax(logits)) * jax.nn.one_hot(labels, 2)), axis=-1), where=keep)\n"),
    # scalars beside a selection: a full reduction of the whole array, a nested reduction of the selection
    "max_distance_of_a_selection_from_the_whole_mean": (
        "def f(b, m):\n    return jnp.max(jnp.abs(b[m > 0.5] - b.mean()))\n", "b[m > 0.5]",
        "return jnp.max(jnp.abs((b - b.mean())), where=m > 0.5, initial=-jnp.inf)\n"),
    "centred_sum_of_squares_of_a_named_selection": (
        "def f(b, m):\n    sel = b[m > 0.5]\n    return jnp.sum(jnp.square(sel - jnp.mean(sel)))\n", "b[m > 0.5]",
        "return jnp.sum(jnp.square((b - jnp.mean(b, where=m > 0.5))), where=m > 0.5)\n"),
    "max_over_axis_0_of_masked_rows_times_a_matrix": (
        "def peak(b, m):\n    x = b.reshape(2, 2)\n    params = {'w': jnp.eye(2) * 2.0}\n"
        "    return jnp.max(x[m[1:3] > 0.5] @ params['w'], axis=0)\n", "x[m[1:3] > 0.5]",
        "jnp.max(x @ params['w'], axis=tuple(range(jnp.ndim((m[1:3] > 0.5)))), "),
    "mean_over_axis_1_of_a_column_prefix": (
        "def cols(b, m):\n    x = b.reshape(2, 2)\n    n = jnp.sum(m > 0.5) // 2\n"
        "    return jnp.mean(x[:, :n], axis=1)\n",
        "x[:, :n]", "return jnp.mean(x, axis=1, where=jax.lax.broadcasted_iota(jnp.int32, x.shape, 1) < n)\n"),
    # a per-row operation (a reduction over the last axis, one_hot) of a selection by a mask over the other axes
    "mean_of_per_row_sums_of_a_row_selection": (
        "def rows(b, m):\n    x = b.reshape(2, 2)\n    return jnp.mean(jnp.sum(x[m[:2] > 0.5] ** 2, axis=-1))\n",
        "x[m[:2] > 0.5]", "return jnp.mean(jnp.sum((x ** 2), axis=-1), where=m[:2] > 0.5)\n"),
    "one_hot_cross_entropy_of_selected_tokens": (
        "def xent(b, m):\n    logits = jnp.clip(b.reshape(2, 2), -3.0, 3.0)\n    keep = m[:2] > 0.5\n"
        "    labels = (m[2:] > 0.5).astype(jnp.int32)\n    logp = jax.nn.log_softmax(logits)\n"
        "    return -jnp.mean(jnp.sum(logp[keep] * jax.nn.one_hot(labels[keep], 2), axis=-1))\n",
        "logp[keep]", "jax.nn.one_hot(labels, 2)), axis=-1), where=keep)\n"),
    "logsumexp_of_a_named_selection": (
        "def lse(b, m):\n    sel = b[m > 0.5]\n    return jax.nn.logsumexp(sel * 2.0)\n", "b[m > 0.5]",
        "return jax.nn.logsumexp(b * 2.0, where=m > 0.5)\n"),
    # positions of a 1-D mask as the index (`x[jnp.nonzero(m)[0]]`), in place or through a name bound once
    "mean_of_squares_at_the_nonzero_positions": (
        "def f(b, m):\n    return jnp.mean(b[jnp.nonzero(m > 0.5)[0]] ** 2)\n", "jnp.nonzero(m > 0.5)",
        "return jnp.mean(b ** 2, where=m > 0.5)\n"),
    "sum_at_argwhere_positions": (
        "def f(b, m):\n    return jnp.sum(b[jnp.argwhere(m > 0.5)[:, 0]])\n",
        "jnp.argwhere(m > 0.5)", "return jnp.sum(b, where=m > 0.5)\n"),
    "mean_at_flatnonzero_positions": (
        "def f(b, m):\n    return jnp.mean(b[jnp.flatnonzero(m > 0.5)] * 3.0)\n",
        "jnp.flatnonzero(m > 0.5)", "return jnp.mean(b * 3.0, where=m > 0.5)\n"),
    "two_reductions_at_named_where_positions": (
        "def f(b, m):\n    keep = m > 0.5\n    idx = jnp.where(keep)[0]\n"
        "    return jnp.sum(b[idx] * 2.0) - jnp.max(jnp.abs(b[idx]))\n", "jnp.where(keep)",
        "    keep = m > 0.5\n"
        "    return jnp.sum(b * 2.0, where=keep) - jnp.max(jnp.abs(b), where=keep, initial=-jnp.inf)\n"),
    # data-sized results that are a selection of a static array (rewrites/jax_selections.py): positions,
    # extract/compress, distinct values and set operations, delete; a named position array updated or
    # unpacked from a 1-D nonzero
    'loss_over_the_distinct_values': (
        'def f(b, m):\n    r = jnp.unique(m)\n    return jnp.mean(jnp.square(r - 1.0))\n',
        'jnp.unique(m)', ', where=(jnp.unique_counts(m, size=jnp.size(m)).counts > 0))'),
    'max_of_a_set_difference': (
        'def f(b, m):\n    return jnp.max(jnp.setdiff1d(m, m * 2.0))\n',
        'jnp.setdiff1d(m, m * 2.0)', 'jnp.unique(m, size=jnp.size(m)), m * 2.0), initial=-jnp.inf)'),
    'sum_of_scaled_positions': (
        'def f(b, m):\n    return jnp.sum(jnp.nonzero(m > 0.5)[0] * 2)\n',
        'jnp.nonzero(m > 0.5)', 'd_iota(jnp.int32, jnp.shape(m > 0.5), 0) * 2, where=m > 0.5)'),
    'mean_of_flat_positions': (
        'def f(b, m):\n    return jnp.mean(jnp.flatnonzero(m))\n',
        'jnp.flatnonzero(m)', 'n jnp.mean(jnp.arange(jnp.size(m)), where=jnp.ravel(m != 0))'),
    'sum_of_squares_of_an_extract_by_keyword': (
        'def f(b, m):\n    return jnp.sum(jnp.extract(condition=m > 0.5, arr=b) ** 2)\n',
        'jnp.extract(condition=m > 0.5, arr=b)', 'return jnp.sum(jnp.ravel(b) ** 2, where=jnp.ravel(m > 0.5))'),
    'sum_of_a_compress': (
        'def f(b, m):\n    return jnp.sum(jnp.compress(m > 0.5, b))\n',
        'jnp.compress(m > 0.5, b)', 'return jnp.sum(jnp.ravel(b), where=jnp.ravel(m > 0.5))'),
    'sum_of_a_union': (
        'def f(b, m):\n    return jnp.sum(jnp.union1d(m, jnp.floor(m * 2.0)))\n',
        'jnp.union1d(m, jnp.floor(m * 2.0))', 'ize=jnp.size(m) + jnp.size(jnp.floor(m * 2.0))).counts > 0))'),
    'sum_of_an_intersection': (
        'def f(b, m):\n    return jnp.sum(jnp.intersect1d(m, jnp.floor(m * 2.0)))\n',
        'jnp.intersect1d(m, jnp.floor(m * 2.0))', 'p.isin(jnp.unique(m, size=jnp.size(m)), jnp.floor(m * 2.0)))'),
    'min_of_a_symmetric_difference': (
        'def f(b, m):\n    return jnp.min(jnp.setxor1d(m, jnp.floor(m)))\n',
        'jnp.setxor1d(m, jnp.floor(m))', ' + jnp.size(jnp.floor(m))), jnp.floor(m))), initial=jnp.inf)'),
    'mean_after_a_traced_delete': (
        'def f(b, m):\n    return jnp.mean(jnp.delete(b, jnp.argmax(m)))\n',
        'jnp.delete(b, jnp.argmax(m))', '.ones(jnp.size(b), dtype=bool).at[jnp.argmax(m)].set(False))'),
    'max_of_the_counted_values': (
        'def f(b, m):\n    return jnp.max(jnp.unique_counts(m).values * 2.0)\n',
        'jnp.unique_counts(m)', 'e_counts(m, size=jnp.size(m)).counts > 0), initial=-jnp.inf)'),
    'update_at_named_flat_positions': (
        'def f(b, m):\n    idx = jnp.flatnonzero(m > 0.5)\n    return b.at[idx].set(0.0)\n',
        'jnp.flatnonzero(m > 0.5)', 'return jnp.where(m > 0.5, 0.0, b)'),
    'sum_at_one_unpacked_coordinate': (
        'def f(b, m):\n    (idx,) = jnp.nonzero(m > 0.5)\n    return jnp.sum(b[idx] ** 2)\n',
        'jnp.nonzero(m > 0.5)', 'return jnp.sum(b ** 2, where=m > 0.5)'),
    # a concatenation of selections and plain arrays is a selection by the concatenated masks
    "sum_of_a_selection_concatenated_with_an_array": (
        "def f(b, m):\n    return jnp.sum(jnp.concatenate([b[m > 0.5] * 2.0, m]))\n", "b[m > 0.5]",
        "where=jnp.concatenate([m > 0.5, jnp.ones(jnp.shape(m), dtype=bool)]))"),
    "loss_over_named_distinct_values_concatenated": (
        "def f(b, m):\n    r = jnp.unique(m)\n    h = jnp.concatenate([r, jnp.ravel(b)])\n"
        "    return jnp.mean(jnp.square(h - 1.0))\n", "jnp.unique(m)",
        "    h = jnp.concatenate([jnp.unique(m, size=jnp.size(m)), jnp.ravel(b)])\n"),
    # fixes25: the full jnp.argwhere table is jnp.indices stacked last, selected where the array is nonzero
    "loss_over_the_full_argwhere_table": (
        "def f(b, m):\n    r = jnp.argwhere(m > 0.5)\n    return jnp.mean(jnp.square(r - 1.0)) + jnp.sum(b)\n",
        "jnp.argwhere(m > 0.5)", "jnp.indices(jnp.shape(m > 0.5)), axis=-1) - 1.0)), where=(m > 0.5)[..., None])"),
    "max_over_the_full_argwhere_table_of_a_2d_mask": (
        "def f(b, m):\n    return b * jnp.max(jnp.argwhere(jnp.reshape(m, (2, 2)) > 0.5))\n",
        "jnp.argwhere(jnp.reshape(m, (2, 2)) > 0.5)", "jnp.indices(jnp.shape(jnp.reshape(m, (2, 2)) > 0.5))"),
    # fixes26: across a call. A helper that returns a selection returns the whole array and its mask,
    # and each caller in the file reduces with where=; a function the selection is passed to reduces
    # its parameter with where= a new keyword mask (None: every entry, for its other callers)
    "selection_returned_by_a_helper_read_by_two_reductions": (
        "def positive(b, m):\n    sel = b[m > 0.5]\n    return sel\n\n\n"
        "def f(b, m):\n    v = positive(b, m)\n    return jnp.sum(v * 2.0) + jnp.max(v)\n",
        "b[m > 0.5]", "    v, v_mask = positive(b, m)\n"),
    "selection_returned_directly_read_for_its_length": (
        "def pick(b, m):\n    return b[m > 0.5]\n\n\n"
        "def f(b, m):\n    v = pick(b, m)\n    return jnp.sum(v ** 2) / (len(v) + jnp.ones(()))\n",
        "b[m > 0.5]", "    return b, m > 0.5\n"),
    "distinct_values_returned_by_a_helper": (
        "def levels(m):\n    r = jnp.unique(m)\n    return r\n\n\n"
        "def f(b, m):\n    u = levels(m)\n    return jnp.sum(u) + jnp.sum(b)\n",
        "jnp.unique(m)", "    return jnp.sum(u, where=u_mask) + jnp.sum(b)\n"),
    "selection_passed_to_a_loss_function": (
        "def sq_loss(target, pred):\n    return jnp.mean(jnp.square(pred - target))\n\n\n"
        "def f(b, m):\n    return sq_loss(1.0, b[m > 0.5])\n",
        "b[m > 0.5]", "def sq_loss(target, pred, *, pred_mask=None):\n"),
    "named_selection_passed_by_keyword_with_a_module_constant": (
        "TARGET = 0.5\n\n\ndef abs_loss(pred, target=0.0, *, scale=1.0):\n"
        "    return scale * jnp.sum(jnp.abs(pred - target)) + jnp.var(pred)\n\n\n"
        "def f(b, m):\n    kept = b[m > 0.5]\n    return abs_loss(target=TARGET, pred=kept)\n",
        "b[m > 0.5]", "def abs_loss(pred, target=0.0, *, scale=1.0, pred_mask=None):\n"),
    "elementwise_arithmetic_of_selections_returned_by_a_helper": (
        "def errors(b, m):\n    keep = m > 0.5\n    return jnp.abs(b[keep] - m[keep]) * 0.5\n\n\n"
        "def f(b, m):\n    e = errors(b, m)\n    return jnp.mean(e) + jnp.sum(e ** 2)\n",
        "b[keep]", "    return (jnp.abs((b - m)) * 0.5), keep\n"),
    # fixes26: a column of a row selection is that column of the whole array, with the row mask
    # (indexing commutes); compress along axis 0 selects rows as x[c] does
    "columns_of_rows_compressed_along_axis_0": (
        "def f(b, m):\n    x = jnp.reshape(jnp.concatenate([b, m]), (4, 2))\n"
        "    kept = jnp.compress(m > 0.5, x, axis=0)\n    w = kept[:, 1] - kept[:, 0]\n    h = kept[:, 0] * 2.0\n"
        "    return jnp.sum(w * h)\n", "jnp.compress(m > 0.5, x, axis=0)", "return jnp.sum(w * h, where="),
    "mean_of_a_column_of_a_boolean_row_selection": (
        "def f(b, m):\n    x = jnp.stack([b, m, b * m], axis=1)\n    sel = x[m > 0.5]\n"
        "    return jnp.mean(sel[:, 2] - sel[:, 0] ** 2)\n", "x[m > 0.5]",
        "return jnp.mean(x[:, 2] - (x[:, 0] ** 2), where=m > 0.5)\n"),
    # fixes30: every entry of a product's rows (the mask broadcast over the product's trailing axes), and a
    # helper that returns a tuple holding selections by one mask (the LP standard form of MPAX issue 1)
    "sum_of_every_entry_of_a_chained_product_of_selected_rows": (
        "def f(b, m):\n    x = b.reshape(2, 2)\n    w = jnp.eye(2) * 2.0 - 1.0\n    valid = x[m[:2] > 0.5]\n"
        "    h = jnp.maximum(valid @ w, 0.0)\n    return jnp.sum(h)\n", "x[m[:2] > 0.5]",
        "    return jnp.sum(h, where=jnp.expand_dims((m[:2] > 0.5), tuple(range(jnp.ndim((m[:2] > 0.5)), h.ndim))))\n"),
    "max_and_mean_of_a_product_of_selected_rows_and_a_vector": (
        "def f(b, m):\n    x = b.reshape(2, 2)\n    w = m[2:] * 2.0\n    h = x[m[:2] > 0.5] @ w\n"
        "    return jnp.max(h) + jnp.mean(h)\n", "x[m[:2] > 0.5]", "    h, h_mask = x @ w, m[:2] > 0.5\n"),
    "tuple_of_selections_by_positions_returned_by_a_helper": (
        "def standard_form(b, m):\n    rows = jnp.where(m > 0.5)[0]\n    a = jnp.stack([b, m], axis=1)\n"
        "    a_ub = a[rows]\n    b_ub = b[rows]\n    return 2.0, a_ub, b_ub\n\n\n"
        "def f(b, m):\n    w = jnp.ones(2) * 0.5\n    c, a_ub, b_ub = standard_form(b, m)\n"
        "    slack = jnp.maximum(a_ub @ w - b_ub, 0.0)\n    return c * jnp.sum(slack) + len(b_ub) * jnp.ones(())\n",
        "jnp.where(m > 0.5)[0]", "    return 2.0, a_ub, b_ub, rows\n"),
    "selection_in_a_returned_tuple_beside_a_plain_item": (
        "def split(b, m):\n    keep = m > 0.5\n    return b[keep], jnp.sum(m)\n\n\n"
        "def f(b, m):\n    v, total = split(b, m)\n    return jnp.mean(v ** 2) + total\n",
        "b[keep]", "    v, total, v_mask = split(b, m)\n"),
    # fixes30: names bound to selections by one mask and read together go together (the LP in one function)
    "selections_by_one_mask_read_together_through_a_product_of_rows": (
        "def f(b, m):\n    keep = m > 0.5\n    a = jnp.stack([b, m], axis=1)\n    a_ub = a[keep]\n    b_ub = b[keep]\n"
        "    w = jnp.ones(2) * 0.5\n    slack = jnp.maximum(a_ub @ w - b_ub, 0.0)\n"
        "    return jnp.sum(slack) + len(b_ub) * jnp.ones(())\n", "a[keep]",
        "    slack = jnp.maximum(((a @ w) - b), 0.0)\n"),
    "selections_by_one_mask_multiplied_and_counted": (
        "def f(b, m):\n    keep = m > 0.5\n    p = b[keep]\n    q = m[keep]\n    return jnp.sum(p * q) / len(q)\n",
        "m[keep]", "    return jnp.sum(b * m, where=keep) / jnp.count_nonzero(keep)\n"),
}


def mask_fix(source: str, flagged: str):
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.expr) and ast.get_source_segment(source, n) == flagged)
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
    return result.fix


def check_mask_fix(name: str, body: str, flagged: str, expected: str, tmp: Path, masks: list[list[float]],
                   applicability: Applicability | None = None, reason: str = "") -> None:
    """The fix of the finding at ``flagged`` writes ``expected``, and the jitted fixed function gives
    the original's values (run without jit) for ``b`` fixed and each ``m`` in ``masks``."""
    source = HEADER + body
    fix = mask_fix(source, flagged)
    assert fix is not None and reason in fix.message
    assert applicability is None or fix.applicability is applicability
    fixed = apply_edits(source, fix.edits)
    assert expected in fixed
    original, compiled = load(f"orig_{name}", source, tmp), jax.jit(load(f"fixed_{name}", fixed, tmp))
    for values in masks:
        b, m = jnp.asarray([1.0, -2.0, 0.5, 3.0], dtype=jnp.float32), jnp.asarray(values, dtype=jnp.float32)
        with jax.disable_jit():
            expected_out = original(b, m)
        np.testing.assert_allclose(np.asarray(compiled(b, m)), np.asarray(expected_out), rtol=1e-6)


@pytest.mark.parametrize("name", sorted(MASKS))
def test_jax_boolean_mask_fix_compiles_and_matches_the_original(name, tmp_path):
    body, flagged, expected = MASKS[name]
    source = HEADER + body
    original, compiled = original_and_compiled_fix(name, source, mask_fix(source, flagged), expected, "unsafe: ",
                                                   tmp_path)

    @settings(max_examples=40, deadline=None)
    @given(st.lists(VALUES, min_size=4, max_size=4), st.lists(st.sampled_from([-1.0, 0.0, 0.7, 2.0]),
                                                              min_size=4, max_size=4))
    def check(values, masks):
        b, m = jnp.asarray(values, dtype=jnp.float32), jnp.asarray(masks, dtype=jnp.float32)
        with jax.disable_jit():
            try:
                expected_out = original(b, m)
            except ValueError:  # the extreme of an empty selection: outside the fix's claim
                hypothesis.assume(False)
        np.testing.assert_allclose(np.asarray(compiled(b, m)), np.asarray(expected_out), rtol=1e-5, atol=1e-6,
                                   equal_nan=True)

    check()


def test_a_selection_across_a_call_is_declined_where_a_reader_is_unseen_or_not_a_reduction():
    helper = "def pick(b, m):\n    sel = b[m > 0]\n    return sel\n\n\n"
    for caller in ("def f(b, m):\n    v = pick(b, m)\n    return jnp.sum(v) + v[0]\n",  # an item read
                   "def f(b, m):\n    return jnp.sum(pick(b, m))\n",  # not bound to a name
                   "def f(b, m):\n    return jnp.sum(jax.vmap(pick)(b, m))\n",  # the function handed on
                   "def f(b, m):\n    v = pick(b, m)\n    return jnp.sum(v)\n\n\nPICK = pick\n"):
        assert mask_fix(HEADER + helper + caller, "b[m > 0]") is None, caller
    # a second return, or a decorator that could wrap the helper
    assert mask_fix(HEADER + "def pick(b, m):\n    if b.ndim > 1:\n        return b\n    return b[m > 0]\n\n\n"
                    "def f(b, m):\n    v = pick(b, m)\n    return jnp.sum(v)\n", "b[m > 0]") is None
    assert mask_fix(HEADER + "@jax.jit\n" + helper + "def f(b, m):\n    v = pick(b, m)\n    return jnp.sum(v)\n",
                    "b[m > 0]") is None
    loss = "def loss(t, p):\n    return {}\n\n\n"
    call = "def f(b, m):\n    return loss({}, b[m > 0])\n"
    for body, target in (("jnp.mean(p - t) + p.shape[0]", "1.0"),  # the parameter read outside a reduction
                         ("jnp.mean(p - t, axis=0)", "1.0"),  # a reduction over an axis
                         ("jnp.max(p - t)", "1.0"),  # no identity for where=None
                         ("jnp.mean(p - t)", "b"),  # the other argument an array
                         ("jnp.dot(p, p) + t", "1.0")):  # a product of arrays of any rank
        assert mask_fix(HEADER + loss.format(body) + call.format(target), "b[m > 0]") is None, body


@pytest.mark.parametrize("body", ["jnp.mean(jnp.square(pred - target))",
                                  "scale * jnp.sum(jnp.abs(pred - target)) + jnp.var(pred)"])
def test_a_function_that_gets_a_mask_parameter_gives_its_other_callers_what_it_gave(body, tmp_path):
    source = (HEADER + f"def loss(pred, target=0.0, *, scale=1.0):\n    return {body}\n\n\n"
              "def f(b, m):\n    return loss(b[m > 0.5], 1.0)\n")
    fix = mask_fix(source, "b[m > 0.5]")
    assert fix is not None and "pred_mask=None" in apply_edits(source, fix.edits)
    original = load("orig_loss_alone", source.split("\n\n\ndef f")[0] + "\n", tmp_path)
    fixed = load("fixed_loss_alone", apply_edits(source, fix.edits).split("\n\n\ndef f")[0] + "\n", tmp_path)

    @settings(max_examples=40, deadline=None)
    @given(st.lists(VALUES, min_size=1, max_size=6), st.floats(-2, 2, width=32))
    def check(values, target):
        pred = jnp.asarray(values, dtype=jnp.float32)
        np.testing.assert_allclose(np.asarray(fixed(pred, target, scale=2.0)), np.asarray(original(pred, target,
                                   scale=2.0)), rtol=1e-6, equal_nan=True)

    check()


def test_a_selection_read_outside_a_reduction_is_not_rewritten():
    assert mask_fix(HEADER + "def f(b, m):\n    sel = b[m > 0]\n    return jnp.sum(sel) + sel[0]\n", "b[m > 0]") is None
    assert mask_fix(HEADER + "def f(b, m):\n    sel = b[m > 0]\n    sel = sel * 2.0\n    return jnp.sum(sel)\n",
                    "b[m > 0]") is None  # the selection's name rebound


def test_a_kept_or_added_last_axis_that_no_reduction_over_it_encloses_is_not_masked():
    # where= a mask over the leading axes would broadcast against the last axis
    assert mask_fix(HEADER + "def f(b, m):\n    return jnp.mean(jax.nn.one_hot(b.astype(jnp.int32)[m > 0], 4))\n",
                    "b.astype(jnp.int32)[m > 0]") is None
    x = "    x = b.reshape(2, 2)\n"
    assert mask_fix(HEADER + "def f(b, m):\n" + x + "    return jnp.sum(jax.nn.log_softmax(x[m[:2] > 0]))\n",
                    "x[m[:2] > 0]") is None
    assert mask_fix(HEADER + "def f(b, m):\n" + x + "    logp = jax.nn.log_softmax(x[m[:2] > 0])\n"
                    "    return jnp.sum(logp)\n", "x[m[:2] > 0]") is None


def test_a_prefix_of_a_selection_is_not_read_as_a_prefix_of_an_array():
    assert mask_fix(HEADER + "def f(b, m):\n    n = jnp.sum(m > 0)\n    return jnp.sum(b[m > 0][:n])\n",
                    "b[m > 0][:n]") is None


def test_a_chained_name_read_outside_a_reduction_or_a_projection_reduced_over_its_last_axis_is_not_rewritten():
    assert mask_fix(HEADER + "def f(b, m):\n    valid = b[m > 0]\n    h = valid * 2.0\n    return jnp.sum(h) + h[0]\n",
                    "b[m > 0]") is None
    assert mask_fix(HEADER + "def f(b, m):\n    x = b.reshape(2, 2)\n    w = jnp.eye(2)\n    valid = x[m[:2] > 0]\n"
                    "    h = valid @ w\n    return jnp.sum(h, axis=1)\n", "x[m[:2] > 0]") is None  # rows: axis 0 or all


def test_a_selection_by_the_same_mask_read_otherwise_is_left_as_it_is():
    source = HEADER + "def f(x, y, m):\n    keep = m > 0\n    a = x[keep]\n    b = y[keep]\n"
    fix = mask_fix(source + "    return jnp.sum(a) + b[0]\n", "x[keep]")
    assert fix is not None
    fixed = apply_edits(source + "    return jnp.sum(a) + b[0]\n", fix.edits)
    assert "    b = y[keep]\n    return jnp.sum(x, where=keep) + b[0]\n" in fixed


def test_a_returned_tuple_is_declined_where_a_caller_or_the_helper_reads_it_otherwise():
    helper = "def split(b, m):\n    keep = m > 0.5\n    return b[keep], jnp.sum(m)\n\n\n"
    for caller in ("def f(b, m):\n    v, total = split(b, m)\n    return jnp.sum(v) + v[0] + total\n",  # an item read
                   "def f(b, m):\n    pair = split(b, m)\n    return jnp.sum(pair[0])\n",  # not unpacked
                   "def f(b, m):\n    v, total = split(b, m)\n    v = v * 2.0\n    return jnp.sum(v)\n"):  # rebound
        assert mask_fix(HEADER + helper + caller, "b[keep]") is None, caller
    caller = "def f(b, m):\n    v, total = split(b, m)\n    return jnp.sum(v) + total\n"
    for body in ("    keep = m > 0.5\n    v = b[keep]\n    keep = m > 1.0\n    return v, jnp.sum(m)\n",  # mask rebound
                 "    keep = m > 0.5\n    return b[keep], m[m > 1.0]\n"):  # a selection by another mask
        assert mask_fix(HEADER + "def split(b, m):\n" + body + "\n\n" + caller, "b[keep]") is None, body
    # positions read other than by a returned selection
    helper = "def pick(b, m):\n    rows = jnp.where(m > 0)[0]\n    s = b[rows]\n    return s, rows\n\n\n"
    assert mask_fix(HEADER + helper + "def f(b, m):\n    s, rows = pick(b, m)\n    return jnp.sum(s)\n",
                    "jnp.where(m > 0)[0]") is None


def test_a_created_array_that_is_returned_or_whose_count_array_is_rebound_is_not_bounded():
    assert mask_fix(HEADER + "def f(b, m):\n    n = jnp.sum(m > 0)\n    return jnp.arange(n) * 2\n",
                    "jnp.arange(n)") is None
    assert mask_fix(HEADER + "def f(b, m):\n    n = jnp.sum(m > 0)\n    m = m[:2]\n"
                    "    return jnp.sum(jnp.ones((n,)))\n",
                    "jnp.ones((n,))") is None  # the bound would read the rebound m
    assert mask_fix(HEADER + "def f(b, m):\n    n = jnp.max(m)\n    return jnp.sum(jnp.zeros((n,)))\n",
                    "jnp.zeros((n,))") is None  # a value, not a count: no bound


def test_an_update_through_a_mask_with_an_array_value_is_not_a_select():
    assert mask_fix(HEADER + "def f(b, m):\n    return b.at[m > 0.5].set(m)\n", "b.at[m > 0.5]") is None
    assert mask_fix(HEADER + "def f(b, m):\n    return b.at[m > 0.5].set(b[m < 0.5])\n", "b.at[m > 0.5]") is None


def test_a_constant_whose_length_is_read_is_not_created_at_the_bound():
    assert mask_fix(HEADER + "def f(b, m):\n    s = jnp.ones((jnp.sum(m > 0),))\n    return s[0] + s.shape[0]\n",
                    "jnp.ones((jnp.sum(m > 0),))") is None
    assert mask_fix(HEADER + "def f(b, m):\n    s = jnp.ones((jnp.sum(m > 0),))\n    return jnp.sum(s[1:])\n",
                    "jnp.ones((jnp.sum(m > 0),))") is None  # a slice reads as many entries as the length allows


def test_a_slice_after_an_index_array_or_followed_by_one_is_not_masked():
    assert mask_fix(HEADER + "def f(b, m):\n    n = jnp.sum(m > 0)\n    x = b.reshape(2, 2)\n"
                    "    return jnp.sum(x[:n, m])\n", "x[:n, m]") is None


# XLA101/XLA102: a check on a traced value (`if c: raise`, `assert c`) -> the same check in a host callback
CHECKS = {
    "raise_in_an_if": ("def guarded(x):\n    if jnp.any(jnp.isnan(x)):\n        raise ValueError('NaN')\n"
                       "    return x * 2.0\n", ast.If, "XLA101",
                       "    def check_failed(failed):\n        if failed:\n            raise ValueError('NaN')\n"
                       "    jax.debug.callback(check_failed, jax.numpy.asarray(jnp.any(jnp.isnan(x))) != 0)\n"),
    "assert_with_a_message": ("def guarded(x):\n    assert jnp.all(jnp.isfinite(x)), 'NaN'\n    return x * 2.0\n",
                              ast.Assert, "XLA102",
                              "            raise AssertionError('NaN')\n    jax.debug.callback(check_failed, "
                              "jax.numpy.logical_not(jax.numpy.asarray(jnp.all(jnp.isfinite(x))) != 0))\n"),
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_a_check_on_a_traced_value_runs_in_a_callback_and_still_raises(name, tmp_path):
    body, kind, code, expected = CHECKS[name]
    source = HEADER + body
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, kind))
    (result,) = attach_fixes(source, tree, [diagnostic_at(node.test if kind is ast.If else node, code)])
    original, compiled = original_and_compiled_fix(name, source, result.fix, expected, "host callback", tmp_path)
    good = jnp.asarray([1.0, -2.0, 0.5], dtype=jnp.float32)
    np.testing.assert_array_equal(np.asarray(compiled(good)), np.asarray(original(good)))
    with pytest.raises(Exception, match="NaN"):
        jax.block_until_ready(compiled(jnp.asarray([1.0, np.nan, 0.5], dtype=jnp.float32)))


def test_an_if_that_raises_and_does_more_is_not_a_callback():
    source = HEADER + ("def f(x):\n    if jnp.any(x < 0):\n        x = -x\n        raise ValueError('neg')\n"
                       "    return x\n")
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.If))
    (result,) = attach_fixes(source, tree, [diagnostic_at(node.test, "XLA101")])
    assert result.fix is None or "callback" not in result.fix.message


# XLA207: hits without size= read only by sums -> size= the operand's size, padded with zeros (SAFE for indices)
PADDED = {
    "summed_coordinates": ("def f(b, m):\n    idx = jnp.nonzero(m > 0.5)[0]\n    b = b + jnp.sum(idx)\n    return b\n",
                           "jnp.nonzero(m > 0.5)", "jnp.nonzero(m > 0.5, size=(m > 0.5).size, fill_value=0)[0]",
                           Applicability.SAFE),
    "summed_flat_hits_method": ("def f(b, m):\n    return b * jnp.flatnonzero(m).sum()\n", "jnp.flatnonzero(m)",
                                "jnp.flatnonzero(m, size=m.size, fill_value=0).sum()", Applicability.SAFE),
    "summed_unique_values": ("def f(b, m):\n    levels = jnp.unique(m)\n    return b - jnp.sum(levels)\n",
                             "jnp.unique(m)", "jnp.unique(m, size=m.size, fill_value=0)", Applicability.UNSAFE),
}


@pytest.mark.parametrize("name", sorted(PADDED))
def test_hits_read_only_by_sums_are_padded_and_the_fix_compiles(name, tmp_path):
    body, flagged, expected, applicability = PADDED[name]
    check_mask_fix(name, body, flagged, expected, tmp_path,
                   [[0.0, 0.7, 2.0, 0.7], [0.0, 0.0, 0.0, 0.0], [2.0, 2.0, 2.0, 2.0]], applicability)


# XLA207: hits without size= read only for their length, in arithmetic with an array -> counted on the device
COUNTED = {
    "unique_levels_scale_a_stack": (
        "def f(b, m):\n    levels = jnp.unique(m)\n    return jnp.stack([b, b * 2.0]) * levels.shape[0]\n",
        "jnp.unique(m)",
        "    levels_count = jnp.count_nonzero(jnp.sort(jnp.ravel(m))[1:] != jnp.sort(jnp.ravel(m))[:-1]) "
        "+ min(m.size, 1)\n    return jnp.stack([b, b * 2.0]) * levels_count\n"),
    "selection_length_divides_a_sum": (
        "def f(b, m):\n    pos = b[m > 0.5]\n    return jnp.sum(b) / len(pos)\n",
        "b[m > 0.5]", "    pos_count = jnp.count_nonzero(m > 0.5)\n    return jnp.sum(b) / pos_count\n"),
    "selection_rows_scale_an_array": (
        "def f(b, m):\n    return b[m < 0.5].shape[0] * jnp.ones(2)\n", "b[m < 0.5]",
        "return jnp.count_nonzero(m < 0.5) * jnp.ones(2)\n"),
    "hit_count_divides_a_sum": (
        "def f(b, m):\n    return jnp.sum(b) / len(jnp.flatnonzero(m > 0.5))\n", "jnp.flatnonzero(m > 0.5)",
        "return jnp.sum(b) / jnp.count_nonzero(m > 0.5)\n"),
}


@pytest.mark.parametrize("name", sorted(COUNTED))
def test_hits_read_only_for_their_length_are_counted_and_the_fix_compiles(name, tmp_path):
    check_mask_fix(name, *COUNTED[name], tmp_path, [[0.0, 0.7, 2.0, 0.7], [1.0, 1.0, 1.0, 1.0], [2.0, 0.0, 3.0, -1.0]])


def test_a_length_that_sizes_a_shape_is_not_counted_on_the_device():
    assert mask_fix(HEADER + "def f(b, m):\n    return jnp.zeros((jnp.unique(m).size,)) + 1.0\n",
                    "jnp.unique(m)") is None


def test_hits_read_other_than_by_a_sum_are_not_padded():
    assert mask_fix(HEADER + "def f(b, m):\n    idx = jnp.nonzero(m)[0]\n    return jnp.sum(idx) + idx.shape[0]\n",
                    "jnp.nonzero(m)") is None
    # not padded (a mean of zeros is another mean): read as the distinct values where their counts are
    # nonzero (jax_selections), which takes no padding
    fix = mask_fix(HEADER + "def f(b, m):\n    return jnp.mean(jnp.unique(m))\n", "jnp.unique(m)")
    assert fix is not None and "fill_value" not in fix.edits[0].content and "where=" in fix.edits[0].content


# XLA301/XLA302: `.item()` and `float()` of a traced array -> the array, kept on the device
HOST = {
    "item_subtracted": ("def center(b):\n    m = jnp.mean(b).item()\n    return b - m\n", "jnp.mean(b).item()",
                        "    m = jnp.mean(b)\n", "XLA301"),
    "float_as_a_scale": ("def scale(b):\n    s = float(jnp.max(jnp.abs(b)))\n    return b / (s + 1.0)\n",
                         "float(jnp.max(jnp.abs(b)))", "    s = jnp.max(jnp.abs(b)).astype(jax.numpy.float32)\n",
                         "XLA302"),
    "int_of_a_count": ("def per_hit(b):\n    n = int(jnp.count_nonzero(b > 0.0))\n    return b * n - n\n",
                       "int(jnp.count_nonzero(b > 0.0))",
                       "    n = jnp.count_nonzero(b > 0.0).astype(jax.numpy.int32)\n", "XLA302"),
    "float_centred_then_rebound": ("def center(b):\n    c = float(jnp.mean(b))\n    b = b - c\n    return b * 2.0\n",
                                   "float(jnp.mean(b))", "    c = jnp.mean(b).astype(jax.numpy.float32)\n", "XLA302"),
    "float_in_returned_dict": ("def stats(b):\n    return {'peak': float(jnp.max(b))}['peak'] + b\n",
                               "float(jnp.max(b))",
                               "{'peak': jnp.max(b).astype(jax.numpy.float32)}", "XLA302"),
    "float_in_a_python_min": ("def warm(b):\n    return b * min(1.0, float(jnp.sum(b)) / 4.0)\n", "float(jnp.sum(b))",
                              "jax.numpy.minimum(1.0, jnp.sum(b).astype(jax.numpy.float32) / 4.0)", "XLA302"),
    "int_count_in_a_python_max": ("def per_hit_mean(b):\n    n = int(jnp.count_nonzero(b > 0.0))\n"
                                  "    return jnp.sum(b) / max(n, 1)\n", "int(jnp.count_nonzero(b > 0.0))",
                                  "    return jnp.sum(b) / jax.numpy.maximum(n, 1)\n", "XLA302"),
    "filtered_sum_of_rows": ("def pos_sum(b):\n    return sum(v * 2.0 for v in b if v > 0.0)\n",
                             "(v * 2.0 for v in b if v > 0.0)",
                             "    return sum(jax.numpy.where(v > 0.0, v * 2.0, 0) for v in b)\n", "XLA105"),
}


@pytest.mark.parametrize("name", sorted(HOST))
def test_jax_host_read_fix_compiles_and_matches_the_original(name, tmp_path):
    body, flagged, expected, code = HOST[name]
    source = HEADER + body
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.expr) and ast.get_source_segment(source, n) == flagged)
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, code)])
    reason = "int 0" if code == "XLA105" else "weakly typed"
    original, compiled = original_and_compiled_fix(name, source, result.fix, expected, reason, tmp_path)

    @settings(max_examples=30, deadline=None)
    @given(st.lists(st.floats(-3, 3, width=32, allow_subnormal=False), min_size=4, max_size=4))
    def check(values):
        b = jnp.asarray(values, dtype=jnp.float32)
        with jax.disable_jit():
            expected_out = original(b)
        np.testing.assert_allclose(np.asarray(compiled(b)), np.asarray(expected_out), rtol=1e-6, equal_nan=True)

    check()


def test_a_host_read_that_sizes_a_shape_or_is_formatted_is_not_rewritten():
    for body, flagged in (("def f(b):\n    return f'{b.sum().item()}'\n", "b.sum().item()"),
                          ("def f(b):\n    n = float(b.sum())\n    return str(n)\n", "float(b.sum())"),
                          ("def f(b):\n    n = int(b.sum())\n    return jnp.zeros(n)\n", "int(b.sum())"),
                          # the arithmetic result is assigned on and then formatted
                          ("def f(b):\n    n = float(b.sum())\n    m = n * 2.0\n    return str(m)\n",
                           "float(b.sum())")):
        source = HEADER + body
        tree = ast.parse(source)
        node = next(n for n in ast.walk(tree)
                    if isinstance(n, ast.expr) and ast.get_source_segment(source, n) == flagged)
        (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA302")])
        assert result.fix is None or not result.fix.edits


def test_an_index_array_or_a_reduction_over_an_axis_is_not_rewritten():
    # axis 0 is the selection's own (rewritten above); any other axis, or keepdims, is not
    assert mask_fix(HEADER + "def f(b, m):\n    return jnp.sum(b[m > 0], axis=1)\n", "b[m > 0]") is None
    # a per-row reduction inside a reduction over an axis, or over another axis than the last
    assert mask_fix(HEADER + "def f(b, m):\n    x = b.reshape(2, 2)\n"
                    "    return jnp.sum(jnp.sum(x[m[:2] > 0] ** 2, axis=-1), axis=0)\n", "x[m[:2] > 0]") is None
    assert mask_fix(HEADER + "def f(b, n):\n    x = b.reshape(2, 2)\n    return jnp.sum(x[:, :n], axis=0)\n",
                    "x[:, :n]") is None  # a column prefix summed over the rows keeps the traced length
    assert mask_fix(HEADER + "def f(b, m):\n    return jnp.sum(b[m > 0], axis=0, keepdims=True)\n", "b[m > 0]") is None
    # a matrix product whose right operand is selected, or outside a reduction over axis 0
    assert mask_fix(HEADER + "def f(b, m):\n    return jnp.sum(b[m > 0] @ b[m > 0], axis=0)\n", "b[m > 0]") is None
    assert mask_fix(HEADER + "def f(b, w, m):\n    return jnp.sum(b[m > 0] @ w)\n", "b[m > 0]") is None
    assert mask_fix(HEADER + "def f(b, i):\n    return jnp.sum(b[i] * b[i > 0])\n", "b[i > 0]") is None
    # a coordinate read again elsewhere: the unpacking stays, so no fix
    assert mask_fix(HEADER + "def f(b, m):\n    (k,) = jnp.nonzero(m)\n    return b.at[k].set(0.0), k\n",
                    "jnp.nonzero(m)") is None
    # coordinates read whole, or at a position from the end: no size covers them
    assert mask_fix(HEADER + "def f(b, m):\n    (k,) = jnp.nonzero(m)\n    return b[k[-1]] + k\n",
                    "jnp.nonzero(m)") is None


def static_fix_at(source: str, callee: str, code: str):
    """The fix of a ``code`` finding at the first call of ``callee``, checked to be the unsafe
    static-argument fix; the fixed source."""
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == callee)
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, code)])
    fix = result.fix
    assert fix.applicability is Applicability.UNSAFE and "compiles the function anew" in fix.message
    return apply_edits(source, fix.edits)


# XLA207: a size or axis read from a parameter of a @jax.jit function -> the parameter static
def test_a_size_parameter_becomes_static_and_the_fix_compiles(tmp_path):
    source = HEADER + "@jax.jit\ndef spectrum(signal, n_fft):\n    return jnp.abs(jnp.fft.rfft(signal, n=n_fft)) ** 2\n"
    fixed = static_fix_at(source, "jnp.fft.rfft", "XLA207")
    assert fixed.startswith("import functools\nimport jax\n")
    assert '@functools.partial(jax.jit, static_argnames=("n_fft",))\ndef spectrum' in fixed
    signal = jnp.sin(jnp.arange(16.0) * 0.7)
    original, rewritten = load("orig_spectrum", source, tmp_path), load("fixed_spectrum", fixed, tmp_path)
    with jax.disable_jit():
        expected = original(signal, 32)
    for n in (32, 20):
        with jax.disable_jit():
            expected = original(signal, n)
        np.testing.assert_allclose(np.asarray(rewritten(signal, n)), np.asarray(expected), rtol=1e-5)


@pytest.mark.parametrize("method", [False, True])
def test_a_method_shape_or_a_python_range_of_a_parameter_becomes_static_and_the_fix_compiles(method, tmp_path):
    # `x.reshape(-1, width)` is jnp.reshape(x, (-1, width)); `range(n)` whose body no lax loop can carry
    body = ("def windows(x, width):\n    return x.reshape(-1, width).mean(axis=1)\n" if method else
            "def decode(x, width):\n    out = []\n    for t in range(width):\n        out.append(x[t] * 2.0)\n"
            "    return jnp.stack(out)\n")
    source = HEADER + "@jax.jit\n" + body
    fixed = static_fix_at(source, "x.reshape" if method else "range", "XLA207" if method else "XLA302")
    assert '@functools.partial(jax.jit, static_argnames=("width",))\ndef ' in fixed
    original, rewritten = load(f"orig_w{method}", source, tmp_path), load(f"fixed_w{method}", fixed, tmp_path)
    x = jnp.arange(12.0)
    for width in (3, 4):
        with jax.disable_jit():
            expected = original(x, width)
        np.testing.assert_allclose(np.asarray(rewritten(x, width)), np.asarray(expected), rtol=1e-6)


def test_a_size_computed_from_data_or_a_rebound_parameter_is_not_made_static():
    for body in ("@jax.jit\ndef f(x):\n    m = jnp.sum(x > 0)\n    return jnp.zeros((m,))\n",
                 "@jax.jit\ndef f(x, n):\n    n = n + jnp.sum(x)\n    return jnp.zeros((n,))\n"):
        source = HEADER + body
        tree = ast.parse(source)
        node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.zeros")
        (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
        assert result.fix is None or not result.fix.edits


# XLA207: the static parameter named at every place the function is handed to jax.jit, as the
# detection finds them (a wrapping call, a partial decorator naming some already), and through a
# helper that only the jitted function calls
JIT_SITES = {
    "wrapping_call": ("def pad_to(x, n):\n    return jnp.zeros((n,)) + jnp.sum(x)\n\n\nstep = jax.jit(pad_to)\n",
                      "step = jax.jit(pad_to, static_argnames=(\"n\",))\n", "step"),
    "partial_naming_others": (
        "import functools\n\n\n@functools.partial(jax.jit, static_argnames=(\"axis\",))\n"
        "def step(x, n, axis):\n    return jnp.zeros((n,)) + jnp.sum(x, axis)[0]\n",
        "@functools.partial(jax.jit, static_argnames=(\"axis\", \"n\"))\n", "step"),
    # with static_argnums only, jax.jit finds names from positions; a position joins them
    "partial_numbering_others": (
        "from functools import partial\n\n\n@partial(jax.jit, static_argnums=(2,))\n"
        "def step(x, n, axis):\n    return jnp.zeros((n,)) + jnp.sum(x, axis)[0]\n",
        "@partial(jax.jit, static_argnums=(2, 1))\n", "step"),
    "partial_call": ("from functools import partial\n\n\ndef pad_to(x, n, axis=0):\n"
                     "    return jnp.zeros((n,)) + jnp.sum(x, axis)[0]\n\n\n"
                     "step = partial(jax.jit, static_argnums=(2,))(pad_to)\n",
                     "step = partial(jax.jit, static_argnums=(2, 1))(pad_to)\n", "step"),
    "helper_of_the_jitted_function": (
        "def helper(x, size):\n    return jnp.zeros((size,)) + jnp.sum(x)\n\n\n"
        "@jax.jit\ndef step(x, n):\n    return helper(x, n + 1) * 2.0\n",
        "@functools.partial(jax.jit, static_argnames=(\"n\",))\ndef step", "step"),
    # a closure (a loss function inside the step) reads the step's parameter: static where the step is jitted
    "closure_of_the_jitted_function": (
        "def step_fn(x, n):\n    def loss(y):\n        return jnp.zeros((n,)) + jnp.sum(y)\n\n"
        "    return loss(x) * 2.0\n\n\nstep = jax.jit(step_fn)\n",
        "step = jax.jit(step_fn, static_argnames=(\"n\",))\n", "step"),
    "closure_reading_the_shape_of_an_outer_array": (
        "def step_fn(x, n):\n    def loss(y):\n        return jnp.zeros((n, x.shape[0])) + jnp.sum(y)\n\n"
        "    return loss(x) * 2.0\n\n\nstep = jax.jit(step_fn)\n",
        "step = jax.jit(step_fn, static_argnames=(\"n\",))\n", "step"),
    "helper_called_from_a_closure": (
        "def helper(x, size):\n    return jnp.zeros((size,)) + jnp.sum(x)\n\n\n"
        "@jax.jit\ndef step(x, n):\n    def loss(y):\n        return helper(y, n) * 2.0\n\n"
        "    return jax.grad(lambda y: jnp.sum(loss(y)))(x) + loss(x)[0]\n",
        "@functools.partial(jax.jit, static_argnames=(\"n\",))\ndef step", "step"),
    # a method wrapped bound: static_argnums count from the parameter after `self`
    "bound_method": ("class Model:\n    def __init__(self):\n"
                     "        self.step = jax.jit(self.pad, static_argnums=(2,))\n\n"
                     "    def pad(self, x, n, axis):\n        return jnp.zeros((n,)) + jnp.sum(x, axis)[0]\n\n\n"
                     "step = Model().step\n", "self.step = jax.jit(self.pad, static_argnums=(2, 1))\n", "step"),
    # a module constant bound once to a number is a Python value already: only the parameter turns static
    "size_beside_a_module_constant": (
        "ROWS = 2\n\n\n@jax.jit\ndef step(x, n):\n    cols = n // ROWS\n"
        "    return jnp.zeros((ROWS, cols)) + jnp.sum(x)\n",
        "@functools.partial(jax.jit, static_argnames=(\"n\",))\ndef step", "step"),
    # jax.grad(f)(x, n) calls f(x, n) in the caller's trace, differentiating only argnums (0)
    "helper_differentiated_by_jax_grad": (
        "def loss(x, size):\n    return jnp.sum((jnp.zeros((size,)) + x[0, 0]) ** 2)\n\n\n"
        "@jax.jit\ndef step(x, n):\n    return jax.grad(loss)(x, n)\n",
        "@functools.partial(jax.jit, static_argnames=(\"n\",))\ndef step", "step"),
    "helper_through_value_and_grad_of_other_argnums": (
        "def loss(w, x, size):\n    return jnp.sum((jnp.zeros((size,)) + x[0, 0] * w) ** 2)\n\n\n"
        "@jax.jit\ndef step(x, n):\n    return jax.value_and_grad(loss, argnums=(0, 1))(2.0, x, n)[1][1]\n",
        "@functools.partial(jax.jit, static_argnames=(\"n\",))\ndef step", "step"),
    # jax.jit of jax.grad(f): grad keeps f's signature (functools.wraps), so jit names f's parameters
    "jit_of_jax_grad": (
        "def loss(x, n):\n    return jnp.sum((jnp.zeros((n,)) + x[0, 0]) ** 2)\n\n\nstep = jax.jit(jax.grad(loss))\n",
        "step = jax.jit(jax.grad(loss), static_argnames=(\"n\",))\n", "step"),
    # jax.vmap hands an argument it maps with None on as it is (a Python int stays one)
    "helper_mapped_by_vmap_with_in_axes_none": (
        "def crop(row, size):\n    return jnp.zeros((size,)) + row[0]\n\n\n"
        "@jax.jit\ndef step(x, n):\n    return jax.vmap(crop, (0, None))(x, n)\n",
        "@functools.partial(jax.jit, static_argnames=(\"n\",))\ndef step", "step"),
}


@pytest.mark.parametrize("name", sorted(JIT_SITES))
def test_a_size_parameter_becomes_static_where_the_function_is_jitted(name, tmp_path):
    body, expected, entry = JIT_SITES[name]
    source = HEADER + body
    fixed = static_fix_at(source, "jnp.zeros", "XLA207")
    assert expected in fixed, fixed
    modules = []
    for tag, text in (("orig", source), ("fixed", fixed)):
        path = tmp_path / f"{tag}_{name}.py"
        path.write_text(text, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(f"{tag}_{name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        modules.append(getattr(module, entry))
    original, rewritten = modules
    x = jnp.arange(6.0).reshape(2, 3)
    for n in (2, 5):
        with jax.disable_jit():
            expected_value = original(x, n, 1) if "axis" in body else original(x, n)
        got = rewritten(x, n, 1) if "axis" in body else rewritten(x, n)
        np.testing.assert_allclose(np.asarray(got), np.asarray(expected_value))
        if "axis" in body:  # passed by keyword, as jax.jit's signature reading allows
            np.testing.assert_allclose(np.asarray(rewritten(x, n=n, axis=1)), np.asarray(expected_value))


def test_a_size_is_not_made_static_where_the_function_is_handed_on_unseen():
    for body in ("def pad_to(x, n):\n    return jnp.zeros((n,))\n\n\nstep = jax.jit(jax.vmap(pad_to))\n",
                 "def pad_to(x, n):\n    return jnp.zeros((n,))\n\n\n"
                 "STATIC = (1,)\nstep = jax.jit(pad_to, static_argnums=STATIC)\n",
                 "def helper(x, n):\n    return jnp.zeros((n,))\n\n\n@jax.jit\ndef step(x):\n"
                 "    return helper(x, jnp.sum(x > 0))\n",
                 "def helper(x, n):\n    return jnp.zeros((n,))\n\n\nfns = [helper]\n\n\n@jax.jit\ndef step(x, n):\n"
                 "    return helper(x, n)\n",
                 # a closure variable the enclosing function rebinds from data, or a local of the closure's own
                 "@jax.jit\ndef step(x, n):\n    n = n + jnp.sum(x > 0)\n\n    def loss(y):\n"
                 "        return jnp.zeros((n,))\n\n    return loss(x)\n",
                 "@jax.jit\ndef step(x, n):\n    def loss(y, n=jnp.sum(x > 0)):\n"
                 "        return jnp.zeros((n,))\n\n    return loss(x)\n",
                 # the size's parameter among what jax.grad differentiates (a tracer), or mapped by jax.vmap
                 "def loss(x, n):\n    return jnp.sum(jnp.zeros((n,)) + x)\n\n\n@jax.jit\ndef step(x, n):\n"
                 "    return jax.grad(loss, argnums=1)(x, n)\n",
                 "def loss(x, n):\n    return jnp.sum(jnp.zeros((n,)) + x)\n\n\n@jax.jit\ndef step(x, n):\n"
                 "    return jax.vmap(loss)(x, n)\n",
                 "def loss(x, n):\n    return jnp.sum(jnp.zeros((n,)) + x)\n\n\n"
                 "step = jax.jit(jax.grad(loss, argnums=(0, 1)))\n",
                 # jax.vmap maps the size (in_axes 0), or every keyword argument
                 "def crop(row, size):\n    return jnp.zeros((size,)) + row\n\n\n"
                 "@jax.jit\ndef step(x, n):\n    return jax.vmap(crop, in_axes=(0, 0))(x, n)\n",
                 "def crop(row, size):\n    return jnp.zeros((size,)) + row\n\n\n"
                 "@jax.jit\ndef step(x, n):\n    return jax.vmap(crop, in_axes=(0, None))(x, size=n)\n",
                 # a module name bound twice, or rebound through `global`, is no constant
                 "ROWS = 2\nROWS = 3\n\n\n@jax.jit\ndef step(x, n):\n    return jnp.zeros((ROWS, n))\n",
                 "ROWS = 2\n\n\ndef grow():\n    global ROWS\n    ROWS = 4\n\n\n@jax.jit\ndef step(x, n):\n"
                 "    return jnp.zeros((ROWS, n))\n"):
        source = HEADER + body
        tree = ast.parse(source)
        node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.zeros")
        (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
        assert result.fix is None or not result.fix.edits, body


# XLA207: a window of static length at a traced start -> jax.lax.dynamic_slice_in_dim
WINDOWS = {
    "window_after_a_traced_start": ("def f(b, m):\n    s = jnp.argmax(m)\n    return b[s:s + 2] * 2.0\n",
                                    "b[s:s + 2]", "return jax.lax.dynamic_slice_in_dim(b, s, 2) * 2.0\n"),
    "window_before_a_traced_stop_on_axis_1": (
        "def f(b, m):\n    e = jnp.argmax(m) + 2\n    return jnp.stack([b, m])[:, e - 2:e]\n",
        "jnp.stack([b, m])[:, e - 2:e]",
        "return jax.lax.dynamic_slice_in_dim(jnp.stack([b, m]), e - 2, 2, axis=1)\n"),
}


@pytest.mark.parametrize("name", sorted(WINDOWS))
def test_a_window_at_a_traced_start_is_a_dynamic_slice_and_the_fix_compiles(name, tmp_path):
    check_mask_fix(name, *WINDOWS[name], tmp_path,  # windows inside the array
                   [[0.0, 0.7, 2.0, 0.7], [3.0, 1.0, 1.0, 1.0], [0.0, 0.0, 1.0, -1.0]], Applicability.UNSAFE,
                   "clamps the start")


def test_a_window_of_traced_length_is_not_a_dynamic_slice():
    assert mask_fix(HEADER + "def f(b, m):\n    s = jnp.argmax(m)\n    return b[s:s + s]\n", "b[s:s + s]") is None
    assert mask_fix(HEADER + "def f(b, m):\n    s = jnp.argmax(m)\n    return b[s:s + 2, s]\n", "b[s:s + 2, s]") is None


# XLA207: a size read through local names bound once to Python-valued expressions of parameters
# (their jax.numpy calls with a Python equivalent rewritten into it)
def test_a_size_through_a_local_binding_of_a_parameter_becomes_static_and_the_fix_compiles(tmp_path):
    source = HEADER + ("@jax.jit\ndef fold(x, n):\n    rows = jnp.where(n < x.shape[0], n, x.shape[0])\n"
                       "    cols = jnp.maximum(x.shape[0] // rows, 1)\n"
                       "    return jnp.reshape(x, (rows, cols)) * rows\n")
    fixed = static_fix_at(source, "jnp.reshape", "XLA207")
    assert '@functools.partial(jax.jit, static_argnames=("n",))\ndef fold' in fixed
    assert "    rows = (n if n < x.shape[0] else x.shape[0])\n    cols = max(x.shape[0] // rows, 1)\n" in fixed
    original, rewritten = load("orig_fold", source, tmp_path), load("fixed_fold", fixed, tmp_path)
    x = jnp.arange(12.0)
    for n in (3, 4, 12, 20):
        with jax.disable_jit():
            expected = original(x, n)
        np.testing.assert_allclose(np.asarray(rewritten(x, n)), np.asarray(expected))


@pytest.mark.parametrize("unpacked", ["shape", "parameter", "starred"])
def test_a_size_through_names_unpacked_from_a_shape_or_a_parameter_becomes_static_and_the_fix_compiles(
        unpacked, tmp_path):
    # `b, t = x.shape` (static facts beside the size) and `h, w = size` (a tuple parameter, hashable)
    body = "@jax.jit\ndef pad(x, n):\n" + {
        "shape": "    b, t = x.shape\n    return jnp.concatenate([x, jnp.zeros((b, n))], axis=1)\n",
        "parameter": "    h, w = n\n    return jnp.zeros((h, w)) + x[0, 0]\n",
        # `(*x.shape[:-1], n)`: the starred leading dimensions are static facts
        "starred": "    return jnp.concatenate([x, jnp.zeros((*x.shape[:-1], n))], axis=-1)\n",
    }[unpacked]
    source = HEADER + body
    fixed = static_fix_at(source, "jnp.zeros", "XLA207")
    assert '@functools.partial(jax.jit, static_argnames=("n",))\ndef pad' in fixed
    original, rewritten = load(f"orig_unpacked_{unpacked}", source, tmp_path), load(
        f"fixed_unpacked_{unpacked}", fixed, tmp_path)
    x = jnp.arange(6.0).reshape(2, 3)
    for n in ((2, 3), (1, 4)) if unpacked == "parameter" else (1, 3):
        with jax.disable_jit():
            expected = original(x, n)
        np.testing.assert_allclose(np.asarray(rewritten(x, n)), np.asarray(expected))


def test_a_parameter_rebound_once_from_python_values_becomes_static_and_the_fix_compiles(tmp_path):
    # `k = min(k, x.shape[0])`: the read inside the rebinding is the parameter, the later one the rebinding
    source = HEADER + ("@jax.jit\ndef top(x, k):\n    k = jnp.minimum(k, x.shape[0])\n"
                       "    return jnp.concatenate([jnp.zeros((k,)), x]) + k\n")
    fixed = static_fix_at(source, "jnp.zeros", "XLA207")
    assert '@functools.partial(jax.jit, static_argnames=("k",))\ndef top' in fixed
    assert "    k = min(k, x.shape[0])\n" in fixed
    original, rewritten = load("orig_rebound", source, tmp_path), load("fixed_rebound", fixed, tmp_path)
    x = jnp.array([3.0, -1.0, 2.0, 0.5])
    for k in (1, 3, 9):
        with jax.disable_jit():
            expected = original(x, k)
        np.testing.assert_allclose(np.asarray(rewritten(x, k)), np.asarray(expected))


@pytest.mark.parametrize("body", [
    "@jax.jit\ndef cut(x, n):\n    return x[:n] * 2.0\n",
    "@jax.jit\ndef cut(x, n):\n    return x[:n, n - 1:] + x[0, 0]\n",
    "@jax.jit\ndef cut(x, n):\n    t = x.shape[0] - n\n    return jnp.tanh(x[:t])\n",
])
def test_a_slice_bound_of_parameters_becomes_static_and_the_fix_compiles(body, tmp_path):
    # jax.jit needs slice entries as Python ints ('Slice entries must be static integers')
    source = HEADER + body
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree)
                if isinstance(n, ast.Subscript) and isinstance(n.slice, (ast.Slice, ast.Tuple)))
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
    assert result.fix.applicability is Applicability.UNSAFE and "compiles the function anew" in result.fix.message
    fixed = apply_edits(source, result.fix.edits)
    assert '@functools.partial(jax.jit, static_argnames=("n",))\ndef cut' in fixed
    tag = str(abs(hash(body)))
    original, rewritten = load(f"orig_cut{tag}", source, tmp_path), load(f"fixed_cut{tag}", fixed, tmp_path)
    x = jnp.arange(12.0).reshape(4, 3) * 0.25
    for n in (1, 2, 3):
        with jax.disable_jit():
            expected = original(x, n)
        np.testing.assert_allclose(np.asarray(rewritten(x, n)), np.asarray(expected), rtol=1e-6)


def test_a_slice_read_by_a_masked_reduction_or_a_static_window_keeps_that_fix():
    for body, expected in (("@jax.jit\ndef f(x, n):\n    return jnp.sum(x[:n])\n", "where="),
                           ("@jax.jit\ndef f(x, s):\n    return x[s:s + 2] * 2.0\n", "dynamic_slice_in_dim")):
        source = HEADER + body
        tree = ast.parse(source)
        node = next(n for n in ast.walk(tree) if isinstance(n, ast.Subscript))
        (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
        fixed = apply_edits(source, result.fix.edits)
        assert expected in fixed and "static_argnames" not in fixed, fixed


def test_a_size_through_a_binding_in_a_branch_or_read_as_an_array_is_not_made_static():
    for body in ("@jax.jit\ndef f(x, n):\n    if x.shape[0] > 2:\n        m = jnp.minimum(n, 4)\n"
                 "    else:\n        m = n\n    return jnp.zeros((m,))\n",
                 "@jax.jit\ndef f(x, n):\n    m = jnp.minimum(n, 4)\n    return jnp.zeros((m,)) + m.astype(x.dtype)\n",
                 "@jax.jit\ndef f(x, n):\n    m = jnp.minimum(n, jnp.sum(x > 0))\n    return jnp.zeros((m,))\n",
                 # unpacked from data, unpacked twice, or unpacked in a branch
                 "@jax.jit\ndef f(x, n):\n    m, k = jnp.argmax(x), n\n    return jnp.zeros((m, k))\n",
                 "@jax.jit\ndef f(x, n):\n    m, k = n\n    m, k = k, m\n    return jnp.zeros((m, k))\n",
                 "@jax.jit\ndef f(x, n):\n    if x.shape[0] > 2:\n        m, k = n\n    return jnp.zeros((m, k))\n",
                 # a parameter rebound twice, or in a branch
                 "@jax.jit\ndef f(x, n):\n    n = n + 1\n    n = n * 2\n    return jnp.zeros((n,))\n",
                 "@jax.jit\ndef f(x, n):\n    if x.shape[0] > 2:\n        n = n + 1\n    return jnp.zeros((n,))\n"):
        source = HEADER + body
        tree = ast.parse(source)
        node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.zeros")
        (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
        assert result.fix is None or not result.fix.edits, body


# XLA101: `if c: return a` inside a Python loop over a static range -> a flag and jax.numpy.where
EARLY_RETURN_IN_LOOP = ("def escape(c):\n    z = jnp.zeros_like(c)\n    for i in range(6):\n        z = z * z + c\n"
                        "        if jnp.abs(z) > 2.0:\n            return jnp.float32(i) * c\n"
                        "    return jnp.float32(6.0) * c\n")


def test_an_early_return_in_an_unrolled_loop_is_selected_and_the_fix_compiles(tmp_path):
    source = HEADER + EARLY_RETURN_IN_LOOP
    fix = fixed_source(source)
    original, compiled = original_and_compiled_fix(
        "escape", source, fix, "    returned, returned_value = False, None\n    for i in range(6):\n",
        "every iteration of the loop", tmp_path)

    @settings(max_examples=60, deadline=None)
    @given(st.floats(-3, 3, width=32, allow_subnormal=False))
    def check(value):
        c = jnp.float32(value)
        with jax.disable_jit():
            expected = original(c)
        np.testing.assert_allclose(np.asarray(compiled(c)), np.asarray(expected), rtol=1e-6)

    check()


def test_an_early_return_in_a_loop_that_breaks_or_calls_python_or_iterates_data_is_not_selected():
    for old, new in (("        z = z * z + c\n", "        z = z * z + c\n        if i > 3:\n            break\n"),
                     ("        z = z * z + c\n", "        z = z * z + c\n        print(i)\n"),
                     ("range(6)", "[1, 2, 3]"),
                     ("    return jnp.float32(6.0) * c\n", "    z = z + 1.0\n")):
        source = HEADER + EARLY_RETURN_IN_LOOP.replace(old, new)
        fix = fixed_source(source)
        assert fix is None or "every iteration of the loop" not in fix.message, new


# XLA114: lax.switch / lax.cond with branches of different forms, index from parameters -> static,
# the branch picked in Python (lax.switch clamps its index: so does the fix)
STATIC_BRANCHES = {
    "switch": ("@jax.jit\ndef pool(x, mode):\n"
               "    return lax.switch(mode, [lambda v: jnp.mean(v, axis=0), lambda v: v], x)\n",
               "    return (lambda v: jnp.mean(v, axis=0), lambda v: v)[min(max(int(mode), 0), 1)](x)\n",
               (-1, 0, 1, 5)),
    "cond_through_a_binding": (
        "@jax.jit\ndef pool(x, k):\n    keep = jnp.maximum(k, 0) > 1\n"
        "    return lax.cond(keep, lambda v: v * 2.0, lambda v: jnp.sum(v, axis=0), x)\n",
        "    return ((lambda v: v * 2.0) if keep else (lambda v: jnp.sum(v, axis=0)))(x)\n", (0, 2, 3)),
}


@pytest.mark.parametrize("name", sorted(STATIC_BRANCHES))
def test_a_branch_index_from_parameters_is_static_and_the_fix_compiles(name, tmp_path):
    body, expected, values = STATIC_BRANCHES[name]
    source = "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\n\n" + body
    fixed = static_fix_at(source, f"lax.{name.split('_')[0]}", "XLA114")
    assert expected in fixed and "static_argnames=(" in fixed
    original, rewritten = load(f"orig_{name}", source, tmp_path), load(f"fixed_{name}", fixed, tmp_path)
    x = jnp.arange(6.0).reshape(3, 2)
    for value in values:
        with jax.disable_jit():
            want = original(x, value)
        np.testing.assert_allclose(np.asarray(rewritten(x, value)), np.asarray(want))


def test_a_branch_index_from_data_is_not_made_static():
    source = ("import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\n\n@jax.jit\ndef pool(x):\n"
              "    return lax.switch(jnp.argmax(x[0]), [lambda v: jnp.mean(v, axis=0), lambda v: v], x)\n")
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "lax.switch")
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA114")])
    assert result.fix is None


# XLA101: `if c: break` in a Python loop over a static range -> a flag, and each assignment kept
# once the loop has stopped
BREAKS = {
    "break_after_an_update": ("def halve(x, w):\n    y = x * 1.0\n    total = jnp.sum(x) * 0.0\n"
                              "    for i in range(4):\n"
                              "        y = y * 0.5 + w\n        if jnp.max(jnp.abs(y)) < 1.0:\n            break\n"
                              "        total += jnp.sum(y) * i\n    return y + total\n",
                              "        y = jax.numpy.where(stopped, y, y * 0.5 + w)\n"),
    "break_in_the_else": ("def grow(x, w):\n    out = jnp.zeros_like(x)\n    for i in range(3):\n"
                          "        if jnp.sum(x) > i:\n            out = out + w\n        else:\n            break\n"
                          "    return out\n",
                          "        stopped = jax.numpy.logical_or(stopped, jax.numpy.logical_not(jnp.sum(x) > i))\n"),
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_a_break_in_an_unrolled_loop_is_masked_and_the_fix_compiles(name, tmp_path):
    source = HEADER + BREAKS[name][0]
    original, compiled = original_and_compiled_fix(name, source, fixed_source(source), BREAKS[name][1],
                                                   "every iteration runs", tmp_path)

    @settings(max_examples=40, deadline=None)
    @given(st.lists(st.floats(-3, 3, width=32, allow_subnormal=False), min_size=6, max_size=6))
    def check(values):
        x, w = jnp.asarray(values[:3], dtype=jnp.float32), jnp.asarray(values[3:], dtype=jnp.float32)
        with jax.disable_jit():
            expected = original(x, w)
        np.testing.assert_allclose(np.asarray(compiled(x, w)), np.asarray(expected), rtol=1e-5, atol=1e-6)

    check()


def test_a_break_in_a_loop_that_binds_new_names_or_nests_blocks_is_not_masked():
    for old, new in (("    total = jnp.sum(x) * 0.0\n", ""),  # `total` first bound in the loop
                     ("        y = y * 0.5 + w\n", "        if jnp.sum(w) > 0:\n            y = y * 0.5 + w\n"),
                     ("range(4)", "[0, 1, 2, 3]")):
        source = HEADER + BREAKS["break_after_an_update"][0].replace(old, new)
        tree = ast.parse(source)
        node = next(n for n in ast.walk(tree) if isinstance(n, ast.If) and isinstance(n.body[0], ast.Break))
        (result,) = attach_fixes(source, tree, [diagnostic_at(node.test, "XLA101")])
        assert result.fix is None or "every iteration runs" not in result.fix.message, new


def test_statements_before_an_early_return_in_a_loop_move_into_a_local_function(tmp_path):
    source = HEADER + EARLY_RETURN_IN_LOOP.replace(
        "            return jnp.float32(i) * c\n", "            z = z - 1.0\n            w = z * 2.0\n"
        "            return jnp.float32(i) * c + w\n")
    original, compiled = original_and_compiled_fix(
        "escape_statements", source, fixed_source(source),
        "        def returned_branch(z):\n            z = z - 1.0\n            w = z * 2.0\n",
        "every iteration of the loop",
        tmp_path)
    for value in (-2.5, -0.3, 0.0, 0.4, 1.7):
        c = jnp.float32(value)
        with jax.disable_jit():
            expected = original(c)
        np.testing.assert_allclose(np.asarray(compiled(c)), np.asarray(expected), rtol=1e-6)


# A module that imports from JAX only by other names (`from jax import jit`, `import jax.numpy as jnp`) gets
# the same fixes, with `import jax` added for the `jax.` names they write; none where `jax` names something else
NO_JAX_NAME = {
    "from_jax_import_jit": ("from jax import jit\nimport jax.numpy as jnp\n\n\n@jit\ndef f(x):\n"
                            "    if jnp.sum(x) > 0:\n        return x * 2.0\n    return x - 1.0\n"),
    "jax_numpy_imported_from_jax": ("from jax import jit, numpy as jnp\n\n\n@jit\ndef f(x):\n"
                                    "    return jnp.sqrt(jnp.abs(x)) if jnp.max(x) > 1.0 else x\n"),
}


@pytest.mark.parametrize("name", sorted(NO_JAX_NAME))
def test_a_module_without_the_jax_name_gets_the_fix_and_an_import(name, tmp_path):
    source = NO_JAX_NAME[name]
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, (ast.If, ast.IfExp)))
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA101")])
    assert result.fix is not None and result.fix.applicability is Applicability.UNSAFE
    fixed = apply_edits(source, result.fix.edits)
    assert fixed.startswith("import jax\nfrom jax import jit") and "jax.lax.cond(" in fixed
    original, rewritten = load(f"orig_{name}", source, tmp_path), load(f"fixed_{name}", fixed, tmp_path)
    for x in (jnp.asarray([1.0, 2.0, -0.5]), jnp.asarray([-3.0, 0.5, 0.25])):
        with jax.disable_jit():
            expected = original(x)
        np.testing.assert_allclose(np.asarray(rewritten(x)), np.asarray(expected), rtol=1e-6)


def test_a_module_that_binds_jax_to_something_else_gets_no_jax_fix():
    source = ("from jax import jit\nimport jax.numpy as jnp\n\njax = None\n\n\n@jit\ndef f(x):\n"
              "    if jnp.sum(x) > 0:\n        return x * 2.0\n    return x - 1.0\n")
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.If))
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA101")])
    assert result.fix is None or not result.fix.edits


# XLA207: a size computed by jax.numpy math from Python values (static shapes, a helper's parameter that every
# caller passes one): traced under jax.jit even so, so the math becomes Python's (and `import math`)
STAGED_MATH = {
    "square_side_from_a_shape": (
        "@jax.jit\ndef tile(x):\n    side = int(jnp.sqrt(x.shape[0]))\n"
        "    return jnp.zeros((side, side)) + jnp.sum(x)\n",
        "jnp.zeros", "    side = int(math.sqrt(x.shape[0]))\n", "tile"),
    "levels_of_a_helper_called_with_a_shape": (
        "def levels(n):\n    depth = jnp.log2(n)\n    return jnp.arange(depth) * 2.0\n\n\n"
        "@jax.jit\ndef pyramid(x):\n    return levels(x.shape[-1]).sum() + x.sum()\n",
        "jnp.arange", "    depth = math.log2(n)\n", "pyramid"),
}


@pytest.mark.parametrize("name", sorted(STAGED_MATH))
def test_a_size_from_jnp_math_on_python_values_becomes_python_math(name, tmp_path):
    body, callee, expected, entry = STAGED_MATH[name]
    source = HEADER + body
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == callee)
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
    assert result.fix is not None and result.fix.applicability is Applicability.UNSAFE
    assert "float64" in result.fix.message and "compiles the function anew" not in result.fix.message
    fixed = apply_edits(source, result.fix.edits)
    assert fixed.startswith("import math\nimport jax\n") and expected in fixed
    functions = []
    for tag, text in (("orig", source), ("fixed", fixed)):
        path = tmp_path / f"{tag}_{name}.py"
        path.write_text(text, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(f"{tag}_{name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        functions.append(getattr(module, entry))
    original, rewritten = functions
    for x in (jnp.arange(4.0), jnp.arange(16.0).reshape(2, 8) / 3.0):
        with jax.disable_jit():
            expected_value = original(x)
        np.testing.assert_allclose(np.asarray(rewritten(x)), np.asarray(expected_value), rtol=1e-6)


def test_a_size_cast_with_astype_from_jnp_math_on_module_constants_becomes_python(tmp_path):
    # jax issue 5208: `jnp.maximum(jnp.abs((TF - T0) / DT), 1).astype(int)` of module constants (bound by
    # unpacking) is traced under jax.jit; Python's max/abs/int give the number, so the grid is static
    source = (HEADER + "T0, TF, DT = 0.0, 1.0, 0.1\n\n\n@jax.jit\ndef grid(y):\n"
              "    n = jnp.maximum(jnp.abs((TF - T0) / DT), 1).astype(int)\n"
              "    return jnp.sum(jnp.linspace(T0, TF, n + 1)) * y\n")
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.linspace")
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
    assert result.fix is not None and result.fix.applicability is Applicability.UNSAFE
    assert "truncate" in result.fix.message and "compiles the function anew" not in result.fix.message
    fixed = apply_edits(source, result.fix.edits)
    assert "    n = int(max(abs((TF - T0) / DT), 1))\n" in fixed
    original, rewritten = load("orig_grid", source, tmp_path), load("fixed_grid", fixed, tmp_path)
    for y in (jnp.asarray([1.0, -2.0]), jnp.asarray(0.5)):
        with jax.disable_jit():
            expected = original(y)
        np.testing.assert_allclose(np.asarray(rewritten(y)), np.asarray(expected), rtol=1e-6)


# XLA301/XLA302 inside `print(...)`: the read goes, and jax.debug.print formats the array at run time
PRINTS = {
    "f_string_with_a_spec": ("def step(b):\n    loss = jnp.sum(b * b)\n    print(f'loss = {loss.item():.3f}')\n"
                             "    return loss\n", "loss.item()", "XLA301",
                             "    jax.debug.print('loss = {:.3f}', loss)\n", "loss = 5.000"),
    "arguments_joined_by_a_space": ("def step(b):\n"
                                    "    print('peak', float(jnp.max(b)), f'{{n}}={int(jnp.argmax(b))}')\n"
                                    "    return b * 2.0\n", "float(jnp.max(b))", "XLA302",
                                    "    jax.debug.print('peak {} {{n}}={}', jnp.max(b), "
                                    "jnp.argmax(b).astype(jax.numpy.int32))\n", "peak 2.0 {n}=1"),
}


@pytest.mark.parametrize("name", sorted(PRINTS))
def test_a_printed_host_read_becomes_a_debug_print_and_the_fix_compiles(name, tmp_path, capfd):
    body, flagged, code, expected, printed = PRINTS[name]
    source = HEADER + body
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.expr) and ast.get_source_segment(source, n) == flagged)
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, code)])
    original, compiled = original_and_compiled_fix(name, source, result.fix, expected, "each time the compiled",
                                                   tmp_path)
    b = jnp.asarray([1.0, 2.0, 0.0, 0.0], dtype=jnp.float32)
    with jax.disable_jit():
        expected_out = original(b)
    capfd.readouterr()
    out = compiled(b)
    jax.effects_barrier()
    assert printed in capfd.readouterr().out
    np.testing.assert_allclose(np.asarray(out), np.asarray(expected_out))


def test_a_print_with_keywords_or_a_nested_spec_is_not_rewritten():
    for body, flagged in (("def f(b):\n    print(b.sum().item(), end='')\n    return b\n", "b.sum().item()"),
                          ("def f(b, w):\n    print(f'{b.sum().item():{w}}')\n    return b\n", "b.sum().item()")):
        source = HEADER + body
        tree = ast.parse(source)
        node = next(n for n in ast.walk(tree)
                    if isinstance(n, ast.expr) and ast.get_source_segment(source, n) == flagged)
        (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA301")])
        assert result.fix is None or not result.fix.edits


def test_a_size_from_a_field_of_a_registered_dataclass_makes_the_field_static_and_the_fix_compiles(tmp_path):
    source = ("import dataclasses\n" + HEADER + "@jax.tree_util.register_dataclass\n@dataclasses.dataclass\n"
              "class Params:\n    scale: float\n    window: int  # frames\n\n\n"
              "@jax.jit\ndef smooth(x, p: Params):\n    kernel = jnp.ones((p.window,)) / p.window\n"
              "    return jnp.convolve(x, kernel, mode='same') * p.scale\n")
    fixed = static_fix_at(source, "jnp.ones", "XLA207")
    assert "    window: int = dataclasses.field(metadata=dict(static=True))  # frames\n" in fixed
    assert "@jax.jit\ndef smooth" in fixed
    modules = []
    for name, text in (("orig_smooth", source), ("fixed_smooth", fixed)):
        (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(name, tmp_path / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        modules.append(module)
    original, rewritten = modules
    x = jnp.sin(jnp.arange(12.0))
    for window in (3, 5):
        with jax.disable_jit():
            expected = original.smooth(x, original.Params(2.0, window))
        np.testing.assert_allclose(np.asarray(rewritten.smooth(x, rewritten.Params(2.0, window))),
                                   np.asarray(expected), rtol=1e-5)


def test_a_field_with_a_default_or_a_parameter_without_its_dataclass_is_not_made_static():
    for fields, annotation in (("    window: int = 3\n", ": Params"), ("    window: int\n", "")):
        source = ("import dataclasses\n" + HEADER + "@jax.tree_util.register_dataclass\n@dataclasses.dataclass\n"
                  f"class Params:\n{fields}\n\n@jax.jit\ndef smooth(x, p{annotation}):\n"
                  "    return x + jnp.ones((p.window,))\n")
        tree = ast.parse(source)
        node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.ones")
        (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
        assert result.fix is None or not result.fix.edits


# XLA101 on a test made only of option parameters: those parameters static, Python picks the branch
def test_a_condition_on_option_parameters_makes_them_static_and_the_fix_compiles(tmp_path):
    source = HEADER + ("@jax.jit\ndef head(x, training, mode):\n    outs = [x]\n    if training and mode > 1:\n"
                       "        outs.append(x * 2.0)\n    return jnp.concatenate(outs)\n")
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.If))
    (result,) = attach_fixes(source, tree, [diagnostic_at(node.test, "XLA101")])
    fix = result.fix
    assert fix.applicability is Applicability.UNSAFE and "compiles the function anew" in fix.message
    fixed = apply_edits(source, fix.edits)
    assert '@functools.partial(jax.jit, static_argnames=("training", "mode"))\ndef head' in fixed
    original, rewritten = load("orig_head", source, tmp_path), load("fixed_head", fixed, tmp_path)
    x = jnp.arange(3.0)
    for training, mode in ((True, 2), (True, 1), (False, 3)):  # a list grown in one branch: no lax.cond
        with jax.disable_jit():
            expected = original(x, training, mode)
        np.testing.assert_allclose(np.asarray(rewritten(x, training, mode)), np.asarray(expected))


def test_a_condition_on_a_parameter_also_read_as_data_is_left_to_lax_cond():
    source = HEADER + "@jax.jit\ndef scale(x, n):\n    if n > 2:\n        return x * n\n    return x\n"
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.If))
    (result,) = attach_fixes(source, tree, [diagnostic_at(node.test, "XLA101")])
    assert "jax.lax.cond(n > 2" in apply_edits(source, result.fix.edits)


# XLA207: a segment reduction without num_segments whose result is combined with an array of the
# segment count's size -> num_segments= that array's leading size (rewrites/jax_segments.py)
SEGMENTS = {
    "concatenated_beside_the_nodes": (
        "def pool(nodes, messages, receivers):\n    aggregated = jax.ops.segment_sum(messages, receivers)\n"
        "    return jnp.concatenate([nodes, jnp.tanh(aggregated)], axis=-1)\n",
        "jax.ops.segment_sum(messages, receivers)",
        "aggregated = jax.ops.segment_sum(messages, receivers, num_segments=nodes.shape[0])\n", "axis 0"),
    "added_to_the_nodes_in_place": (
        "def pool(nodes, messages, receivers):\n    nodes = nodes + 2.0 * jax.ops.segment_max(messages, receivers)\n"
        "    return nodes\n",
        "jax.ops.segment_max(messages, receivers)",
        "nodes = nodes + 2.0 * jax.ops.segment_max(messages, receivers, num_segments=nodes.shape[0])\n", "broadcasts"),
    "concatenated_on_axis_1": (
        "def pool(nodes, messages, receivers):\n"
        "    return jnp.concatenate((jax.ops.segment_sum(messages, receivers), nodes), 1)\n",
        "jax.ops.segment_sum(messages, receivers)",
        "jax.ops.segment_sum(messages, receivers, num_segments=nodes.shape[0]), nodes), 1)\n", ""),
}


def segment_fix(source: str, flagged: str):
    return mask_fix(source, flagged)


@pytest.mark.parametrize("name", sorted(SEGMENTS))
def test_a_segment_count_from_the_array_the_result_joins_compiles_and_matches_the_original(name, tmp_path):
    body, flagged, expected, reason = SEGMENTS[name]
    source = HEADER + body
    fix = segment_fix(source, flagged)
    assert fix is not None and reason in fix.message
    assert fix.applicability is (Applicability.SAFE if not reason else Applicability.UNSAFE)
    fixed = apply_edits(source, fix.edits)
    assert expected in fixed
    original, compiled = load(f"orig_{name}", source, tmp_path), jax.jit(load(f"fixed_{name}", fixed, tmp_path))

    @settings(max_examples=30, deadline=None)
    # one id is 3, the nodes' last row: the original then has the nodes' 4 segments and returns (ids drawn
    # from -1..4 left it 4 rows about a quarter of the time, and Hypothesis failed its filter health check)
    @given(st.lists(VALUES, min_size=10, max_size=10),
           st.lists(st.integers(-1, 3), min_size=4, max_size=4).flatmap(lambda ids: st.permutations([*ids, 3])))
    def check(values, ids):
        nodes = jnp.asarray(values[:8], dtype=jnp.float32).reshape(4, 2)
        messages = jnp.asarray(values[:10], dtype=jnp.float32).reshape(5, 2)
        receivers = jnp.asarray(ids, dtype=jnp.int32)
        hypothesis.assume(reason != "broadcasts" or max(ids) > 0)  # one segment broadcasts: the unsafe case
        with jax.disable_jit():
            try:
                expected_out = original(nodes, messages, receivers)
            except (TypeError, ValueError):  # the segment count is not the nodes': the original raises
                hypothesis.assume(False)
        np.testing.assert_allclose(np.asarray(compiled(nodes, messages, receivers)), np.asarray(expected_out),
                                   rtol=1e-6, equal_nan=True)

    check()


def test_a_segment_count_with_no_partner_or_a_partner_rebound_after_it_is_not_read():
    body = "def pool(nodes, messages, receivers):\n    return jax.ops.segment_sum(messages, receivers)\n"
    assert segment_fix(HEADER + body, "jax.ops.segment_sum(messages, receivers)") is None
    body = ("def pool(nodes, messages, receivers):\n    agg = jax.ops.segment_sum(messages, receivers)\n"
            "    nodes = nodes[:2]\n    return jnp.concatenate([nodes, agg], axis=-1)\n")
    assert segment_fix(HEADER + body, "jax.ops.segment_sum(messages, receivers)") is None
    body = ("def pool(nodes, messages, receivers):\n"
            "    return jnp.concatenate([nodes, jax.ops.segment_sum(messages, receivers)], axis=0)\n")
    assert segment_fix(HEADER + body, "jax.ops.segment_sum(messages, receivers)") is None  # rows stack: any count
    body = ("def pool(nodes, messages, receivers):\n    agg = jax.ops.segment_sum(messages, receivers)\n"
            "    return agg * agg\n")
    assert segment_fix(HEADER + body, "jax.ops.segment_sum(messages, receivers)") is None


def test_a_segment_count_read_from_an_elementwise_operand_says_it_may_be_a_scalar():
    # the nearest operand is read: `scale` here, which may be a Python float with no leading size
    body = ("def pool(nodes, messages, receivers, scale):\n"
            "    return nodes + scale * jax.ops.segment_sum(messages, receivers)\n")
    fix = segment_fix(HEADER + body, "jax.ops.segment_sum(messages, receivers)")
    assert fix is not None and fix.applicability is Applicability.UNSAFE
    assert "num_segments=scale.shape[0]" in apply_edits(HEADER + body, fix.edits)
    assert "a scalar operand" in fix.message


def test_a_segment_count_is_not_read_from_a_consumer_that_only_one_branch_runs():
    # `if concat: return jnp.concatenate(...)`: on the other path the original returns max(ids) + 1 rows,
    # which need not be the nodes' count, so num_segments=nodes.shape[0] would change that output
    body = ("def pool(nodes, messages, receivers, concat):\n    agg = jax.ops.segment_sum(messages, receivers)\n"
            "    if concat:\n        return jnp.concatenate([nodes, agg], axis=1)\n    return agg\n")
    assert segment_fix(HEADER + body, "jax.ops.segment_sum(messages, receivers)") is None
    body = ("def pool(nodes, messages, receivers, concat):\n    agg = jax.ops.segment_sum(messages, receivers)\n"
            "    if not concat:\n        return agg\n    return jnp.concatenate([nodes, agg], axis=1)\n")
    assert segment_fix(HEADER + body, "jax.ops.segment_sum(messages, receivers)") is None
    # ... and on every path it still is
    body = ("def pool(nodes, messages, receivers):\n    agg = jax.ops.segment_sum(messages, receivers)\n"
            "    print(nodes.shape)\n    return jnp.concatenate([nodes, jnp.tanh(agg)], axis=1)\n")
    fix = segment_fix(HEADER + body, "jax.ops.segment_sum(messages, receivers)")
    assert fix is not None and "num_segments=nodes.shape[0]" in apply_edits(HEADER + body, fix.edits)


# order statistics of a selection (no `where=`): the NaN-ignoring twin over the whole array with NaN
# where the mask is false; the fix differs where a selected entry is NaN (it is skipped), so the
# values drawn here are finite or inf
NAN_TWINS = {
    "median_of_a_selection": (
        "def med(b, m):\n    return jnp.median(b[m > 0.5])\n", "b[m > 0.5]",
        "return jnp.nanmedian(jnp.where(m > 0.5, b, jnp.nan))\n"),
    "quantile_of_an_expression_of_a_selection_with_method": (
        "def q90(b, m):\n    keep = m > 0.5\n    return jnp.quantile(jnp.abs(b[keep] - 1.0), 0.9, method='lower')\n",
        "b[keep]", "jnp.nanquantile(jnp.where(keep, jnp.abs((b - 1.0)), jnp.nan), 0.9, method='lower')"),
    "percentile_of_a_named_selection_beside_its_mean": (
        "def spread(b, m):\n    sel = b[m > 0.5]\n    return jnp.percentile(sel, q=75.0) - jnp.mean(sel)\n",
        "b[m > 0.5]", "jnp.nanpercentile(jnp.where(m > 0.5, b, jnp.nan), q=75.0) - jnp.mean(b, where=m > 0.5)"),
}


@pytest.mark.parametrize("name", sorted(NAN_TWINS))
def test_order_statistic_of_a_selection_becomes_its_nan_twin(name, tmp_path):
    body, flagged, expected = NAN_TWINS[name]
    source = HEADER + body
    original, compiled = original_and_compiled_fix(name, source, mask_fix(source, flagged), expected,
                                                   "a NaN among the selected entries", tmp_path)
    finite = st.floats(-3, 3, width=32, allow_subnormal=False) | st.sampled_from([0.0, np.inf, -np.inf])

    @settings(max_examples=40, deadline=None)
    @given(st.lists(finite, min_size=4, max_size=4), st.lists(st.sampled_from([-1.0, 0.0, 0.7, 2.0]),
                                                              min_size=4, max_size=4))
    def check(values, masks):
        b, m = jnp.asarray(values, dtype=jnp.float32), jnp.asarray(masks, dtype=jnp.float32)
        with jax.disable_jit():
            try:
                expected_out = original(b, m)
            except TypeError:  # an empty selection: the original's gather raises, outside the claim
                hypothesis.assume(False)
        np.testing.assert_allclose(np.asarray(compiled(b, m)), np.asarray(expected_out), rtol=1e-5, atol=1e-6,
                                   equal_nan=True)

    check()


@pytest.mark.parametrize("call", [
    "jnp.median(b[m > 0.5], axis=0)",  # an axis: rows of another shape
    "jnp.median(b[m > 0.5], keepdims=True)",
    "jnp.quantile(b[m > 0.5], b[m > 0.5][:1])",  # q reads the selection
    "jnp.quantile(b[m > 0.5])",  # no q: the original raises
])
def test_order_statistics_the_nan_twin_does_not_cover_are_not_rewritten(call):
    fix = mask_fix(HEADER + f"def f(b, m):\n    return {call}\n", "b[m > 0.5]")
    assert fix is None or "nanmedian" not in str(fix) and "nanquantile" not in str(fix)


def test_positions_read_outside_a_reduction_or_rebound_are_not_rewritten():
    head = HEADER + "def f(b, m):\n    idx = jnp.where(m > 0.5)[0]\n"
    assert mask_fix(head + "    return jnp.sum(b[idx]) + idx[0]\n", "jnp.where(m > 0.5)") is None
    assert mask_fix(head + "    m = m * 2.0\n    return jnp.sum(b[idx])\n", "jnp.where(m > 0.5)") is None
    assert mask_fix(head + "    return jnp.sum(b[idx]) + jnp.sum(b)\n", "jnp.where(m > 0.5)") is not None


def test_a_size_read_from_a_mapping_parameter_is_not_made_static():
    """``jnp.tile(t, (1, batch["size"]))``: marking ``batch`` static can never work, since jax.jit hashes a
    static argument and a dict is never hashable (measured, jax 0.10: "Non-hashable static arguments are not
    supported", for a dict of Python ints too), so no fix is offered (fixes28)."""
    import functools

    source = HEADER + "@jax.jit\ndef f(t, batch):\n    return jnp.tile(t[:, None], (1, batch[\"size\"]))\n"
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.tile")
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
    assert result.fix is None or not result.fix.edits
    static = functools.partial(jax.jit, static_argnames=("batch",))(lambda t, batch: t * batch["size"])
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        static(jnp.ones(2), batch={"size": 2})


_GROWN_HISTORY = HEADER + '''STEPS = 4


def rollout(x):
    history0 = jnp.zeros((0,) + x.shape, jnp.float32)

    def step(i, carry):
        history, x = carry
        x = jnp.tanh(x) * 2.0 + i
        history = jnp.concatenate([history, jnp.expand_dims(x, 0)])
        return history, x

    history, last = jax.lax.fori_loop(LO, HI, step, (history0, x))
    return history, last
'''


@pytest.mark.parametrize(("lo", "hi"), [("0", "STEPS"), ("1", "STEPS"), ("2", "2")])  # 2, 2: no step, no fix
@settings(max_examples=25, deadline=None)
@given(values=st.lists(st.floats(-3, 3, width=32) | st.sampled_from([float("inf"), float("nan")]), min_size=1,
                       max_size=3))
def test_a_history_grown_in_fori_loop_becomes_a_buffer_of_the_loop_length(lo, hi, values, tmp_path_factory):
    """fixes28: a fori_loop carry that starts empty and gains one row per step (``jnp.expand_dims(x, 0)``
    here) becomes ``jnp.zeros((hi - lo, ...))`` written at ``i - lo``: under jax.jit it returns the
    original's rows (run without jit, where the loop is Python and the concatenation legal), NaN and
    inf included, for a loop from 0 and from 1. A loop of no steps gets no fix: JAX still traces the body,
    and its write into a buffer of 0 rows raises IndexError."""
    source = _GROWN_HISTORY.replace("LO", lo).replace("HI", hi)
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.concatenate")
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA206")])
    if lo == hi:
        assert result.fix is None or not result.fix.edits
        return
    assert result.fix is not None and result.fix.applicability == Applicability.UNSAFE
    fixed_source = apply_edits(source, result.fix.edits)
    assert "jnp.concatenate" not in fixed_source
    tmp = tmp_path_factory.mktemp("grown")
    original = load(f"grown_original_{lo}_{hi}", source, tmp)
    fixed = load(f"grown_fixed_{lo}_{hi}", fixed_source, tmp)
    x = jnp.asarray(values, jnp.float32)
    with jax.disable_jit():
        expected = original(x)
    got = jax.jit(fixed)(x)
    for e, g in zip(expected, got):
        assert e.shape == g.shape and e.dtype == g.dtype
        # XLA's fused tanh differs from the op-by-op one by ~8 ulp (1.08e-6 relative seen), not the fix
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=1e-5)


def fixed_matches_eager(source: str, tree: ast.Module, node: ast.AST, code: str, name: str, tmp: Path, args: tuple,
                        rtol: float = 1e-5, atol: float = 1e-6) -> str:
    """The UNSAFE fix of ``code`` at ``node``, its jitted function compared with the original run without jit
    on ``args`` (every output's shape, dtype and values); the fixed source."""
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, code)])
    assert result.fix is not None and result.fix.applicability == Applicability.UNSAFE
    fixed_source = apply_edits(source, result.fix.edits)
    original = load(f"{name}_original", source, tmp)
    fixed = load(f"{name}_fixed", fixed_source, tmp)
    with jax.disable_jit():
        expected = original(*args)
    got = jax.jit(fixed)(*args)
    for e, g in zip(jax.tree_util.tree_leaves(expected), jax.tree_util.tree_leaves(got), strict=True):
        assert e.shape == g.shape and e.dtype == g.dtype
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=rtol, atol=atol)
    return fixed_source


_WINDOW_HISTORY = HEADER + '''WINDOW = 3


def sample(x, steps, order=2):
    def body(i, carry):
        x, history = carry
        x = jnp.tanh(x) * 1.5 + i * 0.25
        history = jnp.concatenate([history, x[None]], axis=0)[-W:]
        coeff = READ
        x = x - 0.5 * coeff
        return x, history

    history = jnp.zeros((0,) + x.shape)
    x, _ = jax.lax.fori_loop(LO, LO + steps.shape[0], body, (x, history))
    return x
'''


@pytest.mark.parametrize(("window", "read", "lo"), [
    ("order", "jnp.mean(history, axis=0)", "0"),
    ("WINDOW", "history.mean(axis=0)", "1"),
    ("order", "jnp.sum(history, 0) + history.mean(0)", "1"),
    ("1", "jnp.mean(history, axis=0)", "0"),
])
@settings(max_examples=20, deadline=None)
@given(values=st.lists(st.floats(-3, 3, width=32), min_size=1, max_size=3), steps=st.integers(1, 6))
def test_a_sliding_window_history_in_fori_loop_starts_as_its_window_of_zero_rows(window, read, lo, values, steps,
                                                                                  tmp_path_factory):
    """fixes31: a fori_loop carry that starts empty, gains a row per step and is cut back to its last ``W``
    rows (``jnp.concatenate([h, x[None]])[-W:]``) starts as ``W`` zero rows, and its means over axis 0
    become sums divided by ``jnp.minimum(i - lo + 1, W)``: under jax.jit it gives what the original gives
    without jit (where the loop is Python and the growing carry legal), for loops shorter and longer than
    the window, a window from a parameter, a module constant and a literal."""
    source = _WINDOW_HISTORY.replace("READ", read).replace("LO", lo).replace("[-W:]", f"[-{window}:]")
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Call)
                and ast.unparse(n.value.func) == "jnp.concatenate")
    tag = f"window_{window}_{lo}_{abs(hash(read))}"
    fixed_source = fixed_matches_eager(source, tree, node, "XLA206", tag, tmp_path_factory.mktemp("window"),
                                       (jnp.asarray(values, jnp.float32), jnp.zeros(steps)), rtol=2e-5)
    assert f"jnp.zeros(({window},) + x.shape)" in fixed_source and ".mean(" not in fixed_source


@pytest.mark.parametrize("change", [
    ("coeff = READ", "coeff = jnp.max(history, axis=0)"),  # the zero rows would count
    ("coeff = READ", "coeff = history[0]"),  # the first row is a zero row until the window fills
    ("coeff = READ\n", "coeff = jnp.mean(history, axis=0)\n        h = history[-1]\n"),
    ("x, _ = jax.lax", "x, history = jax.lax"),  # the final window is read after the loop: `return x` ...
    ("[-W:]", "[-x.shape[0]:]"),  # the window is not a number the start can read
    ("[-W:]", "[-0:]"),  # `[-0:]` keeps every row
    ("    x, history = carry\n", "    x, history = carry\n        coeff0 = jnp.mean(history, axis=0)\n"),  # before
])
def test_a_sliding_window_read_otherwise_is_not_rewritten(change):
    source = _WINDOW_HISTORY.replace("LO", "0").replace("[-W:]", "[-order:]") if change[0] != "[-W:]" else \
        _WINDOW_HISTORY.replace("LO", "0")
    source = source.replace(*change).replace("READ", "jnp.mean(history, axis=0)")
    if change[0] == "x, _ = jax.lax":
        source = source.replace("    return x\n", "    return x, history\n")
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Call)
                and ast.unparse(n.value.func) == "jnp.concatenate")
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA206")])
    assert result.fix is None or not result.fix.edits


@pytest.mark.parametrize("body", [
    "    r = jnp.repeat(x, c, axis=0)\n    return r.mean(axis=0)\n",
    "    r = jnp.repeat(x, c, axis=0)\n    return 2.0 / jnp.mean(r, 0) + 1.0\n",
    "    return jnp.sum(jnp.repeat(x, c, axis=0), axis=0)\n",
    "    y = x.T\n    r = jnp.repeat(y, c, axis=-1)\n    return jnp.mean(r, axis=-1)\n",
    "    r = jnp.repeat(x, c, axis=0)\n    s = r.sum(0)\n    return s * 2.0\n",
])
@settings(max_examples=25, deadline=None)
# `v + 0.0`: no -0.0, whose sign a sum in another order may lose (then 2 / mean is inf for -inf: rounding)
@given(rows=st.lists(st.tuples(st.floats(-3, 3, width=32).map(lambda v: v + 0.0),
                               st.floats(-3, 3, width=32).map(lambda v: v + 0.0), st.integers(0, 3)),
                     min_size=1, max_size=5))
def test_a_repeat_by_counts_from_data_read_by_a_sum_or_mean_becomes_a_weighted_reduction(body, rows,
                                                                                          tmp_path_factory):
    """fixes31: ``jnp.repeat(x, c, axis=k)`` read once by ``jnp.sum``/``jnp.mean`` over axis k (function or
    method, named or in place) weights x's rows by c, as rewrite_repeat_reduction does for tf.repeat: under
    jax.jit it gives what the original gives without jit, counts of 0 included (a row left out; every count 0:
    the mean is NaN in both), and a mean inside an expression divides as one quotient."""
    source = HEADER + "def f(x, c):\n" + body
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.repeat")
    args = (jnp.asarray([r[:2] for r in rows], jnp.float32), jnp.asarray([r[2] for r in rows], jnp.int32))
    fixed_source = fixed_matches_eager(source, tree, node, "XLA207", f"repeat_{abs(hash(body))}",
                                       tmp_path_factory.mktemp("repeat"), args, atol=1e-5)
    assert "jnp.repeat" not in fixed_source and "tf." not in fixed_source


@pytest.mark.parametrize("body", [
    "    r = jnp.repeat(x, c, axis=0)\n    return jnp.mean(r, axis=1)\n",  # another axis: the repeat stays
    "    r = jnp.repeat(x, c)\n    return jnp.sum(r)\n",  # no axis: repeats the flattened array
    "    r = jnp.repeat(x, c, axis=0)\n    return jnp.max(r, axis=0)\n",
    "    r = jnp.repeat(x, c, axis=0)\n    return jnp.mean(r, axis=0) + r[0]\n",  # read twice
    "    r = jnp.repeat(x, c, axis=0)\n    return jnp.mean(r, axis=0, keepdims=True)\n",
])
def test_a_repeat_read_otherwise_is_not_rewritten_as_a_weighted_reduction(body):
    source = HEADER + "def f(x, c):\n" + body
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.repeat")
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
    assert result.fix is None or not result.fix.edits or "jnp.repeat(" in apply_edits(source, result.fix.edits)


_KV_HELPER = HEADER + '''def cache_prefix(x, pos):
    return jnp.repeat(x.at[:pos, :, :].get(), 2, axis=1)


def decode(q, cache_k, cache_v, pos):
    scale = 1.0 / jnp.sqrt(q.shape[-1])
    keys = cache_prefix(cache_k, pos)
    scores = scale * jnp.einsum("hd,thd->ht", q, keys)
    weights = jax.nn.softmax(scores, axis=-1)
    values = cache_prefix(cache_v, pos)
    return jnp.einsum("ht,thd->hd", weights, values)
'''
_KV_INLINE = HEADER + '''def decode(q, cache_k, cache_v, pos):
    keys = cache_k[:pos]
    scores = 0.5 * jnp.einsum("thd,hd->ht", jnp.repeat(keys, 2, axis=1), q)
    probs = jax.nn.softmax(scores)
    out = jnp.einsum("ht,thd->hd", probs, jnp.repeat(cache_v[:pos], 2, axis=1))
    return out + jnp.sum(jnp.einsum("ht,h->th", probs, q[:, 0]), axis=0)
'''


@pytest.mark.parametrize("source", [_KV_HELPER, _KV_INLINE], ids=["helper", "inline"])
@settings(max_examples=20, deadline=None)
@given(pos=st.integers(0, 10), values=st.lists(st.floats(-2, 2, width=32), min_size=4, max_size=4))
def test_a_cache_prefix_read_through_attention_becomes_the_masked_cache(source, pos, values, tmp_path_factory):
    """fixes31: a prefix of traced length of a KV cache (``x.at[:pos, :, :].get()`` in a helper, or ``x[:pos]``),
    read through repeat, einsum and softmax until an einsum or a sum removes its rows, becomes the whole cache
    with the rows past ``pos`` zeroed and ``where=`` on the softmax: under jax.jit it gives what the original
    gives without jit, for an empty prefix (0: the attention over no rows is 0), and past the cache's end."""
    tree = ast.parse(source)
    gets = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "get"]
    node = gets[0] if gets else next(n for n in ast.walk(tree) if ast.unparse(n) == "cache_k[:pos]")
    cache_k = jnp.linspace(-1.0, 1.0, 64).reshape(8, 2, 4) * values[0]
    cache_v = jnp.linspace(1.0, -1.0, 64).reshape(8, 2, 4) + values[1]
    q = jnp.full((4, 4), values[2]) + jnp.arange(4.0) * values[3]
    tag = "kv_helper" if "cache_prefix" in source else "kv_inline"
    fixed_source = fixed_matches_eager(source, tree, node, "XLA207", tag, tmp_path_factory.mktemp("kv"),
                                       (q, cache_k, cache_v, jnp.int32(pos)))
    assert "where=" in fixed_source and ":pos" not in fixed_source


@pytest.mark.parametrize("change", [
    ("jax.nn.softmax(scores, axis=-1)", "jax.nn.softmax(scores, axis=0)"),  # over the heads
    ("jax.nn.softmax(scores, axis=-1)", "jax.nn.log_softmax(scores, axis=-1)"),
    ("    return jnp.einsum", "    n = keys.shape[0]\n    return n * jnp.einsum"),  # the prefix's length
    ("\"ht,thd->hd\"", "\"ht,thd->thd\""),  # the rows reach the result
    ("    keys = cache_prefix", "    pos = pos + 1\n    keys = cache_prefix"),  # the bound rebound
    ("jax.nn.softmax(scores, axis=-1)", "scores * 1.0"),  # no softmax: the masked sums of jax_masks
])
def test_a_cache_prefix_read_otherwise_is_not_rewritten(change):
    source = _KV_HELPER.replace(*change)
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr == "get")
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
    assert result.fix is None or not result.fix.edits or "where=" not in apply_edits(source, result.fix.edits)


@pytest.mark.parametrize(("lo", "read"), [("0", "jnp.mean(history, axis=0)"),
                                         ("1", "history.mean(0) + jnp.sum(history, 0)")])
@settings(max_examples=20, deadline=None)
@given(values=st.lists(st.floats(-3, 3, width=32), min_size=1, max_size=3))
def test_a_history_grown_in_fori_loop_and_averaged_mid_loop_divides_by_the_rows_written(lo, read, values,
                                                                                        tmp_path_factory):
    """fixes31: the history buffer of the loop's length (above) may be read mid-loop by sums and means over
    axis 0 after the append: the rows not yet written are zeros, so a mean becomes the sum divided by
    ``i - lo + 1``; under jax.jit the loop's values and the final history equal the un-jitted original's."""
    source = _GROWN_HISTORY.replace("LO", lo).replace("HI", "STEPS").replace(
        "        return history, x\n", f"        x = x - 0.25 * ({read})\n        return history, x\n")
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.concatenate")
    fixed_source = fixed_matches_eager(source, tree, node, "XLA206", f"grown_read_{lo}",
                                       tmp_path_factory.mktemp("grown_read"), (jnp.asarray(values, jnp.float32),),
                                       rtol=2e-5)
    assert "jnp.concatenate" not in fixed_source and ".mean(" not in fixed_source


# fixes33 (XLA302): `bool(x)` that an `if`/ternary tests, also in a helper of a jitted function, gets XLA101's
# jax.lax.cond fix of that test (deepmd-kit#4766's `loss if bool(find_property) else xp.nan`)
_BOOL_TESTED = HEADER + '''def display_if_exist(loss, found):
    return loss if bool(found) else jnp.nan


def ratio(x, found):
    if bool(found > 0.5):
        y = x * 2.0
    else:
        y = -x
    return y


@jax.jit
def report(pred, label, found):
    err = jnp.mean((pred - label) ** 2)
    return display_if_exist(jnp.sqrt(err), found), ratio(err, found)
'''


@pytest.mark.parametrize("helper", ["display_if_exist", "ratio"])
@settings(max_examples=20, deadline=None)
@given(values=st.lists(VALUES, min_size=3, max_size=3), found=st.sampled_from([0.0, 1.0, 0.25]))
def test_a_tested_bool_of_a_tracer_becomes_lax_cond_and_the_jitted_caller_matches(helper, values, found,
                                                                                 tmp_path_factory):
    tree = ast.parse(_BOOL_TESTED)
    function = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == helper)
    node = next(n for n in ast.walk(function) if isinstance(n, ast.Call) and ast.unparse(n.func) == "bool")
    (result,) = attach_fixes(_BOOL_TESTED, tree, [diagnostic_at(node, "XLA302")])
    assert result.fix is not None and result.fix.applicability is Applicability.UNSAFE
    assert "traces both branches" in result.fix.message
    fixed_source = apply_edits(_BOOL_TESTED, result.fix.edits)
    assert "bool(" not in fixed_source.split(f"def {helper}")[1].split("\n\n\n")[0]
    while "bool(" in fixed_source:  # the other helper still has its bool(): fix it too, as --fix would
        tree = ast.parse(fixed_source)
        node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "bool")
        (again,) = attach_fixes(fixed_source, tree, [diagnostic_at(node, "XLA302")])
        fixed_source = apply_edits(fixed_source, again.fix.edits)
    tmp = tmp_path_factory.mktemp("bool_tested")
    original, fixed = load("bool_original", _BOOL_TESTED, tmp), load("bool_fixed", fixed_source, tmp)
    pred = jnp.asarray(values, jnp.float32)
    args = (pred, jnp.zeros(3, jnp.float32), jnp.float32(found))
    with jax.disable_jit():
        expected = original(*args)
    for e, g in zip(expected, fixed(*args), strict=True):
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=1e-6, equal_nan=True)


# fixes33 (XLA207): a shape built with jnp.array from static values is traced under jax.jit (jax#8047); read only
# as shape arguments, it becomes the tuple of those values
_ARRAY_SHAPES = {
    "named_target_of_resize": (
        "SCALE = 2\n\n\n@jax.jit\ndef up(images):\n    b, h, w, c = images.shape\n"
        "    target = jnp.array([b, h * SCALE, w * SCALE, c])\n"
        "    return jax.image.resize(images, target, 'nearest')\n",
        "jax.image.resize", "    target = (b, h * SCALE, w * SCALE, c)\n"),
    "inline_shape_of_zeros": (
        "@jax.jit\ndef pad(x):\n    return x.sum() + jnp.zeros(jnp.asarray([x.shape[0], 3], dtype=jnp.int32))\n",
        "jnp.zeros", "jnp.zeros((x.shape[0], 3))"),
    "whole_shape_of_broadcast": (
        "@jax.jit\ndef spread(x, y):\n    return jnp.broadcast_to(y, jnp.array(x.shape))\n",
        "jnp.broadcast_to", "jnp.broadcast_to(y, tuple(x.shape))"),
    "one_size_as_a_tuple_item": (
        "@jax.jit\ndef half(x):\n    n = x.shape[0] // 2\n    t = jnp.array(n)\n    return x[:2] + jnp.ones((t,))\n",
        "jnp.ones", "    t = n\n"),
}


@pytest.mark.parametrize("name", sorted(_ARRAY_SHAPES))
def test_a_shape_array_of_static_values_becomes_a_tuple_and_the_jitted_function_matches(name, tmp_path):
    body, callee, expected = _ARRAY_SHAPES[name]
    source = HEADER + body
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == callee)
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
    assert result.fix is not None and result.fix.applicability is Applicability.UNSAFE
    assert "Python numbers (a tuple of them) are passed" in result.fix.message
    fixed_source = apply_edits(source, result.fix.edits)
    assert expected in fixed_source and "jnp.array" not in fixed_source and "jnp.asarray" not in fixed_source
    fixed = load(f"array_shape_{name}", fixed_source, tmp_path)
    x = jnp.arange(24.0, dtype=jnp.float32).reshape(2, 3, 2, 2) if "images" in body else jnp.arange(4.0)
    args = (x, jnp.float32(0.5)) if "spread" in body else (x,)
    with pytest.raises((TypeError, jax.errors.ConcretizationTypeError)):  # the original does not trace
        load(f"array_shape_orig_{name}", source, tmp_path)(*args)
    got = fixed(*args)
    with jax.disable_jit():  # without jit the array is concrete, and the original runs
        expected_value = load(f"array_shape_eager_{name}", source, tmp_path)(*args)
    assert got.shape == expected_value.shape
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected_value), rtol=1e-6)


@pytest.mark.parametrize("body", [
    # the array is read as an array too: a tuple would be summed, repeated or indexed differently
    "@jax.jit\ndef f(x):\n    t = jnp.array(x.shape)\n    return jnp.broadcast_to(x, t) + jnp.sum(t)\n",
    "@jax.jit\ndef f(x):\n    t = jnp.array([x.shape[0], 2])\n    return jnp.zeros(t * 2)\n",
    # an element from data: no static shape exists
    "@jax.jit\ndef f(x):\n    return jnp.zeros(jnp.array([jnp.sum(x > 0), 2]))\n",
    # a nested list: a 2-D array, never a shape
    "@jax.jit\ndef f(x):\n    return jnp.zeros(jnp.array([[x.shape[0], 2]]))\n",
])
def test_a_shape_array_read_otherwise_or_from_data_is_not_a_tuple(body):
    source = HEADER + body
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) in (
        "jnp.zeros", "jnp.broadcast_to"))
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
    assert result.fix is None or not result.fix.edits or "jnp.array" in apply_edits(source, result.fix.edits)


# fixes33 (XLA124): max/min/sorted/any/all of a tracer -> the jax.numpy selection or reduction the builtin did
_BUILTINS_OF_TRACERS = {
    "max_of_two": ("def f(x):\n    return x / max(jnp.abs(x).max(), 1.0)\n", "max", "jax.numpy.where(1.0 > "),
    "min_of_three": ("def f(x):\n    return min(jnp.min(x), 0.0, jnp.mean(x)) + x\n", "min", "jax.numpy.where("),
    "max_of_a_list": ("def f(x):\n    return max([x[0], x[1] * 2.0, x[2]])\n", "max", "jax.numpy.where("),
    # (not a cumsum: inf + -inf makes a NaN, which the fix's message says jnp.max treats its own way)
    "max_of_one_array": ("def f(x):\n    return max(jnp.tanh(x))\n", "max", "jax.numpy.max(jnp.tanh(x))"),
    "sorted_reversed": ("def f(x):\n    return sorted(x * 2.0, reverse=True)[0]\n", "sorted",
                        "jax.numpy.sort(x * 2.0)[::-1]"),
    "any_of_an_array": ("def f(x):\n    return jnp.where(any(x > 1.0), x, -x)\n", "any", "jax.numpy.any(x > 1.0)"),
    "all_of_a_generator": ("def f(x):\n    return jnp.where(all(v > 0 for v in [x[0], x[2]]), x, 0.0)\n", "all",
                           "jax.numpy.all(jax.numpy.asarray([v > 0 for v in [x[0], x[2]]]))"),
}


@pytest.mark.parametrize("name", sorted(_BUILTINS_OF_TRACERS))
def test_a_builtin_of_a_tracer_becomes_its_jax_numpy_form_and_matches_eager(name, tmp_path_factory):
    body, builtin, expected = _BUILTINS_OF_TRACERS[name]
    source = HEADER + "@jax.jit\n" + body
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == builtin)
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA124")])
    assert result.fix is not None and result.fix.applicability is Applicability.UNSAFE
    fixed_source = apply_edits(source, result.fix.edits)
    assert expected in fixed_source, fixed_source
    tmp = tmp_path_factory.mktemp("builtin")
    original, fixed = load(f"builtin_{name}_original", source, tmp), load(f"builtin_{name}_fixed", fixed_source, tmp)
    # NaN is left out: the fix says jnp.max/jnp.sort treat it by their own rule; ties and infinities are drawn
    finite_or_inf = st.floats(-3, 3, width=32, allow_subnormal=False) | st.sampled_from([0.0, 1.0, np.inf, -np.inf])

    @settings(max_examples=30, deadline=None)
    @given(st.lists(finite_or_inf, min_size=3, max_size=3))
    def check(values):
        x = jnp.asarray(values, dtype=jnp.float32)
        with jax.disable_jit():
            want = original(x)
        np.testing.assert_allclose(np.asarray(fixed(x)), np.asarray(want), rtol=1e-6, equal_nan=True)

    check()


@pytest.mark.parametrize("body", [
    "def f(x):\n    return max(jnp.abs(x), key=lambda v: v.shape[0])\n",  # a key: Python compares key(item)
    "def f(x):\n    return max(jnp.abs(x), default=0.0)\n",
    "def f(x):\n    return sorted(x, key=abs)\n",
])
def test_a_builtin_with_a_key_or_default_is_not_rewritten(body):
    source = HEADER + "@jax.jit\n" + body
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) in ("max", "sorted"))
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA124")])
    assert result.fix is None or not result.fix.edits


@pytest.mark.parametrize("body", [
    "def f(x, flag):\n    if flag:\n        y = bool(jnp.sum(x) > 0)\n    else:\n        y = False\n    return y\n",
    "def f(x, flag):\n    return x if flag else bool(jnp.sum(x) > 0)\n",
])
def test_a_bool_of_a_tracer_that_no_if_tests_does_not_turn_the_if_around_it_into_lax_cond(body):
    source = HEADER + body
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "bool")
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA302")])
    assert result.fix is None or "jax.lax.cond" not in apply_edits(source, result.fix.edits)
