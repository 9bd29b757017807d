"""Rewrites without TensorFlow: the fixed text, its safety, that it parses, and idempotence."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from xlacheck.diagnostics import Applicability, Diagnostic, Edit, Fix, Location
from xlacheck.rewrites import attach_fixes
from xlacheck.rewrites._fix import apply_edits

_spec = importlib.util.spec_from_file_location("rewrite_examples", Path(__file__).with_name("rewrite_examples.py"))
examples = sys.modules.setdefault(_spec.name, importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(examples)  # type: ignore[union-attr]
EXAMPLES = examples.EXAMPLES


def diagnostic_at(node: ast.AST, code: str = "XLA000") -> Diagnostic:
    return Diagnostic("example.py", code, "example", "flagged", Location(node.lineno, node.col_offset),
                      Location(node.end_lineno, node.end_col_offset))


def flagged(source: str) -> Diagnostic:
    """A diagnostic spanning the innermost statement on the line marked ``# flag``, or, for
    ``# flag: TEXT``, the first expression on that line whose source is TEXT (as rules point
    at sub-expressions; ``# flag: TEXT...`` the first that starts with TEXT). ``# flag(XLA210)``
    makes it a finding of that rule, so only the
    rewriters its ``fix`` declares are tried (a hand-made code tries every rewriter)."""
    line, marker = next((i, text.split("# flag", 1)[1]) for i, text in enumerate(source.splitlines(), 1)
                        if "# flag" in text)
    code = "XLA000"
    if marker.startswith("("):
        code, _, marker = marker[1:].partition(")")
    tree = ast.parse(source)
    if marker.startswith(":"):
        exprs = sorted((n for n in ast.walk(tree) if isinstance(n, ast.expr) and n.lineno == line),
                       key=lambda n: n.col_offset)
        text = marker[1:].strip()
        if text.endswith("..."):  # `# flag: tf.while_loop(...`: the first expression that starts so
            return diagnostic_at(next(n for n in exprs if (ast.get_source_segment(source, n) or "").startswith(
                text[:-3])), code)
        return diagnostic_at(next(n for n in exprs if ast.get_source_segment(source, n) == text), code)
    stmts = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno == line]
    return diagnostic_at(stmts[-1], code)


def fix_of(source: str, diagnostic: Diagnostic | None = None) -> Fix | None:
    (result,) = attach_fixes(source, ast.parse(source), [diagnostic or flagged(source)])
    return result.fix


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_fix_text_and_safety(example):
    fix = fix_of(example.source)
    assert fix is not None
    assert fix.applicability.value == example.applicability, fix.message
    if fix.applicability is Applicability.DISPLAY_ONLY:
        assert not fix.edits and len(fix.message) > 60  # says why and what to do
        return
    if fix.applicability is Applicability.UNSAFE:
        assert "(unsafe: " in fix.message
    edits = sorted(fix.edits, key=lambda e: (e.start, e.end))
    for before, after in zip(edits, edits[1:]):  # appliers reject touching or overlapping edits
        assert before.end < after.start
    fixed = apply_edits(example.source, fix.edits)
    for piece in example.contains:
        assert piece in fixed, fixed
    ast.parse(fixed)


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.applicability != "display-only"], ids=lambda e: e.name)
def test_fixed_code_offers_no_further_fix(example):
    """Idempotence: wherever a diagnostic lands in the fixed code, no fix changes it again. For an
    example flagged as a finding of one rule (``# flag(XLA115)``), the diagnostics are that rule's:
    another rule's rewrite can be this one's inverse on the same syntax (``min(dims)`` ->
    ``tf.reduce_min(dims)`` is XLA103's fix for tensors; XLA115's goes the other way for proven
    Python values), and which one applies is decided by the value model, not by the text."""
    fixed = apply_edits(example.source, fix_of(example.source).edits)
    tree = ast.parse(fixed)
    code = flagged(example.source).code
    diagnostics = [diagnostic_at(n, code) for n in ast.walk(tree) if isinstance(n, ast.stmt)]
    for result in attach_fixes(fixed, tree, diagnostics):
        assert result.fix is None or not result.fix.edits, (result.line, result.fix.message)


def test_diagnostic_on_the_condition_finds_the_if():
    source = examples.EXAMPLES[0].source
    tree = ast.parse(source)
    test = next(n for n in ast.walk(tree) if isinstance(n, ast.If)).test
    fix = fix_of(source, diagnostic_at(test))
    assert fix is not None and "tf.cast(tf.reduce_sum(t) > 10, t.dtype)" in apply_edits(source, fix.edits)


def test_membership_alone_when_the_diagnostic_points_at_it():
    source = textwrap.dedent("""\
        import tensorflow as tf
        IDS = (1, 2)
        def f(t):
            return 0.0 if t in IDS else 1.0
        """)
    tree = ast.parse(source)
    compare = next(n for n in ast.walk(tree) if isinstance(n, ast.Compare))
    fix = fix_of(source, diagnostic_at(compare))
    assert fix.applicability is Applicability.SAFE
    assert apply_edits(source, fix.edits).splitlines()[3] == \
        "    return 0.0 if tf.reduce_any(tf.equal(t, IDS)) else 1.0"


def test_tensorflow_alias_is_respected():
    source = textwrap.dedent("""\
        import tensorflow as tensorflow_api
        def f(x):
            return tensorflow_api.reduce_sum(x[x > 0])
        """)
    tree = ast.parse(source)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    fixed = apply_edits(source, fix_of(source, diagnostic_at(call)).edits)
    assert "tensorflow_api.reduce_sum(tensorflow_api.where(x > 0, x, 0))" in fixed


def test_non_ascii_columns_are_characters():
    source = 'import tensorflow as tf\ndef f(x):\n    y = "é"; return min(x, 1.0)\n'
    tree = ast.parse(source)
    col = source.splitlines()[2].index("min")
    diagnostic = Diagnostic("e.py", "X", "x", "m", Location(3, col), Location(3, col + len("min(x, 1.0)")))
    (result,) = attach_fixes(source, tree, [diagnostic])
    assert apply_edits(source, result.fix.edits).endswith('return tf.where(1.0 < x, 1.0, x)\n')


_DEPENDENT = textwrap.dedent("""\
    import tensorflow as tf
    def f(x):
        if tf.reduce_sum(x) > 0:
            a = x * 2.0
            b = a + 1.0
        else:
            b = x
        return b
    """)


_ASSIGNED = "b = tf.cond(tf.reduce_sum(x) > 0, lambda: true_branch(), lambda: false_branch())"
_RETURNED = "return tf.cond(tf.reduce_sum(x) > 0, lambda: true_branch(), lambda: false_branch())"


@pytest.mark.parametrize("old, new, expected, text", [
    ("x", "x", "safe", _ASSIGNED),  # `a` is the true branch's temporary: tf.cond over the branches as written
    ("    return b", "    return b + a", None, None),  # ... unless it is read after the `if`
    # any statement moves, but tf.cond traces both branches: print runs for both while tracing
    ("        b = a + 1.0", "        b = a + 1.0\n        print(b)", "unsafe", _ASSIGNED),
    ("        b = a + 1.0", "        b = helper(a)", "unsafe", _ASSIGNED),  # traced in both branches
    ("def f(x):\n", "def f(x):\n    global b\n", None, None),
    # one arm returns: the `return b` after the `if` joins the arm that falls through
    ("        b = x", "        b = x\n        return b", "safe", _RETURNED),
    ("        b = x", "        b = x\n        return", None, None),  # a bare return: None, no tensor form
    ("        b = a + 1.0", "        b = a + 1.0\n        del a", None, None),  # means another frame's name
    ("        b = a + 1.0", "        b = a + 1.0\n        b = super().f(b)", None, None),  # no __class__ cell
    # Python state outside the branch: both traced branches would change it
    ("        b = a + 1.0", "        b = a + 1.0\n        seen.append(b)", None, None),
    ("        b = a + 1.0", "        b = a + 1.0\n        stats['b'] = b", None, None),
    ("        b = a + 1.0", "        b = a + 1.0\n        self.b = b", None, None),
    # `b` bound only inside a nested block of a branch may be unbound there: not returned, so no
    # fix when it is read after the `if`
    ("        b = a + 1.0", "        if a is not None:\n            b = a + 1.0", None, None),
    # a list the branch makes itself may change (unsafe only as any non-TensorFlow call is)
    ("        b = a + 1.0", "        b = a + 1.0\n        parts = []\n        parts.append(b)", "unsafe", _ASSIGNED),
])
def test_dependent_branches_get_tf_cond_over_functions(old, new, expected, text):
    assert old in _DEPENDENT
    source = _DEPENDENT.replace(old, new)
    tree = ast.parse(source)
    (result,) = attach_fixes(source, tree, [diagnostic_at(tree.body[1].body[-2 if "global" in source else 0])])
    if expected is None:
        assert result.fix is None or not result.fix.edits
        return
    assert result.fix.applicability.value == expected, result.fix.message
    fixed = apply_edits(source, result.fix.edits)
    assert text in fixed
    ast.parse(fixed)


def test_branches_run_for_their_effects_get_tf_cond_statement():
    source = textwrap.dedent("""\
        import tensorflow as tf
        def f(x, v):
            if tf.reduce_sum(x) > 0:
                v.assign(x)
            else:
                v.assign(-x)
            return v.read_value()
        """)
    tree = ast.parse(source)
    (result,) = attach_fixes(source, tree, [diagnostic_at(tree.body[1].body[0])])
    fixed = apply_edits(source, result.fix.edits)
    assert "    tf.cond(tf.reduce_sum(x) > 0, lambda: true_branch(), lambda: false_branch())\n" in fixed
    assert result.fix.applicability.value == "unsafe"  # `v.assign` is not known to be a TensorFlow op
    one_arm = source.replace("    else:\n        v.assign(-x)\n", "")
    tree = ast.parse(one_arm)
    (result,) = attach_fixes(one_arm, tree, [diagnostic_at(tree.body[1].body[0])])
    fixed = apply_edits(one_arm, result.fix.edits)
    assert "tf.cond(tf.reduce_sum(x) > 0, lambda: true_branch(), lambda: None)" in fixed


@pytest.mark.parametrize("test", ["tf.executing_eagerly()", "not tf.executing_eagerly()", "tf.is_tensor(x)"])
def test_if_on_a_python_valued_tf_call_is_not_rewritten(test):
    source = f"import tensorflow as tf\ndef f(x):\n    if {test}:\n        tf.print(x)\n    return x\n"
    tree = ast.parse(source)
    (result,) = attach_fixes(source, tree, [diagnostic_at(tree.body[1].body[0])])
    assert result.fix is None or not result.fix.edits


def test_elif_chain_of_dependent_statements_nests_tf_cond_over_functions():
    """The assignment form cannot take branches that read each other's results; the chain's
    `elif` becomes the else function's plain `if` (a name bound in both of its arms is bound)."""
    source = textwrap.dedent("""\
        import tensorflow as tf
        def f(x):
            m = tf.reduce_max(x)
            if m > 2.0:
                y = tf.sqrt(x * x + 1.0)
                y = y / m
            elif m > 1.0:
                y = tf.exp(-x)
            else:
                y = x
            return y
        """)
    tree = ast.parse(source)
    (result,) = attach_fixes(source, tree, [diagnostic_at(tree.body[1].body[1])])
    fixed = apply_edits(source, result.fix.edits)
    assert "    def false_branch():\n        if m > 1.0:\n            y = tf.exp(-x)\n        else:\n" in fixed
    assert "    y = tf.cond(m > 2.0, lambda: true_branch(), lambda: false_branch())\n" in fixed
    ast.parse(fixed)


def test_a_raise_is_never_moved_into_a_traced_branch():
    """tf.cond traces both branches: a `raise` there raises while tracing, taken or not. An
    `if c: raise` with an `elif` becomes the check followed by the `elif` as a plain `if`."""
    source = textwrap.dedent("""\
        import tensorflow as tf
        def f(x):
            r = tf.reduce_sum(x)
            if r > 100.0:
                raise ValueError("too big")
            elif r > 10.0:
                x = x / r
            return x
        """)
    tree = ast.parse(source)
    (result,) = attach_fixes(source, tree, [diagnostic_at(tree.body[1].body[1])])
    fixed = apply_edits(source, result.fix.edits)
    check = '    tf.debugging.Assert(tf.logical_not(r > 100.0), ["too big"])\n'
    assert check + "    if r > 10.0:\n        x = x / r\n" in fixed
    moved = textwrap.dedent("""\
        import tensorflow as tf
        def f(x):
            r = tf.reduce_sum(x)
            if r > 100.0:
                x = x * 2.0
                if x is None:
                    raise ValueError("none")
            else:
                x = x / r
            return x
        """)
    tree = ast.parse(moved)
    (result,) = attach_fixes(moved, tree, [diagnostic_at(tree.body[1].body[1])])
    assert result.fix is None or not result.fix.edits


def test_attach_fixes_keeps_order_and_unrelated_diagnostics():
    source = EXAMPLES[0].source
    tree = ast.parse(source)
    first = Diagnostic("e.py", "XLA999", "other", "m", Location(1, 0), Location(1, 23))
    existing = Fix("kept", (Edit(Location(1, 0), Location(1, 0), ""),))
    second = Diagnostic("e.py", "XLA998", "other", "m", Location(1, 0), Location(1, 23), fix=existing)
    out = attach_fixes(source, tree, [first, flagged(source), second])
    assert [d.code for d in out] == ["XLA999", "XLA000", "XLA000"][:2] + ["XLA998"]
    assert out[0].fix is None and out[1].fix is not None and out[2].fix is existing


def test_no_tensorflow_import_means_no_fix():
    source = "def f(x):\n    return min(x, 1)\n"
    (result,) = attach_fixes(source, ast.parse(source), [diagnostic_at(ast.parse(source).body[0].body[0])])
    assert result.fix is None


def test_nothing_heavy_is_imported_when_nothing_is_fixable():
    code = textwrap.dedent("""\
        import ast, sys
        from xlacheck.diagnostics import Diagnostic, Location
        from xlacheck.rewrites import attach_fixes
        src = "import tensorflow as tf\\n\\ndef f(x):\\n    return tf.strings.format('{}', x)\\n"
        d = Diagnostic("a.py", "XLA310", "n", "m", Location(4, 11), Location(4, 37))
        out = attach_fixes(src, ast.parse(src), [d])
        assert out[0].fix is None
        assert not {"tensorflow", "libcst", "numpy"} & set(sys.modules)
        """)
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2])


