"""xlacheck/data/tf_api.json and its loader (xlacheck.api_table).

The loader tests need no TensorFlow. The tests marked ``tf`` re-check a sample of the table
against TensorFlow itself: they call the functions on symbolic inputs and compile them with
``jit_compile=True``, independently of the generator's own code.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from xlacheck import api_table

ROOT = Path(__file__).resolve().parents[2]
TABLE = json.loads((ROOT / "xlacheck" / "data" / "tf_api.json").read_text())
ENTRIES = TABLE["entries"]


def test_loader_imports_no_framework_and_is_fast():
    code = (
        "import sys, time; t = time.perf_counter(); from xlacheck import api_table; "
        "api_table.lookup('tf.reshape'); dt = time.perf_counter() - t; "
        "bad = [m for m in ('tensorflow', 'keras', 'tf_keras', 'numpy', 'jax', 'torch') if m in sys.modules]; "
        "print(bad, dt)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    bad, seconds = out.stdout.rsplit(" ", 1)
    assert bad == "[]"
    assert float(seconds) < 1.0


def test_every_entry_is_well_formed():
    for name, entry in ENTRIES.items():
        if "alias_of" in entry:
            assert entry["alias_of"] in ENTRIES, name
            assert "alias_of" not in ENTRIES[entry["alias_of"]], name
            continue
        assert entry["returns"] in api_table.RETURN_KINDS, name
        assert entry["by"] in {"call", "op_def", "class", "doc", "none"}, name


def test_table_covers_the_namespaces_the_issue_asks_for():
    # Keras 3's keras.backend is small (14 public names); the others hold hundreds
    minimum = {"tf.raw_ops.": 1000, "tf.compat.v1.": 1000, "tf.keras.": 500, "keras.ops.": 300,
               "keras.backend.": 10, "tf.keras.backend.": 100, "tf.math.": 100, "tf.nn.": 50}
    for prefix, n in minimum.items():
        assert sum(name.startswith(prefix) for name in ENTRIES) >= n, prefix


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("tf.shape", "tensor"),
        ("tf.reduce_max", "tensor"),
        ("tf.raw_ops.StringFormat", "string_tensor"),
        ("tf.raw_ops.VarHandleOp", "variable"),
        ("tf.keras.backend.int_shape", "static_shape"),
        ("tf.Variable", "variable"),
        ("tf.TensorShape", "static_shape"),
        ("tf.keras.layers.Dense", "layer"),
    ],
)
def test_known_return_kinds(name, kind):
    fact = api_table.lookup(name)
    assert fact is not None, name
    assert fact.returns == kind, (name, fact)


def test_aliases_resolve_to_the_canonical_entry():
    fact = api_table.lookup("tf.compat.v1.reshape")
    assert fact is not None and fact.canonical == "tf.reshape"
    assert api_table.lookup("tf.compat.v2.reshape").canonical == "tf.reshape"
    assert api_table.lookup("tf.no_such_function") is None


def test_shape_arguments_must_be_constants():
    assert api_table.lookup("tf.reshape").needs_constant("shape")
    assert api_table.lookup("tf.raw_ops.Reshape").needs_constant("shape")
    assert not api_table.lookup("tf.reshape").needs_constant("tensor")


def _sample(predicate, n):
    names = sorted(name for name, entry in ENTRIES.items() if "alias_of" not in entry and predicate(name, entry))
    step = max(1, len(names) // n)
    return names[::step][:n]


# --------------------------------------------------------------------------------------------
# Re-checks against TensorFlow (a sample; the generator probes all)


@pytest.fixture(scope="module")
def tf():
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    return pytest.importorskip("tensorflow")


def _resolve(tf, name):
    obj = tf
    for part in name.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


@pytest.mark.tf
def test_shape_arguments_fail_when_fed_a_value_less_tensor(tf):
    """The documented const_args, compiled by hand: a tensor with no known value in a const
    argument fails with 'must be a compile-time constant'; the same call with a Python value compiles."""
    cases = {
        "tf.reshape": (lambda x, s: tf.reshape(x, s), tf.TensorSpec([2], tf.int32), "shape"),
        "tf.one_hot": (lambda x, d: tf.one_hot(x, d), tf.TensorSpec([], tf.int32), "depth"),
        "tf.zeros": (lambda x, s: tf.zeros(s) + tf.reduce_sum(tf.cast(x, tf.float32)), tf.TensorSpec([2], tf.int32),
                     "shape"),
        "tf.tile": (lambda x, m: tf.tile(x, m), tf.TensorSpec([2], tf.int32), "multiples"),
    }
    x_spec = tf.TensorSpec([2, 2], tf.int32)
    for name, (body, spec, argument) in cases.items():
        fact = api_table.lookup(name)
        assert fact is not None and fact.needs_constant(argument), name
        jitted = tf.function(body, jit_compile=True, autograph=False)
        with pytest.raises(Exception, match="compile-time constant"):
            jitted.experimental_get_compiler_ir(x_spec, spec)(stage="hlo")


@pytest.mark.tf
def test_doc_decided_lists_reproduce_from_their_docstrings(tf):
    # tf.compat.v1.tpu.replicate cannot be called without a TPU: its docstring says it returns a
    # Python list (one entry per replica), so `if res:` / `[x[0] for x in res]` are Python (trax)
    sys.path.insert(0, str(ROOT / "tools"))
    import generate_api_table as gen

    assert ENTRIES["tf.compat.v1.tpu.replicate"].get("structure") == "list"
    doc_lists = [n for n, e in ENTRIES.items() if e.get("by") == "doc" and n.startswith("tf.")
                 and not n.startswith("tf.compat.v1.raw_ops.")]
    assert doc_lists
    checked = 0
    for name in doc_lists[:: max(1, len(doc_lists) // 40)]:
        try:
            fn = _resolve(tf, name)
        except AttributeError:
            continue
        assert (gen.doc_structure(fn) == "list") == (ENTRIES[name].get("structure") == "list"), name
        checked += 1
    assert checked >= 30, f"only {checked} sampled doc-decided entries resolve in the installed TensorFlow"
    from xlacheck.engine import check_source

    src = ("import tensorflow as tf\ndef make(tf_f):\n    @tf.function(autograph=False)\n    def fn(inputs):\n"
           "        res = tf.compat.v1.tpu.replicate(tf_f, inputs)\n"
           "        if res and isinstance(res[0], list) and len(res[0]) == 1:\n"
           "            res = [x[0] for x in res]\n        return res\n    return fn\n")
    assert [d.code for d in check_source(src, "replicate.py").diagnostics] == []


@pytest.mark.tf
def test_sampled_const_args_reproduce(tf):
    sys.path.insert(0, str(ROOT / "tools"))
    import generate_api_table as gen
    import generate_op_table as got

    checked = 0
    for name in _sample(lambda n, e: bool(e.get("const_args")) and n.startswith("tf."), 12):
        fn = _resolve(tf, name)
        traced = got.trace_default(tf, name, fn)
        assert traced is not None, name
        optional = gen.optional_int_params(fn, traced.args)  # const_args the probing call left out
        for argument in ENTRIES[name]["const_args"]:
            trial = dict(traced.args)
            trial[argument] = (gen.as_graph_input(traced.args[argument]) if argument in traced.args
                               else optional[argument])
            inputs, call = got.bind(tf, fn, trial)
            jitted = tf.function(call, jit_compile=True, autograph=False)
            with pytest.raises(Exception, match="compile-time constant"):
                jitted.experimental_get_compiler_ir(*[t.spec(tf) for t in inputs])(stage="hlo")
            checked += 1
    assert checked >= 5


@pytest.mark.tf
def test_optional_constant_arguments_fail_from_data_and_compile_as_literals(tf):
    """The optional arguments probe_optional_const added, compiled by hand: an axis computed from
    the data inside the compiled function fails with 'must be a compile-time constant', a literal
    axis compiles; tf.math.top_k's k (not in the table) compiles from data (a bounded dynamic size)."""
    for name, argument in (("tf.reduce_sum", "axis"), ("tf.gather", "axis"), ("tf.argmax", "axis"),
                           ("tf.eye", "num_columns")):
        fact = api_table.lookup(name)
        assert fact is not None and argument in fact.const_args, name
    assert "k" not in api_table.lookup("tf.math.top_k").const_args  # type: ignore[union-attr]
    spec = (tf.TensorSpec([4, 6]), tf.TensorSpec([2], tf.int32))
    cases = {
        "reduce_sum": lambda x, ids: tf.reduce_sum(x, axis=tf.reduce_min(ids)),
        "gather": lambda x, ids: tf.gather(x, ids, axis=tf.reduce_min(ids)),
        "argmax": lambda x, ids: tf.argmax(x, axis=tf.reduce_min(ids)),
        "eye": lambda x, ids: tf.eye(2, num_columns=tf.reduce_max(ids)) * tf.reduce_sum(x),
    }
    for body in cases.values():
        jitted = tf.function(body, jit_compile=True, autograph=False)
        with pytest.raises(Exception, match="compile-time constant"):
            jitted.experimental_get_compiler_ir(*spec)(stage="hlo")
    tf.function(lambda x, ids: tf.reduce_sum(x, axis=1), jit_compile=True).experimental_get_compiler_ir(*spec)(
        stage="hlo")
    tf.function(lambda x, ids: tf.math.top_k(x, k=tf.reduce_min(ids)).values,
                jit_compile=True).experimental_get_compiler_ir(*spec)(stage="hlo")


