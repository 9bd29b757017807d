"""How much of the API surface that the generated tables say fails under XLA do the rules flag?

For every entry of the TensorFlow tables (``xlacheck/data/tf_api.json``, ``tf_xla_ops.json``,
``tf_xla_divergence.json``) and of the JAX table (``jax_api.json``) whose verdict says that a use
fails or computes another result under XLA, this script writes the minimal use a model would write,
with the arguments the table's probing call passed (``called_with``, in ``params`` order), in every
public spelling the table records for that object (``alias_of``: ``tf.X``, ``tf.math.X``,
``tf.compat.v1.X``, ``keras.ops.X``), and in two compiled contexts:

- ``tf.function``: the use inside ``@tf.function(jit_compile=True)`` (``jax.jit`` for JAX);
- ``keras``: the use inside the ``call`` of a layer of a model compiled with ``jit_compile=True``.

It lints each with :func:`xlacheck.engine.check_source` (default rules, no ``--jit-compiled``) and
counts a use as flagged when it gets at least one finding. Families (a verdict each):

- ``kernel``: the forward creates an op without an XLA kernel (``unsupported``; layer classes are
  built in ``__init__`` and called);
- ``grad``: the gradient needs an op without a kernel (``grad_xla: false``, ``grad_conditions``,
  the op table's ``grad_unsupported``): the use is differentiated with ``tf.GradientTape`` (in
  the Keras model, the op's input comes from a ``Dense`` layer and the model is trained: ``fit``);
- ``const``: an argument that must be a compile-time constant (``const_args``/``py_args``, under
  ``const_unless``) is given a tensor computed from data (``tf.reduce_max(data)``), positionally
  when the probing call passed every argument before it, and by keyword;
- ``shape``: a result whose shape depends on data (:meth:`ApiFact.shape_depends_on_data`) reaches a
  place that needs a static size: its first static dimension used as a number (``y.shape[0]`` is
  None while tracing; its dynamic size, ``tf.shape(y)[0]``, compiles as a bounded dynamic shape);
- ``dtype``: the operand the op table's dtype probe varied is cast, right before the call, to a
  dtype whose XLA:CPU kernel the probe measured missing (``api[name]["dtypes"]["fail"]``:
  ``tf.math.cumsum`` of an ``int8`` tensor);
- ``divergence``: an input class under which XLA's result differs from TensorFlow's (``differs``,
  ``eager_error``, ``xla_error`` in the divergence table), with the input made where the class
  can be written (a NaN from ``0/0``, a sum over a mask as the denominator, for ``nan`` and
  ``nan_from_zero_division``, and for ``narrowing_cast``, where that NaN is cast to ``tf.int32``; a
  tensor otherwise);
- JAX ``jax-shape`` (``jit: false`` with ``data_dependent_shape``, the table's measured cause, or a
  concretization error class with a measured size argument: a data-dependent result shape;
  ``jax-sized`` is its near miss, the same call with ``sized_by``/``lifted_by`` given: it compiles),
  ``jax-host`` (``jit: false`` converting a tracer to a host value for another cause:
  ``jnp.array_str``, ``jnp.choose``'s bounds check), ``jax-const`` (``static_args`` given a traced
  value), ``jax-numpy`` (NumPy functions that fail on a tracer: ``numpy_on_tracer.fails``),
  ``jax-literal`` (a ``jax-shape`` call with one array argument spelled ``0``: it fails while an
  argument of the table's ``shape_args`` stays traced; ``jax-literal-static``: none does, it compiles).

The negative side (``clean`` families) writes the same uses for entries that compile (``xla:
true``, the gradient too where measured, no constant argument given a tensor, no data-dependent
shape, no divergence probe): every finding there is false.

    python benchmarks/api_coverage.py [--list] [--family NAME] [--sample N] [--by-context] [--json]

Prints per family: entries (objects), uses (spellings x contexts x forms), uses flagged, entries
with every use flagged, and the codes seen; ``--list`` lists the unflagged uses (and the findings of
the clean families). ``tf.raw_ops.*`` entries are left out (a model spells the public function).
"""

