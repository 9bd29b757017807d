"""The value and context model on the forms real code uses (docs/known-results.md section 6):
unknown is not a tensor, Python evidence wins, host-graph code is not compiled code."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from xlacheck.analysis.contexts import Level, analyze_module
from xlacheck.analysis.tables import (
    autograph_converts,
    autograph_skip_modules,
    module_name,
)
from xlacheck.engine import check_source

TF = "import tensorflow as tf\n"


def codes(source: str, path: str = "t.py", *, preview: bool = False) -> list[tuple[int, str]]:
    result = check_source(source, path, preview=preview)
    assert result.error is None, result.error
    return [(d.line, d.code) for d in result.diagnostics]


@pytest.mark.parametrize("source", [
    # K.ndim is a Python int (tensorflow_addons crf.py)
    TF + "class L(tf.keras.layers.Layer):\n    def call(self, x, mask):\n"
         "        if tf.keras.backend.ndim(mask) != 2:\n            raise ValueError('rank')\n        return x\n",
    # membership on a dict and isinstance are Python bools (keras-hub non_max_supression.py)
    TF + "class L(tf.keras.layers.Layer):\n    def call(self, boxes):\n"
         "        if 'labels' not in boxes:\n            raise ValueError('labels')\n        return boxes['boxes']\n",
    # a library's own XLA guard: a Python bool from an internal helper (tensorflow_addons decoder.py)
    TF + "from tensorflow.python.ops import control_flow_util\n"
         "class L(tf.keras.layers.Layer):\n    def call(self, x, n=None):\n"
         "        is_xla = not tf.executing_eagerly() and control_flow_util.GraphOrParentsInXlaContext(\n"
         "            tf.compat.v1.get_default_graph())\n"
         "        if n is None and is_xla:\n            raise ValueError('n is required for XLA')\n        return x\n",
    # items of a Keras call argument are tensors-or-structures: iterating them proves nothing
    TF + "class L(tf.keras.layers.Layer):\n    def call(self, inputs):\n"
         "        levels = [int(k[1]) for k in inputs]\n        return max(levels)\n",
    # a helper's parameter documented as int is a Python value (keras-hub vit_layers.py)
    TF + "def rel_pos(q_size, k_size, table):\n    \"\"\"Args:\n        q_size: int, query size.\n"
         "        k_size: int, key size.\n    \"\"\"\n    n = max(q_size, k_size)\n    return table[:n]\n"
         "class L(tf.keras.layers.Layer):\n    def call(self, x):\n        return rel_pos(self.q, self.k, x)\n",
    # a type in backticks is documented the same way (tf-models yolo preprocessing_ops.py)
    TF + "@tf.function(jit_compile=True)\ndef pad(value, instances):\n    \"\"\"Pads.\n\n    Args:\n"
         "      value: An input tensor.\n      instances: An `int` representing the maximum number.\n    \"\"\"\n"
         "    take = tf.math.reduce_min([instances, tf.shape(value)[0]])\n"
         "    return tf.fill([take], 0.0)\n",
    # Keras 3 ops.shape is a tuple of static ints (keras-hub d_fine_attention.py)
    "import keras\nfrom keras import ops\nclass L(keras.layers.Layer):\n    def call(self, ref):\n"
    "        if ops.shape(ref)[-1] == 4:\n            raise NotImplementedError\n        return ref\n",
    # sparse to_dense/from_dense compile (checked with jit_compile=True)
    TF + "@tf.function(jit_compile=True)\ndef f(x):\n    return tf.sparse.to_dense(tf.sparse.from_dense(x))\n",
    # functools.partial-bound arguments are static under jax.jit (flax wmt train.py)
    "import functools\nimport jax\nimport jax.numpy as jnp\n"
    "def init_cache(x, max_len):\n    return jnp.ones((x.shape[0], max_len))\n"
    "p = jax.jit(functools.partial(init_cache, max_len=16))\n",
    # a pytree field of a jax.jit argument may be static metadata (flax imagenet train.py)
    "import jax\nimport jax.numpy as jnp\n@jax.jit\ndef step(state, x):\n    scale = state.dynamic_scale\n"
    "    if scale:\n        x = x * 2\n    return jnp.sum(x)\n",
    # another module's helper of a noised tensor returns its shape list, not random values
    # (google-research/pix2seq image_discrete_diffusion_model.py: utils.shape_as_list)
    "import tensorflow as tf\nimport utils\n@tf.function(jit_compile=True)\ndef step(x):\n"
    "    x = x + tf.random.normal(tf.shape(x))\n    sh = utils.shape_as_list(x)\n"
    "    return tf.reshape(x, sh[:-1] + [3, sh[-1] // 3])\n",
])
def test_python_values_are_not_tensors(source: str) -> None:
    assert codes(source) == []


def test_item_of_a_mapping_of_mappings_is_a_mapping_and_runs_under_jit() -> None:
    # dm-haiku filtering.traverse: `bundle = structure[module]`, `structure: Mapping[str, Mapping[...]]`
    from xlacheck.rules.python_builtin_on_tensors import PythonBuiltinOnTensors
    (src,) = [e.code for e in PythonBuiltinOnTensors.VALID if "bundle = structure[module]" in e.code]
    assert codes(src, preview=True) == []  # XLA103 runs with --preview
    jax = pytest.importorskip("jax")
    namespace: dict = {}
    exec(compile(src, "haiku_traverse.py", "exec"), namespace)  # noqa: S102 - the rule's own example
    ones = jax.numpy.ones
    assert float(namespace["total"]({"linear": {"w": ones(2), "b": ones(3)}})) == 5.0


@pytest.mark.parametrize("source", [
    # a tf.data map function, a preprocessing layer and a serving export are host-side graphs
    TF + "def aug(x):\n    n = tf.random.uniform([], 1, 5, tf.int32)\n    return tf.zeros([n])\n"
         "def make(ds):\n    return ds.map(aug)\n",
    TF + "class Tok(tf.keras.layers.experimental.preprocessing.PreprocessingLayer):\n"
         "    def call(self, s):\n        return tf.strings.split(s)\n",
    TF + "class M(tf.Module):\n    @tf.function\n    def serve(self, x):\n        return tf.io.parse_example(x, {})\n"
         "m = M()\nsig = m.serve.get_concrete_function(tf.TensorSpec([None], tf.string))\n",
    # random sizes in a plain tf.function outside model code are augmentation (efficientdet gridmask.py)
    TF + "@tf.function\ndef mask(img):\n    d = tf.random.uniform([], 2, 5, tf.int32)\n    return tf.ones([d, d])\n",
])
def test_host_graph_code_is_not_flagged_for_compile_failures(source: str) -> None:
    assert codes(source) == []


@pytest.mark.parametrize(("source", "expected"), [
    # data-dependent size under an explicit XLA entry (the evidence is certain)
    (TF + "@tf.function(jit_compile=True)\ndef f(x, labels):\n    n = tf.reduce_max(labels) + 1\n"
          "    return tf.one_hot(labels, n)\n", [(5, "XLA205")]),
    # a staticmethod helper gets its caller's argument kinds (Longformer _get_global_attn_indices)
    (TF + "class L(tf.keras.layers.Layer):\n    def call(self, inputs):\n        (h, g) = inputs\n"
          "        r = self._idx(g)\n        return h\n    @staticmethod\n    def _idx(g):\n"
          "        n = tf.reduce_max(tf.math.count_nonzero(g, axis=1))\n        return tf.range(n)\n", [(10, "XLA205")]),
    # a ragged tensor made dense fails (RaggedTensorToTensor has no XLA kernel)
    (TF + "@tf.function(jit_compile=True)\ndef f(v, n):\n"
          "    return tf.RaggedTensor.from_row_lengths(v, n).to_tensor()\n", [(4, "XLA204")]),
    # an op the op table lists without a kernel
    (TF + "@tf.function(jit_compile=True)\ndef f(st):\n    return tf.sparse.to_dense(tf.sparse.reorder(st))\n",
     [(4, "XLA204")]),
    # Hugging Face loss mixins: hf_compute_loss runs in the model's call (modeling_tf_utils.py)
    (TF + "class Loss:\n    def hf_compute_loss(self, labels, logits):\n"
          "        if tf.executing_eagerly():\n            tf.print('eager only')\n"
          "        if tf.math.reduce_any(labels == -1):\n            tf.print('deprecated')\n"
          "        return tf.reduce_mean(logits)\n", [(7, "XLA307")]),
])
def test_proven_tensors_in_compiled_code_are_flagged(source: str, expected: list[tuple[int, str]]) -> None:
    assert codes(source) == expected


def test_levels_name_their_evidence() -> None:
    tree = ast.parse(TF + "@tf.function(jit_compile=True)\ndef f(x):\n    return g(x)\n"
                     "def g(x):\n    return x\n@tf.function\ndef h(x):\n    return x\n"
                     "class L(tf.keras.layers.Layer):\n    def call(self, x):\n        return x\n")
    by_name = {f.name: f for f in analyze_module(tree).functions}
    assert by_name["f"].level is Level.CERTAIN and by_name["f"].evidence == "decorated with tf.function(jit_compile=True) at line 2"
    assert by_name["g"].level is Level.CERTAIN and by_name["g"].evidence == "called from f() at line 3"
    assert by_name["h"].level is Level.GRAPH
    assert by_name["call"].level is Level.LIKELY


def test_a_module_level_model_instance_called_from_compiled_code_runs_its_call_compiled() -> None:
    # `model = Scorer()` at module level, called in a jit function: Scorer.call runs in that graph
    tree = ast.parse(TF + "class Scorer(tf.keras.Model):\n    def call(self, text):\n"
                     "        return tf.strings.length(text)\n"
                     "model = Scorer()\n@tf.function(jit_compile=True)\ndef score(text):\n    return model(text)\n"
                     "def local(text):\n    model = tf.keras.Sequential([])\n    return model(text)\n")
    by_name = {f.name: f for f in analyze_module(tree).functions}
    assert by_name["call"].level is Level.CERTAIN and by_name["call"].evidence == "called from score() at line 7"
    assert codes(TF + "class Scorer(tf.keras.Model):\n    def call(self, text):\n"
                 "        return tf.strings.length(text)\n"
                 "model = Scorer()\n@tf.function(jit_compile=True)\ndef score(text):\n    return model(text)\n") \
        == [(4, "XLA308")]


def test_a_module_level_namespace_alias_resolves_like_an_import() -> None:
    # `K = tf.keras.backend` names the namespace; so does a name bound once to a tf callable (Python
    # resolves every use to that object: tf-ways14); a name bound twice is no alias
    facts = analyze_module(ast.parse(TF + "K = tf.keras.backend\nrelu = tf.nn.relu\n"
                                          "L = tf.keras.layers\nL = make_layers()\n"))
    assert facts.aliases.names["K"] == "tf.keras.backend"
    assert facts.aliases.resolve(ast.parse("K.variable", mode="eval").body) == "tf.keras.backend.variable"
    assert facts.aliases.names["relu"] == "tf.nn.relu" and "L" not in facts.aliases.names


def test_a_variable_attribute_built_under_a_condition_keeps_its_kind() -> None:
    # self.bias = add_weight(...) if use_bias else None: `if self.bias:` tests a float variable
    source = (TF + "class C(tf.keras.layers.Layer):\n    def build(self, shape):\n"
              "        self.bias = self.add_weight(name='b', shape=[]) if self.use_bias else None\n"
              "    def call(self, x):\n        if self.bias:\n            x = x + self.bias\n        return x\n")
    assert codes(source) == [(6, "XLA101")]
    assert codes(source.replace("if self.bias:", "if self.bias is not None:")) == []


def test_autograph_do_not_convert_table_is_read_from_tensorflow_output() -> None:
    skip = autograph_skip_modules()
    assert "tensorflow" in skip and "keras" in skip and "numpy" in skip
    assert not autograph_converts("keras.src.layers.core.dense")
    assert autograph_converts("keras_hub.src.models.bert")  # a prefix is a module path, not a string prefix
    assert autograph_converts("my_project.model")


def test_framework_modules_are_not_user_compiled_code(tmp_path: Path) -> None:
    pkg = tmp_path / "keras" / "src"
    pkg.mkdir(parents=True)
    (tmp_path / "keras" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    path = pkg / "layer.py"
    source = TF + "@tf.function(jit_compile=True)\ndef f(x):\n    tf.print(x)\n    return x\n"
    path.write_text(source)
    assert module_name(str(path)) == "keras.src.layer"
    assert codes(source, str(path)) == []
    assert codes(source, str(tmp_path / "user.py")) == [(4, "XLA307")]


# A pytest test function is run eagerly by pytest, not compiled by a caller: its asserts compare
# results on the host (reference_trainer's own evaluate test was flagged XLA102 before this).
_TEST_FN = TF + ("from mypkg import evaluate\n\n\ndef test_loss_is_stable(config):\n"
                 "    result = evaluate(config)\n    again = evaluate(config)\n"
                 "    assert again.loss == tf.reduce_sum(result.loss)\n")


@pytest.mark.parametrize("path", ["tests/test_eval.py", "pkg/eval_test.py"])
def test_pytest_test_functions_are_not_tensor_helpers(path: str) -> None:
    assert codes(_TEST_FN, path) == []


def test_the_same_function_outside_a_test_module_is_still_a_helper() -> None:
    assert [code for _, code in codes(_TEST_FN, "pkg/eval.py")] == ["XLA102"]


# XLA204/XLA205 in a module-level helper that nothing in the file compiles: every such finding on
# real code was tf.data preprocessing (docs/known-results.md), so that level is behind --preview.
_HELPER = TF + "def targets(labels):\n    n = tf.reduce_max(labels) + 1\n    return tf.one_hot(labels, n)\n"


def test_shape_rules_fire_in_uncompiled_helpers_only_with_preview() -> None:
    assert codes(_HELPER) == []
    assert [(d.line, d.code) for d in check_source(_HELPER, "t.py", preview=True).diagnostics] == [(4, "XLA205")]
    compiled = _HELPER.replace("def targets", "@tf.function(jit_compile=True)\ndef targets")
    assert [code for _, code in codes(compiled)] == ["XLA205"]


def test_constant_arguments_follow_the_api_table_conditions() -> None:
    """tf.sequence_mask's `lengths` must be a constant only when `maxlen` is omitted (measured
    by compiling: tests/xlacheck/test_api_table.py); positional and keyword forms bind alike."""
    head = TF + "@tf.function(jit_compile=True)\ndef f(x, labels):\n    n = tf.reduce_max(labels)\n"
    assert codes(head + "    return tf.sequence_mask(n)\n") == [(5, "XLA205")]
    assert codes(head + "    return tf.sequence_mask(n, 8)\n") == []
    assert codes(head + "    return tf.sequence_mask(lengths=n, maxlen=8)\n") == []
    assert codes(head + "    return tf.sequence_mask([1, 2], maxlen=n)\n") == [(5, "XLA205")]
    assert codes(head + "    return tf.reshape(x, shape=[n, -1])\n") == [(5, "XLA205")]
    assert codes(head + "    return tf.keras.ops.one_hot(labels, n)\n") == [(5, "XLA205")]


def test_return_kinds_come_from_the_api_table() -> None:
    """Kinds the generated API table measured: tf.where's result is data-dependent with one
    argument only (XLA201 reads DYNAMIC); K.int_shape is a static shape and K.ndim a Python int,
    so neither is a data-dependent size (XLA205)."""
    head = TF + "@tf.function(jit_compile=True)\ndef f(x, m):\n"
    assert codes(head + "    return tf.gather(x, tf.where(m > 0)[:, 0])[-1]\n") == [(4, "XLA201")]
    assert codes(head + "    return tf.where(m > 0, x, 0.0)[-1]\n") == []
    assert codes(head + "    return tf.boolean_mask(x, m > 0)[-1]\n") == [(4, "XLA201")]
    assert codes(head + "    return tf.zeros(tf.keras.backend.int_shape(x))\n") == []
    assert codes(head + "    return tf.zeros([tf.keras.backend.ndim(x), 2])\n") == []
    assert codes(head + "    return tf.one_hot(m, tf.reduce_max(m))\n") == [(4, "XLA205")]
    # a mask from any op the table measured boolean (not only the hand-listed tf.greater)
    assert codes(head + "    return x[tf.keras.backend.greater(m, 0)][-1]\n") == [(4, "XLA201")]
    assert codes(head + "    return x[tf.math.is_finite(m)][-1]\n") == [(4, "XLA201")]
    assert codes(head + "    return x[tf.math.abs(m)][-1]\n") == []


def test_a_splatted_call_is_not_taken_for_the_probing_call() -> None:
    """Which arguments `tf.where(*parts)` or `tf.where(c, **branches)` passes is unknown: its
    result is not the one-argument form's data-dependent shape (unknown is not a finding)."""
    head = TF + "@tf.function(jit_compile=True)\ndef f(x, m):\n"
    assert codes(head + "    parts = (m > 0, x, 0.0)\n    return tf.where(*parts)[-1]\n") == []
    assert codes(head + "    parts = {'x': x, 'y': 0.0}\n    return tf.where(m > 0, **parts)[-1]\n") == []
    assert codes(head + "    return tf.where(m > 0)[-1]\n") == [(4, "XLA201")]