@pytest.mark.tf
def test_sampled_return_kinds_reproduce(tf):
    """Call a sample of the 'call' entries on symbolic inputs and classify the result by hand."""
    sys.path.insert(0, str(ROOT / "tools"))
    import generate_op_table as got

    checked = 0
    for name in _sample(lambda n, e: e.get("by") == "call" and n.startswith("tf.") and not n.startswith("tf.compat"),
                        25):
        fn = _resolve(tf, name)
        traced = got.trace_default(tf, name, fn)
        if traced is None:
            continue
        seen = {}

        def spy(*a, **k):
            out = fn(*a, **k)
            seen["out"] = out
            return out

        inputs, call = got.bind(tf, spy, traced.args)
        tf.function(call, autograph=False).get_concrete_function(*[t.spec(tf) for t in inputs])
        out = seen["out"]
        first = tf.nest.flatten(out)[0] if tf.nest.flatten(out) else None
        expected = ENTRIES[name]["returns"]
        if expected in {"tensor", "string_tensor"}:
            assert tf.is_tensor(first) or isinstance(out, (tf.SparseTensor, tf.RaggedTensor)), name
            assert (first.dtype == tf.string) == (expected == "string_tensor"), name
        elif expected == "variable":
            assert isinstance(out, tf.Variable), name
        elif expected == "python":
            assert not tf.is_tensor(first), name
        checked += 1
    assert checked >= 15