from __future__ import annotations

import argparse
import collections
import json
import keyword
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from xlacheck.engine import check_source  # noqa: E402

DATA = ROOT / "xlacheck" / "data"
_DIVERGENT = {"differs", "eager_error", "xla_error"}
_SKIP_PARAMS = {"name"}


@dataclass(frozen=True)
class Use:
    family: str
    entry: str  # canonical table name
    spelling: str
    context: str
    form: str
    source: str
    expect_flag: bool


def _load(name: str) -> dict:
    with open(DATA / name, encoding="utf-8") as fh:
        return json.load(fh)


def _canonical(name: str, entries: dict) -> str:
    seen = {name}
    while name in entries and "alias_of" in entries[name]:
        name = entries[name]["alias_of"]
        if name in seen:
            break
        seen.add(name)
    return name


def _spellings(entries: dict) -> dict[str, list[str]]:
    """canonical -> every public name that is the same object (the canonical first)."""
    out: dict[str, list[str]] = collections.defaultdict(list)
    for name in entries:
        if name.startswith(("tf.raw_ops.", "tf.compat.v1.raw_ops.")):
            continue
        out[_canonical(name, entries)].append(name)
    return {k: sorted(v, key=lambda n: (n != k, n)) for k, v in out.items()}


def _ident(param: str) -> str:
    p = param.strip("*")
    return f"{p}_" if keyword.iskeyword(p) or p in {"self", "tf", "keras", "jnp", "jax", "lax", "np", "data"} else p


def _literal(param: str) -> str:
    if "dtype" in param:
        return "tf.float32"
    if param in {"axis", "dim", "dimension", "num", "k", "depth", "num_segments", "minlength", "maxlength"}:
        return "1"
    return "2"


@dataclass
class Call:
    text: str
    tensors: list[str]  # function parameters the call reads


def _call(spelling: str, params: list[str], called_with: list[str] | None, static: set[str],
          extra_kw: dict[str, str] | None = None, jax: bool = False) -> Call:
    """``spelling(args)`` with the probing call's arguments: tensors (function parameters) for
    the data arguments, literals for the static ones."""
    first = [p for p in params if p not in _SKIP_PARAMS][:1]
    given = [p for p in (called_with if called_with is not None else first or ["x"]) if p not in _SKIP_PARAMS]
    order = params or given
    positional: list[str] = []
    keywords: list[str] = []
    tensors: list[str] = []
    by_keyword = False
    for p in given:
        if p not in order or (order.index(p) != len(positional)):
            by_keyword = True
        if p in static:
            value = _literal(p).replace("tf.float32", "jnp.float32") if jax else _literal(p)
        else:
            value = _ident(p)
            tensors.append(value)
        if by_keyword:
            keywords.append(f"{p}={value}")
        else:
            positional.append(value)
    for k, v in (extra_kw or {}).items():
        keywords.append(f"{k}={v}")
    return Call(f"{spelling}({', '.join(positional + keywords)})", tensors)


def _add_keyword(call: str, keyword_arg: str) -> str:
    """``f(a)`` -> ``f(a, k=n)``; ``f()`` -> ``f(k=n)``."""
    return call[:-1] + (", " if not call.endswith("()") else "") + keyword_arg + ")"


def _imports(spelling: str) -> str:
    lines = ["import tensorflow as tf"]
    if spelling.startswith("keras."):
        lines.append("import keras")
    return "\n".join(lines) + "\n"


def _tf_function(spelling: str, params: list[str], body: list[str]) -> str:
    head = _imports(spelling) + "\n\n@tf.function(jit_compile=True)\n"
    return head + f"def step({', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body)


