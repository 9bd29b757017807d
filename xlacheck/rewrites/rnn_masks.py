"""A Keras layer that skips masked steps run on a time prefix cut by a tensor length: mask the steps
instead (XLA205).

``self.lstm(x[:, :n])`` with ``n`` computed from tensor values gives the layer a time axis whose
length is data: XLA compiles once per value, and an unrolled layer cannot be built at all. A
Keras recurrent layer (``LSTM``, ``GRU``, ``SimpleRNN``, ``RNN``) that is given a mask keeps its
output and state unchanged at every masked step, so with ``return_sequences``, ``return_state``,
``go_backwards``, ``stateful`` and ``time_major`` off it returns, over all ``T`` steps with the
steps from ``n`` on masked, the output of its last unmasked step: the output it returns on the
prefix. The fix passes the full tensor with
``mask=tf.broadcast_to(tf.range(T) < tf.cast(n, tf.int64), [batch, T])`` (``T`` and ``batch`` read with
``tf.shape``, static under XLA; compared in ``int64`` because a bound such as
``tf.math.count_nonzero`` is ``int64`` and TF does not promote), so the layer sees a static time
axis. The same holds for ``Bidirectional`` around such a layer (the backward pass skips the masked
tail first) and for ``GlobalAveragePooling1D`` (channels last: the mean of the unmasked steps).
Measured (tf-keras 2.21; LSTM/GRU/SimpleRNN unrolled or not, Bidirectional(LSTM),
GlobalAveragePooling1D): equal outputs for ``1 <= n``, ``n`` past ``T`` included (the slice stops
at ``T``, the mask keeps every step).

Always UNSAFE, for the inputs where the two differ:

* a negative bound counts back from the end in the slice; the mask then keeps no step;
* an inf or NaN in the steps past the bound, which the slice drops, is still computed and
  masked out: the values are equal, but it reaches the layer's weight gradients as NaN
  (``0 * inf``);
* ``n == 0``: the original raises on an empty time axis, the fix returns the initial state's output;
* pooling multiplies by the mask, so an inf or NaN past the bound makes the mean NaN.

Only the ``self.attr`` / name of a layer built once from a Keras layer class is followed, and only
``x[:, :n]`` (trailing ``:`` or ``...`` allowed) passed as the layer's one positional input,
directly or through a name that only this call reads; the bound's names must keep their value
from the slice to the call (:meth:`Source.settled_before`).
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import full_slice, prefix_limit
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source, dotted
from xlacheck.rewrites.keras_layers import from_keras
from xlacheck.rewrites.static_shapes import data_dependent

_RECURRENT = frozenset({"LSTM", "GRU", "SimpleRNN", "RNN"})
_POOLING = frozenset({"GlobalAveragePooling1D", "GlobalAvgPool1D"})
_OFF = ("return_sequences", "return_state", "go_backwards", "stateful", "time_major")


def _time_prefix_bound(node: ast.Subscript) -> ast.expr | None:
    """``n`` of ``x[:, :n]``, ``x[:, 0:n, :]`` or ``x[:, :n, ...]``; None for any other index."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else []
    if len(parts) < 2 or not full_slice(parts[0]):
        return None
    prefix = parts[1]
    if not (isinstance(prefix, ast.Slice) and prefix.upper is not None and prefix.step is None
            and (prefix.lower is None or (isinstance(prefix.lower, ast.Constant) and prefix.lower.value == 0
                                          and type(prefix.lower.value) is int))):
        return None
    rest = parts[2:]
    if not all(full_slice(p) or (isinstance(p, ast.Constant) and p.value is Ellipsis and k == len(rest) - 1)
               for k, p in enumerate(rest)):
        return None
    return prefix.upper


