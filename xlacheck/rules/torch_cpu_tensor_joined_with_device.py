"""XLA554: a tensor built on the CPU in step code, joined with tensors on the XLA device by
``torch.cat``/``torch.stack`` (torch_xla raises)."""

from __future__ import annotations

import ast

from xlacheck.analysis.dtypes import DTYPE_ALIASES, DTYPE_NAMES
from xlacheck.analysis.tables import TORCH_JOINS
from xlacheck.analysis.torch_model import (
    BATCH,
    FACTORIES_DETERMINISTIC,
    FACTORIES_NO_DEVICE,
    FACTORIES_RANDOM,
    GRAD,
    OUT,
    RANDOM_OPS,
    TENSOR,
    TorchFacts,
    factory_takes_device,
    own_statements,
)
from xlacheck.diagnostics import Applicability, Edit, Fix, Location, Severity
from xlacheck.rules.base import INLINE, Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Factories that build on the CPU unless given ``device=`` (the table XLA553 reads too).
_FACTORIES = FACTORIES_DETERMINISTIC | FACTORIES_RANDOM | FACTORIES_NO_DEVICE
# ``torch.<name>`` dtypes: ``.to(torch.float16)`` casts, it does not move the tensor.
_TORCH_DTYPES = DTYPE_NAMES | frozenset(DTYPE_ALIASES) | {"float", "long", "int", "short", "cfloat", "cdouble",
                                                          "chalf", "float8_e4m3fn", "float8_e5m2"}
# Reads that give a Python value or metadata, not a tensor: a device tensor under them is no operand.
_META_ATTRS = frozenset({"shape", "dtype", "device", "ndim", "is_cuda", "requires_grad", "layout"})
_META_CALLS = frozenset({"len", "int", "float", "bool", "range", "isinstance", "max", "min", "round"})
_META_METHODS = frozenset({"size", "dim", "numel", "item", "tolist", "stride"})

CPU, DEVICE = 1, 2


def _buffers(cls: ast.ClassDef) -> set[str]:
    """``self.register_buffer("name", ...)`` and ``self.name = nn.Parameter(...)`` in the class: tensors
    that ``model.to(device)`` moves with the module."""
    out: set[str] = set()
    for n in ast.walk(cls):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("register_buffer",
                                                                                           "register_parameter") \
                and n.args and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str):
            out.add(n.args[0].value)
    return out