def test_a_splat_may_pass_the_argument_that_lifts_a_conditional_constant() -> None:
    """tf.sequence_mask's `lengths` must be a constant only without `maxlen`: a call whose
    `*args`/`**kwargs` may pass `maxlen` is no finding; an unconditional one still is."""
    head = TF + "@tf.function(jit_compile=True)\ndef f(x, labels):\n    n = tf.reduce_max(labels)\n"
    assert codes(head + "    opts = {'maxlen': 8}\n    return tf.sequence_mask(n, **opts)\n") == []
    assert codes(head + "    rest = (8,)\n    return tf.sequence_mask(n, *rest)\n") == []
    assert codes(head + "    opts = {'name': 'r'}\n    return tf.reshape(x, [n, -1], **opts)\n") == [(6, "XLA205")]


def test_jax_tree_utilities_return_python_structures_not_arrays() -> None:
    """jax.tree.flatten gives (a list of leaves, a PyTreeDef); unflattening Python ints gives a
    tree of Python ints, and NumPy on those compiles (big_vision's tree_flatten_with_names, a
    false XLA304 when a jitted caller in another file raised it). The leaves stay arrays."""
    head = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n@jax.jit\ndef f(tree):\n"
    body = ("    vals, tree_def = jax.tree.flatten(tree)\n    token_tree = tree_def.unflatten(range(len(vals)))\n"
            "    perm = jax.tree_util.tree_leaves(token_tree)\n    order = np.argsort(perm)\n")
    assert codes(head + body + "    return [vals[i] for i in order]\n", preview=True) == []  # XLA304: --preview
    assert codes(head + "    vals, _ = jax.tree.flatten(tree)\n    return np.asarray(vals[0]) + 1\n",
                 preview=True) == [(7, "XLA304")]


