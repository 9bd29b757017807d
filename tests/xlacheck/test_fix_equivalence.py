"""Proof that the rewrites are equivalent: the original runs eagerly, the fixed code runs under
``tf.function(jit_compile=True)``, on hypothesis-generated values (all-masked, none-masked,
zeros, negatives, NaN/inf where the example allows them); outputs must be equal, and so must
gradients where the code is a loss.

SAFE fixes are exercised on every input the original accepts. UNSAFE fixes are exercised on
the inputs their stated reasons leave equivalent (e.g. no NaN for ``min()``, a positive
smoothing for the dtype cast); draws on which the original itself raises are skipped.
Shapes are fixed per example, so each fixed function compiles once and hypothesis varies values.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # before TensorFlow is imported (tf.keras = Keras 2)
tf = pytest.importorskip("tensorflow")
np = pytest.importorskip("numpy")
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

from xlacheck.rewrites import attach_fixes  # noqa: E402
from xlacheck.rewrites._fix import apply_edits  # noqa: E402

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
pytestmark = pytest.mark.tf

_spec = importlib.util.spec_from_file_location("rewrite_examples", Path(__file__).with_name("rewrite_examples.py"))
examples = sys.modules.setdefault(_spec.name, importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(examples)  # type: ignore[union-attr]
FIXABLE = [e for e in examples.EXAMPLES if e.applicability != "display-only"]
_spec_tests = importlib.util.spec_from_file_location("_rewrite_tests", Path(__file__).with_name("test_rewrites.py"))
_rewrite_tests = importlib.util.module_from_spec(_spec_tests)
_spec_tests.loader.exec_module(_rewrite_tests)  # type: ignore[union-attr]

F32 = dict(width=32, allow_subnormal=False)
ELEMENTS = {
    "float": (np.float32, st.floats(-3, 3, **F32) | st.sampled_from([0.0, -0.0, 1.0, -1.0])),
    "float_nan": (np.float32, st.floats(-3, 3, **F32) | st.sampled_from([np.nan, np.inf, -np.inf, 0.0])),
    "pos": (np.float32, st.floats(0.5, 3, **F32)),
    "unit": (np.float32, st.floats(0, 1, **F32)),
    "label": (np.int32, st.integers(-1, 3)),
    "label_some": (np.int32, st.integers(-1, 3)),
    "id": (np.int32, st.integers(0, 3)),
    "bin": (np.int32, st.integers(-1, 5)),  # bincount ids: negative (the original raises), in range, past maxlength
    "mask": (np.int32, st.integers(0, 1)),
    "bool": (np.bool_, st.booleans()),
    "step": (np.float32, st.floats(0, 300, **F32)),
    "smoothing": (np.float32, st.floats(0, 0.5, **F32)),
    "sorted_ids": (np.int32, st.integers(0, 2)),  # sorted after drawing
    "level": (np.int32, st.integers(0, 2)),
    "tie": (np.float32, st.sampled_from([-1.0, 0.0, 1.0, 2.0, np.nan, np.inf, -np.inf])),  # frequent ties
    "count": (np.int32, st.integers(-2, 5)),  # a loop bound: negative, zero and a few steps
    "count_positive": (np.int32, st.integers(1, 5)),
    "cell": (np.int32, st.integers(0, 23)),  # flat indices into a [2, 3, 4] grid
}


EDGES = {"label": (-1, 2), "label_some": (2,), "mask": (0, 1), "bool": (False, True), "float": (0.0,), "float_nan": (np.nan,), "tie": (1.0, np.nan),
         "id": (0,), "count": (0, 1, 2), "bin": (-1, 0, 5)}


def partition(shape, kind):
    """``row_lengths:N`` / ``row_splits:N``: a valid ragged partition of N values into the rows
    the shape says, empty rows and all values in one row included (invalid ones only raise)."""
    form, total = kind.split(":")
    rows = shape[0] - (form == "row_splits")
    cuts = st.lists(st.integers(0, int(total)), min_size=rows - 1, max_size=rows - 1).map(sorted)
    bounds = cuts.map(lambda c: np.array([0, *c, int(total)], np.int32))
    return bounds.map(np.diff if form == "row_lengths" else (lambda b: b))


def strategy(spec):
    parts = []
    for shape, kind in spec:
        if not isinstance(kind, str):
            parts.append(st.just(kind))  # a Python value, passed as is
            continue
        if kind.startswith(("row_lengths:", "row_splits:")):
            parts.append(partition(shape, kind).map(tf.constant))
            continue
        dtype, elements = ELEMENTS[kind]
        values = hnp.arrays(dtype, shape, elements=elements)
        if kind == "label_some":
            values = values.filter(lambda a: (a >= 0).any())
        if kind in EDGES:  # all masked out / none masked out / all zero, drawn first
            values = st.one_of(*(st.just(np.full(shape, v, dtype)) for v in EDGES[kind]), values)
        if kind == "sorted_ids":
            values = values.map(np.sort)
        parts.append(values.map(tf.constant))
    return st.tuples(*parts)


def flagged(source: str):
    return _rewrite_tests.flagged(source)


def entry(namespace: dict, source: str, example) -> object:
    name = example.extra.get("entry") or [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)][-1]
    return namespace[name]


def with_gradients(fn):
    """(output, d output / d float inputs), unconnected gradients as zeros."""

    def run(*args):
        floats = [a for a in args if tf.is_tensor(a) and a.dtype.is_floating]
        with tf.GradientTape() as tape:
            tape.watch(floats)
            out = fn(*args)
        grads = tape.gradient(out, floats, unconnected_gradients=tf.UnconnectedGradients.ZERO)
        return out, [tf.convert_to_tensor(g) for g in grads]  # gather gives IndexedSlices

    return run


_COMPILED: dict[str, tuple] = {}
_MODULES = Path(tempfile.mkdtemp(prefix="xlacheck_fix_equivalence_"))


def load(name: str, source: str) -> dict:
    """Import the code from a real file: AutoGraph converts only functions whose source it can read."""
    path = _MODULES / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return vars(module)


def versions(example):
    """(original, fixed compiled with XLA), built once per example so XLA compiles once per shape."""
    if example.name not in _COMPILED:
        (diagnostic,) = attach_fixes(example.source, ast.parse(example.source), [flagged(example.source)])
        fixed_source = apply_edits(example.source, diagnostic.fix.edits)
        original = entry(load(f"original_{example.name}", example.source), example.source, example)
        fixed = entry(load(f"fixed_{example.name}", fixed_source), fixed_source, example)
        if example.grad:
            original, fixed = with_gradients(original), with_gradients(fixed)
        _COMPILED[example.name] = (original, tf.function(fixed, jit_compile=True))
    return _COMPILED[example.name]


def assert_same(expected, actual, rtol, same_dtype=True):
    """Equal shapes and values (NaN where NaN), and equal dtypes unless the fix is UNSAFE for a
    dtype change (``min()`` that may return a Python float, a branch cast to another dtype)."""
    expected = tf.nest.flatten(expected)
    actual = tf.nest.flatten(actual)
    assert len(expected) == len(actual)
    for e, a in zip(expected, actual):
        e, a = np.asarray(e), np.asarray(a)
        assert e.shape == a.shape, (e.shape, a.shape)
        assert not same_dtype or e.dtype == a.dtype, (e.dtype, a.dtype)
        np.testing.assert_allclose(a.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=1e-5,
                                   equal_nan=True)


@pytest.mark.parametrize("example", FIXABLE, ids=lambda e: e.name)
def test_fixed_code_compiles_and_matches_eager(example):
    original, fixed = versions(example)

    @settings(max_examples=15, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(strategy(example.inputs))
    def check(args):
        tf.config.run_functions_eagerly(True)  # as the oracle does: the original runs as plain Python
        try:
            expected = original(*args)
        except Exception:  # noqa: BLE001 - inputs the original rejects are outside the claim
            assume(False)
        finally:
            tf.config.run_functions_eagerly(False)
        assert_same(expected, fixed(*args), example.rtol, same_dtype=example.applicability == "safe")

    check()
    assert fixed.experimental_get_tracing_count() == 1  # values varied, the program did not


@pytest.mark.parametrize("example", FIXABLE, ids=lambda e: e.name)
def test_fixed_code_runs_eagerly_like_the_original(example):
    """The common path: the fixed code, run eagerly as plain Python (no tf.function, as a user
    debugging it or a CPU run would), returns what the original returns on the example inputs.
    A fix that compiles but breaks eager code (``tf.convert_to_tensor(err).max()``: no ``.max``
    on a tensor) fails here. UNSAFE fixes are held to the inputs their stated reasons leave
    equivalent, as in the XLA comparison."""
    (diagnostic,) = attach_fixes(example.source, ast.parse(example.source), [flagged(example.source)])
    fixed_source = apply_edits(example.source, diagnostic.fix.edits)
    original = entry(load(f"eager_original_{example.name}", example.source), example.source, example)
    fixed = entry(load(f"eager_fixed_{example.name}", fixed_source), fixed_source, example)

    @settings(max_examples=5, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(strategy(example.inputs))
    def check(args):
        tf.config.run_functions_eagerly(True)
        try:
            try:
                expected = original(*args)
            except Exception:  # noqa: BLE001 - inputs the original rejects are outside the claim
                assume(False)
            actual = fixed(*args)  # must not raise where the original returned
        finally:
            tf.config.run_functions_eagerly(False)
        if example.applicability == "unsafe":
            # A stated difference (e.g. "nothing kept: the original returns the int 0, the fix a
            # tensor of zeros"): a Python number where the fix gives a tensor of that value.
            expected = tf.nest.map_structure(
                lambda e, a: np.broadcast_to(np.asarray(e), np.shape(a)) if np.ndim(e) == 0 else e, expected, actual)
        assert_same(expected, actual, example.rtol, same_dtype=example.applicability == "safe")

    check()


def _example(name):
    return next(e for e in FIXABLE if e.name == name)


@pytest.mark.parametrize("a, b", [
    ([1.0, 1.0, 1.0], [1.0, 1.0, 0.0]),  # a tie: Python's min() keeps the first argument, and so does tf.where
    ([np.nan, 0.0, 0.0], [1.0, 1.0, 1.0]),  # NaN first: every comparison is False, the first argument is kept
    ([0.0, 0.0, 0.0], [np.nan, 1.0, 1.0]),  # NaN second: kept out
    ([np.inf, 0.0, 0.0], [-np.inf, 0.0, 0.0]),
])
def test_min_select_matches_python_on_ties_nan_and_inf(a, b):
    """Hand-picked inputs for the SAFE ``min(a, b)`` -> ``tf.where(b < a, b, a)``: values and
    gradients (which go to the argument Python returns, the first one on a tie) are equal."""
    original, fixed = versions(_example("min_of_two_means"))
    args = (tf.constant(a, tf.float32), tf.constant(b, tf.float32))
    tf.config.run_functions_eagerly(True)
    try:
        expected = original(*args)
    finally:
        tf.config.run_functions_eagerly(False)
    assert_same(expected, fixed(*args), 1e-6)


def test_any_over_an_empty_generator_is_false_like_python():
    """``any(...)`` of no elements is False and ``all(...)`` True: the list of no elements converts
    to an empty tensor, whose reductions give the same."""
    source = '''import tensorflow as tf


def any_big(x):
    return any(tf.reduce_max(tf.abs(r)) > 2.0 for r in tf.unstack(x))  # flag
'''
    (diagnostic,) = attach_fixes(source, ast.parse(source), [flagged(source)])
    assert diagnostic.fix.applicability.value == "safe"
    fixed = entry(load("fixed_any_empty", apply_edits(source, diagnostic.fix.edits)), source, _example("any_generator"))
    empty = tf.zeros([0, 2])
    assert bool(tf.function(fixed, jit_compile=True)(empty)) is False
    assert entry(load("original_any_empty", source), source, _example("any_generator"))(empty) is False


@pytest.mark.parametrize("keep", [(0, 0, 0), (1, 1, 1), (0, 1, 0), (1, 0, 1), (1, 1, 0)])
@pytest.mark.parametrize("values", [(np.inf, 0.0, 2.0), (np.nan, -1.0, np.inf), (-np.inf, np.inf, 0.0)])
def test_masked_cumsum_exact_with_nonfinite_values_next_to_masked_rows(values, keep):
    """The SAFE scan rewrite on the inputs where a product scan's gradient breaks: inf/NaN at
    selected and masked-out positions, all masked, none masked. Values and gradients equal."""
    source = '''import tensorflow as tf


def running(x, keep):
    return tf.cumsum(x[keep > 0], exclusive=True, reverse=True)  # flag
'''
    (diagnostic,) = attach_fixes(source, ast.parse(source), [flagged(source)])
    assert diagnostic.fix.applicability.value == "safe", diagnostic.fix.message
    name = f"scan_{abs(hash((values, keep)))}"
    original = with_gradients(load(f"original_{name}", source)["running"])
    fixed = with_gradients(load(f"fixed_{name}", apply_edits(source, diagnostic.fix.edits))["running"])
    args = (tf.constant(values, tf.float32), tf.constant(keep))
    assert_same(original(*args), tf.function(fixed, jit_compile=True)(*args), 1e-6)


def test_stacking_no_elements_raises_except_on_axis_0():
    """The facts the counted-loop rewrite relies on: a loop that ran zero times makes the original's
    ``tf.stack([], axis=k)`` raise for k != 0 (outside the claim), and return an empty float32
    vector for k == 0, which a TensorArray of another dtype or element shape does not reproduce
    (that fix is UNSAFE unless the loop provably runs)."""
    empty = tf.stack([])
    assert empty.dtype == tf.float32 and empty.shape == (0,)
    for axis in (1, -1, 2):
        with pytest.raises(IndexError):
            tf.stack([], axis=axis)


@pytest.mark.parametrize("horizon", [
    tf.constant([4]),  # a one-element rank-1 bound: bool() accepts it, the size is reshaped to a scalar
    tf.constant(2), tf.constant(3),
    np.int64(3), np.float64(4.5), 2**32 + 3,  # converted to int32 by `t < horizon` as by tf.maximum: 3, 4, 3
])
def test_counted_loop_trip_count_matches_python_for_odd_bounds(horizon):
    """The TensorArray's size equals the number of iterations the Python loop runs for bounds that
    hypothesis does not draw. Python and NumPy numbers are checked eagerly (tf.function turns them
    into constants or tensors of their own dtype, for the original loop condition as well); tensors
    also under XLA."""
    example = _example("counted_while_from_one_append_after_increment")
    (diagnostic,) = attach_fixes(example.source, ast.parse(example.source), [flagged(example.source)])
    original = with_gradients(entry(load("original_odd_bounds", example.source), example.source, example))
    fixed = with_gradients(entry(load("fixed_odd_bounds", apply_edits(example.source, diagnostic.fix.edits)),
                                 example.source, example))
    state = tf.constant([[0.5, np.inf, -1.0], [np.nan, 0.0, 2.0]])
    expected = original(state, horizon)
    assert_same(expected, fixed(state, horizon), 1e-6)
    if tf.is_tensor(horizon):
        assert_same(expected, tf.function(fixed, jit_compile=True)(state, horizon), 1e-5)


def _fixed_three_ways(source, name, entry_name):
    """The SAFE fix of ``source``: (original, [fixed eagerly, in a tf.function, under XLA])."""
    (diagnostic,) = attach_fixes(source, ast.parse(source), [flagged(source)])
    assert diagnostic.fix.applicability.value == "safe", diagnostic.fix.message
    original = load(f"original_{name}", source)[entry_name]
    fixed = load(f"fixed_{name}", apply_edits(source, diagnostic.fix.edits))[entry_name]
    return original, [fixed, tf.function(fixed), tf.function(fixed, jit_compile=True)]


_CHECKS = {
    "one_element_assert": ('''import tensorflow as tf


def scaled(x):
    assert x[:1] > 0.0, "the first entry must be positive"  # flag
    return x * 2.0
''', [[1.0, -2.0], [np.inf, np.nan]]),
    "numeric_assert": ('''import tensorflow as tf


def normalized(x):
    assert tf.reduce_sum(x), "the signal sums to zero"  # flag
    return x / tf.reduce_sum(x)
''', [[np.nan, 1.0], [np.inf, 0.0], [2.0, -1.0]]),
    "one_element_raise": ('''import tensorflow as tf


def scaled(x):
    if x[:1] < 0.0:  # flag
        raise ValueError("the first entry must not be negative")
    return x * 2.0
''', [[1.0, -2.0], [], [np.nan, 1.0]]),
}


@pytest.mark.parametrize("name", sorted(_CHECKS))
def test_check_fixes_pass_wherever_the_original_returns(name):
    """The Assert of a SAFE check fix passes, eagerly, in a tf.function (where Assert rejects a
    shape-[1] condition: the fix reduces it) and under XLA, on inputs where the original returns:
    one-element and empty conditions, NaN (true) and a numeric condition. Where the original
    raises, the fix raises too outside XLA (the check is kept)."""
    source, inputs = _CHECKS[name]
    original, fixed_versions = _fixed_three_ways(source, f"check_{name}", source.split("def ")[1].split("(")[0])
    for values in inputs:
        x = tf.constant(values, tf.float32)
        expected = original(x)
        for fixed in fixed_versions:
            assert_same(expected, fixed(x), 1e-6)
    failing = tf.constant([-1.0, 1.0] if name != "numeric_assert" else [1.0, -1.0])
    with pytest.raises((AssertionError, ValueError)):
        original(failing)
    for fixed in fixed_versions[:2]:
        with pytest.raises(tf.errors.InvalidArgumentError):
            fixed(failing)


@pytest.mark.parametrize("grad_values", [[3.0, 4.0, 0.0], [np.inf, 1.0, 0.0], [1e30, -1e30, 2.0], [-5.0, 0.0, 0.0]])
def test_one_branch_name_exact_where_the_original_returns(grad_values):
    """``if norm > max_norm: coef = max_norm / norm`` then ``grad * coef``: wherever the
    original returns (norm > max_norm), values and gradients of the NaN-poisoned fix are equal,
    inf included (the taken branch of tf.where gets the whole gradient)."""
    source = _example("one_branch_defined").source
    original, fixed_versions = _fixed_three_ways(source, "one_branch_hand", "clip_scale")
    args = (tf.constant(grad_values, tf.float32), 0.5)
    expected = with_gradients(original)(*args)
    for fixed in fixed_versions:
        assert_same(expected, with_gradients(fixed)(*args), 1e-6)
    with pytest.raises(UnboundLocalError):
        original(tf.constant([0.1, 0.0, 0.0]), 0.5)


@pytest.mark.parametrize("rows", [
    [[1.0, 2.0], [-3.0, np.inf], [np.nan, 1.0]],  # one kept row; inf and NaN in dropped rows
    [[np.inf, 1.0], [-0.0, 0.5], [-np.inf, -1.0]],  # inf in kept rows, a -0.0 entry
    [[2.0, 2.0], [1.0, 1.0], [0.5, 0.5]],  # every row kept
])
def test_filtered_add_n_exact_with_nonfinite_rows(rows):
    """The SAFE filtered ``tf.add_n``: dropped rows with inf/NaN add exact zeros and get zero
    gradients; kept rows sum as before."""
    source = _example("filtered_sum").source
    original, fixed_versions = _fixed_three_ways(source, f"filtered_{abs(hash(str(rows)))}", "positive_rows_total")
    x = tf.constant(rows, tf.float32)
    expected = with_gradients(original)(x)
    for fixed in fixed_versions:
        assert_same(expected, with_gradients(fixed)(x), 1e-6)


def _assert_refines(source: str, name: str, args, grad: bool = False):
    """The SAFE fix of a one-function source: where the original returns eagerly, the fix
    returns the same (values, dtypes and, with ``grad``, gradients) eagerly, in a tf.function
    and under XLA."""
    entry_name = [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)][-1]
    original, fixed_versions = _fixed_three_ways(source, name, entry_name)
    wrap = with_gradients if grad else (lambda fn: fn)
    tf.config.run_functions_eagerly(True)
    try:
        expected = wrap(original)(*args)
    finally:
        tf.config.run_functions_eagerly(False)
    for fixed in fixed_versions:
        assert_same(expected, wrap(fixed)(*args), 1e-6)

@pytest.mark.parametrize("ids", [
    tf.constant([0, 2**31 + 1, 2, 2**32], tf.int64),  # int64 ids past int32: dropped, not wrapped into a bin
    tf.constant([-0.5, 0.9, 2.9, 7.0]),  # float ids: bincount truncates them to int32
    tf.constant([True, False, True]),
    tf.zeros([0], tf.int32),  # no ids: K zeros
    tf.constant([[[0, 1], [2, 9]]]),  # any rank is flattened
])
def test_bincount_one_hot_matches_on_dtypes_and_ranks_hypothesis_does_not_draw(ids):
    source = '''import tensorflow as tf


def count(ids):
    return tf.math.bincount(ids, minlength=3, maxlength=3, dtype=tf.float64)  # flag
'''
    _assert_refines(source, f"bincount_{ids.dtype.name}_{ids.shape.rank}_{ids.shape.num_elements()}", (ids,))


@pytest.mark.parametrize("op", ["sum", "mean", "prod"])
@pytest.mark.parametrize("data, ids", [
    (np.zeros([0, 3], np.float32), np.zeros([0], np.int32)),  # no ids: no rows (reduce_max of nothing is INT_MIN)
    (np.array([[np.nan, 1.0], [0.0, np.inf], [-0.0, 2.0], [-np.inf, 0.0]], np.float32),
     np.array([1, 1, 4, 4], np.int64)),  # int64 ids; segments 0, 2 and 3 empty (0, 0 and 1)
    (np.arange(12, dtype=np.float32).reshape(3, 2, 2) - 4.0, np.array([0, 2, 2], np.int32)),  # rank-3 data
])
def test_segment_ops_match_unsorted_on_edge_inputs(op, data, ids):
    """Values and gradients of the SAFE segment rewrite on empty ids, int64 ids, empty segments
    between used ones, NaN/inf/zero data and rank-3 data."""
    cast = "    data = tf.cast(data, tf.float32)\n" if op == "mean" else ""  # mean is SAFE on float data only
    source = f'''import tensorflow as tf


def pool(data, ids):
{cast}    return tf.math.segment_{op}(data, ids)  # flag
'''
    name = f"segment_{op}_{abs(hash((data.tobytes(), data.shape, ids.tobytes(), ids.dtype.name)))}"
    _assert_refines(source, name, (tf.constant(data), tf.constant(ids)), grad=True)


@pytest.mark.parametrize("op", ["sum", "mean", "prod"])
@pytest.mark.parametrize("data, ids", [
    (np.array([[np.nan, 1.0], [0.0, np.inf], [-0.0, 2.0], [-np.inf, 0.0]], np.float32),
     np.array([0, 0, 2, 2], np.int64)),  # segment 1 empty (0, 0 and 1), int64 ids, NaN and inf
    (np.arange(6, dtype=np.float32).reshape(3, 2) - 2.0, np.array([0, 1, 2], np.int32)),
])
def test_segment_count_from_the_array_the_result_joins_is_static_and_matches(op, data, ids):
    """fixes26: where the result is concatenated along axis 1 with an array of 3 rows, the original
    returns only when max(ids) + 1 == 3, and then unsorted_segment_* with num_segments=tf.shape(nodes)[0]
    (static under XLA) gives the same values and gradients."""
    cast = "    data = tf.cast(data, tf.float32)\n" if op == "mean" else ""
    source = f'''import tensorflow as tf


def gnn(nodes, data, ids):
{cast}    pooled = tf.math.segment_{op}(data, ids)  # flag
    return tf.concat([nodes, pooled], axis=1)
'''
    name = f"segment_partner_{op}_{abs(hash((data.tobytes(), ids.tobytes(), ids.dtype.name)))}"
    nodes = tf.reshape(tf.range(6, dtype=tf.float32), [3, 2])
    _assert_refines(source, name, (nodes, tf.constant(data), tf.constant(ids)))
    (diagnostic,) = attach_fixes(source, ast.parse(source), [flagged(source)])
    assert "num_segments=tf.shape(nodes)[0]" in apply_edits(source, diagnostic.fix.edits)


@pytest.mark.parametrize("where", ["NUM_SEGMENTS = 5\n\n\ndef pool(data, ids):\n",
                                   "def pool(data, ids, max_num_segments=5):\n"])
def test_a_configured_segment_count_is_unsafe_and_sums_the_same_below_it(where):
    """fixes26: num_segments= a count the code configures (a module constant, a parameter's int
    default): UNSAFE (ids at or past it are dropped; the rows past the largest id are zeros), and
    under XLA the total over the segments equals the original's for ids below the bound."""
    source = f"import tensorflow as tf\n\n\n{where}    return tf.math.segment_sum(data, ids)  # flag\n"
    (diagnostic,) = attach_fixes(source, ast.parse(source), [flagged(source)])
    assert diagnostic.fix.applicability.value == "unsafe" and "are dropped" in diagnostic.fix.message
    name = f"segment_configured_{abs(hash(where))}"
    original = load(f"original_{name}", source)["pool"]
    fixed = tf.function(load(f"fixed_{name}", apply_edits(source, diagnostic.fix.edits))["pool"], jit_compile=True)
    rng = np.random.default_rng(0)
    for _ in range(20):
        ids = np.sort(rng.integers(0, 5, size=6)).astype(np.int32)
        data = rng.uniform(-2, 2, size=(6, 3)).astype(np.float32)
        want, got = original(tf.constant(data), tf.constant(ids)), fixed(tf.constant(data), tf.constant(ids))
        assert got.shape[0] == 5
        np.testing.assert_allclose(got.numpy()[:want.shape[0]], want.numpy(), rtol=1e-6)
        np.testing.assert_array_equal(got.numpy()[want.shape[0]:], 0.0)


