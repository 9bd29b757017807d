"""XLA401: tokenizer or collator padding to the longest example without ``pad_to_multiple_of``."""

from __future__ import annotations

import ast

from xlacheck.analysis.datasets import dataset_facts
from xlacheck.analysis.module_index import (
    ModuleIndex,
    callee_text,
    has_kwargs_splat,
    is_tokenizer,
    is_true,
    keyword,
    method_name,
)
from xlacheck.analysis.per_step import per_batch
from xlacheck.analysis.torch_model import tokens_read_on_host_only
from xlacheck.diagnostics import Applicability, Edit, Fix, Location, Severity
from xlacheck.rules._dataset_flow import compiled_consumer, keras_compiled
from xlacheck.rules._recompile_scope import (
    JAX_SHAPE_KEEPING,
    TF_SHAPE_KEEPING,
    in_test,
    jax_jitted_calls_in_host_code,
    padding_kind,
    padding_to_longest,
    pads_to_longest,
)
from xlacheck.rules.base import INLINE, Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Hugging Face collators that pad each batch to its longest example unless told otherwise.
_PADDING_COLLATORS = frozenset({
    "DataCollatorWithPadding", "DataCollatorForTokenClassification", "DataCollatorForSeq2Seq",
})
_MLM_COLLATORS = frozenset({"DataCollatorForLanguageModeling", "DataCollatorForWholeWordMask"})


def _set(node: ast.expr | None) -> bool:
    """A keyword given a real value (``None`` means "not set")."""
    return node is not None and not (isinstance(node, ast.Constant) and node.value is None)


def _argument(call: ast.Call, position: int, name: str) -> ast.expr | None:
    kw = keyword(call, name)
    if kw is not None:
        return kw.value
    return call.args[position] if len(call.args) > position else None


def _unknown_dims(shapes: ast.expr | None) -> bool:
    """``padded_shapes`` absent, or a literal structure with a ``None`` (pad to the longest) in it."""
    if shapes is None or (isinstance(shapes, ast.Constant) and shapes.value is None):
        return True
    if isinstance(shapes, (ast.List, ast.Tuple, ast.Dict, ast.Call)):
        return any(isinstance(n, ast.Constant) and n.value is None for n in ast.walk(shapes))
    return False  # a variable: its value is not visible here


def _explicit_longest(shapes: ast.expr | None) -> bool:
    """``padded_shapes`` written out with a ``None`` dimension: the author asks for "pad to the
    longest", so the elements vary in length. Left out, it is also what code writes for elements
    that already have static shapes (padded_batch then batches them as they are), which this
    file does not show."""
    return shapes is not None and _unknown_dims(shapes)


def _tf_padding(call: ast.Call, name: str | None, preview: bool, index: ModuleIndex) -> str | None:
    """What a tf.data / Keras padding call pads to, when that is "the longest in the batch".
    ``padded_batch``/``bucket_by_sequence_length`` without ``padded_shapes`` only with ``preview``:
    on real code their elements were as often already padded to fixed lengths (t5x's feature
    converters) or on paths XLA never compiles (docs/known-results.md); by default only a
    ``padded_batch`` whose batches this file feeds to compiled code (a jit-compiled ``tf.function``,
    Keras ``fit`` of a jit-compiled/TPU model: :mod:`xlacheck.rules._dataset_flow`). Never one whose
    elements visibly share one shape (``Dataset.range``, ``from_tensor_slices`` of an array, no
    ``map``): it pads nothing."""
    method = method_name(call)
    if method == "padded_batch" and call.args and _unknown_dims(shapes := _argument(call, 1, "padded_shapes")) \
            and not dataset_facts(index).static_elements(call.func.value):  # type: ignore[attr-defined]
        if _explicit_longest(shapes):
            return "padded_batch without fixed padded_shapes pads each batch to its longest element"
        found = compiled_consumer(index, call, keras_compiled(index))
        if found is not None:
            return f"padded_batch without padded_shapes pads each batch to its longest element and feeds {found[0]}"
        if preview:
            return "padded_batch without fixed padded_shapes pads each batch to its longest element"
    if pads_to_longest(index, call):
        return "pad_sequences without maxlen pads to the longest sequence of each call"
    if (method == "bucket_by_sequence_length" or (name or "").endswith(".bucket_by_sequence_length")) and not (
            is_true(_argument(call, 5, "pad_to_bucket_boundary"))
            or not _unknown_dims(_argument(call, 3, "padded_shapes"))) \
            and (preview or _explicit_longest(_argument(call, 3, "padded_shapes"))):
        return ("bucket_by_sequence_length without pad_to_bucket_boundary=True pads each batch to its longest "
                "element, not to the bucket boundary")
    return None