def test_value_flags_have_one_named_definition() -> None:
    from xlacheck.analysis import values

    assert values.describe(values.TENSOR | values.DATA) == "TENSOR|DATA" and values.describe(0) == "0"
    for flag in values.ValueFlag:
        assert getattr(values, flag.name) == flag.value and type(getattr(values, flag.name)) is int


# A module-level function that returns a scalar reduction of two or more inputs is a loss (or a
# metric): Keras and custom train steps call it inside the compiled step ("likely" evidence).
_LOSS = TF + ("def class_balanced_loss(labels, logits):\n"
              "    n = tf.reduce_max(labels) + 1\n"
              "    weights = tf.reduce_sum(tf.one_hot(labels, n), axis=0)\n"
              "    ce = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)\n"
              "    loss = tf.reduce_sum(ce) / tf.reduce_sum(weights)\n"
              "    return loss\n")


def test_a_loss_shaped_helper_is_likely_compiled_with_its_evidence() -> None:
    by_name = {f.name: f for f in analyze_module(ast.parse(_LOSS)).functions}
    loss = by_name["class_balanced_loss"]
    assert loss.level is Level.LIKELY
    assert loss.evidence == ("class_balanced_loss() is a loss: it returns a scalar reduction of its inputs "
                             "(losses run in the compiled step) at line 7")
    assert codes(_LOSS) == [(4, "XLA205")]


@pytest.mark.parametrize("returned", [
    "tf.reduce_sum(ce, axis=-1)",  # per-example values: not a scalar
    "(tf.reduce_sum(ce), ce)",  # a structure
    "ce",
])
def test_functions_that_do_not_return_a_scalar_reduction_stay_helpers(returned: str) -> None:
    source = _LOSS.replace("    return loss\n", f"    return {returned}\n")
    by_name = {f.name: f for f in analyze_module(ast.parse(source)).functions}
    assert by_name["class_balanced_loss"].level is Level.HELPER
    assert codes(source) == []


def test_a_one_argument_reduction_helper_is_not_a_loss() -> None:
    source = TF + "def mean_size(x):\n    n = tf.reduce_max(x) + 1\n    return tf.reduce_mean(tf.one_hot(x, n))\n"
    assert {f.name: f for f in analyze_module(ast.parse(source)).functions}["mean_size"].level is Level.HELPER


@pytest.mark.parametrize("returned, loss", [
    ("0.5 * tf.reduce_mean(ce)", True),
    ("-tf.reduce_sum(ce) / tf.reduce_sum(weights)", True),
    ("ce + tf.reduce_sum(weights)", False),  # a tensor plus a scalar: per-example values
    ("tf.reduce_mean(ce) * alpha", False),  # `alpha` may be a tensor of any shape
])
def test_a_loss_returns_scalars_combined_with_numbers_or_scalars(returned: str, loss: bool) -> None:
    source = _LOSS.replace("    return loss\n", f"    return {returned}\n")
    level = {f.name: f for f in analyze_module(ast.parse(source)).functions}["class_balanced_loss"].level
    assert level is (Level.LIKELY if loss else Level.HELPER)


def _env(source: str, function: str) -> dict[str, int]:
    """The value flags of the names ``function`` binds, after walking it as the engine does."""
    from xlacheck.analysis.flow import walk_function

    facts = analyze_module(ast.parse(source), "t.py")
    info = next(f for f in facts.walk_order if f.name == function)
    return walk_function("t.py", info, facts, {}, None).values.env


def test_an_op_of_proven_python_values_is_a_constant_tensor_and_of_unknown_ones_is_not() -> None:
    """Python evidence (literals, typed/documented parameters, config attributes, attributes set from
    them) makes a tf op's result a constant tensor; an unknown value (an attribute nothing here sets,
    like an optimizer's ``self.iterations``) does not: unknown stays unknown (issue 11, Swin)."""
    from xlacheck.analysis import values as v

    src = TF + (
        "class L(tf.keras.layers.Layer):\n"
        "    def __init__(self, config, dims: tuple[int, int], shift: int = 0):\n"
        "        super().__init__()\n        self.window = config.window_size\n"
        "        self.shift = 0 if min(dims) <= config.window_size else shift\n"
        "    def call(self, x, dims: tuple[int, int], training: bool = False):\n"
        "        lit = tf.reduce_min((7, 7))\n        typed = tf.reduce_min(dims)\n"
        "        step = tf.cast(self.iterations, tf.float32)\n        mixed = typed + self.unknown\n"
        "        shift = 0 if typed <= self.window else self.shift\n"
        "        other = 0 if step <= 1.0 else self.shift\n"
        "        n = tf.reduce_max(x)\n        data = typed + n\n"
        "        return x\n")
    env = _env(src, "call")
    for name in ("lit", "typed", "shift"):
        assert v.is_constant_tensor(env[name]), (name, v.describe(env[name]))
    for name in ("step", "mixed", "other", "data"):
        assert v.is_tensor(env[name]) and not v.is_constant_tensor(env[name]), (name, v.describe(env[name]))
    assert v.is_python(env["dims"]) and v.is_python(env["training"])
    # a name proven Python on one path and unknown on the other is not proven
    body = ("    def call(self, x, flag: bool = False):\n        if flag:\n            k = 2\n"
            "        else:\n            k = {other}\n        c = tf.reduce_min((k, 3))\n        return x\n")
    branches = TF + "class L(tf.keras.layers.Layer):\n" + body
    assert v.is_constant_tensor(_env(branches.format(other="4"), "call")["c"])
    c = _env(branches.format(other="self.unknown"), "call")["c"]
    assert v.is_tensor(c) and not v.is_constant_tensor(c), v.describe(c)