def _keras(spelling: str, params: list[str], body: list[str], train: bool = False) -> str:
    k = "keras" if spelling.startswith("keras.") else "tf.keras"
    inputs = params[0] if len(params) == 1 else "inputs"
    unpack = [] if len(params) == 1 else [f"{', '.join(params)} = inputs"]
    lines = [_imports(spelling), "", f"class Block({k}.layers.Layer):"]
    if train:  # a trainable layer upstream, so the backward pass reaches the op
        lines += ["    def __init__(self):", "        super().__init__()",
                  f"        self.proj = {k}.layers.Dense(4)", ""]
        unpack.append(f"{params[0]} = self.proj({params[0]})")
    lines += [f"    def call(self, {inputs}):"]
    lines += [f"        {line}" for line in unpack + body]
    lines += ["", "", f"inputs = {k}.Input(shape=(4,))", f"model = {k}.Model(inputs, Block()(inputs))",
              "model.compile(optimizer=\"adam\", loss=\"mse\", jit_compile=True)"]
    if train:
        lines.append("model.fit(features, labels, epochs=1)")
    return "\n".join(lines) + "\n"


def _layer_keras(spelling: str) -> str:
    k = "keras" if spelling.startswith("keras.") else "tf.keras"
    return (_imports(spelling) + f"\n\nclass Block({k}.layers.Layer):\n    def __init__(self):\n"
            f"        super().__init__()\n        self.op = {spelling}()\n\n    def call(self, x):\n"
            f"        return self.op(x)\n\n\ninputs = {k}.Input(shape=(4,))\n"
            f"model = {k}.Model(inputs, Block()(inputs))\n"
            "model.compile(optimizer=\"adam\", loss=\"mse\", jit_compile=True)\n")


def _layer_function(spelling: str) -> str:
    return (_imports(spelling) + f"\nop = {spelling}()\n\n\n@tf.function(jit_compile=True)\ndef step(x):\n"
            "    return op(x)\n")


def _helper(spelling: str, params: list[str], body: list[str]) -> str:
    """The use in a module-level helper that a compiled step calls with its tensors."""
    args = ", ".join(params)
    return (_imports(spelling) + f"\n\ndef helper({args}):\n" + "".join(f"    {line}\n" for line in body)
            + f"\n\n@tf.function(jit_compile=True)\ndef step({args}):\n    return helper({args})\n")


def _map_fn(spelling: str, params: list[str], body: list[str]) -> str:
    """The use in the body of a ``tf.map_fn`` inside a compiled step (one row of each tensor)."""
    args = ", ".join(params)
    if len(params) == 1:
        head, elems = [f"    def per_row({params[0]}):"], params[0]
    else:
        head, elems = ["    def per_row(elems):", f"        {args} = elems"], f"({args})"
    return (_imports(spelling) + f"\n\n@tf.function(jit_compile=True)\ndef step({args}):\n"
            + "\n".join(head) + "\n" + "".join(f"        {line}\n" for line in body)
            + f"    return tf.map_fn(per_row, {elems})\n")


# The contexts every failing and clean use is written in. ``tf.function`` and ``keras`` are the two
# the summary has always counted; ``helper`` (a module-level function the compiled step calls with
# its tensors) and ``map_fn`` (the body of a ``tf.map_fn`` in the step) test that a value's kind and
# the compiled context follow calls and functional-op bodies (``--contexts`` picks).
CONTEXTS = ("tf.function", "keras", "helper", "map_fn")
_ACTIVE_CONTEXTS: set[str] = set(CONTEXTS)


def _both(family: str, entry: str, spelling: str, form: str, params: list[str], body: list[str],
          expect: bool, train_keras: bool = False) -> list[Use]:
    writers = {
        "tf.function": lambda: _tf_function(spelling, params, body),
        "keras": lambda: _keras(spelling, params, body, train_keras),
        "helper": lambda: _helper(spelling, params, body),
        "map_fn": lambda: _map_fn(spelling, params, body),
    }
    return [Use(family, entry, spelling, ctx, form, writers[ctx](), expect)
            for ctx in CONTEXTS if ctx in _ACTIVE_CONTEXTS]


def _grad_body(call: Call, extra: list[str] | None = None) -> list[str]:
    x = call.tensors[0] if call.tensors else "x"
    return ["with tf.GradientTape() as tape:", f"    tape.watch({x})", *[f"    {e}" for e in extra or ()],
            f"    out = {call.text}", "    loss = tf.reduce_sum(out)", f"return tape.gradient(loss, {x})"]


