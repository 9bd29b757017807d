"""XLA351: a torch op that torch_xla does not lower (it runs on the CPU), inside a torch_xla step."""

from __future__ import annotations

import ast
import copy

from xlacheck.analysis.contexts import ClassInfo
from xlacheck.analysis.torch_model import CPU, GRAD, TorchFacts, op_table, pool_table, reaches_backward
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Backward kernels that torch_xla lowers only on TPU (and Neuron) and sends to the CPU on the PJRT
# CPU and GPU backends (torch_xla/csrc/aten_xla_type.cpp: `CheckTpuDevice` before the lowering).
_TPU_ONLY = frozenset({"aten::upsample_bilinear2d_backward", "aten::upsample_nearest2d_backward"})


def _device_note(aten: str) -> str:
    return " (torch_xla lowers it on TPU; this is the cost on the CPU and GPU backends)" \
        if aten and set(aten.split(", ")) <= _TPU_ONLY else ""


# Ops XLA250 reports (data-dependent shapes); not reported twice.
_SHAPE_OPS = frozenset({"nonzero", "argwhere", "masked_select", "unique", "unique_consecutive", "where",
                        "repeat_interleave"})


def _literal(node: ast.expr | None) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) for e in node.elts):
        return tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
    return _UNKNOWN


_UNKNOWN = object()


def _arg(call: ast.Call, position: int, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return call.args[position] if len(call.args) > position else None


def argument_dependent_verdict(op: str, call: ast.Call, method: bool) -> str | None:
    """'fallback' / 'lowered' for an argument-dependent op whose deciding arguments are literal
    in the call (read from the table's probes); None when the arguments are not known."""
    probes = op_table()["argument_dependent"]
    leaf = op.rsplit(".", 1)[-1]
    shift = 1 if method else 0  # a method call has no input argument
    if any(kw.arg is None for kw in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
        return None  # **kwargs / *args: the deciding argument may be set there
    if leaf == "multinomial" and "torch.multinomial" in probes:
        n = _literal(_arg(call, 1 - shift, "num_samples"))
        repl = _literal(_arg(call, 2 - shift, "replacement"))
        if not isinstance(n, int) or repl is _UNKNOWN and _arg(call, 2 - shift, "replacement") is not None:
            return None
        rows = probes["torch.multinomial"]
        for row in rows:
            w = row["when"]
            if w.get("num_samples") == min(n, 2) and bool(w.get("replacement", False)) == bool(repl if repl is not _UNKNOWN else False):
                return row["status"]
        return None
    if leaf == "interpolate" and "torch.nn.functional.interpolate" in probes:
        return _status_for_mode(probes["torch.nn.functional.interpolate"], _arg(call, 3, "mode"), "nearest")
    if leaf in adaptive_pools():
        rows = probes["torch.nn.functional." + leaf]
        if all(r["status"] == "fallback" for r in rows):
            return "fallback"  # no output size the table probed lowers (F.adaptive_max_pool3d)
        sizes = adaptive_output_sizes(call)
        if sizes is not None and all(n in (None, 1) for n in sizes):
            return next((r["status"] for r in rows if r["when"].get("output_size") == 1), None)
        # any other size lowers only where it divides the input's size (the table's probes: 9->3
        # lowers, 8->3 falls back), which is not known here: XLA352 (--preview) guesses it
        return None
    if leaf == "embedding_bag" and "torch.nn.functional.embedding_bag" in probes:
        return _status_for_mode(probes["torch.nn.functional.embedding_bag"], _arg(call, 6, "mode"), "mean")
    if leaf == "embedding" and not method and "torch.nn.functional.embedding" in probes:
        # ``max_norm`` (a number, not None) renormalises the looked-up rows first: the table's probes
        max_norm = _arg(call, 3, "max_norm")
        if max_norm is None or isinstance(max_norm, ast.Constant) and max_norm.value is None:
            when = "absent"
        elif isinstance(max_norm, ast.Constant) and isinstance(max_norm.value, (int, float)) \
                and not isinstance(max_norm.value, bool):
            when = "given"
        else:
            return None  # a name (``max_norm=config.max_norm``): None or a number, not known here
        return next((r["status"] for r in probes["torch.nn.functional.embedding"]
                     if r["when"].get("max_norm") == when), None)
    return None


def reshaped_sides(call: ast.Call, leaf: str) -> tuple[int, ...] | None:
    """The pooled sides of an adaptive pool's input where the call reshapes it in place with literal
    sizes (``F.adaptive_max_pool2d(h.view(-1, 1, 4, 4), 3)``: (4, 4)); None otherwise."""
    x = _arg(call, 0, "input")
    dims = int(leaf[-2]) if leaf[-2:-1].isdigit() else 0
    if not dims or not (isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute)
                        and x.func.attr in ("view", "reshape")):
        return None
    shape = x.args[0].elts if len(x.args) == 1 and isinstance(x.args[0], (ast.Tuple, ast.List)) else x.args
    tail = [_literal(a) for a in shape][-dims:]
    if len(shape) <= dims or not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in tail):
        return None
    return tuple(tail)  # type: ignore[arg-type]


def measured_pool(leaf: str, sides: tuple[int, ...], sizes: tuple[int | None, ...]) -> tuple[str, list[str]] | None:
    """What xlacheck/data/torch_xla_pools.json measured for this pool from these input sides to these
    output sizes (square maps: one side, or equal sides): ("fallback", aten ops) or ("lowered", []);
    None where it has no row (a side or size it did not probe, sides that differ)."""
    outs = sizes * len(sides) if len(sizes) == 1 else sizes
    if len(set(sides)) != 1 or len(outs) != len(sides) or len({m for m in outs if m is not None}) > 1:
        return None
    wanted = next((m for m in outs if m is not None), None)
    if wanted is None:
        return "lowered", []  # every pooled side keeps the input's size
    row = pool_table().get("rows", {}).get(f"{leaf}:{sides[0]}->{wanted}")
    if row is None or row.get("status") not in ("fallback", "lowered"):
        return None
    return row["status"], list(row.get("aten", []))


def adaptive_pools() -> frozenset[str]:
    """The adaptive pools the table probes at several output sizes (``F.adaptive_{avg,max}_pool{1,2,3}d``:
    output size 1, one that divides the input's size, one that does not); leaf names."""
    return frozenset(op.rsplit(".", 1)[-1] for op, rows in op_table()["argument_dependent"].items()
                     if op.startswith("torch.nn.functional.adaptive_")
                     and any("output_size" in r["when"] for r in rows))