def test_a_condition_on_a_constant_tensor_guarding_a_shape_argument_is_flagged() -> None:
    """transformers' TFSwinLayer: `min_res = tf.reduce_min(input_dimensions)` makes the shift a
    tensor, `if shift_size > 0:` a tf.cond, and XLA compiles the tf.range of the excluded branch
    (checked: a tiny TFSwinModel fails under jit_compile=True, "Requires start <= limit"); with
    Python min() it is a Python `if`, not flagged."""
    head = TF + (
        "class Block(tf.keras.layers.Layer):\n"
        "    def __init__(self, config, shift_size: int = 0):\n"
        "        super().__init__()\n        self.window_size = config.window_size\n"
        "        self.shift_size = shift_size\n"
        "    def mask(self, height: int, shift_size: int):\n"
        "        img = tf.zeros((height,))\n"
        "        if shift_size > 0:\n"
        "            idx = tf.range(-shift_size % height, height)\n"
        "            img = tf.tensor_scatter_nd_update(img, idx[:, None], tf.ones_like(idx, tf.float32))\n"
        "        return img\n"
        "    def call(self, x, dims: tuple[int, int]):\n")
    tail = ("        shift_size = 0 if min_res <= self.window_size else self.shift_size\n"
            "        return x + self.mask(8, shift_size=shift_size)\n")
    assert codes(head + "        min_res = tf.reduce_min(dims)\n" + tail) == [(9, "XLA115")]
    assert codes(head + "        min_res = min(dims)\n" + tail) == []
    # an unknown operand: not a proven constant, no claim
    assert codes(head + "        min_res = tf.reduce_min(self.dims_var)\n" + tail) == []


# ---------------------------------------------------------------------------------------------
# Proven dtypes (xlacheck.analysis.dtypes through ValueEnv.dtype): proofs only, unknown stays None


def _dtypes(body: str) -> list[str | None]:
    """The proven dtype of each expression statement of ``def f(x, n):`` (x a tensor parameter)."""
    from xlacheck.analysis.imports import AliasTable
    from xlacheck.analysis.values import TENSOR, ValueEnv

    tree = ast.parse("import tensorflow as tf\nimport numpy as np\ndef f(x, n):\n" + body)
    aliases = AliasTable()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            aliases.add(node)
    function = tree.body[-1]
    assert isinstance(function, ast.FunctionDef)
    env = ValueEnv(aliases, None, {"x": TENSOR}, function)
    return [env.dtype(s.value) for s in function.body if isinstance(s, ast.Expr)]


@pytest.mark.parametrize(("expr", "dtype"), [
    ("tf.cast(x, tf.int8)", "int8"),
    ("tf.dtypes.cast(x, dtype=tf.dtypes.uint8)", "uint8"),
    ("tf.cast(x, 'int16')", "int16"),
    ("tf.cast(x, np.int8)", "int8"),
    ("tf.saturate_cast(x, tf.uint8)", "uint8"),
    ("tf.zeros([2, 3])", "float32"),
    ("tf.ones([2], dtype=tf.int8)", "int8"),
    ("tf.ones([2], tf.float16)", "float16"),
    ("tf.range(5)", "int32"),
    ("tf.range(0, 5, 0.5)", "float32"),
    ("tf.range(5, dtype=tf.int64)", "int64"),
    ("tf.constant(3)", "int32"),
    ("tf.constant([1, 2.5])", "float32"),
    ("tf.constant([True, False])", "bool"),
    ("tf.constant([1, 2], dtype=tf.uint8)", "uint8"),
    ("tf.fill([2, 2], 0.5)", "float32"),
    ("tf.fill([2, 2], tf.cast(1, tf.int8))", "int8"),
    ("tf.one_hot(x, 4)", "float32"),
    ("tf.one_hot(x, 4, dtype=tf.int8)", "int8"),
    ("tf.random.uniform([2])", "float32"),
    ("tf.random.uniform([2], maxval=9, dtype=tf.int64)", "int64"),
    ("tf.random.categorical(x, 2)", "int64"),
    ("tf.Variable(tf.zeros([2], tf.int8))", "int8"),
    ("tf.Variable(0.0)", "float32"),
    ("tf.argmax(x, axis=-1)", "int64"),
    ("tf.argmax(x, output_type=tf.int32)", "int32"),
    ("tf.shape(x)", "int32"),
    ("tf.shape(x)[0]", "int32"),
    ("tf.size(x, out_type=tf.int64)", "int64"),
    ("x > 0", "bool"),
    ("tf.equal(x, 1)", "bool"),
    ("tf.math.logical_and(x, x)", "bool"),
    ("tf.math.is_nan(x)", "bool"),
    ("~(x > 0)", "bool"),
    ("(x > 0) & (x < 2)", "bool"),
    ("tf.reshape(tf.cast(x, tf.int8), [-1])", "int8"),
    ("tf.cast(x, tf.int8) + 1", "int8"),
    ("tf.cast(x, tf.int8) * tf.cast(x, tf.int8)", "int8"),
    ("tf.zeros_like(x, dtype=tf.int8)", "int8"),
    ("tf.zeros_like(tf.cast(x, tf.uint8))", "uint8"),
    ("tf.boolean_mask(tf.cast(x, tf.int8), x > 0)", "int8"),
    ("tf.sequence_mask(x, dtype=tf.float32)", "float32"),
    # unknown stays unknown: no guess from names, parameters or unknown calls
    ("x", None),
    ("x_int8", None),
    ("tf.cast(x, n)", None),
    ("tf.constant(2 ** 40)", None),
    ("tf.constant(n)", None),
    ("tf.one_hot(x, 4, on_value=n)", None),
    ("tf.fill([2], n)", None),
    ("tf.range(n)", None),
    ("n > 0", None),
    ("tf.cast(x, tf.int8) / 2", None),
    ("tf.cast(x, tf.int8) + 1000", None),
    ("tf.math.cumsum(x)", None),
    ("x.dtype", None),
])
def test_proven_dtypes(expr: str, dtype: str | None) -> None:
    assert _dtypes(f"    {expr}\n") == [dtype]


# The rewrites read calls through the same tables (xlacheck.analysis.dtypes.call_dtype): where the
# two readings were separate copies they disagreed (tf.sequence_mask with dtype= was "bool" for the
# rewrites; tf.constant(3), tf.cast(x, "int8") and tf.tile/tf.pad/tf.roll were unknown to them).
@pytest.mark.parametrize("expr", [
    "tf.cast(x, tf.int8)", "tf.cast(x, 'int16')", "tf.dtypes.cast(x, tf.double)", "tf.zeros([2])",
    "tf.one_hot(x, 4)", "tf.one_hot(x, 4, on_value=n)", "tf.constant(3)", "tf.constant([1, 2.5])",
    "tf.argmax(x)", "tf.math.argmin(x, output_type=tf.int32)", "tf.random.categorical(x, 2)",
    "tf.sequence_mask(x)", "tf.sequence_mask(x, dtype=tf.float32)", "tf.equal(x, 1)", "tf.math.is_nan(x)",
    "tf.reduce_any(x > 0)", "tf.tile(tf.cast(x, tf.uint8), [2])", "tf.boolean_mask(tf.zeros([2]), x > 0)",
    "tf.shape(x)", "tf.range(5)", "tf.cast(x, n)", "tf.constant(n)", "tf.fill([2], 0.5)",
])
def test_the_rewrites_read_calls_dtypes_like_the_value_model(expr: str) -> None:
    from xlacheck.rewrites._source import Source
    from xlacheck.rewrites.dtypes import DTYPES, certain_dtype

    source = f"import tensorflow as tf\ndef f(x, n):\n    {expr}\n"
    tree = ast.parse(source)
    node = tree.body[-1].body[0].value  # type: ignore[attr-defined]
    proven = _dtypes(f"    {expr}\n")[0]
    assert certain_dtype(Source(source, tree), node) == (proven if proven in DTYPES else None)


def test_the_rewrites_leave_complex_dtypes_unknown() -> None:
    from xlacheck.rewrites._source import Source
    from xlacheck.rewrites.dtypes import certain_dtype

    source = "import tensorflow as tf\ndef f(x):\n    tf.cast(x, tf.complex64)\n"
    tree = ast.parse(source)
    assert certain_dtype(Source(source, tree), tree.body[-1].body[0].value) is None  # type: ignore[attr-defined]
    assert _dtypes("    tf.cast(x, tf.complex64)\n") == ["complex64"]