@pytest.mark.tf
def test_sampled_gradient_verdicts_reproduce(tf):
    """Entries whose gradient does not compile: the gradient really fails under jit_compile,
    while the forward compiles."""
    sys.path.insert(0, str(ROOT / "tools"))
    import generate_api_table as gen
    import generate_op_table as got

    # functions only: Keras layer classes are probed by building them (LAYER_GRAD_PROBES; the
    # UpSampling2D verdict is compiled in tests/xlacheck/test_compiler_truth.py, XLA316)
    names = _sample(lambda n, e: e.get("grad_xla") is False and n.startswith("tf.") and e.get("by") != "class", 6)
    names += _sample(lambda n, e: e.get("grad_xla") is True and n.startswith("tf.") and e.get("by") != "class", 6)
    assert names
    for name in names:
        fn = _resolve(tf, name)
        traced = got.trace_default(tf, name, fn)
        assert traced is not None, name
        assert gen.compile_outcome(tf, fn, traced.args)[0] == "compiled", name
        outcome, _ = gen.compile_outcome(tf, fn, traced.args, grad=True)
        assert (outcome == "compiled") == ENTRIES[name]["grad_xla"], (name, outcome)


# --------------------------------------------------------------------------------------------
# JAX (xlacheck/data/jax_api.json)


