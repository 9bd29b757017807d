"""XLA114: ``lax.cond``/``lax.switch`` branches that evidently return arrays of different ranks, sizes or structures."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from xlacheck import jax_loop_carry
from xlacheck.analysis.calls import int_literal
from xlacheck.analysis.loop_carry import canonical
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.tables import JAX_REDUCTIONS, JAX_SHAPE_PRESERVING
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_COND = frozenset({"jax.lax.cond", "lax.cond"})
_SWITCH = frozenset({"jax.lax.switch", "lax.switch"})

_REDUCTION_MODULES = ("jax.numpy.", "jax.nn.", "jax.scipy.special.")


@dataclass(frozen=True)
class _Form:
    """An evident output form: a tuple of ``parts`` (None where a part is not judged), or an
    array whose rank is ``rank`` plus the rank of ``base`` (the operand it derives from;
    ``None``: an absolute rank). ``cut``: for an array of ``base``'s own rank, the leading axes a
    slice with a literal positive start or negative stop made shorter than ``base``'s (``()``: every
    axis has ``base``'s size; None: sizes not known)."""

    rank: int = 0
    base: str | None = None
    parts: tuple[_Form | None, ...] | None = None
    cut: tuple[int, ...] | None = None

    def describe(self) -> str:
        if self.parts is not None:
            return f"a tuple of {len(self.parts)}"
        if self.base is None:
            return "a scalar" if self.rank == 0 else f"rank {self.rank}"
        sign = "" if self.rank == 0 else f" {'+' if self.rank > 0 else '-'} {abs(self.rank)}"
        if self.rank == 0 and self.cut:
            return f"`{self.base}` cut shorter on axis {', '.join(map(str, self.cut))}"
        return f"rank of `{self.base}`{sign}"


def _difference(a: _Form, b: _Form) -> str | None:
    """How the two forms evidently differ, or None when they may agree."""
    if a.parts is not None or b.parts is not None:
        if a.parts is None or b.parts is None:
            return None  # an operand may itself be a tuple
        if len(a.parts) != len(b.parts):
            return f"{a.describe()} / {b.describe()}"
        for i, (pa, pb) in enumerate(zip(a.parts, b.parts)):
            inner = _difference(pa, pb) if pa is not None and pb is not None else None
            if inner is not None:
                return f"element {i}: {inner}"
        return None
    if (a.base is None and b.base is None) or a.base == b.base:
        if a.rank != b.rank:
            return f"{a.describe()} / {b.describe()}"
        if a.base is not None and a.rank == 0 and a.cut is not None and b.cut is not None and a.cut != b.cut:
            return f"{a.describe()} / {b.describe()}"  # an axis cut by a literal slice against its full size
    return None


