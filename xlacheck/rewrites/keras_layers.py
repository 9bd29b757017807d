"""Keras layers whose gradient has no XLA kernel, rebuilt from ops that have one (XLA316).

``UpSampling2D(size)`` with the default ``interpolation="nearest"`` resizes with
``ResizeNearestNeighbor``, whose gradient (``ResizeNearestNeighborGrad``) has no XLA kernel: a
jit-compiled training step that differentiates through it fails to compile. Upsampling by integer
factors ``(a, b)`` with nearest neighbours copies input row ``i // a`` to output row ``i`` (the
half-pixel centres of ``tf.image.resize``: ``floor((i + 0.5) / a) == i // a``), and likewise for
columns: that is ``tf.repeat(tf.repeat(x, a, axis=1), b, axis=2)`` (axes 2 and 3 for
``channels_first``). The values are the same, and so are the gradients: ``tf.repeat``'s gradient
sums each output block back into its input pixel, as ``ResizeNearestNeighborGrad`` does, with a
kernel XLA has. The layer becomes a ``Lambda`` of that expression.

Always UNSAFE, for what changes around the numbers: a saved model stores a ``Lambda``'s Python
code (Keras 3 reloads it only with ``safe_mode=False``), the layer's class differs in summaries,
and without ``data_format`` the rewrite assumes ``channels_last``, Keras' default
``image_data_format`` (a configuration that says ``channels_first`` makes the original resize the
other axes). Only integer factors written as literals are rewritten; ``interpolation="bilinear"``
has another gradient and is left alone.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source, dotted

_KERAS_ROOTS = frozenset({"tensorflow", "keras", "tf_keras"})


def from_keras(src: Source, head: str, depth: int = 0) -> bool:
    """``head`` names a module or object imported from TensorFlow or Keras in this file, or a
    module-level alias of one (``layers = tf.keras.layers``)."""
    bound = src.module_binding(head)
    if bound is not None and depth < 3:
        name = dotted(bound)
        return name is not None and (name.split(".")[0] == src.tf or from_keras(src, name.split(".")[0], depth + 1))
    for node in src.nodes:
        if isinstance(node, ast.Import):
            if any((a.asname or a.name.split(".")[0]) == head and a.name.split(".")[0] in _KERAS_ROOTS
                   for a in node.names):
                return True
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] in _KERAS_ROOTS:
            if any((a.asname or a.name) == head for a in node.names):
                return True
    return False


def _factors(node: ast.expr | None) -> tuple[int, int] | None:
    if node is None:
        return 2, 2
    if isinstance(node, ast.Constant) and type(node.value) is int and node.value >= 1:
        return node.value, node.value
    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 2 and all(
            isinstance(e, ast.Constant) and type(e.value) is int and e.value >= 1 for e in node.elts):
        return node.elts[0].value, node.elts[1].value  # type: ignore[attr-defined]
    return None


def _string(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


@rewriter(ast.Call, pointed=True)
def rewrite_nearest_upsampling(src: Source, node: ast.AST) -> Fix | None:
    """``layers.UpSampling2D(size)`` -> ``layers.Lambda(lambda t: tf.repeat(tf.repeat(t, a, axis=1), b, axis=2))``
    (see the module docstring)."""
    if src.tf is None or not isinstance(node, ast.Call):
        return None
    name = dotted(node.func)
    if name is None or "." not in name or name.rsplit(".", 1)[1] != "UpSampling2D":
        return None
    head = name.split(".")[0]
    if head != src.tf and not from_keras(src, head):
        return None
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords) \
            or len(node.args) > 3:
        return None
    given = dict(zip(("size", "data_format", "interpolation"), node.args))
    given.update({k.arg: k.value for k in node.keywords if k.arg in ("size", "data_format", "interpolation")})
    factors = _factors(given.get("size"))
    interpolation = given.get("interpolation")
    data_format = given.get("data_format")
    if factors is None or (interpolation is not None and _string(interpolation) != "nearest"):
        return None
    if data_format is not None and not (isinstance(data_format, ast.Constant) and (
            data_format.value is None or data_format.value in ("channels_last", "channels_first"))):
        return None
    reasons = ["the layer becomes a Lambda: a saved model stores its Python code (Keras 3 reloads it only with "
               "safe_mode=False), and its class and generated name differ (it has no weights)"]
    first = _string(data_format) == "channels_first"
    if _string(data_format) is None:
        reasons.append("assumes channels_last, Keras' default image_data_format (the original follows the "
                       "configured one)")
    rows, cols = (2, 3) if first else (1, 2)
    tf = src.tf
    a, b = factors
    body = f"{tf}.repeat({tf}.repeat(t, {a}, axis={rows}), {b}, axis={cols})"
    kept = [f"{k.arg}={src.segment(k.value)}" for k in node.keywords
            if k.arg not in ("size", "data_format", "interpolation")]
    text = f"{name.rsplit('.', 1)[0]}.Lambda(lambda t: {body}{''.join(', ' + k for k in kept)})"
    return make_fix("Upsample with tf.repeat (the same values and gradients; the gradient of nearest resizing has "
                    "no XLA kernel, tf.repeat's has)", [replace(src, node, text)], reasons)