def tf_uses() -> list[Use]:
    api = _load("tf_api.json")["entries"]
    ops = _load("tf_xla_ops.json")["api"]
    div = _load("tf_xla_divergence.json")["entries"]
    spell = _spellings(api)
    for name, aliases in _spellings(ops).items():  # op-table-only names (keras.ops via tf.keras.ops)
        if name not in spell and name in ops:
            spell[name] = aliases
    uses: list[Use] = []
    for entry, names in sorted(spell.items()):
        rec = api.get(entry, {})
        op = ops.get(_canonical(entry, ops), {})
        if rec.get("by") == "op_def" or entry.startswith("tf.raw_ops."):
            continue
        names = [n for n in names if n.startswith(("tf.", "keras.")) and ".raw_ops." not in n]
        names = [n.replace("tf.keras.ops.", "keras.ops.") for n in names]
        names = list(dict.fromkeys(n for n in names if ".python." not in n and "._" not in n))
        params = list(rec.get("params", []))  # in order, ``name`` included (positions count it)
        called_with = rec.get("called_with")
        static = set(rec.get("const_args", ())) | set(rec.get("py_args", ())) | set(rec.get("const_inputs", ()))
        is_class = rec.get("by") == "class" or (not rec and entry.split(".")[-1][:1].isupper())
        unsupported = rec.get("unsupported") or op.get("unsupported")
        method = any(part[:1].isupper() for part in entry.split(".")[1:-1])  # tf.lookup.StaticHashTable.lookup
        if method:
            continue
        # kernel
        if unsupported and op.get("when") is None:
            for s in names:
                if is_class:
                    uses.append(Use("kernel", entry, s, "tf.function", "layer", _layer_function(s), True))
                    uses.append(Use("kernel", entry, s, "keras", "layer", _layer_keras(s), True))
                else:
                    c = _call(s, params, called_with, static)
                    uses += _both("kernel", entry, s, "forward", c.tensors or ["x"], [f"out = {c.text}", "return out"],
                                  True)
        if is_class:
            continue
        # grad
        grad_variants: list[tuple[str, dict[str, str]]] = []
        if rec.get("grad_xla") is False or op.get("grad_unsupported"):
            grad_variants.append(("gradient", {}))
        for cond in rec.get("grad_conditions", ()):
            if cond.get("grad_xla") is False:
                grad_variants.append((f"gradient {cond['argument']}={cond['value']!r}",
                                      {cond["argument"]: repr(cond["value"])}))
        for form, kw in grad_variants:
            for s in names:
                c = _call(s, params, called_with, static, kw)
                uses.append(Use("grad", entry, s, "tf.function", form,
                                _tf_function(s, c.tensors or ["x"], _grad_body(c)), True))
                uses.append(Use("grad", entry, s, "keras", form,
                                _keras(s, c.tensors or ["x"], [f"out = {c.text}", "return out"], train=True), True))
        # const
        given = set(called_with or ())
        unless = rec.get("const_unless", {})
        for p in [*rec.get("const_args", ()), *rec.get("py_args", ())]:
            if p not in params or given.intersection(unless.get(p, ())):
                continue
            base = [q for q in (called_with or params[:1]) if q != p and q not in _SKIP_PARAMS]
            forms = ["keyword"]
            idx = params.index(p)
            if all(q in (called_with or ()) and q not in _SKIP_PARAMS for q in params[:idx]):
                forms.insert(0, "positional")
            for form in forms:
                for s in names:
                    c = _call(s, params, base, static - {p} if form else static)
                    text = c.text
                    if form == "keyword":
                        text = _add_keyword(text, f"{p}=n")
                    else:  # the argument in its position (every parameter before it is passed)
                        c = _call(s, params, [*params[:idx], p], static - {p})
                        text = c.text
                        text = text.replace(f"{_ident(p)})", "n)") if text.endswith(f"{_ident(p)})") else text
                    tensors = [t for t in c.tensors if t != _ident(p)] or ["x"]
                    body = ["n = tf.reduce_max(data)", f"out = {text}", "return out"]
                    uses += _both("const", entry, s, f"{form} {p}", ["data", *tensors], body, True)
        # shape
        if rec.get("dynamic_shape") and (rec.get("data_dependent_shape") is True or (
                rec.get("data_dependent_shape") is None and not (rec.get("const_args") or rec.get("py_args")
                                                                  or rec.get("const_in_default_call")))):
            for s in names:
                c = _call(s, params, called_with, static)
                first = f"{c.text}[0]" if rec.get("structure") == "list" else c.text
                # Only the static dimension fails: fed its dynamic size (`tf.zeros(tf.shape(y)[0])`)
                # XLA compiles with a bounded dynamic shape (TF 2.21 XLA:CPU: tf.boolean_mask,
                # one-argument tf.where, tf.unique; tests/xlacheck/test_api_coverage.py).
                bodies = {"static dim": [f"out = {first}", "z = tf.zeros([out.shape[0], 2])", "return z"],
                          "static dim via a name": [f"out = {first}", "n = out.shape[0]", "z = tf.zeros([n, 2])",
                                                    "return z"]}
                for form, body in bodies.items():
                    uses += _both("shape", entry, s, form, c.tensors or ["x"], body, True)
        # dtype: the op table's dtype probe measured that the kernel rejects these dtypes of ``param``
        # (``tf_xla_ops.json`` ``api[name]["dtypes"]``); the operand is cast to one right before the call
        probe = op.get("dtypes") or {}
        probed = probe.get("param")
        if probe.get("fail") and probed and not unsupported and not is_class:
            for dtype, failing_ops in sorted(probe["fail"].items()):
                if not failing_ops:
                    continue
                for s in names:
                    c = _call(s, params, called_with, static)
                    if _ident(probed) not in c.tensors:
                        continue
                    body = [f"{_ident(probed)} = tf.cast({_ident(probed)}, tf.{dtype})", f"out = {c.text}",
                            "return out"]
                    uses += _both("dtype", entry, s, dtype, c.tensors, body, True)
        # divergence
        if entry in div:
            for cls, probes in sorted(div[entry]["probes"].items()):
                if not any(p["outcome"] in _DIVERGENT for p in probes):
                    continue
                for s in names:
                    c = _call(s, params, called_with, static)
                    tensors = c.tensors or ["x"]
                    if cls == "narrowing_cast" and tensors:
                        # the float the class needs (NaN, from a mean over a mask that selects nothing) cast
                        # to an integer dtype, the table's probe; a cast to a float narrows nothing
                        body = [f"{tensors[0]} = {tensors[0]} / tf.reduce_sum(mask, axis=0)",
                                f"out = {s}({tensors[0]}, tf.int32)", "return out"]
                        uses += _both("divergence", entry, s, cls, [tensors[0], "mask"], body, True)
                    elif cls in {"nan", "nan_from_zero_division"} and tensors:
                        # a mean over a mask: 0/0 where the mask selects nothing
                        body = [f"{tensors[0]} = {tensors[0]} / tf.reduce_sum(mask, axis=0)", f"out = {c.text}",
                                "return out"]
                        uses += _both("divergence", entry, s, cls, [*tensors, "mask"], body, True)
                    else:
                        uses += _both("divergence", entry, s, cls, tensors, [f"out = {c.text}", "return out"], True)
        # clean: compiles (forward and, where measured, gradient), nothing conditional
        if (rec.get("by") == "call" and rec.get("xla") is True and rec.get("returns") == "tensor"
                and not unsupported and not rec.get("dynamic_shape") and entry not in div
                and rec.get("grad_xla") is not False and not rec.get("grad_conditions")
                and not op.get("grad_unsupported") and not op.get("conditions")
                and "differs" not in rec.get("xla_values", {}).values()):
            for s in names:
                c = _call(s, params, called_with, static)
                uses += _both("clean", entry, s, "forward", c.tensors or ["x"], [f"out = {c.text}", "return out"],
                              False)
                if rec.get("grad_xla") is True and c.tensors:
                    uses.append(Use("clean", entry, s, "tf.function", "gradient",
                                    _tf_function(s, c.tensors, _grad_body(c)), False))
    return uses


