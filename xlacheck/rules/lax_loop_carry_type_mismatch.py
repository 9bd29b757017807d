"""XLA330: a ``lax.fori_loop``/``while_loop``/``scan`` body that provably returns its carry with
another structure or shape than the carry it received."""

from __future__ import annotations

import ast

from xlacheck import jax_loop_carry
from xlacheck.analysis.loop_carry import FORI_LOOP, SCAN, WHILE_LOOP, CarryModel, loop_parts
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_LOOPS = FORI_LOOP | WHILE_LOOP | SCAN


class LaxLoopCarryTypeMismatch(ModuleRule):
    """
    ## What it does
    Flags `lax.fori_loop`, `lax.while_loop` and `lax.scan` calls whose body (a lambda or a
    function of this file defined once) provably returns the carry with another type than the
    initial carry: a tuple of another length; an element that starts as `None` and comes back as
    an array or a number (arithmetic); an element that starts as a Python number and comes back as
    an array of rank 1 or more (`energy - s[:, i]`); an element that starts filled with a literal
    shape (`jnp.zeros(4)`) and comes back with a higher rank (`c[:, None]`) or as a full reduction
    (`jnp.sum(c + x)`); an element the body concatenates onto (`jnp.concatenate([hist,
    x[None]])`, `jnp.append(hist, x)`), so that it grows every iteration. Each of these is a
    measured probe of `xlacheck/data/jax_loop_carry.json` that raises; what the model cannot
    prove (names from outside the body, other functions' results, bindings inside control flow)
    is not judged, and a Python scalar that comes back as a scalar is left alone (the loop
    promotes it, also measured).

    ## Why is this bad?
    The loop traces its body once and requires the returned carry to have the type of the carry
    it received, the same pytree structure and for each leaf the same shape and dtype; otherwise
    it raises `TypeError: scan body function carry input and carry output must have equal types`
    (or `... the same pytree structure`), under `jax.jit` and when called directly (measured on
    jax 0.10.2; only `jax.disable_jit()` runs the body as a Python loop and hides it).

    ## Example
    ```python
    def chain_energy(spins):
        def body(i, carry):
            energy, s = carry
            return energy - s[:, i] * s[:, i + 1], s
        return lax.fori_loop(0, spins.shape[1] - 1, body, (0, spins))[0]
    ```

    ## Use instead
    ```python
    def chain_energy(spins):
        def body(i, carry):
            energy, s = carry
            return energy - s[:, i] * s[:, i + 1], s
        energy0 = jnp.zeros(spins.shape[0], spins.dtype)
        return lax.fori_loop(0, spins.shape[1] - 1, body, (energy0, spins))[0]
    ```

    ## Fix safety
    No automatic fix: the initial carry must be built with the shape and dtype the body returns,
    which only the model's author knows (preallocate a history and write it with `.at[i].set`).
    """

    code = "XLA330"
    fix = None
    name = "lax-loop-carry-type-mismatch"

    VALID = (
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef f(v):\n"
                "    return lax.fori_loop(0, 3, lambda i, c: c - jnp.sum(v[:, i]), 0)\n"),
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef f(v):\n"
                "    return lax.fori_loop(0, 3, lambda i, c: c.at[i].set(v[i]), jnp.zeros((3, 4)))\n"),
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef f(xs):\n"
                "    return lax.scan(lambda c, x: (c, x), None, xs)[1]\n"),
        Example("from jax import lax\ndef f(v, w):\n"
                "    return lax.fori_loop(0, 3, lambda i, c: c + w[i], 0.0)\n"),
    )
    INVALID = (
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef chain_energy(spins):\n"
                "    def body(i, carry):\n        energy, s = carry\n"
                "        return energy - s[:, i] * s[:, i + 1], s\n"
                "    return lax.fori_loop(0, spins.shape[1] - 1, body, (0, spins))[0]\n",
                expected=(
                    (7, 12, "the carry of lax.fori_loop changes type in its body (element 0: it starts as the "
                            "Python scalar `0` and the body returns an array of rank >= 1): the body must return "
                            "the carry with the structure, shapes and dtypes it received (TypeError: body function "
                            "carry input and carry output must have equal types); build the initial carry with the "
                            "body's output shape and dtype"),
                )),
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef history(v):\n"
                "    def step(i, hist):\n        return jnp.concatenate([hist, v[i][None, :]], axis=0)\n"
                "    return lax.fori_loop(0, 3, step, jnp.zeros((0, 4)))\n",
                expected=(
                    (6, 12, "the carry of lax.fori_loop changes type in its body (the body concatenates onto it, "
                            "so its shape grows every iteration): the body must return the carry with the "
                            "structure, shapes and dtypes it received (TypeError: body function carry input and "
                            "carry output must have equal types); build the initial carry with the body's output "
                            "shape and dtype"),
                )),
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef decode(xs):\n"
                "    return lax.scan(lambda prev, x: (jnp.argmax(x), x), None, xs)[1]\n",
                expected=(
                    (4, 12, "the carry of lax.scan changes type in its body (it starts as `None` and the body "
                            "returns an array): the body must return the carry with the structure, shapes and "
                            "dtypes it received (TypeError: body function carry input and carry output must have "
                            "equal types); build the initial carry with the body's output shape and dtype"),
                )),
        Example("from jax import lax\ndef f(v):\n"
                "    return lax.fori_loop(0, 3, lambda i, c: (c[0] + v[i, 0],), (0.0, 0.0))\n",
                expected=(
                    (3, 12, "the carry of lax.fori_loop changes type in its body (a tuple of 2 goes in, one of 1 "
                            "comes out): the body must return the carry with the structure, shapes and dtypes it "
                            "received (TypeError: body function carry input and carry output must have equal "
                            "types); build the initial carry with the body's output shape and dtype"),
                )),
        Example("import jax.numpy as jnp\nfrom jax import lax\ndef energy(xs):\n"
                "    def step(total, x):\n        return jnp.sum(total + x ** 2), x\n"
                "    return lax.scan(step, jnp.zeros(4), xs)[0]\n",
                expected=(
                    (6, 12, "the carry of lax.scan changes type in its body (it starts as `jnp.zeros(4)`, rank 1, "
                            "and the body returns a full reduction): the body must return the carry with the "
                            "structure, shapes and dtypes it received (TypeError: body function carry input and "
                            "carry output must have equal types); build the initial carry with the body's output "
                            "shape and dtype"),
                )),
        Example("from jax import lax\ndef running(xs):\n"
                "    return lax.scan(lambda acc, x: (x * 0.5, x), None, xs)[1]\n",
                expected=(
                    (3, 12, "the carry of lax.scan changes type in its body (it starts as `None` and the body "
                            "returns a number or an array): the body must return the carry with the structure, "
                            "shapes and dtypes it received (TypeError: body function carry input and carry output "
                            "must have equal types); build the initial carry with the body's output shape and "
                            "dtype"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        loops = [(call, name) for call, name in index.calls if name in _LOOPS]
        if not loops:
            return
        defs: dict[str, list[ast.FunctionDef]] = {}
        for node in ast.walk(index.tree):
            if isinstance(node, ast.FunctionDef):
                defs.setdefault(node.name, []).append(node)

        def function_def(name: str) -> ast.FunctionDef | None:
            found = defs.get(name, [])
            return found[0] if len(found) == 1 else None

        resolve = index.aliases.resolve
        for call, name in loops:
            parts = loop_parts(call, name, function_def)
            if parts is None:
                continue
            model = CarryModel(parts, resolve, function_def)
            outs = model.returned()
            if not outs:
                continue
            found = [model.mismatch(out, env) for out, env in outs]
            first = found[0]
            if first is None or any(f is None for f in found) or not jax_loop_carry.raises(first.key):
                continue
            where = f"element {'.'.join(map(str, first.path))}: " if first.path else ""
            ctx.report(self, call, f"the carry of lax.{parts.loop} changes type in its body ({where}{first.detail}): "
                                   "the body must return the carry with the structure, shapes and dtypes it "
                                   "received (TypeError: body function carry input and carry output must have "
                                   "equal types); build the initial carry with the body's output shape and dtype")
