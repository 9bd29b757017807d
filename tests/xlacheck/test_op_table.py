"""The op table: lookups the XLA3xx rule relies on, and (with TensorFlow) agreement with the compiler."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlacheck import op_table

# ---------------------------------------------------------------------------------------------
# Loader (no TensorFlow needed)


def test_loader_does_not_import_tensorflow_or_numpy() -> None:
    code = (
        "import sys\n"
        "from xlacheck import op_table\n"
        "op_table.lookup('tf.linalg.det'); op_table.unsupported_raw_ops(); op_table.table_info()\n"
        "bad = sorted(m for m in ('tensorflow', 'numpy') if m in sys.modules)\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize(
    ("api_name", "op"),
    [
        ("tf.strings.format", "StringFormat"),
        ("tf.print", "StringFormat"),
        ("tf.linalg.det", "MatrixDeterminant"),
        ("tf.linalg.slogdet", "LogMatrixDeterminant"),
        ("tf.random.gamma", "RandomGamma"),
        ("tf.timestamp", "Timestamp"),
        ("tf.histogram_fixed_width", "HistogramFixedWidth"),
        ("tf.strings.as_string", "AsString"),
        ("tf.random.log_uniform_candidate_sampler", "LogUniformCandidateSampler"),
        ("tf.unique_with_counts", "UniqueWithCounts"),
    ],
)
def test_known_unsupported(api_name: str, op: str) -> None:
    verdict = op_table.lookup(api_name)
    assert verdict is not None, api_name
    assert op in verdict.raw_ops
    assert op in verdict.unsupported
    assert op in op_table.unsupported_raw_ops()


@pytest.mark.parametrize(
    "api_name",
    [
        "tf.matmul",
        "tf.linalg.logdet",
        "tf.linalg.cholesky",
        "tf.linalg.eigh",
        "tf.linalg.svd",
        "tf.linalg.qr",
        "tf.random.categorical",
        "tf.searchsorted",
        "tf.math.confusion_matrix",
        "tf.image.non_max_suppression",
        "tf.unique",
        "tf.nn.softmax",
        "tf.reduce_sum",
    ],
)
def test_known_supported(api_name: str) -> None:
    verdict = op_table.lookup(api_name)
    assert verdict is not None, api_name
    assert verdict.raw_ops, api_name
    assert verdict.unsupported == ()


def test_matmul_maps_to_matmul_op() -> None:
    verdict = op_table.lookup("tf.matmul")
    assert verdict is not None
    assert {"MatMul", "BatchMatMulV2", "BatchMatMulV3"} & set(verdict.raw_ops)


def test_compat_v2_names_are_the_v2_api() -> None:
    verdict = op_table.lookup("tf.compat.v2.linalg.det")
    assert verdict is not None and verdict.api_name == "tf.compat.v2.linalg.det"
    assert verdict.unsupported == ("MatrixDeterminant",)
    assert op_table.lookup("tf.compat.v2.raw_ops.MatMul") is not None
    # tf.compat.v1.linalg.det is the tf.linalg.det object: an alias record, answered under its name
    v1 = op_table.lookup("tf.compat.v1.linalg.det")
    assert v1 is not None and v1.api_name == "tf.compat.v1.linalg.det" and v1.unsupported == ("MatrixDeterminant",)
    assert op_table.lookup("tf.compat.v1.raw_ops.MatrixDeterminant").unsupported == ("MatrixDeterminant",)  # type: ignore[union-attr]


def test_unknown_name_is_none() -> None:
    assert op_table.lookup("tf.no_such_function") is None
    assert op_table.lookup("numpy.linalg.det") is None
    assert op_table.lookup("tf.raw_ops.NoSuchOp") is None


def test_raw_ops_names_resolve_directly() -> None:
    det = op_table.lookup("tf.raw_ops.MatrixDeterminant")
    assert det is not None and det.unsupported == ("MatrixDeterminant",) and det.source == "raw_op"
    matmul = op_table.lookup("tf.raw_ops.MatMul")
    assert matmul is not None and matmul.unsupported == ()


def test_table_info_names_version_date_and_command() -> None:
    info = op_table.table_info()
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", info["tensorflow_version"])
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", info["generated"])
    assert info["command"].startswith("python tools/generate_op_table.py")
    assert info["backends"]["XLA_CPU_JIT"] > 300


def test_unsupported_raw_ops_are_raw_ops_without_a_cpu_kernel() -> None:
    table = op_table._table()["raw_ops"]
    unsupported = op_table.unsupported_raw_ops()
    assert unsupported <= set(table)
    assert all(not table[op]["xla_cpu_jit"] for op in unsupported)
    assert not {"MatMul", "If", "While", "StatelessIf", "StatefulPartitionedCall", "_Arg", "_Retval"} & unsupported
    # TF1 plumbing has no kernel; a compiled function body holding it fails (see crosscheck).
    assert {"Switch", "Merge", "Placeholder"} <= unsupported


def test_tpu_only_ops_are_not_unsupported_and_inplace_ops_still_are() -> None:
    # cross_replica_ops.cc / infeed_op.cc register these XLA kernels only in the TPU build; off TPU the
    # ops have no kernel at all (kernel_devices == [], measured), so code holding them runs only on a TPU
    table = op_table._table()["raw_ops"]
    tpu_only = op_table.tpu_only_raw_ops()
    assert {"CollectivePermute", "AllToAll", "CrossReplicaSum", "InfeedDequeueTuple", "OutfeedEnqueueTuple"} <= tpu_only
    assert not tpu_only & op_table.unsupported_raw_ops()
    assert all(table[op]["xla_tpu_jit"] and table[op]["xla_tpu_jit_source"].startswith("tensorflow/core/tpu/kernels/")
               for op in tpu_only)
    # InplaceAdd has a TPU XLA kernel too, but runs on CPU/GPU, where jit_compile fails on it
    assert table["InplaceAdd"]["kernel_devices"] == ["CPU", "GPU"]
    assert "InplaceAdd" in op_table.unsupported_raw_ops()
    assert op_table.lookup("tf.raw_ops.CollectivePermute").unsupported == ()  # type: ignore[union-attr]


def test_every_api_entry_is_consistent_with_the_raw_op_table() -> None:
    raw = op_table._table()["raw_ops"]
    unsupported = op_table.unsupported_raw_ops()
    dropped = {r["api"] for r in op_table._table()["sweep_check"]["compiled_despite_graph"] if r["part"] == "forward"}
    # object methods and Keras 3 layers record the ops their compile dropped in their own entry
    dropped |= {n for n, entry in op_table._table()["api"].items() if entry.get("compiled_despite_graph")}
    for name in op_table.api_names():
        verdict = op_table.lookup(name)
        assert verdict is not None
        assert verdict.source in {"trace", "generated", "static"}
        assert set(verdict.raw_ops) <= set(raw), name
        if name in dropped:  # the compiler compiled the swept call: the ops are in an uncalled library function
            assert set(verdict.unsupported) < set(verdict.raw_ops) & unsupported, name
        else:
            assert set(verdict.unsupported) == set(verdict.raw_ops) & unsupported, name
        for condition in verdict.conditions:
            if name.startswith("tf.keras.layers."):  # confirmed by compiling, as the layer's own verdict
                assert set(condition.unsupported) <= set(condition.raw_ops) & unsupported, name
            else:
                assert set(condition.unsupported) == set(condition.raw_ops) & unsupported, name
            # a variant is recorded because it changes the kernels, or the compiler's verdict on it
            # (forward or gradient) differs from the default call's, which creates only kernels
            measured_apart = condition.compiles is False or condition.grad_unsupported is not None
            assert set(condition.unsupported) != set(verdict.unsupported) or measured_apart, name
            if measured_apart:
                assert not condition.unsupported and not verdict.unsupported, name
            if condition.compiles is False:
                assert condition.compile_error, name


def test_resize_is_argument_dependent() -> None:
    resize = op_table.lookup("tf.image.resize")
    assert resize is not None
    assert resize.unsupported == ()  # bilinear, no antialias
    assert "ResizeBicubic" in resize.unsupported_for({"method": "bicubic"})
    assert "ScaleAndTranslate" in resize.unsupported_for({"antialias": True})
    assert resize.unsupported_for({"method": "bilinear"}) == ()
    assert resize.unsupported_for({}) == ()


CONDITIONAL = sorted(n for n in op_table.api_names() if op_table.lookup(n).conditions)  # type: ignore[union-attr]


@given(name=st.sampled_from(CONDITIONAL), data=st.data())
def test_unsupported_for_combines_measured_conditions(name: str, data: st.DataObject) -> None:
    verdict = op_table.lookup(name)
    assert verdict is not None
    chosen = data.draw(st.lists(st.sampled_from(verdict.conditions), unique_by=lambda c: c.argument))
    arguments = {c.argument: c.value for c in chosen}
    result = set(verdict.unsupported_for(arguments))
    measured = set(verdict.unsupported).union(*(c.unsupported for c in verdict.conditions))
    assert result <= measured
    for condition in chosen:
        # What a condition adds is never lost by combining it with others.
        assert set(condition.unsupported) - set(verdict.unsupported) <= result
    if len(chosen) == 1:
        assert result == set(chosen[0].unsupported)
    # Arguments the table knows nothing about change nothing.
    assert verdict.unsupported_for({"no_such_argument": 1}) == verdict.unsupported


def test_api_coverage_of_required_namespaces() -> None:
    names = op_table.api_names()
    for namespace in ("strings", "linalg", "random", "image", "math", "sparse", "ragged", "sets", "io", "nn",
                      "debugging"):
        assert sum(n.startswith(f"tf.{namespace}.") for n in names) >= 3, namespace
    for name in ("tf.print", "tf.timestamp", "tf.histogram_fixed_width", "tf.py_function", "tf.numpy_function",
                 "tf.unique", "tf.unique_with_counts"):
        assert name in names, name
    assert len(names) > 600


def test_keras_layers_that_wrap_unsupported_ops() -> None:
    for name, op in [
        ("tf.keras.layers.StringLookup", "LookupTableFindV2"),
        ("tf.keras.layers.Hashing", "StringToHashBucketFast"),
        ("tf.keras.layers.RandomRotation", "ImageProjectiveTransformV3"),
    ]:
        verdict = op_table.lookup(name)
        assert verdict is not None and op in verdict.unsupported, name
    resizing = op_table.lookup("tf.keras.layers.Resizing")
    assert resizing is not None and resizing.unsupported == ()
    assert resizing.unsupported_for({"interpolation": "bicubic"}) == ("ResizeBicubic",)
    assert op_table.lookup("tf.keras.layers.Discretization").unsupported == ()  # type: ignore[union-attr]
    assert op_table.table_info()["keras_version"].startswith("tf_keras ")


def test_summary_writers_fail_only_under_a_default_writer() -> None:
    for short in ("scalar", "histogram", "image", "text", "audio", "write"):
        verdict = op_table.lookup(f"tf.summary.{short}")
        assert verdict is not None and verdict.when == "default_writer", short
        assert "WriteSummary" in verdict.unsupported, short
        assert op_table._table()["api"][f"tf.summary.{short}"]["without_writer_unsupported"] == [], short
    assert op_table.lookup("tf.linalg.det").when is None  # type: ignore[union-attr]


def test_switches_list_the_ops_they_add_without_a_kernel() -> None:
    unsupported = op_table.unsupported_raw_ops()
    assert op_table.switch_names() >= {"tf.debugging.enable_check_numerics"}
    for name in op_table.switch_names():
        entry = op_table._table()["switches"][name]
        assert set(entry["unsupported"]) == set(entry["adds_ops"]) & unsupported, name
        assert op_table.switch_unsupported(name) == tuple(entry["unsupported"])
    assert "DebugNumericSummaryV2" in op_table.switch_unsupported("tf.debugging.enable_check_numerics")
    assert op_table.switch_unsupported("tf.debugging.disable_check_numerics") == ()


def test_loops_under_vectorized_map() -> None:
    for name in ("tf.scan", "tf.map_fn", "tf.foldl", "tf.foldr"):
        assert op_table.vectorized_map_unsupported(name), name
    assert op_table.vectorized_map_unsupported("tf.while_loop") == ()
    assert op_table.vectorized_map_unsupported("tf.reduce_sum") == ()


def test_py_function_and_numpy_function_are_unsupported() -> None:
    for name in ("tf.py_function", "tf.numpy_function"):
        verdict = op_table.lookup(name)
        assert verdict is not None and verdict.unsupported, name


def test_crosscheck_recorded_and_agrees() -> None:
    crosscheck = op_table._table()["crosscheck"]
    assert len(crosscheck) >= 30
    assert any(c["compiled"] for c in crosscheck) and any(not c["compiled"] for c in crosscheck)
    disagreements = [c for c in crosscheck if not c["agree"]]
    # Every disagreement must be explained in docs/op-table.md; none are expected on XLA:CPU.
    assert disagreements == [], disagreements


def test_every_traced_entry_was_compiled_and_disagreements_are_explained() -> None:
    check = op_table._table()["api_compile_check"]
    api = op_table._table()["api"]
    traced = [n for n in op_table.api_names() if "alias_of" not in api[n] and api[n]["source"] == "trace"]
    inconclusive = sum(len(names) for names in check["inconclusive"].values())
    assert check["checked"] == check["agree"] + len(check["disagreements"]) + inconclusive
    # classes and tf.summary (traced under a default writer): probed with explicit code; the
    # sweep's tf.compat.v1 and Keras names: compiled by the sweep (test_sweep_...)
    probed = ("tf.keras.", "tf.lookup.", "tf.random.Generator.", "tf.summary.", "tf.compat.v1.", "tf.TensorArray")
    objects = op_table.probed_classes()  # object methods: compiled by their own probe (object_method_entries)
    assert check["checked"] == len([n for n in traced
                                    if not n.startswith(probed) and n.rsplit(".", 1)[0] not in objects])
    assert check["agree"] >= 0.8 * check["checked"]
    # The only tolerated disagreement: an op on constants that Grappler folded away.
    assert all("note" in record for record in check["disagreements"]), check["disagreements"]


def test_dtype_probe_records_are_consistent_and_explained_by_kernel_constraints() -> None:
    """Every ``dtypes`` record names dtypes that compile and dtypes that fail, on ops with an
    XLA kernel whose registered type constraints leave the failing dtype out (the constraints
    explain what the compiler measured)."""
    probe = op_table._table()["dtype_probe"]
    names = [n for n in op_table.api_names() if op_table.dtype_verdict(n) is not None]
    assert len(names) == probe["entries_with_failures"] >= 5
    arguments = [n for n in op_table.api_names() if op_table.dtype_argument_verdict(n) is not None]
    assert len(arguments) == probe["dtype_arguments_with_failures"]
    for verdict in [*map(op_table.dtype_verdict, names), *map(op_table.dtype_argument_verdict, arguments)]:
        assert verdict is not None and verdict.compile and verdict.fail
        assert not set(verdict.compile) & {dtype for dtype, _ in verdict.fail}
        for dtype, ops in verdict.fail:
            for op in ops:
                constraints = op_table.xla_type_constraints(op)
                assert constraints, (verdict.api_name, op)  # the op has a kernel: only the dtype is missing
                if verdict.rejection(dtype) is None:
                    assert any(dtype not in allowed for allowed in constraints.values()), (verdict.api_name, dtype, op)
    cumsum = op_table.dtype_verdict("tf.math.cumsum")
    assert cumsum is not None and cumsum.param == "x" and cumsum.position == 0
    assert cumsum.failing_ops("int8") == ("Cumsum",) and cumsum.failing_ops("int32") == ()
    assert op_table.dtype_verdict("tf.compat.v2.math.cumsum") is not None
    assert op_table.dtype_verdict("tf.matmul") is None  # every dtype it accepts compiles alike
    assert "int8" not in op_table.xla_type_constraints("Cumsum")["T"]
    truncated = op_table.dtype_argument_verdict("tf.random.truncated_normal")
    assert truncated is not None and truncated.param == "dtype" and truncated.failing_ops("float16")
    assert op_table.dtype_argument_verdict("tf.zeros") is None  # every dtype it accepts compiles
    assert op_table.xla_type_constraints("NoSuchOp") == {}
    # a kernel registered for the dtype whose element type tf2xla still rejects: a measured fact too
    bitcast = op_table.dtype_argument_verdict("tf.bitcast")
    assert bitcast is not None and bitcast.param == "type" and bitcast.position == 1
    assert bitcast.failing_ops("complex64") == ("Bitcast",) and bitcast.failing_ops("int32") == ()
    assert bitcast.rejection("complex64") == "Complex types not supported" and bitcast.rejection("float16") is None
    assert "complex64" in op_table.xla_type_constraints("Bitcast")["type"]


def _swept(prefixes: tuple[str, ...]) -> list[str]:
    api = op_table._table()["api"]
    return sorted(n for n, e in api.items() if n.startswith(prefixes) and "alias_of" not in e)


def test_sweep_covers_compat_v1_and_keras_with_one_record_per_object() -> None:
    api = op_table._table()["api"]
    # aliases point at a record that is not itself an alias, and answer with its verdict
    aliases = {n: e["alias_of"] for n, e in api.items() if "alias_of" in e}
    assert len(aliases) > 500
    for name, target in aliases.items():
        assert target in api and "alias_of" not in api[target], name
    for alias, canonical in [("tf.compat.v1.linalg.det", "tf.linalg.det"), ("tf.compat.v1.timestamp", "tf.timestamp")]:
        verdict = op_table.lookup(alias)
        assert verdict is not None and verdict.api_name == alias
        assert verdict.unsupported == op_table.lookup(canonical).unsupported != ()  # type: ignore[union-attr]
    # TF1 functions that are other objects than tf.*, Keras 3 ops and Keras backend functions
    for name, op in [("tf.compat.v1.image.resize_bicubic", "ResizeBicubic"),
                     ("tf.compat.v1.image.resize_area", "ResizeArea"),
                     ("tf.compat.v1.random.poisson", "RandomPoissonV2"),
                     ("tf.keras.ops.det", "MatrixDeterminant"), ("tf.keras.ops.slogdet", "LogMatrixDeterminant"),
                     ("tf.keras.backend.print_tensor", "PrintV2")]:
        verdict = op_table.lookup(name)
        assert verdict is not None and op in verdict.unsupported, name
    for name in ("tf.compat.v1.image.resize_bilinear", "tf.keras.ops.logdet", "tf.keras.backend.dot"):
        assert op_table.lookup(name).unsupported == (), name  # type: ignore[union-attr]
    # every Keras layer class the sweep could build: >= 100, the RNNs confirmed by the compiler
    assert len(_swept(("tf.keras.layers.",))) >= 100
    assert len(_swept(("tf.keras.losses.", "tf.keras.metrics."))) >= 40
    for rnn in ("tf.keras.layers.LSTM", "tf.keras.layers.GRU"):
        assert "CudnnRNNV3" in op_table.lookup(rnn).raw_ops  # type: ignore[union-attr]
        assert op_table.lookup(rnn).unsupported == (), rnn  # type: ignore[union-attr]
    assert op_table.lookup("tf.keras.layers.UpSampling2D").grad_unsupported == ("ResizeNearestNeighborGrad",)  # type: ignore[union-attr]


def test_sweep_compile_check_recorded() -> None:
    check = op_table._table()["sweep_check"]
    functions = check["functions"]
    inconclusive = sum(functions["inconclusive"].values())
    assert functions["checked"] == functions["agree"] + len(functions["disagreements"]) + inconclusive
    assert functions["agree"] >= 0.9 * functions["checked"]
    assert functions["disagreements"] == [], functions["disagreements"]
    # graph ops without a kernel that the compiler did not reject are dropped, and say why
    dropped = {record["api"] for record in check["compiled_despite_graph"]}
    assert {"tf.keras.layers.LSTM", "tf.keras.layers.GRU"} <= dropped


def test_json_is_small_and_deterministically_sorted() -> None:
    from importlib import resources

    text = resources.files("xlacheck").joinpath("data", "tf_xla_ops.json").read_text(encoding="utf-8")
    assert len(text.encode()) < 1_500_000
    import json

    assert json.dumps(json.loads(text), indent=1, sort_keys=True) + "\n" == text


# ---------------------------------------------------------------------------------------------
# Against TensorFlow itself


@pytest.mark.tf
def test_sweep_sample_agrees_with_the_compiler(generator) -> None:
    """A seeded sample of the swept tf.compat.v1/Keras function records (and every one that
    predicts an op without a kernel), compiled again with the arguments the generator synthesizes."""
    import random

    import tensorflow as tf

    callables = {name: fn for group in generator.public_callables(tf).values() for name, fn in group.items()}
    names = _swept(("tf.compat.v1.", "tf.keras.ops.", "tf.keras.backend."))
    flagged = [n for n in names if op_table.lookup(n).unsupported]  # type: ignore[union-attr]
    sample = sorted(set(random.Random(11).sample(names, 12)) | set(flagged[:10]))
    checked = 0
    for name in sample:
        traced = generator.sweep_trace(tf, name, callables[name])
        assert traced is not None, name
        outcome, detail = generator.compile_verdict(tf, callables[name], traced.args)
        predicted = set(op_table.lookup(name).unsupported)  # type: ignore[union-attr]
        if outcome == "other":
            continue  # a constant the call needs, not a kernel question
        checked += 1
        if predicted:
            assert outcome == "no_kernel" and set(detail) - generator.BOUNDARY_OPS <= predicted, (name, detail)
        else:
            assert outcome == "compiled", (name, detail)
    assert checked >= 15


@pytest.mark.tf
def test_swept_layer_verdicts_agree_with_the_compiler() -> None:
    tf = pytest.importorskip("tensorflow")
    tf_keras = pytest.importorskip("tf_keras")
    x_seq = tf.math.sin(tf.reshape(tf.range(2 * 3 * 4, dtype=tf.float32), [2, 3, 4]))
    x_img = tf.math.sin(tf.reshape(tf.range(1 * 4 * 4 * 3, dtype=tf.float32), [1, 4, 4, 3]))
    for short, x in [("LSTM", x_seq), ("GRU", x_seq), ("UpSampling2D", x_img), ("Conv2DTranspose", x_img)]:
        layer = getattr(tf_keras.layers, short)(*((2,) if short != "Conv2DTranspose" else (2, 1)))
        layer(x)

        def step(t, layer=layer):
            with tf.GradientTape() as tape:
                tape.watch(t)
                loss = tf.reduce_sum(tf.square(layer(t)))  # a real upstream gradient (not ones)
            return tape.gradient(loss, [t, *layer.trainable_variables])

        verdict = op_table.lookup(f"tf.keras.layers.{short}")
        assert verdict is not None and verdict.unsupported == (), short
        try:
            tf.function(step, jit_compile=True)(x)  # noqa: XLA404 - a new function per layer
            compiled, message = True, ""
        except Exception as error:  # noqa: BLE001 - the compiler's verdict, whatever it is
            compiled, message = False, str(error)
        if verdict.grad_unsupported:
            assert not compiled and any(op in message for op in verdict.grad_unsupported), (short, message[:300])
        else:
            assert compiled, (short, message[:300])


@pytest.mark.tf
def test_table_covers_every_current_raw_op() -> None:
    tf = pytest.importorskip("tensorflow")
    current = {name for name in dir(tf.raw_ops) if not name.startswith("_")}
    missing = current - set(op_table._table()["raw_ops"])
    assert missing == set(), sorted(missing)[:20]


@pytest.mark.tf
@pytest.mark.parametrize(
    ("api_name", "build"),
    [
        ("tf.linalg.det", lambda tf, x: tf.linalg.det(x)),
        ("tf.strings.as_string", lambda tf, x: tf.strings.as_string(x)),
        ("tf.histogram_fixed_width", lambda tf, x: tf.histogram_fixed_width(x, [0.0, 2.0], nbins=2)),
        ("tf.random.gamma", lambda tf, x: tf.random.gamma([2], x)),
        ("tf.linalg.logdet", lambda tf, x: tf.linalg.logdet(x)),
        ("tf.matmul", lambda tf, x: tf.matmul(x, x)),
        ("tf.searchsorted", lambda tf, x: tf.searchsorted(x, x)),
        ("tf.unique", lambda tf, x: tf.unique(tf.reshape(x, [-1]))[0]),
    ],
)
def test_compiler_agrees_with_table(api_name: str, build) -> None:  # type: ignore[no-untyped-def]
    tf = pytest.importorskip("tensorflow")
    verdict = op_table.lookup(api_name)
    assert verdict is not None
    # The input must be an argument: ops on constants are constant-folded before XLA sees them.
    x = tf.constant([[2.0, 1.0], [1.0, 3.0]])
    try:
        tf.function(lambda t: build(tf, t), jit_compile=True)(x)
        compiled, message = True, ""
    except Exception as error:  # noqa: BLE001 - the compiler's verdict, whatever it is
        compiled, message = False, str(error)
    if verdict.unsupported:
        assert not compiled
        assert any(f"'{op}' OpKernel for XLA_CPU_JIT" in message for op in verdict.unsupported), message[:300]
    else:
        assert compiled, message[:300]


@pytest.mark.tf
@pytest.mark.parametrize(
    ("api_name", "build"),
    [
        ("tf.math.cumsum", lambda tf, x: tf.math.cumsum(x, axis=1)),
        ("tf.math.cumprod", lambda tf, x: tf.math.cumprod(x)),
        ("tf.linalg.inv", lambda tf, x: tf.linalg.inv(x)),
        ("tf.linalg.svd", lambda tf, x: tf.linalg.svd(x, compute_uv=False)),
    ],
)
def test_compiler_agrees_with_dtype_probe(api_name: str, build) -> None:  # type: ignore[no-untyped-def]
    """A sample of the table's ``dtypes`` records, compiled again: each failing dtype fails on
    the op the table names, each of a few compiling dtypes compiles."""
    tf = pytest.importorskip("tensorflow")
    verdict = op_table.dtype_verdict(api_name)
    assert verdict is not None
    base = tf.constant([[2.0, 1.0], [1.0, 3.0]])
    for dtype in [*(d for d, _ in verdict.fail), *verdict.compile[:2], verdict.compile[-1]]:
        x = tf.cast(base, dtype)  # an argument: ops on constants would be folded before XLA
        try:
            tf.function(lambda t: build(tf, t), jit_compile=True)(x)  # noqa: XLA404 - a new function per dtype
            compiled, message = True, ""
        except Exception as error:  # noqa: BLE001 - the compiler's verdict, whatever it is
            compiled, message = False, str(error)
        if verdict.failing_ops(dtype):
            assert not compiled, dtype
            assert any(f"'{op}' OpKernel for XLA_CPU_JIT" in message for op in verdict.failing_ops(dtype)), message[:300]
            assert "attributes didn't match" in message, message[:300]
        else:
            assert compiled, (dtype, message[:300])


@pytest.mark.tf
def test_compiler_agrees_with_dtype_argument_probe() -> None:
    tf = pytest.importorskip("tensorflow")
    verdict = op_table.dtype_argument_verdict("tf.random.truncated_normal")
    assert verdict is not None
    shape = tf.constant([2, 3])  # an argument: nothing folds
    for dtype in [*(d for d, _ in verdict.fail), *verdict.compile]:
        try:
            # one new function per dtype is the probe (XLA404), and the shape argument is the point (XLA205)
            probe = tf.function(lambda s, dtype=dtype: tf.random.truncated_normal(s, dtype=dtype),  # noqa: XLA205, XLA404
                                jit_compile=True)
            probe(shape)
            compiled, message = True, ""
        except Exception as error:  # noqa: BLE001 - the compiler's verdict, whatever it is
            compiled, message = False, str(error)
        assert compiled == (not verdict.failing_ops(dtype)), (dtype, message[:300])
        if not compiled:
            assert "'TruncatedNormal' OpKernel for XLA_CPU_JIT" in message and "attributes didn't match" in message


@pytest.mark.tf
def test_type_constraints_match_the_kernel_registry() -> None:
    tf = pytest.importorskip("tensorflow")
    from tensorflow.python.framework import kernels

    if tf.__version__ != op_table.table_info()["tensorflow_version"]:
        pytest.skip("the committed table is for another TensorFlow version: regenerate it")
    tf.function(lambda x: x + 1.0, jit_compile=True)(tf.constant(1.0))  # registers the XLA kernels
    for op in ("Cumsum", "MatrixInverse", "Bincount", "AddV2", "BatchMatMulV2"):
        registered: dict[str, set[str]] = {}
        for kernel in kernels.get_registered_kernels_for_op(op).kernel:
            if kernel.device_type == "XLA_CPU_JIT":
                for c in kernel.constraint:
                    registered.setdefault(c.name, set()).update(tf.as_dtype(t).name for t in c.allowed_values.list.type)
        assert {a: set(t) for a, t in op_table.xla_type_constraints(op).items()} == registered, op


@pytest.fixture(scope="module")
def generator():  # type: ignore[no-untyped-def]
    """tools/generate_op_table.py as a module (tools/ is not a package)."""
    import importlib.util
    import signal
    from pathlib import Path

    pytest.importorskip("tensorflow")
    path = Path(__file__).resolve().parents[2] / "tools" / "generate_op_table.py"
    spec = importlib.util.spec_from_file_location("generate_op_table", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    signal.signal(signal.SIGALRM, module._on_alarm)
    return module


@pytest.mark.tf
def test_generator_traces_public_functions_to_their_ops(generator) -> None:  # type: ignore[no-untyped-def]
    import tensorflow as tf

    det = generator.trace_default(tf, "tf.linalg.det", tf.linalg.det)
    assert det is not None and "MatrixDeterminant" in det.ops
    resize = generator.trace_default(tf, "tf.image.resize", tf.image.resize)
    assert resize is not None and "ResizeBilinear" in resize.ops
    bicubic = generator.graph_ops(tf, tf.image.resize, {**resize.args, "method": "bicubic"})
    assert "ResizeBicubic" in bicubic
    assert ("method", "bicubic") in set(generator.variants(tf, "tf.image.resize", tf.image.resize, resize.args))


@pytest.mark.tf
def test_generator_reads_argument_choices_from_tensorflows_own_validation(generator) -> None:  # type: ignore[no-untyped-def]
    """String choices come from the ValueError a value TensorFlow does not accept raises (no list
    of ours): data_format of tf.nn.conv2d, interpolation of K.resize_images; bools are flipped and
    numeric flags (dilations) tried."""
    import tensorflow as tf

    conv = generator.trace_default(tf, "tf.nn.conv2d", tf.nn.conv2d)
    assert conv is not None
    assert {"NHWC", "NCHW"} <= set(generator.string_choices(tf, tf.nn.conv2d, conv.args, "data_format"))
    found = set(generator.variants(tf, "tf.nn.conv2d", tf.nn.conv2d, conv.args))
    assert ("data_format", "NCHW") in found and ("dilations", 2) in found
    resize = generator.sweep_trace(tf, "tf.keras.backend.resize_images", tf.keras.backend.resize_images)
    assert resize is not None
    choices = generator.string_choices(tf, tf.keras.backend.resize_images, resize.args, "interpolation")
    assert {"bilinear", "bicubic", "nearest"} <= set(choices)
    lstsq = generator.trace_default(tf, "tf.linalg.lstsq", tf.linalg.lstsq)
    assert lstsq is not None and ("fast", False) in set(generator.variants(tf, "tf.linalg.lstsq", tf.linalg.lstsq,
                                                                           lstsq.args))


@pytest.mark.tf
def test_variant_conditions_agree_with_the_compiler() -> None:
    """The measured variants, compiled by hand: K.resize_images(interpolation="bicubic") fails on
    ResizeBicubic, the default (nearest) compiles forward but its gradient needs
    ResizeNearestNeighborGrad, and interpolation="bilinear" compiles forward and backward."""
    tf = pytest.importorskip("tensorflow")
    verdict = op_table.lookup("tf.keras.backend.resize_images")
    assert verdict is not None and verdict.unsupported == ()
    assert verdict.unsupported_for({"interpolation": "bicubic"}) == ("ResizeBicubic",)
    assert verdict.grad_unsupported_for({"interpolation": "bilinear"}) == ()
    assert verdict.grad_unsupported_for({}) is None
    assert verdict.grad_unsupported == ("ResizeNearestNeighborGrad",)  # the default's, from the sweep
    spec = tf.TensorSpec([1, 4, 4, 3])

    def compiles(body) -> bool:  # type: ignore[no-untyped-def]
        try:
            tf.function(body, jit_compile=True, autograph=False).experimental_get_compiler_ir(spec)(stage="hlo")
            return True
        except Exception as error:  # noqa: BLE001 - the compiler's verdict
            assert "unsupported operations" in str(error)
            return False

    def grad(interpolation: str):  # type: ignore[no-untyped-def]
        def body(x):  # type: ignore[no-untyped-def]
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.keras.backend.resize_images(x, 2, 2, "channels_last", interpolation=interpolation)
                loss = tf.reduce_sum(tf.square(y))
            return tape.gradient(loss, x)
        return body

    assert not compiles(lambda x: tf.keras.backend.resize_images(x, 2, 2, "channels_last", interpolation="bicubic"))
    assert compiles(lambda x: tf.keras.backend.resize_images(x, 2, 2, "channels_last"))
    assert not compiles(grad("nearest"))
    assert compiles(grad("bilinear"))


def test_keras_layer_constructor_variants() -> None:
    """The swept layers' constructor variants: UpSampling2D's interpolation choices (read from
    the layer's own ValueError) change the kernels and, for bilinear, the gradient; the RNN flags
    (unroll, implementation, return_sequences, go_backwards, reset_after) compile as the defaults do."""
    up = op_table.lookup("tf.keras.layers.UpSampling2D")
    assert up is not None and up.unsupported == ()
    assert up.unsupported_for({"interpolation": "bicubic"}) == ("ResizeBicubic",)
    assert up.grad_unsupported_for({"interpolation": "bilinear"}) == ()
    for rnn in ("tf.keras.layers.LSTM", "tf.keras.layers.GRU"):
        verdict = op_table.lookup(rnn)
        assert verdict is not None and not verdict.unsupported
        assert all(not c.unsupported and c.compiles is not False and not c.grad_unsupported
                   for c in verdict.conditions), rnn


def test_conditions_record_parameter_positions() -> None:
    resize = op_table.lookup("tf.image.resize")
    assert resize is not None
    assert resize.positions() == {2: "method", 4: "antialias"}
    assert [c.value for c in resize.selected({"method": "bicubic", "size": 3})] == ["bicubic"]
    assert resize.grad_unsupported_for({"method": "nearest"}) == ("ResizeNearestNeighborGrad",)


@pytest.mark.tf
def test_generator_kernel_sets_match_the_committed_table(generator) -> None:  # type: ignore[no-untyped-def]
    import tensorflow as tf

    if tf.__version__ != op_table.table_info()["tensorflow_version"]:
        pytest.skip("the committed table is for another TensorFlow version: regenerate it")
    kernels = generator.xla_kernel_ops(tf)
    raw = generator.raw_op_table(tf, kernels)
    assert generator.unsupported_set(raw) == op_table.unsupported_raw_ops() & set(raw)


@pytest.mark.tf
def test_summary_compiles_without_a_writer_and_fails_with_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The table's ``when: default_writer``: the same jit-compiled step compiles with no default
    summary writer and fails on the op the table names once a writer is set."""
    tf = pytest.importorskip("tensorflow")
    verdict = op_table.lookup("tf.summary.scalar")
    assert verdict is not None and verdict.when == "default_writer"

    def step(x):  # type: ignore[no-untyped-def]
        loss = tf.reduce_mean(tf.square(x))
        tf.summary.scalar("loss", loss, step=1)  # noqa: XLA309 - the failure under test
        return loss

    x = tf.constant([1.0, 2.0])
    assert float(tf.function(step, jit_compile=True)(x)) == pytest.approx(2.5)
    with tf.summary.create_file_writer(str(tmp_path)).as_default():
        with pytest.raises(Exception) as failure:  # noqa: PT011 - the compiler's error, whatever its type
            tf.function(step, jit_compile=True)(x)
    assert any(f"'{op}' OpKernel for XLA_CPU_JIT" in str(failure.value) for op in verdict.unsupported)


@pytest.mark.tf
def test_check_numerics_switch_breaks_jit_compile() -> None:
    """The table's ``switches``: a jit-compiled function traced after enable_check_numerics fails
    on an op the table names, and compiles again once the switch is off."""
    tf = pytest.importorskip("tensorflow")
    ops = op_table.switch_unsupported("tf.debugging.enable_check_numerics")
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    tf.debugging.enable_check_numerics()  # noqa: XLA312 - the failure under test
    try:
        with pytest.raises(Exception) as failure:  # noqa: PT011 - the compiler's error, whatever its type
            tf.function(lambda t: tf.nn.softmax(t), jit_compile=True)(x)
    finally:
        tf.debugging.disable_check_numerics()
    assert any(f"'{op}' OpKernel for XLA_CPU_JIT" in str(failure.value) for op in ops), str(failure.value)[:300]
    assert tf.function(lambda t: tf.nn.softmax(t), jit_compile=True)(x).shape == (2, 2)


@pytest.mark.tf
def test_vectorized_map_over_scan_fails_where_map_fn_compiles() -> None:
    """The table's ``under_vectorized_map``: the same per-row tf.scan fails to compile under
    tf.vectorized_map on an op the table names, and compiles under tf.map_fn."""
    tf = pytest.importorskip("tensorflow")
    ops = op_table.vectorized_map_unsupported("tf.scan")
    x = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4])

    def running_sum(row):  # type: ignore[no-untyped-def]
        return tf.scan(lambda c, v: c + v, row, initializer=0.0)

    with pytest.raises(Exception) as failure:  # noqa: PT011 - the compiler's error, whatever its type
        tf.function(lambda t: tf.vectorized_map(running_sum, t), jit_compile=True)(x)
    assert any(f"'{op}' OpKernel for XLA_CPU_JIT" in str(failure.value) for op in ops), str(failure.value)[:300]
    mapped = tf.function(lambda t: tf.map_fn(running_sum, t), jit_compile=True)(x)
    assert float(mapped[2, 3]) == 8.0 + 9.0 + 10.0 + 11.0