def _feeds_tf_function_in_loop(index: ModuleIndex, call: ast.Call, jitted: frozenset[int] = frozenset()) -> bool:
    """``call`` pads to the longest (``pad_sequences`` without ``maxlen``) inside a loop whose body
    passes the result to a ``tf.function`` of this file, or to a ``jax.jit`` function (``jitted``: the
    ids of its calls in host code), per :func:`padding_to_longest`: one fact, which the rules of that
    function's argument report (XLA412, XLA408 for one with a ``None`` signature, XLA416 for jax.jit),
    not this one too."""
    loops = index.loops_around(call)
    if not loops or not pads_to_longest(index, call):
        return False
    for site, _ in index.calls:
        jax_site = id(site) in jitted
        if index.tf_function_called(site) is None and not jax_site \
                or not any(a is loops[0] for a in index.ancestors(site)):
            continue
        around = index.loops_around(site)
        keeping = JAX_SHAPE_KEEPING if jax_site else TF_SHAPE_KEEPING
        if any(padding_to_longest(index, arg, around, keeping) is call
               for arg in [*site.args, *(k.value for k in site.keywords)]):
            return True
    return False


def _insert_after_last_argument(call: ast.Call, text: str) -> Edit | None:
    nodes: list[ast.expr] = list(call.args) + [kw.value for kw in call.keywords]
    if not nodes:
        return None
    last = max(nodes, key=lambda n: (n.end_lineno or 0, n.end_col_offset or 0))
    at = Location(last.end_lineno or last.lineno, last.end_col_offset or 0)
    return Edit(at, at, text)