def test_a_diagnostic_on_the_selection_itself_rewrites_its_consumers():
    """Rules may point at the producer (`x[m]`, `tf.ragged.boolean_mask(...)`), not the reduction."""
    source = textwrap.dedent("""\
        import tensorflow as tf
        def pool(hidden, mask):
            rows = tf.ragged.boolean_mask(hidden, mask > 0)
            return tf.reduce_sum(rows, axis=1)
        """)
    tree = ast.parse(source)
    producer = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "tf.ragged.boolean_mask")
    fix = fix_of(source, diagnostic_at(producer))
    assert fix is not None and fix.edits, fix
    fixed = apply_edits(source, fix.edits)
    assert "tf.reduce_sum(masked_values, axis=1)" in fixed and "ragged" not in fixed


def test_a_diagnostic_inside_a_branch_rewrites_the_if():
    source = examples.EXAMPLES[3].source  # closure_accumulator
    tree = ast.parse(source)
    inner = next(n for n in ast.walk(tree) if isinstance(n, ast.If)).body[0]
    fix = fix_of(source, diagnostic_at(inner))
    assert "energy = tf.cond(tf.reduce_mean(row) > 0, lambda: energy + e, lambda: energy)" in apply_edits(
        source, fix.edits)


@pytest.mark.parametrize("mask", ["labels[0] >= 0", "tf.reduce_any(labels >= 0, axis=0)"])
def test_a_mask_not_elementwise_in_the_labels_gives_no_safe_fix(mask):
    source = textwrap.dedent(f"""\
        import tensorflow as tf
        def loss(labels, logits):
            keep = {mask}
            return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels[keep], logits[keep]))
        """)
    tree = ast.parse(source)
    fix = fix_of(source, diagnostic_at(tree.body[1].body[1]))
    assert fix is None or fix.applicability is not Applicability.SAFE