class _Places:
    """Where the tensors of one step function live: CPU (a factory without ``device=``, or computed
    only from such tensors and Python values) or the device (a module output, a value autograd
    records, a batch, a module's buffer or parameter, or computed from one)."""

    def __init__(self, ctx: ModuleContext, owner: ast.FunctionDef | ast.AsyncFunctionDef, buffers: set[str]) -> None:
        self.ctx = ctx
        self.torch: TorchFacts = ctx.torch
        self.buffers = buffers
        self.names: dict[str, int] = {}
        a = owner.args
        self.params = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs} - {"self"}
        self.origin: dict[str, ast.Call] = {}  # CPU name -> the factory call that built it
        self.cpu_names: set[str] = set()  # names bound to ``"cpu"`` / ``torch.device("cpu")`` in the function

    def of(self, e: ast.expr) -> int:
        """CPU | DEVICE bits of the tensors ``e`` computes from (0: no tensor seen)."""
        resolve = self.ctx.facts.aliases.resolve
        if isinstance(e, ast.Name):
            if e.id in self.names:
                return self.names[e.id]
            if self.torch.of(e) & (OUT | GRAD | BATCH) or e.id in self.params and self.torch.of(e) & TENSOR:
                return DEVICE  # (a tensor handed to the step: on the device, as its inputs are)
            return 0
        if isinstance(e, ast.Constant):
            return 0
        if isinstance(e, ast.Attribute):
            if e.attr in _META_ATTRS:
                return 0
            if isinstance(e.value, ast.Name) and e.value.id == "self" and e.attr in self.buffers:
                return DEVICE
            return DEVICE if self.torch.of(e) & (OUT | GRAD | BATCH) else 0
        if isinstance(e, ast.Call):
            f = e.func
            name = resolve(f) or ""
            if isinstance(f, ast.Name) and f.id in _META_CALLS or isinstance(f, ast.Attribute) and f.attr in _META_METHODS:
                return 0
            if isinstance(f, ast.Attribute) and f.attr == "to" and not self._moves(e):
                return self.of(f.value)  # ``.to(torch.float16)``: a cast, the tensor stays where it was
            if isinstance(f, ast.Attribute) and f.attr in ("to", "cuda", "xla") or any(
                    kw.arg == "device" for kw in e.keywords):
                return CPU if any(self._cpu(a) for a in [*e.args, *(k.value for k in e.keywords)]) else DEVICE
            if isinstance(f, ast.Attribute) and f.attr == "cpu":
                return CPU
            if name.startswith("torch.") and name.count(".") == 1 and name[6:] in _FACTORIES and (
                    name[6:] in FACTORIES_NO_DEVICE or factory_takes_device(name[6:], e)):
                return CPU
            if name in ("torch.tensor", "torch.as_tensor"):
                return CPU if e.args and _literal(e.args[0]) else 0
            if not name.startswith("torch.") and self.torch.of(e) & (OUT | GRAD):
                return DEVICE  # a module's output
            parts = ([f.value] if isinstance(f, ast.Attribute) else []) + list(e.args) + [k.value for k in e.keywords]
            if not (name.startswith("torch.") or isinstance(f, ast.Attribute) and self.of(f.value)):
                return 0  # an unknown function: where its result lives is not known
            return self._join(parts)
        if isinstance(e, (ast.BinOp, ast.UnaryOp, ast.Tuple, ast.List, ast.Starred, ast.Subscript)):
            if isinstance(e, ast.Subscript):
                return self.of(e.value)
            return self._join([c for c in ast.iter_child_nodes(e) if isinstance(c, ast.expr)])
        return 0

    def _cpu(self, e: ast.expr) -> bool:
        """``"cpu"``, ``torch.device("cpu")``, or a name the function binds to one of them."""
        if isinstance(e, ast.Constant):
            return isinstance(e.value, str) and e.value.split(":")[0] == "cpu"
        if isinstance(e, ast.Call) and self.ctx.facts.aliases.resolve(e.func) == "torch.device":
            return bool(e.args) and self._cpu(e.args[0])
        return isinstance(e, ast.Name) and e.id in self.cpu_names

    def _dtype(self, e: ast.expr) -> bool:
        """``torch.float16``, ``x.dtype`` or a name that says it holds a dtype."""
        name = self.ctx.facts.aliases.resolve(e) or ""
        if name.startswith("torch.") and name[6:] in _TORCH_DTYPES:
            return True
        if isinstance(e, ast.Attribute) and e.attr == "dtype":
            return True
        return isinstance(e, ast.Name) and "dtype" in e.id.lower()

    def _moves(self, call: ast.Call) -> bool:
        """Whether ``t.to(...)`` names a device (``.to(device)``, ``.to(x.device)``, ``.to("xla")``,
        ``.to(other_tensor)``, ``device=``): a dtype alone (``.to(torch.float16)``, ``dtype=``) keeps the tensor
        where it was."""
        if any(k.arg == "device" or k.arg is None for k in call.keywords):
            return True
        return any(not self._dtype(a) and not (isinstance(a, ast.Constant) and isinstance(a.value, bool))
                   for a in call.args)

    def _join(self, parts: list[ast.expr]) -> int:
        bits = 0
        for p in parts:
            bits |= self.of(p)
        return DEVICE if bits & DEVICE else bits  # CPU op XLA: the result is on the device (or raises)

    def walk(self, body: list[ast.stmt]) -> None:
        for s in own_statements(body):
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], (ast.Tuple, ast.List)):
                where = self.of(s.value)  # a, b = torch.meshgrid(...): each where the call computes
                for t in s.targets[0].elts:
                    if isinstance(t, ast.Name):
                        self.names[t.id] = where
            elif isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                where = self.of(s.value)
                name = s.targets[0].id
                self.names[name] = where
                if self._cpu(s.value):
                    self.cpu_names.add(name)
                else:
                    self.cpu_names.discard(name)
                if where == CPU:
                    factory = self._factory(s.value)
                    if factory is not None:
                        self.origin[name] = factory
                    elif isinstance(s.value, ast.expr):
                        for n in ast.walk(s.value):
                            if isinstance(n, ast.Name) and n.id in self.origin:
                                self.origin[name] = self.origin[n.id]
                                break

    def _factory(self, e: ast.expr) -> ast.Call | None:
        resolve = self.ctx.facts.aliases.resolve
        for n in ast.walk(e):
            if isinstance(n, ast.Call):
                name = resolve(n.func) or ""
                op = name[6:] if name.startswith("torch.") and name.count(".") == 1 else ""
                if (op in FACTORIES_NO_DEVICE or op in ("tensor", "as_tensor") or factory_takes_device(op, n)) \
                        and not any(k.arg == "device" for k in n.keywords):
                    return n
        return None


