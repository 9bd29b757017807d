"""XLA350: a torch tensor's value read on the host inside a torch_xla step."""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cache

from xlacheck.analysis.torch_model import (
    BOOL,
    CPU,
    LONG,
    OUT,
    STRUCT,
    TENSOR,
    TENSOR_DICT,
    ZERO_D,
    Step,
    TorchFacts,
    built_from,
    host_table,
    multi_axis_of_batch,
    names_device,
    once_per_run,
    op_table,
)
from xlacheck.diagnostics import Fix, SetAsideReason, Severity
from xlacheck.rewrites.step_closure import closure_fix, step_syncs_each_iteration
from xlacheck.rules.base import INLINE, Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_READ_METHODS = {"item": "`.item()`", "tolist": "`.tolist()`", "numpy": "`.numpy()`", "cpu": "`.cpu()`"}
_BUILTINS = frozenset({"float", "int", "bool"})
_FIX = ("keep the value on the device (return or accumulate the tensor), read it after `torch_xla.sync()`, "
        "or log it from `xm.add_step_closure(fn, args=(t,))`")
# A truth test needs the value now: no closure can defer it.
_BRANCH_FIX = ("the branch needs the value now, so a step closure cannot defer it: decide on the device "
               "(`torch.where`, a masked update) or test the value after `torch_xla.sync()` (every N steps)")
# A size needs the value now too, and a new value is a new graph: no closure can defer it.
_SIZE_FIX = ("a size must be a Python int: keep a static size (pad to a fixed bound and mask the tail) or "
             "compute it from shapes, not from values")
# A number parameter (F.pad's `value`, a Python float in the schema) converts a tensor with `.item()`.
_NUMBER_FIX = ("the parameter takes a Python number: pass one, or apply the tensor's value on the device "
               "(`F.pad`: pad with 0, then `torch.where` over the padded positions)")
# A 0-d integer tensor as an index is read as a Python int; a 1-element index tensor stays on the device.
_INDEX_READ = "a 0-d integer tensor as an index"
_INDEX_FIX = ("index with a 1-element tensor instead (`v.index_select(0, i.view(1)).squeeze(0)`): a tensor index "
              "stays on the device")
# A call that sizes its result from the values (F.one_hot without num_classes): the size is needed now.
_ARGUMENT_FIX = "pass the left-out argument as a Python int (`F.one_hot(y, num_classes)`): the size is then static"
# nn.Transformer* handed a mask and no causal hint test the mask on the host (torch's _detect_is_causal_mask).
_CAUSAL_TEST = "torch tests on the host whether the mask is causal"
_CAUSAL_FIX = ("pass the hint (`is_causal=True` / `tgt_is_causal=True` with a causal mask, `False` otherwise): torch "
               "then trusts it and tests nothing")
# A checkpoint needs the values on the host: only fewer of them help.
_SAVE_FIX = "checkpoint every N steps or after the epoch (`xm.save` copies the state to the CPU once)"
_BRANCHES = frozenset({"`if tensor:`", "`while tensor:`", "`assert tensor`", "`a if tensor else b`",
                       "`and`/`or` on a tensor", "`not tensor`"})


def _other_arm_reads(found: list[tuple[ast.AST, str, ast.stmt | None]]) -> set[int]:
    """Ids of the reads in the ``else`` arm of a conditional expression whose other arm reads too
    (``f"{loss.item():.2f}" if short else f"{loss.item():.4f}"``): Python evaluates one arm, so the statement
    reads once, and one finding (the first arm's) reports it. Each statement with findings is walked once."""
    by_stmt: dict[int, tuple[ast.stmt, set[int]]] = {}
    for node, _, stmt in found:
        if stmt is not None:
            by_stmt.setdefault(id(stmt), (stmt, set()))[1].add(id(node))
    out: set[int] = set()
    for stmt, ids in by_stmt.values():
        if len(ids) < 2:
            continue
        for e in ast.walk(stmt):
            if isinstance(e, ast.IfExp):
                body = {id(n) for n in ast.walk(e.body)} & ids
                other = {id(n) for n in ast.walk(e.orelse)} & ids
                if body and other:
                    out |= other
    return out


@cache
def _raising_methods() -> frozenset[str]:
    """The read methods (``_READ_METHODS``) that the host table's Tensor-method sweep saw raise on every lazily
    computed XLA tensor it tried (tools/generate_torch_host_table.py; torch_xla 2.9: ``t.numpy()`` raises
    "TypeError: can't convert xla:0 device type tensor to numpy. Use Tensor.cpu() ..."). Code that calls one and
    runs holds a CPU tensor there (lightning-flash's IceVision adapter turns a CPU sample into a NumPy image):
    no XLA value is read."""
    rows: dict[str, list[dict]] = {}
    for key, row in host_table().get("methods", {}).items():
        rows.setdefault(key.partition(":")[0], []).append(row)
    return frozenset(name for name in _READ_METHODS if rows.get(name)
                     and all(r.get("error") and not r.get("reads") for r in rows[name]))


def _moved_by_to(recv: ast.expr) -> bool:
    """``recv`` (through tensor methods) is a ``.to(...)`` that names a device (:func:`names_device`; a dtype alone
    keeps the device) or a ``.type("torch.FloatTensor")`` with a tensor type name: a move whose target the raising
    method called on it proves to be the CPU (``forces.to(self.cpu_device).numpy()``), so that move is the read,
    reported at the method as before."""
    while isinstance(recv, ast.Call) and isinstance(recv.func, ast.Attribute):
        if recv.func.attr == "to" and names_device(recv):
            return True
        if recv.func.attr == "type" and recv.args and isinstance(recv.args[0], ast.Constant) \
                and isinstance(recv.args[0].value, str):
            return True
        recv = recv.func.value
    return False


def host_reads(torch: TorchFacts) -> list[tuple[ast.AST, str]]:
    """Every proven host read of an XLA tensor in step code: (node, what). A tensor known to be on the
    CPU (an item of a plain DataLoader, not moved: ``CPU``) is read without running the graph; a method that
    raises on an XLA tensor (:func:`_raising_methods`: ``.numpy()``) reads none, unless it follows a ``.to(...)``
    whose target it proves to be the CPU (:func:`_moved_by_to`) or is called with keywords the table's sweep did not
    try (``t.numpy(force=True)`` copies an XLA tensor to the host)."""
    out: list[tuple[ast.AST, str]] = []
    printed: set[int] = set()  # f-strings already reported through their print()
    raising = _raising_methods()
    for node in torch.nodes:
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in _READ_METHODS and not node.args \
                    and (f.attr not in raising or node.keywords or _moved_by_to(f.value)):
                recv = torch.of(f.value)
                # on a module's output these prove a tensor too: no tuple, dict or ModelOutput has them
                if recv & CPU:
                    continue
                if recv & TENSOR or (f.attr == "item" and recv & STRUCT) or recv & OUT:
                    out.append((node, _READ_METHODS[f.attr]))
            elif isinstance(f, ast.Name) and f.id in _BUILTINS and len(node.args) == 1 and torch.tensor(node.args[0]) \
                    and not torch.of(node.args[0]) & CPU:
                out.append((node, f"`{f.id}(tensor)`"))
            elif isinstance(f, ast.Name) and f.id == "print" and any(_shows_tensor(a, torch) for a in node.args):
                out.append((node, "`print(tensor)`"))
                printed.update(id(a) for a in node.args)
        elif isinstance(node, ast.JoinedStr) and id(node) not in printed and _shows_tensor(node, torch) \
                and not isinstance(torch.stmt_of.get(id(node)), (ast.Raise, ast.Assert)):  # (error paths: no cost)
            out.append((node, "an f-string of a tensor"))  # formatting reads the value (Tensor.__format__)
        elif isinstance(node, (ast.If, ast.While, ast.Assert, ast.IfExp)) and torch.tensor(node.test) \
                and not torch.of(node.test) & CPU:
            kind = {ast.If: "`if tensor:`", ast.While: "`while tensor:`", ast.Assert: "`assert tensor`",
                    ast.IfExp: "`a if tensor else b`"}[type(node)]
            out.append((node.test, kind))
        elif isinstance(node, (ast.If, ast.While, ast.Assert, ast.IfExp)) and isinstance(node.test, ast.BoolOp):
            # `if step > 0 and loss > 1:`: the test converts the chain's last operand to bool too (the others
            # are the BoolOp's own, below)
            last: ast.expr = node.test
            earlier: list[ast.expr] = []
            while isinstance(last, ast.BoolOp):
                earlier += last.values[:-1]
                last = last.values[-1]
            # (one finding per chain: where an earlier operand is a tensor, the BoolOp reports that one; none
            # where an earlier operand decides the chain on XLA, which then never evaluates it: not in step code)
            if torch.tensor(last) and not torch.of(last) & CPU and id(last) in torch.step_of \
                    and not any(torch.tensor(v) and not torch.of(v) & CPU for v in earlier):
                out.append((last, "`and`/`or` on a tensor"))
        elif isinstance(node, ast.BoolOp):
            for v in node.values[:-1]:
                # (an operand after one that decides the chain on XLA never runs: not in step code)
                if torch.tensor(v) and not torch.of(v) & CPU and id(v) in torch.step_of:
                    out.append((v, "`and`/`or` on a tensor"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and torch.tensor(node.operand) \
                and not torch.of(node.operand) & CPU:
            out.append((node.operand, "`not tensor`"))
    return out


def library_reads(ctx: ModuleContext) -> list[tuple[ast.AST, str]]:
    """Library calls in step code that xlacheck/data/torch_xla_host.json measured reading a device
    tensor back (tools/generate_torch_host_table.py): a logging sink handed a proven tensor in the
    argument the probe gave it (``self.tb.add_scalar("loss", loss, step)`` where the file builds
    ``self.tb`` from ``SummaryWriter``), and ``opt.step()`` where the file builds ``opt`` from an
    optimizer whose step reads values back."""
    torch, resolve = ctx.torch, ctx.facts.aliases.resolve
    table = host_table()
    sinks: dict[str, dict[str, dict]] = {name.rsplit(".", 1)[0]: {} for name in table.get("sinks", {})}
    for name, row in table.get("sinks", {}).items():
        if row.get("reads"):
            sinks[name.rsplit(".", 1)[0]][name.rsplit(".", 1)[1]] = row
    optimizers = {name: row for name, row in table.get("optimizers", {}).items() if row.get("reads")}
    # the one torch scheduler whose step takes a value: where the file does not build the receiver, a name that
    # says scheduler stepped with one proven device tensor is that value (`scheduler.step(val_loss)`)
    plateau = sinks.get("torch.optim.lr_scheduler.ReduceLROnPlateau", {}).get("step")
    out: list[tuple[ast.AST, str]] = []
    built: dict[str, str | None] = {}
    for node in torch.nodes:
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        f = node.func
        if f.attr != "step" and not any(f.attr in methods for methods in sinks.values()):
            continue
        key = ast.unparse(f.value)
        if key not in built:
            built[key] = built_from(ctx.tree, f.value, resolve)
        cls = built[key]
        if cls is None:
            if f.attr == "step" and plateau is not None and _names_scheduler(f.value) \
                    and _only_metric(node, plateau, torch):
                out.append((node, "`scheduler.step(tensor)` (a learning-rate scheduler handed a value reads it: "
                                  "ReduceLROnPlateau.step compares the metric on the host)"))
            continue
        row = sinks.get(cls, {}).get(f.attr)
        if row is not None:
            if row["position"] < 0:  # **kwargs: any keyword's value
                given = [k.value for k in node.keywords if k.arg]
            else:
                given = [k.value for k in node.keywords if k.arg == row["argument"]] + node.args[row["position"]:][:1]
            # (an f-string hands the sink a str: the formatting read the tensor, and host_reads reports it there)
            if any(_shows_tensor(a, torch) and not isinstance(a, ast.JoinedStr) or isinstance(a, ast.Dict) and any(
                    v is not None and torch.tensor(v) for v in a.values) for a in given):
                out.append((node, f"`{cls.rsplit('.', 1)[-1]}.{f.attr}(tensor)`"))
        elif f.attr == "step" and cls in optimizers and not node.args and not node.keywords:
            n = optimizers[cls]["transfers"]
            out.append((node, f"`{cls.rsplit('.', 1)[-1]}.step()` (measured on one nn.Linear: {n} device-to-host "
                              "transfers per step)"))
    out.extend((n, w) for n, w in _function_reads(torch, resolve, table.get("functions", {}))
               if ctx.preview or w != "`x in tensor`")  # (--preview: 0 of 4 true on real code, flash-attention paths)
    out.extend(_state_saves(torch, resolve, table.get("functions", {}).get("torch.save", {})))
    out.extend(_method_reads(torch, table.get("methods", {}), resolve))
    out.extend(_size_reads(torch, resolve, table.get("sizes", {})))
    out.extend(_argument_reads(torch, resolve))
    out.extend(_module_call_reads(ctx, table.get("modules", {})))
    clip = optimizers.get("torch.nn.utils.clip_grad_norm_(error_if_nonfinite=True)")
    for node in torch.nodes if clip else ():
        if isinstance(node, ast.Call) and resolve(node.func) in ("torch.nn.utils.clip_grad_norm_",
                                                                 "torch.nn.utils.clip_grad.clip_grad_norm_") \
                and any(k.arg == "error_if_nonfinite" and isinstance(k.value, ast.Constant) and k.value.value is True
                        for k in node.keywords):
            out.append((node, "`clip_grad_norm_(error_if_nonfinite=True)` (it tests the norm on the host)"))
    return out


def _module_call_reads(ctx: ModuleContext, rows: dict[str, dict]) -> list[tuple[ast.AST, str]]:
    """Calls of ``torch.nn`` modules that the host table's ``modules`` rows measured reading a value
    back (tools/generate_torch_host_table.py): an object the file builds from that class (``self.enc =
    nn.TransformerEncoder(...)``), called in step code with the row's mask argument a proven device
    tensor and without the row's causal hint (``self.enc(x, mask=causal)``: torch compares the mask with
    a causal mask and turns the result into a Python bool to choose its kernel)."""
    torch, resolve = ctx.torch, ctx.facts.aliases.resolve
    reading: dict[str, list[dict]] = {}
    for row in rows.values():
        if row.get("reads") and row.get("argument") and row.get("hint"):
            reading.setdefault(row["class"], []).append(row)
    arguments = {row["argument"] for group in reading.values() for row in group}
    out: list[tuple[ast.AST, str]] = []
    built: dict[str, str | None] = {}
    for node in torch.nodes if reading else ():
        if not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Name, ast.Attribute)) or any(
                k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
            continue
        if not any(k.arg in arguments for k in node.keywords) and len(node.args) < 2:
            continue
        key = ast.unparse(node.func)
        if key not in built:
            built[key] = built_from(ctx.tree, node.func, resolve)
        for row in reading.get(built[key] or "", ()):
            given = [k.value for k in node.keywords if k.arg == row["argument"]] + node.args[row["position"]:][:1]
            hinted = any(k.arg == row["hint"] and not (isinstance(k.value, ast.Constant) and k.value.value is None)
                         for k in node.keywords)
            if not hinted and any(torch.tensor(v) and not torch.of(v) & CPU for v in given):
                cls = row["class"].rsplit(".", 1)[-1]
                out.append((node, f"`{cls}(..., {row['argument']}=mask)` with no `{row['hint']}=` hint "
                                  f"({_CAUSAL_TEST}: measured {row['transfers']} device-to-host transfer per call)"))
    return out


def _function_reads(torch: TorchFacts, resolve: Callable[[ast.expr], str | None],
                    rows: dict[str, dict]) -> list[tuple[ast.AST, str]]:
    """Python functions and str formatting that the host table's ``functions`` rows measured reading a
    device tensor (``math.isnan(loss)``, ``str(t)``, ``range(n)``, ``"%.3f" % loss``,
    ``"{}".format(loss)``), handed a proven tensor that is not on the CPU; not in a ``raise`` or
    ``assert`` message (an error path costs no step)."""
    reading = {name for name, row in rows.items() if row.get("reads")}
    displays = {name for name in reading if _probe_hands_display(rows[name])}
    out: list[tuple[ast.AST, str]] = []

    def device_tensor(e: ast.expr) -> bool:
        return torch.tensor(e) and not torch.of(e) & CPU

    printed = {id(a) for c in torch.nodes if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
               and c.func.id == "print" and any(_shows_tensor(a, torch) for a in c.args) for a in c.args}
    for node in torch.nodes:
        if isinstance(torch.stmt_of.get(id(node)), (ast.Raise, ast.Assert)) or id(node) in printed:
            continue  # (a print of the formatted tensor is reported as `print(tensor)`)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and "str.__mod__" in reading \
                and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
            right = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
            if any(device_tensor(e) for e in right):
                out.append((node, "`%` formatting of a tensor"))
        if isinstance(node, ast.Compare) and "operator.contains" in reading and any(
                isinstance(op, (ast.In, ast.NotIn)) and device_tensor(right)
                for op, right in zip(node.ops, node.comparators)):
            out.append((node, "`x in tensor`"))
            continue
        if not isinstance(node, ast.Call) or not node.args:
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "format" and isinstance(f.value, ast.Constant) \
                and isinstance(f.value.value, str) and "str.format" in reading:
            if any(device_tensor(a) for a in node.args) or any(device_tensor(k.value) for k in node.keywords):
                out.append((node, "`str.format(tensor)`"))
            continue
        name = f"builtins.{f.id}" if isinstance(f, ast.Name) and resolve(f) in (None, f.id) else resolve(f)
        arg = node.args[rows[name]["position"]] if name in reading and len(node.args) > rows[name]["position"] \
            and not _falls_back(name) else None
        if arg is not None and name in displays:  # the probe handed a list of device scalars (`torch.tensor([loss])`)
            if isinstance(arg, (ast.List, ast.Tuple)) and any(device_tensor(e) for e in arg.elts):
                out.append((node, f"`{name}([tensor, ...])`"))
        elif arg is not None and name is not None and device_tensor(arg):
            out.append((node, f"`{name.removeprefix('builtins.')}(tensor)`"))
        elif name in ("builtins.any", "builtins.all") and name in reading and len(node.args) == 1 \
                and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp)) and device_tensor(node.args[0].elt):
            # the probe iterates a bool vector: the truth test of each item reads it; items that are tensors
            # already are read the same way
            out.append((node, f"`{name.removeprefix('builtins.')}()` over tensors"))
    return out