def test_a_rebound_name_is_not_read_as_its_old_value():
    source = textwrap.dedent("""\
        import tensorflow as tf
        def f(x, m):
            x = tf.boolean_mask(x, m > 0)
            return tf.reduce_sum(x), x
        """)
    tree = ast.parse(source)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "tf.reduce_sum")
    assert fix_of(source, diagnostic_at(call)) is None


def test_one_zipped_tensor_flagged_unstacks_every_zipped_tensor():
    source = "import tensorflow as tf\ndef f(a, b):\n    return [x - y for x, y in zip(a, b)]\n"
    tree = ast.parse(source)
    first = next(n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "a" and isinstance(n.ctx, ast.Load))
    fixed = apply_edits(source, fix_of(source, diagnostic_at(first)).edits)
    assert "zip(tf.unstack(a), tf.unstack(b))" in fixed


def test_static_sizes_from_shapes_and_attributes_are_not_called_data_dependent():
    source = textwrap.dedent("""\
        import tensorflow as tf
        class Up(tf.keras.Model):
            def call(self, images):
                h, w = images.shape[1], images.shape[2]
                return tf.image.resize(images, [h * self.scale, w * self.scale], method="bicubic")
        """)
    tree = ast.parse(source)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "tf.image.resize")
    assert fix_of(source, diagnostic_at(call)) is None


_COUNTED = '''import tensorflow as tf
N = 3
def f(x, n):
    out = []
    i = tf.constant(0)
    while i < n:
        out.append(tf.cast(x, tf.float32) * 2.0)
        i += 1
    return tf.stack(out, axis=1)
'''


@pytest.mark.parametrize("old, new, expected", [
    ("i < n", "i < n", "safe"),
    ("i < n", "n > i", "safe"),
    ("i += 1", "i = 1 + i", "safe"),
    ("i < n", "i < N", "safe"),
    ("axis=1)", "axis=-2)", "safe"),
    ("axis=1)", "axis=0)", "unsafe"),  # zero iterations: tf.stack([]) is an empty float32 vector
    ("i < n", "i < 3", "safe"),  # ... unless the loop provably runs
    ("    i = tf.constant(0)\n    while i < n:\n", "    N = 4\n    i = tf.constant(0)\n    while i < N:\n", "safe"),
    (("i < n", "axis=1)"), ("i < N", "axis=0)"), "safe"),  # the module constant 3 > 0: the loop runs
    (("    i = tf.constant(0)\n    while i < n:\n", "axis=1)"),
     ("    N = n\n    i = tf.constant(0)\n    while i < N:\n", "axis=0)"), "unsafe"),  # a local N, not the constant
    ("        i += 1\n", "        i += 1\n        print(i)\n", "unsafe"),  # runs once per trace
    ("i < n", "i <= n", "display-only"),
    ("i += 1", "i += 2", "display-only"),
    ("        i += 1\n", "        i += 1\n        i += 1\n", "display-only"),
    ("        i += 1\n", "        i += 1\n        out.append(x)\n", "display-only"),
    ("        i += 1\n", "        i += 1\n        if i > 2:\n            break\n", "display-only"),
    ("        i += 1\n", "        i += 1\n        n = n - 1\n", "display-only"),
    ("        i += 1\n", "        i += 1\n        n.assign_sub(1)\n", "display-only"),
    ("axis=1)", "axis=k)", "display-only"),
    ("tf.stack(out, axis=1)", "tf.stack(out, axis=1), len(out)", "display-only"),
    ("    i = tf.constant(0)\n", "    i = tf.constant(0)\n    i = i + 0\n", "display-only"),
    ("tf.constant(0)", "tf.constant(0, tf.int64)", "display-only"),
    ("tf.constant(0)", "0", "display-only"),  # a Python counter compares in n's dtype (float n: ceil)
    ("tf.constant(0)", "0\n    n = tf.shape(x)[0]", "display-only"),  # ... n is a name here, not the shape
    ("i < n", "i < tf.shape(x)[0]", "safe"),
    ("tf.cast(x, tf.float32) * 2.0", "x * 2.0", "display-only"),  # the dtype of x is not certain
    ("tf.cast(x, tf.float32) * 2.0", "tf.one_hot(x, 4, 1, 0)", "display-only"),  # on/off values set the dtype
    ("tf.cast(x, tf.float32) * 2.0", "tf.argmax(x, -1)", "safe"),  # int64 by default
    ("def f(x, n):", "@tf.function(autograph=False)\ndef f(x, n):", "display-only"),  # not converted
])
def test_counted_while_rewrite_applies_only_to_the_exact_pattern(old, new, expected):
    source = _COUNTED
    for before, after in zip(*((old, new) if isinstance(old, tuple) else ((old,), (new,)))):
        assert before in source
        source = source.replace(before, after)
    tree = ast.parse(source)
    append = next(n for n in ast.walk(tree) if isinstance(n, ast.Expr) and ".append(" in ast.unparse(n)
                  and isinstance(n.value, ast.Call) and ast.unparse(n.value.func).startswith("out."))
    fix = fix_of(source, diagnostic_at(append, "XLA111"))
    assert fix is not None and fix.applicability.value == expected, (fix.applicability.value, fix.message)


def test_counted_while_fix_relints_clean():
    """The rewritten decoder triggers no finding (XLA111 gone, no XLA203 for a dynamic size)."""
    from xlacheck.engine import check_source

    example = next(e for e in EXAMPLES if e.name == "counted_while_keras_decoder")
    assert [d.code for d in check_source(example.source, "tagger.py").diagnostics] == ["XLA111"]
    fixed = apply_edits(example.source, fix_of(example.source).edits)
    assert check_source(fixed, "tagger.py").diagnostics == ()


def test_masked_mean_and_extremes_say_why_integers_differ():
    """A mean written as sum / count divides integers into a float64, and a -inf fill raises for
    them: without proof that the values are floating, both fixes are unsafe and say so; a float
    literal in the mask (``x > 0.0`` raises for integer tensors) or a loss op is proof."""
    by_name = {e.name: e for e in EXAMPLES}
    assert "floating-point" in fix_of(by_name["masked_mean_of_unknown_dtype"].source).message
    assert "fill raises" in fix_of(by_name["masked_max_of_unknown_dtype"].source).message
    assert fix_of(by_name["masked_max"].source).applicability is Applicability.SAFE  # x[x > 0.0]


def test_a_parameter_shadowing_a_module_constant_is_not_that_constant():
    """``LIMIT = 2.0`` at module level proves nothing about a parameter named ``LIMIT``: it may
    be a vector (then tf.where broadcasts) or a tensor bound (then ``range(N)`` fails)."""
    shadowed_bound = '''import tensorflow as tf

LIMIT = 2.0


def damp(t, LIMIT):
    if tf.reduce_sum(t) > LIMIT:  # flag
        t = t / 2.0
    return t
'''
    assert fix_of(shadowed_bound).applicability is Applicability.UNSAFE
    assert fix_of(shadowed_bound.replace("def damp(t, LIMIT)", "def damp(t)")).applicability is Applicability.SAFE
    shadowed_count = '''import tensorflow as tf

STEPS = 3


def collect(x, STEPS):
    out = []
    for t in tf.range(STEPS):
        out.append(x[t])  # flag
    return tf.stack(out)
'''
    # Not unrolled over range(3): the TensorArray rewrite counts the parameter's own trips.
    shadowed = fix_of(shadowed_count)
    assert "range(STEPS):" not in apply_edits(shadowed_count, shadowed.edits).replace("tf.range(STEPS):", "")
    assert "size=tf.size(tf.range(STEPS))" in apply_edits(shadowed_count, shadowed.edits)
    unshadowed = fix_of(shadowed_count.replace("def collect(x, STEPS)", "def collect(x)"))
    assert unshadowed.applicability is Applicability.SAFE and unshadowed.edits


# -- a fix uses only the framework of the function it edits ----------------------------------------
_FIXABLE = [e for e in EXAMPLES if e.applicability != "display-only"]


