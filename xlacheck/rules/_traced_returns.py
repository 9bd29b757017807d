"""What a traced TensorFlow function returns: shared by the rules on returned values that are not tensors
(XLA323 layer objects, XLA324 operations)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from xlacheck.rules.base import RuleContext


def returned_parts(value: ast.expr) -> list[ast.expr]:
    """The expressions a return hands back: the value, or the items of a tuple/list/dict display."""
    if isinstance(value, (ast.Tuple, ast.List)):
        return [p for e in value.elts for p in returned_parts(e)]
    if isinstance(value, ast.Dict):
        return [p for v in value.values if v is not None for p in returned_parts(v)]
    return [value]


@dataclass(frozen=True)
class TracedReturn:
    """A ``return`` of a function ``tf.function`` traces itself, or of a Keras layer's/model's ``call``."""

    parts: list[ast.expr]
    who: str  # "f (decorated with tf.function ...)" or "call of a Keras layer/model"
    where: str  # "tracing fails" / "tracing the model fails"


def traced_return(node: ast.Return, ctx: RuleContext) -> TracedReturn | None:
    """``node`` as a traced return (TensorFlow only), else None."""
    info = ctx.function
    if node.value is None or info.jax or not isinstance(info.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    traced = info.tf_function_entry
    keras_call = info.keras_method and info.name == "call" and info.cls is not None
    if not (traced or keras_call):
        return None
    return TracedReturn(returned_parts(node.value),
                        f"{info.name} ({info.evidence})" if traced else "call of a Keras layer/model",
                        "tracing fails" if traced else "tracing the model fails")