def _state_saves(torch: TorchFacts, resolve: Callable[[ast.expr], str | None], row: dict) -> list[tuple[ast.AST, str]]:
    """``torch.save`` in step code of the state of the step's own model or optimizer
    (``torch.save(self.model.state_dict(), f)``, or a dict display holding such states), where the host
    table's ``torch.save`` row measured pickling a device tensor reading it back (a proven tensor handed
    to it is ``_function_reads``'s). The model is what step code calls (``self.model(ids)``), the
    optimizer what it zeroes (``self.opt.zero_grad()``): under the declaration both live on the device."""
    if not row.get("reads"):
        return []
    used: set[str] = set()
    for n in torch.nodes:
        if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute)):
            if isinstance(n.func, ast.Attribute) and n.func.attr == "zero_grad" and not n.args:
                used.add(ast.unparse(n.func.value))
            elif isinstance(n.func, ast.Name) or isinstance(n.func.value, ast.Name) and n.func.value.id == "self":
                used.add(ast.unparse(n.func))  # (a call of a name or of `self.x`: a module; `F.relu` is no state)

    def state(e: ast.expr | None) -> bool:
        return isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "state_dict" \
            and not e.args and not e.keywords and ast.unparse(e.func.value) in used

    out: list[tuple[ast.AST, str]] = []
    for node in torch.nodes:
        if isinstance(node, ast.Call) and node.args and resolve(node.func) == "torch.save":
            obj = node.args[0]
            if any(state(v) for v in (obj.values if isinstance(obj, ast.Dict) else [obj])):
                out.append((node, "`torch.save` of the step's model or optimizer state (pickling a device tensor "
                                  "copies it to the host)"))
    return out


def _probe_hands_display(row: dict) -> bool:
    """The row's probe hands the function a list display of device tensors at the row's position
    (``torch.tensor([t, t * 2])``), not a tensor: the rule looks at the items of such a display."""
    try:
        call = ast.parse(row.get("call", ""), mode="eval").body
    except SyntaxError:
        return False
    position = row.get("position", 0)
    return isinstance(call, ast.Call) and len(call.args) > position \
        and isinstance(call.args[position], (ast.List, ast.Tuple))


def _falls_back(name: str | None) -> bool:
    """The op table says the op runs on the CPU (``torch.equal``): XLA351 reports it, with its transfer."""
    return name is not None and op_table()["ops"].get(name, {}).get("status") == "fallback"


def method_reads(rows: dict[str, dict]) -> dict[str, bool]:
    """Tensor methods the host table's ``methods`` sweep saw hand a Python value (or a copy on the CPU)
    back after reading the device: name -> whether the probe passed an argument (``v.equal(w)``,
    ``v.to("cpu")``) rather than none (``t.is_nonzero()``). Methods that read because they fall back
    to the CPU and return a device tensor (``median``, ``nonzero``) are XLA351's and XLA250's (the op
    table says which fall back; a lowered op that reads, ``inverse``, stays); the protocol methods
    (``__bool__``, ``__float__``) count when called by name (``bool(t)`` and ``if t:`` are reported as such)."""
    out: dict[str, bool] = {}
    for key, row in rows.items():
        name, _, probe = key.partition(":")
        if not row.get("reads") or name in _READ_METHODS:
            continue
        if row.get("returns") == "torch.Tensor" and row.get("device") != "cpu" and _falls_back("Tensor." + name):
            continue
        if row.get("returns", "").startswith("torch.return_types."):
            continue  # (aminmax, mode, frexp: device results of ops that fall back)
        out[name] = probe == "arg"
    return out


def _cpu_target(call: ast.Call) -> bool:
    """``.to("cpu")``, ``.to(device="cpu")``, ``.to(torch.device("cpu"))``: the probe's argument."""
    args = [*call.args[:1], *(k.value for k in call.keywords if k.arg == "device")]
    for a in args:
        if isinstance(a, ast.Call) and a.args:
            a = a.args[0]  # torch.device("cpu")
        if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.split(":")[0] == "cpu":
            return True
    return False


def _cpu_type(call: ast.Call, resolve: Callable[[ast.expr], str | None]) -> bool:
    """``.type(torch.DoubleTensor)``, ``.type("torch.FloatTensor")``: the probe's argument, a CPU tensor type
    (``torch.cuda.*Tensor`` and dtypes are not)."""
    if len(call.args) != 1 or call.keywords:
        return False
    a = call.args[0]
    name = a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else resolve(a) or ""
    return name.startswith("torch.") and name.count(".") == 1 and name.endswith("Tensor") and name != "torch.Tensor"


def _method_reads(torch: TorchFacts, rows: dict[str, dict],
                  resolve: Callable[[ast.expr], str | None] = lambda e: None) -> list[tuple[ast.AST, str]]:
    """Tensor methods the sweep measured reading a device tensor and returning a host value
    (``a.equal(b)``, ``a.allclose(b)``, ``t.is_nonzero()``, ``t.to("cpu")``), called on a proven
    tensor that is not on the CPU; not in a ``raise`` or ``assert`` message."""
    reading = method_reads(rows)
    out: list[tuple[ast.AST, str]] = []
    for node in torch.nodes:
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) \
                or node.func.attr not in reading or isinstance(torch.stmt_of.get(id(node)), ast.Raise):
            continue
        name, recv = node.func.attr, node.func.value
        if not torch.tensor(recv) or torch.of(recv) & CPU or _falls_back("Tensor." + name):
            continue
        with_args = bool(node.args or node.keywords)
        if with_args != reading[name] or name == "to" and not _cpu_target(node) \
                or name == "type" and not _cpu_type(node, resolve):
            continue  # (the probe's form only: `.to(device)` moves to the device, `.type()` names the type)
        out.append((node, f"`tensor.{name}(...)`" if with_args else f"`tensor.{name}()`"))
    return out


def _argument_reads(torch: TorchFacts, resolve: Callable[[ast.expr], str | None]) -> list[tuple[ast.AST, str]]:
    """Calls that the op table's argument probes (tools/generate_torch_table.py, ``argument_dependent``)
    measured reading the value on the host when an argument is left out (``reads_value`` on a row whose
    ``when`` says ``"absent"``: ``F.one_hot(labels)`` without ``num_classes`` sizes its result from
    ``labels.max()``), on a proven device tensor given as the only argument; not in a ``raise`` or
    ``assert`` message. A call that passes anything after the input may pass the argument by position:
    not counted."""
    reading: dict[str, str] = {}
    for op, rows in op_table()["argument_dependent"].items():
        for row in rows:
            absent = [k for k, v in row.get("when", {}).items() if v == "absent"]
            if row.get("reads_value") and len(absent) == 1 and len(row["when"]) == 1:
                reading[op] = absent[0]
    out: list[tuple[ast.AST, str]] = []
    for node in torch.nodes:
        if not isinstance(node, ast.Call) or len(node.args) != 1 or isinstance(node.args[0], ast.Starred) \
                or isinstance(torch.stmt_of.get(id(node)), (ast.Raise, ast.Assert)):
            continue
        op = resolve(node.func) or ""
        param = reading.get(op)
        if param is None or any(k.arg in (param, None) for k in node.keywords):
            continue
        x = node.args[0]
        if torch.tensor(x) and not torch.of(x) & CPU:
            out.append((node, f"`{op.rsplit('.', 1)[-1]}(tensor)` without `{param}` (it reads the values to size "
                              "its result)"))
    return out


# size arguments of the table's `sizes` rows that are an input tensor, not a size (the first argument)
_INPUT_FIRST = frozenset({"torch.nn.functional.pad", "torch.nn.functional.one_hot", "torch.nn.functional.interpolate",
                          "torch.nn.functional.adaptive_avg_pool1d", "torch.split", "torch.multinomial"})


