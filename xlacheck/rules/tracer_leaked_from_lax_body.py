"""XLA328: state set inside a ``jax.lax`` loop or branch body and read after it (a leaked tracer)."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import FunctionInfo
from xlacheck.analysis.tables import JAX_TRACING_PRIMITIVES
from xlacheck.analysis.values import TENSOR
from xlacheck.rules.base import Example, Rule, RuleContext

_Body = ast.FunctionDef | ast.AsyncFunctionDef


class TracerLeakedFromLaxBody(Rule):
    """
    ## What it does
    Flags a read of `self.<attr>` (or of a `nonlocal` name) after a `jax.lax.scan`/`fori_loop`/
    `while_loop`/`map`/`cond`/`switch` call, when the body that call traces (a method passed as
    `self.<method>`, or a function defined in the calling function) sets that attribute or name to a
    computed value. Bodies that only return their results, through the carry and the outputs, are
    not flagged. Also a method that `jax.jit` traces (`jax.jit(obj.method)`) storing a computed value
    on `self` that another method of the class reads, one the jitted method does not call itself.

    ## Why is this bad?
    A `jax.lax` control-flow primitive traces its body once with abstract tracers of its own trace.
    A value the body stores outside itself (on `self`, in an enclosing scope) is one of those
    tracers; once the primitive returns, its trace is gone, and using the stored value raises
    `UnexpectedTracerError: Encountered an unexpected tracer` (measured on jax 0.10.2, under
    `jax.jit` and called from plain Python alike; dm-haiku issue 214). The same holds for the trace of
    a jitted method: what it stores on the object is a tracer of that call (jax issue 4714).

    ## Example
    ```python
    class Core:
        def cell(self, h, x):
            h = jnp.tanh(x @ self.w + h)
            self.last_hidden = h
            return h, h
        def __call__(self, xs, h0):
            _, ys = jax.lax.scan(self.cell, h0, xs)
            return ys, self.last_hidden
    ```

    ## Use instead
    ```python
    class Core:
        def cell(self, h, x):
            h = jnp.tanh(x @ self.w + h)
            return h, h
        def __call__(self, xs, h0):
            h_last, ys = jax.lax.scan(self.cell, h0, xs)  # the carry is the last hidden state
            return ys, h_last
    ```

    ## Fix safety
    No automatic fix: the value must be returned through the body's carry or outputs.
    """

    code = "XLA328"
    fails_in_any_graph = True  # the lax primitive traces its body wherever it is called
    in_helpers = True
    fix = None
    name = "tracer-leaked-from-lax-body"
    node_types = (ast.Assign, ast.AugAssign, ast.AnnAssign)

    VALID = (
        Example("import jax\nimport jax.numpy as jnp\nclass Core:\n    def __init__(self, w):\n"
                "        self.w = w\n    def cell(self, h, x):\n        h = jnp.tanh(x @ self.w + h)\n"
                "        return h, h\n    def __call__(self, xs, h0):\n"
                "        h_last, ys = jax.lax.scan(self.cell, h0, xs)\n        return ys, h_last\n"),
        # set inside the body, never read after the loop; or set outside the body only
        Example("import jax\nimport jax.numpy as jnp\nclass Core:\n    def __init__(self, w):\n"
                "        self.w = w\n        self.calls = 0\n    def cell(self, h, x):\n"
                "        self.calls = 1\n        return jnp.tanh(x @ self.w + h), h\n"
                "    def __call__(self, xs, h0):\n        self.out = jax.lax.scan(self.cell, h0, xs)[1]\n"
                "        return self.out\n"),
        # a Python counter of how often the body is traced: a Python int, not a tracer
        Example("import jax\nclass Core:\n    def __init__(self):\n        self.traces = 0\n"
                "    def body(self, i, c):\n        self.traces = self.traces + 1\n        return c * 2.0\n"
                "    def __call__(self, x):\n        out = jax.lax.fori_loop(0, 3, self.body, x)\n"
                "        return out, self.traces\n"),
        # a jitted method's attribute read only in the trace (by itself and the methods it calls)
        Example("import jax\nimport jax.numpy as jnp\nclass Field:\n    def __init__(self, pupil):\n"
                "        self.pupil = pupil\n    def propagate(self, phase):\n"
                "        self.field = self.pupil * jnp.exp(1j * phase)\n        return self.flux()\n"
                "    def flux(self):\n        return jnp.sum(jnp.abs(self.field) ** 2)\n"
                "f = Field(jnp.ones(4))\npropagate = jax.jit(f.propagate)\n"),
    )
    INVALID = (
        Example("import jax\nimport jax.numpy as jnp\nclass Core:\n    def __init__(self, w):\n"
                "        self.w = w\n    def cell(self, h, x):\n        h = jnp.tanh(x @ self.w + h)\n"
                "        self.last_hidden = h\n        return h, h\n    def __call__(self, xs, h0):\n"
                "        _, ys = jax.lax.scan(self.cell, h0, xs)\n        return ys, jnp.tanh(self.last_hidden)\n",
                expected=(
                    (8, 9, "`self.last_hidden` is set inside `cell`, the body jax.lax.scan traces, and read after "
                           "the loop (line 12): the value stored there is a tracer of the loop's own trace, which "
                           "is gone once it returns (UnexpectedTracerError); return it through the carry or the "
                           "outputs instead"),
                )),
        Example("import jax\nimport jax.numpy as jnp\ndef total(xs):\n    peak = 0.0\n    def body(i, acc):\n"
                "        nonlocal peak\n        peak = jnp.maximum(peak, xs[i])\n        return acc + xs[i]\n"
                "    s = jax.lax.fori_loop(0, xs.shape[0], body, 0.0)\n    return s / peak\n",
                expected=(
                    (7, 9, "`peak` is set inside `body`, the body jax.lax.fori_loop traces, and read after the loop "
                           "(line 10): the value stored there is a tracer of the loop's own trace, which is gone "
                           "once it returns (UnexpectedTracerError); return it through the carry or the outputs "
                           "instead"),
                )),
        # a branch of jax.lax.cond: no loop and no carry, the branch's output is the way out (review20)
        Example("import jax\nimport jax.numpy as jnp\nclass Core:\n    def __init__(self, w):\n"
                "        self.w = w\n    def on(self, h):\n        h = jnp.tanh(h @ self.w)\n"
                "        self.last = h\n        return h\n    def off(self, h):\n        return h\n"
                "    def __call__(self, xs, h0):\n        h = jax.lax.cond(xs.sum() > 0, self.on, self.off, h0)\n"
                "        return h + self.last\n",
                expected=(
                    (8, 9, "`self.last` is set inside `on`, the branch jax.lax.cond traces, and read after the call "
                           "(line 14): the value stored there is a tracer of the branch's own trace, which is gone "
                           "once it returns (UnexpectedTracerError); return it as an output of the branches "
                           "instead"),
                )),
        # a method jax.jit traces stores its result on the object; another method reads it later (jax#4714)
        Example("import jax\nimport jax.numpy as jnp\nclass Field:\n    def __init__(self, pupil):\n"
                "        self.pupil = pupil\n        self.wavefront = pupil\n    def propagate(self, phase):\n"
                "        field = self.pupil * jnp.exp(1j * phase)\n        self.wavefront = jnp.fft.fft2(field)\n"
                "        return jnp.sum(jnp.abs(field) ** 2)\n    def intensity(self):\n"
                "        return jnp.abs(self.wavefront) ** 2\n"
                "f = Field(jnp.ones((4, 4)))\npropagate = jax.jit(f.propagate)\n",
                expected=(
                    (9, 9, "`self.wavefront` is set inside `propagate`, which jax.jit traces (wrapped in jax.jit), and "
                           "read by `intensity` (line 12), which runs outside that trace: the value stored there is a "
                           "tracer of the jitted call, gone once it returns (UnexpectedTracerError); return it from "
                           "the jitted function instead"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
        why = ctx.function.why
        body = ctx.function.node
        if node.value is None or not _computed(node.value) or not isinstance(body, (ast.FunctionDef,
                                                                                   ast.AsyncFunctionDef)):
            return
        if not ctx.flags(node.value) & TENSOR:
            return  # a Python value (a trace-time counter): no tracer is stored
        if _jitted_method(ctx):
            self._jitted_method(node, body, ctx)
            return
        if not why.startswith("traced by jax.lax."):
            return
        primitive = why[len("traced by "):]
        for target, shown in _stored_outside(node, body):
            for caller, call in _callers(body, ctx):
                end = getattr(call, "end_lineno", call.lineno) or call.lineno
                read = _read_after(caller, target, end)
                if read is not None:
                    # (cond/switch trace branches: no loop and no carry)
                    loop = primitive.rsplit(".", 1)[-1] not in ("cond", "switch")
                    part, after, way = ("body", "loop", "through the carry or the outputs") if loop else (
                        "branch", "call", "as an output of the branches")
                    ctx.report(self, node,
                               f"`{shown}` is set inside `{body.name}`, the {part} {primitive} traces, and read after "
                               f"the {after} (line {read.lineno}): the value stored there is a tracer of the "
                               f"{'loop' if loop else 'branch'}'s own "
                               f"trace, which is gone once it returns (UnexpectedTracerError); return it {way} instead")
                    return


    def _jitted_method(self, node: ast.Assign | ast.AugAssign | ast.AnnAssign, body: _Body, ctx: RuleContext) -> None:
        """``self.<attr> = <tracer>`` in a method ``jax.jit`` traces, read by another method of the class
        that the jitted method does not call: that method runs outside the trace (or in another one)."""
        cls = ctx.function.cls
        assert cls is not None
        inside = _methods_called_from(body.name, cls.methods)
        for target, shown in _stored_outside(node, body):
            if not target.startswith("self."):
                continue
            for name, method in sorted(cls.methods.items()):
                if name in inside or name == "__init__" or method.node is body:
                    continue
                read = _read_after(method.node, target, getattr(method.node, "lineno", 0))
                if read is None:
                    continue
                ctx.report(self, node,
                           f"`{shown}` is set inside `{body.name}`, which jax.jit traces ({ctx.function.why}), "
                           f"and read by `{name}` (line {read.lineno}), which runs outside that trace: the value "
                           "stored there is a tracer of the jitted call, gone once it returns (UnexpectedTracerError); "
                           "return it from the jitted function instead")
                return


def _jitted_method(ctx: RuleContext) -> bool:
    """The function is a method of a class (not nested) that ``jax.jit`` or ``jax.pmap`` traces itself."""
    info = ctx.function
    return (info.cls is not None and info.parent is None and info.jax and info.traced_args
            and ("jax.jit" in info.why or "jax.pmap" in info.why) and not info.why.startswith("traced by jax.lax."))


def _methods_called_from(start: str, methods: dict[str, FunctionInfo]) -> set[str]:
    """``start`` and the methods it calls as ``self.<method>(...)``, transitively: they run in its trace."""
    seen = {start}
    todo = [start]
    while todo:
        info = methods.get(todo.pop())
        if info is None:
            continue
        for called in info.called_methods:
            if called in methods and called not in seen:
                seen.add(called)
                todo.append(called)
    return seen


def _callers(body: _Body, ctx: RuleContext) -> list[tuple[ast.AST, ast.Call]]:
    """The functions that hand ``body`` to a ``jax.lax`` primitive, with that call: the other methods of
    its class for a method (``jax.lax.scan(self.cell, ...)``), the enclosing function for a nested one."""
    if ctx.function.cls is not None and ctx.function.parent is None:
        scopes = [m.node for m in ctx.function.cls.methods.values() if m.node is not body]
        wanted = ("self", body.name)
    elif ctx.function.parent is not None:
        scopes = [ctx.function.parent.node]
        wanted = ("", body.name)
    else:
        return []
    out: list[tuple[ast.AST, ast.Call]] = []
    for scope in scopes:
        for call in ast.walk(scope):
            if not isinstance(call, ast.Call):
                continue
            row = JAX_TRACING_PRIMITIVES.get(ctx.resolve(call.func) or "")
            if row is None:
                continue
            refs = [call.args[p] for p in row[0] if p < len(call.args)]
            refs += [kw.value for kw in call.keywords if kw.arg in row[1]]
            if any(_refers(r, wanted) for r in refs):
                out.append((scope, call))
    return out


def _refers(ref: ast.expr, wanted: tuple[str, str]) -> bool:
    owner, name = wanted
    if owner:
        return isinstance(ref, ast.Attribute) and isinstance(ref.value, ast.Name) and ref.value.id == owner \
            and ref.attr == name
    return isinstance(ref, ast.Name) and ref.id == name


def _computed(value: ast.expr) -> bool:
    """A value computed from names (a tracer inside the body), not a Python literal."""
    return any(isinstance(n, ast.Name) for n in ast.walk(value))


def _stored_outside(stmt: ast.Assign | ast.AugAssign | ast.AnnAssign, body: _Body) -> list[tuple[str, str]]:
    """What the statement stores outside the body, as (key, shown name): ``self.<attr>`` (the caller's
    object, for a method or a function nested in a method) and a name the body declares ``nonlocal``."""
    nonlocal_names = {n for s in ast.walk(body) if isinstance(s, ast.Nonlocal) for n in s.names}
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    out: list[tuple[str, str]] = []
    for target in targets:
        for t in (target.elts if isinstance(target, ast.Tuple) else [target]):
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                out.append((f"self.{t.attr}", f"self.{t.attr}"))
            elif isinstance(t, ast.Name) and t.id in nonlocal_names:
                out.append((t.id, t.id))
    return out


def _read_after(caller: ast.AST, target: str, line: int) -> ast.expr | None:
    """The first load of ``target`` (``self.<attr>`` or a plain name) in ``caller`` after ``line``,
    outside the functions nested in it, unless ``caller`` stores ``target`` again before it."""
    todo = list(ast.iter_child_nodes(caller))
    found: list[ast.expr] = []
    stores: list[int] = []
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        todo.extend(ast.iter_child_nodes(n))
        if getattr(n, "lineno", 0) <= line:
            continue
        if isinstance(n, (ast.Attribute, ast.Name)) and isinstance(n.ctx, ast.Store) and _names(n, target):
            stores.append(n.lineno)
            continue
        if target.startswith("self.") and isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) \
                and isinstance(n.value, ast.Name) and n.value.id == "self" and n.attr == target[5:]:
            found.append(n)
        elif not target.startswith("self.") and isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) \
                and n.id == target:
            found.append(n)
    first = min(found, key=lambda n: (n.lineno, n.col_offset)) if found else None
    if first is None or any(s < first.lineno for s in stores):
        return None
    return first


def _names(node: ast.Attribute | ast.Name, target: str) -> bool:
    if isinstance(node, ast.Attribute):
        return isinstance(node.value, ast.Name) and node.value.id == "self" and f"self.{node.attr}" == target
    return node.id == target