def test_a_name_bound_once_carries_its_dtype_and_a_rebound_name_does_not() -> None:
    assert _dtypes("    a = tf.cast(x, tf.int8)\n    b = tf.reshape(a, [-1])\n    b\n    a > 0\n") == ["int8", "bool"]
    # straight-line rebinding: the assignment that reaches the read (tf-recall8)
    assert _dtypes("    a = tf.cast(x, tf.int8)\n    a = tf.cast(a, tf.int32)\n    a\n") == ["int32"]
    assert _dtypes("    a = tf.cast(x, tf.int8)\n    a\n    a = tf.cast(a, tf.int32)\n    a\n") == ["int8", "int32"]
    assert _dtypes("    x = tf.cast(x, tf.int8)\n    tf.reshape(x, [-1])\n") == ["int8"]
    assert _dtypes("    a, b = x\n    a = tf.cast(a, tf.int8)\n    a\n") == ["int8"]
    assert _dtypes("    a = tf.cast(x, tf.int8)\n    a, b = x\n    a\n") == [None]
    # a rebinding under a branch (or a loop) does not reach every read: unknown
    assert _dtypes("    a = tf.cast(x, tf.int8)\n    if x:\n        a = tf.cast(a, tf.int32)\n    a\n") == [None]
    assert _dtypes("    a = tf.cast(x, tf.int8)\n    a += 1\n    a\n") == [None]
    assert _dtypes("    for a in x:\n        pass\n    a = tf.cast(x, tf.int8)\n    a\n") == [None]
    assert _dtypes("    a = tf.cast(x, tf.int8)\n    def g():\n        nonlocal a\n        a = x\n    a\n") == [None]
    assert _dtypes("    a = tf.cast(x, tf.int8)\n    [(a := v) for v in x]\n    a\n") == [None, None]
    assert _dtypes("    n\n") == [None]  # a parameter


def test_complex_literals_keep_a_complex_dtype() -> None:
    assert _dtypes("    a = tf.cast(x, tf.complex64)\n    a + 1j * a\n    tf.cast(x, tf.float32) * 1j\n") == [
        "complex64", None]


def _signature_dtypes(source: str) -> list[str | None]:
    from xlacheck.analysis.imports import AliasTable
    from xlacheck.analysis.values import ValueEnv

    tree = ast.parse("import tensorflow as tf\n" + source)
    aliases = AliasTable()
    aliases.add(tree.body[0])  # type: ignore[arg-type]
    function = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))
    env = ValueEnv(aliases, None, {}, function)
    return [env.dtype(s.value) for s in function.body if isinstance(s, ast.Expr)]


def test_input_signature_dtypes_type_parameters_that_are_never_rebound() -> None:
    sig = "@tf.function(input_signature=[tf.TensorSpec([None], tf.int8), tf.TensorSpec([None])])\n"
    assert _signature_dtypes(sig + "def f(a, b):\n    a\n    b\n") == ["int8", "float32"]
    assert _signature_dtypes("class M:\n    " + sig + "    def f(self, a, b):\n        a\n") == ["int8"]
    assert _signature_dtypes(sig + "def f(a, b):\n    a = tf.cast(a, tf.int32)\n    a\n") == ["int32"]
    assert _signature_dtypes(sig + "def f(a, b):\n    a\n    a = tf.cast(a, tf.int32)\n") == ["int8"]
    assert _signature_dtypes(sig + "def f(a, b):\n    if b:\n        a = tf.cast(a, tf.int32)\n    a\n") == [None]
    assert _signature_dtypes("@tf.function\ndef f(a):\n    a\n") == [None]
    assert _signature_dtypes("@tf.function(input_signature=[tf.TensorSpec([2], dtype=tf.dtypes.uint8)])\n"
                             "def f(a):\n    tf.reshape(a, [-1])\n") == ["uint8"]


def test_loop_body_parameters_change_per_iteration() -> None:
    """The function a staged loop runs (tf.while_loop body, tf.map_fn/tf.scan/tf.vectorized_map
    fn) gets loop variables or elements: tensors whose values are never compile-time constants,
    whatever their names; tf.cond branches and plain callees keep their own parameter facts."""
    from xlacheck.analysis.values import LOOP, param_flags

    source = TF + (
        "@tf.function(jit_compile=True)\ndef f(x):\n"
        "    def body(i, num_done):\n        return i + 1, num_done\n"
        "    def step(n):\n        return n\n"
        "    tf.while_loop(lambda i, n: i < 3, body, (0, 0))\n"
        "    tf.map_fn(lambda row: row, x)\n    tf.scan(lambda acc, v: acc + v, x)\n"
        "    tf.cond(x[0] > 0, lambda: x, lambda: x)\n    return step(x)\n")
    facts = analyze_module(ast.parse(source), "t.py")
    loops = {}
    for info in facts.functions:
        flags = param_flags(info)
        loops[info.name if info.name != "<lambda>" else ",".join(a.arg for a in info.node.args.args)] = {
            name: bool(k & LOOP) for name, k in flags.items()}
    assert loops["body"] == {"i": True, "num_done": True}
    assert loops["i,n"] == {"i": True, "n": True}
    assert loops["row"] == {"row": True}
    assert loops["acc,v"] == {"acc": True, "v": True}
    assert loops["step"] == {"n": False}


def test_a_helper_that_returns_a_reduction_gives_a_data_tensor() -> None:
    """A same-file function whose every return is one reduction of tensor values (through
    tf.cast or a name bound once) returns a data-derived tensor, so a size computed by it is
    flagged; helpers returning tuples (top_k), several bindings or a shape stay opaque."""
    helpers = (
        "def kept(scores):\n    n = tf.reduce_sum(tf.cast(scores > 0.5, tf.int32))\n    return n\n"
        "def top(scores):\n    return tf.math.top_k(scores, k=2)\n"
        "def rows(x):\n    return tf.shape(x)[0]\n"
        "def maybe(x, flag):\n    n = tf.reduce_max(x)\n    if flag:\n        n = 3\n    return n\n"
    )
    step = "@tf.function(jit_compile=True)\ndef f(s):\n    return tf.zeros([{}(s)])\n"
    assert codes(TF + helpers + step.format("kept")) == [(16, "XLA205")]
    for name in ("top", "rows", "maybe"):
        assert codes(TF + helpers + step.format(name)) == [], name


def test_staged_loop_results_are_never_constants() -> None:
    """What tf.while_loop/tf.map_fn/tf.scan return is computed by the loop: a size taken from it
    is flagged even when every input of the loop is a Python constant (TF 2.21: "Input 0 to node
    `zeros` with op Fill must be a compile-time constant")."""
    source = TF + (
        "@tf.function(jit_compile=True)\ndef f(x):\n"
        "    steps = tf.while_loop(lambda i: i < 4, lambda i: i + 1, [0])[0]\n"
        "    return tf.zeros([steps]) + tf.reduce_sum(x)\n")
    assert codes(source) == [(5, "XLA205")]


_STRUCT_ENTRY = TF + (
    "@tf.function(jit_compile=True)\n"
    "def apply_update(weights, grads, lr):\n"
    "    return [w - lr * g for w, g in zip(weights, grads)]\n"
    "def train(weights, grad_batches, lr):\n"
    "    for grads in grad_batches:\n"
    "        weights = {passed}\n"
    "    return weights\n")


@pytest.mark.parametrize(("passed", "structure"), [
    # the entry's own list result passed back as `weights` in the loop (a warm-up training loop)
    ("apply_update(weights, grads, lr)", True),
    ("apply_update([weights], grads, lr)", True),
    ("apply_update(list(weights), grads, lr)", True),
    # a tensor built from the result: no structure reaches the call
    ("tf.stack(apply_update(weights, grads, lr))", False),
])
def test_an_xla_entry_passed_a_python_structure_here_is_not_taken_for_one_called_with_tensors(
        passed: str, structure: bool) -> None:
    """A call site in the file that passes a Python list to a ``jit_compile=True`` entry proves the
    parameter a structure (PYLIST) and refutes "an XLA entry is called with tensors": its other bare
    parameters are a tensor or a structure (OPAQUE), as for any traced entry. Without such a call
    site every parameter stays a tensor (XLA106's pinned examples)."""
    from xlacheck.analysis import values as v

    env = _env(_STRUCT_ENTRY.format(passed=passed), "apply_update")
    if structure:
        assert env["weights"] & v.PYLIST and not v.is_tensor(env["weights"])
        assert env["grads"] & v.OPAQUE and not v.is_tensor(env["grads"])
    codes = [d.code for d in check_source(_STRUCT_ENTRY.format(passed=passed), "t.py").diagnostics]
    assert ("XLA106" in codes) is not structure
    if not structure:
        assert v.is_tensor(env["weights"]) and v.is_tensor(env["grads"])