_JAX_PREFIXES = (("jax.numpy.", "jnp."), ("jax.lax.", "lax."))
_JAX_SHAPE_ERRORS = {"ConcretizationTypeError", "NonConcreteBooleanIndexError"}
_JAX_HOST_ERRORS = {"TracerArrayConversionError", "TracerBoolConversionError", "TracerIntegerConversionError",
                    "ConcretizationTypeError"}


def _jax_spelling(name: str) -> str:
    for prefix, short in _JAX_PREFIXES:
        if name.startswith(prefix):
            return short + name[len(prefix):]
    return name


def _jax_source(spelling: str, params: list[str], body: list[str]) -> str:
    head = "import jax\nimport jax.numpy as jnp\nfrom jax import lax\nimport numpy as np\n\n\n@jax.jit\n"
    return head + f"def step({', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body)


def jax_uses() -> list[Use]:
    table = _load("jax_api.json")
    entries = table["entries"]
    spell = _spellings(entries)
    uses: list[Use] = []
    for entry, names in sorted(spell.items()):
        rec = entries.get(entry, {})
        if rec.get("by") != "call" or "called_with" not in rec:
            continue
        params = list(rec.get("params", rec["called_with"]))
        called_with = rec["called_with"]
        static = set(rec.get("static_args", ()))
        spellings = list(dict.fromkeys(_jax_spelling(n) for n in names))
        # by cause: the table's data_dependent_shape (the eager result's shapes follow the values), or
        # for entries it could not measure that way, the concretization error classes
        shape = rec.get("jit") is False and (rec.get("data_dependent_shape")
                                              or rec.get("jit_error") in _JAX_SHAPE_ERRORS and rec.get("sized_by"))
        if shape or rec.get("jit") is False and rec.get("jit_error") in _JAX_HOST_ERRORS:
            for s in spellings:
                c = _call(s, params, called_with, static, jax=True)
                uses.append(Use("jax-shape" if shape else "jax-host", entry, s, "jax.jit", rec["jit_error"],
                                _jax_source(s, c.tensors or ["x"], [f"out = {c.text}", "return out"]), True))
        # the near miss: the same call with the static size the table measured lifting it (size=4)
        lift = [f"{rec['sized_by'][0]}=4"] if rec.get("sized_by") else []
        lift += [f"{k}={v}" for k, v in sorted(rec.get("lifted_by", {}).items())]
        if shape and lift:
            for s in spellings:
                c = _call(s, params, called_with, static, jax=True)
                text = _add_keyword(c.text, lift[0])
                uses.append(Use("jax-sized", entry, s, "jax.jit", f"keyword {lift[0]}",
                                _jax_source(s, c.tensors or ["x"], [f"out = {text}", "return out"]), False))
        # one array argument spelled as a literal (0): it still fails while another argument the table
        # measured driving the shape (``shape_args``) stays traced (jnp.setdiff1d(x, 0)), and compiles
        # once none does (jnp.delete(x, 0))
        drivers = rec.get("shape_args", ())
        for p in called_with if shape and drivers and len(called_with) > 1 else ():
            if p not in params:
                continue
            base = [q for q in called_with if q != p]
            for s in spellings:
                c = _call(s, params, base, static, jax=True)
                still = any(q in drivers for q in base)
                uses.append(Use("jax-literal" if still else "jax-literal-static", entry, s, "jax.jit", f"literal {p}",
                                _jax_source(s, c.tensors or ["x"], [f"out = {_add_keyword(c.text, f'{p}=0')}",
                                                                    "return out"]), still))
        for p in rec.get("static_args", ()):
            if p not in params:
                continue
            base = [q for q in called_with if q != p]
            for s in spellings:
                c = _call(s, params, base, static - {p}, jax=True)
                text = _add_keyword(c.text, f"{p}=n")
                body = ["n = jnp.max(data)", f"out = {text}", "return out"]
                uses.append(Use("jax-const", entry, s, "jax.jit", f"keyword {p}",
                                _jax_source(s, ["data", *(c.tensors or ["x"])], body), True))
        if rec.get("jit") is True and rec.get("returns") == "tensor" and not rec.get("sized_by"):
            for s in spellings:
                c = _call(s, params, called_with, static, jax=True)
                uses.append(Use("jax-clean", entry, s, "jax.jit", "forward",
                                _jax_source(s, c.tensors or ["x"], [f"out = {c.text}", "return out"]), False))
    for name in table.get("numpy_on_tracer", {}).get("fails", ()):
        uses.append(Use("jax-numpy", name, name, "jax.jit", "forward",
                        _jax_source(name, ["x"], [f"out = {name}(x)", "return out"]), True))
    for name in table.get("numpy_on_tracer", {}).get("traceable", ()):
        uses.append(Use("jax-clean", name, name, "jax.jit", "numpy forward",
                        _jax_source(name, ["x"], [f"out = {name}(x)", "return out"]), False))
    return uses


