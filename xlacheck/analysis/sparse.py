"""Which expressions of a function hold a ``tf.SparseTensor`` built in that function.

The facts come from the sparse table (``xlacheck/data/tf_sparse.json``, measured by
``tools/generate_sparse_table.py``): the constructors its probes used (``tf.sparse.from_dense``,
``tf.SparseTensor``, ``tf.keras.backend.ctc_label_dense_to_sparse``) and the ``tf.sparse.*``
consumers that returned a sparse tensor for a sparse input. ``tf.cast`` keeps a sparse tensor
sparse (TensorFlow dispatches it on ``SparseTensor``; the table's ``tf.cast`` probes read
``.values`` of the cast). A function's sparse *arguments* are not known here: unknown is not
sparse.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck import api_table, sparse_table

_CASTS = frozenset({"tf.cast", "tf.dtypes.cast"})


def _canonical(name: str | None) -> str:
    if not name:
        return ""
    return api_table.alias_target(name) or name


def is_sparse(expr: ast.AST, function: ast.AST, resolve: Callable[[ast.expr], str | None]) -> bool:
    """``expr`` (in ``function``) is a ``tf.SparseTensor`` built in ``function``: a constructor call, a
    sparse-returning ``tf.sparse.*`` call or ``tf.cast`` of a sparse value, or a name assigned only
    from such expressions (followed to a fixed point)."""
    makers = sparse_table.constructors() | sparse_table.returns_sparse()
    holders: set[str] = set()

    def sparse(e: ast.AST) -> bool:
        if isinstance(e, ast.Name):
            return e.id in holders
        if not isinstance(e, ast.Call):
            return False
        name = _canonical(resolve(e.func))
        if name in makers:
            return True
        return name in _CASTS and bool(e.args) and sparse(e.args[0])

    assigns: dict[str, list[ast.expr]] = {}
    for stmt in ast.walk(function):
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    assigns.setdefault(target.id, []).append(stmt.value)
    changed = True
    while changed:  # names whose every assignment is sparse, to a fixed point (source order aside)
        changed = False
        for name, values in assigns.items():
            if name not in holders and all(sparse(v) for v in values):
                holders.add(name)
                changed = True
    return sparse(expr)