_PYTREE_STATE = (
    "import flax\nimport jax\nimport jax.numpy as jnp\n\n\n"
    "@flax.struct.dataclass\nclass SamplerState:\n"
    "    logits: jax.Array\n"
    "    temperature: float = flax.struct.field(pytree_node=False)\n"
    "    top_k: int = flax.struct.field(default=0, pytree_node=False)\n\n\n"
    "@jax.jit\ndef sample(state):\n"
    "    if {test}:\n        return state.logits / 2.0\n"
    "    return jax.lax.top_k(state.logits, k={k})[0]\n")


@pytest.mark.parametrize(("test", "k", "expected"), [
    # static fields (`pytree_node=False`) are the Python values the tree was built with (tunix sampler)
    ("state.temperature > 0.0", "state.top_k", []),
    # the traced field is a tracer: `if` on it fails, and its value is no static size
    ("jnp.max(state.logits) > 0.0", "state.top_k", [(15, "XLA101")]),
])
def test_static_pytree_fields_are_python_values_under_jit(test: str, k: str, expected: list[tuple[int, str]]) -> None:
    assert codes(_PYTREE_STATE.format(test=test, k=k)) == expected


def test_static_field_names_leave_out_names_another_pytree_traces() -> None:
    from xlacheck.analysis.pytrees import static_field_names

    tree = ast.parse("import flax\n@flax.struct.dataclass\nclass A:\n"
                     "    t: float = flax.struct.field(pytree_node=False)\n"
                     "    mode: str = flax.struct.field(pytree_node=False)\n"
                     "@flax.struct.dataclass\nclass B:\n    t: jax.Array\n"
                     "class C(eqx.Module):\n    n: int = eqx.field(static=True)\n")
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert static_field_names(classes) == frozenset({"mode", "n"})


_METRIC = TF + (
    "import numpy as np\n\n\n"
    "class CocoAP(tf.keras.metrics.Metric):\n"
    "    def __init__(self, **kw):\n        super().__init__(**kw)\n{init}\n\n"
    "    def update_state(self, y_true, y_pred):\n{update}\n\n"
    "    def result(self):\n        return tf.constant(0.0)\n")
_PYTHON_STATE_INIT = "        self.detections = []\n        self.image_id = 0"
_NUMPY_UPDATE = "        self.detections.extend(y_pred.numpy().tolist())\n        self.image_id += 1"


@pytest.mark.parametrize(("init", "update", "expected"), [
    # state in Python, read into NumPy: an evaluator's host loop calls it (deeplab2's COCO AP)
    (_PYTHON_STATE_INIT, _NUMPY_UPDATE, []),
    # state in Python lists it grows per batch (deeplab2's depth metrics)
    ("        self.errors = []", "        self.errors.append(tf.reduce_mean(y_true - y_pred))", []),
    # state variables: Keras accumulates it in the compiled step, where `.numpy()` fails
    # (tensorflow issue 38038)
    ("        self.total = self.add_weight(name='total', initializer='zeros')",
     "        self.total.assign_add(float(np.median(y_pred.numpy())))", [(11, "XLA301")]),
])
def test_a_metric_keeping_its_state_in_python_is_compiled_only_where_compiled_code_updates_it(
        init: str, update: str, expected: list[tuple[int, str]]) -> None:
    assert codes(_METRIC.format(init=init, update=update)) == expected


def test_an_eager_written_metric_updated_in_a_train_step_is_compiled_code() -> None:
    source = _METRIC.format(init=_PYTHON_STATE_INIT, update=_NUMPY_UPDATE) + (
        "\n\nclass Model(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
        "        self.ap = CocoAP()\n\n"
        "    def test_step(self, data):\n        x, y = data\n        self.ap.update_state(y, self(x))\n"
        "        return {}\n")
    assert codes(source) == [(12, "XLA301"), (13, "XLA406")]


def test_a_metric_wrapping_an_eager_written_metric_is_eager_written() -> None:
    source = _METRIC.format(init=_PYTHON_STATE_INIT, update=_NUMPY_UPDATE) + (
        "\n\nclass PanopticAP(tf.keras.metrics.Metric):\n    def __init__(self, **kw):\n"
        "        super().__init__(**kw)\n        self.inner = CocoAP()\n\n"
        "    def update_state(self, y_true, y_pred):\n        boxes = tf.boolean_mask(y_pred, y_pred > 0)\n"
        "        for b in boxes.numpy():\n            pass\n        self.inner.update_state(y_true, boxes)\n")
    assert codes(source) == []


_JAX_STEP = "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef step(x, w):\n{body}"


@pytest.mark.parametrize(("body", "expected"), [
    # jnp.sum refuses a list or tuple (check_arraylike): x is one traced array, its truth fails
    # (TracerBoolConversionError, jax 0.10.2)
    ("    total = jnp.sum(x)\n    if x:\n        return total * w\n    return total\n", [(8, "XLA101")]),
    # an array attribute proves it as well
    ("    n = x.ndim\n    if x:\n        return w * n\n    return w\n", [(8, "XLA101")]),
    # a pytree of arrays read by key: nothing says one array, its truth is the dict's
    ("    if x:\n        return x['a'] * w\n    return w\n", []),
    # rebound: the use may see the other value
    ("    if x:\n        x = jnp.sum(x)\n    return jnp.sum(x) * w\n", []),
    # jnp.stack takes a sequence of arrays
    ("    total = jnp.stack(x)\n    if x:\n        return total * w\n    return total\n", []),
])
def test_a_tensor_or_structure_used_as_one_array_is_a_tensor(body: str, expected: list[tuple[int, str]]) -> None:
    assert codes(_JAX_STEP.format(body=body)) == expected


def test_array_evidence_names_only_names_bound_once() -> None:
    from xlacheck.analysis.values import array_evidence

    fn = ast.parse("def f(x, y, z):\n    a = g(y)\n    b = x.shape\n    z = z + 1\n    c = a[:, 0] - z\n"
                   "    return -y\n").body[0]
    assert array_evidence(fn) == frozenset({"x", "a", "y"})


def _defined(source: str, filename: str) -> dict:
    """The names ``source`` defines, run as a module (to call what the linter judged)."""
    namespace: dict = {}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - the source under test
    return namespace


# Python values read off a traced tensor (xlacheck/data/tensor_members.json, measured): a ragged
# tensor's ragged rank and a variable's hashable reference.
_RAGGED_GUARD = TF + (
    "@tf.function(jit_compile=True)\n"
    "def row_means(rt):\n"
    "    if rt.ragged_rank == 1:\n"
    "        return tf.reduce_mean(rt, axis=1)\n"
    "    raise ValueError('one ragged dimension expected')\n")
_FROZEN_VARIABLES = TF + (
    "FROZEN = set()\n"
    "@tf.function(jit_compile=True)\n"
    "def masked_grad(g, v):\n"
    "    if v.ref() in FROZEN:\n"
    "        return g * 0.0\n"
    "    return g\n")


def test_measured_tensor_members_that_are_python_values() -> None:
    from xlacheck import api_table

    attrs, methods = api_table.tensor_python_members()
    assert {"ragged_rank", "trainable", "ndim", "dtype", "shape"} <= attrs and {"ref", "get_shape"} <= methods
    # a tensor on some kind of value, or None on the probe: never a Python value by name
    assert not {"values", "flat_values", "uniform_row_length", "op", "T", "at", "initial_value"} & (attrs | methods)


@pytest.mark.parametrize("source", [_RAGGED_GUARD, _FROZEN_VARIABLES])
def test_python_members_of_tensors_are_not_tensors_and_compile(source: str) -> None:
    assert codes(source) == []
    tf = pytest.importorskip("tensorflow")
    namespace = _defined(source, "members.py")
    if "row_means" in namespace:
        rt = tf.ragged.constant([[1.0, 3.0], [2.0]])
        assert namespace["row_means"](rt).numpy().tolist() == [2.0, 2.0]
    else:
        frozen = tf.Variable(2.0)
        namespace["FROZEN"].add(frozen.ref())  # a Python set lookup at trace time, then one compile
        assert float(namespace["masked_grad"](tf.constant(7.0), frozen)) == 0.0