def all_uses() -> list[Use]:
    return tf_uses() + jax_uses()


@dataclass(frozen=True)
class Outcome:
    use: Use
    codes: tuple[str, ...]
    error: str = ""

    @property
    def flagged(self) -> bool:
        return bool(self.codes)


def lint(use: Use) -> Outcome:
    result = check_source(use.source, "model.py")
    if result.error is not None:
        return Outcome(use, (), result.error.message)
    return Outcome(use, tuple(sorted({d.code for d in result.diagnostics})))


FAMILY_ORDER = ("kernel", "grad", "const", "shape", "dtype", "divergence", "clean", "jax-shape", "jax-host",
                "jax-const", "jax-numpy", "jax-sized", "jax-literal",
                "jax-literal-static", "jax-clean")


def summarize(outcomes: list[Outcome], by_context: bool = False) -> list[dict]:
    rows = []
    by_family: dict[str, list[Outcome]] = collections.defaultdict(list)
    for o in outcomes:
        by_family[f"{o.use.family}/{o.use.context}" if by_context else o.use.family].append(o)
    order = sorted(by_family, key=lambda k: (FAMILY_ORDER.index(k.split("/")[0]), k))
    for family in order:
        items = by_family[family]
        entries: dict[str, list[bool]] = collections.defaultdict(list)
        for o in items:
            entries[o.use.entry].append(o.flagged)
        codes = collections.Counter(c for o in items for c in o.codes)
        rows.append({
            "family": family, "expect_flag": items[0].use.expect_flag, "entries": len(entries),
            "entries_all": sum(all(v) for v in entries.values()), "entries_any": sum(any(v) for v in entries.values()),
            "uses": len(items), "flagged": sum(o.flagged for o in items),
            "errors": sum(bool(o.error) for o in items), "codes": dict(codes.most_common()),
        })
    return rows