def _slice_cut(parts: list[ast.expr], cut: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """The axes cut shorter after indexing an array whose cut axes are ``cut`` with ``parts``
    (all slices, leading axes), or None when a size is not known: a literal start > 0 or a
    negative literal stop shortens every non-empty axis (measured: probe
    ``branch.crop_against_whole``), ``:`` and ``::-1`` keep it (``branch.reversed_against_whole``)."""
    if cut is None or not all(isinstance(p, ast.Slice) for p in parts) \
            or not jax_loop_carry.raises("branch.crop_against_whole"):
        return None
    out = set(cut)
    for axis, p in enumerate(parts):
        assert isinstance(p, ast.Slice)
        step = int_literal(p.step) if p.step is not None else 1
        lower = int_literal(p.lower) if p.lower is not None else 0
        upper = int_literal(p.upper) if p.upper is not None else None
        if step not in (1, -1) or lower is None or (p.upper is not None and upper is None):
            return None
        if step == -1:
            if p.lower is not None or p.upper is not None:
                return None
            continue
        if lower > 0 or (upper is not None and upper < 0):
            out.add(axis)
        elif lower != 0 or upper is not None:
            return None  # `x[:k]`: as long as the axis when it has at most k elements
    return tuple(sorted(out))


class LaxBranchOutputMismatch(ModuleRule):
    """
    ## What it does
    Flags `lax.cond` and `lax.switch` calls whose branch functions (lambdas or functions of this
    file with one kind of return, given the operands or closing over names of the call's scope:
    `lambda: clip[2:]` against `lambda: clip`) evidently return different forms: tuples of different lengths,
    or arrays whose ranks differ relative to the same operand (`jnp.mean(v, axis=0)` in one
    branch, `v` in the other) or in absolute terms (a full reduction against `v[None]`). Ranks
    are followed through element-wise functions, arithmetic, reductions with and without
    `axis`/`keepdims`, integer indexing and `None` axes; anything else is not judged. Arrays of
    the operand's own rank are also compared axis by axis where slices prove a size: a slice with
    a literal start above 0 or a negative literal stop (`img[2:-2]`) makes a non-empty axis
    shorter than the operand's, while `:` and `::-1` keep it (measured probes `branch.*` of
    `xlacheck/data/jax_loop_carry.json`); `img[:8]` against `img` is not judged.

    ## Why is this bad?
    Every branch of `lax.cond`/`lax.switch` is traced, and their outputs must have the same tree
    structure, shapes and dtypes: otherwise the call raises `TypeError: switch branches must have
    equal output types` (or `cond branches ...`), under `jax.jit` and eagerly alike (measured on
    jax 0.10.2).

    ## Example
    ```python
    def pool(x, mode):
        return lax.switch(mode, [lambda v: jnp.mean(v, axis=0), lambda v: v], x)
    ```

    ## Use instead
    ```python
    def pool(x, mode):
        return lax.switch(mode, [lambda v: jnp.mean(v, axis=0, keepdims=True) * jnp.ones_like(v),
                                 lambda v: v], x)
    ```

    ## Fix safety
    Where the index (or predicate) is made of parameters of a `@jax.jit` function, an unsafe fix
    marks them static and picks the branch in Python
    (`(f, g)[min(max(int(mode), 0), 1)](x)`, clamped as `lax.switch` clamps): only the branch
    taken is traced, and it computes what the call would have; each new value compiles the
    function anew, and a caller that passes an array there raises (static arguments must be
    hashable). Otherwise no automatic fix: which shape the branches should agree on is the model's
    choice.
    """

    code = "XLA114"
    fix = ("rewrite_jax_static_branch",)
    name = "lax-branch-output-mismatch"

    VALID = (
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef f(x, p):\n"
                "    return lax.cond(p, lambda v: jnp.tanh(v) * 2.0, lambda v: v, x)\n"),
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef f(x, i):\n"
                "    return lax.switch(i, [lambda v: v.sum(axis=0, keepdims=True), lambda v: v[:1]], x)\n"),
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef f(x, p):\n"
                "    return lax.cond(p, lambda v: v.sum(), lambda v: v, x)\n"),
        Example("from jax import lax\ndef f(img, i):\n"
                "    return lax.switch(i, [lambda v: v, lambda v: v[:, ::-1], lambda v: -v[:]], img)\n"),
        # Kinetix ppo.py: `*rest[1:]` unpacks six more, so both branches return eight
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef run(p, x):\n"
                "    def real(v):\n        rest = (v, v + 1.0, v * 2.0)\n        return (v, True, *rest[1:])\n"
                "    def fake(v):\n        return (v, False, jnp.zeros_like(v), jnp.ones_like(v))\n"
                "    return lax.cond(p, real, fake, x)\n"),
    )
    INVALID = (
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef pool(x, mode):\n"
                "    return lax.switch(mode, [lambda v: jnp.mean(v, axis=0), lambda v: v], x)\n",
                expected=(
                    (4, 12, 'branches of lax.switch return different forms (branch 0 / branch 1: rank of `x` - 1 / '
                            'rank of `x`): every branch must return the same structure, shapes and dtypes (TypeError: '
                            'branches must have equal output types); make them agree (keepdims=True, broadcasting, or '
                            'the same tuple)'),
                )),
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef _keep(h):\n    return h, jnp.zeros(())\n"
                "def _drop(h):\n    return h, jnp.zeros((1,))\n"
                "def step(h, p):\n    return lax.cond(p, _keep, _drop, h)\n",
                expected=(
                    (8, 12, 'branches of lax.cond return different forms (true_fun / false_fun: element 1: a scalar '
                            '/ rank 1): every branch must return the same structure, shapes and dtypes (TypeError: '
                            'branches must have equal output types); make them agree (keepdims=True, broadcasting, or '
                            'the same tuple)'),
                )),
        Example("import jax\nimport jax.numpy as jnp\nfrom jax import lax\n@jax.jit\ndef pool(x, mode):\n"
                "    return lax.switch(mode, [lambda v: jnp.mean(v, axis=0), lambda v: v], x)\n",
                fixed="import functools\nimport jax\nimport jax.numpy as jnp\nfrom jax import lax\n"
                      "@functools.partial(jax.jit, static_argnames=(\"mode\",))\ndef pool(x, mode):\n"
                      "    return (lambda v: jnp.mean(v, axis=0), lambda v: v)[min(max(int(mode), 0), 1)](x)\n",
                expected=(
                    (6, 12, 'branches of lax.switch return different forms (branch 0 / branch 1: rank of `x` - 1 / '
                            'rank of `x`): every branch must return the same structure, shapes and dtypes (TypeError: '
                            'branches must have equal output types); make them agree (keepdims=True, broadcasting, or '
                            'the same tuple)'),
                )),
        Example("from jax import lax\ndef identity(img):\n    return img\ndef centre_crop(img):\n"
                "    return img[2:-2, 2:-2, :]\ndef augment(image, k):\n"
                "    return lax.switch(k, [identity, centre_crop], image)\n",
                expected=(
                    (7, 12, 'branches of lax.switch return different forms (branch 0 / branch 1: rank of `image` / '
                            '`image` cut shorter on axis 0, 1): every branch must return the same structure, shapes '
                            'and dtypes (TypeError: branches must have equal output types); make them agree '
                            '(keepdims=True, broadcasting, or the same tuple)'),
                )),
        Example("import jax\nfrom jax import lax\n@jax.jit\ndef crop(clip, needs_crop):\n    clip = clip / 255.0\n"
                "    return lax.cond(needs_crop, lambda: clip[:, 1:-1], lambda: clip)\n",
                fixed="import functools\nimport jax\nfrom jax import lax\n"
                      "@functools.partial(jax.jit, static_argnames=(\"needs_crop\",))\ndef crop(clip, needs_crop):\n"
                      "    clip = clip / 255.0\n"
                      "    return ((lambda: clip[:, 1:-1]) if needs_crop else (lambda: clip))()\n",
                expected=(
                    (6, 12, 'branches of lax.cond return different forms (true_fun / false_fun: `clip` cut shorter on '
                            'axis 1 / rank of `clip`): every branch must return the same structure, shapes and dtypes '
                            '(TypeError: branches must have equal output types); make them agree (keepdims=True, '
                            'broadcasting, or the same tuple)'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        for call, name in index.calls:
            if name in _COND:
                if len(call.args) < 3 or any(isinstance(a, ast.Starred) for a in call.args) \
                        or len(call.args) == 5 and not isinstance(call.args[1], (ast.Lambda, ast.Name)):
                    continue  # (the old five-argument form passes operands between the functions)
                branches = [("true_fun", call.args[1]), ("false_fun", call.args[2])]
                operands = call.args[3:]
            elif name in _SWITCH:
                if len(call.args) < 2 or not isinstance(call.args[1], (ast.List, ast.Tuple)) \
                        or any(isinstance(a, ast.Starred) for a in call.args):
                    continue
                branches = [(f"branch {i}", b) for i, b in enumerate(call.args[1].elts)]
                operands = call.args[2:]
            else:
                continue
            if call.keywords:
                continue
            funcs = [(label, self._branch_function(index, fn)) for label, fn in branches]
            # a free name of a branch is the value the call's scope binds to it when every branch is
            # defined there (a lambda in the call, a def beside it): one value in all of them
            shared = all(f is not None and index.scope_of(f) is index.scope_of(call) for _, f in funcs)
            forms = [(label, self._branch_form(index, f, operands, shared)) for label, f in funcs]
            known = [(label, f) for label, f in forms if f is not None]
            short = "lax.switch" if name in _SWITCH else "lax.cond"
            for i, (la, fa) in enumerate(known):
                found = next(((lb, d) for lb, fb in known[i + 1:] if (d := _difference(fa, fb)) is not None), None)
                if found is None:
                    continue
                lb, how = found
                ctx.report(self, call, f"branches of {short} return different forms ({la} / {lb}: {how}): every "
                                       "branch must return the same structure, shapes and dtypes (TypeError: "
                                       "branches must have equal output types); make them agree (keepdims=True, "
                                       "broadcasting, or the same tuple)")
                break

    # -- a branch's output form --------------------------------------------------------------
    @staticmethod
    def _branch_function(index: ModuleIndex, fn: ast.expr) -> ast.Lambda | ast.FunctionDef | None:
        """The lambda or the function of this file (defined once) a branch argument names."""
        if isinstance(fn, ast.Lambda):
            return fn
        if isinstance(fn, ast.Name):
            defs = [n for n in ast.walk(index.tree) if isinstance(n, ast.FunctionDef) and n.name == fn.id]
            return defs[0] if len(defs) == 1 else None
        return None

    def _branch_form(self, index: ModuleIndex, func: ast.Lambda | ast.FunctionDef | None,
                     operands: list[ast.expr], shared: bool) -> _Form | None:
        """``shared``: every branch closes over the same scope, so a free name (`lambda: clip[2:]`,
        `lambda: clip`) is one value in all of them and serves as a base like an operand."""
        if func is None or func.args.vararg or func.args.kwonlyargs or func.args.posonlyargs:
            return None
        params = [a.arg for a in func.args.args]
        if len(params) != len(operands):
            return None
        names = {p: ast.unparse(op) if isinstance(op, ast.Name) else f"operand {i}"
                 for i, (p, op) in enumerate(zip(params, operands))}
        traced = set(params)
        if isinstance(func, ast.Lambda):
            returns = [func.body]
        else:
            if any(isinstance(n, (ast.For, ast.While, ast.If, ast.With, ast.Try, ast.Match))
                   for n in index.scope_nodes(func)):
                return None  # control flow: not judged
            # names bound in the body (`h, c = state`) are not followed: their forms are unknown
            traced -= {n.id for n in index.scope_nodes(func)
                       if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            found = [n.value for n in index.scope_nodes(func) if isinstance(n, ast.Return)]
            if not found or any(r is None for r in found):
                return None
            returns = [r for r in found if r is not None]
        if shared:
            bound = set(params) | {n.id for n in index.scope_nodes(func)
                                   if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
            free = {n.id for r in returns for n in ast.walk(r) if isinstance(n, ast.Name)} - bound
            names.update((name, name) for name in free)
            traced |= free
        forms = {self._form(index, r, names, traced) for r in returns}
        return forms.pop() if len(forms) == 1 else None

    def _form(self, index: ModuleIndex, e: ast.expr, names: dict[str, str], params: set[str]) -> _Form | None:
        resolve = index.aliases.resolve
        if isinstance(e, ast.Tuple) and any(isinstance(x, ast.Starred) for x in e.elts):
            return None  # `(first, *rest[1:])`: as long as what it unpacks, which is not followed
        if isinstance(e, ast.Tuple):
            return _Form(parts=tuple(self._form(index, x, names, params) for x in e.elts))
        if isinstance(e, ast.Name):
            if e.id in params:
                return _Form(base=names[e.id], cut=())
            return None  # an outer name: its rank is not followed
        if isinstance(e, ast.Constant) and type(e.value) in (int, float):
            return _Form()
        if isinstance(e, ast.UnaryOp):
            return self._form(index, e.operand, names, params)
        if isinstance(e, ast.BinOp) and not isinstance(e.op, ast.MatMult):
            a, b = self._form(index, e.left, names, params), self._form(index, e.right, names, params)
            if a is None or b is None or a.parts is not None or b.parts is not None:
                return None
            if a.base is None and a.rank == 0:
                return b
            if b.base is None and b.rank == 0:
                return a
            if a.base == b.base:
                return _Form(rank=max(a.rank, b.rank), base=a.base, cut=a.cut if a == b else None)
            return None
        if isinstance(e, ast.Subscript):
            return self._indexed(index, e, names, params)
        if not isinstance(e, ast.Call) or any(isinstance(a, ast.Starred) for a in e.args) \
                or any(k.arg is None for k in e.keywords):
            return None
        name = resolve(e.func)
        if name is not None:
            full = canonical(name)
            if full in JAX_SHAPE_PRESERVING and e.args:
                return self._form(index, e.args[0], names, params)
            short = next((full[len(m):] for m in _REDUCTION_MODULES if full.startswith(m)), None)
            if short in JAX_REDUCTIONS and e.args:
                return self._reduced(index, e.args[0], e.args[1] if len(e.args) > 1 else None, e, names, params)
            if name in ("jnp.zeros", "jnp.ones", "jnp.empty") and e.args:
                shape = e.args[0]
                if isinstance(shape, (ast.Tuple, ast.List)):
                    return _Form(rank=len(shape.elts))
                if isinstance(shape, ast.Constant) and isinstance(shape.value, int):
                    return _Form(rank=1)
            return None
        if isinstance(e.func, ast.Attribute) and resolve(e.func.value) is None:
            method = e.func.attr
            if method in JAX_REDUCTIONS:
                return self._reduced(index, e.func.value, e.args[0] if e.args else None, e, names, params)
            if method in ("astype", "clip", "round", "conj"):
                return self._form(index, e.func.value, names, params)
        return None

    def _reduced(self, index: ModuleIndex, value: ast.expr, axis: ast.expr | None, call: ast.Call,
                 names: dict[str, str], params: set[str]) -> _Form | None:
        base = self._form(index, value, names, params)
        if base is None or base.parts is not None:
            return None
        for k in call.keywords:
            if k.arg == "axis":
                axis = k.value
            elif k.arg == "keepdims":
                if not (isinstance(k.value, ast.Constant) and k.value.value is False):
                    kept = isinstance(k.value, ast.Constant) and k.value.value is True
                    return _Form(rank=base.rank, base=base.base) if kept else None  # sizes: not known
            elif k.arg not in ("dtype", "where", "ddof"):
                return None
        if axis is None or isinstance(axis, ast.Constant) and axis.value is None:
            return _Form()
        if isinstance(axis, ast.Constant) and isinstance(axis.value, int) and not isinstance(axis.value, bool):
            return _Form(rank=base.rank - 1, base=base.base)
        if isinstance(axis, ast.Tuple) and all(isinstance(a, ast.Constant) and isinstance(a.value, int)
                                               for a in axis.elts):
            return _Form(rank=base.rank - len(axis.elts), base=base.base)
        return None

    def _indexed(self, index: ModuleIndex, e: ast.Subscript, names: dict[str, str], params: set[str]) -> _Form | None:
        base = self._form(index, e.value, names, params)
        if base is None or base.parts is not None:
            return None
        parts = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
        delta = 0
        cut = _slice_cut(parts, base.cut) if base.rank == 0 else None
        for p in parts:
            if isinstance(p, ast.Slice):
                continue
            if isinstance(p, ast.Constant) and p.value is None:
                delta += 1
            elif isinstance(p, ast.Constant) and isinstance(p.value, int) and not isinstance(p.value, bool):
                delta -= 1
            elif isinstance(p, ast.Constant) and p.value is Ellipsis:
                continue
            else:
                return None
        return _Form(rank=base.rank + delta, base=base.base, cut=cut if delta == 0 else None)
