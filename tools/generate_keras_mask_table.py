"""Generate xlacheck/data/keras_masking.json: which Keras layers make and read implicit masks.

One command (needs TensorFlow with tf-keras, and Keras 3; xlacheck itself never imports them):

    python tools/generate_keras_mask_table.py            # writes xlacheck/data/keras_masking.json
    python tools/generate_keras_mask_table.py --check    # re-measures and compares with the file

Keras carries a padding mask on the tensor itself (``_keras_mask``): ``Embedding(mask_zero=True)``
and ``Masking`` set it, and a later layer reads it without being told. For every public layer
class of ``tf.keras.layers`` (tf-keras) and ``keras.layers`` (Keras 3) the table records

* ``consumers``: layers that read an implicit mask: their ``call`` takes a ``mask`` argument (Keras
  passes the input's mask into it) or their class source reads ``_keras_mask``
  (``MultiHeadAttention`` builds its attention mask from the query's and key's masks);
* ``producers``: layers whose ``compute_mask`` returns a mask for an input that has none, with the
  constructor arguments that make it do so (``Embedding`` with ``mask_zero=True``);
* ``lost_at_tf_function``: measured on a sample of consumers: an ``Embedding(mask_zero=True)``
  feeds a layer whose ``call`` runs the consumer, once plain and once decorated with
  ``tf.function``. A ``tf.function`` sees its arguments as new symbolic tensors without the
  ``_keras_mask`` attribute, so the decorated call runs the consumer unmasked (it attends to /
  averages over padding): ``true`` where the outputs differ;
* ``kept_when_made_inside``: measured: when the producer runs inside the same ``tf.function``
  (``self.rnn(self.embed(ids))`` in a decorated ``call``) the mask is attached to the traced tensor
  and kept (``true``): only a mask that crosses the function boundary is lost.

The output is deterministic apart from the ``generated`` date (``SOURCE_DATE_EPOCH`` pins it).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))

import _table_check  # noqa: E402  (tools/ is not a package)

DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "keras_masking.json"
COMMAND = "python tools/generate_keras_mask_table.py"
SCHEMA = 1
# Constructor arguments under which a producer makes a mask (its required arguments filled in).
PRODUCER_ARGS: dict[str, dict[str, Any]] = {
    "Embedding": {"input_dim": 8, "output_dim": 4, "mask_zero": True},
    "Masking": {"mask_value": 0.0},
}
# Consumers measured through a tf.function boundary: how to build each and call it on x.
SAMPLE = ("MultiHeadAttention", "LSTM", "GRU", "GlobalAveragePooling1D", "Attention")


def _import() -> tuple[Any, Any]:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["TF_USE_LEGACY_KERAS"] = "1"
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
    import tensorflow as tf
    try:
        import keras
    except ImportError:  # pragma: no cover - Keras 3 is part of [all]
        keras = None
    return tf, keras


def _source(cls: type) -> str:
    parts = []
    for klass in cls.__mro__:
        if klass.__module__.split(".")[0] not in ("keras", "tf_keras") or klass.__name__ in ("Layer", "Operation"):
            continue
        try:
            parts.append(inspect.getsource(klass))
        except (OSError, TypeError):
            continue
    return "\n".join(parts)


def _layers(module: Any, base: type) -> dict[str, type]:
    out = {}
    for name in sorted(dir(module)):
        obj = getattr(module, name)
        if inspect.isclass(obj) and issubclass(obj, base) and obj is not base and not name.startswith("_"):
            out[name] = obj
    return out


def _consumer(cls: type) -> str | None:
    try:
        params = inspect.signature(cls.call).parameters
    except (TypeError, ValueError):
        params = {}
    if "mask" in params:
        return "call(mask=)"
    if "_keras_mask" in _source(cls):
        return "reads _keras_mask"
    return None


def _producer(tf: Any, cls: type, name: str, base: type) -> dict[str, Any] | None:
    if cls.compute_mask is base.compute_mask or name not in PRODUCER_ARGS:
        return None
    layer = cls(**PRODUCER_ARGS[name])
    x = tf.constant([[1, 2, 0]]) if name == "Embedding" else tf.constant([[[1.0], [2.0], [0.0]]])
    mask = layer.compute_mask(x, None)
    if mask is None:
        return None
    return {"when": {k: v for k, v in PRODUCER_ARGS[name].items() if k not in ("input_dim", "output_dim")}}


def _lost(tf: Any, consumer: str) -> bool:
    """Does a tf.function-decorated call run ``consumer`` without the implicit mask?"""
    L = tf.keras.layers

    def build() -> Any:
        tf.keras.utils.set_random_seed(1)
        if consumer == "MultiHeadAttention":
            inner = L.MultiHeadAttention(num_heads=2, key_dim=2)
            return inner, lambda x: inner(query=x, value=x, key=x)
        if consumer == "Attention":
            inner = L.Attention()
            return inner, lambda x: inner([x, x])
        inner = getattr(L, consumer)(4) if consumer in ("LSTM", "GRU") else getattr(L, consumer)()
        return inner, inner

    class Wrap(L.Layer):
        def __init__(self, run: Any) -> None:
            super().__init__()
            self.run = run

        def call(self, x: Any) -> Any:
            return self.run(x)

    ids = tf.constant([[3, 5, 0, 0], [2, 0, 0, 0]])
    embed = L.Embedding(8, 4, mask_zero=True, embeddings_initializer=tf.keras.initializers.RandomUniform(-1, 1, seed=1))
    outputs = []
    for decorated in (False, True):
        _, run = build()
        layer = Wrap(run)
        if decorated:
            # one new function per measurement on purpose: each is traced once, alone
            layer.call = tf.function(layer.call)  # xlacheck: ignore[XLA404]
        outputs.append(layer(embed(ids)).numpy())
    return not (outputs[0].shape == outputs[1].shape and abs(outputs[0] - outputs[1]).max() < 1e-6)


def _kept_inside(tf: Any) -> bool:
    """Is the mask kept when the producer runs inside the same tf.function as the consumer?"""
    L = tf.keras.layers

    class Model(L.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.embed = L.Embedding(8, 4, mask_zero=True,
                                     embeddings_initializer=tf.keras.initializers.RandomUniform(-1, 1, seed=1))
            self.rnn = L.LSTM(3, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=2),
                              recurrent_initializer=tf.keras.initializers.Orthogonal(seed=3))

        def call(self, ids: Any) -> Any:
            return self.rnn(self.embed(ids))

    ids = tf.constant([[3, 5, 0, 0], [2, 0, 0, 0]])
    plain, traced = Model(), Model()
    traced.call = tf.function(traced.call)  # xlacheck: ignore[XLA404]
    a, b = plain(ids).numpy(), traced(ids).numpy()
    return bool(a.shape == b.shape and abs(a - b).max() < 1e-6)


def build() -> dict[str, Any]:
    tf, keras = _import()
    frameworks: dict[str, dict[str, Any]] = {}
    sources = [("tf.keras.layers", tf.keras.layers, tf.keras.layers.Layer)]
    if keras is not None:
        sources.append(("keras.layers", keras.layers, keras.layers.Layer))
    for prefix, module, base in sources:
        consumers, producers = {}, {}
        for name, cls in _layers(module, base).items():
            how = _consumer(cls)
            if how:
                consumers[name] = how
            made = _producer(tf, cls, name, base) if prefix == "tf.keras.layers" else (
                {"when": {k: v for k, v in PRODUCER_ARGS[name].items() if k not in ("input_dim", "output_dim")}}
                if name in PRODUCER_ARGS and cls.compute_mask is not base.compute_mask else None)
            if made:
                producers[name] = made
        frameworks[prefix] = {"consumers": consumers, "producers": producers}
    lost = {name: _lost(tf, name) for name in SAMPLE}
    return {
        "schema": SCHEMA,
        "command": COMMAND,
        "generated": _table_check.generated_date(),
        "tensorflow_version": tf.__version__,
        "tf_keras_version": tf.keras.__version__ if hasattr(tf.keras, "__version__") else None,
        "keras_version": getattr(keras, "__version__", None),
        "layers": frameworks,
        "lost_at_tf_function": lost,
        "kept_when_made_inside": _kept_inside(tf),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="re-measure and compare with --out")
    args = parser.parse_args(argv)
    table = build()
    if args.check:
        old = json.loads(args.out.read_text())
        same = ({k: v for k, v in old.items() if k != "generated"}
                == {k: v for k, v in table.items() if k != "generated"})
        print("up to date" if same else f"{args.out} is stale: run {COMMAND}")
        return 0 if same else 1
    args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.out}: {sum(len(f['consumers']) for f in table['layers'].values())} consumers, "
          f"lost at tf.function: {table['lost_at_tf_function']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