def _as_jax(source: str) -> str:
    """The example's functions (methods and nested ones too) decorated with ``jax.jit`` in a file
    that imports both frameworks."""
    lines = source.splitlines(keepends=True)
    out = ["import jax\n", "import jax.numpy as jnp\n"]
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith(("def ", "@")) and not out[-1].lstrip().startswith("@"):
            out.append(line[: len(line) - len(stripped)] + "@jax.jit\n")
        out.append(line)
    return "".join(out)


@pytest.mark.parametrize("example", _FIXABLE, ids=lambda e: e.name)
def test_a_fix_never_brings_tensorflow_into_a_jax_function(example):
    """Every rewrite, applied where the same code sits in a ``jax.jit`` function of a file that also
    imports TensorFlow, either offers nothing or edits without ``tf.*`` (the fixes used to insert
    ``tf.cond`` and ``tf.gather(tf.stack(...))`` into JAX code)."""
    source = _as_jax(example.source)
    fix = fix_of(source)
    if fix is None or not fix.edits:
        return
    for edit in fix.edits:
        assert "tf." not in edit.content, edit.content


@pytest.mark.parametrize("example", _FIXABLE, ids=lambda e: e.name)
def test_a_fix_brings_no_other_framework_into_tensorflow_code(example):
    """The fixed TensorFlow function names no module of another framework more often than the
    original did (no NumPy/JAX call is introduced; the NumPy rewrite removes them)."""
    fixed = apply_edits(example.source, fix_of(example.source).edits)
    others = {a.asname or a.name for n in ast.walk(ast.parse(example.source)) if isinstance(n, ast.Import)
              for a in n.names if a.name.split(".")[0] in ("numpy", "jax", "torch")}
    for alias in others:
        assert fixed.count(f"{alias}.") <= example.source.count(f"{alias}."), fixed


def test_ndarray_only_consumers_of_a_host_read_get_no_fix():
    """``.numpy().tolist()``, formatting and ``len`` need a NumPy value: replacing the read with a
    tensor would break every eager call, so no fix is offered there."""
    for body in ("return ids.numpy().tolist()  # flag: ids.numpy()",
                 "return f'{ids.numpy()}'  # flag: ids.numpy()",
                 "return len(ids.numpy())  # flag: ids.numpy()",
                 "v = ids.numpy()  # flag: ids.numpy()\n    return v.tolist()"):
        source = f"import tensorflow as tf\n\n\ndef top(logits):\n    ids = tf.argmax(logits, axis=-1)\n    {body}\n"
        fix = fix_of(source)
        assert fix is None or not fix.edits, (body, fix)


_TA_WHILE = '''import tensorflow as tf


def rows_doubled(x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    n = tf.shape(x)[0]

    def body(i, acc):
        return i + 1, acc.write(i, 2.0 * x[i])

    _, ta = tf.while_loop(lambda i, _: i < n, body, (tf.constant(0), ta))
    return ta.stack()
'''


@pytest.mark.parametrize("old, new, expected", [
    ("x", "x", "size=tf.maximum(tf.shape(x)[0], 0)"),
    ("dynamic_size=True", "dynamic_size=2", "size=tf.maximum(tf.shape(x)[0], 0)"),  # an int: tracing rejects it
    ("i < n", "i < 5", "size=5"),
    ("i < n", "i < m", "size=tf.maximum(m, 0)"),  # a global, unchanged in between
    ("dynamic_size=True", "dynamic_size=False", None),
    ("size=0", "size=2", None),  # grows from 2: max(2, n) entries
    ("tf.constant(0), ta", "tf.constant(1), ta", None),  # indices from 1: entry 0 stays unwritten
    ("i + 1, acc", "i + 2, acc", None),
    ("acc.write(i,", "acc.write(i + 1,", None),
    ("i < n", "i <= n", None),
    ("(tf.constant(0), ta))", "(tf.constant(0), ta), maximum_iterations=3)", None),  # fewer trips
    ("    return ta.stack()", "    ta = ta.write(7, x[0])\n    return ta.stack()", None),  # a write past n
    ("    n = tf.shape(x)[0]\n", "    n = tf.shape(x)[0]\n    n = n - 1\n", None),  # no single binding
    ("    n = tf.shape(x)[0]\n", "    n = tf.shape(x)[0]\n    x = x[1:]\n", None),  # x changes after the TA
])
def test_tensorarray_size_from_a_counted_while_loop_applies_only_to_the_exact_pattern(old, new, expected):
    source = _TA_WHILE.replace(old, new)
    tree = ast.parse(source)
    made = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "tf.TensorArray")
    fix = fix_of(source, diagnostic_at(made, "XLA203"))
    if expected is None:
        assert fix is None or not fix.edits, fix.message
    else:
        assert fix is not None and fix.applicability.value == "safe", fix
        assert expected in apply_edits(source, fix.edits)


_RANGE_LIST = '''import tensorflow as tf


def per_step_energy(x):
    energies = []
    steps = tf.shape(x)[1]
    for t in tf.range(steps):
        frame = x[:, t]
        energies.append(tf.reduce_sum(frame * frame, axis=-1))
    return tf.stack(energies, axis=1)
'''


@pytest.mark.parametrize("old, new, expected", [
    ("x", "x", "safe"),
    ("axis=1)", "axis=0)", "unsafe"),  # zero steps: tf.stack([]) is an empty float32 vector
    ("tf.stack(energies, axis=1)", "tf.concat(energies, axis=0)", "unsafe"),  # rows of different lengths
    ("        frame = x[:, t]\n", "        frame = x[:, t]\n        print(t)\n", "unsafe"),  # runs once per trace
    ("tf.range(steps)", "tf.range(tf.size(x))", "safe"),
    ("tf.stack(energies, axis=1)", "tf.concat(energies, axis=1)", "display-only"),
    ("tf.stack(energies, axis=1)", "tf.add_n(energies)", "safe"),  # a sum of the stack: reordered float sums only
    ("tf.stack(energies, axis=1)", "tf.add_n(energies, name='s')", "display-only"),
    ("steps = tf.shape(x)[1]", "steps = tf.reduce_max(x)", "safe"),  # any dtype: tf.size(tf.range(n)) trips
    ("tf.range(steps)", "tf.range(next_count())", "display-only"),  # a call: it would run once more
    ("frame * frame", "frame * 2.0", "display-only"),  # the dtype of a product with a number is not certain
    ("frame * frame", "tf.cast(frame, tf.float64)", "safe"),
    ("        frame = x[:, t]\n", "        frame = x[:, t]\n        energies.append(frame[0])\n", "display-only"),
    ("        frame = x[:, t]\n", "        frame = x[:, t]\n        if t > 2:\n            break\n", "display-only"),
    ("    return tf.stack(", "    print(len(energies))\n    return tf.stack(", "display-only"),
])
def test_range_list_loop_rewrite_applies_only_to_the_exact_pattern(old, new, expected):
    assert old in _RANGE_LIST
    source = _RANGE_LIST.replace(old, new)
    tree = ast.parse(source)
    append = next(n for n in ast.walk(tree) if isinstance(n, ast.Expr) and "energies.append(" in ast.unparse(n))
    fix = fix_of(source, diagnostic_at(append, "XLA111"))
    assert fix is not None and fix.applicability.value == expected, (fix.applicability.value, fix.message)


_GROWN_OVER_A_PARAMETER = (
    "import tensorflow as tf\n\n\n@tf.function\ndef extend(seq, new_tokens=3):\n"
    "    for _ in tf.range(new_tokens):\n        seq = tf.concat([seq, seq[:, -1:]], axis=1)  # flag\n    return seq\n")


@pytest.mark.parametrize("old, new", [
    ("new_tokens=3", "new_tokens=3.0"),  # not an int default
    ("new_tokens=3", "new_tokens=None"),
    ("@tf.function\n", "@tf.function(autograph=False)\n"),  # no AutoGraph: range(tensor) is no tf.range
    ("    for _", "    new_tokens = tf.shape(seq)[0]\n    for _"),  # rebound from data
])
def test_a_tf_range_over_a_parameter_unrolls_only_for_an_int_default_under_autograph(old, new):
    assert "for _ in range(new_tokens):" in apply_edits(_GROWN_OVER_A_PARAMETER, fix_of(_GROWN_OVER_A_PARAMETER).edits)
    source = _GROWN_OVER_A_PARAMETER.replace(old, new)
    fix = fix_of(source)
    assert fix is None or not fix.edits, apply_edits(source, fix.edits)