def always_falls_back(leaf: str) -> list[str]:
    """The aten ops of an adaptive pool that fell back at every output size the table probed (1 too);
    empty when one lowers."""
    rows = op_table()["argument_dependent"].get("torch.nn.functional." + leaf, [])
    if not rows or any(r["status"] != "fallback" for r in rows):
        return []
    return sorted({a for r in rows for a in r.get("aten", [])})


def adaptive_output_sizes(call: ast.Call) -> tuple[int | None, ...] | None:
    """The literal ``output_size`` of an adaptive pool call (``None`` entries keep the input's
    size), one entry per pooled dimension given; None when it is not a literal of ints."""
    size = _literal(_arg(call, 1, "output_size"))
    sizes = size if isinstance(size, tuple) else (size,)
    if not all(n is None or isinstance(n, int) and not isinstance(n, bool) for n in sizes):
        return None
    return sizes


def _status_for_mode(rows: list[dict], mode_arg: ast.expr | None, default: str, pass_: str = "forward") -> str | None:
    """The probed status of the literal ``mode=`` (``default`` when absent) for the forward or for
    forward and backward (``pass_="backward"``); None when unknown."""
    mode = _literal(mode_arg) if mode_arg is not None else default
    if mode is _UNKNOWN:
        return None
    mode = mode or default
    for row in rows:
        if row["when"].get("mode") == mode and row["when"].get("pass", "forward") == pass_:
            if set(row.get("aten", [])) & _shape_dependent_kernels():
                return None  # mode="area" is an adaptive pool: it lowers where the output size divides the input's
            return row["status"]
    return None


def _shape_dependent_kernels() -> frozenset[str]:
    """ATen kernels whose lowering depends on the input's size (the adaptive pools' probes: the same
    output size lowers on an input it divides and falls back on one it does not)."""
    probes = op_table()["argument_dependent"]
    return frozenset(a for op, rows in probes.items() if op.rsplit(".", 1)[-1] in adaptive_pools()
                     for r in rows for a in r.get("aten", []))


def _literal_value(node: ast.expr) -> object:
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, bool, type(None))):
        return node.value
    return _UNKNOWN