@pytest.mark.parametrize("ids", [
    tf.constant([0, 3, 3, 1, 3]), tf.constant([2, 2], tf.int64), tf.zeros([0], tf.int32),
    tf.constant([[0, 4], [4, 4]]),  # bincount flattens; gather reads in the ids' shape
])
def test_a_histogram_read_only_at_the_counted_ids_is_counted_per_item(ids):
    """fixes26: `tf.gather(E(tf.math.bincount(ids)), ids)` (inverse-frequency weights) equals E of
    the per-item counts, whatever the histogram's data-dependent length: SAFE, and static under XLA."""
    source = '''import tensorflow as tf


def weights(ids):
    counts = tf.math.bincount(ids, dtype=tf.float32)  # flag
    return tf.gather(1.0 / tf.maximum(counts, 1.0), ids) * 2.0
'''
    _assert_refines(source, f"histogram_at_ids_{ids.dtype.name}_{ids.shape.rank}_{ids.shape.num_elements()}", (ids,))


@pytest.mark.parametrize("op", ["sum", "prod"])
def test_segment_rewrite_builds_2_31_empty_rows_like_the_original(op):
    """An int32 id 2**31 - 1 on rows of size 0: the original returns a [2**31, 0] tensor, so
    num_segments must be computed in int64 (values only: the tape cannot seed that gradient;
    unsorted_segment_mean would also count ids in a 2**31-entry vector, 8 GiB)."""
    source = f'''import tensorflow as tf


def pool(data, ids):
    return tf.math.segment_{op}(data, ids)  # flag
'''
    _assert_refines(source, f"segment_{op}_2_31", (tf.zeros([1, 0]), tf.constant([2**31 - 1])))