# the families whose uses the verifier's generic arrays fit: jax-clean calls take PRNG keys and index
# tuples the probe built per function (probe_arguments), so a failure there says nothing of the table
_VERIFIED_JAX = ("jax-shape", "jax-host", "jax-const", "jax-numpy", "jax-sized", "jax-literal",
                "jax-literal-static")


def verify_jax(uses: list[Use], sample: int) -> list[tuple[Use, str]]:
    """Compile every ``sample``-th JAX use with jax.jit (its parameters given float arrays of shape
    (2, 2), then (4,), the probe's two kinds of synthetic input, then integer ids [0, 1], which
    the probe gives segment reductions) and compare with the table's verdict:
    a 'fails' use must raise on every input; a 'compiles' use must run on one. Returns the uses whose
    verdict the compiler contradicts, with what it did (JAX is imported here only)."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import inspect

    import jax.numpy as jnp

    inputs = (jnp.reshape(jnp.arange(1, 5, dtype=jnp.float32) / 4.0, (2, 2)),
              jnp.arange(1, 5, dtype=jnp.float32) / 4.0, jnp.arange(2, dtype=jnp.int32))
    wrong: list[tuple[Use, str]] = []
    for use in [u for u in uses if u.family in _VERIFIED_JAX][::max(sample, 1)]:
        namespace: dict = {}
        try:
            exec(compile(use.source, "model.py", "exec"), namespace)  # noqa: S102 - our own synthesized source
        except SyntaxError:  # a probing call that repeats a name (two positional "array"s): not a use
            continue
        step = namespace["step"]
        errors = []
        for x in inputs:
            try:
                step(*[x for _ in inspect.signature(step).parameters])
                errors.append("")
            except Exception as error:  # noqa: BLE001 - the class is what is compared
                errors.append(type(error).__name__)
        compiled = "" in errors
        if compiled == use.expect_flag:
            wrong.append((use, "compiled" if compiled else "/".join(errors)))
    return wrong


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="list the unflagged uses (and the clean families' findings)")
    ap.add_argument("--family", action="append", help="only these families (repeatable)")
    ap.add_argument("--sample", type=int, default=0, help="every Nth use only (a quick run)")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--by-context", action="store_true", help="one row per family and context")
    ap.add_argument("--show", help="print the synthesized sources of the uses of this entry")
    ap.add_argument("--verify-jax", type=int, default=0, metavar="N",
                    help="compile every Nth JAX use with jax.jit and report where the table's verdict is wrong")
    ap.add_argument("--contexts", default=",".join(CONTEXTS),
                    help=f"comma-separated compiled contexts to write the uses in (default: {','.join(CONTEXTS)})")
    args = ap.parse_args(argv)
    wanted = {c.strip() for c in args.contexts.split(",") if c.strip()}
    if not wanted or wanted - set(CONTEXTS):
        ap.error(f"--contexts: unknown context(s) {sorted(wanted - set(CONTEXTS))}; choose from {', '.join(CONTEXTS)}")
    _ACTIVE_CONTEXTS.clear()
    _ACTIVE_CONTEXTS.update(wanted)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    uses = all_uses()
    if args.family:
        uses = [u for u in uses if u.family in args.family]
    if args.sample:
        uses = uses[::args.sample]
    if args.show:
        for u in uses:
            if u.entry == args.show or u.spelling == args.show:
                print(f"# {u.family} {u.spelling} {u.context} {u.form}\n{u.source}")
        return 0
    if args.verify_jax:
        jax_uses_ = [u for u in uses if u.family in _VERIFIED_JAX]
        wrong = verify_jax(jax_uses_, args.verify_jax)
        checked = len(jax_uses_[::args.verify_jax])
        print(f"verified {checked} JAX uses with jax.jit: {checked - len(wrong)} as the table says")
        for use, got in wrong:
            print(f"  {use.family}\t{use.entry}\t{use.form}\texpected {'failure' if use.expect_flag else 'compile'}"
                  f", got {got}")
        return 1 if wrong else 0
    outcomes = [lint(u) for u in uses]
    rows = summarize(outcomes, args.by_context)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'family':<22} {'side':<9} {'entries':>7} {'all':>5} {'any':>5} {'uses':>6} {'flagged':>7} "
              f"{'rate':>6}  codes")
        for r in rows:
            side = "fails" if r["expect_flag"] else "compiles"
            rate = r["flagged"] / r["uses"] if r["uses"] else 0.0
            codes = ", ".join(f"{c} {n}" for c, n in list(r["codes"].items())[:6])
            print(f"{r['family']:<22} {side:<9} {r['entries']:>7} {r['entries_all']:>5} {r['entries_any']:>5} "
                  f"{r['uses']:>6} {r['flagged']:>7} {rate:>6.3f}  {codes}")
        print("entries: objects in the family; all/any: entries with every / some use flagged; uses: spellings x"
              " contexts x forms; on 'compiles' rows every flagged use is a false finding")
    if args.list:
        for o in outcomes:
            if o.use.expect_flag != o.flagged or o.error:
                what = ",".join(o.codes) or o.error or "-"
                print(f"{o.use.family}\t{o.use.entry}\t{o.use.spelling}\t{o.use.context}\t{o.use.form}\t{what}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    raise SystemExit(main())
