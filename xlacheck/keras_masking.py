"""Which Keras layers make and read implicit masks, read from data that Keras produced.

``xlacheck/data/keras_masking.json`` is written by ``python tools/generate_keras_mask_table.py``
(TensorFlow with tf-keras, and Keras 3): the public layer classes of ``tf.keras.layers`` and
``keras.layers`` that read the mask Keras attaches to a tensor (``consumers``: their ``call``
takes ``mask`` or their source reads ``_keras_mask``), the layers that attach one
(``producers``, with the constructor arguments that make them do so), and, for a measured sample
of consumers, whether a ``tf.function``-decorated ``call`` runs them without the mask
(``lost_at_tf_function``). This module only reads the file: no TensorFlow or Keras import.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from xlacheck._data import load_json

_PREFIXES = ("tf.keras.layers.", "keras.layers.")


@cache
def _table() -> dict[str, Any]:
    data: dict[str, Any] = load_json("keras_masking.json")
    return data


def _split(name: str) -> tuple[str, str] | None:
    for prefix in _PREFIXES:
        if name.startswith(prefix) and "." not in name[len(prefix):]:
            return prefix[:-1], name[len(prefix):]
    return None


def consumer(name: str) -> str | None:
    """How the layer class ``name`` (``tf.keras.layers.LSTM``) reads an implicit mask
    (``"call(mask=)"`` / ``"reads _keras_mask"``), or None when it does not."""
    parts = _split(name)
    if parts is None:
        return None
    found: str | None = _table()["layers"].get(parts[0], {}).get("consumers", {}).get(parts[1])
    return found


def producer(name: str) -> dict[str, Any] | None:
    """The constructor arguments under which the layer class ``name`` attaches a mask to its
    output (``{"mask_zero": True}`` for ``Embedding``), or None when it never does."""
    parts = _split(name)
    if parts is None:
        return None
    found = _table()["layers"].get(parts[0], {}).get("producers", {}).get(parts[1])
    return None if found is None else dict(found["when"])


def measured_lost() -> dict[str, bool]:
    """Consumer class (short name) -> whether a tf.function-decorated call ran it without the
    implicit mask (measured by comparing outputs)."""
    return dict(_table()["lost_at_tf_function"])


def kept_when_made_inside() -> bool:
    """Measured: a mask attached inside the same tf.function (the producer runs in the trace) is kept."""
    return bool(_table()["kept_when_made_inside"])