@pytest.mark.parametrize("values, partition, fill", [
    (np.zeros([0], np.float32), np.zeros([0], np.int32), 1.0),  # no rows: [0, 0]
    (np.zeros([0, 3], np.float32), np.array([0, 0], np.int64), 1.0),  # only empty rows: [2, 0, 3]
    (np.arange(24, dtype=np.float32).reshape(4, 2, 3), np.array([1, 0, 3], np.int64), np.nan),  # rank 3
    (np.array([np.inf, np.nan, -1.0], np.float32), np.array([3], np.int32), -np.inf),  # one full row
])
@pytest.mark.parametrize("form", ["row_lengths", "row_splits"])
def test_ragged_padding_matches_to_tensor_on_edge_partitions(values, partition, fill, form):
    """The SAFE ragged rewrite, values and gradients (w.r.t. the values and the default), on the
    partitions hypothesis does not draw: no rows, only empty rows (empty values: the padding
    index must stay in range eagerly), int64 partitions, rank-3 values, NaN/inf."""
    if form == "row_splits":
        partition = np.concatenate([[0], np.cumsum(partition)]).astype(partition.dtype)
    source = f'''import tensorflow as tf


def pad(values, partition, fill):
    rows = tf.RaggedTensor.from_{form}(values, partition)  # flag
    return rows.to_tensor(default_value=fill)
'''
    name = f"ragged_{form}_{abs(hash((values.shape, partition.tobytes(), partition.dtype.name, str(fill))))}"
    args = (tf.constant(values), tf.constant(partition), tf.constant(fill, tf.float32))
    _assert_refines(source, name, args, grad=True)