def test_a_tf_range_over_an_attribute_unrolls_only_where_the_file_shows_one_int():
    source = next(e.source for e in EXAMPLES if e.name == "grow_by_concat_over_an_attribute_set_from_an_int")
    for changed in (source.replace("Extender()(seq)", "Extender(steps=4)(seq) + Extender()(seq)[:, :1]"),
                    source.replace("steps=3, **kwargs", "steps=3.0, **kwargs"),
                    source.replace("        return seq\n", "        self.steps += 1\n        return seq\n")):
        fix = fix_of(changed)
        assert fix is None or not fix.edits, apply_edits(changed, fix.edits)


# -- conditions that may be None, and shape tests ----------------------------------------------------
_OPTIONAL_BIAS = '''import tensorflow as tf


class Dense(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.bias = self.add_weight(name="bias", shape=[]) if self.use_bias else None

    def call(self, x):
        out = x * 2.0
        if self.bias:  # flag
            out = out + self.bias
        else:
            out = out - 1.0
        return out
'''


def test_an_optional_operand_with_an_else_branch_is_named_as_unsafe():
    """Where `self.bias` is None the original runs the else branch: a guard around the rewrite
    would skip it, so no guard is written and the fix says which operand may be None."""
    fix = fix_of(_OPTIONAL_BIAS)
    assert fix.applicability is Applicability.UNSAFE
    assert "`self.bias` may be None" in fix.message
    assert "is not None" not in apply_edits(_OPTIONAL_BIAS, fix.edits)


def test_an_operand_never_assigned_none_gets_no_guard():
    source = _OPTIONAL_BIAS.replace(" if self.use_bias else None", "").replace(
        "        else:\n            out = out - 1.0\n", "")
    fixed = apply_edits(source, fix_of(source).edits)
    assert "is not None" not in fixed
    assert "out = tf.where(tf.cast(self.bias, tf.bool), out + self.bias, out)" in fixed


@pytest.mark.parametrize("test", ["x is None", "x is not None and y is None", "not (x is y)",
                                  "x.shape[0] > 1", "len(x.shape) == 2 and x.shape.num_elements() == 4"])
def test_python_tests_get_no_tensor_rewrite(test):
    """Identity comparisons and static shape facts are Python bools while tracing: nothing to
    rewrite (the guards and shape tests the fixes write are such tests, so fixes stay idempotent)."""
    source = f"import tensorflow as tf\n\n\ndef f(x, y):\n    if {test}:  # flag\n        x = x + 1.0\n    return x\n"
    fix = fix_of(source)
    assert fix is None or not fix.edits, fix


def test_a_shape_test_mixed_with_data_is_not_read_statically():
    """Only a test made entirely of shape facts is read on the static shape."""
    source = ("import tensorflow as tf\n\n\ndef f(x):\n    if tf.shape(x)[0] > 1 and tf.reduce_sum(x) > 0:  # flag\n"
              "        x = x * 2.0\n    return x\n")
    fixed = apply_edits(source, fix_of(source).edits)
    assert ".shape[0]" not in fixed and "tf.shape(x)[0] > 1" in fixed


def test_a_name_rebound_between_its_shape_binding_and_the_test_is_not_inlined():
    source = ("import tensorflow as tf\n\n\ndef f(x):\n    n = tf.shape(x)[0]\n    x = tf.concat([x, x], 0)\n"
              "    if n > 1:  # flag\n        x = x * 2.0\n    return x\n")
    fixed = apply_edits(source, fix_of(source).edits)
    assert "x.shape[0]" not in fixed


def test_growth_inside_a_branch_does_not_unstack_the_loop():
    """An append under an `if` in a loop over a tensor: the finding may be about the branch, so the
    loop is not unrolled over tf.unstack (the branch's own rewrite, if any, applies)."""
    source = ("import tensorflow as tf\n\n\ndef keep_positive(xs):\n    out = []\n    for x in tf.nn.relu(xs):\n"
              "        if tf.reduce_sum(x) > 0:\n            out.append(x)  # flag\n    return out\n")
    fix = fix_of(source)
    assert fix is None or "tf.unstack" not in apply_edits(source, fix.edits)


_BOUNDED_CALL = '''import tensorflow as tf

LIMIT = 4


def decayed(x, lengths, steps):
    n = tf.shape(x)[0]

    def body(i, h):
        return i + 1, tf.tanh(h * x[i])

    _, h = tf.while_loop(lambda i, h: i < n, body, (tf.constant(0), x[0]))
    return h
'''


@pytest.mark.parametrize("old, new, expected", [
    ("x", "x", ("safe", "(tf.constant(0), x[0]), maximum_iterations=n)")),
    ("i < n", "i <= n", ("safe", "maximum_iterations=n + 1)")),
    ("i < n", "n > i", ("safe", "maximum_iterations=n)")),
    ("i < n", "tf.logical_and(i < LIMIT, tf.reduce_any(h > 0))", ("safe", "maximum_iterations=LIMIT)")),
    ("i < n", "(i < x.shape[0] - 1) & tf.reduce_any(h > 0)", ("safe", "maximum_iterations=x.shape[0] - 1)")),
    ("tf.constant(0), x[0]", "2, x[0]", ("safe", "maximum_iterations=n)")),  # starts later: fewer trips
    ("i + 1, tf", "3 + i, tf", ("safe", "maximum_iterations=n)")),
    ("i < n", "i < steps", ("unsafe", "maximum_iterations=steps)")),  # a parameter: static only if Python
    ("(tf.constant(0), x[0])", "[tf.constant(0), x[0]]", ("safe", "return [i + 1, tf.tanh(h * x[i])]")),
    ("    n = tf.shape(x)[0]\n", "    n = tf.reduce_max(lengths)\n", None),  # data: XLA has no bound for it
    ("tf.constant(0), x[0]", "tf.constant(-1), x[0]", None),  # starts below 0: more trips than n
    ("i + 1, tf", "i - 1, tf", None),
    ("i + 1, tf", "i + 0, tf", None),
    ("        return i + 1,", "        i = i * 2\n        return i + 1,", None),  # the counter rebound
    ("lambda i, h: i < n", "lambda i, h: i < tf.shape(h)[0]", None),  # the bound reads a loop variable
    ("lambda i, h: i < n", "lambda i, h: h[0] < n", None),  # no counter
    ("x[0]))", "x[0]), maximum_iterations=2)", None),  # already bounded
])
def test_loop_bound_applies_only_to_counted_loops(old, new, expected):
    source = _BOUNDED_CALL.replace(old, new)
    tree = ast.parse(source)
    loop = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "tf.while_loop")
    fix = fix_of(source, diagnostic_at(loop, "XLA210"))
    if expected is None:
        assert fix is None or not fix.edits, fix.message
        return
    assert fix is not None and fix.applicability.value == expected[0], fix
    fixed = apply_edits(source, fix.edits)
    assert expected[1] in fixed, fixed
    ast.parse(fixed)


_ROW_SLICE_LOOP = '''import tensorflow as tf


def rows_of(x, w):
    n = tf.shape(x)[0]
    ta = tf.TensorArray(tf.float32, size=n)

    def body(i, ta):
        return i + 1, ta.write(i, tf.matmul(x[i:i + 1, :], w))

    _, ta = tf.while_loop(lambda i, ta: i < n, body, [tf.constant(0), ta],
                          shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 1, 2])])
    return ta.stack()
'''


