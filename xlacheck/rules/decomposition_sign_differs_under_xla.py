"""XLA319: eigenvectors / singular vectors read under XLA, whose signs XLA picks differently."""

from __future__ import annotations

import ast

from xlacheck import divergence_table
from xlacheck.analysis.contexts import Level
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

_CLASS = "decomposition_sign"
# measured API -> positions of its vector outputs (what the probe's "vectors" form returned)
_VECTOR_OUTPUTS = {"tf.linalg.eigh": (1,), "tf.linalg.svd": (1, 2), "tf.linalg.qr": (0,)}
# functions whose result does not depend on the sign of their argument
_SIGN_FREE = frozenset({"tf.math.abs", "tf.math.square"})
_RENAMING = frozenset({"tf.transpose", "tf.linalg.matrix_transpose", "tf.linalg.adjoint", "tf.identity"})


def _vectors_probe(api: str) -> divergence_table.Divergence | None:
    return next((p for p in divergence_table.probes(api, _CLASS)
                 if p.form == "vectors" and p.outcome in divergence_table.DIVERGENT), None)


class DecompositionSignDiffersUnderXla(Rule):
    """
    ## What it does
    In code compiled with `jit_compile=True`, flags a call of `tf.linalg.eigh` or `tf.linalg.svd`
    whose eigenvectors / singular vectors are unpacked into names that the code then uses in a
    sign-dependent way. Which decompositions and outputs differ is read from the measured table
    (`xlacheck/data/tf_xla_divergence.json`, class `decomposition_sign`: each decomposition of a
    well-conditioned matrix run eagerly and under XLA). Uses that do not depend on the signs are
    not flagged: both vectors of a pair in one expression (`u * s @ v^T`, `v * e @ v^T`), `tf.abs`,
    `tf.square` or `** 2` of them, and the values (`e`, `s`) alone.

    ## Why is this bad?
    Each eigenvector or singular vector is defined only up to its sign. Eager TensorFlow calls
    LAPACK; XLA runs its own solver, which returns some vectors negated. Code that reads them
    (PCA projections, whitening, spectral embeddings, a sign-based feature) can compute another
    result in the compiled step than eagerly, with no error. Which vectors flip depends on the
    matrix (on some inputs none does), so the rule runs only with `--preview`.

    ## Example
    ```python
    @tf.function(jit_compile=True)
    def pca_project(x):
        cov = tf.matmul(x, x, transpose_a=True)
        _, vectors = tf.linalg.eigh(cov)
        return tf.matmul(x, vectors[:, -2:])
    ```

    ## Use instead
    ```python
    @tf.function(jit_compile=True)
    def pca_denoise(x):
        cov = tf.matmul(x, x, transpose_a=True)
        _, vectors = tf.linalg.eigh(cov)
        top = vectors[:, -2:]
        return tf.matmul(tf.matmul(x, top), top, transpose_b=True)  # the projector top top^T is sign-free
    ```
    or fix each vector's sign (make its largest-magnitude entry positive) before reading it.

    ## Fix safety
    No automatic fix: the sign convention is the author's choice.
    """

    code = "XLA319"
    fix = None
    name = "decomposition-sign-differs-under-xla"
    node_types = (ast.Call,)
    levels = frozenset({Level.CERTAIN})  # a plain tf.function or a Keras method may never meet XLA
    # Which vectors XLA negates depends on the matrix: the table's 4x4 probes differ, but the two
    # cases written for this rule (a PCA projection, a leading singular vector) were labelled ok by
    # the compiler on their inputs (eval_cases/tf/neg_op_pca_projection_eigh_vectors_under_jit.py,
    # neg_op_svd_leading_vector_as_sequence_embedding.py). A hazard, not a certainty: --preview.
    preview = True

    VALID = (
        # only the eigenvalues are read
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(c):\n"
                "    values, _ = tf.linalg.eigh(c)\n    return values\n"),
        # a reconstruction: the signs cancel
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(m):\n"
                "    s, u, v = tf.linalg.svd(m)\n    return tf.matmul(u * s, v, transpose_b=True)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(c):\n"
                "    e, v = tf.linalg.eigh(c)\n    return tf.matmul(v * tf.sqrt(e), v, transpose_b=True)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    _, vectors = tf.linalg.eigh(tf.matmul(x, x, transpose_a=True))\n    top = vectors[:, -2:]\n"
                "    return tf.matmul(tf.matmul(x, top), top, transpose_b=True)\n"),
        # not compiled by XLA
        Example("import tensorflow as tf\n@tf.function\ndef f(c, x):\n"
                "    _, v = tf.linalg.eigh(c)\n    return tf.matmul(x, v)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef pca_project(x):\n"
                "    cov = tf.matmul(x, x, transpose_a=True)\n    _, vectors = tf.linalg.eigh(cov)\n"
                "    return tf.matmul(x, vectors[:, -2:])\n",
                expected=(
                    (5, 18, "eigenvectors of tf.linalg.eigh read under XLA (decorated with "
                            "tf.function(jit_compile=True); 'vectors' at line 6): they are unique only up to sign and "
                            "XLA's solver returns other signs than eager LAPACK (measured, "
                            "xlacheck/data/tf_xla_divergence.json: eigh(4x4 SPD)[1]: XLA flips the sign of some "
                            "vectors); use only sign-free quantities (the values, v diag(e) v^T) or fix each vector's "
                            "sign"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(m):\n"
                "    s, u, v = tf.linalg.svd(m)\n    return u[:, 0] * s[0]\n",
                expected=(
                    (4, 15, "singular vectors of tf.linalg.svd read under XLA (decorated with "
                            "tf.function(jit_compile=True); 'u' at line 5): they are unique only up to sign and XLA's "
                            "solver returns other signs than eager LAPACK (measured, "
                            "xlacheck/data/tf_xla_divergence.json: svd(4x4)[1] (u): XLA flips the sign of some "
                            "vectors); use only sign-free quantities (the values, v diag(e) v^T) or fix each vector's "
                            "sign"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        if ctx.function.jax:
            return
        name = call_name(node, ctx)
        api = divergence_table.measured_api(name) if name else None
        if api not in _VECTOR_OUTPUTS:
            return
        probe = _vectors_probe(api)
        if probe is None or api == "tf.linalg.svd" and any(
                kw.arg == "compute_uv" and not (isinstance(kw.value, ast.Constant) and kw.value.value is True)
                for kw in node.keywords):
            return
        names = self._unpacked_vectors(node, api, ctx)
        if not names:
            return
        used = self._sign_dependent_use(names, ctx)
        if used is None:
            return
        kind = "eigenvectors" if api == "tf.linalg.eigh" else "singular vectors" if api == "tf.linalg.svd" else \
            "orthogonal factor"
        ctx.report(self, node,
                   f"{kind} of {name} read under XLA ({ctx.function.why}; '{used[0]}' at line {used[1]}): they are "
                   "unique only up to sign and XLA's solver returns other signs than eager LAPACK (measured, "
                   f"xlacheck/data/tf_xla_divergence.json: {probe.input}: {probe.how or 'differs'}); use only "
                   "sign-free quantities (the values, v diag(e) v^T) or fix each vector's sign")

    @staticmethod
    def _unpacked_vectors(node: ast.Call, api: str, ctx: RuleContext) -> list[str]:
        """The names the vector outputs are unpacked into (``e, v = tf.linalg.eigh(c)``)."""
        for body, _ in reversed(ctx.blocks):
            for stmt in body:
                if isinstance(stmt, ast.Assign) and stmt.value is node and len(stmt.targets) == 1 \
                        and isinstance(stmt.targets[0], ast.Tuple):
                    elts = stmt.targets[0].elts
                    return [e.id for i, e in enumerate(elts)
                            if i in _VECTOR_OUTPUTS[api] and isinstance(e, ast.Name) and e.id != "_"]
        return []

    @staticmethod
    def _sign_dependent_use(names: list[str], ctx: RuleContext) -> tuple[str, int] | None:
        """(name, line) of the first use of a vector name that depends on its sign: a statement
        that reads one vector name once, outside ``tf.abs``/``tf.square``/``** 2``; None when every
        use pairs the vectors (``u ... v^T``, ``v ... v^T``) or drops the sign."""
        function = ctx.function.node
        wanted = set(names)
        aliases: set[int] = set()  # `top = v[:, -2:]`, `vt = tf.transpose(v)`: the same vectors, renamed
        changed = True
        while changed:
            changed = False
            for stmt in ast.walk(function):
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                        and _renames(stmt.value, wanted, ctx) and stmt.targets[0].id not in wanted:
                    wanted.add(stmt.targets[0].id)
                    aliases.add(id(stmt))
                    changed = True
        for stmt in ast.walk(function):
            if id(stmt) in aliases:
                continue
            if not isinstance(stmt, ast.stmt) or isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.If,
                                                                    ast.For, ast.While, ast.With, ast.Try)):
                continue
            loads = [n for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                     and n.id in wanted]
            if not loads or len(loads) >= 2:
                continue  # a pair of vectors in one expression: the signs cancel
            use = loads[0]
            if not _sign_dropped(stmt, use, ctx):
                return use.id, use.lineno
        return None


def _renames(value: ast.expr, names: set[str], ctx: RuleContext) -> bool:
    """Is ``value`` one of ``names``, sliced or transposed (the same vectors, signs kept)?"""
    while True:
        if isinstance(value, ast.Name):
            return value.id in names
        if isinstance(value, ast.Subscript):
            value = value.value
        elif isinstance(value, ast.Call) and len(value.args) == 1 and call_name(value, ctx) in _RENAMING:
            value = value.args[0]
        else:
            return False


def _sign_dropped(stmt: ast.stmt, use: ast.Name, ctx: RuleContext) -> bool:
    """Is ``use`` (inside ``stmt``) under ``tf.abs``, ``tf.square`` or ``** 2``?"""
    for node in ast.walk(stmt):
        inner: ast.expr | None = None
        if isinstance(node, ast.Call):
            name = call_name(node, ctx)
            api = divergence_table.measured_api(name) if name else None
            if name in _SIGN_FREE or api in _SIGN_FREE:
                inner = node
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and isinstance(node.right, ast.Constant) \
                and node.right.value == 2:
            inner = node.left
        if inner is not None and any(n is use for n in ast.walk(inner)):
            return True
    return False