def _both(source: str, fn: str, name: str, unsafe: str = ""):
    """(original, fixed compiled with XLA), each with gradients: call the fixed one on arguments
    of one shape and XLA compiles it once, whatever their values. The fix is SAFE, or, with
    ``unsafe``, UNSAFE for a reason that says so (inputs outside it are not drawn)."""
    (diagnostic,) = attach_fixes(source, ast.parse(source), [flagged(source)])
    assert diagnostic.fix.applicability.value == ("unsafe" if unsafe else "safe"), diagnostic.fix.message
    assert unsafe in diagnostic.fix.message
    original = with_gradients(load(f"original_{name}", source)[fn])
    fixed = tf.function(with_gradients(load(f"fixed_{name}", apply_edits(source, diagnostic.fix.edits))[fn]),
                        jit_compile=True)
    return original, fixed


def _call_both(original, fixed, args):
    """(original eagerly, fixed under XLA); None for an original that raises."""
    try:
        expected = original(*args)
    except tf.errors.InvalidArgumentError:
        expected = None
    return expected, fixed(*args)


def _run_both(source: str, fn: str, args, name: str, unsafe: str = ""):
    """(original eagerly, fixed under XLA), each with gradients; None for a side that raises."""
    return _call_both(*_both(source, fn, name, unsafe), args)


