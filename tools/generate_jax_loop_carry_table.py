"""Generate xlacheck/data/jax_loop_carry.json: which differences between a ``lax`` loop's initial
carry and the carry its body returns (and between ``lax.switch`` branch outputs) make the call raise,
measured on the installed JAX (CPU).

    python tools/generate_jax_loop_carry_table.py            # a few seconds, needs jax
    python tools/generate_jax_loop_carry_table.py --check    # exit 1 when the file is out of date

``lax.fori_loop``, ``lax.while_loop`` and ``lax.scan`` trace their body once and require the carry
it returns to have the same type as the carry it received: the same pytree structure, and for each
leaf the same shape and dtype (a weakly typed Python scalar may still be promoted to the body's
dtype); ``lax.cond``/``lax.switch`` branches must agree the same way (the ``branch.*`` probes).
Each probe runs one loop whose body changes the carry in one respect, once under
``jax.jit`` and once without it (the loop primitives trace their body either way), and records:

* ``init`` / ``body``: the initial carry and what the body returns for it, as source text;
* ``jit_error`` / ``eager_error``: the exception class and first line when the call raised under
  ``jax.jit`` / called directly, else null;
* ``raises``: ``jit_error`` is not null.

xlacheck reads the file through :mod:`xlacheck.jax_loop_carry` (no JAX import there); XLA330 asks
``raises("scalar.python_int_then_vector")`` instead of hard-coding what the loop accepts, and the
probes that pass (a Python scalar promoted to a float32 scalar, a carry kept at its shape) are the
near misses it must leave alone.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "jax_loop_carry.json"
SCHEMA_VERSION = 1

Probe = tuple[str, str, str, str, Callable[[], Callable[[Any], Any]]]


def build_probes() -> list[Probe]:  # noqa: PLR0915 - one flat list of probes reads best
    import jax.numpy as jnp
    from jax import lax

    probes: list[Probe] = []

    def probe(key: str, loop: str, init: str, body: str) -> Callable[[Callable[[], Any]], Callable[[], Any]]:
        def register(fn: Callable[[], Any]) -> Callable[[], Any]:
            probes.append((key, loop, init, body, fn))
            return fn
        return register

    # --- a Python scalar carry ---------------------------------------------------------------
    @probe("scalar.python_int_then_vector", "fori_loop", "0", "c - v[:, i] (float32[4])")
    def _() -> Any:
        return lambda v: lax.fori_loop(0, 3, lambda i, c: c - v[:, i], 0)  # noqa: XLA330 - must raise

    @probe("scalar.python_float_then_vector", "fori_loop", "0.0", "c - v[:, i] (float32[4])")
    def _() -> Any:
        return lambda v: lax.fori_loop(0, 3, lambda i, c: c - v[:, i], 0.0)  # noqa: XLA330 - must raise

    @probe("scalar.python_int_then_float32_scalar", "fori_loop", "0", "c - jnp.sum(v[:, i]) (float32[])")
    def _() -> Any:
        return lambda v: lax.fori_loop(0, 3, lambda i, c: c - jnp.sum(v[:, i]), 0)

    @probe("scalar.python_float_then_float32_scalar", "fori_loop", "0.0", "c + v[0, i] (float32[])")
    def _() -> Any:
        return lambda v: lax.fori_loop(0, 3, lambda i, c: c + v[0, i], 0.0)

    @probe("scalar.python_int_then_vector_scan", "scan", "0", "(c + x, None) with x float32[4]")
    def _() -> Any:
        return lambda v: lax.scan(lambda c, x: (c + x, None), 0, v)[0]

    @probe("scalar.python_float_then_vector_while", "while_loop", "(0, 0.0)", "(i + 1, c + v[i]) (float32[4])")
    def _() -> Any:
        return lambda v: lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, s[1] + v[s[0]]), (0, 0.0))

    # --- None --------------------------------------------------------------------------------
    @probe("none.then_array", "scan", "None", "(jnp.argmax(x), x) (int32[])")
    def _() -> Any:
        step = lambda c, x: (jnp.argmax(x), x)  # noqa: E731
        return lambda v: lax.scan(step, None, v)[1]  # noqa: XLA330 - must raise

    @probe("none.then_python_number", "scan", "None", "(1.5 * 2.0, x) (a Python float)")
    def _() -> Any:
        step = lambda c, x: (1.5 * 2.0, x)  # noqa: E731
        return lambda v: lax.scan(step, None, v)[1]  # noqa: XLA330 - must raise

    @probe("none.kept", "scan", "None", "(c, x) (None)")
    def _() -> Any:
        return lambda v: lax.scan(lambda c, x: (c, x), None, v)[1]

    # --- shape ---------------------------------------------------------------------------------
    @probe("shape.grown_by_concatenate", "fori_loop", "jnp.zeros((0, 4))",
           "jnp.concatenate([c, v[i][None, :]], axis=0)")
    def _() -> Any:
        def run(v: Any) -> Any:
            step = lambda i, c: jnp.concatenate([c, v[i][None, :]], axis=0)  # noqa: E731
            return lax.fori_loop(0, 3, step, jnp.zeros((0, 4)))  # noqa: XLA330 - must raise
        return run

    @probe("shape.grown_by_append", "scan", "jnp.zeros(0)", "(jnp.append(c, jnp.sum(x)), None)")
    def _() -> Any:
        step = lambda c, x: (jnp.append(c, jnp.sum(x)), None)  # noqa: E731
        return lambda v: lax.scan(step, jnp.zeros(0), v)[0]  # noqa: XLA330 - must raise

    @probe("shape.kept_by_at_set", "fori_loop", "jnp.zeros((3, 4))", "c.at[i].set(v[i])")
    def _() -> Any:
        return lambda v: lax.fori_loop(0, 3, lambda i, c: c.at[i].set(v[i]), jnp.zeros((3, 4)))

    @probe("shape.vector_then_column", "fori_loop", "jnp.zeros(4)", "c[:, None] + v[i][:, None]")
    def _() -> Any:
        return lambda v: lax.fori_loop(0, 3, lambda i, c: c[:, None] + v[i][:, None], jnp.zeros(4))  # noqa: XLA330

    @probe("shape.vector_then_scalar", "fori_loop", "jnp.zeros(4)", "jnp.sum(c + v[i])")
    def _() -> Any:
        return lambda v: lax.fori_loop(0, 3, lambda i, c: jnp.sum(c + v[i]), jnp.zeros(4))  # noqa: XLA330

    # --- structure -----------------------------------------------------------------------------
    @probe("structure.tuple_length", "fori_loop", "(0.0, 0.0)", "(c[0] + v[i, 0],)")
    def _() -> Any:
        return lambda v: lax.fori_loop(0, 3, lambda i, c: (c[0] + v[i, 0],), (0.0, 0.0))  # noqa: XLA330

    @probe("structure.tuple_same_length", "fori_loop", "(0.0, 0.0)", "(c[0] + v[i, 0], c[1])")
    def _() -> Any:
        return lambda v: lax.fori_loop(0, 3, lambda i, c: (c[0] + v[i, 0], c[1]), (0.0, 0.0))

    # --- dtype ---------------------------------------------------------------------------------
    @probe("dtype.int32_then_float32", "fori_loop", "jnp.zeros(4, jnp.int32)", "c + v[i]")
    def _() -> Any:
        return lambda v: lax.fori_loop(0, 3, lambda i, c: c + v[i], jnp.zeros(4, jnp.int32))

    @probe("dtype.bfloat16_then_float32", "fori_loop", "jnp.zeros(4, jnp.bfloat16)", "c + v[i]")
    def _() -> Any:
        return lambda v: lax.fori_loop(0, 3, lambda i, c: c + v[i], jnp.zeros(4, jnp.bfloat16))

    @probe("dtype.weak_float_list_then_float16", "scan", "[0.0] * 3",
           "[c[0] + x] + [a + b for a, b in zip(c[1:], c[:-1])] with x float16")
    def _() -> Any:
        def body(c: Any, x: Any) -> Any:
            return [c[0] + x] + [a + b for a, b in zip(c[1:], c[:-1])], None
        return lambda v: lax.scan(body, [0.0] * 3, v[0].astype(jnp.float16))[0]

    @probe("dtype.weak_float_single_then_float16", "scan", "0.0", "c + x with x float16")
    def _() -> Any:
        return lambda v: lax.scan(lambda c, x: (c + x, None), 0.0, v[0].astype(jnp.float16))[0]

    # --- lax.switch branch outputs (the same rule for branches: equal types) ------------------------
    @probe("branch.crop_against_whole", "switch", "v", "[lambda x: x, lambda x: x[1:-1, 1:]]")
    def _() -> Any:
        return lambda v: lax.switch(1, [lambda x: x, lambda x: x[1:-1, 1:]], v)  # noqa: XLA114 - must raise

    @probe("branch.reversed_against_whole", "switch", "v", "[lambda x: x, lambda x: x[::-1, :]]")
    def _() -> Any:
        return lambda v: lax.switch(1, [lambda x: x, lambda x: x[::-1, :]], v)

    return probes


def _error(call: Callable[[], Any]) -> str | None:
    try:
        out = call()
        import jax
        jax.block_until_ready(out)
    except Exception as e:  # noqa: BLE001 - the table records whatever the loop raises
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        return f"{type(e).__name__}: {first}"[:200]
    return None


def measure() -> dict[str, Any]:
    import jax
    import jax.numpy as jnp

    v = jnp.arange(12.0, dtype=jnp.float32).reshape(3, 4) / 10.0
    rows: dict[str, Any] = {}
    for key, loop, init, body, make in build_probes():
        fn = make()
        jit_error = _error(lambda fn=fn: jax.jit(fn)(v))
        eager_error = _error(lambda fn=fn: fn(v))
        rows[key] = {"loop": loop, "init": init, "body": body, "raises": jit_error is not None,
                     "jit_error": jit_error, "eager_error": eager_error}
    return {"schema_version": SCHEMA_VERSION, "jax_version": jax.__version__, "probes": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="exit 1 when --out differs from a new measurement")
    args = parser.parse_args(argv)
    text = json.dumps(measure(), indent=1, sort_keys=True) + "\n"
    if args.check:
        old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if old != text:
            print(f"{args.out} is out of date: run tools/generate_jax_loop_carry_table.py", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