def test_jax_facts():
    nonzero = api_table.lookup("jax.numpy.nonzero")
    assert nonzero is not None and nonzero.dynamic_shape and nonzero.xla is False
    assert api_table.lookup("jax.numpy.reshape").needs_constant("shape")
    assert api_table.lookup("jax.numpy.repeat").needs_constant("repeats")
    assert api_table.lookup("jax.numpy.shape").returns == "python"
    assert api_table.lookup("jax.numpy.tanh").returns == "tensor"
    assert api_table.lookup("jax.numpy.no_such") is None


def test_jax_sized_by_and_unit_axis_facts():
    """The probe records what gives a data-dependent result a static size, and axes that need a
    unit dimension to be probed (jnp.squeeze)."""
    for name in ("jax.numpy.nonzero", "jax.numpy.where", "jax.numpy.unique", "jax.numpy.argwhere"):
        fact = api_table.lookup(name)
        assert fact is not None and fact.dynamic_shape and fact.sized_by == ("size",), name
    assert api_table.lookup("jax.numpy.tanh").sized_by == ()
    squeeze = api_table.lookup("jax.numpy.squeeze")
    assert squeeze is not None and squeeze.needs_constant("axis") and squeeze.params[:2] == ("a", "axis")


def test_jax_sized_by_reproduces():
    """What the table says about `size=` and squeeze's axis, asked of JAX again (skipped without JAX)."""
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    x = jnp.asarray([0.0, 1.0, 0.0, 2.0])
    assert jax.jit(lambda v: jnp.nonzero(v, size=2)[0])(x).tolist() == [1, 3]
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda v: jnp.where(v > 0))(x)
    assert jax.jit(lambda v: jnp.squeeze(v, 0))(x[None]).shape == (4,)
    with pytest.raises(Exception):  # noqa: B017 - a traced axis: the error class changed across JAX versions
        jax.jit(lambda v, a: jnp.squeeze(v, a))(x[None], jnp.asarray(0))


def test_jax_facts_reproduce():
    """Re-check a sample against JAX itself (skipped without JAX)."""
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    x = jnp.arange(4.0)
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(jnp.nonzero)(x)
    with pytest.raises(TypeError):  # a traced shape: ConcretizationTypeError or TypeError
        jax.jit(lambda s: jnp.zeros(s))(jnp.asarray(3))
    assert jax.jit(lambda a: jnp.zeros(3) + a)(x[:3]).shape == (3,)
    entries = json.loads((ROOT / "xlacheck" / "data" / "jax_api.json").read_text())["entries"]
    static = sorted(n for n, e in entries.items() if e.get("static_args") and n.startswith("jax.numpy."))
    assert len(static) >= 20


# Positional mapping and conditional facts (the loader: no TensorFlow)


def test_entries_with_constant_arguments_record_their_positional_parameters():
    for name, entry in ENTRIES.items():
        if "alias_of" in entry or not (entry.get("const_args") or entry.get("py_args")):
            continue
        params = entry.get("params")
        assert params, name
        for argument in (*entry.get("const_args", ()), *entry.get("py_args", ())):
            assert argument in params, (name, argument)


def test_bind_maps_positional_and_keyword_arguments_to_parameter_names():
    fact = api_table.fact_for("tf.reshape")
    assert fact is not None
    assert fact.bind(["x", "s"], {}) == {"tensor": "x", "shape": "s"}
    assert fact.bind(["x"], {"shape": "s", "name": "n"}) == {"tensor": "x", "shape": "s", "name": "n"}
    assert fact.bind(["x", "s", "n", "extra"], {}) == {"tensor": "x", "shape": "s", "name": "n", "#3": "extra"}
    where = api_table.fact_for("jnp.where")  # no params: the probing call's arguments, in order
    assert where is not None and where.shape_depends_on_data(frozenset(where.bind(["c"], {})))
    assert not where.shape_depends_on_data(frozenset(where.bind(["c", "x", "y"], {})))
    keras_zeros = api_table.fact_for("tf.keras.ops.zeros")  # `keras` is canonicalised to tf.keras
    assert keras_zeros is not None and keras_zeros.canonical == "keras.ops.zeros"
    assert keras_zeros.bind(["s"], {}) == {"shape": "s"}