_X = np.arange(24, dtype=np.float32)
_X[[1, 6]], _X[[4, 11]] = np.inf, np.nan  # non-finite entries at selected and masked-out positions


@pytest.mark.parametrize("mask_shape, x_shape", [((6,), (6, 4)), ((4, 6), (4, 6)), ((2, 3, 4), (2, 3, 4)),
                                                 ((2, 3), (2, 3, 4))])
@pytest.mark.parametrize("index", ["[-1]", "[0]", "[-3]", "[2:]", "[-2:]", "[1:-1]"])
def test_masked_index_exact_for_every_mask_rank(mask_shape, x_shape, index):
    """s[i] / s[a:b] of x[m]: values, dtype, shape and gradients of the original for masks of rank
    1 to 3, with inf/NaN at selected and masked-out rows; where the original raises (too few
    selected entries) the compiled fix returns a row instead, which the contract allows."""
    source = f'''import tensorflow as tf


def pick(x, m):
    s = x[m > 0]
    return s{index}  # flag
'''
    x = tf.constant(_X[: int(np.prod(x_shape))].reshape(x_shape))
    # one compilation for the three masks (same shape, other values), as a training step would have
    original, fixed = _both(source, "pick", f"index_{abs(hash((mask_shape, x_shape, index)))}")
    for keep in (np.zeros(mask_shape), np.ones(mask_shape), np.arange(np.prod(mask_shape)).reshape(mask_shape) % 3):
        expected, actual = _call_both(original, fixed, (x, tf.constant(keep, tf.int32)))
        if expected is not None:
            assert expected[0].dtype == actual[0].dtype
            assert_same(expected, actual, 1e-6)
    assert fixed.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("mask, rows", [
    ([1, 0, 1, 1], 4), ([1, 0, 1, 1], 6),  # x longer than the mask: the original reads only selected rows
    ([1, 1, 0, 0], 2),  # x shorter than the mask, nothing selected past its end
    ([0, 0, 0], 0),  # x without rows and nothing selected: the original returns an empty tensor
    ([[1, 0, 1], [0, 0, 0], [1, 1, 1]], 3),  # a rank-2 mask: tf.where(m)[:, 0] repeats rows
])
def test_where_gather_cumsum_exact_for_any_mask_and_length(mask, rows):
    """The SAFE rewrite of cumsum(tf.gather(x, tf.where(m)[:, 0])) on the shapes gather allows:
    the masked-out positions read the appended row of zeros, never x, so nothing raises where
    the original returns, and inf/NaN in unselected rows reach neither values nor gradients."""
    source = '''import tensorflow as tf


def returns(rewards, valid):
    idx = tf.where(valid > 0)[:, 0]
    return tf.math.cumsum(tf.gather(rewards, idx), reverse=True)  # flag
'''
    x = tf.constant(np.resize(np.array([1.0, np.inf, -2.0, np.nan, 0.5, 3.0], np.float32), (rows, 2)))
    expected, actual = _run_both(source, "returns", (x, tf.constant(mask)), f"gather_{abs(hash((str(mask), rows)))}")
    if np.asarray(mask).sum() and rows:  # otherwise the sum is over nothing; both empty
        assert expected is not None
    assert_same(expected, actual, 1e-6)


@pytest.mark.parametrize("n", [0, 1, 3, 4])
@pytest.mark.parametrize("op", ["tf.square", "tf.math.log", "tf.math.reciprocal"])
def test_first_rows_reduction_exact_with_nonfinite_rows(op, n):
    """reduce_sum(f(tf.gather(x, tf.range(n)))) for x of rank 2 with inf/NaN/0 in rows past n
    (where f's derivative is NaN or inf) and before it: values and gradients as the original."""
    source = f'''import tensorflow as tf


def head_energy(x, n):
    return tf.reduce_sum({op}(tf.gather(x, tf.range(n))))  # flag
'''
    x = tf.constant([[1.0, 2.0], [0.5, np.inf], [3.0, 0.0], [np.nan, -np.inf]], tf.float32)
    expected, actual = _run_both(source, "head_energy", (x, tf.constant(n)), f"head_{op.replace('.', '_')}_{n}")
    assert_same(expected, actual, 1e-6)