@pytest.mark.parametrize("old, new, expected", [
    ("x", "x", ("safe", "x[i, tf.newaxis, :]")),
    ("x[i:i + 1, :]", "x[i:1 + i]", ("safe", "x[i, tf.newaxis]")),
    ("n = tf.shape(x)[0]", "n = x.shape[0]", ("safe", "x[i, tf.newaxis, :]")),
    ("tf.constant(0), ta]", "2, ta]", ("safe", "x[i, tf.newaxis, :]")),  # starts later: still inside
    # no proof that i stays within x's rows: the fix says where it differs
    ("n = tf.shape(x)[0]", "n = tf.shape(w)[0]", ("unsafe", "x[i, tf.newaxis, :]")),
    ("lambda i, ta: i < n", "lambda i, ta: i <= n", ("unsafe", "x[i, tf.newaxis, :]")),
    ("tf.constant(0), ta]", "tf.constant(-1), ta]", ("unsafe", "x[i, tf.newaxis, :]")),
    ("return i + 1,", "return i + 0,", ("unsafe", "x[i, tf.newaxis, :]")),
    ("x[i:i + 1, :]", "x[1:2, i:i + 1]", ("unsafe", "x[1:2, i, tf.newaxis]")),  # axis 1, bound of axis 0
    # not one row at the loop variable: left as written (only the invariant changes)
    ("x[i:i + 1, :]", "x[i:i + 2, :]", ("safe", "x[i:i + 2, :]")),
    ("x[i:i + 1, :]", "x[n - 1:n, :]", ("safe", "x[n - 1:n, :]")),
])
def test_row_slice_at_the_loop_variable_becomes_an_index(old, new, expected):
    source = _ROW_SLICE_LOOP.replace(old, new)
    tree = ast.parse(source)
    loop = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "tf.while_loop")
    fix = fix_of(source, diagnostic_at(loop, "XLA209"))
    assert fix is not None and fix.applicability.value == expected[0], fix
    fixed = apply_edits(source, fix.edits)
    assert expected[1] in fixed and "tf.TensorShape(None)]" in fixed, fixed
    if expected[0] == "unsafe":
        assert "is empty when `i` is outside the axis, where `i, tf.newaxis` raises eagerly" in fix.message
    ast.parse(fixed)


_BOUNDED_WHILE = '''import tensorflow as tf


@tf.function(jit_compile=True)
def accumulate(a, x, start):
    with tf.GradientTape() as tape:
        tape.watch(a)
        s, i = a, tf.constant(0)
        while i < tf.shape(x)[0]:
            s = tf.tanh(s) * a + x[i]
            i += 1
    return tape.gradient(s, a)
'''


@pytest.mark.parametrize("old, new, expected", [
    ("x", "x", "\n            tf.autograph.experimental.set_loop_options(maximum_iterations=tf.shape(x)[0])\n"
               "            s = tf.tanh(s)"),
    ("            i += 1\n", "            i = i + 2\n", "set_loop_options(maximum_iterations=tf.shape(x)[0])"),
    ("s, i = a, tf.constant(0)", "s, i = a, tf.constant(-2)", None),
    ("s, i = a, tf.constant(0)", "s, i = a, start", None),  # a start the reader cannot see
    ("            i += 1\n", "            if s[0] > 0:\n                i += 1\n", None),  # not every iteration
    ("            i += 1\n", "            i += 1\n            if s[0] > 0:\n                continue\n", None),
    ("            s = tf.tanh(s) * a + x[i]\n", "            x = x * 2.0\n            s = tf.tanh(s) * a\n", None),
    ("while i < tf.shape(x)[0]:", "while i < tf.reduce_max(x):", None),
])
def test_loop_bound_of_a_while_statement_applies_only_to_counted_loops(old, new, expected):
    source = _BOUNDED_WHILE.replace(old, new)
    tree = ast.parse(source)
    loop = next(n for n in ast.walk(tree) if isinstance(n, ast.While))
    fix = fix_of(source, diagnostic_at(loop, "XLA210"))
    if expected is None:
        assert fix is None or not fix.edits, fix.message
        return
    assert fix is not None and fix.applicability.value == "safe", fix
    fixed = apply_edits(source, fix.edits)
    assert expected in fixed, fixed
    ast.parse(fixed)


_SWIN_LIKE = '''import tensorflow as tf


class Block(tf.keras.layers.Layer):
    def __init__(self, resolution: tuple[int, int], window, shift, **kwargs):
        super().__init__(**kwargs)
        min_res = tf.reduce_min(resolution)
        self.window_size = min_res if min_res <= window else window
        self.shift_size = 0 if min_res <= self.window_size else shift

    def mask(self, height, shift_size):
        if shift_size > 0:
            return tf.range(-shift_size % height, height)
        return tf.range(height)

    def call(self, x, dims: tuple[int, int]):
        min_res = tf.reduce_min(dims)
        shift_size = 0 if min_res <= self.window_size else self.shift_size
        return self.mask(dims[0], shift_size=shift_size)
'''


@pytest.mark.parametrize("old, new, expected", [
    ("x", "x", ("        min_res = min(resolution)\n", "        min_res = min(dims)\n")),
    ("tf.reduce_min(dims)", "tf.math.reduce_max(dims)", ("        min_res = max(dims)\n",)),
    ("min_res = tf.reduce_min(resolution)", "min_res = tf.minimum(resolution[0], resolution[1])",
     ("min_res = min(resolution[0], resolution[1])",)),
    ("tf.reduce_min(dims)", "tf.reduce_min(tf.constant(dims))", None),  # another op: no Python twin known
    ("dims: tuple[int, int]", "dims", None),  # nothing shows that dims is not a tensor
    ("tf.reduce_min(dims)", "tf.reduce_min(dims, axis=0)", None),
    ("        min_res = tf.reduce_min(dims)\n", "        min_res = tf.reduce_min(dims)\n        min_res += 1\n", None),
])
def test_constant_guard_follows_parameters_and_attributes(old, new, expected):
    source = _SWIN_LIKE.replace(old, new)
    tree = ast.parse(source)
    guard = next(n for n in ast.walk(tree) if isinstance(n, ast.If))
    fix = fix_of(source, diagnostic_at(guard, "XLA115"))
    if expected is None:
        assert fix is None or not fix.edits, fix.message
        return
    assert fix is not None and fix.applicability.value == "unsafe", fix
    fixed = apply_edits(source, fix.edits)
    for piece in expected:
        assert piece in fixed, fixed
    assert "tf.reduce_m" not in fixed
    ast.parse(fixed)


_TA_INVARIANT = '''import tensorflow as tf


def collect(frames, h):
    n = frames.shape[0]
    ta = tf.TensorArray(tf.float32, size=n)

    def body(i, h, ta):
        return i + 1, h * 2.0, ta.write(i, tf.reduce_mean(frames[i], axis=0) + h)

    _, h, ta = tf.while_loop(lambda i, h, ta: i < n, body, [tf.constant(0), h, ta],
                             shape_invariants=[tf.TensorShape([]), tf.TensorShape([None]), tf.TensorShape([None, 2])])
    return ta.stack()
'''


@pytest.mark.parametrize("old, new, expected", [
    ("x", "x", "tf.TensorShape([None]), tf.TensorShape(None)])"),  # only the TensorArray's invariant changes
    ("tf.TensorShape([None, 2])]", "tf.compat.v1.TensorShape([None, 2])]", "tf.compat.v1.TensorShape(None)])"),
    ("tf.TensorShape([None, 2])]", "tf.TensorShape(None)]", None),  # already the flow's spec
    ("    ta = tf.TensorArray(tf.float32, size=n)\n", "    ta = frames\n", None),  # not a TensorArray
    ("    ta = tf.TensorArray(tf.float32, size=n)\n", "", None),  # a global the reader cannot see
])
def test_tensorarray_invariant_changes_only_the_tensorarray(old, new, expected):
    source = _TA_INVARIANT.replace(old, new)
    tree = ast.parse(source)
    loop = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "tf.while_loop")
    fix = fix_of(source, diagnostic_at(loop, "XLA209"))
    if expected is None:
        assert fix is None or not fix.edits, fix.message
        return
    assert fix is not None and fix.applicability.value == "safe", fix
    fixed = apply_edits(source, fix.edits)
    assert expected in fixed, fixed
    assert "tf.TensorShape([None])," in fixed


