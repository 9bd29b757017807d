"""XLA207, XLA302, XLA304 and XLA326 against jax.jit itself: each flagged snippet fails to trace, and its
fixed form (the static size the message asks for) compiles. Skipped without JAX."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
jax = pytest.importorskip("jax")

from xlacheck.engine import check_source  # noqa: E402

_HEAD = "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n"


def _numpy_flagged(src: str) -> bool:
    """NumPy on a traced value is flagged: by XLA326 where the tracer is proven (a JAX op's result, a
    jitted function's parameter), else by XLA304 (with --preview)."""
    return bool({"XLA304", "XLA326"} & {d.code for d in check_source(src, "case.py", preview=True).diagnostics})


def _flagged_fails_and_fixed_compiles(body: str, fixed: str) -> None:
    """XLA207 flags ``body`` and jax.jit raises on it; ``fixed`` is not flagged and compiles."""
    x = jax.numpy.array([0, 3, 0, 2])
    for src, flagged in ((_HEAD + body, True), (_HEAD + fixed, False)):
        result = check_source(src, "case.py")  # XLA207 runs by default
        assert result.error is None
        assert ("XLA207" in {d.code for d in result.diagnostics}) is flagged, src
        namespace: dict = {}
        exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
        if flagged:
            with pytest.raises(jax.errors.ConcretizationTypeError):
                namespace["f"](x)
        else:
            namespace["f"](x)


@pytest.mark.parametrize(("body", "fixed"), [
    ("    return x.nonzero()[0]\n", "    return x.nonzero(size=4)[0]\n"),
    ("    return jnp.nonzero(x)[0]\n", "    return jnp.nonzero(x, size=4)[0]\n"),
    ("    m = x > 0\n    return jnp.where(m)[0]\n", "    m = x > 0\n    return jnp.where(m, size=4)[0]\n"),
    ("    return jnp.trim_zeros(x)\n", "    return jnp.where(x != 0, x, 0)\n"),
    ("    return jnp.unique(x)\n", "    return jnp.unique(x, size=4)\n"),
    # the table records their cause (result shape follows the mask), not their error class
    # (TracerBoolConversionError, a subclass of ConcretizationTypeError)
    ("    return jnp.extract(x > 0, x)\n", "    return jnp.extract(x > 0, x, size=4)\n"),
    ("    return jnp.compress(x > 0, x)\n", "    return jnp.compress(x > 0, x, size=4)\n"),
])
def test_data_dependent_size_fails_under_jit_and_its_fix_compiles(body: str, fixed: str):
    _flagged_fails_and_fixed_compiles(body, fixed)


@pytest.mark.parametrize(("body", "fixed"), [
    # the size argument given, but traced: the JAX table lists it in static_args (reports30)
    ("    return jax.ops.segment_sum(x, x, num_segments=jnp.max(x) + 1)\n",
     "    return jax.ops.segment_sum(x, x, num_segments=4)\n"),
    ("    return jnp.nonzero(x, size=jnp.sum(x > 0))[0]\n", "    return jnp.nonzero(x, size=4)[0]\n"),
    ("    return jnp.bincount(x, length=jnp.max(x) + 1)\n", "    return jnp.bincount(x, length=4)\n"),
])
def test_traced_size_argument_fails_under_jit_and_a_static_one_compiles(body: str, fixed: str):
    _flagged_fails_and_fixed_compiles(body, fixed)


@pytest.mark.parametrize("fn", ["sqrt", "log", "exp", "floor", "isnan"])
def test_math_function_of_traced_value_fails_under_jit(fn: str):
    src = f"import jax\nimport math\n@jax.jit\ndef f(x):\n    return x * math.{fn}(x.sum())\n"
    result = check_source(src, "case.py")
    assert "XLA302" in {d.code for d in result.diagnostics}
    namespace: dict = {}
    exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    with pytest.raises(jax.errors.ConcretizationTypeError):
        namespace["f"](jax.numpy.array([1.0, 2.0]))


def test_math_on_static_shape_and_math_prod_trace():
    src = ("import jax\nimport math\n@jax.jit\ndef f(q):\n"
           "    return q / math.sqrt(q.shape[-1]) * math.prod([q.sum(), 2.0])\n")
    assert "XLA302" not in {d.code for d in check_source(src, "case.py").diagnostics}
    namespace: dict = {}
    exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    namespace["f"](jax.numpy.ones((2, 4)))


@pytest.mark.parametrize(("fn", "flagged"), [("sum", False), ("mean", False), ("argmax", False),
                                             ("exp", True), ("sort", True), ("asarray", True)])
def test_numpy_function_on_tracer_flagged_iff_it_fails(fn: str, flagged: bool):
    src = f"import jax\nimport numpy as np\n@jax.jit\ndef f(x):\n    return np.{fn}(x)\n"
    assert _numpy_flagged(src) is flagged
    namespace: dict = {}
    exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    x = jax.numpy.array([[1.0, 3.0], [2.0, 0.5]])
    if flagged:
        with pytest.raises(jax.errors.TracerArrayConversionError):
            namespace["f"](x)
    else:
        namespace["f"](x)


@pytest.mark.parametrize(("body", "flagged"), [
    ("    return jnp.asarray(np.vstack([x, 2.0 * x]))\n", True),
    ("    return jnp.asarray(np.stack((x[0], x[1])))\n", True),
    ("    return jnp.asarray(np.array([[x[0, 0], x[1, 1]]]))\n", True),
    ("    return jnp.asarray(np.concatenate([x[0], np.ones(2)]))\n", True),
    ("    return jnp.asarray(np.sum([x, x]))\n", True),
    ("    return x * np.array([x.shape[0], 2.0])\n", False),
    ("    return x * np.array([[1.0, 2.0]])\n", False),
    ("    return jnp.vstack([x, 2.0 * x])\n", False),
])
def test_numpy_call_on_a_list_holding_a_tracer_flagged_iff_it_fails(body: str, flagged: bool):
    """NumPy converts a list/tuple literal element by element: one traced element raises (reports23-jax)."""
    src = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n@jax.jit\ndef f(x):\n" + body
    assert _numpy_flagged(src) is flagged, src
    namespace: dict = {}
    exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    x = jax.numpy.array([[1.0, 3.0], [2.0, 0.5]])
    if flagged:
        with pytest.raises(jax.errors.TracerArrayConversionError):
            namespace["f"](x)
    else:
        namespace["f"](x)


def test_psum_of_a_python_constant_is_a_static_axis_size():
    """``jax.lax.psum(1, axis)`` is folded to the axis size (a Python int), so it sizes buffers and
    ``range()`` under pmap (XLA207/XLA302 VALID); ``psum`` of a traced count does not."""
    from xlacheck.rules.jax_traced_shape import JaxTracedShape

    src = next(e.code for e in JaxTracedShape.VALID if "psum(1" in e.code)
    codes = {d.code for d in check_source(src, "case.py").diagnostics}
    assert not codes & {"XLA207", "XLA302"}
    namespace: dict = {}
    exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    n = jax.local_device_count()
    assert namespace["f"](jax.numpy.ones((n, 3))).shape == (n, n, 3)

    bad = ("import functools\nimport jax\nimport jax.numpy as jnp\n"
           "@functools.partial(jax.pmap, axis_name='i')\ndef f(x):\n"
           "    n = jax.lax.psum(jnp.sum(x > 0), axis_name='i')\n    return jnp.zeros((n,))\n")
    assert "XLA207" in {d.code for d in check_source(bad, "case.py", preview=True).diagnostics}
    namespace = {}
    exec(compile(bad, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    with pytest.raises(TypeError):
        namespace["f"](jax.numpy.ones((n, 3)))


def test_jax_dtypes_answers_are_python_values_under_jit():
    """``if jax.dtypes.issubdtype(key.dtype, ...)`` is a Python ``if`` under jax.jit (XLA101 VALID,
    from the jax.dtypes rows of xlacheck/data/jax_api.json)."""
    from xlacheck.rules.tensor_condition_without_autograph import TensorConditionWithoutAutograph

    src = next(e.code for e in TensorConditionWithoutAutograph.VALID if "jax.dtypes" in e.code)
    assert "XLA101" not in {d.code for d in check_source(src, "case.py").diagnostics}
    namespace: dict = {}
    exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    assert float(namespace["f"](jax.random.key(0), jax.numpy.float32(1.0))) == 64.0
    assert float(namespace["f"](jax.random.PRNGKey(0), jax.numpy.float32(1.0))) == 32.0


def _xla206_jax_examples():
    from xlacheck.rules.loop_grown_tensor import LoopGrownTensor
    valid = [e.code for e in LoopGrownTensor.VALID if "import jax" in e.code]
    invalid = [e.code for e in LoopGrownTensor.INVALID if "import jax" in e.code]
    return valid, invalid


_XLA206_ARGS = {  # entry -> arguments: rows of 2 features, a window/history length that fits
    "smooth": lambda jnp: (jnp.arange(8.0).reshape(4, 2), jnp.zeros((3, 2))),
    "history": lambda jnp: (jnp.arange(8.0).reshape(4, 2), 3),
    "rollout": lambda jnp: (jnp.zeros(2), jnp.arange(8.0).reshape(4, 2)),
    "collect": lambda jnp: (jnp.arange(8.0).reshape(4, 2), 3),
    "lms": lambda jnp: (jnp.arange(8.0).reshape(4, 2), 3),
}


def _positional_count(fn) -> int:
    import inspect
    return len(inspect.signature(fn).parameters)


@pytest.mark.parametrize("kind", ["valid", "invalid"])
def test_xla206_jax_loop_carry_examples_against_jax(kind: str):
    """XLA206's JAX examples run as JAX runs them: a loop body that keeps its carry's shape traces (under
    jax.jit too), one that returns its carry joined with more rows raises the carry-type TypeError."""
    import jax.numpy as jnp
    valid, invalid = _xla206_jax_examples()
    sources = valid if kind == "valid" else invalid
    assert sources
    for src in sources:
        namespace: dict = {}
        exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
        entry = next(name for name in _XLA206_ARGS if name in namespace)
        args = _XLA206_ARGS[entry](jnp)
        if entry == "rollout" and _positional_count(namespace[entry]) == 1:
            args = (jnp.arange(3.0),)  # fixes28's rollout(x): a history of 3-feature rows shaped like x
        if kind == "valid":
            jax.jit(namespace[entry], static_argnums=tuple(
                i for i, a in enumerate(args) if isinstance(a, int)))(*args)
        else:
            with pytest.raises(TypeError, match="carry"):
                namespace[entry](*args)


@pytest.mark.parametrize("kind", ["valid", "invalid"])
def test_xla328_examples_against_jax(kind: str):
    """XLA328's examples run as JAX runs them: state a lax body stores on `self` or in a `nonlocal` and the
    caller reads after the loop raises UnexpectedTracerError (called from plain Python and under jax.jit);
    the VALID forms run."""
    import jax.numpy as jnp

    from xlacheck.rules.tracer_leaked_from_lax_body import TracerLeakedFromLaxBody
    examples = TracerLeakedFromLaxBody.VALID if kind == "valid" else TracerLeakedFromLaxBody.INVALID
    xs = jnp.arange(6.0).reshape(3, 2)
    for example in examples:
        namespace: dict = {}
        exec(compile(example.code, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
        if "Field" in namespace:  # a method jax.jit traces, its stored attribute read after the call
            namespace["propagate"](jnp.ones(4) if kind == "valid" else jnp.ones((4, 4)))
            if kind == "invalid":
                with pytest.raises(jax.errors.UnexpectedTracerError):
                    namespace["f"].intensity()
            continue
        if "Core" in namespace and "def __init__(self):" in example.code:
            fn, args = namespace["Core"](), (xs,)
        elif "Core" in namespace:
            fn, args = namespace["Core"](jnp.eye(2) * 0.5), (xs, jnp.zeros(2))
        else:
            fn, args = namespace["total"], (xs[:, 0] + 1.0,)
        for call in (fn, jax.jit(fn)):
            if kind == "valid":
                call(*args)
            else:
                with pytest.raises(jax.errors.UnexpectedTracerError):
                    call(*args)


def test_indexed_update_min_takes_values_not_an_axis():
    """``x.at[j].min(r)`` is an indexed update (XLA207 VALID, optax's Hungarian algorithm): it compiles
    under jax.jit with a traced ``r``, so it is not ``x.min(axis=r)``."""
    from xlacheck.rules.jax_traced_shape import JaxTracedShape
    src = next(e.code for e in JaxTracedShape.VALID if ".at[j].min(" in e.code)
    assert "XLA207" not in {d.code for d in check_source(src, "case.py").diagnostics}
    namespace: dict = {}
    exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    namespace["relax"](jax.numpy.arange(3.0))


@pytest.mark.parametrize(("cast", "flagged"), [
    ("m.astype(bool)", True), ("m.astype(jnp.bool_)", True), ("m.astype('bool')", True),
    ("m.astype(jnp.int32)", False),  # integer indices gather: a static shape
])
def test_a_mask_cast_to_bool_is_a_boolean_selection_under_jit(cast: str, flagged: bool):
    src = f"import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x, m):\n    return jnp.sum(x[{cast}])\n"
    result = check_source(src, "case.py")
    assert result.error is None
    assert ("XLA207" in {d.code for d in result.diagnostics}) is flagged
    namespace: dict = {}
    exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    x, m = jax.numpy.array([1.0, 2.0, 3.0]), jax.numpy.array([1, 0, 2])
    if flagged:
        with pytest.raises(jax.errors.NonConcreteBooleanIndexError):
            namespace["f"](x, m)
    else:
        namespace["f"](x, m)


def test_the_jax_boolean_functions_return_masks_that_fail_as_an_index_under_jit():
    from xlacheck.analysis.tables import JAX_BOOL_FUNCS

    x = jax.numpy.array([1.0, -2.0, 3.0])
    for name in sorted(JAX_BOOL_FUNCS):
        fn = getattr(jax.numpy, name.split(".", 1)[1])
        arity = 1 if name in ("jnp.logical_not", "jnp.isnan", "jnp.isinf", "jnp.isfinite", "jnp.isposinf",
                              "jnp.isneginf", "jnp.signbit") else 2
        assert fn(*[x] * arity).dtype == jax.numpy.bool_, name
        src = (f"import jax\nimport jax.numpy as jnp\n@jax.jit\ndef f(x):\n"
               f"    return jnp.sum(x[{name}({', '.join(['x'] * arity)})])\n")
        result = check_source(src, "case.py")
        assert "XLA207" in {d.code for d in result.diagnostics}, name
        with pytest.raises(jax.errors.NonConcreteBooleanIndexError):
            jax.jit(lambda v: jax.numpy.sum(v[fn(*[v] * arity)]))(x)  # noqa: B023 - called at once


# review22's regression (a literal argument exempted the whole call): the table's `shape_args` records
# that both operands of setdiff1d/intersect1d drive the shape, only `obj` of jnp.delete
@pytest.mark.parametrize("body", [
    "    return jnp.setdiff1d(x, 0)\n",
    "    return jnp.intersect1d(x, 2)\n",
])
def test_set_operation_with_one_literal_operand_still_fails_and_is_flagged(body: str):
    src = _HEAD + body
    namespace: dict = {}
    exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    with pytest.raises(jax.errors.ConcretizationTypeError):
        namespace["f"](jax.numpy.array([0, 3, 0, 2]))
    result = check_source(src, "case.py")
    assert result.error is None
    assert "XLA207" in {d.code for d in result.diagnostics}, src


@pytest.mark.parametrize(("body", "fixed"), [
    # the table's `holds_with`: weights keep bincount's data-dependent length; `length=` sizes it
    ("    return jnp.bincount(x, weights=x * 0.5)\n", "    return jnp.bincount(x, weights=x * 0.5, length=4)\n"),
    # the table's `shape_args`: only jnp.delete's index drives its shape, so a literal index compiles
    ("    return jnp.delete(x, x[0])\n", "    return jnp.delete(x, 0)\n"),
    ("    return jnp.extract(x > 0, x)\n", "    return jnp.extract(x > 0, x, size=4)\n"),
    ("    return jnp.setdiff1d(x, 0)\n", "    return jnp.setdiff1d(x, 0, size=4)\n"),
])
def test_the_error_class_named_is_the_one_jit_raises(body: str, fixed: str):
    x = jax.numpy.array([0, 3, 0, 2])
    for src, flagged in ((_HEAD + body, True), (_HEAD + fixed, False)):
        result = check_source(src, "case.py")
        assert result.error is None
        messages = [d.message for d in result.diagnostics if d.code == "XLA207"]
        assert bool(messages) is flagged, src
        namespace: dict = {}
        exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
        if not flagged:
            namespace["f"](x)
            continue
        with pytest.raises(jax.errors.ConcretizationTypeError) as raised:
            namespace["f"](x)
        assert f"({type(raised.value).__name__})" in messages[0], (src, messages[0])


_TABLES = (
    "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
    "def make_table(n):\n    t = np.zeros((n, 2), np.float32)\n    t[:, 0] = np.arange(n)\n    return t\n"
    "TABLE = make_table(8)\nGRID = np.linspace(0.0, 1.0, 8)\n"
    "class Catalog:\n    def __init__(self, seed=0):\n        rng = np.random.default_rng(seed)\n"
    "        self.flux = rng.uniform(0.5, 2.0, size=(8,))\n        self.gain = jnp.ones(8)\n"
    "    def lookup(self, ids):\n        return {body}\n"
    "catalog = Catalog()\n"
    "@jax.jit\ndef f(ids):\n    return catalog.lookup(ids)\n"
)


@pytest.mark.parametrize(("body", "flagged"), [
    ("TABLE[ids]", True),  # a module-level table a helper of this file built with NumPy
    ("GRID[ids]", True),  # a module-level NumPy constant
    ("self.flux[ids]", True),  # an attribute filled from a NumPy random generator in __init__
    ("[g[ids] for g in np.indices((8,))][0]", True),  # an element of a NumPy array
    ("jnp.asarray(TABLE)[ids]", False),
    ("TABLE[ids.shape[0]]", False),
    ("GRID[3] * ids", False),
    ("self.gain[ids]", False),
])
def test_numpy_table_bound_elsewhere_indexed_by_tracer_flagged_iff_it_fails(body: str, flagged: bool):
    """A NumPy array indexed with a traced value converts the tracer (TracerArrayConversionError), wherever
    the array was built in the file: module level, a helper's result, a NumPy generator in __init__
    (reports24-jax: jax#3133, and the train cases of reports18/21_jax)."""
    src = _TABLES.format(body=body)
    assert _numpy_flagged(src) is flagged, src
    namespace: dict = {}
    exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
    ids = jax.numpy.array([1, 3])
    if flagged:
        with pytest.raises(jax.errors.TracerArrayConversionError):
            namespace["f"](ids)
    else:
        namespace["f"](ids)



@pytest.mark.parametrize(("call", "static_call", "args"), [
    # jax.scipy / jax.image rows of xlacheck/data/jax_api.json (static_args and static_errors measured by
    # tools/generate_jax_api_table.py)
    ("multigammaln(a, d)", "multigammaln(a, 3)", "a + 2.0, 3"),
    ("jax.image.resize(a, (d, d), 'linear')", "jax.image.resize(a, (4, 4), 'linear')", "a, 4"),
    ("jax.scipy.linalg.hilbert(d) @ jnp.ones(3)", "jax.scipy.linalg.hilbert(3) @ jnp.ones(3)", "a, 3"),
    ("jax.scipy.special.bessel_jn(a, v=d)", "jax.scipy.special.bessel_jn(a, v=2)", "a, 2"),
    ("jnp.fft.rfft(a, d)", "jnp.fft.rfft(a, 4)", "a, 4"),
    ("jax.lax.top_k(a, d)", "jax.lax.top_k(a, 1)", "a, 1"),
    ("jax.scipy.ndimage.map_coordinates(a, [a[0], a[1]], order=d)",
     "jax.scipy.ndimage.map_coordinates(a, [a[0], a[1]], order=1)", "a, 1"),
    ("jax.scipy.fft.dct(a, n=d)", "jax.scipy.fft.dct(a, n=4)", "a, 4"),
])
def test_static_argument_flagged_iff_traced_with_the_error_tracing_raises(call: str, static_call: str, args: str):
    """The message names the error class the table measured, and tracing raises exactly that class."""
    head = ("import jax\nimport jax.image\nimport jax.numpy as jnp\nimport jax.scipy.linalg\n"
            "import jax.scipy.fft\nimport jax.scipy.ndimage\nimport jax.scipy.special\n"
            "from jax.scipy.special import multigammaln\n@jax.jit\n")
    a = jax.numpy.array([[0.5, 1.0], [1.5, 2.0]])
    for src, flagged in ((head + f"def f(a, d):\n    return {call}\n", True),
                         (head + f"def f(a, _):\n    return {static_call}\n", False)):
        found = [d.message for d in check_source(src, "case.py").diagnostics if d.code == "XLA207"]
        assert bool(found) is flagged, src
        namespace: dict = {}
        exec(compile(src, "case.py", "exec"), namespace)  # noqa: S102 - our own snippet
        values = eval(args, {"a": a})  # noqa: S307 - our own literal
        if not flagged:
            namespace["f"](*values)
            continue
        with pytest.raises(Exception) as raised:  # noqa: PT011 - the class is what is checked
            namespace["f"](*values)
        assert f"({type(raised.value).__name__})" in found[0], (found[0], raised.value)