# A field marked static through dataclass metadata, in Flax's own spelling (`flax.struct.field`
# writes `metadata={"pytree_node": False}`), read as a dict key inside a lax.scan body.
_SLOT_SCAN = (
    "import dataclasses\nimport functools\nimport jax\n\nSCALE = {'a': 2.0, 'b': 3.0}\n\n\n"
    "@functools.partial(jax.tree_util.register_dataclass, data_fields=['value'], meta_fields=['label'])\n"
    "@dataclasses.dataclass\nclass Slot:\n    value: jax.Array\n"
    "    label: str = dataclasses.field(metadata={'pytree_node': False})\n\n\n"
    "@jax.jit\ndef run(slots, xs):\n    def body(carry, x):\n"
    "        return [Slot(s.value + x * SCALE[s.label], s.label) for s in carry], x\n\n"
    "    return jax.lax.scan(body, slots, xs)[0]\n")


def test_a_field_marked_static_in_its_metadata_is_a_python_value_under_jit() -> None:
    from xlacheck.analysis.pytrees import static_field_names

    classes = [n for n in ast.parse(_SLOT_SCAN).body if isinstance(n, ast.ClassDef)]
    assert static_field_names(classes) == frozenset({"label"})
    assert codes(_SLOT_SCAN) == []
    # a scan carry's item is a tensor-or-structure: its field hashed as a dict key is not proven a
    # tracer, marker or not (Python hashes structures and their metadata, as it tests their truth)
    assert codes(_SLOT_SCAN.replace("{'pytree_node': False}", "{}")) == []
    assert codes(_SLOT_SCAN.replace("SCALE[s.label]", "SCALE[jnp.argmax(x)]").replace(
        "import jax\n", "import jax\nimport jax.numpy as jnp\n", 1)) == [(19, "XLA118")]
    jax = pytest.importorskip("jax")
    namespace = _defined(_SLOT_SCAN, "slots.py")
    slot = namespace["Slot"]
    out = namespace["run"]([slot(jax.numpy.zeros(()), "a"), slot(jax.numpy.zeros(()), "b")], jax.numpy.ones(2))
    assert [float(s.value) for s in out] == [4.0, 6.0]


# A key path entry the framework builds is no array: comparing a tensor-or-structure with it is a
# Python comparison (here the path half of each (path, leaf) pair a same-file helper returns).
_KEY_PATHS = (
    "import jax\nimport jax.numpy as jnp\n\n\n"
    "def weighted(tree, weights):\n"
    "    return [(path, leaf * weights) for path, leaf in jax.tree_util.tree_flatten_with_path(tree)[0]]\n\n\n"
    "@jax.jit\ndef kernel_norm(tree, weights):\n    total = jnp.zeros(())\n"
    "    for path, leaf in weighted(tree, weights):\n"
    "        if path[-1] == jax.tree_util.DictKey({key}):\n"
    "            total = total + jnp.sum(leaf ** 2)\n"
    "    return total\n")


def test_a_comparison_with_a_framework_object_is_a_python_comparison_under_jit() -> None:
    source = _KEY_PATHS.format(key="'kernel'")
    assert codes(source) == []
    # compared with an array instead, the same structure item is taken for one
    assert codes(_KEY_PATHS.replace("jax.tree_util.DictKey({key})", "jnp.ones(())")) == [(13, "XLA101")]
    jax = pytest.importorskip("jax")
    namespace = _defined(source, "key_paths.py")
    tree = {"dense": {"kernel": jax.numpy.ones(2), "bias": jax.numpy.ones(3)}}
    assert float(namespace["kernel_norm"](tree, 2.0)) == 8.0


# A parameter annotated as a Keras model holds the model object: calling it gives tensors, its
# attributes (`model.layers`, a Python list of layers) are not tensors.
_MODEL_PARAM = TF + (
    "@tf.function(jit_compile=True)\n"
    "def penalized(model: tf.keras.Model, x):\n"
    "    y = model(x)\n"
    "    kernels = [layer.kernel for layer in model.layers if hasattr(layer, 'kernel')]\n"
    "    return tf.reduce_sum(y) + tf.add_n([tf.reduce_sum(k ** 2) for k in kernels])\n")


def test_a_parameter_annotated_as_a_model_is_a_layer_object_and_compiles() -> None:
    from xlacheck.analysis import values as v

    assert codes(_MODEL_PARAM) == []
    env = _env(_MODEL_PARAM, "penalized")
    assert env["model"] == v.LAYER and env["y"] & v.TENSOR  # a tensor or a structure of them (OPAQUE)
    tf = pytest.importorskip("tensorflow")
    namespace = _defined(_MODEL_PARAM, "model_param.py")
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer="ones", use_bias=False)])
    model.build((None, 3))
    assert float(namespace["penalized"](model, tf.ones([1, 3]))) == 12.0


# What a same-file helper of unknown kind returns may be a count from static shapes (NumPy on
# `.shape`): range() of it is a Python loop, which jax.jit unrolls.
_TILES = (
    "import functools\n\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n\n\n"
    "def tiles_per_row(x):\n    return int(np.ceil(x.shape[-1] / x.shape[-2]))\n\n\n"
    "@functools.partial(jax.jit, static_argnames='tiles')\ndef tile_sums(x, tiles=None):\n"
    "    if tiles is None:\n        tiles = tiles_per_row(x)\n    width = x.shape[-2]\n"
    "    return jnp.stack([x[..., t * width:(t + 1) * width].sum() for t in range({bound})])\n")


def test_range_of_an_unknown_function_result_is_a_python_loop_under_jit() -> None:
    source = _TILES.format(bound="tiles")
    assert codes(source) == []
    # a traced value computed by an op is still flagged
    assert codes(_TILES.format(bound="jnp.sum(x).astype(int)")) == [(17, "XLA302")]
    jax = pytest.importorskip("jax")
    namespace = _defined(source, "tiles.py")
    assert namespace["tile_sums"](jax.numpy.ones((2, 6))).tolist() == [4.0, 4.0, 4.0]


# A parameter annotated with an Enum class of the file holds a member, a Python value (an int
# mixin included): an if/return chain on it selects a branch at trace time.
_POOL_MODE = (
    "import enum\n\nimport tensorflow as tf\n\n\n"
    "class Pool(int, enum.Enum):\n    MEAN = 0\n    MAX = 1\n\n\n"
    "@tf.function(jit_compile=True)\ndef pooled(x, pool: Pool):\n"
    "    if pool == Pool.MEAN:\n        return tf.reduce_mean(x, axis=1)\n"
    "    if pool == Pool.MAX:\n        return tf.reduce_max(x, axis=1)\n"
    "    raise ValueError(f'unknown pooling {pool}')\n")


def test_a_parameter_annotated_with_an_enum_of_the_file_is_a_python_value_and_compiles() -> None:
    assert codes(_POOL_MODE) == []
    assert codes(_POOL_MODE.replace("pool: Pool", "pool")) == [(15, "XLA108")]  # unannotated: a traced argument
    tf = pytest.importorskip("tensorflow")
    namespace = _defined(_POOL_MODE, "pool_mode.py")
    x, pool = tf.constant([[1.0, 3.0]]), namespace["Pool"]
    assert [float(namespace["pooled"](x, p)[0]) for p in (pool.MEAN, pool.MAX)] == [2.0, 3.0]


# tfrecall29: dtypes through a `with` body, a class attribute assigned once, a binary op with a
# tensor of unknown dtype and one proven part of tf.complex (the complex eigh gradient, reports21-tf)
def test_a_name_rebound_in_a_with_body_carries_its_last_dtype() -> None:
    assert _dtypes("    with tf.GradientTape() as tape:\n        a = tf.cast(x, tf.int8)\n"
                   "        a = tf.reshape(a, [-1])\n    a\n") == ["int8"]
    assert _dtypes("    a = tf.cast(x, tf.int8)\n    with tf.GradientTape() as a:\n        pass\n    a\n") == [None]
    assert _dtypes("    with tf.GradientTape():\n        a = tf.cast(x, tf.int8)\n        if x:\n"
                   "            a = tf.cast(a, tf.int32)\n    a\n") == [None]


def test_a_binary_op_with_another_tensor_and_a_complex_of_one_proven_part() -> None:
    assert _dtypes("    tf.cast(x, tf.float32) + tf.linalg.diag(x)\n    tf.cast(x, tf.int8) * x\n"
                   "    tf.cast(x, tf.int8) * n\n    tf.complex(tf.cast(x, tf.float32), x)\n"
                   "    tf.complex(tf.cast(x, tf.float32), tf.cast(x, tf.float64))\n") == [
        "float32", "int8", None, "complex64", None]