@pytest.mark.parametrize("layer, expected", [
    ("layers.UpSampling2D(2)", "layers.Lambda(lambda t: tf.repeat(tf.repeat(t, 2, axis=1), 2, axis=2))"),
    ("layers.UpSampling2D()", "layers.Lambda(lambda t: tf.repeat(tf.repeat(t, 2, axis=1), 2, axis=2))"),
    ("layers.UpSampling2D(size=(3, 1), data_format='channels_first', name='up')",
     "layers.Lambda(lambda t: tf.repeat(tf.repeat(t, 3, axis=2), 1, axis=3), name='up')"),
    ("tf.keras.layers.UpSampling2D(2, interpolation='nearest')",
     "tf.keras.layers.Lambda(lambda t: tf.repeat(tf.repeat(t, 2, axis=1), 2, axis=2))"),
    ("layers.UpSampling2D(2, interpolation='bilinear')", None),  # other numbers, and its gradient compiles
    ("layers.UpSampling2D(factor)", None),  # not a literal
    ("layers.UpSampling2D(2.5)", None),
])
def test_nearest_upsampling_becomes_repeat_only_for_literal_integer_factors(layer, expected):
    source = ("import tensorflow as tf\nfrom tensorflow.keras import layers\n\nfactor = 2\n\n\n"
              f"def make():\n    return tf.keras.Sequential([layers.Dense(8), {layer}])\n")
    tree = ast.parse(source)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func).endswith("UpSampling2D"))
    fix = fix_of(source, diagnostic_at(call, "XLA316"))
    if expected is None:
        assert fix is None or not fix.edits, fix.message
        return
    assert fix is not None and fix.applicability.value == "unsafe", fix
    assert expected in apply_edits(source, fix.edits)
    if "channels_first" in layer:
        assert "channels_last" not in fix.message


@pytest.mark.parametrize("draw, expected", [
    ("tf.random.stateless_normal([4], seed=(3, 4))", 'tf.random.stateless_normal([4], seed=(3, 4), alg="philox")'),
    ("tf.random.stateless_normal([4], (3, 4))", 'tf.random.stateless_normal([4], (3, 4), alg="philox")'),
    ("tf.random.stateless_normal([4], seed=seed)", None),  # a tensor seed: philox differs under XLA too
    ("tf.random.stateless_normal([4], seed=(3, 4), alg='threefry')", None),
    ("tf.random.stateless_normal([4], seed=(3, 4), **opts)", None),
])
def test_seeded_draw_is_pinned_to_philox_only_for_constant_seeds(draw, expected):
    source = f"import tensorflow as tf\n\n\ndef noise(seed, opts):\n    return {draw}\n"
    tree = ast.parse(source)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and "stateless" in ast.unparse(n.func))
    fix = fix_of(source, diagnostic_at(call, "XLA315"))
    if expected is None:
        assert fix is None or not fix.edits, fix.message
        return
    assert fix is not None and fix.applicability.value == "unsafe", fix
    assert expected in apply_edits(source, fix.edits)


@pytest.mark.parametrize(("body", "expected"), [
    ("    y = tf.one_hot(ids, n)\n    return tf.reduce_sum(y, -1)\n", "y"),
    ("    y = tf.one_hot(ids, n)\n    return tf.reduce_sum(y, -1) + y\n", None),  # two readers
    ("    y = tf.one_hot(ids, n); z = 1\n    return tf.reduce_sum(y, -1)\n", None),  # not alone on its line
    ("    y = tf.one_hot(ids, n)\n    y = y * 2\n    return tf.reduce_sum(y, -1)\n", None),  # rebound
    ("    y = z = tf.one_hot(ids, n)\n    return tf.reduce_sum(y, -1)\n", None),  # two targets
])
def test_sole_reader_is_the_one_read_the_assignment_binds(body: str, expected: str | None) -> None:
    """Source.sole_reader: the one home of 'this call's value is read exactly once' for the
    repeat and summed-size rewrites."""
    from xlacheck.rewrites._source import Source

    text = "import tensorflow as tf\ndef f(ids, n):\n" + body
    tree = ast.parse(text)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "tf.one_hot")
    found = Source(text, tree).sole_reader(call)
    assert (found[1].id if found else None) == expected
    if found:
        assert found[0].value is call and found[1].lineno == 4


@pytest.mark.parametrize("body, returned", [
    ("    return tf.range(n) + offset  # flag(XLA205): tf.range(n)\n", True),
    ("    positions = tf.range(n)  # flag(XLA205): tf.range(n)\n    return -positions\n", True),
    ("    positions = tf.range(n)  # flag(XLA205): tf.range(n)\n    return tf.reduce_sum(positions)\n", False),
])
def test_shape_argument_says_why_no_fix_when_the_output_is_data_sized(body, returned):
    """A data-sized tensor the function returns (XLA205): no static-shape code returns the same
    output, so the explanation says why no fix is offered; where a reduction consumes it the
    advice stands without that sentence."""
    source = f"import tensorflow as tf\n\n\ndef positions_from(count, offset):\n    n = tf.reduce_max(count)\n{body}"
    fix = fix_of(source)
    assert fix is not None and fix.applicability is Applicability.DISPLAY_ONLY and not fix.edits
    assert ("No fix is offered: `positions_from` returns this data-sized tensor" in fix.message) is returned


@pytest.mark.parametrize("body", [
    "        i += 1\n        rows = rows.write(i, x[i - 1])\n",  # writes 1..n: a size of n is one short
    "        rows = rows.write(i, x[i])\n        i += 2\n",  # every other index
    "        rows = rows.write(i, x[i])\n        i += 1\n        if tf.reduce_sum(x[i - 1]) > 0:\n            break\n",
])
def test_a_python_while_that_does_not_write_each_index_once_keeps_its_dynamic_size(body):
    source = ("import tensorflow as tf\n\n\ndef rows_of(x):\n"
              "    rows = tf.TensorArray(tf.float32, size=0, dynamic_size=True)  # flag(XLA203)\n"
              "    i = 0\n    while i < tf.shape(x)[0]:\n" + body + "    return rows.stack()\n")
    assert fix_of(source) is None


def test_filtered_sum_of_a_generator_keeps_the_call_parentheses():
    """``sum(e for t in items if c)``: the generator's span holds the call's parentheses, so the list
    that replaces it is written inside them (``sum[...]`` would not parse: the fix was dropped)."""
    source = ("import tensorflow as tf\n\n\n@tf.function(autograph=False)\ndef f(x):\n"
              "    return sum(v * 2.0 for v in tf.unstack(x) if v > 0.0)\n")
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.GeneratorExp))
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA105")])
    fixed = apply_edits(source, result.fix.edits)
    ast.parse(fixed)
    assert "    return sum([tf.where(tf.reduce_any(v > 0.0), v * 2.0, 0) for v in tf.unstack(x)])\n" in fixed


_RECURRENT = """import tensorflow as tf

RNN = tf.keras.layers.LSTM(4{options})


def encode(x, n):
    return RNN({call})  # flag(XLA205): {sliced}
"""


@pytest.mark.parametrize("options, call", [
    (", return_sequences=True", "x[:, :n]"),  # every step's output: the time axis is returned
    (", go_backwards=True", "x[:, :n]"),
    (", return_state=True", "x[:, :n]"),
    ("", "x[:, 1:n]"),  # not a prefix
    ("", "x[:n]"),  # the batch axis
    ("", "x[:, :n], mask=None"),  # a mask of its own
    ("", "x[:, :n], None"),  # mask passed positionally
])
def test_recurrent_prefix_mask_declines_layers_and_slices_it_does_not_cover(options, call):
    fix = fix_of(_RECURRENT.format(options=options, call=call, sliced=call.split(", None")[0].split(", mask")[0]))
    assert fix is None or not fix.edits


def test_recurrent_prefix_mask_needs_a_bound_that_keeps_its_value():
    source = """import tensorflow as tf

RNN = tf.keras.layers.LSTM(4)


def encode(x, n):
    h = x[:, :n]  # flag(XLA205): x[:, :n]
    n = n + 1
    return RNN(h)
"""
    fix = fix_of(source)
    assert fix is None or not fix.edits
    fixed = fix_of(source.replace("    n = n + 1\n", ""))
    assert fixed is not None and fixed.edits


@pytest.mark.parametrize("call", [
    "tf.reduce_sum(x[:, :n], axis=0)",  # another axis than the cut one: the result keeps a data-sized axis
    "tf.reduce_mean(x[:, :n])",  # a full mean: the count reads every axis
    "tf.reduce_sum(x[:, :n] * w)",  # an operand that is not cut: another shape
    "tf.reduce_sum(x[:, -n:], axis=1)",  # a negated bound: it counts from the end (a window `1:n` is masked)
    "tf.reduce_sum(x[:, :n:2], axis=1)",  # a step: not every position between the bounds
    "tf.reduce_sum(x[:, 1:n] + x[:, :n], axis=1)",  # two cuts with other bounds: another mask each
    "tf.reduce_sum(tf.cumsum(x[:, :n], axis=1), axis=1)",  # not elementwise
])
def test_prefix_reduction_declines_what_the_mask_does_not_cover(call):
    cut = "x[:, " + call.split("x[:, ")[1].split("]")[0] + "]"
    source = f"import tensorflow as tf\n\n\ndef f(x, w, n):\n    return {call}  # flag(XLA205): {cut}\n"
    fix = fix_of(source)
    assert fix is None or not fix.edits