def _plain(e: ast.expr) -> bool:
    """A name or an attribute chain on a name (``h``, ``self.sizes``): read twice, it is the same value."""
    while isinstance(e, ast.Attribute):
        e = e.value
    return isinstance(e, ast.Name)


def _op(factory: ast.Call | None, places: _Places) -> str:
    """``zeros`` of ``torch.zeros(...)`` ('' when there is no factory)."""
    if factory is None:
        return ""
    name = places.ctx.facts.aliases.resolve(factory.func) or ""
    return name[6:] if name.startswith("torch.") else ""


def _advice(op: str) -> str:
    """What the message tells the user to do, by what the factory takes."""
    if op in FACTORIES_NO_DEVICE:
        return f"`torch.{op}` takes no `device=`: move it with `.to(<input>.device)` before the join"
    if op in FACTORIES_RANDOM:
        return ("build it with `device=` (an input's `.device`), knowing the values then come from the device's "
                "generator: other values, and the CPU generator no longer advances")
    return "build it with `device=` (an input's `.device`)"


def _fix(factory: ast.Call | None, first: ast.expr, device_parts: list[ast.expr], places: _Places) -> Fix | None:
    """``torch.zeros(n, 1)`` -> ``torch.zeros(n, 1, device=h.device)``, ``h`` the first plain device operand;
    ``torch.from_numpy(a)`` (no ``device=``) -> ``torch.from_numpy(a).to(h.device)``; a random factory's fix is
    unsafe (other values)."""
    dev = next((d for d in device_parts if _plain(d)), None)
    if factory is None or dev is None or factory.end_lineno is None or factory.end_col_offset is None:
        return None
    inline = any(n is factory for n in ast.walk(first))
    root = dev
    while isinstance(root, ast.Attribute):
        root = root.value
    if not inline and not (isinstance(root, ast.Name) and (root.id == "self" or root.id in places.params)):
        return None  # the device operand may not exist yet where the factory runs
    op = _op(factory, places)
    safety = Applicability.SAFE if inline else Applicability.UNSAFE
    if op in FACTORIES_NO_DEVICE:  # the same data, copied to the device before the join
        end = Location(factory.end_lineno, factory.end_col_offset)
        return Fix(f"Move it to the device before the join: .to({ast.unparse(dev)}.device) (same values)",
                   (Edit(end, end, f".to({ast.unparse(dev)}.device)"),), safety)
    close = Location(factory.end_lineno, factory.end_col_offset - 1)
    sep = ", " if factory.args or factory.keywords else ""
    edit = Edit(close, close, f"{sep}device={ast.unparse(dev)}.device")
    if op in FACTORIES_RANDOM or any(isinstance(n, ast.Call) and isinstance(n.func, (ast.Attribute, ast.Name)) and (
            n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id) in RANDOM_OPS for n in ast.walk(first)):
        return Fix(f"Build it on the device: device={ast.unparse(dev)}.device (draws from the device's generator: "
                   "other values, and the CPU generator no longer advances)", (edit,), Applicability.UNSAFE)
    return Fix(f"Build it on the device: device={ast.unparse(dev)}.device (same values)", (edit,), safety)


def _literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float, bool))
    if isinstance(node, ast.UnaryOp):
        return _literal(node.operand)
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(_literal(x) for x in node.elts)
    return False