def test_a_self_attribute_assigned_once_from_module_names_carries_its_dtype() -> None:
    from xlacheck.analysis.dtypes import DtypeModel
    from xlacheck.analysis.imports import AliasTable

    def proven(init: str, more: str = "") -> str | None:
        tree = ast.parse("import tensorflow as tf\nclass M(tf.Module):\n    def __init__(self, v):\n"
                         f"        self.w = {init}\n{more}    def f(self, x):\n        return self.w\n")
        aliases = AliasTable()
        aliases.add(tree.body[0])  # type: ignore[arg-type]
        cls = tree.body[1]
        assert isinstance(cls, ast.ClassDef)
        method = cls.body[-1]
        assert isinstance(method, ast.FunctionDef) and isinstance(method.body[0], ast.Return)
        return DtypeModel(method, aliases.resolve, lambda e: False, cls).dtype(method.body[0].value)

    assert proven("tf.Variable([[0.0, 1.0]])") == "float32"
    assert proven("tf.constant(2, tf.int8)") == "int8"
    assert proven("tf.Variable(v)") is None  # a name of __init__'s own
    assert proven("tf.Variable([0.0])", "    def g(self):\n        self.w = tf.constant([1])\n") is None


# tfrecall30: dtypes from the measured tables (tools/generate_tf_dtype_table.py), `/` of a real float,
# what every compiled caller passes a helper's parameter, and a closure's free variable
def test_measured_unary_and_binary_functions_keep_a_real_float_dtype() -> None:
    assert _dtypes("    v = tf.cast(x, tf.float16)\n    tf.abs(v)\n    tf.nn.relu(v)\n    tf.matmul(x, v)\n"
                   "    tf.maximum(v, x)\n    v / 2.0\n    2 / v\n") == ["float16"] * 6
    # not a real float: the measured fact is about float inputs; casts and two proven dtypes stay unknown
    assert _dtypes("    i = tf.cast(x, tf.int32)\n    tf.abs(i)\n    i / 2\n"
                   "    tf.matmul(tf.cast(x, tf.float32), tf.cast(x, tf.float64))\n") == [None, None, None]


def test_a_helper_parameter_has_the_dtype_every_compiled_caller_passes() -> None:
    helper = "def hinge(m):\n    return tf.maximum(0, 1 - m)\n"
    both = TF + helper + ("@tf.function(jit_compile=True)\ndef f(x):\n"
                          "    return hinge(tf.cast(x, tf.float32)) + hinge(tf.nn.relu(tf.cast(x, tf.float32)))\n")
    assert codes(both) == [(3, "XLA331")]
    # two callers disagree (an int32 tensor works): unproven
    mixed = TF + helper + ("@tf.function(jit_compile=True)\ndef f(x):\n"
                           "    return hinge(tf.cast(x, tf.float32)), hinge(tf.cast(x, tf.int32))\n")
    assert codes(mixed) == []
    # the helper rebinds its parameter: its own binding decides
    rebound = TF + "def hinge(m):\n    m = tf.cast(m, tf.int32)\n    return tf.maximum(0, m)\n" + (
        "@tf.function(jit_compile=True)\ndef f(x):\n    return hinge(tf.cast(x, tf.float32))\n")
    assert codes(rebound) == []


def test_a_free_variable_has_its_dtype_in_the_enclosing_function() -> None:
    closure = TF + ("@tf.function(jit_compile=True)\ndef f(x):\n    v = tf.cast(x, tf.float32)\n"
                    "    def g():\n        return tf.minimum(1, v)\n    return g()\n")
    assert codes(closure) == [(6, "XLA331")]
    # the nested function binds the name itself
    own = TF + ("@tf.function(jit_compile=True)\ndef f(x):\n    v = tf.cast(x, tf.float32)\n"
                "    def g():\n        v = tf.cast(x, tf.int32)\n        return tf.minimum(1, v)\n    return g()\n")
    assert codes(own) == []


# tfrecall31: a layer's output that a use proves one tensor (`h.dtype`) stays data: its reduction is a
# data-dependent size (tools/probe_tf_contexts.py: every const_args probe in a train_step read `h.dtype`)
def test_a_layer_output_proven_a_tensor_keeps_its_data_provenance() -> None:
    step = TF + ("class M(tf.keras.Model):\n    def train_step(self, data):\n        x, y = data\n"
                 "        h = self(x, training=True)\n        n = tf.cast(tf.reduce_max(h), tf.int32) + 1\n"
                 "        r = tf.one_hot(tf.cast(h, tf.int32), n)\n{}\n")
    assert codes(step.format("        return tf.reduce_sum(r)")) == [(7, "XLA205")]
    assert codes(step.format("        return tf.reduce_sum(tf.cast(r, h.dtype))")) == [(7, "XLA205")]
    # a size from the output's static shape is no data
    static = TF + ("class M(tf.keras.Model):\n    def train_step(self, data):\n        h = self(data)\n"
                   "        return tf.one_hot(tf.cast(h, tf.int32), h.shape[-1])\n")
    assert codes(static) == []


# tfprec32: a helper here that returns shape arithmetic (transformers' Longformer/LED `_pad_to_window_size`)
# gives a shape value, not a tensor of the data: slicing by it compiles under jit_compile (measured, TF 2.21,
# static and `[None, None]` input signatures)
def test_a_helper_returning_shape_arithmetic_gives_a_shape_value() -> None:
    src = TF + ("from transformers.tf_utils import shape_list\n"
                "class Encoder(tf.keras.layers.Layer):\n"
                "    def call(self, hidden_states, padding_len=0):\n"
                "        return hidden_states[:, :-padding_len] if padding_len > 0 else hidden_states\n"
                "class Main(tf.keras.layers.Layer):\n"
                "    def __init__(self, **kwargs):\n"
                "        super().__init__(**kwargs)\n"
                "        self.encoder = Encoder()\n"
                "        self.window = 4\n"
                "    def call(self, input_ids):\n"
                "        padding_len, input_ids = self._pad(input_ids)\n"
                "        h = self.encoder(tf.cast(input_ids, tf.float32), padding_len=padding_len)\n"
                "        return h{}\n"
                "    def _pad(self, input_ids):\n"
                "        batch_size, seq_len = shape_list(input_ids)[:2]\n"
                "        padding_len = (self.window - seq_len % self.window) % self.window\n"
                "        return padding_len, tf.pad(input_ids, [[0, 0], [0, padding_len]])\n"
                "    def _count(self, input_ids):\n"
                "        return tf.reduce_max(input_ids), input_ids\n")
    assert codes(src.format("")) == []
    assert codes(src.format("[:, :self._pad(input_ids)[0]]")) == []
    # an item computed from the data stays one: the same slice by a helper's reduction is flagged
    data = src.replace("= self._pad(input_ids)\n", "= self._count(input_ids)\n")
    assert codes(data.format("")) == [(5, "XLA205")]


# review of tfprec32: a helper's return is as static as the control flow that chooses it, and a name defined
# twice is not read as either definition
def test_a_helper_return_chosen_by_the_data_or_defined_twice_is_no_shape_value() -> None:
    head = TF + "@tf.function(jit_compile=True)\ndef call(ids, mask):\n    n, ids = pad_len(ids, mask)\n" \
                "    return ids[:, :-n]\n"
    shape = "def pad_len(ids, mask):\n    return ids.shape[1] % 8, ids\n"
    chosen = "def pad_len(ids, mask):\n    return (4 if tf.reduce_any(mask) else 0), ids\n"
    counted = ("def pad_len(ids, mask):\n    k = 0\n    for _ in tf.range(tf.reduce_sum(mask)):\n        k += 1\n"
               "    return k, ids\n")
    guarded = "def pad_len(ids, mask):\n    if mask is None:\n        return 0, ids\n    return ids.shape[1] % 8, ids\n"
    twice = shape + "def pad_len(ids, mask):\n    return tf.reduce_sum(mask) % 8, ids\n"
    assert codes(head + shape) == []
    assert codes(head + guarded) == []
    for src in (chosen, counted, twice):
        assert (len(TF.splitlines()) + 4, "XLA205") in codes(head + src), src