def _size_reads(torch: TorchFacts, resolve: Callable[[ast.expr], str | None],
                rows: dict[str, dict]) -> list[tuple[ast.AST, str]]:
    """A device tensor handed where torch takes a Python int (a size, a count, a slice bound): the
    host table's ``sizes`` rows measured each reading the tensor back (``torch.zeros(n)``,
    ``x[:n]``, ``x.view(n, -1)``, ``F.pad(x, (0, n))``, ``range(n)`` is a ``functions`` row) with
    ``n`` a 0-d integer tensor computed in the step."""
    reading = {name for name, row in rows.items() if row.get("reads")}
    methods = {name.removeprefix("Tensor.") for name in reading if name.startswith("Tensor.") and "(" not in name}
    out: list[tuple[ast.AST, str]] = []

    def device_size(e: ast.expr) -> bool:
        if isinstance(e, (ast.Tuple, ast.List)):
            return any(device_size(v) for v in e.elts)
        if isinstance(e, ast.Starred) or _host_scalar_call(e):
            return False
        return torch.tensor(e) and not torch.of(e) & (CPU | BOOL) and not isinstance(e, (ast.Tuple, ast.List))

    def _host_scalar_call(e: ast.expr) -> bool:
        """A torch function on Python numbers only (``torch.div(x.size(1), w, rounding_mode="trunc")``,
        Longformer's chunk count): the result is a CPU scalar tensor, reading it runs no XLA graph."""
        if not isinstance(e, ast.Call) or not (resolve(e.func) or "").startswith("torch.") \
                or isinstance(e.func, ast.Attribute) and torch.tensor(e.func.value):
            return False
        return not any(k.arg == "device" for k in e.keywords) and not any(
            torch.tensor(a) and not _host_scalar_call(a) for a in [*e.args, *(k.value for k in e.keywords)])

    for node in torch.nodes:
        if isinstance(torch.stmt_of.get(id(node)), (ast.Raise, ast.Assert)):
            continue
        if isinstance(node, ast.Subscript) and (torch.tensor(node.value) or multi_axis_of_batch(node, torch)
                                                and not torch.of(node.value) & CPU):
            # (``x[:, :n]`` of a batch item moved to the device: a tensor, as XLA450 reads it)
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if "Tensor.__getitem__(slice)" in reading and any(
                    isinstance(p, ast.Slice) and any(b is not None and device_size(b) for b in (p.lower, p.upper))
                    for p in parts):
                out.append((node, "a tensor as a slice bound"))
            elif "Tensor.__getitem__(index)" in reading and any(
                    torch.of(p) & (ZERO_D | LONG) == ZERO_D | LONG and device_size(p) for p in parts):
                out.append((node, _INDEX_READ))
            continue
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = resolve(f)
        if name in reading and name.startswith("torch."):
            size = rows[name].get("argument")
            # the positional parameters torch states (the table's `params`; none where its overloads make the
            # binding depend on the count): a device tensor at another one than the size (`torch.full(size,
            # fill)`'s `fill_value`) is a number the host converts, the read the message names
            params: list[str] = rows[name].get("params") or []
            sized, numbers = False, []
            for i, a in enumerate(node.args):
                if isinstance(a, ast.Starred):
                    params = []  # the positions after it are unknown
                if (i == 0 and name in _INPUT_FIRST) or not device_size(a):
                    continue
                param = params[i] if i < len(params) else None
                if param is None or param.startswith("*") or param == size:
                    sized = True
                else:
                    numbers.append(param)
            keywords = [k for k in node.keywords if k.arg not in ("input", "device", "dtype", "generator")
                        and device_size(k.value)]
            if sized or any(k.arg == size or size is None for k in keywords):
                out.append((node, f"a tensor as a size of `{name}`"))
            elif numbers or keywords:  # a number parameter (F.pad's `value`): the host converts the tensor
                out.append((node, f"a tensor as the number `{numbers[0] if numbers else keywords[0].arg}` of `{name}`"))
        elif isinstance(f, ast.Attribute) and f.attr in methods and torch.tensor(f.value) \
                and not torch.of(f.value) & CPU:
            if any(device_size(a) for a in node.args) or any(device_size(k.value) for k in node.keywords):
                out.append((node, f"a tensor as a size of `tensor.{f.attr}`"))
    return out


def _error_message(node: ast.AST, stmt: ast.stmt) -> bool:
    """``node`` is part of an error path: a ``raise`` statement, or the message of an ``assert`` (evaluated
    only when the assertion fails; its test runs every time)."""
    if isinstance(stmt, ast.Raise):
        return True
    return isinstance(stmt, ast.Assert) and stmt.msg is not None and any(n is node for n in ast.walk(stmt.msg))


# 8-bit pixels: the dtype of an image file or a display (PIL's `Image.fromarray`, PNG writers, Gradio and
# Streamlit images take HxWx3 uint8) and one no step computes with (autograd takes only floating and complex
# tensors, and an 8-bit value cannot carry a model's state): a value turned into them is a finished output
_PIXEL_DTYPES = frozenset({"torch.uint8", "np.uint8"})  # (the alias table spells numpy `np`)


def _renders_pixels(node: ast.AST, stmt: ast.stmt, resolve: Callable[[ast.expr], str | None]) -> bool:
    """The statement turns what ``node`` reads into 8-bit pixels: ``node`` holds, or is in the receiver of, a
    conversion to uint8 (``.to("cpu", torch.uint8)``, ``.to(dtype=torch.uint8)``, ``.type(torch.uint8)``,
    ``.byte()``, ``.astype(np.uint8)``/``.astype("uint8")``). The read hands over a rendered image, once it is
    final (PixArt's Gradio demo, taming-transformers' `save_image`): the program's output, not a value of a
    step's computation, so no device alternative exists for it."""
    for call in ast.walk(stmt):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
            continue
        attr = call.func.attr
        # (the conversion before the read, in what it reads, or after it, on what it read)
        if attr not in ("to", "type", "astype", "byte") or not (
                any(n is call for n in ast.walk(node)) or any(n is node for n in ast.walk(call.func.value))):
            continue
        if attr == "byte":
            if not call.args and not call.keywords:
                return True
            continue
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            if isinstance(arg, ast.Constant) and arg.value == "uint8" or isinstance(arg, (ast.Name, ast.Attribute)) \
                    and resolve(arg) in _PIXEL_DTYPES:
                return True
    return False


# Writers of image files that take a tensor and copy it to the CPU themselves (torchvision's save_image
# calls `.to("cpu", torch.uint8)` on its grid): what they are given is the program's output, a sample image
_IMAGE_WRITERS = frozenset({"torchvision.utils.save_image"})


def _written_as_image(node: ast.AST, stmt: ast.stmt, resolve: Callable[[ast.expr], str | None]) -> bool:
    """The statement hands what ``node`` reads to an image writer as the image (``save_image(x.cpu(), path)``,
    transfusion-pytorch's sample grids): like :func:`_renders_pixels`, a finished output, not a step's value."""
    return any(isinstance(call, ast.Call) and call.args and resolve(call.func) in _IMAGE_WRITERS
               and any(n is node for n in ast.walk(call.args[0])) for call in ast.walk(stmt))


def _decoder(f: ast.expr) -> bool:
    """``f`` names a decoder of token ids into text: ``tokenizer.decode``/``batch_decode`` (transformers',
    sentencepiece's and tiktoken's method names) or a function named ``decode_*`` (``decode_token``)."""
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    return name in ("decode", "batch_decode") or name.startswith("decode_")


def _decoded_as_text(node: ast.AST, stmt: ast.stmt) -> bool:
    """``node`` is a ``.tolist()`` whose Python ints the statement hands to a text decoder (:func:`_decoder`), as an
    argument (``tokenizer.decode(ids.tolist())``, ``map(decode_token, ids.tolist())``) or, for a loop over them,
    through the loop's variable (``for t in tokens.tolist(): tokenizer.decode(t[:n])``): generated ids turned
    into the program's text output, as a finished image turned into pixels is (:func:`_renders_pixels`; open_lm's
    and transfusion-pytorch's samples). No device decoder takes a Python list."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "tolist"):
        return False

    def holds(e: ast.AST) -> bool:
        return any(n is node for n in ast.walk(e))

    if isinstance(stmt, (ast.For, ast.AsyncFor)) and holds(stmt.iter):
        names = {n.id for n in ast.walk(stmt.target) if isinstance(n, ast.Name)}
        for s in stmt.body:  # the loop's names, rebound from themselves (t = t[:n]) and decoded
            for call in ast.walk(s):
                if isinstance(call, ast.Call) and _decoder(call.func) and any(
                        isinstance(n, ast.Name) and n.id in names for a in call.args for n in ast.walk(a)):
                    return True
        return False
    for call in ast.walk(stmt):
        if not isinstance(call, ast.Call):
            continue
        if _decoder(call.func) and any(holds(a) for a in call.args):
            return True
        if isinstance(call.func, ast.Name) and call.func.id == "map" and len(call.args) >= 2 \
                and _decoder(call.args[0]) and any(holds(a) for a in call.args[1:]):
            return True
    return False


def _names_scheduler(recv: ast.expr) -> bool:
    """``recv``'s own name says learning-rate scheduler (``scheduler``, ``self.lr_scheduler``, ``sched``)."""
    name = recv.id if isinstance(recv, ast.Name) else recv.attr if isinstance(recv, ast.Attribute) else ""
    return "sched" in name.lower() or "plateau" in name.lower()


def _only_metric(call: ast.Call, row: dict, torch: TorchFacts) -> bool:
    """``call`` hands exactly one value, in the probed argument's place (first positional or its keyword), and
    that value is a proven tensor not on the CPU; a diffusion scheduler's ``step(pred, t, latents)`` is not this."""
    given = list(call.args) + [k.value for k in call.keywords if k.arg == row.get("argument")]
    if len(given) != 1 or len(call.args) + len(call.keywords) != 1:
        return False
    return torch.tensor(given[0]) and not torch.of(given[0]) & CPU


def _shows_tensor(arg: ast.expr, torch: TorchFacts) -> bool:
    """Printing or formatting ``arg`` formats a device tensor: a proven tensor, or a dict of proven tensors
    (``print({"loss": loss, "acc": acc})``: the dict's repr formats every value)."""
    if (torch.tensor(arg) or torch.of(arg) & TENSOR_DICT) and not torch.of(arg) & CPU:
        return True
    if isinstance(arg, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) and _shows_tensor(v.value, torch) for v in arg.values)
    return False