def _layer_built(src: Source, func: ast.expr) -> ast.expr | None:
    """The value ``func`` names: ``self.attr`` assigned once in ``__init__``/``build`` of the
    enclosing class, or a name bound once (in the function or at module level)."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        cls = next((a for a in src.ancestors(func) if isinstance(a, ast.ClassDef)), None)
        if cls is None:
            return None
        stores = src.self_assignments(cls).get(func.attr, [])
        if len(stores) != 1 or stores[0][0].name not in ("__init__", "build"):
            return None
        return stores[0][1]
    if isinstance(func, ast.Name):
        return src.local_binding(func.id, func) or src.module_constant(func)
    return None


def _recurrent_layer(src: Source, func: ast.expr) -> bool:
    """``func`` is a Keras layer that skips masked steps and drops the time axis (:func:`_skips_masked`)."""
    built = _layer_built(src, func)
    return isinstance(built, ast.Call) and _skips_masked(src, built)


def _skips_masked(src: Source, built: ast.Call) -> bool:
    """``built`` constructs a recurrent layer that returns only its last output, a ``Bidirectional``
    wrapper of one (default backward layer), or ``GlobalAveragePooling1D`` (channels last)."""
    name = dotted(built.func)
    if name is None:
        return False
    head, last = name.split(".")[0], name.rsplit(".", 1)[-1]
    if not ((head == src.tf and ".keras." in f".{name}.") or from_keras(src, head)):
        return False
    if any(isinstance(a, ast.Starred) for a in built.args) or any(k.arg is None for k in built.keywords):
        return False
    if last in _POOLING:
        return not built.args and all(k.arg != "data_format" or (isinstance(k.value, ast.Constant)
                                                                  and k.value.value == "channels_last")
                                      for k in built.keywords)
    if last == "Bidirectional":
        inner = built.args[0] if built.args else next((k.value for k in built.keywords if k.arg == "layer"), None)
        if not isinstance(inner, ast.Call) or len(built.args) > 2 or any(k.arg == "backward_layer"
                                                                          for k in built.keywords):
            return False
        inner_name = dotted(inner.func)
        return inner_name is not None and inner_name.rsplit(".", 1)[-1] in _RECURRENT and _skips_masked(src, inner)
    return _last_output(built, name)


def _last_output(built: ast.Call, name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    if last not in _RECURRENT:
        return False
    if len(built.args) > (1 if last == "RNN" else 3):  # RNN's second positional is return_sequences
        return False
    return all(k.value.value is False for k in built.keywords
               if k.arg in _OFF and isinstance(k.value, ast.Constant)) \
        and not any(k.arg in _OFF and not isinstance(k.value, ast.Constant) for k in built.keywords)


def _layer_call(src: Source, arg: ast.expr) -> ast.Call | None:
    call = src.parents.get(arg)
    if not (isinstance(call, ast.Call) and call.args == [arg]
            and not any(k.arg is None or k.arg == "mask" for k in call.keywords)):
        return None
    return call if _recurrent_layer(src, call.func) else None


@rewriter(ast.Subscript, pointed=True)
def rewrite_rnn_prefix_mask(src: Source, node: ast.AST) -> Fix | None:
    """``layer(x[:, :n])`` -> ``layer(x, mask=tf.broadcast_to(tf.range(T) < n, [batch, T]))`` (see the
    module docstring)."""
    if src.tf is None or not isinstance(node, ast.Subscript) or not isinstance(node.ctx, ast.Load):
        return None
    bound = _time_prefix_bound(node)
    if bound is None or not data_dependent(src, bound) or dotted(node.value) is None:
        return None  # the base is read twice: a name or attribute only
    call = _layer_call(src, node)
    edits = []
    if call is None:
        found = src.sole_reader(node)
        if found is None:
            return None
        assign, reader = found
        call = _layer_call(src, reader)
        names = {n.id for n in ast.walk(bound) if isinstance(n, ast.Name)}
        if call is None or not src.settled_before(assign, names, own={id(t) for t in assign.targets}):
            return None
        edits.append(replace(src, node, src.segment(node.value)))
        inputs = reader.id
    else:
        inputs = src.segment(node.value)
    tf = src.tf
    length, limit = prefix_limit(src, inputs, 1, bound)
    steps = f"{tf}.range({length})"
    mask = f"{tf}.broadcast_to({steps} < {limit}, {tf}.shape({inputs})[:2])"
    keywords = "".join(f", {src.segment(k)}" for k in call.keywords)
    edits.append(replace(src, call, f"{src.segment(call.func)}({inputs}{keywords}, mask={mask})"))
    return make_fix(
        "Mask the steps past the length instead of slicing them off: the layer skips a masked step (a recurrent "
        "layer keeps its output and state, pooling leaves it out), so it returns the prefix's result over a static "
        "time axis",
        edits,
        ["a negative bound counts back from the end in the slice, and the mask then keeps no step",
         "an inf or NaN past the bound, which the slice dropped, reaches the layer's weight gradients as NaN",
         "a bound of 0 returns the initial state's output where the original raises"]
        + (["pooling multiplies by the mask: an inf or NaN past the bound makes the mean NaN"]
           if _pooling(src, call.func) else []))


def _pooling(src: Source, func: ast.expr) -> bool:
    built = _layer_built(src, func)
    name = dotted(built.func) if isinstance(built, ast.Call) else None
    return name is not None and name.rsplit(".", 1)[-1] in _POOLING