@pytest.mark.parametrize("n", [0, 1, 3, 4, 6])
@pytest.mark.parametrize("op", ["tf.square", "tf.math.log"])
@pytest.mark.parametrize("reduction", ["sum", "mean"])
def test_prefix_slice_of_data_length_reduction_exact_with_nonfinite_rows(reduction, op, n):
    """reduce_sum/mean(f(x[:n])) with n a tensor (XLA205's slice bound from data): the first n rows
    masked in, rows past n (inf/NaN/0 there) masked out; n past the end keeps every row, as the
    slice does. Values and gradients as the original (UNSAFE only for a negative n, not drawn)."""
    source = f'''import tensorflow as tf


def head_energy(x, n):
    return tf.reduce_{reduction}({op}(x[:n]))  # flag(XLA205): x[:n]
'''
    x = tf.constant([[1.0, 2.0], [0.5, np.inf], [3.0, 0.0], [np.nan, -np.inf]], tf.float32)
    expected, actual = _run_both(source, "head_energy", (x, tf.constant(n)),
                                 f"prefix_{reduction}_{op.replace('.', '_')}_{n}", unsafe="negative slice stop")
    assert_same(expected, actual, 1e-6)


def test_guarded_check_never_reads_the_tensor_where_the_guard_stops_it():
    """``if labels is not None and tf.reduce_max(labels) >= V: raise``: the fix keeps the None
    check in Python, first, so ``labels=None`` (the inference call) returns as in the original,
    eagerly, in a tf.function and under XLA, instead of reaching ``tf.reduce_max(None)``."""
    example = _example("raise_behind_a_none_guard")
    (diagnostic,) = attach_fixes(example.source, ast.parse(example.source), [flagged(example.source)])
    assert diagnostic.fix.applicability.value == "safe", diagnostic.fix.message
    original = load("original_guarded", example.source)["ctc_ready"]
    fixed = load("fixed_guarded", apply_edits(example.source, diagnostic.fix.edits))["ctc_ready"]
    logits = tf.constant([[0.5, -1.0, 2.0, 0.0]])
    expected = original(logits, None)
    for version in (fixed, tf.function(fixed), tf.function(fixed, jit_compile=True)):
        assert_same(expected, version(logits, None), 1e-6)
    with pytest.raises(ValueError):
        original(logits, tf.constant([5]))
    with pytest.raises(tf.errors.InvalidArgumentError):
        fixed(logits, tf.constant([5]))


@pytest.mark.parametrize("name", ["if_float_truthiness_optional", "ternary_float_truthiness_optional"])
def test_none_guard_keeps_the_path_where_the_optional_is_none(name):
    """``if bias:`` with ``bias=None`` skips the branch; the fix's truth value ``tf.cast(bias,
    tf.bool)`` would raise on None, so the fix checks ``bias is not None`` first: with the default
    None the fixed code returns what the original returns, eagerly and under XLA."""
    example = _example(name)
    (diagnostic,) = attach_fixes(example.source, ast.parse(example.source), [flagged(example.source)])
    fixed_source = apply_edits(example.source, diagnostic.fix.edits)
    original = entry(load(f"none_original_{name}", example.source), example.source, example)
    fixed = entry(load(f"none_fixed_{name}", fixed_source), fixed_source, example)
    x = tf.constant([1.0, -2.0, 0.5])
    expected = original(x)
    assert_same(expected, fixed(x), 1e-6)
    assert_same(expected, tf.function(fixed, jit_compile=True)(x), 1e-6)


def test_a_bounded_while_loop_compares_sequence_types_eagerly():
    """The fact behind the retyped returns of the maximum_iterations fix (rewrites/while_loops.py):
    run eagerly with maximum_iterations, tf.while_loop rejects a body that returns a tuple for list
    loop_vars; without it, it accepts it. A body that returns the loop_vars' type runs either way."""
    cond = lambda i, h: i < 3  # noqa: E731
    as_tuple = lambda i, h: (i + 1, h * 2.0)  # noqa: E731
    as_list = lambda i, h: [i + 1, h * 2.0]  # noqa: E731
    assert float(tf.while_loop(cond, as_tuple, [0, tf.constant(1.0)])[1]) == 8.0
    with pytest.raises(TypeError):
        tf.while_loop(cond, as_tuple, [0, tf.constant(1.0)], maximum_iterations=3)
    assert float(tf.while_loop(cond, as_list, [0, tf.constant(1.0)], maximum_iterations=3)[1]) == 8.0


@pytest.mark.parametrize("name, args", [
    ("segment_sum_count_from_data_summed_over_segments",
     (np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [0.5, 0.5, 0.5]], np.float32),
      np.array([0, 2, -1, 1], np.int32))),
    ("segment_sum_two_dimensional_ids_summed_with_every_axis",
     (np.arange(12, dtype=np.float32).reshape(2, 3, 2), np.array([[0, 1, -1], [2, 0, 1]], np.int32))),
    ("one_hot_depth_from_data_axes_by_rank", (np.array([[0, 1, 3], [-1, 2, 2]], np.int32), np.zeros([3], np.float32))),
    # int32 lengths: eagerly, tf.signal.frame itself raises on an int64 frame length (FloorDiv of
    # int64 by int32); the fix casts both to int64
    ("frame_length_from_data_summed_over_frames",
     (np.arange(10, dtype=np.float32).reshape(2, 5), np.array([3, 1, 2], np.int32))),
])
def test_summed_size_fixes_trace_with_unknown_ranks(name, args):
    """The summed-size fixes (rewrites/summed_sizes.py) read no rank with ``len(t.shape)``, which
    raises on a tensor of unknown rank: traced with rank-less input signatures they return what the
    original returns eagerly (a rank test that cannot be decided while tracing keeps the original
    call, which then runs as it did)."""
    example = _example(name)
    (diagnostic,) = attach_fixes(example.source, ast.parse(example.source), [flagged(example.source)])
    fixed_source = apply_edits(example.source, diagnostic.fix.edits)
    original = entry(load(f"rankless_original_{name}", example.source), example.source, example)
    fixed = entry(load(f"rankless_fixed_{name}", fixed_source), fixed_source, example)
    tensors = [tf.constant(a) for a in args]
    rankless = tf.function(fixed, input_signature=[tf.TensorSpec(None, t.dtype) for t in tensors])
    expected = original(*tensors)
    assert_same(expected, rankless(*tensors), example.rtol)
    assert_same(expected, fixed(*tensors), example.rtol)


