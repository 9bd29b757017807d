"""A host read printed under ``jax.jit`` (XLA301 ``.item()``, XLA302 ``float()``/``int()``) ->
``jax.debug.print`` of the array.

``print(f"loss {loss.item():.4f}")`` in a jitted function reads a traced value on the host, which
fails while tracing (ConcretizationTypeError). ``jax.debug.print`` takes the arrays themselves and
formats them with the same format string (``str.format`` fields, their conversions and format
specs) when the compiled function runs. The forms rewritten, and nothing else: an expression
statement ``print(a, b, ...)`` of the builtin ``print`` without keywords, whose arguments are
f-strings (their fields plain values with a conversion or a format spec that is text) and other
expressions (each one field, joined by a space as ``print`` joins them); ``.item()`` and ``float()``
of a field's value go (the array is formatted), ``int()`` becomes ``.astype(jnp.int32)`` (truncated
toward zero, as ``int`` does).

Always UNSAFE, and says why: ``jax.debug.print`` prints each time the compiled function runs (on
the host, in the order the device gives; under ``vmap`` once per batch entry), where ``print``
printed once while tracing; the text is the array's formatting (a float32 ``{}`` prints its
shortest digits, where a Python float printed float64's).
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import atom
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source

PRINTS_AT_RUN_TIME = ("jax.debug.print prints each time the compiled function runs (on the host, in the order the "
                      "device gives), where print ran once while tracing, and it formats the array: a float32 prints "
                      "its own shortest digits where a Python float printed float64's")
_CONVERSIONS = {-1: "", ord("s"): "!s", ord("r"): "!r", ord("a"): "!a"}


def _escaped(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _value(src: Source, jax: str, node: ast.expr) -> str:
    """The text of the array a field formats: a host read of it unwrapped."""
    if isinstance(node, ast.Call) and not node.keywords:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "item" and not node.args:
            return src.segment(func.value)
        if isinstance(func, ast.Name) and func.id in ("float", "int") and len(node.args) == 1 \
                and not isinstance(node.args[0], ast.Starred) and not src.stores_in(src.tree).get(func.id):
            inner = node.args[0]
            return src.segment(inner) if func.id == "float" else f"{atom(src, inner)}.astype({jax}.numpy.int32)"
    return src.segment(node)


def _fields(src: Source, jax: str, arg: ast.expr) -> tuple[str, list[str]] | None:
    """(format text, values) of one ``print`` argument; None for a field this fix cannot carry."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return _escaped(arg.value), []
    if not isinstance(arg, ast.JoinedStr):
        return "{}", [_value(src, jax, arg)]
    text, values = "", []
    for part in arg.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            text += _escaped(part.value)
            continue
        if not isinstance(part, ast.FormattedValue) or part.conversion not in _CONVERSIONS:
            return None
        spec = ""
        if part.format_spec is not None:
            pieces = part.format_spec.values if isinstance(part.format_spec, ast.JoinedStr) else [part.format_spec]
            if not all(isinstance(p, ast.Constant) and isinstance(p.value, str) for p in pieces):
                return None  # a nested field in the spec (`{x:{width}}`)
            spec = ":" + "".join(p.value for p in pieces)  # type: ignore[attr-defined]
        text += "{" + _CONVERSIONS[part.conversion] + spec + "}"
        values.append(_value(src, jax, part.value))
    return text, values


@rewriter(ast.Call)
def rewrite_jax_debug_print(src: Source, node: ast.AST) -> Fix | None:
    from xlacheck.rewrites.jax_conditions import jax_target

    jax = jax_target(src, node)
    if jax is None or not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) \
            or node.func.id != "print" or node.keywords or not node.args \
            or not isinstance(src.parents.get(node), ast.Expr) or src.stores_in(src.tree).get("print") \
            or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    parts = [_fields(src, jax, a) for a in node.args]
    if any(p is None for p in parts):
        return None
    text = " ".join(p[0] for p in parts)  # type: ignore[index]
    values = [v for p in parts for v in p[1]]  # type: ignore[union-attr]
    call = f"{jax}.debug.print({text!r}{''.join(f', {v}' for v in values)})"
    return make_fix("Print the array when the compiled function runs with jax.debug.print instead of reading it on "
                    "the host", [replace(src, node, call)], [PRINTS_AT_RUN_TIME])