def variant_verdict(op: str, call: ast.Call, grad: bool = False) -> tuple[str, dict, dict | None] | None:
    """The table's ``variants`` row for this call: (status, the row, the nearest lowered row when
    it falls back), when every string/bool argument the op was probed with is a literal here or
    left at its default; None when one is not known or no probe ran that combination. ``grad``:
    the call's tensors require grad (a training step's parameters); the rows' ``grad`` status
    then decides, where it was measured."""
    variants = op_table().get("variants", {})
    method = op.startswith("Tensor.")
    leaf = op.rsplit(".", 1)[-1]
    spec = variants.get(op)
    shift = 0  # positions count a method's arguments after its receiver
    if spec is None and method:
        spec = variants.get("torch." + leaf)
        shift = 1  # the function's first argument is the method's receiver
    if spec is None:
        return None
    if any(kw.arg is None for kw in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
        return None  # **kwargs / *args: any argument may be set there
    values: dict[str, object] = {}
    for name, pos in spec["parameters"].items():
        node = next((kw.value for kw in call.keywords if kw.arg == name), None)
        if node is None and pos is not None and pos - shift >= 0 and len(call.args) > pos - shift:
            node = call.args[pos - shift]
        if node is None and name not in spec["defaults"]:
            return None  # a required argument (scatter_reduce's ``reduce``) not seen: unknown
        value = spec["defaults"][name] if node is None else _literal_value(node)
        if value is _UNKNOWN:
            return None
        values[name] = value
    key = "grad" if grad else "status"

    def status(r: dict) -> str:
        return str(r.get(key, r["status"]))

    rows = [r for r in spec["rows"] if all(r["when"].get(k) == v for k, v in values.items())]
    if len({status(r) for r in rows}) != 1:
        return None
    row = rows[0]
    if status(row) != "fallback":
        return status(row), row, None
    aten = row.get("grad_aten", []) if grad and "grad" in row else row.get("aten", [])
    if set(aten) & _shape_dependent_kernels():
        return None  # mode="area" is an adaptive pool: it lowers where the output size divides the input's
    row = {**row, "aten": aten}
    lowered = [r for r in spec["rows"] if status(r) == "lowered"]
    nearest = min(lowered, key=lambda r: sum(r["when"].get(k) != v for k, v in values.items()), default=None)
    return "fallback", row, nearest


def _backward_fallback(leaf: str, when: dict) -> str:
    """The backward kernels the table's ``argument_dependent`` backward probes saw fall back for the
    suggested variant's mode (``F.interpolate(mode="bilinear")`` lowers forward, not backward)."""
    if leaf not in ("interpolate", "upsample") or "mode" not in when:
        return ""
    rows = op_table()["argument_dependent"].get("torch.nn.functional.interpolate", [])
    return ", ".join(a for r in rows if r["when"].get("pass") == "backward" and r["when"].get("mode") == when["mode"]
                     and r["status"] == "fallback" for a in r.get("aten", []))


def _spelled(when: dict, defaults: dict, against: dict | None = None) -> str:
    """``mode='bicubic', align_corners=True``: the arguments of ``when`` that differ from ``against``
    (the defaults unless given)."""
    base = defaults if against is None else against
    return ", ".join(f"{k}={v!r}" for k, v in when.items() if k not in base or v != base[k])


def _with_grad(call: ast.Call, torch: TorchFacts) -> bool:
    """The call runs in a training file's step code with an argument autograd records
    (``F.embedding_bag(ids, self.weight)``). Inside ``torch.no_grad()`` too: the kernel follows the
    weight's ``requires_grad``, not the grad mode (measured on torch_xla 2.9: ``F.embedding_bag(ids, w,
    mode="sum")`` with ``w.requires_grad`` runs ``aten::_embedding_bag`` on the CPU under no_grad)."""
    if not torch.trains:
        return False
    receiver = [call.func.value] if isinstance(call.func, ast.Attribute) else []
    return any(torch.of(a) & GRAD for a in [*receiver, *call.args, *(k.value for k in call.keywords)])


def fallback_verdict(op: str, call: ast.Call, torch: TorchFacts, grad: bool | None = None) -> tuple[str, str] | None:
    """(op, aten ops) when the table says this call falls back; None when it lowers or is unknown.
    For an op whose string/bool arguments select the kernel (the table's ``variants``), the op is
    spelled with the arguments that select the fallback and the aten part names the variant that
    lowers."""
    table = op_table()
    leaf = op.rsplit(".", 1)[-1]
    method = op.startswith("Tensor.")
    if leaf in _SHAPE_OPS:
        return None
    grad = _with_grad(call, torch) if grad is None else grad
    variant = variant_verdict(op, call, grad)
    if variant is not None:
        status, row, nearest = variant
        if status != "fallback":
            return None
        spec = table["variants"].get(op) or table["variants"]["torch." + leaf]
        given = _spelled(row["when"], spec["defaults"])
        aten = ", ".join(row.get("aten", []))
        if grad and row["status"] == "lowered":
            aten += ("; with an input that requires grad, as a trained weight does (also under torch.no_grad()): "
                     "it lowers only when no input requires grad")
        elif nearest is not None:
            aten += f"; with `{_spelled(nearest['when'], row['when'])}` it lowers"
            backward = _backward_fallback(leaf, nearest["when"])
            if backward:
                aten += (f" (its backward, {backward}, still falls back on the CPU backend where the input "
                         "requires grad)")
        return (f"{op}({given})" if given else op), aten
    if leaf in ("multinomial", "interpolate", "embedding_bag", "upsample", "embedding") or leaf in adaptive_pools():
        sides = reshaped_sides(call, leaf) if leaf in adaptive_pools() and not method else None
        sizes = adaptive_output_sizes(call) if sides is not None else None
        measured = measured_pool(leaf, sides, sizes) if sides is not None and sizes is not None else None
        if measured is not None and measured[0] == "fallback" and not always_falls_back(leaf):
            shown = "x".join(str(n) for n in sides)  # type: ignore[union-attr]
            kernels = [a for a in measured[1] if grad or not a.endswith("_backward")]
            return op, (f"{', '.join(kernels)}: the input is reshaped to {shown} here, and the output size "
                        f"{next(m for m in sizes if m is not None)} does not divide it; "  # type: ignore[union-attr]
                        "xlacheck/data/torch_xla_pools.json measured that pair falling back")
        if measured is not None:
            return None
        verdict = argument_dependent_verdict(op, call, method)
        if verdict == "fallback" and always_falls_back(leaf):
            return op, (", ".join(always_falls_back(leaf)) + " at every output size probed: 1, one that divides "
                        "the input's size and one that does not")
        if verdict == "fallback" and leaf == "embedding":
            aten = next((", ".join(r.get("aten", [])) for r in table["argument_dependent"][
                "torch.nn.functional.embedding"] if r["status"] == "fallback"), "")
            return f"{op}(max_norm=...)", f"{aten}: `max_norm` renormalises the looked-up rows in place first"
        if verdict == "fallback":
            return op, "argument-dependent: falls back with these arguments"
        return None
    entry = table["ops"].get(op)
    if entry is None and method:
        entry = table["ops"].get("torch." + leaf)
    if entry is None or entry["status"] != "fallback":
        return None  # (the data-dependent ops XLA250 reports are _SHAPE_OPS; bincount falls back here)
    return op, ", ".join(entry.get("aten", []))


def _records_backward(op: str, call: ast.Call, torch: TorchFacts, origin: ast.Call | None) -> bool:
    """The call (``origin``, when ``call`` is a copy of it with literal arguments) is in step code outside
    ``no_grad`` in a file whose step code runs a backward pass, on an input autograd records: the op's
    backward kernel runs when the step backpropagates through it."""
    if not torch.backward or id(torch.stmt_of.get(id(origin or call))) in torch.no_grad:
        return False
    if op.startswith("Tensor."):
        inputs = [call.func.value] if isinstance(call.func, ast.Attribute) else []
    else:
        inputs = call.args[:1]
    # (an input batch, not a value autograd records: no backward kernel runs for it)
    return any(torch.of(a) & GRAD for a in inputs) and op.rsplit(".", 1)[-1] not in _SHAPE_OPS


def backward_error_verdict(op: str, call: ast.Call, ctx: ModuleContext) -> tuple[str, str] | None:
    """(op, the exception) when the op's forward lowers but the table's backward probe raised on the XLA
    device where the CPU ran it (``backward: xla_error``: ``torch.logdet``, ``torch.linalg.slogdet``), the
    call records a backward (:func:`_records_backward`) and its result reaches a backward pass or leaves its
    function as a forward's output (:func:`~xlacheck.analysis.torch_model.reaches_backward`)."""
    torch = ctx.torch
    if not _records_backward(op, call, torch, None):
        return None
    table = op_table()["ops"]
    entry = table.get(op)
    if op.startswith("Tensor."):
        entry = table.get("torch." + op.rsplit(".", 1)[-1], entry)  # methods share the function's backward
    fn = ctx.index.function_of(call)
    if entry is None or entry.get("backward") != "xla_error" or fn is None \
            or not reaches_backward(call, fn, ctx.facts.aliases.resolve):
        return None
    return op, entry.get("backward_error", "")


def backward_verdict(op: str, call: ast.Call, torch: TorchFacts,
                     origin: ast.Call | None = None) -> tuple[str, str] | None:
    """(op, aten ops) when the op's forward lowers but its backward falls back (the table's
    ``backward`` probes) and the call records a backward (:func:`_records_backward`)."""
    if not _records_backward(op, call, torch, origin):
        return None
    table = op_table()
    leaf = op.rsplit(".", 1)[-1]
    if leaf == "interpolate":
        rows = table["argument_dependent"].get("torch.nn.functional.interpolate", [])
        mode_arg = _arg(call, 3, "mode")
        if _status_for_mode(rows, mode_arg, "nearest", "backward") == "fallback":
            mode = _literal(mode_arg) if mode_arg is not None else "nearest"
            aten: list[str] = next((r.get("aten", []) for r in rows if r["when"].get("pass") == "backward"
                         and r["when"].get("mode") == mode), [])
            return op, ", ".join(aten)
        return None
    entry = table["ops"].get(op)
    if op.startswith("Tensor."):
        entry = table["ops"].get("torch." + leaf, entry)  # methods share the function's backward kernels
    if entry is None or entry.get("backward") != "fallback":
        return None
    return op, ", ".join(entry.get("backward_aten", []))


def _module_input(torch: TorchFacts, cls: ClassInfo, ctor: ast.Call) -> ast.expr:
    """What the class feeds the module: the first argument of a ``self.<attr>(x)`` call in step code,
    where ``self.<attr>`` holds this constructor (directly, or in an ``nn.Sequential`` whose input is
    taken), preferring one that autograd records; a bare name when no call is seen."""
    attrs = [a for a, v in cls.attrs.items() if v is ctor or isinstance(v, ast.Call) and any(x is ctor for x in v.args)]
    seen: list[ast.expr] = []
    for m in cls.methods.values():
        for c in ast.walk(m.node):
            if isinstance(c, ast.Call) and c.args and isinstance(c.func, ast.Attribute) \
                    and isinstance(c.func.value, ast.Name) and c.func.value.id == "self" and c.func.attr in attrs \
                    and torch.in_step(c) is not None:
                seen.append(c.args[0])
    return next((a for a in seen if torch.of(a) & GRAD), seen[0] if seen else ast.Name(id="input", ctx=ast.Load()))


_REMOVERS = frozenset({"remove_weight_norm", "remove_spectral_norm", "remove_parametrizations", "remove_weightnorm"})


def _leaf_name(f: ast.expr) -> str:
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _local_alias(cls: ClassInfo, f: ast.expr, ctx: ModuleContext, rows: dict) -> str:
    """``weight_norm = nn.utils.weight_norm`` (or, where it exists, the parametrizations one) in the
    method that calls ``weight_norm(conv)``: the wrapper, when every assignment of the name there
    resolves to a probed wrapper."""
    if not isinstance(f, ast.Name):
        return ""
    for m in cls.methods.values():
        values = [n.value for n in ast.walk(m.node) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == f.id for t in n.targets)]
        names = [ctx.facts.aliases.resolve(v) or "" for v in values]
        if names and all(n in rows for n in names) and any(isinstance(c, ast.Call) and c.func is f
                                                            for c in ast.walk(m.node)):
            return names[-1]
    return ""