class TorchHostSyncInStep(ModuleRule):
    """
    ## What it does
    Flags reading a torch tensor's value on the host inside a torch_xla step: `.item()`,
    `.tolist()`, `.numpy()`, `.cpu()`, `float(t)`/`int(t)`/`bool(t)`, `print(t)`, and a tensor
    used as a Python truth value (`if t:`, `while t:`, `assert t`, `not t`, `t and x`). Only
    values proven to be torch tensors count (results of torch ops and tensor methods, model
    outputs, batches from a `DataLoader`), and only code proven to run in a torch_xla step (see
    `docs/torch.md`). Library calls that `tools/generate_torch_host_table.py` measured copying a
    device tensor to the host (xlacheck/data/torch_xla_host.json) count too: a logging sink handed
    a proven tensor (`SummaryWriter.add_scalar`/`add_scalars`/`add_histogram`, tqdm's
    `set_postfix`/`set_description`, `ReduceLROnPlateau.step(loss)`, which compares the metric on
    the host) on an object the file builds from that class (a scheduler the file does not build,
    named `*sched*`, stepped with one proven device tensor is taken for the plateau scheduler: the
    only torch scheduler whose step takes a value), `opt.step()`
    where the file builds `opt` from an optimizer whose step reads values back (`Adafactor`,
    `ASGD`, `Rprop`, `LBFGS`), `clip_grad_norm_(..., error_if_nonfinite=True)`, a call of a
    module its `modules` rows measured testing a mask on the host (an `nn.Transformer`,
    `nn.TransformerEncoder` or `nn.TransformerDecoder` the file builds, handed `src_mask`/`mask`/
    `tgt_mask` as a proven device tensor without the `src_is_causal`/`is_causal`/`tgt_is_causal`
    hint: torch compares the mask with a causal one to pick its kernel), and the Python
    functions and formatting its `functions` rows saw read a device tensor (`math.isnan(loss)`,
    `math.exp(t)`, `str(t)`, `format(t, ".3f")`, `range(n)` of an integer tensor, `"%.3f" % loss`,
    `"{}".format(loss)`, `any()`/`all()`/`sorted()`/`max()`/`min()` of tensors, `x in t`,
    `torch.allclose`, `math.isclose`, `xm.master_print(t)`, `xm.mesh_reduce(tag, t, fn)`, and a
    tensor built from a list of device scalars, `torch.tensor([loss, acc])` (its probe hands a list
    display: the display's items count); not in a `raise` or `assert` message; `x in t` only with
    `--preview`: on real code all four were in flash-attention branches that never run on XLA).
    The table's Tensor-method sweep (every public `torch.Tensor` method called on lazily computed
    float, integer and bool tensors) gives the methods that hand a host value back (`t.is_nonzero()`, `a.allclose(b)`,
    `t.to("cpu")`); methods that read because the op falls back to the CPU and returns a device
    tensor (`median`, `nonzero`, `torch.equal`) are XLA351's and XLA250's. Its `sizes` rows give
    the places where torch turns a device integer tensor into a Python int (a host read each time):
    a slice bound `x[:n]`, the size of a factory `torch.zeros(n)`, `x.view(n, -1)`,
    `x.new_zeros(n)`, `x.narrow(0, 0, n)`, `x.topk(n)`, `F.pad(x, (0, n))`, `range(n)`, with `n` a
    proven device tensor (`n = mask.sum()`), and an index `v[i]` (`v[:, i]`) with `i` a 0-d integer
    tensor (a full reduction such as `scores.argmax()` or `mask.sum() - 1`, not an index tensor with
    a dimension: that one gathers on the device), and a call the op table's argument probes
    measured sizing its result from the values when an argument is left out (`F.one_hot(y)`
    without `num_classes`, on a proven device tensor). These get no automatic fix.
    A read after `torch_xla.sync()`/`xm.mark_step()` in the same iteration
    is flagged too (without a fix) unless it runs every N-th step (`if step % n == 0:`): the
    graph already ran, but torch_xla executes it asynchronously and the read waits for the device
    to finish it (measured on torch_xla 2.9: a `TransferFromDeviceTime` sample in every step).
    Not flagged: tensors known to live on the CPU (made by a factory or `torch.tensor(data)`
    without `device=` in a file that sets no default device, moved with `.to("cpu")`, and what
    torch ops compute from them alone), `t.numpy()` itself (the host table's sweep measured it
    raising on an XLA tensor, "Use Tensor.cpu() to copy the tensor to host memory first": code that
    calls it and runs holds a CPU tensor there; after a `.to(d)` that names a device it proves that
    move went to the CPU and is reported as its read; `t.cpu().numpy()` is the `.cpu()`'s read;
    `t.numpy(force=True)` copies an XLA tensor and is a read),
    reads in a `raise` statement or an `assert` message (an
    error path) or in a block that ends the run (`print(loss.item()); sys.exit(1)` after a check
    fired; the check itself is flagged: these are set aside, and `--show-set-aside` lists them with
    the line that ends the run), and code that runs once: a value computed under
    `if self.x is None:` and kept in `self.x` (and the functions only such code calls).
    Nor a comparison with a str (`out["kind"] == "logits"`: a tensor compared with a str is a
    Python bool, Tensor.__eq__ returns NotImplemented for it). Nor the read of a finished image:
    a value converted to 8-bit pixels in the same statement (`.to("cpu", torch.uint8)`, `.byte()`,
    `.astype(np.uint8)`), the dtype of image files and displays, which no step computes with
    (autograd takes only floating and complex tensors). Nor code that cannot run with XLA tensors:
    a function that calls a CUDA-only kernel library or builds a `torch.nested` tensor (no nested
    layout takes XLA tensors, measured on torch_xla 2.9), a path the project takes on other devices;
    nor an operand an earlier one keeps from running on XLA (`torch.is_autocast_enabled() and ...`:
    CUDA's autocast, off on XLA even inside `torch.autocast("xla")`). A conditional expression with
    a read in each arm reads once (Python evaluates one arm): the first arm's read is reported.

    ## Why is this bad?
    torch_xla records operations lazily and runs them as one graph at the step's sync. A value
    read inside the step forces the pending graph to compile and run now, copies the result to
    the host and cuts the step in two graphs; every step then waits on the device twice, and
    the cut graph may be compiled anew when the code around it changes.

    ## Example
    ```python
    for x, y in pl.MpDeviceLoader(loader, device):
        loss = F.cross_entropy(model(x), y)
        losses.append(loss.item())
        loss.backward()
        xm.optimizer_step(opt)
    ```

    ## Use instead
    ```python
    for x, y in pl.MpDeviceLoader(loader, device):
        loss = F.cross_entropy(model(x), y)
        xm.add_step_closure(lambda l: losses.append(l.item()), args=(loss,))
        loss.backward()
        xm.optimizer_step(opt)
    ```

    ## Fix safety
    A statement that only prints or records the values it reads (`print(...)`, logging calls,
    TensorBoard `add_scalar`, tqdm `set_postfix`, `list.append`/`extend` of a list, a store into
    an attribute or a dict item, `self.ema = 0.9 * self.ema + 0.1 * loss.item()`, where the
    step does not name that list or object again before its sync) is rewritten to
    `xm.add_step_closure(lambda t, ...: <the same call>, args=(<the tensor>, ...))` (a store
    becomes `setattr(obj, "ema", ...)` / `obj.__setitem__(key, ...)` in the closure): everything
    but the reads is evaluated now and passed in, and the reads run on the materialized tensors
    after the step's graph (the import of `torch_xla.core.xla_model` is added when missing).
    The values are the same (proven by running both versions on torch_xla in the tests: equal
    logged values, no transfer inside the step, no extra compile), but the fix is unsafe: the
    call runs at the step's sync instead of at its line, so its output comes after the step's
    other prints, what it records is there only once the step synced, and where the same code
    runs on a CPU or GPU device the closure waits for the next torch_xla sync. Steps that do not
    sync every iteration (no `torch_xla.sync()`/`xm.mark_step()`/`MpDeviceLoader`) and
    `torch.compile` steps get no fix. No automatic fix where the value steers control flow
    (`if t:`, `and`/`or`, a conditional expression) or feeds the computation: the branch needs
    it now (decide on the device with `torch.where`, or test it after the sync every N steps).
    """

    code = "XLA350"
    fix = INLINE  # check_module builds the step-closure fix (xlacheck/rewrites/step_closure.py)
    name = "torch-host-sync-in-step"
    severity = Severity.WARNING
    # a test reads its results on purpose (an assertion, a comparison with the CPU result: engine.is_test_file),
    # even one that imports torch_xla and syncs in its own loop; on the judged batches all five such
    # findings were false (neuronx-distributed's ZeRO-1 and MoE correctness tests, optimum-neuron's
    # optimizer test)
    checks_test_files = False
    VALID = (
        # the lengths of a plain DataLoader's batch stay on the CPU (only ids and labels are moved):
        # reading them runs no XLA graph
        Example("import torch\nimport torch_xla\nfrom torch.utils.data import DataLoader\n"
                "def train(model, opt, ds, device):\n"
                "    for ids, lengths, y in DataLoader(ds, batch_size=8, drop_last=True):\n"
                "        steps = int(lengths.max())\n        if (lengths > 4).any():\n            steps += 1\n"
                "        ids, y = ids.to(device), y.to(device)\n"
                "        loss = torch.nn.functional.cross_entropy(model(ids[:, :steps]), y)\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"),
        Example("import torch\nimport torch_xla\nimport torch_xla.core.xla_model as xm\n"
                "def train(model, loader, opt, losses):\n    for x, y in loader:\n"
                "        loss = torch.nn.functional.cross_entropy(model(x), y)\n"
                "        xm.add_step_closure(lambda losses, loss: losses.append(loss.item()), args=(losses, loss))\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"),
        Example("import torch\nimport torch_xla\nimport torch_xla.core.xla_model as xm\n"
                "def train(model, loader, opt, losses):\n    device = torch_xla.device()\n"
                "    for step, (x, y) in enumerate(loader):\n        x, y = x.to(device), y.to(device)\n"
                "        loss = torch.nn.functional.cross_entropy(model(x), y)\n        loss.backward()\n"
                "        xm.optimizer_step(opt)\n        torch_xla.sync()\n        if step % 100 == 0:\n"
                "            losses.append(loss.item())\n"),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, log):\n"
                "    for x, y in loader:\n        loss = torch.nn.functional.cross_entropy(model(x), y)\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n        log(loss)\n"),
        # a helper the step calls only every n-th step (diffusers' textual-inversion `save_progress`):
        # its read runs every 500 steps, not in every step
        Example("import torch\nimport torch_xla\ndef save_progress(model, path):\n"
                "    torch.save({'emb': model.weight.detach().cpu()}, path)\n"
                "def train(model, loader, opt):\n    device = torch_xla.device()\n"
                "    for step, (x, y) in enumerate(loader):\n        x, y = x.to(device), y.to(device)\n"
                "        loss = torch.nn.functional.cross_entropy(model(x), y)\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n        if step % 500 == 0:\n"
                "            save_progress(model, 'emb.pt')\n"),
        # logging at the first step and every n-th (Lightning's MNIST examples)
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, log):\n"
                "    for i, (x, y) in enumerate(loader):\n        loss = torch.nn.functional.cross_entropy(model(x), y)\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"
                "        if i == 0 or (i + 1) % 10 == 0:\n            log(loss.item())\n"),
        # input checks in a helper that only the set-up of a declared @torch.no_grad() pipeline calls, once
        # per call before its denoising loop (diffusers' inpainting pipelines): not a read in every step
        Example("import torch\ndef check(image):\n    if image.min() < -1 or image.max() > 1:\n"
                "        raise ValueError('image should be in [-1, 1]')\n"
                "class Pipeline:\n    @torch.no_grad()\n    def __call__(self, image, steps):\n"
                "        image = torch.nn.functional.interpolate(image, size=(64, 64))\n        check(image)\n"
                "        latents = self.vae.encode(image)\n        for t in self.scheduler.timesteps[:steps]:\n"
                "            latents = self.unet(latents, t)\n        return latents\n", torch_xla=True),
        # the else branch sees the caller's string, not the tensor the if branch bound (diffusers' composable pipeline)
        Example("import torch\n@torch.no_grad()\ndef weigh(model, x, weights=''):\n    if not weights:\n"
                "        weights = torch.ones(1, device=x.device)\n    else:\n"
                "        weights = torch.tensor([float(w) for w in weights.split('|')], device=x.device)\n"
                "    return model(x) * weights\n", torch_xla=True),
        # a pipeline class's self is no module because another class of the file calls self.parameters():
        # its translator returns strings (diffusers' AnyText)
        Example("import torch\nclass Encoder(torch.nn.Module):\n    def freeze(self):\n"
                "        for p in self.parameters():\n            p.requires_grad = False\n"
                "class Pipeline:\n    def modify_prompt(self, prompt):\n"
                "        prompt = self.trans_pipe(input=prompt)['translation'][:-1]\n"
                "        print(f'Translate: {prompt}')\n        return prompt\n"
                "    @torch.no_grad()\n    def __call__(self, prompt, latents):\n        for t in range(10):\n"
                "            latents = torch.tanh(latents)\n            prompt = self.modify_prompt(prompt)\n"
                "        return latents\n", torch_xla=True),
        # a branch that cannot run on the XLA device: `is_tpu` is True there, so the `.any()` never runs
        # (fairseq's TransformerSentenceEncoder; transformers' Trainer guards its NaN filter the same way)
        Example("import torch\nclass Encoder(torch.nn.Module):\n    def forward(self, tokens: torch.Tensor):\n"
                "        is_tpu = tokens.device.type == 'xla'\n        mask = tokens.eq(0)\n"
                "        if not is_tpu and not mask.any():\n            mask = None\n"
                "        return tokens if mask is None else tokens * mask\n", torch_xla=True),
        # Python sizes make a CPU scalar tensor: reading it runs no XLA graph (composer's BlurPool padding)
        Example("import torch\nclass Blur(torch.nn.Module):\n    def forward(self, x):\n        _, _, h, w = x.shape\n"
                "        ph, pw = int(torch.div(h, 2)), int(torch.div(w, 2))\n"
                "        return torch.nn.functional.pad(x, (pw, pw, ph, ph))\n", torch_xla=True),
        # a plain tensor attribute built in __init__ is no parameter or buffer: `.to(device)` leaves it on
        # the CPU, and so is what is drawn from it (composer's stochastic depth)
        Example("import torch\nclass Drop(torch.nn.Module):\n    def __init__(self, main, p=0.2):\n"
                "        super().__init__()\n        self.main = main\n        self.p = torch.tensor(p)\n"
                "    def forward(self, x):\n        if bool(torch.bernoulli(1 - self.p)):\n"
                "            return self.main(x)\n        return x\n", torch_xla=True),
        # input checks before a declared no_grad function hands its work to a decode loop in a method of its
        # own (`getattr(type(self), mode)`: transformers' generate): once per call, not in every decode step
        Example("import torch\nfrom torch import nn\nclass Generator(nn.Module):\n    def _prepare(self, ids):\n"
                "        if (ids[:, 0] != 0).all().item():\n"
                "            ids = torch.cat([torch.zeros_like(ids[:, :1]), ids], -1)\n        return ids\n"
                "    def _sample(self, ids, steps):\n        while ids.shape[1] < steps:\n"
                "            ids = torch.cat([ids, self(ids).argmax(-1)[:, -1:]], -1)\n        return ids\n"
                "    @torch.no_grad()\n    def generate(self, ids, mode='_sample'):\n        ids = self._prepare(ids)\n"
                "        decode = getattr(type(self), mode)\n        return decode(self, ids, 8)\n", torch_xla=True),
        # the decode method a declared no_grad function hands its work to reads the source lengths once per
        # call, before its loop (fairseq's multichannel sequence generator: generate -> self._generate)
        Example("import torch\nfrom torch import nn\nclass Generator(nn.Module):\n    @torch.no_grad()\n"
                "    def generate(self, src_lengths: torch.Tensor):\n        return self._generate(src_lengths)\n"
                "    def _generate(self, src_lengths: torch.Tensor, steps=8):\n"
                "        max_len = int(src_lengths.max().item())\n"
                "        tokens = torch.zeros(4, 16, dtype=torch.long)\n"
                "        for step in range(min(steps, max_len)):\n            tokens = self.model(tokens).argmax(-1)\n"
                "        return tokens\n", torch_xla=True),
        # a model nobody moves, on host inputs: all of it runs on the CPU (pytorch/examples' time sequence)
        Example("import numpy as np\nimport torch\nfrom torch import nn\ndef train(data):\n"
                "    x = torch.from_numpy(data)\n    model = nn.Linear(4, 1)\n"
                "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n    for _ in range(10):\n"
                "        loss = model(x).pow(2).mean()\n        loss.backward()\n        opt.step()\n"
                "        print('loss', loss.item())\n", torch_xla=True),
        # tensors made on the host: torch.tensor(data) without device= (a bucket table, a mask of Python
        # values) is a CPU tensor, reading it runs no graph (NxDI's ModelWrapper pads CPU inputs this way)
        Example("import logging\nimport torch\nfrom torch import nn\nclass Wrapper(nn.Module):\n"
                "    def forward(self, ids, n):\n        buckets = torch.tensor(self.sizes, dtype=torch.int32)\n"
                "        mask = torch.tensor([1 if i < n else 0 for i in range(8)])\n"
                "        logging.debug(f'mask {mask}')\n        if buckets[0] > n:\n            n = int(buckets[0])\n"
                "        return self.model(ids)[:, :n]\n", torch_xla=True),
        # an error path: the message of a raise is built only when it fails
        Example("import torch\nfrom torch import nn\nclass Head(nn.Module):\n    def forward(self, x):\n"
                "        y = torch.relu(x)\n        if y.shape[-1] != 4:\n"
                "            raise ValueError('bad width ' + str(y.sum().item()))\n        return y\n", torch_xla=True),
        # computed once and kept on self (a RoPE table on first use): not a read in every step
        Example("import math\nimport torch\nfrom torch import nn\nclass Rope(nn.Module):\n"
                "    def __init__(self):\n        super().__init__()\n        self.inv_freq = None\n"
                "    def freqs(self, device):\n"
                "        inv = 1.0 / (10000 ** (torch.arange(0, 8, 2, device=device) / 8))\n        out = []\n"
                "        for f in inv:\n            out.append(f if 2 * math.pi / f < 16 else f / 8)\n"
                "        return torch.stack(out)\n    def forward(self, x):\n        if self.inv_freq is None:\n"
                "            self.inv_freq = self.freqs(x.device)\n        return x * self.inv_freq\n", torch_xla=True),
        # isinstance(pos, int): a Python number in that branch, whatever the caller passes elsewhere
        Example("import torch\nfrom torch import nn\nclass Embed(nn.Module):\n    def forward(self, x, pos):\n"
                "        if isinstance(pos, int):\n            pos = torch.arange(pos)\n"
                "        return x + pos.float().mean()\n", torch_xla=True),
        # a buffer of a module nothing moves (audiolm's trainer counts its steps in one) and a tensor made
        # on a CUDA device: neither is on the XLA device, reading them runs no XLA graph
        Example("import torch\nimport torch.distributed as dist\nfrom torch import nn\nclass Trainer(nn.Module):\n"
                "    def __init__(self, model, accelerator):\n        super().__init__()\n"
                "        self.model, self.accelerator = accelerator.prepare(model), accelerator\n"
                "        self.register_buffer('steps', torch.tensor(0))\n    def load(self, step):\n"
                "        self.steps = torch.tensor([step], device=self.accelerator.device)\n"
                "    def mean(self, x: float):\n        t = torch.tensor(x, device=torch.cuda.current_device())\n"
                "        dist.all_reduce(t)\n        return t.item()\n    def train_step(self, x, opt):\n"
                "        steps = int(self.steps.item())\n        loss = self.model(x).mean()\n"
                "        self.accelerator.backward(loss)\n        opt.step()\n        self.steps.add_(1)\n"
                "        return self.mean(steps)\n", torch_xla=True),
        # a path that calls a CUDA-only kernel library (flash-attn's varlen path) never runs on XLA
        Example("import torch\nfrom torch import nn\ntry:\n    from flash_attn import flash_attn_varlen_func\n"
                "except ImportError:\n    flash_attn_varlen_func = None\nclass Attention(nn.Module):\n"
                "    def __init__(self, use_flash_attn=False):\n        super().__init__()\n"
                "        self.use_flash_attn = use_flash_attn\n    def _unpad(self, q, mask):\n"
                "        lengths = mask.sum(-1)\n        return q[mask], lengths.max().item()\n"
                "    def flash(self, q, k, v, mask):\n        q, n = self._unpad(q, mask)\n"
                "        return flash_attn_varlen_func(q, k, v, max_seqlen_q=n)\n"
                "    def forward(self, q, k, v, mask):\n"
                "        if self.use_flash_attn:\n            return self.flash(q, k, v, mask)\n"
                "        return torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)\n",
                torch_xla=True),
        # a classifier loaded for evaluation and never moved, fed a tokenizer's CPU tensors: all on the CPU
        Example("import torch\nfrom transformers import AutoModelForSequenceClassification, AutoTokenizer\n"
                "class Task:\n    def setup(self, name):\n"
                "        self.tokenizer = AutoTokenizer.from_pretrained(name)\n"
                "        self.classifier = AutoModelForSequenceClassification.from_pretrained(name).eval()\n"
                "    @torch.no_grad()\n    def score(self, texts):\n"
                "        batch = self.tokenizer(texts, return_tensors='pt', padding=True)\n"
                "        return self.classifier(**batch).logits.softmax(-1)[:, 1].tolist()\n"
                "    def train_step(self, model, x, opt):\n        loss = model(x).mean()\n"
                "        loss.backward()\n        opt.step()\n        return self.score(['a', 'b'])\n", torch_xla=True),
        # reference statistics computed on the first call only (`if not self.loaded:` and the loader sets it)
        Example("import torch\nclass Evaluator:\n    def __init__(self, model, loader):\n"
                "        self.model, self.loader, self.loaded = model, loader, False\n    def load_stats(self):\n"
                "        feats = [self.model(x) for x in self.loader]\n"
                "        self.ref = torch.cat(feats).mean(0).cpu().numpy()\n        self.loaded = True\n"
                "    @torch.no_grad()\n    def score(self, samples):\n        if not self.loaded:\n"
                "            self.load_stats()\n        return self.model(samples).mean(0)\n", torch_xla=True),
        # an index tensor with a dimension (advanced indexing: a gather on the device), and a 0-d one that is
        # not an integer (an error, not a read)
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, log):\n"
                "    for x, y in loader:\n        scores = model(x).logits\n"
                "        log.append(scores[scores.argmax(-1)])\n"
                "        log.append(scores[scores.sum(-1).argmax().view(1)])\n"
                "        scores.sum().backward()\n        opt.step()\n        torch_xla.sync()\n"),
        # num_classes given: the one-hot size is static, nothing is read
        Example("import torch\n"
                "import torch.nn.functional as F\n"
                "import torch_xla\n"
                "def smooth(labels, n):\n"
                "    return F.one_hot(labels, n).float() * 0.9 + 0.05\n"
                "def train(model, loader, opt):\n"
                "    for x, y in loader:\n"
                "        loss = -(smooth(y, 10) * F.log_softmax(model(x), -1)).sum(-1).mean()\n"
                "        loss.backward()\n"
                "        opt.step()\n"
                "        torch_xla.sync()\n"),
        # a scheduler the file does not build, stepped without a value (a LambdaLR/cosine schedule), and a
        # diffusion scheduler's step(pred, t, latents): nothing is compared on the host
        Example("import torch\nimport torch.nn.functional as F\nimport torch_xla\n"
                "def train(model, loader, opt, scheduler, noise_scheduler):\n    for x, y in loader:\n"
                "        loss = F.mse_loss(model(x), y)\n        loss.backward()\n        opt.step()\n"
                "        scheduler.step()\n        x = noise_scheduler.step(loss, 3, x)\n        torch_xla.sync()\n"),
        # a same-file solver's own method `t` is that method, not Tensor.t: what it returns from a CPU scalar
        # (`torch.tensor(sigma)`) stays on the CPU, so the bound tests read no device value (k-diffusion's DPM-Solver)
        Example("import torch\nfrom torch import nn\nclass Solver(nn.Module):\n"
                "    def __init__(self, model):\n        super().__init__()\n        self.model = model\n"
                "    def t(self, sigma):\n        return -sigma.log()\n"
                "    def fast(self, x, t_start, t_end, n):\n        if not t_end > t_start:\n"
                "            raise ValueError('reverse')\n"
                "        ts = torch.linspace(t_start, t_end, n + 1, device=x.device)\n"
                "        for i in range(n):\n            x = x + self.model(x, ts[i])\n        return x\n"
                "@torch.no_grad()\ndef sample_fast(model, x, sigma_min, sigma_max, n):\n    solver = Solver(model)\n"
                "    return solver.fast(x, solver.t(torch.tensor(sigma_max)), solver.t(torch.tensor(sigma_min)), n)\n"),
        # the set-up and the output of a sampler whose loop runs a model handed in (`model(x, sigma)`,
        # `model.decode(z)`): once per call, not once per step
        Example("import torch\n@torch.no_grad()\ndef sample_lms(model, x, sigmas):\n"
                "    sigmas_cpu = sigmas.detach().cpu().numpy()\n    for i in range(len(sigmas) - 1):\n"
                "        x = x + (x - model(x, sigmas[i])) * float(sigmas_cpu[i])\n    return x\n"
                "@torch.no_grad()\ndef decode(model, z, n):\n    out = []\n    for i in range(0, z.shape[0], n):\n"
                "        out.append(model.decode(z[i:i + n]))\n    audio = torch.cat(out).cpu()\n"
                "    return [a.numpy() for a in audio]\n"),
        # an evaluation that a flag turns on, every n-th step or at the last: `do_eval and (step % n == 0 or ...)`
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, args, total):\n    metrics = []\n"
                "    for step, (x, y) in enumerate(loader):\n"
                "        loss = torch.nn.functional.cross_entropy(model(x), y)\n        metrics.append(loss.detach())\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"
                "        if args.do_eval and (step % args.eval_steps == 0 or step == total):\n"
                "            print(torch.stack(metrics).mean().to('cpu'))\n            metrics = []\n"),
        # a training step split in two (transformers' Trainer): the loss the backward half returns stays a tensor
        Example("import torch\nimport torch.nn.functional as F\nclass Trainer:\n    def __init__(self, model, opt):\n"
                "        self.model, self.opt = model, opt\n    def training_step(self, x, y):\n"
                "        loss = F.cross_entropy(self.model(x), y)\n        loss.backward()\n"
                "        return loss.detach()\n"
                "    def train_step(self, x, y):\n        loss = self.training_step(x, y)\n        self.opt.step()\n"
                "        self.opt.zero_grad()\n        return loss\n", torch_xla=True),
        # the step's model checkpointed every 1000th step only
        Example("import io\nimport torch\nimport torch.nn.functional as F\nclass Trainer:\n"
                "    def __init__(self, model, opt):\n        self.model, self.opt, self.it = model, opt, 0\n"
                "    def train_step(self, x, y):\n        self.opt.zero_grad()\n"
                "        loss = F.cross_entropy(self.model(x), y)\n        loss.backward()\n        self.opt.step()\n"
                "        self.it += 1\n        if self.it % 1000 == 0:\n"
                "            torch.save(self.model.state_dict(), io.BytesIO())\n        return loss.detach()\n",
                torch_xla=True),
        # a log that runs only where Ascend's PyTorch backend was imported (Open-Sora-Plan's NPU path,
        # docs/torch-prec22.md): another accelerator's branch, not the XLA device's
        Example("import torch\ntry:\n    import torch_npu\nexcept ImportError:\n    torch_npu = None\n\n"
                "def train(model, loader, opt, log):\n    for x in loader:\n        loss = model(x).sum()\n"
                "        loss.backward()\n        opt.step()\n        if torch_npu is not None and log is not None:\n"
                "            log.print_msg(f'loss={loss.detach().item()}')\n", torch_xla=True),
        # a finished image turned into 8-bit pixels for a file or a display (PixArt's Gradio demo, taming-transformers'
        # save_image): the program's output, no value of a step's computation (_renders_pixels)
        Example("import numpy as np\nimport torch\nfrom PIL import Image\n\n@torch.no_grad()\ndef to_image(model, z):\n"
                "    x = torch.tanh(model(z))\n"
                "    return (x * 127.5 + 128).clamp(0, 255).permute(1, 2, 0).to('cpu', torch.uint8).numpy()\n\n"
                "@torch.no_grad()\ndef save(model, z, path):\n    x = torch.tanh(model(z))\n"
                "    x = ((x.cpu().numpy().transpose(1, 2, 0) + 1.0) * 127.5).clip(0, 255).astype(np.uint8)\n"
                "    Image.fromarray(x).save(path)\n", torch_xla=True),
        # a comparison with a str is a Python bool: Tensor.__eq__ returns NotImplemented for a str (measured,
        # torch 2.9), so the item compared is no tensor read (DeepSpeed's `config["curriculum_type"] == "seqlen"`)
        Example("import torch\nimport torch_xla\n\ndef train(model, loader, opt):\n    for x, y in loader:\n"
                "        out = model(x)\n        if out['kind'] == 'logits':\n"
                "            loss = torch.nn.functional.cross_entropy(out['value'], y)\n        else:\n"
                "            loss = out['value'].mean()\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n", torch_xla=True),
        # the module's own `def log` rebinds `from math import log` for every call in a function (Python looks
        # the global up when the function runs): a device op, no math.log (x-transformers' gumbel noise, batch 23)
        Example("import torch\nfrom math import log\n\ndef log(t, eps=1e-20):\n    return t.clamp(min=eps).log()\n\n"
                "def train(model, loader, opt):\n    for x in loader:\n        logits = model(x)\n"
                "        noise = -log(-log(torch.rand_like(logits)))\n"
                "        loss = (logits + noise).logsumexp(-1).mean()\n        loss.backward()\n        opt.step()\n",
                torch_xla=True),
        # an attribute bound to a lambda (never to a constructor's result) is a Python function, no submodule: its
        # result is no module output (NaViT's token dropout rate, real-code batch 24)
        Example("import torch\nfrom torch import nn\n\nclass Net(nn.Module):\n    def __init__(self, drop=None):\n"
                "        super().__init__()\n        self.proj = nn.Linear(4, 4)\n        self.calc_drop = None\n"
                "        if callable(drop):\n            self.calc_drop = drop\n"
                "        elif isinstance(drop, float):\n            self.calc_drop = lambda h, w: drop\n\n"
                "    def forward(self, images):\n        device = next(self.parameters()).device\n"
                "        seqs = [img.flatten(1).t().to(device) for img in images]\n"
                "        for i, seq in enumerate(seqs):\n            rate = self.calc_drop(*images[i].shape[-2:])\n"
                "            keep = max(1, int(seq.shape[0] * (1 - rate)))\n            seqs[i] = seq[:keep]\n"
                "        return self.proj(torch.cat(seqs)).sum()\n",
                torch_xla=True),
        # torch.nested cannot build a nested tensor of XLA tensors (measured, torch_xla 2.9: the jagged layout
        # raises AttributeError, the strided one an internal assert), so this forward never runs on XLA
        # (vit-pytorch's NaViT with nested jagged tensors, real-code batch 24)
        Example("import torch\nimport torch_xla\nfrom torch import nn\nfrom torch.nested import nested_tensor\n\n"
                "class NaViT(nn.Module):\n    def __init__(self, dim):\n        super().__init__()\n"
                "        self.proj = nn.Linear(dim, dim)\n\n    def forward(self, images):\n"
                "        lens = torch.tensor([i.shape[0] for i in images], device=images[0].device)\n"
                "        tokens = torch.cat(images).split(lens.tolist())\n"
                "        return self.proj(nested_tensor(tokens, layout=torch.jagged))\n\n"
                "def train(model, loader, opt):\n    device = torch_xla.device()\n    for images in loader:\n"
                "        loss = model([i.to(device) for i in images]).values().sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                torch_xla=True),
        # torch.is_autocast_enabled() asks about CUDA autocast: False on XLA, also inside torch.autocast("xla")
        # (measured, torch_xla 2.9), so the `and` never reaches the fp16 overflow test (openfold's guard, batch 24)
        Example("import torch\n\ndef train(model, loader, opt):\n    for x in loader:\n        h = model(x)\n"
                "        if torch.is_autocast_enabled() and torch.isinf(h).any():\n"
                "            h = h.clamp(-1e4, 1e4)\n        h.sum().backward()\n        opt.step()\n",
                torch_xla=True),
        # the causal hint given: torch trusts it and tests no mask on the host (torch_xla_host.json `modules`)
        Example("import torch\nfrom torch import nn\n\nclass LM(nn.Module):\n    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 2, batch_first=True), 2)\n\n"
                "    def forward(self, x):\n"
                "        mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1], device=x.device)\n"
                "        return self.enc(x, mask=mask, is_causal=True)\n\n"
                "def train(model, loader, opt):\n    for x in loader:\n        model(x).sum().backward()\n"
                "        opt.step()\n",
                torch_xla=True),
        # a sample image handed to torchvision's save_image (which copies it to the CPU itself): the program's
        # output, as a finished image turned into pixels is (_written_as_image; transfusion-pytorch's samples)
        Example("import torch\nimport torch_xla\nfrom torchvision.utils import save_image\n\n"
                "def train(model, loader, opt, sample):\n    for step, x in enumerate(loader):\n"
                "        loss = model(x).mean()\n        loss.backward()\n        opt.step()\n"
                "        save_image(sample(model).detach().cpu(), f'{step}.png')\n        torch_xla.sync()\n",
                torch_xla=True),
        # a list the step fills with device tensors, read only after the training loop
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    device = torch_xla.device()\n"
                "    losses = []\n    for x, y in loader:\n        loss = model(x.to(device)).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"
                "        losses.append(loss.detach())\n    return [l.item() for l in losses]\n"),
        # a parameter declared a list of Python floats holds no tensor, whatever its module's callers hand the
        # forward (stable-audio-tools' NumberConditioner casts batch metadata; analysis.type_guards)
        Example("import typing as tp\n\nimport torch\nfrom torch import nn\n\n\nclass NumberConditioner(nn.Module):\n"
                "    def __init__(self, dim: int, min_val: float = 0, max_val: float = 1):\n"
                "        super().__init__()\n        self.min_val = min_val\n        self.max_val = max_val\n"
                "        self.embedder = nn.Linear(1, dim)\n\n"
                "    def forward(self, floats: tp.List[float], device=None) -> tp.Any:\n"
                "        floats = [float(x) for x in floats]\n        floats = torch.tensor(floats).to(device)\n"
                "        floats = floats.clamp(self.min_val, self.max_val)\n"
                "        normalized = (floats - self.min_val) / (self.max_val - self.min_val)\n"
                "        embeds = self.embedder(normalized[:, None])\n"
                "        return [embeds, torch.ones(embeds.shape[0], 1).to(device)]\n",
                torch_xla=True),
        # generated ids read as Python ints and decoded to text (tokenizer.decode, a decode_* function): the
        # program's output, as a finished image turned into pixels is (_decoded_as_text; open_lm's and
        # transfusion-pytorch's samples)
        Example("import torch\n\n\ndef decode_token(token):\n    return str(chr(max(32, token)))\n\n\n"
                "class Generator:\n    def __init__(self, model, tokenizer):\n        self.model = model\n"
                "        self.tokenizer = tokenizer\n\n    @torch.inference_mode()\n"
                "    def generate(self, prompts, steps):\n"
                "        tokens = torch.full((len(prompts), steps), 0).cuda().long()\n"
                "        for cur in range(1, steps):\n"
                "            tokens[:, cur] = torch.argmax(self.model(tokens[:, :cur])[0][:, -1, :], dim=-1)\n"
                "        texts = []\n        for i, t in enumerate(tokens.tolist()):\n"
                "            t = t[:steps]\n            texts.append(self.tokenizer.decode(t))\n"
                "        chars = \"\".join(map(decode_token, tokens[0].tolist()))\n"
                "        return texts, chars\n",
                torch_xla=True),
        # compute_loss of a class whose base is not a transformers Trainer: nothing says the Trainer's loop calls it
        Example("import torch.nn.functional as F\nfrom mylib import Base\n\nclass DistillTrainer(Base):\n"
                "    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):\n"
                "        logits = model(**inputs).logits\n        self.last_margin = logits.max().item()\n"
                "        return F.cross_entropy(logits, inputs['labels'])\n\n"
                "def fit(model, args, ds):\n    DistillTrainer(model=model, args=args, train_dataset=ds).train()\n",
                torch_xla=True),
        # `t.numpy()` raises on an XLA tensor (the host table's sweep): where it runs, the tensor is on the CPU
        # (lightning-flash's IceVision adapter turns a CPU sample into the NumPy image its transforms take)
        Example("import torch\nfrom torch import nn\n\nclass Adapter(nn.Module):\n"
                "    def __init__(self, transform):\n        super().__init__()\n        self.transform = transform\n\n"
                "    def forward(self, sample):\n        image = sample['input']\n"
                "        if isinstance(image, torch.Tensor):\n            image = image.permute(1, 2, 0).numpy()\n"
                "        return self.transform(image)\n", torch_xla=True),
    )
    INVALID = (
        # measured forms (xlacheck/data/torch_xla_host.json): a Python bool from torch.allclose, a device
        # tensor as a slice bound, `any()` over per-parameter checks
        Example("import torch\nimport torch.nn as nn\nimport torch_xla\n\n"
                "class Refine(nn.Module):\n    def forward(self, x, mask):\n        z = torch.tanh(x)\n"
                "        self.converged = torch.allclose(z, x)\n"
                "        n = mask.sum()\n        return z[:, :n]\n\n"
                "def train(model, loader, opt):\n    for x, mask in loader:\n        model(x, mask).sum().backward()\n"
                "        if any(torch.isnan(p.grad).any() for p in model.parameters()):\n            continue\n"
                "        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (8, 26, "`torch.allclose(tensor)` reads a torch tensor on the host inside a torch_xla step "
                            "(called from step code: a loop that calls torch_xla.sync): the pending graph runs and "
                            "is cut here; keep the value on the device (return or accumulate the tensor), read it "
                            "after `torch_xla.sync()`, or log it from `xm.add_step_closure(fn, args=(t,))`"),
                    (10, 16, "a tensor as a slice bound reads a torch tensor on the host inside a torch_xla step "
                             "(called from step code: a loop that calls torch_xla.sync): the pending graph runs and "
                             "is cut here; a size must be a Python int: keep a static size (pad to a fixed bound "
                             "and mask the tail) or compute it from shapes, not from values"),
                    (15, 12, "`any()` over tensors reads a torch tensor on the host inside a torch_xla step (a loop "
                             "that calls torch_xla.sync): the pending graph runs and is cut here; keep the value on "
                             "the device (return or accumulate the tensor), read it after `torch_xla.sync()`, or "
                             "log it from `xm.add_step_closure(fn, args=(t,))`"),
                )),
        # the VALID example's lengths, moved to the device: the read now runs the pending graph
        Example("import torch\nimport torch_xla\nfrom torch.utils.data import DataLoader\n"
                "def train(model, opt, ds, device):\n"
                "    for ids, lengths, y in DataLoader(ds, batch_size=8, drop_last=True):\n"
                "        ids, lengths, y = ids.to(device), lengths.to(device), y.to(device)\n"
                "        steps = int(lengths.max())\n"
                "        loss = torch.nn.functional.cross_entropy(model(ids[:, :steps]), y)\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                expected=((7, 17, "`int(tensor)` reads a torch tensor on the host inside a torch_xla step (a loop that "
                                  "calls torch_xla.sync): the pending graph runs and is cut here; keep the value on "
                                  "the device (return or accumulate the tensor), read it after `torch_xla.sync()`, "
                                  "or log it from `xm.add_step_closure(fn, args=(t,))`"),)),
        Example("import torch\nimport torch_xla\nimport torch_xla.core.xla_model as xm\n"
                "def train(model, loader, opt, losses):\n    device = torch_xla.device()\n"
                "    for x, y in loader:\n        x, y = x.to(device), y.to(device)\n"
                "        loss = torch.nn.functional.cross_entropy(model(x), y)\n        losses.append(loss.item())\n"
                "        loss.backward()\n        xm.optimizer_step(opt)\n        xm.mark_step()\n",
                fixed="import torch\nimport torch_xla\nimport torch_xla.core.xla_model as xm\n"
                      "def train(model, loader, opt, losses):\n    device = torch_xla.device()\n"
                      "    for x, y in loader:\n        x, y = x.to(device), y.to(device)\n"
                      "        loss = torch.nn.functional.cross_entropy(model(x), y)\n"
                      "        xm.add_step_closure(lambda losses, loss: losses.append(loss.item()), "
                      "args=(losses, loss))\n        loss.backward()\n        xm.optimizer_step(opt)\n"
                      "        xm.mark_step()\n",
                expected=(
                    (9, 23, '`.item()` reads a torch tensor on the host inside a torch_xla step (a loop that calls '
                            'xm.optimizer_step): the pending graph runs and is cut here; keep the value on the '
                            'device (return or accumulate the tensor), read it after `torch_xla.sync()`, or log it '
                            'from `xm.add_step_closure(fn, args=(t,))`'),
                )),
        Example("import math\nimport torch\nimport torch_xla.distributed.parallel_loader as pl\n"
                "def train(model, loader, opt, device, log):\n    for x, y in pl.MpDeviceLoader(loader, device):\n"
                "        loss = torch.nn.functional.cross_entropy(model(x), y)\n        loss.backward()\n"
                "        opt.step()\n        log.info('loss %.3f' % loss)\n        bad = math.isnan(loss)\n",
                expected=(
                    (9, 18, '`%` formatting of a tensor reads a torch tensor on the host inside a torch_xla step '
                            '(iterates an MpDeviceLoader): the pending graph runs and is cut here; keep the value on '
                            'the device (return or accumulate the tensor), read it after `torch_xla.sync()`, or log '
                            'it from `xm.add_step_closure(fn, args=(t,))`'),
                    (10, 15, '`math.isnan(tensor)` reads a torch tensor on the host inside a torch_xla step (iterates '
                             'an MpDeviceLoader): the pending graph runs and is cut here; keep the value on the device '
                             '(return or accumulate the tensor), read it after `torch_xla.sync()`, or log it from '
                             '`xm.add_step_closure(fn, args=(t,))`'),
                )),
        Example("import torch\nimport torch_xla\nimport torch_xla.distributed.parallel_loader as pl\n"
                "def train(model, loader, opt, device):\n    for x, y in pl.MpDeviceLoader(loader, device):\n"
                "        logits = model(x)\n        loss = torch.nn.functional.cross_entropy(logits, y)\n"
                "        if torch.isnan(loss):\n            continue\n        loss.backward()\n        opt.step()\n",
                expected=(
                    (8, 12, '`if tensor:` reads a torch tensor on the host inside a torch_xla step (iterates an '
                            'MpDeviceLoader): the pending graph runs and is cut here; the branch needs the value now, '
                            'so a step closure cannot defer it: decide on the device (`torch.where`, a masked update) '
                            'or test the value after `torch_xla.sync()` (every N steps)'),
                )),
        Example("import torch\nimport torch_xla\nimport torch_xla.distributed.parallel_loader as pl\n"
                "def train(model, loader, opt, device):\n"
                "    for step, (x, y) in enumerate(pl.MpDeviceLoader(loader, device)):\n"
                "        loss = torch.nn.functional.cross_entropy(model(x), y)\n"
                "        print(f\"step {step} loss {loss.item():.4f}\")  # every step\n"
                "        loss.backward()\n        opt.step()\n",
                fixed="import torch\nimport torch_xla\nimport torch_xla.distributed.parallel_loader as pl\n"
                      "import torch_xla.core.xla_model as xm\n"
                      "def train(model, loader, opt, device):\n"
                      "    for step, (x, y) in enumerate(pl.MpDeviceLoader(loader, device)):\n"
                      "        loss = torch.nn.functional.cross_entropy(model(x), y)\n"
                      "        xm.add_step_closure(lambda step, loss: print(f\"step {step} loss {loss.item():.4f}\"), "
                      "args=(step, loss))  # every step\n"
                      "        loss.backward()\n        opt.step()\n",
                expected=((7, 35, '`.item()` reads a torch tensor on the host inside a torch_xla step (iterates an '
                            'MpDeviceLoader): the pending graph runs and is cut here; keep the value on the device '
                            '(return or accumulate the tensor), read it after `torch_xla.sync()`, or log it from '
                            '`xm.add_step_closure(fn, args=(t,))`'),)),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, losses):\n"
                "    for x, y in loader:\n        loss = model(x).sum()\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n        losses.append(loss.item())\n",
                expected=((9, 23, '`.item()` reads a torch tensor on the host after the sync inside a torch_xla '
                            'step (a loop that calls torch_xla.sync): the graph already ran, but the read waits '
                            'for the device to finish it every step, so the host cannot trace the next step '
                            'meanwhile; read it every N steps (`if step % n == 0:`) or log it from '
                            '`xm.add_step_closure(fn, args=(t,))`'),)),
        # the list is read again in the step: appending later would change what it sees, no fix
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, losses):\n"
                "    for x, y in loader:\n        loss = model(x).sum()\n        losses.append(loss.item())\n"
                "        if len(losses) > 100:\n            losses.pop(0)\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n",
                expected=((6, 23, '`.item()` reads a torch tensor on the host inside a torch_xla step (a loop that '
                            'calls torch_xla.sync): the pending graph runs and is cut here; keep the value on the '
                            'device (return or accumulate the tensor), read it after `torch_xla.sync()`, or log it '
                            'from `xm.add_step_closure(fn, args=(t,))`'),)),
        # a Tensor method the host table's sweep measured reading: `.type(torch.FloatTensor)` copies to the CPU
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, log):\n"
                "    for x, y in loader:\n        loss = model(x).sum()\n"
                "        log.append(loss.detach().type(torch.FloatTensor))\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                expected=((6, 20, '`tensor.type(...)` reads a torch tensor on the host inside a torch_xla step (a loop '
                            'that calls torch_xla.sync): the pending graph runs and is cut here; keep the value on '
                            'the device (return or accumulate the tensor), read it after `torch_xla.sync()`, or log '
                            'it from `xm.add_step_closure(fn, args=(t,))`'),)),
        # a 0-d integer tensor (a full reduction) as an index: torch reads it as a Python int (host table
        # `Tensor.__getitem__(index)`; in a tuple index too, measured: aten::_local_scalar_dense)
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, log):\n"
                "    for x, y in loader:\n        scores = model(x).logits\n        best = scores.sum(-1).argmax()\n"
                "        log.append(scores[best])\n        scores.sum().backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                expected=((7, 20, 'a 0-d integer tensor as an index reads a torch tensor on the host inside a '
                            'torch_xla step (a loop that calls torch_xla.sync): the pending graph runs and is cut '
                            'here; index with a 1-element tensor instead (`v.index_select(0, i.view(1)).squeeze(0)`): '
                            'a tensor index stays on the device'),)),
        # a check that fired prints its values before exit(1): once per run; the check itself reads every step
        Example("import sys\nimport torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    for x, y in loader:\n        loss = model(x).mean()\n        if torch.isnan(loss):\n"
                "            print(f'loss is NaN: {loss.item()}')\n            sys.exit(1)\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (7, 12, "`if tensor:` reads a torch tensor on the host inside a torch_xla step (a loop that calls "
                            "torch_xla.sync): the pending graph runs and is cut here; the branch needs the value now, "
                            "so a step closure cannot defer it: decide on the device (`torch.where`, a masked update) "
                            "or test the value after `torch_xla.sync()` (every N steps)"),
                )),
        # the op table's argument probes: F.one_hot without num_classes reads the labels' maximum (in a helper the
        # step hands the labels to); a device attribute the step re-binds from itself, and a self attribute bound
        # to torch.lt, called: both are device tensors read by `if`
        Example("import torch\n"
                "import torch.nn.functional as F\n"
                "import torch_xla\n"
                "def smooth(labels):\n"
                "    return F.one_hot(labels).float() * 0.9 + 0.05\n"
                "def train(model, loader, opt):\n"
                "    for x, y in loader:\n"
                "        loss = -(smooth(y) * F.log_softmax(model(x), -1)).sum(-1).mean()\n"
                "        loss.backward()\n"
                "        opt.step()\n"
                "        torch_xla.sync()\n",
                expected=(
                    (5, 12, "`one_hot(tensor)` without `num_classes` (it reads the "
                            "values to size its result) reads a torch "
                            "tensor on the host inside a torch_xla step (called from "
                            "step code: a loop that calls torch_xla."
                            "sync): the pending graph runs and is cut here; pass the "
                            "left-out argument as a Python int (`F.o"
                            "ne_hot(y, num_classes)`): the size is then static"),
                )),
        Example("import torch\n"
                "import torch_xla\n"
                "class Decoder:\n"
                "    def __init__(self, model, ids):\n"
                "        self.model, self.ids = model, ids\n"
                "        self.alive = torch.ones(ids.size(0), dtype=torch.long, device=ids.device)\n"
                "        self.better = torch.lt\n"
                "    @torch.no_grad()\n"
                "    def step(self, best):\n"
                "        tok = self.model(self.ids).argmax(-1)\n"
                "        self.alive = self.alive.mul((tok != 2).long())\n"
                "        if self.alive.max() == 0:\n"
                "            return best\n"
                "        if self.better(tok.float().mean(), best):\n"
                "            best = tok.float().mean()\n"
                "        return best\n"
                "def generate(model, ids, best):\n"
                "    dec = Decoder(model, ids)\n"
                "    for _ in range(8):\n"
                "        best = dec.step(best)\n"
                "        torch_xla.sync()\n"
                "    return best\n",
                expected=(
                    (12, 12, "`if tensor:` reads a torch tensor on the host inside a "
                             "torch_xla step (called from step code: a"
                            " loop that calls torch_xla.sync): the pending graph runs "
                            "and is cut here; the branch needs the "
                            "value now, so a step closure cannot defer it: decide on "
                            "the device (`torch.where`, a masked upd"
                            "ate) or test the value after `torch_xla.sync()` (every N steps)"),
                    (14, 12, "`if tensor:` reads a torch tensor on the host inside a "
                             "torch_xla step (called from step code: a"
                            " loop that calls torch_xla.sync): the pending graph runs "
                            "and is cut here; the branch needs the "
                            "value now, so a step closure cannot defer it: decide on "
                            "the device (`torch.where`, a masked upd"
                            "ate) or test the value after `torch_xla.sync()` (every N steps)"),
                )),
        # a scheduler handed in (built elsewhere) stepped with the step's loss: the plateau test reads it
        Example("import torch\nimport torch.nn.functional as F\nimport torch_xla\n"
                "def train(model, loader, opt, scheduler):\n    for x, y in loader:\n"
                "        loss = F.mse_loss(model(x), y)\n        loss.backward()\n        opt.step()\n"
                "        scheduler.step(loss.detach())\n        torch_xla.sync()\n",
                expected=(
                    (9, 9, "`scheduler.step(tensor)` (a learning-rate scheduler handed a value reads it: "
                           "ReduceLROnPlateau.step compares the metric on the host) reads a torch tensor on the host "
                           "inside a torch_xla step (a loop that calls torch_xla.sync): the pending graph runs and is "
                           "cut here; keep the value on the device (return or accumulate the tensor), read it after "
                           "`torch_xla.sync()`, or log it from `xm.add_step_closure(fn, args=(t,))`"),
                )),
        # the split training step: the optimizer steps after the method that runs the backward; the loss it
        # returns is read every step
        Example("import torch\nimport torch.nn.functional as F\nclass Trainer:\n    def __init__(self, model, opt):\n"
                "        self.model, self.opt, self.total = model, opt, 0.0\n    def training_step(self, x, y):\n"
                "        loss = F.cross_entropy(self.model(x), y)\n        loss.backward()\n"
                "        return loss.detach()\n"
                "    def train_step(self, x, y):\n        self.total += self.training_step(x, y).item()\n"
                "        self.opt.step()\n        self.opt.zero_grad()\n", torch_xla=True,
                expected=(
                    (11, 23, "`.item()` reads a torch tensor on the host inside a torch_xla step (a training step "
                             "(optimizer step after a method that runs the backward; torch code declared to run on "
                             "XLA)): the pending graph runs and is cut here; keep the value on the device (return or "
                             "accumulate the tensor), read it after `torch_xla.sync()`, or log it from "
                             "`xm.add_step_closure(fn, args=(t,))`"),
                )),
        # a checkpoint of the step's model and optimizer written in every step
        Example("import io\nimport torch\nimport torch.nn.functional as F\nclass Trainer:\n"
                "    def __init__(self, model, opt):\n        self.model, self.opt = model, opt\n"
                "    def train_step(self, x, y):\n        self.opt.zero_grad()\n"
                "        loss = F.cross_entropy(self.model(x), y)\n        loss.backward()\n        self.opt.step()\n"
                "        torch.save({'model': self.model.state_dict(), 'opt': self.opt.state_dict()}, io.BytesIO())\n"
                "        return loss.detach()\n", torch_xla=True,
                expected=(
                    (12, 9, "`torch.save` of the step's model or optimizer state (pickling a device tensor copies it "
                            "to the host) reads a torch tensor on the host inside a torch_xla step (a training step "
                            "(backward and optimizer step; torch code declared to run on XLA)): the pending graph runs "
                            "and is cut here; checkpoint every N steps or after the epoch (`xm.save` copies the state "
                            "to the CPU once)"),
                )),
        # a NaN test reads the loss every step; the debug print in its body runs only in a diverged step (the
        # error path before the batch is skipped: open_flamingo's MMC4 loop, docs/torch-prec22.md)
        Example("import torch\n\ndef train(model, loader, opt):\n    for x in loader:\n        loss = model(x).sum()\n"
                "        if torch.isnan(loss):\n            print('nan loss', loss.item(), x.max().item())\n"
                "            continue\n        loss.backward()\n        opt.step()\n",
                torch_xla=True,
                expected=(
                    (6, 12, "`if tensor:` reads a torch tensor on the host inside a torch_xla step (a training loop "
                            "on the XLA device): the pending graph runs and is cut here; the branch needs the value "
                            "now, so a step closure cannot defer it: decide on the device (`torch.where`, a masked "
                            "update) or test the value after `torch_xla.sync()` (every N steps)"),
                )),
        # F.pad's `value` is a number parameter (a Python float in the schema): a device tensor there is read
        # back once per call (naturalspeech2's aligner, corpora22); the message names `value`, not the size
        Example("import torch\nimport torch.nn.functional as F\n\ndef train(model, loader, opt):\n"
                "    fill = torch.tensor(-1e9)\n    for x in loader:\n        fill = model(x).min()\n"
                "        y = F.pad(x, (0, 1), value=fill)\n        model(y).sum().backward()\n        opt.step()\n",
                torch_xla=True,
                expected=(
                    (8, 13, "a tensor as the number `value` of `torch.nn.functional.pad` reads a torch tensor on "
                            "the host inside a torch_xla step (a training loop on the XLA device): the pending graph "
                            "runs and is cut here; the parameter takes a Python number: pass one, or apply the "
                            "tensor's value on the device (`F.pad`: pad with 0, then `torch.where` over the padded "
                            "positions)"),
                )),
        # the same read of a float image (no 8-bit pixels): a value a step may still compute with (the copy is
        # scaled on the host before its conversion; the `.cpu()` is the read)
        Example("import numpy as np\nimport torch\n\n@torch.no_grad()\ndef to_image(model, z):\n"
                "    x = torch.tanh(model(z))\n"
                "    return (x.cpu() * 127.5 + 128).clamp(0, 255).float().numpy()\n",
                torch_xla=True,
                expected=(
                    (7, 13, "`.cpu()` reads a torch tensor on the host inside a torch_xla step (decorated with "
                            "@torch.no_grad (torch code declared to run on XLA)): the pending graph runs and is cut "
                            "here; keep the value on the device (return or accumulate the tensor), read it after "
                            "`torch_xla.sync()`, or log it from `xm.add_step_closure(fn, args=(t,))`"),
                )),
        # tqdm's set_description handed an f-string: one read, by the formatting (the sink gets a str); llama-recipes'
        # train_utils reported it twice before
        Example("import torch\nfrom tqdm import tqdm\n\ndef train(model, loader, opt):\n    pbar = tqdm(loader)\n"
                "    for x, y in pbar:\n        loss = torch.nn.functional.cross_entropy(model(x), y)\n"
                "        loss.backward()\n        opt.step()\n"
                "        pbar.set_description(f'loss {loss.detach().float()}')\n",
                torch_xla=True,
                expected=(
                    (10, 30, "an f-string of a tensor reads a torch tensor on the host inside a torch_xla step (a "
                             "training loop on the XLA device): the pending graph runs and is cut here; keep the value "
                             "on the device (return or accumulate the tensor), read it after `torch_xla.sync()`, or "
                             "log it from `xm.add_step_closure(fn, args=(t,))`"),
                )),
        # torch.full's second positional parameter is `fill_value` (torch_xla_host.json `params`, from torch's
        # signature): the read is of the fill value, not of the size (LAVIS's Vicuna causal mask, batch 23)
        Example("import torch\n\ndef train(model, loader, opt):\n    for x in loader:\n"
                "        low = model(x).min()\n        mask = torch.full((4, 4), low, device=x.device)\n"
                "        (model(x) + mask.sum()).sum().backward()\n        opt.step()\n",
                torch_xla=True,
                expected=(
                    (6, 16, "a tensor as the number `fill_value` of `torch.full` reads a torch tensor on the host "
                            "inside a torch_xla step (a training loop on the XLA device): the pending graph runs and "
                            "is cut here; the parameter takes a Python number: pass one, or apply the tensor's value "
                            "on the device (`F.pad`: pad with 0, then `torch.where` over the padded positions)"),
                )),
        # XLA autocast is on inside torch.autocast("xla"): the guard lets the read run
        Example("import torch\n\ndef train(model, loader, opt):\n    for x in loader:\n        h = model(x)\n"
                "        if torch.is_autocast_enabled(\"xla\") and torch.isinf(h).any():\n"
                "            h = h.clamp(-1e4, 1e4)\n        h.sum().backward()\n        opt.step()\n",
                torch_xla=True,
                expected=(
                    (6, 49, "`and`/`or` on a tensor reads a torch tensor on the host inside a torch_xla step (a "
                            "training loop on the XLA device): the pending graph runs and is cut here; the branch "
                            "needs the value now, so a step closure cannot defer it: decide on the device "
                            "(`torch.where`, a masked update) or test the value after `torch_xla.sync()` (every N "
                            "steps)"),
                )),
        # a conditional expression evaluates one arm: reads in both arms are one read per step, one finding
        # (x-transformers' train_path_star.py progress bar, batch 23)
        Example("import torch\n\ndef train(model, loader, opt, short):\n    for x in loader:\n"
                "        loss = model(x).mean()\n        loss.backward()\n        opt.step()\n"
                "        text = f\"{loss.item():.2f}\" if short else f\"{loss.item():.4f}\"\n",
                torch_xla=True,
                expected=(
                    (8, 19, "`.item()` reads a torch tensor on the host inside a torch_xla step (a training loop on "
                            "the XLA device): the pending graph runs and is cut here; keep the value on the device "
                            "(return or accumulate the tensor), read it after `torch_xla.sync()`, or log it from "
                            "`xm.add_step_closure(fn, args=(t,))`"),
                )),
        # nn.TransformerEncoder handed a device mask without `is_causal`: torch compares it with a causal mask and
        # turns the result into a Python bool (torch_xla_host.json `modules`, 1 transfer per call)
        Example("import torch\nfrom torch import nn\n\nclass LM(nn.Module):\n    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 2, batch_first=True), 2)\n\n"
                "    def forward(self, x):\n"
                "        mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1], device=x.device)\n"
                "        return self.enc(x, mask=mask)\n\n"
                "def train(model, loader, opt):\n    for x in loader:\n        model(x).sum().backward()\n"
                "        opt.step()\n",
                torch_xla=True,
                expected=(
                    (11, 16, "`TransformerEncoder(..., mask=mask)` with no `is_causal=` hint (torch tests on the "
                             "host whether the mask is causal: measured 1 device-to-host transfer per call) reads a "
                             "torch tensor on the host inside a torch_xla step (LM.forward (torch code declared to "
                             "run on XLA)): the pending graph runs and is cut here; pass the hint (`is_causal=True` "
                             "/ `tgt_is_causal=True` with a causal mask, `False` otherwise): torch then trusts it and "
                             "tests nothing"),
                )),
        # Lightning's logger connector (Lightning-AI/pytorch-lightning#17572): the logged values detached in a dict
        # comprehension, then moved to the CPU in another: the values of both dicts are tensors
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, logged, history):\n"
                "    device = torch_xla.device()\n    for x, y in loader:\n"
                "        loss = model(x.to(device)).sum()\n        loss.backward()\n        opt.step()\n"
                "        metrics = {k: v.detach() for k, v in logged.items()}\n"
                "        history.append({k: v.cpu() for k, v in metrics.items()})\n        torch_xla.sync()\n",
                expected=(
                    (10, 28, "`.cpu()` reads a torch tensor on the host inside a torch_xla step (a loop that calls "
                             "torch_xla.sync): the pending graph runs and is cut here; keep the value on the device "
                             "(return or accumulate the tensor), read it after `torch_xla.sync()`, or log it from "
                             "`xm.add_step_closure(fn, args=(t,))`"),
                )),
        # the loss terms zipped with their names from a tuple display of tensors: each item is a tensor
        Example("import torch\nimport torch.nn.functional as F\nimport torch_xla\n"
                "def train(model, loader, opt, history):\n    device = torch_xla.device()\n    for x, y in loader:\n"
                "        x, y = x.to(device), y.to(device)\n        out = model(x)\n"
                "        ce, reg = F.cross_entropy(out, y), out.pow(2).mean()\n        (ce + reg).backward()\n"
                "        opt.step()\n        for name, part in zip(('ce', 'reg'), (ce, reg)):\n"
                "            history.append((name, part.item()))\n        torch_xla.sync()\n",
                fixed="import torch\nimport torch.nn.functional as F\nimport torch_xla\n"
                      "import torch_xla.core.xla_model as xm\n"
                      "def train(model, loader, opt, history):\n    device = torch_xla.device()\n"
                      "    for x, y in loader:\n        x, y = x.to(device), y.to(device)\n        out = model(x)\n"
                      "        ce, reg = F.cross_entropy(out, y), out.pow(2).mean()\n        (ce + reg).backward()\n"
                      "        opt.step()\n        for name, part in zip(('ce', 'reg'), (ce, reg)):\n"
                      "            xm.add_step_closure(lambda history, name, part: "
                      "history.append((name, part.item())), args=(history, name, part))\n        torch_xla.sync()\n",
                expected=(
                    (13, 35, "`.item()` reads a torch tensor on the host inside a torch_xla step (a loop that calls "
                             "torch_xla.sync): the pending graph runs and is cut here; keep the value on the device "
                             "(return or accumulate the tensor), read it after `torch_xla.sync()`, or log it from "
                             "`xm.add_step_closure(fn, args=(t,))`"),
                )),
        # a device tensor bounding a multi-axis slice of a batch item moved to the device (a tensor: no tuple or dict
        # takes that index)
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    device = torch_xla.device()\n"
                "    for x, mask in loader:\n        x, mask = x.to(device), mask.to(device).bool()\n"
                "        n = mask.sum(1).max()\n        loss = model(x[:, :n]).sum()\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (8, 22, "a tensor as a slice bound reads a torch tensor on the host inside a torch_xla step (a "
                            "loop that calls torch_xla.sync): the pending graph runs and is cut here; a size must be "
                            "a Python int: keep a static size (pad to a fixed bound and mask the tail) or compute it "
                            "from shapes, not from values"),
                )),
        # the items of a list the step fills with device tensors (losses.append(loss)), each read at every step
        Example("import numpy as np\nimport torch\nimport torch_xla\ndef train(model, loader, opt, pbar):\n"
                "    device = torch_xla.device()\n    losses = []\n    for x, y in loader:\n"
                "        loss = model(x.to(device)).sum()\n        loss.backward()\n        opt.step()\n"
                "        losses.append(loss.detach())\n"
                "        pbar.set_postfix(loss=np.mean([l.item() for l in losses[-100:]]))\n"
                "        torch_xla.sync()\n",
                expected=(
                    (12, 40, "`.item()` reads a torch tensor on the host inside a torch_xla step (a loop that calls "
                             "torch_xla.sync): the pending graph runs and is cut here; keep the value on the device "
                             "(return or accumulate the tensor), read it after `torch_xla.sync()`, or log it from "
                             "`xm.add_step_closure(fn, args=(t,))`"),
                )),
        # a Trainer subclass's compute_loss, which the Trainer calls once per batch (xlacheck/data/hf_trainer.json)
        Example("import torch.nn.functional as F\nfrom transformers import Trainer\n\nclass DistillTrainer(Trainer):\n"
                "    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):\n"
                "        logits = model(**inputs).logits\n        self.last_margin = logits.max().item()\n"
                "        return F.cross_entropy(logits, inputs['labels'])\n\n"
                "def fit(model, args, ds):\n    DistillTrainer(model=model, args=args, train_dataset=ds).train()\n",
                torch_xla=True,
                expected=(
                    (7, 28, "`.item()` reads a torch tensor on the host inside a torch_xla step "
                            "(DistillTrainer.compute_loss (transformers' Trainer calls it once per batch; torch code "
                            "declared to run on XLA)): the pending graph runs and is cut here; keep the value on the "
                            "device (return or accumulate the tensor), read it after `torch_xla.sync()`, or log it "
                            "from `xm.add_step_closure(fn, args=(t,))`"),
                )),
        # lists the step fills by `+=` and `.extend` (as by `.append`), bound to `[]` together: device tensors
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, log):\n"
                "    device = torch_xla.device()\n    losses, norms = [], []\n    for x, y in loader:\n"
                "        loss = model(x.to(device)).sum()\n        loss.backward()\n        opt.step()\n"
                "        losses += [loss.detach()]\n        norms.extend([loss.detach().abs()])\n"
                "        log(losses[-1].item(), norms[-1])\n        torch_xla.sync()\n",
                expected=(
                    (12, 13, "`.item()` reads a torch tensor on the host inside a torch_xla step (a loop that calls "
                             "torch_xla.sync): the pending graph runs and is cut here; keep the value on the device "
                             "(return or accumulate the tensor), read it after `torch_xla.sync()`, or log it from "
                             "`xm.add_step_closure(fn, args=(t,))`"),
                )),
        # the model output read back from a dict display of the step's results by its constant key
        Example("import torch.nn.functional as F\nimport torch_xla\ndef train(model, loader, opt, log):\n"
                "    for x, y in loader:\n        res = {'logits': model(x), 'labels': y}\n"
                "        logits = res['logits']\n        log(logits.abs().max().item())\n"
                "        loss = F.cross_entropy(logits, res['labels'])\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                expected=(
                    (7, 13, "`.item()` reads a torch tensor on the host inside a torch_xla step (a loop that calls "
                            "torch_xla.sync): the pending graph runs and is cut here; keep the value on the device "
                            "(return or accumulate the tensor), read it after `torch_xla.sync()`, or log it from "
                            "`xm.add_step_closure(fn, args=(t,))`"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        library = library_reads(ctx)
        found = [(node, what, torch.stmt_of.get(id(node))) for node, what in host_reads(torch) + library]
        no_fix = {id(node) for node, _ in library}  # a read inside the library: no closure rewrite proven for it
        no_fix |= {id(node) for node, what, _ in found if what == _INDEX_READ}  # (none proven for an index)
        no_fix |= {id(node) for node, what, _ in found if " without `" in what}  # (the size is needed now)
        # after the step's own sync, every n-th step only, or once per call in the set-up of a declared
        # no_grad function (before its work loop, and the helpers only that set-up calls): not a read in
        # every step
        # (nor on an error path: the message of a `raise` or of an `assert` is built only when it fails)
        # (nor in a block that ends the run: a check that fired, printing its values before exit(1))
        # (nor the read of a finished image, converted to 8-bit pixels in the same statement: _renders_pixels,
        # or handed to an image writer: _written_as_image; nor generated ids decoded to text: _decoded_as_text)
        # (those are set aside, shown with --show-set-aside: SetAsideReason.ONCE_PER_RUN)
        once = once_per_run(ctx.tree, ctx.facts.aliases.resolve, torch)
        found = sorted(((node, what, stmt) for node, what, stmt in found
                        if stmt is None or id(stmt) not in torch.periodic and id(stmt) not in torch.setup
                        and not _error_message(node, stmt)
                        and not _renders_pixels(node, stmt, ctx.facts.aliases.resolve)
                        and not _written_as_image(node, stmt, ctx.facts.aliases.resolve)
                        and not _decoded_as_text(node, stmt)),
                       key=lambda f: (getattr(f[0], "lineno", 0), getattr(f[0], "col_offset", 0)))
        by_stmt: dict[int, list[ast.AST]] = {}
        for node, _, stmt in found:
            if stmt is not None:
                by_stmt.setdefault(id(stmt), []).append(node)
        fixed: set[int] = set()
        twins = _other_arm_reads(found)
        for node, what, stmt in found:
            if id(node) in twins:
                continue
            step = torch.in_step(node)
            where = step.why if step is not None else "a torch_xla step"
            fix = None
            aside = (SetAsideReason.ONCE_PER_RUN, once[id(stmt)]) if stmt is not None and id(stmt) in once else None
            if stmt is not None and id(stmt) in torch.after_sync:
                ctx.report(self, node, f"{what} reads a torch tensor on the host after the sync inside a torch_xla "
                                       f"step ({where}): the graph already ran, but the read waits for the device to "
                                       "finish it every step, so the host cannot trace the next step meanwhile; read "
                                       "it every N steps (`if step % n == 0:`) or log it from "
                                       "`xm.add_step_closure(fn, args=(t,))`", set_aside=aside)
                continue
            if aside is None and stmt is not None and step is not None and id(stmt) not in fixed \
                    and id(node) not in no_fix:
                fixed.add(id(stmt))  # one fix per statement, on its first finding
                fix = _closure_fix(ctx, stmt, by_stmt[id(stmt)], step)
            advice = _BRANCH_FIX if what in _BRANCHES else _NUMBER_FIX if what.startswith("a tensor as the number") \
                else _SIZE_FIX if what.startswith("a tensor as a") \
                else _INDEX_FIX if what == _INDEX_READ else _ARGUMENT_FIX if " without `" in what \
                else _CAUSAL_FIX if _CAUSAL_TEST in what \
                else _SAVE_FIX if what.startswith("`torch.save") else _FIX
            ctx.report(self, node, f"{what} reads a torch tensor on the host inside a torch_xla step ({where}): "
                                   f"the pending graph runs and is cut here; {advice}", fix=fix, set_aside=aside)


def _closure_fix(ctx: ModuleContext, stmt: ast.stmt, reads: list[ast.AST], step: Step) -> Fix | None:
    """The step-closure rewrite (xlacheck/rewrites/step_closure.py) where the step runs closures
    every iteration and the statement only prints or records the values it reads."""
    torch = ctx.torch
    resolve = ctx.facts.aliases.resolve
    if not step_syncs_each_iteration(step.why, step.node, resolve):
        return None

    def read_later(receiver: ast.expr) -> bool:
        """The step names the list again after this statement, before its sync."""
        text, end = ast.unparse(receiver), stmt.end_lineno or stmt.lineno
        return any(isinstance(n, (ast.Name, ast.Attribute)) and n.lineno > end and torch.step_of.get(id(n)) is step
                   and id(torch.stmt_of.get(id(n))) not in torch.after_sync and ast.unparse(n) == text
                   for n in torch.nodes)

    return closure_fix(stmt, reads, tree=ctx.tree, resolve=resolve, is_tensor=torch.tensor, read_later=read_later)