class TorchCpuTensorJoinedWithDevice(ModuleRule):
    """
    ## What it does
    Flags, in torch_xla step code, `torch.cat`/`torch.stack` (and `concat`, `hstack`,
    `vstack`) of a list that holds both a tensor built on the CPU in the step (a factory such as
    `torch.arange(n)`, `torch.zeros(...)` or literal `torch.tensor([...])` called without
    `device=`, or a value computed only from such tensors) and a tensor on the XLA device (a
    module's output or buffer, a value autograd records, a batch). Only a device moves a tensor:
    `.to(torch.float16)` keeps it where it was, and `device="cpu"`, `torch.device("cpu")` or a
    name the function binds to one of them is the CPU.

    ## Why is this bad?
    Elementwise ops accept a CPU operand (torch_xla copies it), but the joins do not: torch_xla
    2.9 raises `RuntimeError: Expected all tensors in the given list to be XLA tensors`
    (`torch.stack`: `Expected XLA tensor`) when the step first runs on the device, after the code
    worked on the CPU. Moving the result to the device afterwards (`.to(x.device)` on the
    concatenation) is too late. Measured in the tests on torch_xla (PJRT CPU).

    ## Example
    ```python
    def forward(self, feature_map):
        f_k = feature_map.size(-1)
        shifts = (torch.arange(f_k) + 0.5) / f_k
        return torch.cat((shifts[:, None], self.sizes.expand(f_k, 2)), dim=1)
    ```

    ## Use instead
    ```python
    def forward(self, feature_map):
        f_k = feature_map.size(-1)
        shifts = (torch.arange(f_k, device=feature_map.device) + 0.5) / f_k
        return torch.cat((shifts[:, None], self.sizes.expand(f_k, 2)), dim=1)
    ```

    ## Fix safety
    The fix passes `device=<t>.device` to the factory, `<t>` the first device tensor of the join
    that is a plain name or attribute: the same values, now on the device. A factory that takes no
    `device=` (`torch.from_numpy`) gets `.to(<t>.device)` on its result instead (the same data).
    A random factory (`randn`, `rand`, `randint`, `randperm`, `normal`), or a random op between the
    factory and the join, then draws from the device's generator: other values, and the CPU
    generator no longer advances, so that fix is always unsafe. Which factories take `device=` is
    one table shared with XLA553 (`torch_model.FACTORIES_*`), checked against torch in the tests. Safe where the factory
    is written inside the join (`torch.cat([torch.zeros(n, 1), h], 1)`): nothing else sees the
    tensor. Unsafe where it is built earlier and only reaches the join through other names, when
    `<t>` is a parameter or a `self` attribute (defined where the factory runs): other code that
    reads those names now gets device tensors too. Proven by running both versions in the tests
    (torch_xla raises on the original; the fixed one equals the CPU result).
    """

    code = "XLA554"
    checks_test_files = False  # set-up rule: a test's set-up is a toy on purpose
    fix = INLINE  # check_module builds the fix from the join it flags
    name = "torch-cpu-tensor-joined-with-device"
    severity = Severity.ERROR
    VALID = (
        Example("import torch\nimport torch_xla\n\n@torch_xla.compile\ndef step(model, x):\n    h = model(x)\n"
                "    pos = torch.arange(h.shape[1], device=h.device).float()\n"
                "    return torch.cat([h, pos.expand(h.shape[0], -1)], 1)\n"),
        Example("import torch\nimport torch_xla\n\n@torch_xla.compile\ndef step(model, x):\n    h = model(x)\n"
                "    pos = torch.arange(h.shape[1]).float()\n"
                "    return h + torch.cat([pos, pos]).to(h.device)[: h.shape[1]]\n"),
        # a dtype-only `.to` keeps the tensor where it was; a name bound to the CPU device is the CPU
        Example("import torch\nimport torch_xla\n\n@torch_xla.compile\ndef step(model, x):\n    h = model(x)\n"
                "    cpu = torch.device(\"cpu\")\n"
                "    return torch.cat([h.to(cpu).to(torch.float16), torch.zeros(2, 1, dtype=torch.float16)], 1)\n"),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\n\n@torch_xla.compile\ndef step(model, x):\n    h = model(x)\n"
                "    pos = torch.arange(h.shape[1]).float()\n"
                "    return torch.cat([h, pos.expand(h.shape[0], -1)], 1)\n",
                expected=(
                    (8, 12, "`torch.cat` joins `pos.expand(h.shape[0], -1)`, built on the CPU "
                            "(`torch.arange(h.shape[1])` has no `device=`), with tensors on the XLA device: torch_xla "
                            "raises `RuntimeError: Expected all tensors in the given list to be XLA tensors` when the "
                            "step runs; build it with `device=` (an input's `.device`)"),
                )),
        Example("import torch\nimport torch_xla\n\n@torch_xla.compile\ndef step(model, x):\n    h = model(x)\n"
                "    return torch.cat([h, torch.zeros(h.shape[0], 1)], 1)\n",
                fixed="import torch\nimport torch_xla\n\n@torch_xla.compile\ndef step(model, x):\n    h = model(x)\n"
                      "    return torch.cat([h, torch.zeros(h.shape[0], 1, device=h.device)], 1)\n",
                expected=(
                    (7, 12, "`torch.cat` joins `torch.zeros(h.shape[0], 1)`, built on the CPU "
                            "(`torch.zeros(h.shape[0], "
                            "1)` has no `device=`), with tensors on the XLA device: torch_xla raises `RuntimeError: "
                            "Expected all tensors in the given list to be XLA tensors` when the step runs; build it "
                            "with `device=` (an input's `.device`)"),
                )),
        # built earlier: the fix is unsafe (whatever else reads `pad` gets a device tensor too)
        Example("import torch\nimport torch_xla\n\n@torch_xla.compile\ndef step(model, x: torch.Tensor):\n"
                "    pad = torch.zeros(x.shape[0], 1)\n    return model(torch.cat([x, pad], 1))\n",
                fixed="import torch\nimport torch_xla\n\n@torch_xla.compile\ndef step(model, x: torch.Tensor):\n"
                      "    pad = torch.zeros(x.shape[0], 1, device=x.device)\n"
                      "    return model(torch.cat([x, pad], 1))\n",
                expected=(
                    (7, 18, "`torch.cat` joins `pad`, built on the CPU (`torch.zeros(x.shape[0], 1)` has no "
                            "`device=`), with tensors on the XLA device: torch_xla raises `RuntimeError: Expected all "
                            "tensors in the given list to be XLA tensors` when the step runs; build it with `device=` "
                            "(an input's `.device`)"),
                )),
        # no `device=` on `from_numpy`: the fix moves the same data with `.to` before the join
        Example("import torch\nimport torch_xla\n\n@torch_xla.compile\ndef step(model, x, arr):\n    h = model(x)\n"
                "    return torch.cat([h, torch.from_numpy(arr)], 1)\n",
                fixed="import torch\nimport torch_xla\n\n@torch_xla.compile\ndef step(model, x, arr):\n"
                      "    h = model(x)\n    return torch.cat([h, torch.from_numpy(arr).to(h.device)], 1)\n",
                expected=(
                    (7, 12, "`torch.cat` joins `torch.from_numpy(arr)`, built on the CPU (`torch.from_numpy(arr)` "
                            "has no `device=`), with tensors on the XLA device: torch_xla raises `RuntimeError: "
                            "Expected all tensors in the given list to be XLA tensors` when the step runs; "
                            "`torch.from_numpy` takes no `device=`: move it with `.to(<input>.device)` before the "
                            "join"),
                )),
        # a random factory with `device=` draws other values: the fix is unsafe and says so
        Example("import torch\nimport torch_xla\n\n@torch_xla.compile\ndef step(model, x):\n    h = model(x)\n"
                "    return torch.cat([h, torch.randn(h.shape[0], 1)], 1)\n",
                fixed="import torch\nimport torch_xla\n\n@torch_xla.compile\ndef step(model, x):\n    h = model(x)\n"
                      "    return torch.cat([h, torch.randn(h.shape[0], 1, device=h.device)], 1)\n",
                expected=(
                    (7, 12, "`torch.cat` joins `torch.randn(h.shape[0], 1)`, built on the CPU "
                            "(`torch.randn(h.shape[0], 1)` has no `device=`), with tensors on the XLA device: "
                            "torch_xla raises `RuntimeError: Expected all tensors in the given list to be XLA "
                            "tensors` when the step runs; build it with `device=` (an input's `.device`), knowing "
                            "the values then come from the device's generator: other values, and the CPU generator "
                            "no longer advances"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        resolve = ctx.facts.aliases.resolve
        done: set[int] = set()
        for step in torch.steps:
            owner = step.node
            if not isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)) or id(owner) in done:
                continue
            done.add(id(owner))
            info = ctx.facts.by_node.get(id(owner))
            cls = info.cls.node if info is not None and info.cls is not None else None
            places = _Places(ctx, owner, _buffers(cls) if cls is not None else set())
            places.walk(owner.body)
            for s in own_statements(owner.body):
                for call in ast.walk(s):
                    if not (isinstance(call, ast.Call) and resolve(call.func) in TORCH_JOINS and call.args
                            and isinstance(call.args[0], (ast.List, ast.Tuple))):
                        continue
                    elts = call.args[0].elts
                    where = [places.of(x) for x in elts]
                    cpu = [x for x, w in zip(elts, where) if w == CPU]
                    if not cpu or not any(w & DEVICE for w in where):
                        continue
                    first = cpu[0]
                    factory = places._factory(first) or next(
                        (places.origin[n.id] for n in ast.walk(first) if isinstance(n, ast.Name) and n.id in places.origin),
                        None)
                    built = f" (`{ast.unparse(factory)}` has no `device=`)" if factory is not None else ""
                    op = (resolve(call.func) or "torch.cat")
                    error = ("Expected XLA tensor" if op in ("torch.stack", "torch.hstack", "torch.vstack")
                             else "Expected all tensors in the given list to be XLA tensors")
                    ctx.report(self, call, f"`{op}` joins `{ast.unparse(first)}`, built on the "
                                           f"CPU{built}, with tensors "
                                           f"on the XLA device: torch_xla raises `RuntimeError: {error}` when the "
                                           f"step runs; {_advice(_op(factory, places))}",
                               fix=_fix(factory, first, [x for x, w in zip(elts, where) if w & DEVICE], places))