_PFOR_BODIES = {
    "tf.tile": lambda a: (lambda x: tf.tile(tf.reshape(x * a, [1]), [2])),
    "tf.concat": lambda a: (lambda x: tf.concat([tf.reshape(x * a, [1]), tf.reshape(x, [1])], 0)),
    "tf.gather": lambda a: (lambda x: tf.gather(tf.stack([x * a, x, x * 2.0]), [0, 2])),
    "tf.split": lambda a: (lambda x: tf.split(tf.stack([x * a, x]), 2)[0]),
    "tf.reduce_sum": lambda a: (lambda x: tf.reduce_sum(tf.stack([x * a, x]))),
    "tf.transpose": lambda a: (lambda x: tf.transpose(tf.reshape(tf.stack([x * a, x]), [1, 2]))),
}


@pytest.mark.parametrize("op", sorted(_PFOR_BODIES))
def test_vectorized_map_gradient_in_a_bounded_loop_needs_map_fn(op):
    """The table behind the XLA210 fix's vectorized_map -> map_fn swap (rewrites/while_loops.py,
    ``_PFOR_GRADIENT_BREAKERS``): in a differentiated tf.while_loop that already has
    maximum_iterations, vectorized_map over ``op`` does not compile under XLA, and map_fn of the
    same function compiles and returns the eager values and gradient."""
    from xlacheck.rewrites.while_loops import _PFOR_GRADIENT_BREAKERS

    assert op in _PFOR_GRADIENT_BREAKERS

    def program(mapper):
        def run(a):
            with tf.GradientTape() as tape:
                tape.watch(a)

                def body(i, acc):
                    xs = tf.ones([3]) * tf.cast(i + 1, tf.float32)
                    return i + 1, acc + tf.reduce_sum(mapper(_PFOR_BODIES[op](a), xs))

                _, total = tf.while_loop(lambda i, acc: i < 3, body, (tf.constant(0), tf.constant(0.0)),
                                         maximum_iterations=3)
            return total, tape.gradient(total, a)

        return run

    a = tf.constant(0.3)
    with pytest.raises((tf.errors.InvalidArgumentError, tf.errors.UnimplementedError)):
        tf.function(program(tf.vectorized_map), jit_compile=True)(a)
    expected = program(tf.vectorized_map)(a)
    assert_same(expected, tf.function(program(tf.map_fn), jit_compile=True)(a), 1e-5)


@pytest.mark.parametrize("layer", sorted(examples_dtypes := __import__(
    "xlacheck.rewrites.dtypes", fromlist=["COMPUTE_DTYPE_LAYERS"]).COMPUTE_DTYPE_LAYERS))
@pytest.mark.parametrize("policy", ["float32", "mixed_float16"])
def test_layers_return_their_compute_dtype(layer, policy):
    """The fact COMPUTE_DTYPE_LAYERS states: where the call returns, the output has ``compute_dtype``
    (float and integer inputs, eagerly and traced)."""
    make = {"Dense": lambda: tf.keras.layers.Dense(3), "Embedding": lambda: tf.keras.layers.Embedding(10, 3),
            "Conv1D": lambda: tf.keras.layers.Conv1D(2, 3, padding="same"),
            "Conv2D": lambda: tf.keras.layers.Conv2D(2, 3, padding="same"),
            "LayerNormalization": lambda: tf.keras.layers.LayerNormalization()}[layer.rsplit(".", 1)[1]]
    shape = {"Conv1D": [2, 5, 3], "Conv2D": [2, 5, 5, 3]}.get(layer.rsplit(".", 1)[1], [2, 4])
    tf.keras.mixed_precision.set_global_policy(policy)
    try:
        for dtype in (tf.float32, tf.float16, tf.int32):
            made = make()
            x = tf.cast(tf.reshape(tf.range(int(np.prod(shape))) % 7, shape), dtype)
            for call in (made, tf.function(lambda v, made=made: made(v))):
                try:
                    out = call(x)
                except (TypeError, ValueError, tf.errors.InvalidArgumentError):
                    continue  # a convolution of integers raises: outside the claim
                assert out.dtype.name == made.compute_dtype, (layer, policy, dtype)
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


_CHUNKS = '''import tensorflow as tf


class ChunkedScorer(tf.keras.layers.Layer):
    def __init__(self, chunk=2):
        super().__init__()
        self.chunk = chunk
        self.dense = tf.keras.layers.Dense(4, activation="relu")

    def call(self, inputs):
        num_chunks = tf.shape(inputs)[0] // self.chunk
        processed = []
        for i in tf.range(num_chunks):
            processed.append(self.dense(inputs[i * self.chunk:(i + 1) * self.chunk]))  # flag(XLA111)
        return tf.concat(processed, axis=0)
'''


@pytest.mark.parametrize("value", ["self.dense(chunk)", "tf.nn.relu(tf.reshape(self.dense(chunk), [-1, 4]))"])
@pytest.mark.parametrize("policy", ["float32", "mixed_float16"])
def test_a_list_of_layer_outputs_becomes_a_tensorarray_of_the_layer_compute_dtype(policy, value, tmp_path):
    """The appended value is a built-in layer's output (through dtype-keeping ops): the TensorArray takes
    ``self.dense.compute_dtype``, and the fixed layer compiles and returns the original's values and dtype
    (float16 under mixed precision)."""
    source = _CHUNKS.replace("self.dense(inputs[i * self.chunk:(i + 1) * self.chunk])",
                             value.replace("chunk)", "inputs[i * self.chunk:(i + 1) * self.chunk])"))
    (result,) = attach_fixes(source, ast.parse(source), [_rewrite_tests.flagged(source)])
    assert result.fix is not None and result.fix.edits, result.fix
    fixed = apply_edits(source, result.fix.edits)
    assert "tf.TensorArray(self.dense.compute_dtype, size=" in fixed
    modules = []
    for tag, text in (("orig", source), ("fixed", fixed)):
        path = tmp_path / f"{tag}_chunks_{policy}_{len(value)}.py"
        path.write_text(text, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        modules.append(module)
    tf.keras.mixed_precision.set_global_policy(policy)
    try:
        original, rewritten = modules[0].ChunkedScorer(), modules[1].ChunkedScorer()
        x = tf.reshape(tf.range(24, dtype=tf.float32), [6, 4]) / 24.0
        expected = original(x)
        rewritten(x)
        rewritten.set_weights(original.get_weights())
        got = tf.function(rewritten.call, jit_compile=True)(x)
        assert got.dtype == expected.dtype
        np.testing.assert_allclose(np.asarray(got, np.float32), np.asarray(expected, np.float32), rtol=1e-3)
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


_SEQUENCE_ASSERT = '''import tensorflow as tf


def shape_list(t):
    static = t.shape.as_list()
    dynamic = tf.shape(t)
    return [dynamic[i] if s is None else s for i, s in enumerate(static)]


def masked(lengths):
    slen = tf.reduce_max(lengths)
    mask = tf.range(6)[None, :] < lengths[:, None]
    assert shape_list(mask) == [shape_list(lengths)[0], slen], "mask shape"  # flag
    return tf.cast(mask, tf.float32) * tf.cast(slen, tf.float32)
'''


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 6), min_size=1, max_size=4))
def test_sequence_equality_assert_packs_both_sides(lengths):
    """``assert shape_list(mask) == [bs, slen]`` (transformers' TF XLM and Flaubert masks): the UNSAFE
    fix ``tf.debugging.Assert(tf.reduce_all(tf.equal(A, B)), ...)`` returns the original's values
    eagerly, in a tf.function and under XLA wherever the original returns (the longest length is
    the mask's 6 columns), and raises outside XLA where the original's assert fails."""
    (diagnostic,) = attach_fixes(_SEQUENCE_ASSERT, ast.parse(_SEQUENCE_ASSERT), [flagged(_SEQUENCE_ASSERT)])
    assert diagnostic.fix.applicability.value == "unsafe", diagnostic.fix.message
    fixed_source = apply_edits(_SEQUENCE_ASSERT, diagnostic.fix.edits)
    assert "tf.reduce_all(tf.equal(shape_list(mask), [shape_list(lengths)[0], slen]))" in fixed_source
    original = load("original_sequence_assert", _SEQUENCE_ASSERT)["masked"]
    fixed = load("fixed_sequence_assert", fixed_source)["masked"]
    x = tf.constant(lengths, tf.int32)
    versions = [fixed, tf.function(fixed), tf.function(fixed, jit_compile=True)]
    if max(lengths) == 6:
        expected = original(x)
        for version in versions:
            assert_same(expected, version(x), 0.0)
        return
    with pytest.raises(AssertionError):
        original(x)
    for version in versions[:2]:
        with pytest.raises(tf.errors.InvalidArgumentError):
            version(x)