@pytest.mark.parametrize("call, masked", [
    ("tf.reduce_sum(tf.math.log(x[:n]))", True),  # masked_reduction's first rows: x zeroed before log
    ("tf.reduce_max(-x[:n])", True),
    ("tf.reduce_sum(x[:n] ** 2)", False),  # masked_reduction declines: the prefix reduction fixes it
    ("tf.reduce_sum(x[:n] / y[:n])", False),
])
def test_prefix_reduction_leaves_a_full_reduction_to_masked_reduction_where_it_applies(call, masked):
    """review22: the prefix reduction, pointed at the slice, was tried before masked_reduction (tried at the
    reduction call) and replaced its gradient-exact rewrite of ``tf.reduce_op(E(x[:n]))``; it now defers
    to it where it applies, and still fixes the forms masked_reduction declines."""
    cut = "x[:n]"
    source = f"import tensorflow as tf\n\n\ndef f(x, y, n):\n    return {call}  # flag(XLA205): {cut}\n"
    fix = fix_of(source)
    assert fix is not None and fix.edits
    text = apply_edits(source, fix.edits)
    assert ("masked_values" in text) is masked, text
    assert "tf.cast(n, tf.int64)" in text or masked, text


@pytest.mark.parametrize("body", [
    "    h = x[:, :n]  # flag(XLA205): x[:, :n]\n    return tf.reduce_sum(h, axis=1) + h[0, 0]\n",  # read outside
    "    h = x[:, :n]  # flag(XLA205): x[:, :n]\n    return tf.reduce_sum(h, axis=0)\n",  # another axis
    "    h = x[:, :n]  # flag(XLA205): x[:, :n]\n    n = n + 1\n    return tf.reduce_sum(h, axis=1)\n",  # bound rebound
    "    h = x[:, :n]  # flag(XLA205): x[:, :n]\n    h = h * 2.0\n    return tf.reduce_sum(h, axis=1)\n",  # h rebound
])
def test_a_named_prefix_is_masked_only_where_every_read_is_a_reduction_over_the_cut_axis(body):
    source = f"import tensorflow as tf\n\n\ndef f(x, n):\n{body}"
    fix = fix_of(source)
    assert fix is None or not fix.edits or "h = x[:, :n]" in apply_edits(source, fix.edits)
    named = "import tensorflow as tf\n\n\ndef f(x, n):\n    h = x[:, :n]  # flag(XLA205): x[:, :n]\n" \
            "    return tf.reduce_sum(h * 2.0, axis=1)\n"
    fixed = fix_of(named)
    assert fixed is not None and "h = x" not in apply_edits(named, fixed.edits)


@pytest.mark.parametrize(("value", "bound"), [
    ("tf.cast(tf.clip_by_value(x * 255.0, 0.0, 255.0), tf.int32)", 255),
    ("tf.reshape(tf.cast(tf.minimum(x, 9), tf.int64), [-1])", 9),
    ("tf.cast(tf.clip_by_value(x, 0.0, 7.5), tf.int32)[0]", 7),
    ("tf.cast(tf.clip_by_value(x, 0.0, 255.0), tf.float32)", None),  # not an integer cast
    ("tf.cast(tf.clip_by_value(x, 0.0, 255.0), tf.int32) + 1", None),  # arithmetic after the bound
    ("tf.cast(tf.clip_by_value(x, 0.0, hi), tf.int32)", None),  # a bound that is no number
    ("tf.cast(tf.minimum(9, x), tf.int32)", None),
    ("tf.cast(x, tf.int32)", None),
    ("tf.cast(x, tf.int32) % 8", 7),  # an integer remainder: below the modulus
    ("tf.math.floormod(tf.cast(x, tf.int64), 8)", 7),
    ("tf.cast(x % 8, tf.int32)", 8),  # x may be a float: -1e-20 % 8.0 rounds to 8.0
    ("tf.cast(x, tf.int32) % hi", None),
    ("tf.cast(x, tf.int32) % -8", None),
])
def test_int_upper_bound_reads_only_bounds_the_code_shows(value, bound):
    """fixes28: the bound of an integer tensor that sets a bincount's length comes from a clip, a
    minimum or a remainder by a number, through integer casts and element moves, and from nothing else."""
    from xlacheck.rewrites._source import Source
    from xlacheck.rewrites.value_bounds import int_upper_bound

    text = f"import tensorflow as tf\ndef f(x, hi):\n    ids = {value}\n    return ids\n"
    tree = ast.parse(text)
    read = tree.body[1].body[1].value  # type: ignore[attr-defined]
    assert int_upper_bound(Source(text, tree), read) == bound


@pytest.mark.parametrize("call, flagged", [
    ("tf.concat([tf.ones([k]), tf.zeros([tf.shape(x)[0] - k])], axis=1)", "tf.ones([k])"),  # not axis 0
    ("tf.concat([tf.ones([k]), tf.zeros([tf.shape(x)[0] - j])], axis=0)", "tf.ones([k])"),  # sizes not complementary
    ("tf.concat([tf.ones([k]), tf.zeros([n - k])], axis=0)", "tf.ones([k])"),  # n from data: no static length
    ("tf.concat([tf.ones([k, 2]), tf.zeros([tf.shape(x)[0] - k, 3])], axis=0)", "tf.ones([k, 2])"),  # other rows
    ("tf.concat([y[:k], tf.zeros([tf.shape(x)[0] - k])], axis=0)", "y[:k]"),  # y need not be as long as x
    ("tf.concat([x[1:k], tf.zeros([tf.shape(x)[0] - k])], axis=0)", "x[1:k]"),  # not a prefix
    ("tf.concat([tf.zeros([tf.shape(x)[0] - k]), x[:k]], axis=0)", "x[:k]"),  # the prefix after the fill
    ("tf.concat([tf.ones([k]), tf.zeros([tf.shape(x)[0] - k]), x], axis=0)", "tf.ones([k])"),  # three pieces
])
def test_concat_fills_declines_pieces_it_does_not_cover(call, flagged):
    source = ("import tensorflow as tf\n\n\ndef f(x, y, w):\n    k = tf.reduce_sum(tf.cast(w > 0, tf.int32))\n"
              f"    j, n = k + 1, tf.reduce_max(y)\n    return {call}  # flag(XLA205): {flagged}\n")
    fix = fix_of(source)
    assert fix is None or not fix.edits or "sequence_mask" not in fix.edits[0].content, fix


_WIDTH_LAYER = next(e.source for e in EXAMPLES if e.name == "reshape_to_a_width_stored_as_variable")


@pytest.mark.parametrize("old, new", [
    ("tf.Variable(width, trainable=False)", "tf.Variable(width)"),  # trainable: an optimizer may own it
    ("tf.Variable(width, trainable=False)", "tf.Variable(tf.reduce_max(width), trainable=False)"),  # not a number
    ("return self.width + 1", "self.width.assign(self.width + 1)"),  # assigned as a variable
    ("return self.width + 1", "return self.width.numpy()"),  # read as a variable
    ("return self.width + 1", "return print(self.width)"),  # handed to another function
    ("return self.width + 1", "self.width = 3"),  # bound twice
    ("super().__init__(**kwargs)", "super().__init__(**kwargs)\n        width = width * 2"),  # not the argument
])
def test_variable_size_declines_a_variable_used_as_one(old, new):
    source = _WIDTH_LAYER.replace(old, new)
    assert source != _WIDTH_LAYER
    fix = fix_of(source)
    assert fix is None or not any("self.width = width" in e.content for e in fix.edits), fix


def test_variable_size_keeps_the_number_read_as_one():
    fix = fix_of(_WIDTH_LAYER)
    assert fix is not None and [e.content for e in fix.edits] == ["width"]