class DynamicPaddingWithoutMultiple(ModuleRule):
    """
    ## What it does
    Flags padding that follows each batch's longest example with no `pad_to_multiple_of`, where
    it runs once per batch: Hugging Face collators (`DataCollatorWithPadding`,
    `DataCollatorForTokenClassification`, `DataCollatorForSeq2Seq`,
    `DataCollatorForLanguageModeling`, `DataCollatorForWholeWordMask`) built without
    `pad_to_multiple_of`; `tokenizer.pad(...)` with its default padding; tokenizer calls
    (`tokenizer(...)`, `batch_encode_plus`, on an object whose name contains "tokenizer") with
    `padding=True`/`"longest"` and Keras `pad_sequences` without `maxlen` when they run per batch
    (in a loop or comprehension, a generator, a collator-like function, or a function this file
    calls in a loop or hands to `map`/`DataLoader`); and `padded_batch`/`bucket_by_sequence_length`
    whose `padded_shapes` ask for the longest element (a `None` dimension). Left out,
    `padded_shapes` is also what code writes for elements that already have static shapes (on
    real code, features padded to fixed lengths upstream, or paths XLA never compiles): those
    calls are flagged only where this file feeds their batches to compiled code (a loop calling
    a jit-compiled `tf.function`, Keras `fit` of a jit-compiled or TPU model, followed as XLA402
    follows a dataset), else with `--preview`; never when the elements visibly share one shape
    (`Dataset.range`, `from_tensor_slices` of an array, no `map`). A `pad_sequences` batch that the loop
    passes to a `tf.function` of this file is reported there, once, by XLA412 (XLA408 for one with a
    `None` input signature), or to a `jax.jit` function of this file, by XLA416, not here. Padding a
    whole corpus in one call gives one length and is not flagged; neither is code returning PyTorch tensors in a file that never uses torch_xla,
    nor PyTorch ids that only stay on the host (bound to a name whose every read takes its shape,
    compares it with `torch.equal` or decodes it: diffusers' truncation warning), nor test functions.
    Tokenizers are recognised by name (syntactic).

    ## Why is this bad?
    Every distinct sequence length is a new input shape; XLA compiles the step once per shape.
    Padding to the longest example of each batch yields up to `max_length` different shapes,
    so training spends its time compiling (on a TPU, minutes per shape). `pad_to_multiple_of=64`
    (32 or 64 on TPU, 8 on GPU) caps the shapes at `max_length / 64`; bucketing by length wastes
    even less padding (`padding="max_length"` pads every batch to one length). An MLM collator over examples that all have the same length (grouped into
    fixed blocks) never pads; there the finding is harmless.

    ## Example
    ```python
    collator = DataCollatorWithPadding(tokenizer, return_tensors="tf")
    batch = tokenizer(texts, padding=True, truncation=True, max_length=512)
    ```

    ## Use instead
    ```python
    collator = DataCollatorWithPadding(tokenizer, pad_to_multiple_of=64, return_tensors="tf")
    batch = tokenizer(texts, padding=True, truncation=True, max_length=512, pad_to_multiple_of=64)
    ```

    ## Fix safety
    The fix adds `pad_to_multiple_of=64` (TPU files) or `32`, and is unsafe: batches get longer
    (more padding), which changes memory use and any code that assumed the longest length.
    """

    code = "XLA401"
    preview = True
    fix = INLINE  # check() builds the fix from the node it flags
    name = "dynamic-padding-without-multiple"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import tensorflow as tf\nfrom transformers import DataCollatorWithPadding\n"
                "collator = DataCollatorWithPadding(tokenizer, pad_to_multiple_of=64, return_tensors='tf')\n"),
        Example("import tensorflow as tf\ndef encode(tokenizer, texts):\n"
                "    return tokenizer(texts, padding='max_length', truncation=True, max_length=128, return_tensors='tf')\n"),
        Example("import tensorflow as tf\ndef encode(tokenizer, texts):\n    return tokenizer(texts, truncation=True)\n"),
        Example("import tensorflow as tf\ndef batches(ds):\n    return ds.padded_batch(8, padded_shapes=[128], drop_remainder=True)\n"),
        Example("import tensorflow as tf\ndef prepare(tokenizer):\n    tokenizer.enable_padding(pad_id=1, pad_token='<pad>', length=128)\n"),
        Example("import tensorflow as tf\nids = tf.keras.preprocessing.sequence.pad_sequences(corpus, padding='post')\n"
                "ds = tf.data.Dataset.from_tensor_slices(ids).batch(64, drop_remainder=True)\n"),
        Example("import tensorflow as tf\ndef encode(tokenizer, texts):\n"
                "    return tokenizer(texts, padding='max_length', truncation=True)\n"),
        # a collator's default return_tensors is "pt": in a PyTorch file without torch_xla, eager PyTorch
        Example("import torch\nfrom transformers import DataCollatorForLanguageModeling, Trainer\n"
                "def train(model, tokenizer, ds):\n"
                "    collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)\n"
                "    return Trainer(model=model, train_dataset=ds, data_collator=collator).train()\n"),
        Example("import tensorflow as tf\nimport torch\ndef compare(tokenizer, model, texts):\n"
                "    for t in texts:\n        model(**tokenizer([t], padding=True, return_tensors='pt'))\n"),
        Example("import tensorflow as tf\ndef batches(ds):\n    return ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [32, 64],"
                " [16, 8, 4], pad_to_bucket_boundary=True)\n"),
        # padded_batch feeding a jit-compiled step, but its elements share one shape: nothing is padded
        Example("""
            import tensorflow as tf
            DATA = tf.data.Dataset.range(6).shuffle(6).padded_batch(2)
            @tf.function(jit_compile=True)
            def step(x):
                return tf.reduce_sum(x)
            def train():
                for x in DATA:
                    step(x)
        """),
        # ids padded to the longest prompt only to measure, compare and decode them on the host (diffusers'
        # truncation warning); the model gets the max_length ids: no graph takes the longest-padded ones
        Example("import torch\nimport torch_xla\ndef encode(tokenizer, text_encoder, prompts, device):\n"
                "    for prompt in prompts:\n"
                "        ids = tokenizer(prompt, padding='max_length', max_length=77, truncation=True,\n"
                "                        return_tensors='pt').input_ids\n"
                "        untruncated = tokenizer(prompt, padding='longest', return_tensors='pt').input_ids\n"
                "        if untruncated.shape[-1] >= ids.shape[-1] and not torch.equal(ids, untruncated):\n"
                "            print(tokenizer.batch_decode(untruncated[:, 76:-1]))\n"
                "        yield text_encoder(ids.to(device))\n"),
        # the padded batch goes to a tf.function in the same loop: XLA412 reports it at the argument
        Example("""
            import tensorflow as tf
            step = tf.function(lambda ids: tf.reduce_sum(ids), jit_compile=True)
            def train(batches):
                for seqs in batches:
                    step(tf.keras.utils.pad_sequences(seqs, padding="post"))
        """),
        # the padded batch goes to a jax.jit function in the same loop: XLA416 reports it at the argument
        Example("""
            import jax
            import jax.numpy as jnp
            from keras.utils import pad_sequences
            @jax.jit
            def step(p, ids):
                return p * ids.sum()
            def train(p, batches):
                for seqs in batches:
                    p = step(p, jnp.asarray(pad_sequences(seqs)))
                return p
        """),
    )
    INVALID = (
        Example("import tensorflow as tf\nfrom transformers import DataCollatorWithPadding\n"
                "collator = DataCollatorWithPadding(tokenizer, return_tensors='tf')\n",
                fixed="import tensorflow as tf\nfrom transformers import DataCollatorWithPadding\n"
                      "collator = DataCollatorWithPadding(tokenizer, return_tensors='tf', pad_to_multiple_of=32)\n",
                expected=(
                    (3, 12, 'DataCollatorWithPadding(...) pads each batch to its longest example without '
                            'pad_to_multiple_of: every distinct length is a new input shape that XLA compiles again; '
                            'add pad_to_multiple_of=32 (or bucket by length)'),
                )),
        Example("import tensorflow as tf\ndef encode(tokenizer, batches):\n"
                "    for texts in batches:\n        yield tokenizer(texts, padding=True, truncation=True, return_tensors='tf')\n",
                expected=(
                    (4, 15, 'tokenizer(...) pads each batch to its longest example without pad_to_multiple_of: every '
                            'distinct length is a new input shape that XLA compiles again; add pad_to_multiple_of=32 '
                            '(or bucket by length)'),
                )),
        Example("import tensorflow as tf\nfrom transformers import DataCollatorForLanguageModeling\n"
                "collator = DataCollatorForLanguageModeling(tokenizer, mlm_probability=0.15, return_tensors='tf')\n",
                expected=(
                    (3, 12, 'DataCollatorForLanguageModeling(...) pads each batch to its longest example without '
                            'pad_to_multiple_of: every distinct length is a new input shape that XLA compiles again; '
                            'add pad_to_multiple_of=32 (or bucket by length)'),
                )),
        Example("import tensorflow as tf\nclass Collate:\n    def __call__(self, features):\n"
                "        return self.tokenizer.pad(features, return_tensors='tf')\n",
                expected=(
                    (4, 16, 'self.tokenizer.pad(...) pads each batch to its longest example without '
                            'pad_to_multiple_of: every distinct length is a new input shape that XLA compiles again; '
                            'add pad_to_multiple_of=32 (or bucket by length)'),
                )),
        Example("import tensorflow as tf\ndef batches(ds):\n"
                "    return ds.padded_batch(8, padded_shapes=[None], drop_remainder=True)\n",
                expected=(
                    (3, 12, 'padded_batch without fixed padded_shapes pads each batch to its longest element: every '
                            'distinct length is a new input shape that XLA compiles again; pad to fixed shapes (or '
                            'bucket boundaries / a multiple of 64)'),
                )),
        Example("import tensorflow as tf\ndef prepare(tokenizer):\n    tokenizer.enable_padding(pad_id=1, pad_token='<pad>')\n",
                expected=(
                    (3, 5, 'tokenizer.enable_padding(...) pads each batch to its longest example without '
                           'pad_to_multiple_of: every distinct length is a new input shape that XLA compiles again; '
                           'add pad_to_multiple_of=32 (or bucket by length)'),
                )),
        Example("import tensorflow as tf\ndef batches(chunks):\n"
                "    return [tf.keras.preprocessing.sequence.pad_sequences(seqs, padding='post') for seqs in chunks]\n",
                expected=(
                    (3, 13, 'pad_sequences without maxlen pads to the longest sequence of each call: every distinct '
                            'length is a new input shape that XLA compiles again; pad to fixed shapes (or bucket '
                            'boundaries / a multiple of 64)'),
                )),
        Example("import tensorflow as tf\ndef batches(ds):\n    return ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [32, 64],"
                " [16, 8, 4], padded_shapes=[None])\n",
                expected=(
                    (3, 12, 'bucket_by_sequence_length without pad_to_bucket_boundary=True pads each batch to its '
                            'longest element, not to the bucket boundary: every distinct length is a new input shape '
                            'that XLA compiles again; pad to fixed shapes (or bucket boundaries / a multiple of 64)'),
                )),
        # no padded_shapes, elements of their own length (a map), batches fed to a jit-compiled step
        Example("""
            import tensorflow as tf
            DATA = tf.data.Dataset.range(1, 7).map(lambda n: tf.range(n)).padded_batch(2)
            @tf.function(jit_compile=True)
            def step(ids):
                return tf.reduce_sum(ids, axis=-1)
            def train():
                for ids in DATA:
                    step(ids)
        """,
                expected=(
                    (2, 8, 'padded_batch without padded_shapes pads each batch to its longest element and feeds '
                           'tf.function `step` called in the loop over it: every distinct length is a new input '
                           'shape that XLA compiles again; pad to fixed shapes (or bucket boundaries / a multiple '
                           'of 64)'),
                )),
        # no padded_shapes: the elements may already have static shapes (weaker evidence; the whole rule is
        # behind --preview now, so these were VALID before it moved there)
        Example("import tensorflow as tf\ndef batches(ds):\n    return ds.padded_batch(8, drop_remainder=True)\n",
                expected=((3, 12, "padded_batch without fixed padded_shapes pads each batch to its longest element: "
                                  "every distinct length is a new input shape that XLA compiles again; pad to fixed "
                                  "shapes (or bucket boundaries / a multiple of 64)"),)),
        Example("import tensorflow as tf\ndef batches(ds):\n"
                "    return ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [32, 64], [16, 8, 4])\n",
                expected=((3, 12, "bucket_by_sequence_length without pad_to_bucket_boundary=True pads each batch to "
                                  "its longest element, not to the bucket boundary: every distinct length is a new "
                                  "input shape that XLA compiles again; pad to fixed shapes (or bucket boundaries / "
                                  "a multiple of 64)"),)),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        multiple = None
        torch_xla = any(name.startswith("torch_xla") for name in ctx.facts.aliases.names.values())
        tf_or_jax = any(name.split(".", 1)[0] in ("tensorflow", "keras", "tf_keras", "jax", "flax")
                        for name in ctx.facts.aliases.names.values())
        sites: list[frozenset[int]] = []

        def jitted_sites() -> frozenset[int]:  # the jax.jit calls of host code, found once if a padding asks
            if not sites:
                sites.append(frozenset(id(c) for c, _ in jax_jitted_calls_in_host_code(ctx.facts, ctx.index, ctx.path)))
            return sites[0]

        for call, name in ctx.index.calls:
            if has_kwargs_splat(call) or in_test(ctx.index, ctx.path, call):
                continue
            returns = keyword(call, "return_tensors")
            if returns is not None and isinstance(returns.value, ast.Constant) and returns.value.value == "pt" \
                    and not torch_xla:
                continue  # PyTorch tensors in a file that never uses torch_xla: eager PyTorch, no XLA
            tf_padding = _tf_padding(call, name, ctx.preview, ctx.index)
            if tf_padding is not None and name is not None and name.endswith("pad_sequences") \
                    and not per_batch(ctx.index, call):
                continue  # one call over the whole corpus: one global length, one shape
            if tf_padding is not None and _feeds_tf_function_in_loop(ctx.index, call, jitted_sites()):
                continue  # the function it feeds reports it there (XLA412; XLA408 under a None signature; XLA416)
            if tf_padding is not None:
                ctx.report(self, call, f"{tf_padding}: every distinct length is a new input shape that XLA compiles "
                                       "again; pad to fixed shapes (or bucket boundaries / a multiple of 64)")
                continue
            last = (name or callee_text(call.func)).rsplit(".", 1)[-1]
            padding_kw = keyword(call, "padding")
            padding = padding_kind(padding_kw.value if padding_kw else None)
            has_multiple = _set(kw.value) if (kw := keyword(call, "pad_to_multiple_of")) else False
            if last in _PADDING_COLLATORS or last in _MLM_COLLATORS:
                if name is not None and not name.startswith("transformers"):
                    continue  # a project's own class that happens to share the name
                if returns is None and not torch_xla and not tf_or_jax:
                    continue  # the collators return PyTorch tensors by default: eager PyTorch, no XLA
                what = f"{last}(...)"
                if padding_kw is None:
                    padding = "longest"  # the collators' default
            elif is_tokenizer(call.func):
                rt = keyword(call, "return_tensors")
                if rt is not None and isinstance(rt.value, ast.Constant) and rt.value.value == "pt" \
                        and not any(v.startswith("torch_xla") for v in ctx.facts.aliases.names.values()):
                    continue  # PyTorch tensors in a file without torch_xla: eager PyTorch, no XLA compile
                what = ast.unparse(call.func) + "(...)"
                method = call.func.attr if isinstance(call.func, ast.Attribute) else None
                if padding_kw is None and method == "pad":
                    padding = "longest"  # tokenizer.pad defaults to padding=True
                # pad() is what collators call per batch; enable_padding() sets up every later batch
                if method not in ("pad", "enable_padding") and not per_batch(ctx.index, call):
                    continue  # tokenizing a whole corpus at once pads it to one global length
                if rt is not None and tokens_read_on_host_only(ctx.index, call):
                    continue  # ids only measured, compared or decoded on the host: no graph's input
                if isinstance(call.func, ast.Attribute) and call.func.attr == "enable_padding":
                    # the `tokenizers` library: pads encode_batch() to the longest unless length= is set
                    padding = None if _set(_argument(call, 99, "length")) else "longest"
            else:
                continue
            if padding == "longest" and not has_multiple:
                if multiple is None:
                    multiple = 64 if ctx.index.uses_tpu else 32
                edit = _insert_after_last_argument(call, f", pad_to_multiple_of={multiple}")
                fix = Fix(f"Add pad_to_multiple_of={multiple}", (edit,), Applicability.UNSAFE) if edit else None
                ctx.report(self, call, f"{what} pads each batch to its longest example without pad_to_multiple_of: "
                                       "every distinct length is a new input shape that XLA compiles again; add "
                                       f"pad_to_multiple_of={multiple} (or bucket by length)", fix=fix)