_BOUNDED_BINCOUNT = '''import tensorflow as tf


def histogram(images):
    levels = tf.cast(tf.clip_by_value(images * 255.0, 0.0, 255.0), tf.int32)
    return tf.math.bincount(tf.reshape(levels, [-1]){minlength})  # flag


def equalized(images):
    levels = tf.cast(tf.clip_by_value(images * 255.0, 0.0, 255.0), tf.int32)
    hist = tf.math.bincount(tf.reshape(levels, [-1]))
    cdf = tf.cast(tf.cumsum(hist), tf.float32)
    cdf = cdf / cdf[-1]
    return tf.gather(cdf, levels)
'''


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hnp.arrays(np.float32, st.sampled_from([(0,), (5,), (2, 3)]),
                  elements=st.floats(-0.5, 1.5, **F32) | st.sampled_from([0.0, 1.0, 255.0 / 256.0])))
def test_bincount_of_clipped_ids_gets_the_bound_as_its_length(images):
    """``tf.math.bincount`` of ids the code clips to [0, 255] (fixes28): with ``minlength=256`` the SAFE
    one-hot sum of depth 256 equals the original eagerly, in a tf.function and under XLA (empty ids,
    values clipped at both ends); without ``minlength`` the UNSAFE fix's first ``max(ids) + 1`` bins
    are the original's and the rest zeros, and a histogram equalization that reads the cumulative
    counts only at the ids and at their end returns the original's values."""
    x = tf.constant(images)
    for minlength, applicability in ((", minlength=256", "safe"), ("", "unsafe")):
        source = _BOUNDED_BINCOUNT.replace("{minlength}", minlength)
        (diagnostic,) = attach_fixes(source, ast.parse(source), [flagged(source)])
        assert diagnostic.fix.applicability.value == applicability, diagnostic.fix.message
        original = load(f"original_bounded_bincount{len(minlength)}", source)
        fixed = load(f"fixed_bounded_bincount{len(minlength)}", apply_edits(source, diagnostic.fix.edits))
        expected = original["histogram"](x).numpy()
        for version in (fixed["histogram"], tf.function(fixed["histogram"]),
                        tf.function(fixed["histogram"], jit_compile=True)):
            got = version(x).numpy()
            assert got.dtype == expected.dtype and got.shape == (256,)
            np.testing.assert_array_equal(got[:len(expected)], expected)
            assert not got[len(expected):].any()
    if images.size:
        source = _BOUNDED_BINCOUNT.replace("{minlength}", "")
        tree = ast.parse(source)
        node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "tf.math.bincount"
                    and n.lineno > 8)
        (diagnostic,) = attach_fixes(source, tree, [_rewrite_tests.diagnostic_at(node, "XLA204")])
        fixed = load("fixed_equalized", apply_edits(source, diagnostic.fix.edits))["equalized"]
        expected = load("original_equalized", source)["equalized"](x)
        assert_same(expected, tf.function(fixed, jit_compile=True)(x), 1e-6)


_HASHED_BINCOUNT = '''import tensorflow as tf


def bucket_counts(ids):
    return tf.math.bincount(tf.cast(ids, tf.int32) % 8, minlength=8)  # flag
'''


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hnp.arrays(np.int64, st.sampled_from([(0,), (4,), (2, 3)]), elements=st.integers(-50, 50)))
def test_bincount_of_hashed_ids_is_safe_with_the_bucket_count(ids):
    """Ids hashed into 8 buckets (``x % 8``, floored: in [0, 7] for negative ids too) counted with
    ``minlength=8`` (fixes28): the SAFE one-hot sum of depth 8 equals the original eagerly, in a
    tf.function and under XLA, empty ids included."""
    (diagnostic,) = attach_fixes(_HASHED_BINCOUNT, ast.parse(_HASHED_BINCOUNT), [flagged(_HASHED_BINCOUNT)])
    assert diagnostic.fix.applicability.value == "safe", diagnostic.fix.message
    original = load("original_hashed_bincount", _HASHED_BINCOUNT)["bucket_counts"]
    fixed = load("fixed_hashed_bincount", apply_edits(_HASHED_BINCOUNT, diagnostic.fix.edits))["bucket_counts"]
    x = tf.constant(ids)
    expected = original(x)
    for version in (fixed, tf.function(fixed), tf.function(fixed, jit_compile=True)):
        assert_same(expected, version(x), 0.0)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_range_of_a_tensor_is_the_tf_range_loop_under_autograph(n):
    """The fact rewrite_loop's parameter case rests on: inside tf.function, AutoGraph turns ``range(t)``
    of a tensor ``t`` into the staged ``tf.range(t)`` loop (the same values, one trace for every ``t``),
    and ``range(k)`` of a Python int into a Python loop it unrolls (one trace per ``k``)."""

    def body(x, steps, loop):
        for i in loop(steps):
            x = x * 0.5 + tf.cast(i, x.dtype)
        return x

    staged = tf.function(lambda x, steps: body(x, steps, tf.range))
    python = tf.function(lambda x, steps: body(x, steps, range))
    x = tf.constant([1.0, -2.0, np.inf])
    assert_same(staged(x, tf.constant(n)), python(x, tf.constant(n)), 1e-6)
    assert_same(python(x, tf.constant(n + 1)), staged(x, tf.constant(n + 1)), 1e-6)
    assert python.experimental_get_tracing_count() == 1  # range of a tensor: staged, not unrolled
    assert_same(python(x, n), staged(x, tf.constant(n)), 1e-6)
    assert python.experimental_get_tracing_count() == 2  # a Python int: its own unrolled trace