def _classes_in_step(ctx: ModuleContext) -> list[ClassInfo]:
    """Same-file nn.Module classes one of whose methods runs in a step."""
    torch = ctx.torch
    step_nodes = {id(s.node) for s in torch.steps}
    return [c for c in ctx.facts.classes if c.node.name in torch.module_classes
            and any(id(m.node) in step_nodes for m in c.methods.values())]


def wrapper_calls(ctx: ModuleContext) -> list[tuple[ast.Call, str, dict]]:
    """``weight_norm(nn.Conv1d(...))`` in an nn.Module class whose forward runs in a step, where the
    table's probe of that wrapper (around an ``nn.Linear``, which lowers) fell back: (the call, the
    wrapper, the probe row). The forward row when it falls back; else the backward row, in a file
    that trains."""
    rows = {k: v for k, v in op_table()["argument_dependent"].items() if k.startswith("torch.nn.utils.")}
    out: list[tuple[ast.Call, str, dict]] = []
    removes = any(isinstance(n, ast.Call) and _leaf_name(n.func) in _REMOVERS for n in ast.walk(ctx.tree))
    if removes and not ctx.torch.backward:
        return out  # the file removes the wrapper before inference (a vocoder's remove_weight_norm): no cost then
    for cls in _classes_in_step(ctx):
        # the same layer wrapped on two paths (`if deepspeed_zero3: ... else: ...`): one finding, on the last
        calls = {(ast.unparse(c.func), ast.unparse(c.args[0]) if c.args else ""): c
                 for c in sorted((n for n in ast.walk(cls.node) if isinstance(n, ast.Call)),
                                 key=lambda n: (n.lineno, n.col_offset))}
        for call in calls.values():
            name = ctx.facts.aliases.resolve(call.func) or _local_alias(cls, call.func, ctx, rows)
            probes = rows.get(name, [])
            forward = [r for r in probes if r["when"].get("pass", "forward") == "forward" and r["status"] == "fallback"]
            backward = [r for r in probes if r["when"].get("pass") == "backward" and r["status"] == "fallback"]
            if forward:
                out.append((call, name, {**forward[0], "pass": "forward"}))
            elif backward and ctx.torch.backward:
                out.append((call, name, {**backward[0], "pass": "backward"}))
    return out


def with_literals(call: ast.Call, ctx: ModuleContext) -> ast.Call:
    """``call`` with each argument that is not a tensor but a name whose literal value the file states
    (``mode=self.mode`` set in ``__init__`` from a ``mode="bicubic"`` default, ``mode=UPSAMPLE_MODE``)
    replaced by that literal, so the table's argument-dependent rows can decide; ``call`` itself when
    there is none."""
    torch = ctx.torch

    def known(e: ast.expr) -> ast.expr:
        if not isinstance(e, (ast.Name, ast.Attribute)) or torch.of(e):
            return e
        literal = ctx.index.literal_of(e)
        return ast.copy_location(copy.deepcopy(literal), e) if literal is not None and literal is not e else e

    args = [known(a) for a in call.args]
    keywords = [ast.keyword(arg=k.arg, value=v) if (v := known(k.value)) is not k.value else k for k in call.keywords]
    if all(a is b for a, b in zip(args, call.args)) and all(k is b for k, b in zip(keywords, call.keywords)):
        return call
    return ast.copy_location(ast.Call(func=call.func, args=args, keywords=keywords), call)


def module_calls(ctx: ModuleContext) -> list[tuple[ast.Call, str, ast.Call]]:
    """``torch.nn`` modules built in a same-file nn.Module class whose methods run in a step:
    (the constructor call, the module's name, the functional call its forward makes, with the
    constructor's arguments in the op's parameters). The table's ``modules`` section, read from
    torch's source, says which op and which arguments (``nn.Upsample(mode=...)`` ->
    ``F.interpolate(mode=...)``)."""
    torch = ctx.torch
    table = op_table().get("modules", {})
    out: list[tuple[ast.Call, str, ast.Call]] = []
    for cls in _classes_in_step(ctx):
        for call in ast.walk(cls.node):
            if not isinstance(call, ast.Call):
                continue
            spec_name = ctx.facts.aliases.resolve(call.func) or ""
            spec = table.get(spec_name)
            if spec is None:
                continue
            functional = _functional_of(ctx, spec, call, _module_input(torch, cls, call))
            out.append((call, spec_name.removeprefix("torch."), functional))
    return out