def test_conditional_constant_follows_the_arguments_given():
    """tf.sequence_mask's `lengths` sizes the result only when `maxlen` is omitted."""
    fact = api_table.fact_for("tf.sequence_mask")
    assert fact is not None
    assert fact.static_args(frozenset({"lengths"})) == ("lengths",)
    assert fact.static_args(frozenset({"lengths", "maxlen"})) == ()


def test_data_dependent_shape_regardless_of_constant_arguments():
    def depends(name, given):
        fact = api_table.fact_for(name)
        assert fact is not None, name
        return fact.shape_depends_on_data(frozenset(given))

    assert depends("tf.unique", {"x"})
    assert depends("tf.boolean_mask", {"tensor", "mask"})
    assert depends("tf.where", {"condition"})
    assert not depends("tf.where", {"condition", "x", "y"})  # the 3-argument form keeps its shape
    # unknown dims in the probing call came from a constant argument fed as a tensor
    assert not depends("tf.tile", {"input", "multiples"})
    assert not depends("tf.range", {"limit"})
    assert not depends("tf.sequence_mask", {"lengths"})
    assert not depends("tf.reshape", {"tensor", "shape"})


@pytest.mark.parametrize("supplement", ["STATIC_ARGS_SUPPLEMENT", "PYTHON_ARGS_SUPPLEMENT"])
def test_hand_supplements_are_not_in_the_table(supplement):
    """The hand supplements (arguments that must be constants, arguments that must be Python values)
    hold only what the generated table lacks."""
    from xlacheck.analysis import tables

    for name, extra in getattr(tables, supplement).items():
        assert extra.reason, name
        assert set(extra.static) <= set(extra.params), name
        fact = api_table.fact_for(name)
        if fact is not None:
            assert not set(extra.static) & set(fact.const_args + fact.py_args), name


@pytest.mark.tf
def test_static_args_supplement_compiles_as_documented(tf):
    """Each supplement entry, compiled with the argument computed from a value-less input (a
    TensorSpec), fails with 'must be a compile-time constant'; the conditional fact of the table
    (tf.sequence_mask's lengths with maxlen given) compiles. tf.math.top_k's k and tf.slice's size
    compile with data-dependent values (bounded dynamic shapes), so they are not in the supplement."""
    import tensorflow.experimental.numpy as tnp

    from xlacheck.analysis.tables import STATIC_ARGS_SUPPLEMENT

    fails = {
        ("tf.pad", "paddings"): lambda x, n: tf.pad(x, [[0, n], [0, 0]]),
        ("tf.range", "start"): lambda x, n: tf.range(n, 10),
        ("tf.range", "limit"): lambda x, n: tf.range(n),
        ("tf.range", "delta"): lambda x, n: tf.range(0, 10, n),
        ("tf.sequence_mask", "maxlen"): lambda x, n: tf.sequence_mask([1, 2], n),
        ("tf.TensorArray", "size"): lambda x, n: tf.TensorArray(tf.float32, size=n).stack(),
        ("tnp.zeros", "shape"): lambda x, n: tnp.zeros((n, 2)),
        ("tnp.ones", "shape"): lambda x, n: tnp.ones((n, 2)),
    }
    compiles = {
        "sequence_mask lengths, maxlen given": lambda x, n: tf.sequence_mask(tf.reshape(n, [1]), 5),
        "top_k k": lambda x, n: tf.math.top_k(x[0], n).values,
        "slice size": lambda x, n: tf.slice(x, [0, 0], [n, 2]),
    }
    covered = {(name, arg) for name, extra in STATIC_ARGS_SUPPLEMENT.items() for arg in extra.static
               if not name.startswith(("jnp.", "jax."))}
    assert covered == set(fails)

    def hlo(body):
        def f(x):
            return body(x, tf.cast(tf.reduce_max(x), tf.int32))  # a size computed from the data

        jitted = tf.function(f, jit_compile=True, autograph=False)
        return jitted.experimental_get_compiler_ir(tf.TensorSpec([3, 2], tf.float32))(stage="hlo")

    for body in fails.values():
        with pytest.raises(Exception, match="compile-time constant"):
            hlo(body)
    for body in compiles.values():
        assert "HloModule" in hlo(body)
    # without maxlen, lengths must be a constant (the table's const_args)
    with pytest.raises(Exception, match="compile-time constant"):
        hlo(lambda x, n: tf.sequence_mask(tf.reshape(n, [1])))


def test_jax_static_args_supplement_fails_when_traced():
    """Each JAX supplement entry, with the argument computed from a traced value under jax.jit,
    raises (ConcretizationTypeError, or TypeError for shapes)."""
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    from xlacheck.analysis.tables import STATIC_ARGS_SUPPLEMENT

    fails: dict[tuple[str, str], object] = {}  # the supplement holds no JAX entry any more
    # optional integer parameters the generator now probes itself (once hand-listed here), and
    # jax.random / jax.nn, which it now probes too
    measured = {
        ("jax.random.normal", "shape"): lambda n: jax.random.normal(jax.random.PRNGKey(0), (n,)),
        ("jax.random.uniform", "shape"): lambda n: jax.random.uniform(jax.random.PRNGKey(0), (n,)),
        ("jax.random.randint", "shape"): lambda n: jax.random.randint(jax.random.PRNGKey(0), (n,), 0, 5),
        ("jax.nn.one_hot", "num_classes"): lambda n: jax.nn.one_hot(jnp.zeros(2, jnp.int32), n),
        ("jnp.arange", "stop"): lambda n: jnp.arange(0, n),
        ("jnp.arange", "step"): lambda n: jnp.arange(0, 10, n),
        ("jnp.eye", "M"): lambda n: jnp.eye(3, n),
        ("jnp.linspace", "num"): lambda n: jnp.linspace(0.0, 1.0, n),
        ("jnp.fft.rfft", "n"): lambda n: jnp.fft.rfft(jnp.ones(4), n=n),
    }
    covered = {(name, arg) for name, extra in STATIC_ARGS_SUPPLEMENT.items() for arg in extra.static
               if name.startswith(("jnp.", "jax."))}
    assert covered == set(fails)
    for name, arg in measured:
        fact = api_table.fact_for(name)
        assert fact is not None and arg in fact.py_args + fact.const_args, (name, arg)
    for body in measured.values():
        with pytest.raises((jax.errors.ConcretizationTypeError, TypeError)):
            jax.jit(lambda x, body=body: body(jnp.max(x).astype(jnp.int32) + 1))(jnp.ones(3))
    # the same calls with a Python value compile
    assert jax.jit(lambda x: jnp.arange(0, 4) + x)(jnp.ones(4)).shape == (4,)


def test_output_dtype_and_structure_facts():
    """dtype "bool" and structure "list" from the probing call (no hand list of mask ops)."""
    for name in ("tf.equal", "tf.math.is_nan", "tf.sequence_mask", "tf.keras.ops.greater", "tf.keras.backend.less"):
        fact = api_table.fact_for(name)
        assert fact is not None and fact.dtype == "bool", name
    for name in ("tf.reduce_sum", "tf.where", "tf.cast"):
        fact = api_table.fact_for(name)
        assert fact is not None and fact.dtype is None, name
    for name in ("tf.split", "tf.unstack", "tf.shape_n", "tf.keras.ops.split"):
        fact = api_table.fact_for(name)
        assert fact is not None and fact.structure == "list", name
    where = api_table.fact_for("tf.keras.ops.where")  # a list of index tensors with one argument only
    assert where is not None and where.structure == "list"
    assert where.holds_for(frozenset({"condition"})) and not where.holds_for(frozenset({"condition", "x1", "x2"}))