def _functional_of(ctx: ModuleContext, spec: dict, ctor: ast.Call, inp: ast.expr) -> ast.Call:
    """The functional call a module built by ``ctor`` makes on ``inp``: the constructor's arguments
    mapped to the op's parameters by the table's ``modules`` entry (defaults filled in)."""
    resolved = with_literals(ctor, ctx)
    given: dict[str, ast.expr] = dict(zip(spec["init"], resolved.args))
    given.update({k.arg: k.value for k in resolved.keywords if k.arg})
    keywords = []
    for param, attr in spec["arguments"].items():
        if attr in given:
            keywords.append(ast.keyword(arg=param, value=given[attr]))
        elif attr in spec["defaults"]:
            keywords.append(ast.keyword(arg=param, value=ast.Constant(spec["defaults"][attr])))
    keywords += [ast.keyword(arg=k, value=ast.Constant(v)) for k, v in spec["fixed"].items()]
    functional = ast.Call(func=ast.Name(id="F", ctx=ast.Load()), args=[inp], keywords=keywords)
    return ast.copy_location(functional, ctor)


def local_module_calls(ctx: ModuleContext, seen: set[int]) -> list[tuple[ast.Call, str, ast.Call]]:
    """``torch.nn`` modules bound to a local name by a statement of a function's own body
    (``ctc = nn.CTCLoss(blank=0)`` in a step factory or a training function) and called by that
    name in step code of the function or of a closure it defines (``loss = ctc(log_probs, ...)``):
    (the constructor call, the module's name, the functional call the call makes). The same facts
    as ``module_calls``, for modules that live outside an nn.Module class. A name bound more than
    once in the function, or constructors already in ``seen``, are left out."""
    torch = ctx.torch
    table = op_table().get("modules", {})
    out: list[tuple[ast.Call, str, ast.Call]] = []
    for fn in ast.walk(ctx.tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        bound: dict[str, ast.Call] = {}
        for stmt in fn.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and isinstance(stmt.value, ast.Call) and id(stmt.value) not in seen:
                spec_name = ctx.facts.aliases.resolve(stmt.value.func) or ""
                if spec_name in table:
                    bound[stmt.targets[0].id] = stmt.value
        if not bound:
            continue
        stores: dict[str, int] = {}
        uses: dict[str, list[ast.Call]] = {}
        for n in ast.walk(fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in bound:
                stores[n.id] = stores.get(n.id, 0) + 1
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in bound and n.args \
                    and torch.in_step(n) is not None:
                uses.setdefault(n.func.id, []).append(n)
        for name, ctor in bound.items():
            if stores.get(name, 0) != 1 or name not in uses:
                continue
            spec_name = ctx.facts.aliases.resolve(ctor.func) or ""
            inp = next((c.args[0] for c in uses[name] if torch.of(c.args[0]) & GRAD), uses[name][0].args[0])
            out.append((ctor, spec_name.removeprefix("torch."), _functional_of(ctx, table[spec_name], ctor, inp)))
    return out


def _owns_trained_weight(spec: dict, ctor: ast.Call) -> bool:
    """The module holds its weight as an ``nn.Parameter`` (its constructor takes ``_weight``, as
    ``nn.Embedding`` and ``nn.EmbeddingBag`` do), which requires grad unless built frozen: the
    functional then gets a weight that requires grad, also at inference under ``torch.no_grad()``
    (the kernel follows the weight's ``requires_grad``, not the grad mode)."""
    frozen = any(k.arg == "_freeze" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
                 for k in ctor.keywords)
    return "_weight" in spec.get("init", []) and not frozen


class TorchOpWithoutLowering(ModuleRule):
    """
    ## What it does
    Flags calls, inside a torch_xla step, of torch ops that torch_xla 2.9 does not lower to XLA,
    as measured by `tools/generate_torch_table.py` (an `aten::` counter of
    `torch_xla.debug.metrics` moved when the op ran on an XLA device): `torch.median`,
    `torch.histc`, `torch.bucketize`, `torch.isin`, `torch.linalg.det`, `bincount`, `ctc_loss`,
    `grid_sample` and others listed in docs/torch-op-table.md. Argument-dependent ops are
    flagged only when the deciding argument is a literal that the table says falls back:
    `torch.multinomial(p, 2)` (`(p, 1)` lowers), `F.interpolate(..., mode="bicubic")`,
    `F.embedding_bag(..., mode="mean")`, `F.embedding(..., max_norm=1.0)` and
    `nn.Embedding(..., max_norm=1.0)` (a number there renormalises the looked-up rows in place
    first, `aten::embedding_renorm_`; `max_norm=None` lowers). The table's `variants` section ran every documented
    choice of each op's string and bool arguments on the XLA device (the cross product where
    small); a call whose literal arguments (or defaults) select a variant that fell back is
    flagged, naming the variant and the nearest one that lowers:
    `scatter_reduce(..., include_self=False)` or `reduce="mean"`,
    `F.interpolate(..., antialias=True)`, `nn.EmbeddingBag(mode="sum", scale_grad_by_freq=True)`.
    A non-literal argument is unknown: not flagged. Adaptive pools (`F.adaptive_avg_pool2d`,
    `nn.AdaptiveMaxPool2d`, ...) lower only where the output size divides the input's size (the
    table's probes: 8->3 falls back, 9->3 and 8->4 lower); the input size is not known statically,
    so they are not flagged here (XLA352, behind `--preview`, guesses from the output size);
    output size 1 lowers. The table probes the whole family (`adaptive_{avg,max}_pool{1,2,3}d` at
    output size 1, 8->4 and 8->3): `F.adaptive_max_pool3d` (`nn.AdaptiveMaxPool3d`) fell back at
    every output size, 1 included, and is flagged wherever it runs in a step. Method calls count
    only on proven torch tensors. Callable objects the step calls with tensors (`criteria(input_ids)`, a logits
    processor) run their `__call__` in the step when one same-file class defines it.
    In a file whose step code runs a backward pass (`.backward()`, `torch.autograd.grad`; where torch
    code is declared to run on XLA, anywhere in the file: the optimizer may be the caller's), ops whose
    forward lowers but whose backward kernel falls back (the table's backward probes: `F.glu` ->
    `aten::glu_backward`, `torch.pdist` -> `aten::_pdist_backward`, bilinear `F.interpolate`) are
    flagged too, on values autograd records, outside `torch.no_grad()`, where the call's result, followed
    through its function, reaches a backward pass or leaves the function (a result only logged or
    detached runs no backward kernel: measured on `torch.cdist` and `torch.logit`). Ops whose forward lowers
    but whose backward raised on the XLA device where the CPU ran it (the table's `xla_error`
    backward probes: `torch.logdet`, `torch.slogdet` and `torch.linalg.slogdet`, "Expected a
    proper Tensor but got None ... 'LU'") are flagged as errors where, in such a file, the
    call's result, followed through its function, reaches a `.backward()` (or
    `torch.autograd.grad`) or leaves the function as its output; never through `.detach()`,
    `.item()` or `float()`.
    `torch.nn` modules built in an `nn.Module` class whose forward runs in a step are checked as
    the functional op their `forward` calls, with the constructor's arguments (the table's
    `modules` section, read from torch's source: `nn.EmbeddingBag(mode="mean")` is
    `F.embedding_bag(mode="mean")`); the finding is on the constructor. Module wrappers probed
    around an `nn.Linear` (`weight_norm`, `parametrizations.weight_norm` ->
    `aten::_weight_norm_interface`; `parametrizations.spectral_norm`, `orthogonal`) are flagged
    where such a class wraps a layer. Not in set-up that runs once per call, not per step (the
    analysis model's `setup`): the statements of a declared no_grad function before its work loop
    (a sampler's input pre-processing), a cache built lazily, and what only such code calls.

    ## Why is this bad?
    An op without a lowering runs on the CPU: its inputs are copied from the device, the op runs
    in ATen, the result is copied back, and the graph is split around it. On a TPU this costs a
    round trip per call and usually a recompilation of the surrounding graph. A backward that
    raises does not fall back: the step fails (torch_xla 2.9 on `torch.logdet` of a batch of
    matrices, measured: `RuntimeError: expand(MetaFloatType{[2, 1]}, size=[0])`). For a symmetric
    positive-definite matrix (a covariance), `torch.linalg.eigvalsh(a).log().sum(-1)` is its
    log-determinant and lowers forward and backward.

    ## Example
    ```python
    nxt = torch.multinomial(probs, 2)[:, 1:]
    ```

    ## Use instead
    ```python
    # one sample per call lowers; or sample with the Gumbel-max trick
    nxt = torch.argmax(torch.log(probs) - torch.log(-torch.log(torch.rand_like(probs))), -1, keepdim=True)
    ```

    ## Fix safety
    No automatic fix: the lowered replacement (a different algorithm, a one-sample call, a
    masked computation) depends on the op.
    """

    code = "XLA351"
    fix = None
    name = "torch-op-without-lowering"
    severity = Severity.WARNING
    VALID = (
        # a tokenizer's ids (return_tensors="pt") are CPU tensors: torch.equal on them runs no XLA op
        # (diffusers' truncation warning in encode_prompt)
        Example("import torch\nimport torch_xla\ndef encode(tokenizer, text_encoder, prompts, log):\n"
                "    for prompt in prompts:\n"
                "        ids = tokenizer(prompt, padding='max_length', truncation=True, return_tensors='pt').input_ids\n"
                "        full = tokenizer(prompt, padding='max_length', return_tensors='pt').input_ids\n"
                "        if not torch.equal(ids, full):\n            log('truncated')\n"
                "        out = text_encoder(ids.to(torch_xla.device()))\n        torch_xla.sync()\n"),
        Example("import torch\nimport torch_xla\ndef sample(model, ids, steps):\n    for _ in range(steps):\n"
                "        probs = torch.softmax(model(ids)[:, -1], -1)\n        nxt = torch.multinomial(probs, 1)\n"
                "        ids = torch.cat([ids, nxt], 1)\n        torch_xla.sync()\n    return ids\n"),
        Example("import torch\ndef stats(x):\n    return torch.median(x)\n"),
        # `set_grad_enabled(False)` turns autograd off as `no_grad()` does: no backward runs for the op
        Example("import torch\nimport torch.nn.functional as F\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    for x, y in loader:\n        h = model(x)\n        with torch.set_grad_enabled(False):\n"
                "            g = F.glu(h)\n        loss = (h * g).sum()\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n"),
        # a module bound to a local name that the function rebinds: which module the step calls is not known
        Example("import torch.nn as nn\nimport torch_xla\ndef train(model, opt, loader, ctc_loss):\n"
                "    crit = nn.CTCLoss(blank=0)\n    crit = ctc_loss or crit\n"
                "    for x, t, il, tl in loader:\n        loss = crit(model(x), t, il, tl)\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n"),
        # an embedding bag built frozen (`_freeze=True`): its weight does not require grad, and the sum lowers
        Example("import torch\nimport torch.nn as nn\nimport torch_xla\n\nclass Scorer(nn.Module):\n"
                "    def __init__(self):\n        super().__init__()\n"
                "        self.bag = nn.EmbeddingBag(100, 8, mode='sum', _freeze=True)\n\n"
                "    def forward(self, ids):\n        return self.bag(ids).sum(-1)\n\n"
                "@torch.no_grad()\ndef score(model, loader):\n    for ids in loader:\n        model(ids)\n"
                "        torch_xla.sync()\n"),
        # the log-determinant is only logged (detached): the step's backward pass never runs its backward
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, stats):\n    for x, y in loader:\n"
                "        a = model(x).view(-1, 4, 4)\n"
                "        cov = a @ a.transpose(1, 2) + torch.eye(4, device=a.device)\n"
                "        loss = (y - a.mean((1, 2))).pow(2).mean()\n        loss.backward()\n        opt.step()\n"
                "        stats.append(torch.logdet(cov).detach())\n        torch_xla.sync()\n"),
        # a symmetric positive-definite matrix's log-determinant from its eigenvalues: lowers forward and backward
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    for x, y in loader:\n"
                "        a = model(x).view(-1, 4, 4)\n"
                "        cov = a @ a.transpose(1, 2) + torch.eye(4, device=a.device)\n"
                "        loss = torch.linalg.eigvalsh(cov).log().sum(-1).mean() + (y - a.mean((1, 2))).pow(2).mean()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"),
        # the distances are only logged (detached): no backward runs through `torch.cdist`
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, stats):\n    for x, y in loader:\n"
                "        h = model(x)\n        d = torch.cdist(h, h)\n        loss = (h - y).pow(2).mean()\n"
                "        loss.backward()\n        opt.step()\n        stats.append(d.mean().detach())\n"
                "        torch_xla.sync()\n"),
        # the bicubic resize is the set-up of a declared no_grad sampler, before its decode loop: once per call
        Example("import torch\nimport torch.nn.functional as F\nimport torch_xla\n@torch.no_grad()\n"
                "def sample(model, image, steps, scale):\n    if scale != 1.0:\n"
                "        image = F.interpolate(image, scale_factor=scale, mode='bicubic')\n"
                "    ids = model.encode(image)\n    for _ in range(steps):\n"
                "        ids = torch.cat([ids, model(ids)[:, -1:].argmax(-1)], 1)\n        torch_xla.sync()\n"
                "    return ids\n"),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\ndef sample(model, ids, steps):\n    for _ in range(steps):\n"
                "        probs = torch.softmax(model(ids)[:, -1], -1)\n"
                "        nxt = torch.multinomial(probs, 2)[:, 1:]\n"
                "        ids = torch.cat([ids, nxt], 1)\n        torch_xla.sync()\n    return ids\n",
                expected=(
                    (6, 15, '`torch.multinomial` has no XLA lowering in torch_xla 2.9.0 (argument-dependent: falls '
                            'back with these arguments): it runs on the CPU, with a transfer each way, inside the '
                            'step'),
                )),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    for x, y in loader:\n"
                "        h = torch.relu(x)\n        loss = (h - torch.median(h)).abs().mean()\n"
                "        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (6, 21, '`torch.median` has no XLA lowering in torch_xla 2.9.0 (aten::median): it runs on the '
                            'CPU, with a transfer each way, inside the step'),
                )),
        Example("import torch\nimport torch.nn as nn\nimport torch_xla\n\nclass Clip(nn.Module):\n"
                "    def __init__(self):\n        super().__init__()\n        self.conv = nn.Conv3d(3, 8, 3)\n"
                "        self.pool = nn.AdaptiveMaxPool3d(1)\n\n    def forward(self, x):\n"
                "        return self.pool(self.conv(x)).flatten(1)\n\n"
                "def evaluate(model, loader):\n    for x in loader:\n        model(x)\n        torch_xla.sync()\n",
                expected=(
                    (9, 21, "`nn.AdaptiveMaxPool3d` runs `F.adaptive_max_pool3d`, which has no XLA lowering in "
                            "torch_xla 2.9.0 (aten::adaptive_max_pool3d at every output size probed: 1, one that "
                            "divides the input's size and one that does not): each forward in the step runs it on "
                            "the CPU, with a transfer each way"),
                )),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    for x, index in loader:\n"
                "        h = model(x)\n"
                "        pooled = h.new_zeros(4, 8).scatter_reduce(0, index, h, 'amax', include_self=False)\n"
                "        loss = pooled.sum()\n        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (6, 18, "`tensor.scatter_reduce(include_self=False, reduce='amax')` has no XLA lowering in "
                            "torch_xla 2.9.0 (aten::scatter_reduce.two; with `include_self=True` it lowers): it runs "
                            "on the CPU, with a transfer each way, inside the step"),
                )),
        # `inference_mode(mode=False)` leaves inference mode and turns grad mode ON, even inside `no_grad()`
        # (torch 2.9: `torch.is_grad_enabled()` is True there): the backward of `F.glu` runs
        Example("import torch\nimport torch.nn.functional as F\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    for x, y in loader:\n        h = model(x)\n        with torch.no_grad():\n"
                "            with torch.inference_mode(mode=False):\n                g = F.glu(h)\n"
                "        loss = g.sum()\n        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (9, 21, "`torch.nn.functional.glu` lowers but its backward has no XLA lowering in torch_xla "
                            "2.9.0 (aten::glu_backward): in this training step the gradient runs on the CPU, with a "
                            "transfer each way"),
                )),
        # a loss module bound to a local name of the training function, not an nn.Module attribute
        # (pytorch/xla#2844)
        Example("import torch.nn as nn\nimport torch.nn.functional as F\nimport torch_xla\n"
                "def train(model, opt, loader):\n    ctc = nn.CTCLoss(blank=0, zero_infinity=True)\n"
                "    for x, targets, in_lens, tgt_lens in loader:\n"
                "        log_probs = F.log_softmax(model(x), -1).transpose(0, 1)\n"
                "        loss = ctc(log_probs, targets, in_lens, tgt_lens)\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (5, 11, "`nn.CTCLoss` runs `F.ctc_loss`, which has no XLA lowering in torch_xla 2.9.0 with these "
                            "arguments (aten::_ctc_loss.Tensor): each forward in the step runs it on the CPU, with a "
                            "transfer each way"),
                )),
        # the module's weight is a Parameter that requires grad, also at inference under no_grad (pytorch/xla#6951)
        Example("import torch\nimport torch.nn as nn\nimport torch_xla\n\nclass Scorer(nn.Module):\n"
                "    def __init__(self):\n        super().__init__()\n"
                "        self.bag = nn.EmbeddingBag(100, 8, mode='sum')\n\n"
                "    def forward(self, ids):\n        return self.bag(ids).sum(-1)\n\n"
                "@torch.no_grad()\ndef score(model, loader):\n    for ids in loader:\n        model(ids)\n"
                "        torch_xla.sync()\n",
                expected=(
                    (8, 20, "`nn.EmbeddingBag` runs `F.embedding_bag`, which has no XLA lowering in torch_xla 2.9.0 "
                            "with these arguments (aten::_embedding_bag; with an input that requires grad, as a "
                            "trained weight does (also under torch.no_grad()): it lowers only when no input requires "
                            "grad): each forward in the step runs it on the CPU, with a transfer each way"),
                )),
        # the backward of torch.logdet raises on the XLA device (torch_xla 2.9: no LU for its autograd formula)
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    for x, y in loader:\n"
                "        a = model(x).view(-1, 4, 4)\n"
                "        cov = a @ a.transpose(1, 2) + torch.eye(4, device=a.device)\n"
                "        loss = torch.logdet(cov).mean() + (y - a.mean((1, 2))).pow(2).mean()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (7, 16, "`torch.logdet` lowers but its backward raises on the XLA device in torch_xla 2.9.0 "
                            "(RuntimeError: Expected a proper Tensor but got None (or an undefined Tensor in C++) for "
                            "argument #0 'LU'): this training step backpropagates through its result, so the backward "
                            "pass fails"),
                )),
        # a flow layer's log-determinant leaves its forward as an output the training loop's loss is made of
        Example("import torch\nimport torch.nn as nn\nimport torch_xla\n\nclass InvConv(nn.Module):\n"
                "    def __init__(self, c):\n        super().__init__()\n"
                "        self.weight = nn.Parameter(torch.randn(c, c))\n\n    def forward(self, x):\n"
                "        _, logabsdet = torch.linalg.slogdet(self.weight)\n"
                "        return torch.einsum('ij,bjhw->bihw', self.weight, x), logabsdet * x.shape[2] * x.shape[3]\n\n"
                "def train(model, loader, opt):\n    for x in loader:\n        z, logdet = model(x)\n"
                "        loss = 0.5 * (z ** 2).sum() - logdet\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                expected=(
                    (11, 24, "`torch.linalg.slogdet` lowers but its backward raises on the XLA device in torch_xla "
                             "2.9.0 (RuntimeError: Expected a proper Tensor but got None (or an undefined Tensor in "
                             "C++) for argument #0 'LU'): this training step backpropagates through its result, so "
                             "the backward pass fails"),
                )),
        # the encoder is built by a same-file function that returns a module: its output records grad
        Example("import torch.nn as nn\nimport torch.nn.functional as F\nimport torch_xla\n\n"
                "def block(c_in, c_out):\n    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.ReLU())\n\n"
                "class SegNet(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                "        self.enc = block(3, 8)\n        self.head = nn.Conv2d(8, 2, 1)\n\n"
                "    def forward(self, x):\n        up = F.interpolate(self.enc(x), scale_factor=2, mode='bilinear')\n"
                "        return self.head(up)\n\n"
                "def train(model, loader, opt):\n    for x, y in loader:\n"
                "        loss = F.mse_loss(model(x), y)\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                expected=(
                    (15, 14, "`torch.nn.functional.interpolate` lowers but its backward has no XLA lowering in "
                             "torch_xla 2.9.0 (aten::upsample_bilinear2d_backward): in this training step the "
                             "gradient runs on the CPU, with a transfer each way (torch_xla lowers it on TPU; this is "
                             "the cost on the CPU and GPU backends)"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        version = op_table()["torch_xla_version"]
        for node in torch.nodes:
            if not isinstance(node, ast.Call):
                continue
            op = torch.call_ops.get(id(node))
            if op is None or torch.of(node) & CPU:
                continue  # (an op on CPU tensors alone, such as a tokenizer's ids, runs no XLA op)
            if id(torch.stmt_of.get(id(node))) in torch.setup:
                continue  # set-up before a declared no_grad function's work loop (input pre-processing): once per call
            verdict = fallback_verdict(op, with_literals(node, ctx), torch)
            if verdict is not None:
                name, aten = verdict
                shown = name.replace("Tensor.", "tensor.")
                ctx.report(self, node, f"`{shown}` has no XLA lowering in torch_xla {version} "
                                       f"({aten}): it runs on the CPU, with a transfer each way, inside the step")
                continue
            verdict = backward_verdict(op, with_literals(node, ctx), torch, node)
            fn = ctx.index.function_of(node)
            if verdict is not None and (fn is None or reaches_backward(node, fn, ctx.facts.aliases.resolve)):
                name, aten = verdict
                shown = name.replace("Tensor.", "tensor.")
                ctx.report(self, node, f"`{shown}` lowers but its backward has no XLA lowering in torch_xla {version} "
                                       f"({aten}): in this training step the gradient runs on the CPU, with a "
                                       f"transfer each way{_device_note(aten)}")
                continue
            verdict = backward_error_verdict(op, node, ctx)
            if verdict is not None:
                name, error = verdict
                shown = name.replace("Tensor.", "tensor.")
                ctx.report(self, node, f"`{shown}` lowers but its backward raises on the XLA device in torch_xla "
                                       f"{version} ({error}): this training step backpropagates through its "
                                       "result, so the backward pass fails", severity=Severity.ERROR)
        for call, wrapper, row in wrapper_calls(ctx):
            shown = wrapper.removeprefix("torch.nn.utils.")
            if row.get("pass", "forward") == "forward":
                ctx.report(self, call, f"`{shown}` recomputes the module's weight at every forward with an op "
                                       f"torch_xla {version} does not lower ({', '.join(row.get('aten', []))}): each forward in "
                                       "the step runs it on the CPU, with a transfer each way")
            else:
                ctx.report(self, call, f"`{shown}`'s weight computation has a backward torch_xla {version} does not "
                                       f"lower ({', '.join(row.get('aten', []))}): in this file's training step it "
                                       "runs on the CPU, with a transfer each way")
        in_classes = module_calls(ctx)
        local = local_module_calls(ctx, {id(c) for c, _, _ in in_classes})
        for ctor, module, functional in in_classes + local:
            spec = op_table()["modules"][f"torch.{module}"]
            op = spec["function"]
            shown = op.replace("torch.nn.functional.", "F.")
            # a module's weights are parameters: in a training file's step they require grad, and a
            # module that owns its weight as a Parameter hands the op a weight that requires grad anyway
            verdict = fallback_verdict(op, functional, torch, grad=torch.trains or _owns_trained_weight(spec, ctor))
            if verdict is not None:
                given = "" if always_falls_back(op.rsplit(".", 1)[-1]) else " with these arguments"
                ctx.report(self, ctor, f"`{module}` runs `{shown}`, which has no XLA lowering in torch_xla {version}"
                                       f"{given} ({verdict[1]}): each forward in the step runs it on the CPU, with a "
                                       "transfer each way")
                continue
            verdict = backward_verdict(op, functional, torch)
            if verdict is not None:
                ctx.report(self, ctor, f"`{module}` runs `{shown}`, whose backward has no XLA lowering in torch_xla "
                                       f"{version} ({verdict[1]}): in this file's training step the gradient runs on "
                                       f"the CPU, with a transfer each way{_device_note(verdict[1])}")