@pytest.mark.tf
def test_python_args_supplement_fails_on_a_shape_tensor(tf):
    """Each Python-valued argument of the supplement, given a tensor that is only a shape
    (tf.shape(x)[0]), fails while tracing under jit_compile; the parameter names are the function's."""
    import inspect

    import tensorflow.experimental.numpy as tnp

    from xlacheck.analysis.tables import PYTHON_ARGS_SUPPLEMENT

    fails = {
        ("tnp.arange", "start"): lambda x, n: tnp.arange(n),
        ("tnp.arange", "stop"): lambda x, n: tnp.arange(0, n),
        ("tnp.arange", "step"): lambda x, n: tnp.arange(0, 6, n),
        ("tnp.linspace", "num"): lambda x, n: tnp.linspace(0.0, 1.0, n),
        ("tnp.eye", "N"): lambda x, n: tnp.eye(n),
        ("tnp.eye", "M"): lambda x, n: tnp.eye(2, n),
        ("tnp.eye", "k"): lambda x, n: tnp.eye(3, 3, n),
        ("tnp.identity", "n"): lambda x, n: tnp.identity(n),
        ("tnp.tri", "N"): lambda x, n: tnp.tri(n),
        ("tnp.tri", "M"): lambda x, n: tnp.tri(2, n),
        ("tnp.tri", "k"): lambda x, n: tnp.tri(3, 3, n),
        ("tnp.triu", "k"): lambda x, n: tnp.triu(x, n - 2),
        ("tnp.tril", "k"): lambda x, n: tnp.tril(x, n - 2),
        ("tnp.moveaxis", "source"): lambda x, n: tnp.moveaxis(x, n - 3, 1),
        ("tnp.moveaxis", "destination"): lambda x, n: tnp.moveaxis(x, 0, n - 2),
        ("tnp.repeat", "repeats"): lambda x, n: tnp.repeat(x, n, axis=0),
    }
    covered = {(name, arg) for name, extra in PYTHON_ARGS_SUPPLEMENT.items() for arg in extra.static}
    assert covered == set(fails)
    for name, extra in PYTHON_ARGS_SUPPLEMENT.items():
        assert tuple(inspect.signature(getattr(tnp, name.split(".", 1)[1])).parameters) == extra.params, name
    x = tf.ones([3, 2])
    for body in fails.values():
        step = tf.function(lambda t, body=body: body(t, tf.shape(t)[0]), jit_compile=True)
        with pytest.raises((TypeError, NotImplementedError, tf.errors.OperatorNotAllowedInGraphError)):
            step(x)


def test_gradient_over_an_unsized_tensor_list_is_a_measured_fact() -> None:
    # tools/generate_api_table.py --probe-grad: tf.linalg.expm's forward compiles, its gradient fails with
    # "XLA compilation requires a fixed tensor list size" (recorded as grad_list_size, not as ops)
    fact = api_table.fact_for("tf.linalg.expm")
    assert fact is not None and fact.xla is True
    assert fact.grad_xla is False and fact.grad_list_size and fact.grad_unsupported == ()
    assert "tf.linalg.expm" in api_table.gradient_sensitive_names()


def test_complex_gradient_is_a_measured_fact_per_dtype() -> None:
    # tools/generate_api_table.py --probe-grad-complex: eigh's float32 gradient compiles, its complex64 gradient
    # fails in XLA ("Binary op add with different element types"); recorded per dtype, apart from grad_xla
    fact = api_table.fact_for("tf.linalg.eigh")
    assert fact is not None and fact.grad_xla is True
    failure = fact.grad_failure_for_dtype("complex64")
    assert failure is not None and failure[0] == () and "different element types" in failure[1]
    assert fact.grad_failure_for_dtype("complex128") is None and fact.grad_failure_for_dtype("float32") is None
    fft = api_table.fact_for("tf.signal.fft")
    assert fft is not None and fft.grad_failure_for_dtype("complex64") is None  # measured to compile
