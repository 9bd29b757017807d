"""Project-level call facts: which functions of one file other files of the run compile or call
from host code.

Per file the engine writes a :class:`Summary` (cached with the file's result, keyed by its
content): its module-level functions with the evidence level found in that file alone, the
same-file calls between them, and its uses of functions of other modules
(:class:`~xlacheck.analysis.contexts.ExternalUse`: ``from pkg.losses import focal_loss`` then
``model.compile(loss=focal_loss)``, or a call inside ``train_step`` or a ``dataset.map``
function). :func:`resolve` joins the summaries of a run: a use's dotted target is matched to the
file that defines it (its dotted module name, :func:`~xlacheck.analysis.tables.module_name`, or
a script beside the caller), levels rise along uses and same-file calls to a fixed point, and
each file gets :class:`~xlacheck.analysis.contexts.ProjectFact` for its functions whose level
the other files change: compiled code elsewhere calls it (its caller's level and the evidence
"called from Model.train_step() in pkg/model.py:42"), or only host code elsewhere calls a
helper nothing compiles (``HOST``). A file's result depends on these facts, so the cache key of
a file with facts includes them (:func:`facts_key`). One file alone gets no facts: the
behaviour of ``xlacheck one_file.py`` does not change.
"""

from __future__ import annotations

import ast
import bisect
import json
import os
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from xlacheck.analysis import TRY_STATEMENTS
from xlacheck.analysis.calls import CallIndex, index_calls, module_methods, project_literals
from xlacheck.analysis.compiled_exports import (
    CompiledCallable,
    Imported,
    compiled_callables,
    nonnumeric_enums,
    plain_enums,
)
from xlacheck.analysis.contexts import (
    FRAMEWORK_HEADS,
    Certainty,
    ExternalUse,
    Level,
    ModuleFacts,
    ProjectFact,
    external_uses,
)
from xlacheck.analysis.fixpoint import settle
from xlacheck.analysis.imports import canonical_module
from xlacheck.analysis.scopes import parameter_defaults
from xlacheck.analysis.tables import module_name
from xlacheck.notebook import NotebookError
from xlacheck.notebook import read as read_notebook

if TYPE_CHECKING:
    from xlacheck.cache import ResultCache


@dataclass(frozen=True)
class Summary:
    """What one file tells the others (JSON-able through :meth:`to_json`, for the cache)."""

    functions: tuple[tuple[str, Level], ...]  # module-level functions and their level in this file
    calls: tuple[tuple[str, tuple[str, ...]], ...]  # module-level function -> same-file ones it calls
    uses: tuple[ExternalUse, ...]
    # names imported at module level from non-framework modules, as imported ("..losses.focal_loss"):
    # a package's __init__ re-exports functions this way
    exports: tuple[tuple[str, str], ...] = ()
    call_index: CallIndex | None = None  # its calls by name and candidate functions (analysis.calls)
    # its module-level names that are compiled functions (analysis.compiled_exports)
    compiled: tuple[CompiledCallable, ...] = ()
    # modules imported whole at module level: (the name its code uses, the module): `import a.b as m`
    # -> ("m", "a.b"), `import a.b` -> ("a.b", "a.b")
    modules: tuple[tuple[str, str], ...] = ()
    enums: tuple[str, ...] = ()  # its module-level plain Enum classes (analysis.compiled_exports.plain_enums)
    # its module-level Enum classes whose members are no number (analysis.compiled_exports.nonnumeric_enums)
    nonnumeric_enums: tuple[str, ...] = ()
    # calls of other modules' functions whose arguments take a new value on every iteration of a loop here:
    # (the imported name, the line, ((position "0" or keyword, follows a step counter), ...))
    # (rules._recompile_scope.loops_into_other_modules)
    loop_calls: tuple[tuple[str, int, tuple[tuple[str, bool], ...]], ...] = ()
    # its module-level functions that return CUDA autocast's state, False on XLA
    # (analysis.torch_model.cuda_autocast_helpers)
    cuda_queries: tuple[str, ...] = ()

    def to_json(self) -> list[object]:
        return [[[n, int(level)] for n, level in self.functions], [[n, list(c)] for n, c in self.calls],
                [[u.target, u.caller, u.how, int(u.level), u.host, u.converted, u.jax, u.line, u.traced,
                  [list(a) for a in u.args], [list(c) for c in u.consts]] for u in self.uses],
                [list(e) for e in self.exports], None if self.call_index is None else self.call_index.to_json(),
                [c.to_json() for c in self.compiled], [list(m) for m in self.modules], list(self.enums),
                list(self.nonnumeric_enums),
                [[t, line, [list(k) for k in kinds]] for t, line, kinds in self.loop_calls], list(self.cuda_queries)]

    @classmethod
    def from_json(cls, data: list[Any]) -> Summary:
        functions, calls, uses, exports = data[:4]
        index = CallIndex.from_json(data[4]) if len(data) > 4 and data[4] is not None else None
        compiled = tuple(CompiledCallable.from_json(c) for c in data[5]) if len(data) > 5 else ()
        modules = tuple((str(a), str(b)) for a, b in data[6]) if len(data) > 6 else ()
        enums = tuple(str(e) for e in data[7]) if len(data) > 7 else ()
        nonnumeric = tuple(str(e) for e in data[8]) if len(data) > 8 else ()
        loop_calls = tuple((str(t), int(line), tuple((str(k), bool(steps)) for k, steps in kinds))
                           for t, line, kinds in data[9]) if len(data) > 9 else ()
        cuda_queries = tuple(str(e) for e in data[10]) if len(data) > 10 else ()
        return cls(tuple((n, Level(v)) for n, v in functions), tuple((n, tuple(c)) for n, c in calls),
                   tuple(ExternalUse(t, c, h, Level(v), bool(ho), bool(cv), bool(j), int(line), bool(tr),
                                     tuple((str(k), int(fl)) for k, fl in args),
                                     tuple((str(k), bool(truth)) for k, truth in consts))
                         for t, c, h, v, ho, cv, j, line, tr, args, consts in uses),
                   tuple((str(a), str(b)) for a, b in exports), index, compiled, modules, enums, nonnumeric,
                   loop_calls, cuda_queries)


def summarize(facts: ModuleFacts, tree: ast.Module | None = None,
              loop_calls: tuple[tuple[str, int, tuple[tuple[str, bool], ...]], ...] = ()) -> Summary:
    """The summary of one analyzed file (``tree``: its module, for the names it re-exports; ``loop_calls``:
    what its loops pass to other modules' functions, :attr:`Summary.loop_calls`)."""
    funcs = facts.module_funcs
    # a loss-shaped helper (LIKELY by its own shape, certainty MAYBE) is still a helper to the
    # project: evidence from another file (a train step that calls it, or only tf.data) decides
    functions = tuple((name, Level.HOST if f.host else Level.HELPER if f.certainty is Certainty.MAYBE else f.level)
                      for name, f in funcs.items())
    calls = tuple((name, tuple(sorted(n for n in f.called_names if n in funcs and n != name)))
                  for name, f in funcs.items() if any(n in funcs for n in f.called_names))
    return Summary(functions, calls, tuple(external_uses(facts)), reexports(tree) if tree is not None else (),
                   index_calls(tree, facts.functions) if tree is not None else None,
                   compiled_callables(facts, tree) if tree is not None else (),
                   module_imports(tree) if tree is not None else (),
                   plain_enums(tree) if tree is not None else (),
                   nonnumeric_enums(tree) if tree is not None else (), loop_calls,
                   _cuda_queries(facts, tree) if tree is not None else ())


def _cuda_queries(facts: ModuleFacts, tree: ast.Module) -> tuple[str, ...]:
    """:func:`~xlacheck.analysis.torch_model.cuda_autocast_helpers` of a module that imports torch."""
    if not any(v.split(".", 1)[0] == "torch" for v in facts.aliases.names.values()):
        return ()
    from xlacheck.analysis.torch_model import canonical, cuda_autocast_helpers  # the torch model, for torch files

    return cuda_autocast_helpers(tree, lambda e: canonical(facts.aliases.resolve(e)))


def module_imports(tree: ast.Module) -> tuple[tuple[str, str], ...]:
    """Modules imported whole at module level (also under ``if``/``try``), not frameworks: (the name
    the file's code uses, the module)."""
    out: list[tuple[str, str]] = []
    stack = list(reversed(tree.body))
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.Import):
            for a in stmt.names:
                if canonical_module(a.name).split(".", 1)[0] in FRAMEWORK_HEADS:
                    continue
                out.append((a.asname or a.name, a.name))
        elif isinstance(stmt, (ast.If, ast.Try)):
            for body in (stmt.body, stmt.orelse, *(h.body for h in getattr(stmt, "handlers", ()))):
                stack.extend(reversed(body))
    return tuple(out)


def reexports(tree: ast.Module) -> tuple[tuple[str, str], ...]:
    """Names imported at module level (also under ``if``/``try``) from modules that are not
    frameworks: what ``from pkg import name`` may reach through this file."""
    out: list[tuple[str, str]] = []
    stack = list(reversed(tree.body))
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.ImportFrom) and stmt.module != "__future__":
            module = "." * stmt.level + (stmt.module or "")
            if not stmt.level and canonical_module(module).split(".", 1)[0] in FRAMEWORK_HEADS:
                continue
            sep = "." if stmt.module else ""
            out.extend((a.asname or a.name, f"{module}{sep}{a.name}") for a in stmt.names if a.name != "*")
        elif isinstance(stmt, (ast.If, ast.Try)):
            for body in (stmt.body, stmt.orelse, *(h.body for h in getattr(stmt, "handlers", ()))):
                stack.extend(reversed(body))
    return tuple(out)


@dataclass(frozen=True)
class ProjectFile:
    """One file of the run: its path on disk (to find its module), how messages name it, and its
    summary; ``locate``: how messages name a line of it where that is not the line number (a
    notebook's line in the joined cells -> "cell 3:5", as its own findings are shown)."""

    path: str
    display: str
    summary: Summary
    locate: Callable[[int], str] | None = None

    def where(self, line: int) -> str:
        return f"{self.display}:{self.locate(line) if self.locate is not None else line}"


def facts_key(facts: Mapping[str, ProjectFact]) -> bytes:
    """Canonical bytes of one file's facts, for its cache key (empty when it has none)."""
    if not facts:
        return b""
    return json.dumps(sorted((n, int(f.level), f.why, f.converted, f.jax, f.traced, f.args, f.consts)
                             for n, f in facts.items())).encode()


def call_literals(files: Sequence[ProjectFile]) -> dict[str, dict[str, dict[str, object]]]:
    """Per file path: {qualname: {parameter: literal}} for its functions whose every call in the run
    leaves a parameter at one literal (:func:`xlacheck.analysis.calls.project_literals`); only files
    that get some."""
    return project_literals({f.path: f.summary.call_index for f in sorted(files, key=lambda f: f.path)
                             if f.summary.call_index is not None})


def compiles_something(summary: Summary) -> bool:
    """The file compiles something of its own: a compiled module-level name, or a module-level function
    with evidence that it runs compiled."""
    return bool(summary.compiled) or any(level >= Level.GRAPH for _, level in summary.functions)


def caller_loops(files: Sequence[ProjectFile], importers: Collection[str] = (),
                 compiles: Callable[[Summary], bool] = compiles_something
                 ) -> dict[str, dict[str, dict[str, tuple[int, str, bool]]]]:
    """Per file path: {module-level function: {position ("0") or keyword: (line, "path:line", follows a
    step counter)}} for its functions that another file of the run calls in a loop with an argument
    that takes a new value on every iteration (:attr:`Summary.loop_calls`, resolved through the
    importer's imports as :func:`resolve` resolves calls); a value that follows a step counter wins
    over one that follows any loop variable. Only files that get some and that ``compiles`` says of
    their summary, or that are among ``importers`` (files that call what other files compile)."""
    files = sorted(files, key=lambda f: f.path)
    wanted = {f.path for f in files if compiles(f.summary) or f.path in importers}
    if not any(f.summary.loop_calls for f in files):
        return {}
    modules, by_stem = _module_paths(files)
    local = {f.path: dict(f.summary.functions) for f in files}
    exports = {f.path: dict(f.summary.exports) for f in files}
    out: dict[str, dict[str, dict[str, tuple[int, str, bool]]]] = {}
    for f in files:
        for dotted, line, kinds in f.summary.loop_calls:
            target = _target(dotted, f.path, modules, by_stem, local, exports)
            if target is None or target[0] == f.path or target[0] not in wanted or target[1] not in local[target[0]]:
                continue
            record = out.setdefault(target[0], {}).setdefault(target[1], {})
            for key, steps in kinds:
                if key not in record or (steps and not record[key][2]):
                    record[key] = (line, f.where(line), steps)
    return out


def loops_key(loops: Mapping[str, Mapping[str, tuple[int, str, bool]]] | None) -> bytes:
    """Canonical bytes of one file's caller loops (:func:`caller_loops`), for its cache key (empty when none)."""
    if not loops:
        return b""
    return json.dumps(sorted((n, sorted(ks.items())) for n, ks in loops.items())).encode()


def literals_key(literals: Mapping[str, Mapping[str, object]] | None) -> bytes:
    """Canonical bytes of one file's call literals, for its cache key (empty when it has none)."""
    if not literals:
        return b""
    return json.dumps(sorted((q, sorted((p, repr(v)) for p, v in ps.items())) for q, ps in literals.items())).encode()


def resolve(files: Sequence[ProjectFile]) -> dict[str, dict[str, ProjectFact]]:
    """Facts per file path (only files that get some). Deterministic: files are visited in path
    order, and the first strongest evidence wins."""
    files = sorted(files, key=lambda f: f.path)
    modules, by_stem = _module_paths(files)
    local = {f.path: dict(f.summary.functions) for f in files}
    exports = {f.path: dict(f.summary.exports) for f in files}
    calls = {f.path: dict(f.summary.calls) for f in files}
    by_path = {f.path: f for f in files}

    from xlacheck.engine import is_test_file  # the engine imports this module

    edges: list[tuple[str, ExternalUse, tuple[str, str]]] = []  # (caller's path, use, (callee's path, name))
    for f in files:
        # a test's Keras layers and models are toys it calls eagerly, exports (tf.lite) or fits on a few rows:
        # their `call` says nothing of how a program compiles the library code it runs; a tf.function or an
        # explicit XLA entry of the test does (tensorflow/gnn: a test's Layer.call made convert_to_line_graph,
        # a preprocessing op no program compiles, look compiled)
        toy = is_test_file(f.display)
        for use in f.summary.uses:
            if toy and use.level is Level.LIKELY:
                continue
            target = _target(use.target, f.path, modules, by_stem, local, exports)
            if target is not None and target[0] != f.path and target[1] in local[target[0]]:
                edges.append((f.path, use, target))

    level = {(p, n): lv for p, fs in local.items() for n, lv in fs.items()}
    compiled: dict[tuple[str, str], ProjectFact] = {}
    # how a function raised by another file's evidence is compiled (converted by AutoGraph, traced
    # by JAX), for the functions it calls in turn: a use records only how its own file sees it
    frameworks: dict[tuple[str, str], tuple[bool, bool]] = {}

    def raise_levels() -> bool:  # levels only rise, so this settles
        changed = False
        for src, use, target in edges:
            if use.host:
                continue
            lv, raised = use.level, False
            if use.caller and level.get((src, use.caller), Level.EAGER) > lv:
                lv, raised = level[(src, use.caller)], True
            if lv < Level.GRAPH or lv <= level[target]:
                continue
            how = frameworks.get((src, use.caller)) if raised else None
            converted, jax = how if how is not None else (use.converted or (raised and not use.jax), use.jax)
            compiled[target] = ProjectFact(lv, f"{use.how} in {by_path[src].where(use.line)}", converted, jax)
            _raise(target, lv, level, calls, frameworks, (converted, jax))
            changed = True
        return changed

    settle(raise_levels)
    passed: dict[tuple[str, str], dict[str, int]] = {}  # what every compiled caller passes, OR-ed
    consts: dict[tuple[str, str], dict[str, bool]] = {}  # literals all compiled callers agree on
    traced: set[tuple[str, str]] = set()
    for src, use, target in edges:
        lv = max(use.level, level.get((src, use.caller), Level.EAGER)) if use.caller else use.level
        if target in compiled and not use.host and lv >= Level.GRAPH:
            record = passed.setdefault(target, {})
            for key, flags in use.args:
                record[key] = record.get(key, 0) | flags
            mine = dict(use.consts)
            agreed = consts.setdefault(target, mine)
            for key in list(agreed):
                if mine.get(key) is not agreed[key]:
                    del agreed[key]
            if use.traced:
                traced.add(target)
    for target, fact in compiled.items():
        compiled[target] = replace(fact, traced=target in traced, args=tuple(sorted(passed.get(target, {}).items())),
                                   consts=tuple(sorted(consts.get(target, {}).items())))

    host_why: dict[tuple[str, str], str] = {}
    host: set[tuple[str, str]] = set()

    def mark_host() -> bool:  # helpers only host code calls: the set only grows
        changed = False
        users: dict[tuple[str, str], list[tuple[bool, str]]] = {}
        for src, use, target in edges:
            if level[target] is not Level.HELPER or target in host:
                continue
            caller_host = bool(use.caller) and (src, use.caller) in host
            is_host = use.host or caller_host
            lv = max(use.level, level.get((src, use.caller), Level.EAGER)) if use.caller else use.level
            if is_host or lv >= Level.HELPER:
                users.setdefault(target, []).append((is_host, f"{use.how} in {by_path[src].where(use.line)}"))
        for target, seen in users.items():
            if all(h for h, _ in seen):
                host_why[target] = f"called only from host code ({seen[0][1]})"
                _host(target, host, level, calls)
                changed = True
        return changed

    settle(mark_host)

    out: dict[str, dict[str, ProjectFact]] = {}
    for (path, name), fact in compiled.items():
        if fact.level > local[path][name]:
            out.setdefault(path, {})[name] = fact
    for (path, name), why in host_why.items():
        out.setdefault(path, {})[name] = ProjectFact(Level.HOST, why)
    return out


def _module_paths(files: Sequence[ProjectFile]) -> tuple[dict[str, str | None], dict[str, str]]:
    """(dotted module -> path, None where two files claim it; path without .py -> path, for scripts
    importing a neighbour) of the files of a run, in path order."""
    modules: dict[str, str | None] = {}
    by_stem: dict[str, str] = {}
    for f in files:
        stem, ext = os.path.splitext(os.path.abspath(f.path))
        by_stem[stem] = f.path
        name = module_name(f.path) if ext == ".py" else None
        if name is not None:
            modules[name] = None if name in modules else f.path
    return modules, by_stem


def _absolute(dotted: str, importer: str) -> str | None:
    """A dotted name as imported (``..losses.focal_loss``) made absolute from the importer's package."""
    if not dotted.startswith("."):
        return dotted
    package = module_name(importer)
    if package is None:
        return None
    parts = package.split(".")
    if not importer.endswith("__init__.py"):
        parts = parts[:-1]
    level = len(dotted) - len(dotted.lstrip("."))
    if level - 1 > len(parts):
        return None
    parts = parts[:len(parts) - (level - 1)]
    return ".".join([*parts, dotted.lstrip(".")])


def _module_path(module: str, importer: str, modules: Mapping[str, str | None], by_stem: Mapping[str, str]
                 ) -> str | None:
    """The file of the run that an absolute dotted module names, if one does (for a script, also a
    neighbour it imports by file name)."""
    path = modules.get(module)
    if path is None and module_name(importer) is None:  # a script importing a neighbour
        path = by_stem.get(os.path.join(os.path.dirname(os.path.abspath(importer)), *module.split(".")))
    return path


def _target(dotted: str, importer: str, modules: Mapping[str, str | None], by_stem: Mapping[str, str],
            local: Mapping[str, Mapping[str, Level]], exports: Mapping[str, Mapping[str, str]], hops: int = 3
            ) -> tuple[str, str] | None:
    """(path, function name) that an imported dotted name denotes, if a file of the run defines
    it, following re-exports (``from .losses import focal_loss`` in a package's ``__init__``)."""
    absolute = _absolute(dotted, importer)
    if absolute is None:
        return None
    module, _, name = absolute.rpartition(".")
    if not module:
        return None
    path = _module_path(module, importer, modules, by_stem)
    if path is None:
        return None
    if name not in local[path] and name in exports[path] and hops > 0:
        return _target(exports[path][name], path, modules, by_stem, local, exports, hops - 1)
    return path, name


def imports(files: Sequence[ProjectFile]) -> dict[str, Imported]:
    """Per file path: what it imports from other files of the run (:func:`compiled_imports`,
    :func:`enum_imports`); only files that import some."""
    compiled = compiled_imports(files)
    enums = enum_imports(files)
    nonnumeric = enum_imports(files, lambda s: s.nonnumeric_enums)
    cuda = enum_imports(files, lambda s: s.cuda_queries)
    return {path: Imported(compiled.get(path, {}), enums.get(path, frozenset()), nonnumeric.get(path, frozenset()),
                           cuda.get(path, frozenset()))
            for path in sorted(set(compiled) | set(enums) | set(nonnumeric) | set(cuda))}


def enum_imports(files: Sequence[ProjectFile],
                 kind: Callable[[Summary], tuple[str, ...]] = lambda s: s.enums) -> dict[str, frozenset[str]]:
    """Per file path: the plain Enum classes (or the ``kind`` of Enum classes a summary lists) of other
    files of the run that it imports, by the name its code uses (``BCType``: ``from pkg.utils import
    BCType``; ``utils.BCType``: ``from pkg import utils`` or ``import pkg.utils as utils``); only files
    that import some. Linear in the imports of the run."""
    files = sorted(files, key=lambda f: f.path)
    enums = {f.path: frozenset(kind(f.summary)) for f in files}
    if not any(enums.values()):
        return {}
    modules, by_stem = _module_paths(files)
    local = {f.path: dict(f.summary.functions) for f in files}
    exports = {f.path: dict(f.summary.exports) for f in files}
    out: dict[str, frozenset[str]] = {}
    for f in files:
        got: set[str] = set()
        whole = list(f.summary.modules)
        for name, dotted in f.summary.exports:
            target = _target(dotted, f.path, modules, by_stem, local, exports)
            if target is not None and target[0] != f.path and target[1] in enums[target[0]]:
                got.add(name)
            else:
                whole.append((name, dotted))
        for name, dotted in whole:
            absolute = _absolute(dotted, f.path)
            path = _module_path(absolute, f.path, modules, by_stem) if absolute is not None else None
            if path is not None and path != f.path:
                got.update(f"{name}.{e}" for e in enums[path])
        if got:
            out[f.path] = frozenset(got)
    return out


def compiled_imports(files: Sequence[ProjectFile]) -> dict[str, dict[str, CompiledCallable]]:
    """Per file path: the compiled functions of other files of the run that it imports
    (:class:`~xlacheck.analysis.compiled_exports.CompiledCallable`, with where they are defined), by
    the name its calls use: ``step`` (``from pkg.train import step``, also through a package's
    re-export), ``train.step`` (``from pkg import train``), ``t.step`` (``import pkg.train as t``);
    an imported class's compiled methods as ``Trainer().step`` / ``train.Trainer().step``; only files
    that import some. Linear in the imports of the run."""
    files = sorted(files, key=lambda f: f.path)
    compiled = {f.path: {c.key: c for c in f.summary.compiled} for f in files}
    if not any(compiled.values()):
        return {}
    modules, by_stem = _module_paths(files)
    local = {f.path: dict(f.summary.functions) for f in files}
    exports = {f.path: dict(f.summary.exports) for f in files}
    by_path = {f.path: f for f in files}

    def placed(path: str, c: CompiledCallable) -> CompiledCallable:
        return replace(c, where=by_path[path].where(c.line))

    out: dict[str, dict[str, CompiledCallable]] = {}
    for f in files:
        got: dict[str, CompiledCallable] = {}
        whole = list(f.summary.modules)
        for name, dotted in f.summary.exports:
            target = _target(dotted, f.path, modules, by_stem, local, exports)
            if target is not None and target[0] != f.path and target[1] in compiled[target[0]]:
                got[name] = placed(target[0], compiled[target[0]][target[1]])
            elif target is not None and target[0] != f.path and any(
                    c.owner == target[1] for c in compiled[target[0]].values()):
                for c in compiled[target[0]].values():  # `from pkg.train import Trainer`
                    if c.owner == target[1]:
                        got[f"{name}().{c.name}"] = placed(target[0], c)
            else:
                whole.append((name, dotted))  # `from pkg import train`: maybe a module
        for name, dotted in whole:
            absolute = _absolute(dotted, f.path)
            path = _module_path(absolute, f.path, modules, by_stem) if absolute is not None else None
            if path is None or path == f.path:
                continue
            for key, c in compiled[path].items():
                got[f"{name}.{key}"] = placed(path, c)
        index = f.summary.call_index
        if index is not None:  # only what the file calls by that name: others cannot change its findings
            called = {name for name, _ in index.calls}
            got = {k: c for k, c in got.items() if c.name in called}
        if got:
            out[f.path] = got
    return out


def _raise(start: tuple[str, str], lv: Level, level: dict[tuple[str, str], Level],
           calls: Mapping[str, Mapping[str, tuple[str, ...]]],
           frameworks: dict[tuple[str, str], tuple[bool, bool]], how: tuple[bool, bool]) -> None:
    """Raise a function and the same-file functions it calls (transitively) to at least ``lv``,
    recording ``how`` (converted, jax) they are compiled."""
    stack = [start]
    while stack:
        key = stack.pop()
        if level[key] >= lv or level[key] is Level.HOST and key != start:
            continue
        level[key] = lv
        frameworks[key] = how
        path, name = key
        stack.extend((path, c) for c in calls[path].get(name, ()) if (path, c) in level)


def _host(start: tuple[str, str], host: set[tuple[str, str]], level: dict[tuple[str, str], Level],
          calls: Mapping[str, Mapping[str, tuple[str, ...]]]) -> None:
    """Mark a helper host code and the same-file helpers it calls (as the engine does)."""
    stack = [start]
    while stack:
        key = stack.pop()
        if key in host or level[key] > Level.HELPER:
            continue
        host.add(key)
        path, name = key
        stack.extend((path, c) for c in calls[path].get(name, ()) if (path, c) in level)


# --- module reachability: files of a run that nothing in the project runs --------------------------

# files whose text may name a module: the project's code, configs (YAML/JSON/TOML class paths,
# ``_target_:``), launch scripts (``python -m pkg.train``, ``python train.py``), notebooks and docs
_REACH_SUFFIXES = (".py", ".pyi", ".ipynb", ".yaml", ".yml", ".json", ".toml", ".cfg", ".ini", ".sh", ".bash",
                   ".md", ".rst", ".txt", ".jsonnet", ".gin", ".mk", "Makefile", "Dockerfile", ".slurm", ".sbatch")
_REACH_SKIP_DIRS = frozenset({"node_modules", "__pycache__", "site-packages", "dist-packages", "build", "dist"})
_REACH_MAX_BYTES = 2_000_000  # a larger file is data, not a config
_REACH_MAX_FILES = 50_000  # a root this big is not one project: no module counts as unreached
_ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
# (a backslash continues an import line: ``from task import a, \\\n    b``)
_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|(?:[^\n#;\\]|\\\n)*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+((?:[^\n#;\\]|\\\n)+)", re.M)
_DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_RUN_MODULE = re.compile(r"-m[ \t]+([A-Za-z_][\w.]*)")
_SCRIPT = re.compile(r"(?<![\w\-. /])[\w\-. /]*\.py\b")  # anchored where a run starts: linear time
# the text twin of analysis.is_main_guard: this scan reads files without parsing them
_MAIN_GUARD = re.compile(r"__name__\s*==\s*['\"]__main__['\"]|['\"]__main__['\"]\s*==\s*__name__")
_TOP_CALL = re.compile(r"^[A-Za-z_][\w.]*\(", re.M)  # a statement at column 0 that calls: the file runs as a script


# a script that traces or exports a model (ONNX, TorchScript tracing, torch.export, AWS Neuron): the
# model's code runs once, while it is traced, and the compiled artefact runs elsewhere, not per step
_EXPORTS = re.compile(r"\b(?:onnx\.export|onnx\.dynamo_export|jit\.trace|jit\.trace_module|torch_neuronx\.trace|"
                      r"torch\.export\.export|export_for_training|parallel_model_trace)\s*\(")
# ... unless it also trains or runs on XLA itself (a training script that exports at the end)
_STEPS_TOO = re.compile(r"\.backward\(|\boptimizer\.step\(|\bopt\.step\(|\bmark_step\b|\btorch_xla\b|"
                        r"\bxla_device\b|\bfit\(")


def _exports_only(path: str, text: str) -> bool:
    """A ``.py`` script (:func:`_runs_as_script`) that traces or exports a model and neither trains nor
    runs on XLA: what only such scripts import runs once, at trace or export time (F5-TTS's
    ``export_vocoder_to_onnx.py`` and the STFT module it alone imports; a Neuron ``compile_*.py`` that
    ``torch_neuronx.trace``s the modules of a helper it alone imports)."""
    return (path.endswith(".py") and _EXPORTS.search(text) is not None and _STEPS_TOO.search(text) is None
            and _runs_as_script(text))


def _runs_as_script(text: str) -> bool:
    """Module-level code that does work when the file runs: a ``__main__`` block, a call statement
    at column 0, or, nested in module-level ``if``/``with``/``try`` blocks, a call statement or a
    loop (a script's ``for x, y in loader:`` training loop, ``if args.train:\n    train(args)``);
    not an ``except`` handler's fallback (``except ImportError: warnings.warn(...)``). A file that
    does not parse counts as a script."""
    if _MAIN_GUARD.search(text) or _TOP_CALL.search(text):
        return True
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError):
        return True
    stack: list[ast.stmt] = list(body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)) or isinstance(stmt, ast.Expr) and isinstance(
                stmt.value, (ast.Call, ast.Await)):
            return True
        if isinstance(stmt, ast.If):
            stack.extend(stmt.body + stmt.orelse)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            stack.extend(stmt.body)
        elif isinstance(stmt, TRY_STATEMENTS):
            stack.extend(stmt.body + stmt.orelse + stmt.finalbody)
    return False
# imports by a computed name: ``importlib.import_module(name)``, ``__import__(f"pkg.{x}")``, a lazy
# package that imports its folder's files (transformers' define_import_structure), path-based loads
# a file that lists its folder's files (to import each): ``os.listdir(os.path.dirname(__file__))``
_SCANS_FOLDER = re.compile(r"\b(?:listdir|scandir|iterdir|glob|iter_modules|walk_packages|__path__|"
                           r"define_import_structure|_LazyModule)\b")
_DYNAMIC_IMPORT = re.compile(r"\b(?:import_module|__import__|define_import_structure|_LazyModule|iter_modules|"
                             r"walk_packages|spec_from_file_location|load_source|run_path|SourceFileLoader|"
                             r"import_string|import_from_string|locate)\s*\(\s*([^)\n]{0,200})")


def project_root(paths: Sequence[str]) -> str | None:
    """The folder whose files decide what a run's files are for: the common folder of ``paths``,
    raised to the folder above its top package (``__init__.py`` folders; an installed package's own
    folder, not site-packages) and then to the nearest of it and its two parents holding a project
    marker (pyproject.toml, setup.py, setup.cfg, .git)."""
    dirs = [os.path.dirname(os.path.abspath(p)) for p in paths]
    if not dirs:
        return None
    root = os.path.commonpath(dirs)
    while os.path.isfile(os.path.join(root, "__init__.py")) and os.path.dirname(root) != root:
        if os.path.basename(os.path.dirname(root)) in _REACH_SKIP_DIRS:
            return root  # an installed package (site-packages/transformers): its own folder, not the environment
        root = os.path.dirname(root)
    up = root
    for _ in range(3):
        if any(os.path.exists(os.path.join(up, m)) for m in _ROOT_MARKERS):
            return up
        if os.path.dirname(up) == up:
            break
        up = os.path.dirname(up)
    return root


_PUBLISHED = re.compile(r"\b(?:classifiers|long_description|readme|urls|url|homepage|keywords)\b\s*[=:\]]",
                        re.I)


def published(root: str) -> bool:
    """Whether the project at ``root`` publishes itself as a library (its pyproject.toml, setup.py or
    setup.cfg gives trove classifiers, a readme or long description, project URLs or keywords): users
    import any module of its packages with their own code, so none is unreached for being imported
    by no file of the project. An application's ``setup(name=..., packages=find_packages())`` for
    ``pip install -e .`` gives none of these."""
    for marker in ("pyproject.toml", "setup.py", "setup.cfg"):
        try:
            with open(os.path.join(root, marker), encoding="utf-8", errors="replace") as fh:
                if _PUBLISHED.search(fh.read(200_000)):
                    return True
        except OSError:
            continue
    return False


def _reach_files(root: str) -> list[str] | None:
    """The files under ``root`` that may name a module; None when there are too many."""
    found: list[str] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if (not d.startswith(".") or d == ".github") and d not in _REACH_SKIP_DIRS)
        for n in sorted(names):
            if n.endswith(_REACH_SUFFIXES) or n.startswith("Dockerfile"):  # Dockerfile.gpu
                found.append(os.path.join(folder, n))
        if len(found) > _REACH_MAX_FILES:
            return None
    return found


def _reach_texts(found: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(path, text) of the files of :func:`_reach_files` (a larger file than a config is data)."""
    for p in found:
        try:
            if os.path.getsize(p) > _REACH_MAX_BYTES:
                continue
            with open(p, encoding="utf-8", errors="replace") as fh:
                yield p, fh.read()
        except OSError:
            continue


def _scan_key(cache: ResultCache, root: str, found: Sequence[str], candidates: Sequence[str],
              fact: str = "unreached-modules") -> str:
    """The cache key of a project fact's answer (:func:`unreached_modules`, :func:`uncompiled_modules`): what the
    scan reads (each file's path, size and
    modification time, so an edited, added or removed file is a new key), the run's candidates, and
    the cache's salt (xlacheck's version and code)."""
    parts = [root, "\0".join(sorted(os.path.abspath(p) for p in candidates))]
    for p in found:
        try:
            st = os.stat(p)
            parts.append(f"{p}\0{st.st_size}\0{st.st_mtime_ns}")
        except OSError:
            parts.append(f"{p}\0gone")
    return cache.key("\n".join(parts).encode("utf-8", "surrogateescape"), "\0" + fact)


def _mentions_torch(path: str) -> bool:
    """Whether the file's text names torch at all (only the torch adapter reads the fact): a project
    without such a file with findings is not scanned."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return "torch" in fh.read()
    except OSError:
        return False


def _parts(path: str, root: str) -> tuple[str, ...]:
    rel = os.path.relpath(os.path.abspath(path), root)
    stem = os.path.splitext(rel)[0]
    parts = tuple(p for p in stem.replace("\\", "/").split("/") if p)
    return parts[:-1] if parts and parts[-1] == "__init__" else parts


def _code_of(path: str, text: str) -> str:
    """The Python text of a file of the scan: a notebook's code cells (its JSON quotes every line, so
    no import statement starts one), else the text as read."""
    if not path.endswith(".ipynb"):
        return text
    try:
        notebook = read_notebook(text.encode("utf-8", "surrogateescape"))
    except (NotebookError, UnicodeError):
        return text
    return text if notebook is None else notebook.source


def _imported(text: str, importer: tuple[str, ...], is_package: bool) -> Iterator[tuple[str, ...]]:
    """The modules an import statement of a file names, as dotted parts (relative ones resolved
    against the importer's root-relative parts); ``from a import b`` names a and a.b."""
    for m in _FROM_IMPORT.finditer(text):
        module, names = m.group(1), m.group(2).replace("\\", " ").strip("() \t\n")
        level = len(module) - len(module.lstrip("."))
        base: tuple[str, ...] = ()
        if level:
            package = importer if is_package else importer[:-1]
            base = package[:len(package) - (level - 1)] if level - 1 <= len(package) else ()
        head = base + tuple(p for p in module.lstrip(".").split(".") if p)
        if head:
            yield head
        for name in re.split(r"[,\s]+", names):
            if name and name not in ("as", "*") and name.isidentifier():
                yield head + (name,)
    for m in _IMPORT.finditer(text):
        for item in m.group(1).replace("\\", " ").split(","):
            name = item.strip().split(" ")[0].strip("()")
            if name and all(p.isidentifier() for p in name.split(".")):
                yield tuple(name.split("."))


def _run_scope(paths: Sequence[str], root: str | None, only: Sequence[str] | None,
               mentions: Callable[[str], bool]) -> tuple[str, list[str]] | None:
    """The project root and the candidate ``.py`` files (of ``only``, when given, that ``mentions``
    the framework) of a project fact over a run; None for a run of one file or no candidate."""
    everything = [p for p in paths if p.endswith(".py")]
    candidates = [p for p in (paths if only is None else only) if p.endswith(".py") and mentions(p)]
    if len(everything) < 2 or not candidates:
        return None
    root = root or project_root(everything)
    return None if root is None else (os.path.abspath(root), candidates)


def unreached_modules(paths: Sequence[str], root: str | None = None, only: Sequence[str] | None = None,
                      cache: ResultCache | None = None) -> dict[str, str]:
    """Per path of the run's torch ``.py`` files (of ``only``, when given) that the project never runs:
    why. A run of one file gets none. A module is reached when another file of the project (under
    :func:`project_root`: its code, configs, launch scripts, docs) imports it (a package's ``__init__``
    included), names it in a dotted string (``target: ldm.models.ddpm.DDPM``, a console script
    ``pkg.cli:main``, ``python -m pkg.train``; a class path a config hands to ``import_module``) or by
    file name (``python train.py``); when it runs as a script itself (:func:`_runs_as_script`: a
    ``__main__`` block, a call statement or a loop at its top level); when it is a package
    ``__init__``/``__main__``, ``setup.py``, a ``conftest.py`` or a test; when it lies in a folder
    whose modules the project imports by computed
    name (``import_module("." + name, __name__)``, ``f"pkg.models.{name}"``, a file that lists folders
    and imports what it finds: its whole top package; a lazy package such as transformers'); and when
    it is a public module of a package that a published project ships (:func:`published`: its users
    import it), not when its file name is no identifier (``ddpm copy.py``: no import statement can name
    it) nor when a part of its dotted name is private (``pkg._export.rope``). What the project's tests
    import or name does not count: a module only they use runs only under them. With ``cache`` the
    answer is kept under a key of what the scan reads (:func:`_scan_key`): a warm run stats the
    project's files instead of reading and matching every one (and does not import the engine)."""
    return _cached_torch_scan(paths, root, only, cache, "unreached-modules", _unreached, str)


def _unreached(root: str, found: Sequence[str], candidates: Sequence[str]) -> dict[str, str]:
    """:func:`unreached_modules` over the files :func:`_reach_files` found under ``root``."""
    return _reach(root, found, candidates)[0]


def _reach(root: str, found: Sequence[str], candidates: Sequence[str]) -> tuple[dict[str, str], set[str]]:
    """:func:`_unreached`'s answer, and the candidates (absolute paths) that run only as scripts: a file with a
    ``__main__`` block that no file the project runs imports or names (a vendored module's self-test), so what
    runs of it is what its module-level code reaches (:func:`_script_only_defs`)."""
    from xlacheck.engine import is_test_file

    texts = _reach_texts(found)
    named_by: dict[tuple[str, ...], set[str]] = {}
    scripts: dict[str, set[str]] = {}  # "train.py" (a path's tail) -> the files that name it
    dynamic: list[tuple[tuple[str, ...], str]] = []  # (folder whose modules load by computed name, the loader)
    library = published(root)
    own: dict[str, str] = {}  # path -> its own text
    code: dict[str, str] = {}  # path -> text, of every .py file that is not a test
    modules: dict[tuple[str, ...], str] = {}  # dotted parts (root-relative) of each .py file -> its path
    imports: list[tuple[tuple[str, ...], str]] = []  # (what an import statement names, the importing file)
    wanted = {os.path.abspath(p) for p in candidates}
    read = {"py": 0, "other": 0}  # what the fact rests on, for the reason the run shows
    exporters: set[str] = set()  # files that only trace or export a model (_exports_only)
    for path, text in texts:
        path = os.path.abspath(path)
        read["py" if path.endswith(".py") else "other"] += 1
        if _exports_only(path, text):
            exporters.add(path)
        if path in wanted:
            own[path] = text
        if is_test_file(os.path.relpath(path, root)):
            continue  # a module only tests import runs only under them
        if path.endswith(".py"):
            code[path] = text
        is_py = path.endswith(".py")
        here = _parts(path, root) if is_py else ()
        is_package = path.endswith("__init__.py")
        if is_py:
            modules[tuple(p for p in here if p != "__init__")] = path
        for parts in _imported(_code_of(path, text), here, is_package) if is_py or path.endswith(".ipynb") else ():
            named_by.setdefault(parts, set()).add(path)
            imports.append((parts, path))
        for m in _RUN_MODULE.finditer(text):
            named_by.setdefault(tuple(m.group(1).split(".")), set()).add(path)
        for m in _DOTTED.finditer(text):
            parts = tuple(m.group(0).split("."))
            for k in range(2, len(parts) + 1):
                named_by.setdefault(parts[:k], set()).add(path)
        for m in _SCRIPT.finditer(text):
            tail = m.group(0).strip().replace("\\", "/")  # "python tools/train.py": each way to end it
            word = tail.rsplit(" ", 1)[-1]
            for piece in {tail, tail.rsplit("/", 1)[-1], word, word.rsplit("/", 1)[-1]}:
                scripts.setdefault(piece, set()).add(path)
        scans = is_py and _SCANS_FOLDER.search(text) is not None
        for m in _DYNAMIC_IMPORT.finditer(text):
            arg = m.group(1).strip()
            if re.match(r"""^[rbu]?(['"])[\w.]*\1\s*(?:[,)]|$)""", arg):
                continue  # a literal name: a dotted string, counted above
            prefix = re.match(r"""^[fF]?(['"])([A-Za-z_][\w.]*\.)""", arg)
            if prefix:  # f"pkg.models.{name}": the modules under pkg/models
                dynamic.append((tuple(p for p in prefix.group(2).split(".") if p), path))
            elif is_py and (arg.startswith(("'.", '".', 'f".', "f'.")) or "__name__" in arg or "__package__" in arg):
                dynamic.append((here if is_package else here[:-1], path))  # relative to its own package
            elif scans:  # it lists folders and imports what it finds: any module of its top package
                dotted = module_name(path)
                dynamic.append((here[:len(here) - len(dotted.split(".")) + 1] if dotted else here[:-1], path))
            # else a name handed in (a config's class path): the dotted strings above name it
    # a project none of whose files imports another (a folder of standalone scripts or cases) has no
    # import graph: what runs is unknown there, not "nothing"
    suffixes_of = {m[i:]: path for m, path in modules.items() for i in range(len(m)) if m[i:]}
    if not any(suffixes_of.get(parts) not in (None, importer) for parts, importer in imports):
        return {}, set()

    def namers(full: str) -> set[str]:
        """The files that import, name or load ``full`` (by a dotted name, a script path, a computed import
        of its folder), itself left out."""
        parts = _parts(full, root)
        tails = {os.path.basename(full)} | {"/".join(parts[i:]) + ".py" for i in range(len(parts))}
        reach = set().union(*(named_by.get(parts[i:], set()) for i in range(len(parts))),
                            *(scripts.get(t, set()) for t in tails))
        reach |= {loader for d, loader in dynamic for i in range(len(parts) - len(d))
                  if parts[i:i + len(d)] == d}
        reach.discard(full)
        return reach

    def runs_itself(full: str) -> bool:
        """What runs without another file of the project: a script, a package ``__init__``/``__main__``,
        ``setup.py``, ``conftest.py``, a public module of a published package."""
        base = os.path.basename(full)
        if base in ("__init__.py", "__main__.py", "setup.py", "conftest.py") or _runs_as_script(code.get(full, "")):
            return True
        dotted = module_name(full)
        return library and dotted is not None and os.path.splitext(base)[0].isidentifier() and not any(
            part.startswith("_") for part in dotted.split("."))

    # what runs: from the files that run themselves (and every config, doc or script text), through the files
    # that import or name each other; a module that only modules nothing runs import does not run either
    graph: dict[str, set[str]] = {}
    todo = [os.path.abspath(p) for p in candidates]
    while todo:
        full = todo.pop()
        if full in graph or not full.endswith(".py"):
            continue
        graph[full] = namers(full)
        todo += [n for n in graph[full] if n in code]
    starts = {f for f in graph if runs_itself(f)}
    # only a project that runs something (a script, or a config, doc or notebook that names a module) says what
    # does not run through what; in one with no entry (a library folder without its users) a module another
    # file imports counts as reached, as it did before reach was transitive
    entries = any(not p.endswith(".py") for by in named_by.values() for p in by) or any(
        _MAIN_GUARD.search(t) or _TOP_CALL.search(t) for t in code.values()) or any(map(_runs_as_script, code.values()))
    def spread(live: set[str]) -> set[str]:
        grew = True
        while grew:
            grew = False
            for f, by in graph.items():
                if f not in live and any(n in live or n not in code for n in by):  # (not code: a config, doc, ...)
                    live.add(f)
                    grew = True
        return live

    live = spread(set(starts) | (set() if entries else {f for f, by in graph.items() if by}))
    # a script nothing that runs imports or names: it runs as the program, not as a module of another
    script_only = {f for f in starts if f in own and os.path.basename(f) not in (
        "__init__.py", "__main__.py", "setup.py", "conftest.py") and _MAIN_GUARD.search(code.get(f, ""))
        and not (library and module_name(f) is not None and not any(
            part.startswith("_") for part in (module_name(f) or "").split(".")))
        and not any(n not in code for n in graph.get(f, ()))
        and not (graph.get(f) and any(n in spread(set(starts) - {f}) for n in graph[f]))}
    out: dict[str, str] = {}
    for path in candidates:
        full = os.path.abspath(path)
        base = os.path.basename(full)
        if (base in ("__init__.py", "__main__.py", "setup.py", "conftest.py") or is_test_file(
                os.path.relpath(full, root)) or full not in own):
            continue
        if full in starts:
            continue
        reach = graph.get(full, set())
        if reach and reach <= exporters:
            out[path] = ("only scripts that trace or export a model import or name this module ("
                         + ", ".join(sorted(os.path.relpath(r, root) for r in reach)[:3])
                         + "): its code runs once, while the model is traced or exported, not per step")
            continue
        if full in live:
            continue
        if reach:
            out[path] = ("only modules that nothing in the project runs import or name this module ("
                         + ", ".join(sorted(os.path.relpath(r, root) for r in reach)[:3])
                         + f"; checked {read['py']} .py files and {read['other']} config and other files under "
                         + f"{root})")
            continue
        out[path] = ("no file of the project imports or names this module, and it does not run as a script "
                     f"(checked {read['py']} .py files and {read['other']} config and other files under {root})")
    return out, script_only


# --- class reachability: classes of a run's files that nothing in the project names -------------------

# a file that looks classes up by computed name (``globals()[name]``, ``getattr(sys.modules[__name__], n)``),
# or a project that finds classes through their bases (``__subclasses__``, an ``__init_subclass__`` registry):
# a class may run there without its name being written anywhere
_LOOKS_UP_CLASSES = re.compile(r"\bglobals\(\)|\bvars\(\)|\bsys\.modules\b|\blocals\(\)|\binspect\.getmembers\b")
_FINDS_SUBCLASSES = re.compile(r"\b__subclasses__\b|\b__init_subclass__\b")


def unused_classes(paths: Sequence[str], root: str | None = None, only: Sequence[str] | None = None,
                   cache: ResultCache | None = None) -> dict[str, dict[str, str]]:
    """Per path of the run's torch ``.py`` files (of ``only``, when given): the module-level classes the
    project never names, and why. Nothing instantiates such a class, subclasses it or calls its methods, so
    none of its code runs in any step (StyleTTS2's ``ResBlk1d`` and ``PhaseShuffle1d``, left in ``models.py``
    and ``layers.py`` beside the blocks the models build). A class is named when its name occurs, as a word,
    in any file of the project (:func:`project_root`; code, configs, scripts, notebooks, docs) outside its
    own body, and outside the bodies of classes that are themselves never named (to a fixed point: a block
    only an unused model builds is unused too). What the project's tests name does not count (a class only
    they build runs only under them). Left out, as :func:`unreached_modules` leaves a module: a run of one
    file, public classes of a published package (its users build them). Never decided: decorated classes
    (registries), classes of a file that looks names up at run time (``globals()``, ``vars()``,
    ``sys.modules``, ``inspect.getmembers``), and every class of a project that finds classes through their
    bases (``__subclasses__``, ``__init_subclass__``). The same answer carries a method nothing names
    (``"Class.method"``, :func:`_uncalled_methods`) and, for a file that runs only as a script, the
    module-level functions and classes its module-level code never reaches (:func:`_script_only_uses`).
    Cached as :func:`unreached_modules` is."""
    return _cached_torch_scan(paths, root, only, cache, "unused-classes", _unused, dict)


def _cached_torch_scan(paths: Sequence[str], root: str | None, only: Sequence[str] | None,
                       cache: ResultCache | None, fact: str,
                       compute: Callable[[str, Sequence[str], Sequence[str]], Any], value_type: type) -> Any:
    """A project fact over the run's torch files (:func:`unreached_modules`, :func:`unused_classes`): the run's
    scope and the project's files, then ``compute(root, found, candidates)``, kept in ``cache`` under a key of
    what the scan reads (:func:`_scan_key`, per ``fact``); a stored answer whose values are not all
    ``value_type`` is computed again."""
    scope = _run_scope(paths, root, only, _mentions_torch)
    if scope is None:
        return {}
    root, candidates = scope
    found = _reach_files(root)
    if found is None:
        return {}
    key = _scan_key(cache, root, found, candidates, fact) if cache is not None else None
    if cache is not None and key is not None:
        stored = cache.load_json(key)
        if isinstance(stored, dict) and all(isinstance(v, value_type) for v in stored.values()):
            return stored
    out = compute(root, found, candidates)
    if cache is not None and key is not None:
        cache.store_json(key, out)
    return out


def _class_spans(text: str) -> list[tuple[str, int, int, bool]]:
    """(name, first line, last line, decided) of a file's module-level classes (decorators included in
    the span; ``decided`` False for a decorated class)."""
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return [(s.name, min([s.lineno] + [d.lineno for d in s.decorator_list]), s.end_lineno or s.lineno,
             not s.decorator_list) for s in body if isinstance(s, ast.ClassDef)]


# decorators that leave a method called by its name only (a registry or a framework hook would call it otherwise)
_PLAIN_DECORATORS = frozenset({"torch.no_grad", "torch.inference_mode", "torch.enable_grad", "no_grad",
                               "inference_mode", "staticmethod", "classmethod"})
_MODULE_BASES = frozenset({"object", "Module", "nn.Module", "torch.nn.Module"})


def _method_spans(text: str) -> list[tuple[str, str, int, int]]:
    """(class, method, first line, last line) of the methods of a file's module-level classes that only a call
    by name can run: not dunders, not nn.Module's own methods (the module calls them itself), plainly decorated
    (``@torch.no_grad()``, ``@staticmethod``), in a class whose bases are ``nn.Module``/``object`` or such classes
    of the same file (a framework base, a LightningModule or a Dataset, calls hooks by their names)."""
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    classes = {s.name: s for s in body if isinstance(s, ast.ClassDef)}
    closed: dict[str, bool] = {}

    def plain(cls: ast.ClassDef, seen: frozenset[str] = frozenset()) -> bool:
        if cls.name not in closed:
            names = [ast.unparse(b) for b in cls.bases]
            closed[cls.name] = not cls.keywords and not cls.decorator_list and all(
                n in _MODULE_BASES or n in classes and n not in seen and plain(classes[n], seen | {cls.name})
                for n in names)
        return closed[cls.name]

    def plainly_decorated(f: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        return all(ast.unparse(d.func if isinstance(d, ast.Call) else d) in _PLAIN_DECORATORS
                   for d in f.decorator_list)

    return [(c.name, f.name, min([f.lineno] + [d.lineno for d in f.decorator_list]), f.end_lineno or f.lineno)
            for c in classes.values() if plain(c)
            for f in c.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
            and not f.name.startswith("__") and f.name not in module_methods() and plainly_decorated(f)]


def _name_uses(names: set[str], texts: Sequence[tuple[str, str]]) -> dict[str, list[tuple[str, int]]]:
    """Every place a name of ``names`` stands as a whole word: name -> [(path, 1-based line)]."""
    word = re.compile(r"(?<!\w)(" + "|".join(sorted(map(re.escape, names))) + r")(?!\w)")
    uses: dict[str, list[tuple[str, int]]] = {n: [] for n in names}
    for path, text in texts:
        if not word.search(text):
            continue
        starts = [0] + [m.end() for m in re.finditer("\n", text)]
        for m in word.finditer(text):
            uses[m.group(1)].append((path, bisect.bisect_right(starts, m.start(1))))
    return uses


def _uncalled_methods(texts: Sequence[tuple[str, str]], wanted: Mapping[str, Sequence[tuple[str, int, int]]],
                      unused: set[tuple[str, str]], root: str) -> dict[str, dict[str, str]]:
    """Per path: {"Class.method": why} for the methods (:func:`_method_spans`) of classes in use whose name no
    file of the project writes outside the method itself: no call, no reference, no string (``getattr``)
    names it, so it never runs (x-flux's vendored ``ZoeDepth.infer_pil``, beside the ``infer`` its annotator
    calls)."""
    by_path = dict(texts)
    spans: dict[str, list[tuple[str, str, int, int]]] = {}
    for path, classes in wanted.items():
        used = {n for n, _, _ in classes if (path, n) not in unused}
        spans[path] = [m for m in _method_spans(by_path.get(path, "")) if m[0] in used]
    names = {m[1] for v in spans.values() for m in v}
    if not names:
        return {}
    uses = _name_uses(names, texts)
    out: dict[str, dict[str, str]] = {}
    for path, methods in spans.items():
        for cls, name, first, last in methods:
            if all(q == path and first <= line <= last for q, line in uses[name]):
                out.setdefault(path, {})[f"{cls}.{name}"] = (
                    f"no file of the project names method {name} of class {cls} outside the method itself: nothing "
                    f"calls it (checked {len(texts)} files under {root})")
    return out


# a script that hands its module's functions to a command line by their names (``fire.Fire()`` with no
# argument exposes every function of the module): its ``__main__`` block may run any of them
_EXPOSES_MODULE = re.compile(r"\bFire\(\s*\)")


def _script_only_defs(text: str) -> list[str]:
    """The module-level functions and classes of a file that runs only as a script (:func:`_reach`) that its
    module-level code never reaches: Python runs a ``def`` or ``class`` body only when something calls or builds
    it, and of a file run as the program only its module-level statements (the ``__main__`` block) run, then
    what they name, to a fixed point (a class named: all of its body). Decorators and default values run at
    definition time: what they name runs, and a decorated definition counts as run (a registry or a command line
    may call it). Nothing for a file that looks names up at run time or exposes the module to a command line."""
    if _LOOKS_UP_CLASSES.search(text) or _EXPOSES_MODULE.search(text):
        return []
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    defs = {s.name: s for s in body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}

    def words(nodes: Sequence[ast.AST]) -> set[str]:
        out: set[str] = set()
        for node in nodes:
            for n in ast.walk(node):
                if isinstance(n, ast.Name):
                    out.add(n.id)
                elif isinstance(n, ast.Attribute):
                    out.add(n.attr)
                elif isinstance(n, ast.Constant) and isinstance(n.value, str):
                    out.update(re.findall(r"\w+", n.value))
        return out

    roots: list[ast.AST] = [s for s in body if s.__class__ not in (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                   ast.ClassDef)]
    for d in defs.values():
        roots += d.decorator_list
        if isinstance(d, ast.ClassDef):
            roots += d.bases + [k.value for k in d.keywords]
        else:
            roots += [v for v in d.args.defaults + d.args.kw_defaults if v is not None]
    seen: set[str] = set()
    todo = sorted(words(roots) & set(defs) | {n for n, d in defs.items() if d.decorator_list})
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += sorted(words([defs[name]]) & set(defs) - seen)
    return sorted(set(defs) - seen)


def _script_only_uses(root: str, found: Sequence[str], candidates: Sequence[str],
                      by_path: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """Per candidate path that runs only as a script (:func:`_reach`): {name: why} for its module-level functions
    and classes its module-level code never reaches (:func:`_script_only_defs`)."""
    _, script_only = _reach(root, found, candidates)
    out: dict[str, dict[str, str]] = {}
    for path in candidates:
        full = os.path.abspath(path)
        if full not in script_only:
            continue
        for name in _script_only_defs(by_path.get(full, "")):
            out.setdefault(path, {})[name] = (
                f"this file runs only as a script (nothing the project runs imports or names it; checked under "
                f"{root}), and its module-level code (the __main__ block) never reaches {name}: it never runs")
    return out


_IMPORT_LINE = re.compile(r"\s*(?:from|import)\s")


def _unused(root: str, found: Sequence[str], candidates: Sequence[str]) -> dict[str, dict[str, str]]:
    """:func:`unused_classes` over the files :func:`_reach_files` found under ``root``."""
    from xlacheck.engine import is_test_file

    texts = [(os.path.abspath(p), t) for p, t in _reach_texts(found)
             if not is_test_file(os.path.relpath(os.path.abspath(p), root))]
    scripts = _script_only_uses(root, found, candidates, dict(texts))
    if any(p.endswith(".py") and _FINDS_SUBCLASSES.search(t) for p, t in texts):
        return scripts
    library = published(root)
    by_path = dict(texts)
    spans: dict[str, list[tuple[str, int, int]]] = {}  # path -> (class, first line, last line) of every candidate
    wanted: dict[str, list[tuple[str, int, int]]] = {}  # what may be decided
    for path in candidates:
        full = os.path.abspath(path)
        text = by_path.get(full)
        if text is None:
            continue
        classes = _class_spans(text)
        spans[full] = [(n, a, b) for n, a, b, _ in classes]
        dotted = module_name(full)
        public_module = library and dotted is not None and not any(p.startswith("_") for p in dotted.split("."))
        if _LOOKS_UP_CLASSES.search(text):
            continue
        wanted[full] = [(n, a, b) for n, a, b, decided in classes
                        if decided and not (public_module and not n.startswith("_"))]
    names = {n for v in wanted.values() for n, _, _ in v}
    if not names:
        return scripts
    # every place a candidate class is named: (name, path, line)
    uses = _name_uses(names, texts)
    unused = {(p, n) for p, v in wanted.items() for n, _, _ in v}

    def inside(path: str, line: int) -> tuple[str, str] | None:
        for n, a, b in spans.get(path, ()):
            if a <= line <= b:
                return (path, n)
        return None

    shut = _shut_lines({q for v in uses.values() for q, _ in v}, texts)

    def shut_use(name: str, path: str, line: int) -> bool:
        """A use in a branch that never runs (:func:`_shut_lines`), or the import of a name the file uses only
        in such branches."""
        if any(a <= line <= b for a, b in shut.get(path, ())):
            return True
        if path not in shut or not _IMPORT_LINE.match(by_path[path].splitlines()[line - 1]):
            return False
        rest = [k for q, k in uses[name] if q == path and k != line]
        return bool(rest) and all(any(a <= k <= b for a, b in shut[path]) for k in rest)

    changed = True
    while changed:  # a name counts where it is written outside its own body, unused classes and shut branches
        changed = False
        for p, n in sorted(unused):
            for q, line in uses[n]:
                where = inside(q, line)
                if where == (p, n) or where in unused or shut_use(n, q, line):
                    continue
                unused.discard((p, n))
                changed = True
                break
    out: dict[str, dict[str, str]] = _uncalled_methods(texts, wanted, unused, root)
    for p, n in sorted(unused):
        out.setdefault(p, {})[n] = (
            f"no file of the project names class {n} outside its own body (or the bodies of classes never "
            f"named themselves, or branches a flag nothing sets keeps shut): nothing builds it or calls its methods "
            f"(checked {len(texts)} files under {root})")
    found_out = {path: out[os.path.abspath(path)] for path in candidates if os.path.abspath(path) in out}
    for path, names_why in scripts.items():
        found_out[path] = {**names_why, **found_out.get(path, {})}
    return found_out


# --- compiled entries: projects that never run TensorFlow under XLA ---------------------------------

# Text that makes a project's TensorFlow code run under XLA (or may, from a flag or a config): a
# ``jit_compile``/``experimental_compile`` set to anything but False/None (``tf.function``,
# ``Model.compile``, a gin or YAML config: ``jit_compile: true``), a TPU (``TPUStrategy``, a TPU
# cluster resolver, TF1's ``TPUEstimator``), ``tf.xla.experimental.compile``. Keras ``fit`` is one
# when the project runs Keras 3 (``analysis.keras_version``: its ``compile()`` defaults to
# ``jit_compile="auto"``, XLA on a GPU without a distribution strategy). Not an entry: a plain
# ``tf.function``, Keras 2 ``compile``/``fit``, a ``MirroredStrategy``, and XLA auto-clustering
# (``tf.config.optimizer.set_jit``, ``TF_XLA_FLAGS``), which leaves ops XLA cannot compile outside its
# clusters and runs them (docs/real-code-judgments-10.md rebuilt the EfficientDet eval steps).
# A TPU strategy compiles ops without an XLA kernel (``tf.print``, string ops) too, and fails on them:
# it moves them to the host (automatic outside compilation) only with soft device placement, which
# TensorFlow reads while it traces the step (tpu.py ``split_compile_and_replicate``), where it is off
# unless the program calls ``tf.config.set_soft_device_placement(True)`` (measured, TF 2.21: True
# eagerly, False while tracing; tests/xlacheck/test_tpu_soft_placement.py). Keras 2 ``fit`` under
# ``TPUStrategy`` therefore counts as compiled for every XLA-only failure.
_TF_XLA_ENTRY = re.compile(
    r"\b(?:jit_compile|experimental_compile)\b[\"']?\s*[=:]\s*(?!\s*(?:False|false|None|null|0)\b)\S"
    r"|\bTPU(?:Mirrored)?Strategy\b|\bTPUClusterResolver\b|\bTPUEstimator\b|\bxla\.experimental\.compile\b")
_TF_IMPORT = re.compile(r"^[ \t]*(?:import[ \t]+(?:tensorflow|tf_keras)\b|from[ \t]+(?:tensorflow|tf_keras)\b)",
                        re.M)


def _own_root(path: str, root: str) -> str:
    """The project a file of the run belongs to: ``root`` when it holds a project marker itself, else
    the file's outermost folder under it with one (a run over several projects' folders: each its
    own), else the nearest folder above ``root`` with one (a run over a deep sub-folder of a
    repository: the entries that compile it may be anywhere in the repository; not above an
    installed package's site-packages, not the home folder), else ``root``. A package with a setup.py
    of its own inside a project is still that project's: its scripts above the package may be what
    compiles it."""
    if _marked(root):
        return root
    own = root
    folder = os.path.dirname(os.path.abspath(path))
    while folder.startswith(root + os.sep):
        if _marked(folder):
            own = folder
        folder = os.path.dirname(folder)
    if own != root:
        return own
    up = os.path.dirname(root)
    home = os.path.abspath(os.path.expanduser("~"))  # a home folder under git (dotfiles) is no project: not walked
    while os.path.dirname(up) != up and os.path.basename(up) not in _REACH_SKIP_DIRS and up != home:
        if _marked(up):
            return up
        up = os.path.dirname(up)
    return root


def _marked(folder: str) -> bool:
    return any(os.path.exists(os.path.join(folder, m)) for m in _ROOT_MARKERS)


def _mentions_tensorflow(path: str) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return bool(_TF_IMPORT.search(fh.read()))
    except OSError:
        return False


# files whose text is prose, not code or configuration: what they mention runs nothing
_PROSE_SUFFIXES = (".md", ".rst", ".txt")


def uncompiled_modules(paths: Sequence[str], root: str | None = None, only: Sequence[str] | None = None,
                       cache: ResultCache | None = None) -> dict[str, str]:
    """Per path of the run's TensorFlow ``.py`` files (of ``only``, when given) that no compiled entry of their
    project reaches: why. The project is the run's :func:`project_root`, or where that holds no project marker, the
    file's outermost folder under it with one, or the nearest folder above it with one (:func:`_own_root`). A file
    of it (code or notebook) that names a compiled entry (:data:`_TF_XLA_ENTRY`; Keras ``fit`` where the project
    runs Keras 3, :func:`~xlacheck.analysis.keras_version.fit_is_xla_entry`) reaches itself and what it imports,
    through the project's imports to a fixed point (``from pkg.layers import Block``; importing a package runs its
    ``__init__``, and a package ``__init__`` that loads its folder by computed name, such as a lazy package, reaches
    every module below it). A configuration or script that names one (a gin or YAML ``jit_compile: true``) reaches
    every file, and so does a project none of whose files imports another (a folder of standalone scripts or cases:
    no import graph to follow). The others are traced into a graph at most (a Keras ``call`` under Keras 2 ``fit``,
    a plain ``tf.function``, an eager ``GradientTape`` loop), never XLA-compiled, and the engine sets aside the
    findings of their functions that only assumed they were (below ``Level.CERTAIN``). A run of one file gets none;
    a root too large to scan counts as reached. With ``cache`` each project's reached files are kept under a key of
    what the scan reads (:func:`_scan_key`), as :func:`unreached_modules` keeps its answer."""
    scope = _run_scope(paths, root, only, _mentions_tensorflow)
    if scope is None:
        return {}
    root, candidates = scope
    reached_in: dict[str, set[str] | None] = {}  # project folder -> the files compiled entries reach (None: all)
    out: dict[str, str] = {}
    for p in candidates:
        own = _own_root(p, root)
        if own not in reached_in:
            found = _reach_files(own)
            reached_in[own] = None if found is None else _cached_reach(own, found, cache)
        reached = reached_in[own]
        full = os.path.abspath(p)
        if reached is not None and full not in reached:
            out[p] = (f"no compiled entry reaches it: no file of the project ({os.path.basename(own) or own}) "
                      "that runs TensorFlow under XLA (jit_compile, a TPU strategy, Keras fit where the project "
                      "runs Keras 3) imports this "
                      "module, so its Keras methods and tf.functions are traced at most, never XLA-compiled")
    return out


def _cached_reach(root: str, found: Sequence[str], cache: ResultCache | None) -> set[str] | None:
    """:func:`_reached_from_entries`, kept in ``cache`` (when given) under a key of what the scan reads."""
    key = _scan_key(cache, root, found, (), "uncompiled-modules") if cache is not None else None
    if cache is not None and key is not None:
        stored = cache.load_json(key)
        if isinstance(stored, dict) and "reached" in stored:
            return None if stored["reached"] is None else set(stored["reached"])
    reached = _reached_from_entries(root, found)
    if cache is not None and key is not None:
        cache.store_json(key, {"reached": None if reached is None else sorted(reached)})
    return reached


def _reached_from_entries(root: str, found: Sequence[str]) -> set[str] | None:
    """The ``.py`` files under ``root`` that a compiled entry reaches through imports (None: every one). A file
    that trains with Keras ``fit`` is an entry when the Keras it runs (:func:`keras_generation`, from the
    project's declarations and code read in the same pass) compiles ``fit`` (:func:`fit_is_xla_entry`)."""
    from xlacheck.analysis.keras_version import (
        Declared,
        declarations,
        declaring_folder,
        fit_is_xla_entry,
        is_declaration_file,
        keras_generation,
        legacy_env,
        trains_with_fit,
    )

    modules: dict[tuple[str, ...], str] = {}  # root-relative dotted parts (a package: its folder's) -> path
    imports: dict[str, list[tuple[str, ...]]] = {}
    loads_folder: set[str] = set()  # package __init__ files that import their folder's modules by computed name
    entries: list[str] = []
    fits: dict[str, str] = {}  # files that train with Keras fit (not entries by other text) -> their code
    declared: dict[str, list[Declared]] = {}  # folder -> the TensorFlow/Keras versions its files declare
    legacy: str | None = None  # the first code, config or script that sets TF_USE_LEGACY_KERAS (not every text kept)
    for path, text in _reach_texts(found):
        path = os.path.abspath(path)
        is_code = path.endswith((".py", ".ipynb"))
        rel = os.path.relpath(path, root)
        if is_declaration_file(path):
            found_decls = declarations(path, text, rel)
            if found_decls:
                declared.setdefault(declaring_folder(path), []).extend(found_decls)
        if legacy is None and not path.endswith(_PROSE_SUFFIXES):
            legacy = legacy_env([(rel, text)])
        if _TF_XLA_ENTRY.search(text):
            if not is_code and not path.endswith(_PROSE_SUFFIXES):
                return None  # a config or launch script compiles: which module it reaches is not spelled
            if is_code:
                entries.append(path)
        elif is_code and trains_with_fit(text):
            fits[path] = _code_of(path, text)
        if not is_code:
            continue
        here = _parts(path, root)
        is_package = path.endswith("__init__.py")
        if path.endswith(".py"):
            modules[here] = path
        imports[path] = list(_imported(_code_of(path, text), here, is_package))
        if is_package and (_SCANS_FOLDER.search(text) or _DYNAMIC_IMPORT.search(text)):
            loads_folder.add(path)
    if fits:
        entries += [p for p, code in fits.items() if fit_is_xla_entry(code, keras_generation(
            p, code, root, declared, legacy))]
    by_suffix: dict[tuple[str, ...], set[str]] = {}
    for parts, path in modules.items():
        for i in range(len(parts)):
            by_suffix.setdefault(parts[i:], set()).add(path)
    # a project none of whose files imports another (a folder of standalone scripts or cases) has no
    # import graph: what compiles what is unknown there, not "nothing" (as for unreached modules)
    if not any(by_suffix.get(parts, set()) - {path} for path, names in imports.items() for parts in names):
        return None
    reached = set(entries)
    stack = list(entries)
    while stack:
        path = stack.pop()
        nxt: set[str] = set()
        for parts in imports.get(path, ()):
            for k in range(1, len(parts) + 1):  # a.b.c runs a/__init__, a/b/__init__ and a/b/c
                nxt |= by_suffix.get(parts[:k], set())
        if path in loads_folder:
            folder = os.path.dirname(path) + os.sep
            nxt |= {m for m in modules.values() if m.startswith(folder)}
        for m in nxt - reached:
            reached.add(m)
            stack.append(m)
    return reached


# --- flags nothing sets: the branches a falsy default keeps shut ------------------------------------


def _falsy(node: ast.AST | None) -> bool:
    """Whether ``node`` is the literal False, None or 0."""
    return isinstance(node, ast.Constant) and (node.value is None or node.value is False
                                               or (type(node.value) is int and node.value == 0))


def _defaults(f: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> dict[str, ast.expr | None]:
    """Parameter name -> its default (None: no default) of a def or lambda."""
    a = f.args
    return {**{p.arg: None for p in [*a.posonlyargs, *a.args, *a.kwonlyargs]}, **parameter_defaults(f)}


def _shut_branches(tree: ast.Module) -> list[tuple[str, str, int, int]]:
    """(flag, def name, first line, last line) of the branches a parameter with a falsy default keeps shut
    if nothing passes it: the body of ``if flag:`` and the ``else`` of ``if not flag:`` in the def whose
    parameter it is (a def that assigns the name itself is left out)."""
    out: list[tuple[str, str, int, int]] = []
    for f in ast.walk(tree):
        if not isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        flags = {n for n, d in _defaults(f).items() if _falsy(d)}
        if not flags:
            continue
        stored = {n.id for n in ast.walk(f) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        for node in ast.walk(f):
            if not isinstance(node, (ast.If, ast.IfExp)):
                continue
            test, shut = node.test, node.body
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                test, shut = test.operand, node.orelse
            if not (isinstance(test, ast.Name) and test.id in flags and test.id not in stored) or not shut:
                continue
            parts = shut if isinstance(shut, list) else [shut]
            out.append((test.id, f.name, parts[0].lineno, max(p.end_lineno or p.lineno for p in parts)))
    return out


def _tree_cache(texts: Sequence[tuple[str, str]]) -> Callable[[str], ast.Module | None]:
    """path -> the parsed text of ``texts`` for that path (None: no such text, or it does not parse),
    each parsed once."""
    by_path = dict(texts)
    trees: dict[str, ast.Module | None] = {}

    def parse(path: str) -> ast.Module | None:
        if path not in trees:
            trees[path] = _parsed(by_path.get(path, ""))
        return trees[path]
    return parse


def _parsed(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _never_set(flag: str, texts: Sequence[tuple[str, str]],
               parse: Callable[[str], ast.Module | None] | None = None) -> bool:
    """Whether no file of the project can set parameter ``flag`` to anything but a falsy literal: every
    file that writes the word is Python, where each def taking it gives it a falsy literal default, each
    keyword passes it on (``flag=flag``) or passes a falsy literal (so does a dict entry ``"flag": False``, the
    keyword arguments of a config built in code), and it is otherwise only read as a plain name or as the
    instance's copy of it (``self.flag = flag`` in a def taking it, the class's only store of ``self.flag``:
    :func:`_self_copies`): no config, script or doc names it, no other string (another dict key, ``getattr``,
    an argparse option; a docstring, other bare string statement or assert message does not count) holds it, no
    other attribute carries it (a read ``self.net.flag`` of another instance's copy does not count), no def (a
    property) is named after it, nothing assigns it; and no call by the name of a def taking it (or a
    subclass's ``super().__init__``/``Base.__init__(self, ...)`` of a class taking it) passes positional
    arguments as far as it (or ``*args``); a def that takes it keyword-only (``def f(*, flag=False)``) no
    positional call reaches. ``parse``: path -> its tree (None: not parseable), so that a
    caller asking about several flags parses each file once (:func:`_shut_lines`)."""
    if parse is None:
        parse = _tree_cache(texts)
    word = re.compile(r"(?<!\w)" + re.escape(flag) + r"(?!\w)")
    takers: dict[str, int] = {}  # def name (a class for __init__) -> the most positional arguments a call may pass
    taking_classes: set[tuple[str, str]] = set()  # (class, method) of the methods among the takers
    keyword_only = False  # a def takes it as a keyword-only parameter
    for path, text in texts:
        if not word.search(text):
            continue
        tree = parse(path) if path.endswith(".py") else None
        if tree is None:
            return False
        owner: dict[ast.AST, str] = {}
        falsy_keys: set[int] = set()  # {"flag": False}: a dict of keyword arguments that passes a falsy literal
        # text no code reads (a docstring, a bare string statement, an assert's message) and the instance's copy of
        # the parameter (``self.flag = flag`` in the def taking it, read back as ``self.flag``): neither sets it
        prose = {id(e.value) for e in _all_nodes(tree) if isinstance(e, ast.Expr) and isinstance(e.value, ast.Constant)}
        prose |= {id(m) for e in _all_nodes(tree) if isinstance(e, ast.Assert) and e.msg is not None
                  for m in ast.walk(e.msg) if isinstance(m, ast.Constant)}
        kept = _self_copies(tree, flag)
        kept |= {id(a.value) for a in _all_nodes(tree) if isinstance(a, ast.Assign) and len(a.targets) == 1
                 and id(a.targets[0]) in kept}  # (``self.flag = net.flag`` reads the copy it keeps)
        for cls in _all_nodes(tree):
            if isinstance(cls, ast.ClassDef):
                for s in cls.body:
                    owner[s] = cls.name
            elif isinstance(cls, ast.Dict):
                falsy_keys.update(id(k) for k, v in zip(cls.keys, cls.values)
                                  if isinstance(k, ast.Constant) and k.value == flag and _falsy(v))
        for node in _all_nodes(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == flag:
                return False  # a property or method of that name: ``self.flag`` may be anything
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                defaults = _defaults(node)
                if flag in defaults and not _falsy(defaults[flag]):
                    return False
                positional = [p.arg for p in node.args.posonlyargs + node.args.args]
                if not isinstance(node, ast.Lambda) and flag in {p.arg for p in node.args.kwonlyargs}:
                    keyword_only = True  # (``def __init__(self, *, flag=False)``: no positional call reaches it)
                if flag in positional and not isinstance(node, ast.Lambda):
                    bound = 1 if node in owner and positional[0] in ("self", "cls") else 0
                    name = owner[node] if node.name == "__init__" and node in owner else node.name
                    takers[name] = min(takers.get(name, 1 << 20), positional.index(flag) - bound)
                    if node in owner:
                        taking_classes.add((owner[node], node.name))
            elif isinstance(node, ast.keyword) and node.arg == flag:
                if not (_falsy(node.value) or isinstance(node.value, ast.Name) and node.value.id == flag):
                    return False
            elif isinstance(node, ast.Name) and node.id == flag and not isinstance(node.ctx, ast.Load):
                return False
            elif isinstance(node, ast.Attribute) and node.attr == flag and id(node) not in kept \
                    and not (isinstance(node.ctx, ast.Load) and _held_by_self(node)):
                return False  # (``self.net.flag`` only reads what another instance keeps: it sets nothing)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and word.search(node.value) \
                    and id(node) not in falsy_keys and id(node) not in prose:
                return False
    if not takers:
        return keyword_only
    callee = re.compile(r"(?<!\w)(" + "|".join(sorted(map(re.escape, [*takers, "__init__"]))) + r")\s*\(")
    calling = [path for path, text in texts if path.endswith(".py") and callee.search(text)]
    # the methods of the project's classes by the name of a taker: a call whose receiver is built from a class that
    # defines its own such method, which does not take the flag, is that method's call (``model = XTransformer(...);
    # model.generate(src, start, n)`` reaches no ``AutoregressiveWrapper.generate(prompts, seq_len, eos_token)``)
    # (every class of that name defines it: two classes may share a name)
    classes: dict[str, int] = {}
    defining: dict[tuple[str, str], int] = {}
    for path in calling:
        tree = parse(path)
        for c in _all_nodes(tree) if tree is not None else ():
            if isinstance(c, ast.ClassDef):
                classes[c.name] = classes.get(c.name, 0) + 1
                names = {f.name for f in c.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
                for m in names & set(takers):
                    defining[(c.name, m)] = defining.get((c.name, m), 0) + 1
    for path in calling:
        tree = parse(path)
        if tree is None:
            return False
        built = _built_once(tree)
        around: dict[int, list[ast.ClassDef]] | None = None  # id(super() call) -> the classes around it
        for node in _all_nodes(tree):
            if not isinstance(node, ast.Call):
                continue
            called = node.func.id if isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node.func, ast.Attribute) else "")
            if called == "__init__" and isinstance(node.func, ast.Attribute):  # a subclass passes it on
                if around is None:
                    around = _classes_around_super(tree)
                base = _init_base(node.func.value, around, takers)
                if base is not None and (len(node.args) - (base[1]) > takers[base[0]]
                                         or any(isinstance(a, ast.Starred) for a in node.args)):
                    return False
            if called in takers and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
                maker = built.get(node.func.value.id)
                if maker in classes and defining.get((maker, called)) == classes[maker] \
                        and (maker, called) not in taking_classes:
                    continue  # the receiver's own class's method, which does not take the flag
            if called in takers and (len(node.args) > takers[called]
                                     or any(isinstance(a, ast.Starred) for a in node.args)):
                return False
    return True


# torch.nn.Module methods documented to return the module itself ("Returns: self")
_RETURNS_SELF = frozenset({"to", "cuda", "cpu", "xpu", "eval", "train", "half", "float", "double", "bfloat16",
                           "requires_grad_", "to_empty", "apply", "type"})


def _built_once(tree: ast.Module) -> dict[str, str]:
    """Names the file binds exactly once (in any scope, as any target), to a call of a plain name: the name of
    the class (or function) called (``model = XTransformer(...)``, ``XTransformer(...).to(device)``: a module's
    ``to``/``cuda``/``eval``... return it). A name bound twice (``model =
    torch.compile(model)``) is left out: its value may be something else where it is used. Kept on the tree
    (:func:`_never_set` asks once per flag)."""
    kept: dict[str, str] | None = getattr(tree, "_xlacheck_built", None)
    if kept is not None:
        return kept
    stores: dict[str, int] = {}
    calls: dict[str, str] = {}
    for n in _all_nodes(tree):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
        elif isinstance(n, (ast.arg, ast.alias)):
            name = n.arg if isinstance(n, ast.arg) else (n.asname or n.name)
            stores[name] = stores.get(name, 0) + 1
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stores[n.name] = stores.get(n.name, 0) + 1
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            value = n.value
            while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr in _RETURNS_SELF:
                value = value.func.value  # EncDec(...).to(device): the module itself
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                calls[n.targets[0].id] = value.func.id
    kept = {name: cls for name, cls in calls.items() if stores.get(name) == 1}
    tree._xlacheck_built = kept  # type: ignore[attr-defined]
    return kept


def _all_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` in ``ast.walk`` order, listed once per tree and kept on it: :func:`_never_set` scans
    each file once per flag, and a module with many keyword defaults asks about many flags."""
    nodes: list[ast.AST] | None = getattr(tree, "_xlacheck_nodes", None)
    if nodes is None:
        nodes = list(ast.walk(tree))
        tree._xlacheck_nodes = nodes  # type: ignore[attr-defined]
    return nodes


def _classes_around_super(tree: ast.Module) -> dict[int, list[ast.ClassDef]]:
    """id of each ``super()`` call -> the classes whose body holds it, outermost first (one walk of each
    class, instead of one per call; kept on the tree)."""
    kept: dict[int, list[ast.ClassDef]] | None = getattr(tree, "_xlacheck_around", None)
    if kept is not None:
        return kept
    around: dict[int, list[ast.ClassDef]] = {}
    tree._xlacheck_around = around  # type: ignore[attr-defined]
    for cls in _all_nodes(tree):
        if isinstance(cls, ast.ClassDef):
            for n in ast.walk(cls):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "super":
                    around.setdefault(id(n), []).append(cls)
    return around


def _init_base(owner: ast.expr, around: dict[int, list[ast.ClassDef]],
               takers: dict[str, int]) -> tuple[str, int] | None:
    """The class of ``takers`` whose ``__init__`` ``owner.__init__(...)`` calls, and how many leading positional
    arguments are not its parameters: ``Base.__init__(self, ...)`` (1) or ``super().__init__(...)`` (0) in a class
    that derives from a taker (any taker base: the check is conservative). ``around``:
    :func:`_classes_around_super` of the module."""
    name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
    if name in takers:
        return (name, 1)
    if not (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super"):
        return None
    for cls in around.get(id(owner), ()):
        for b in cls.bases:
            bname = b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else ""
            if bname in takers:
                return (bname, 0)
    return None


def _self_attr_named(e: ast.expr, name: str) -> bool:
    """Whether ``e`` is ``self.<name>``."""
    return isinstance(e, ast.Attribute) and e.attr == name and isinstance(e.value, ast.Name) and e.value.id == "self"


def _held_by_self(e: ast.Attribute) -> str | None:
    """``"self.net"`` for ``self.net.flag``: an attribute of an object the instance holds; None otherwise."""
    inner = e.value
    if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == "self":
        return f"self.{inner.attr}"
    return None


def _holds_foreign(cls: ast.ClassDef, holder: str, texts: Sequence[tuple[str, str]],
                   parse: Callable[[str], ast.Module | None], classes: Collection[str]) -> bool:
    """Whether the object ``cls`` holds as ``self.<holder>`` (or takes as ``__init__`` parameter ``holder``) may be
    of a class the project does not define: it is stored from a call of anything but a class of the project
    (``self.config = AutoConfig.from_pretrained(name)``), or a project call of ``cls`` passes such a call for
    the parameter it is stored from (``Backbone(AutoConfig.from_pretrained(name))``). Its attributes are then
    no copy of a project class's flag (:func:`_kept_default` matches flags by name only)."""
    def foreign(v: ast.expr) -> bool:
        return isinstance(v, ast.Call) and _callee_name(v) not in classes

    init = next((f for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and f.name == "__init__"), None)
    params = [a.arg for a in init.args.args[1:]] if init is not None else []
    sources = {holder} if holder in params else set()
    for n in ast.walk(cls):
        if isinstance(n, ast.Assign) and any(_self_attr_named(t, holder) for t in n.targets):
            if foreign(n.value):
                return True
            if isinstance(n.value, ast.Name) and n.value.id in params:
                sources.add(n.value.id)
    if init is None or not sources:
        return False
    kwonly = {a.arg for a in init.args.kwonlyargs}
    word = re.compile(r"(?<!\w)" + re.escape(cls.name) + r"(?!\w)")
    for path, text in texts:
        tree = parse(path) if path.endswith(".py") and word.search(text) else None
        for c in _all_nodes(tree) if tree is not None else ():
            if not (isinstance(c, ast.Call) and _callee_name(c) == cls.name):
                continue
            for name in sources:
                i = params.index(name) if name in params else -1
                given = [k.value for k in c.keywords if k.arg == name] or (
                    [c.args[i]] if 0 <= i < len(c.args) and name not in kwonly
                    and not any(isinstance(a, ast.Starred) for a in c.args[:i + 1]) else [])
                if any(foreign(g) for g in given):
                    return True
    return False


def _callee_name(c: ast.Call) -> str | None:
    """The name a call spells last: ``f`` of ``f(...)`` and of ``mod.f(...)``; None for any other callee."""
    return c.func.id if isinstance(c.func, ast.Name) else c.func.attr if isinstance(c.func, ast.Attribute) else None


def _project_classes(texts: Sequence[tuple[str, str]]) -> frozenset[str]:
    """The names of the classes the project's files define (read from their text)."""
    return frozenset(m.group(1) for _, t in texts for m in re.finditer(r"(?m)^[ \t]*class[ \t]+(\w+)", t))


def _kept_default(flag: str, texts: Sequence[tuple[str, str]],
                  parse: Callable[[str], ast.Module | None]) -> tuple[bool, object]:
    """(True, value) when some class of the project keeps parameter ``flag`` as ``self.flag = flag``
    (:func:`_self_copies`) and every def taking ``flag`` gives it the same literal default ``value``: what
    ``self.net.flag`` reads when nothing sets the flag (:func:`_never_set`) and ``self.net`` is such an
    instance. (False, None) otherwise."""
    word = re.compile(r"(?<!\w)" + re.escape(flag) + r"(?!\w)")
    values: set[tuple[type, object]] = set()
    kept = False
    for path, text in texts:
        tree = parse(path) if path.endswith(".py") and word.search(text) else None
        if tree is None:
            continue
        for node in _all_nodes(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and flag in _defaults(node):
                default = _defaults(node)[flag]
                if not isinstance(default, ast.Constant):
                    return False, None
                values.add((type(default.value), default.value))
        kept = kept or bool(_self_copies(tree, flag))
    if not kept or len(values) != 1:
        return False, None
    return True, next(iter(values))[1]


def _self_copies(tree: ast.AST, flag: str) -> set[int]:
    """Ids of the ``self.flag`` attributes of ``tree`` that only copy parameter ``flag``: the targets of
    ``self.flag = flag`` in a method that takes ``flag`` (and does not rebind it) or ``self.flag = net.flag`` (the
    copy an instance handed in as parameter ``net`` keeps), and every ``self.flag`` read in a class whose only
    stores of the attribute are such copies. Empty for a name ``nn.Module`` sets itself (``training``) or a private
    one."""
    if flag == "training" or flag.startswith("_"):
        return set()
    out: set[int] = set()
    if not any(isinstance(n, ast.Attribute) and n.attr == flag for n in _all_nodes(tree)):
        return out
    for cls in _all_nodes(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        attrs = [n for n in ast.walk(cls) if isinstance(n, ast.Attribute) and n.attr == flag
                 and isinstance(n.value, ast.Name) and n.value.id == "self"]
        copies: set[int] = set()
        for f in cls.body:
            if not isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) or flag not in _defaults(f):
                continue
            if any(isinstance(n, ast.Name) and n.id == flag and not isinstance(n.ctx, ast.Load) for n in ast.walk(f)):
                continue
            copies |= {id(t) for a in ast.walk(f) if isinstance(a, ast.Assign) and len(a.targets) == 1
                       and isinstance(a.value, ast.Name) and a.value.id == flag for t in a.targets
                       if isinstance(t, ast.Attribute) and t.attr == flag and isinstance(t.value, ast.Name)
                       and t.value.id == "self"}
        for f in cls.body:  # the copy another instance handed in keeps (``self.flag = net.flag``)
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                copies |= {id(a.targets[0]) for a in ast.walk(f) if isinstance(a, ast.Assign) and len(a.targets) == 1
                           and _self_attr_named(a.targets[0], flag) and isinstance(a.value, ast.Attribute)
                           and a.value.attr == flag and isinstance(a.value.value, ast.Name)
                           and a.value.value.id in set(_defaults(f)) - {"self"}}
        if copies and all(id(n) in copies or isinstance(n.ctx, ast.Load) for n in attrs):
            out |= {id(n) for n in attrs}
    return out


def _shut_lines(paths: set[str], texts: Sequence[tuple[str, str]]) -> dict[str, list[tuple[int, int]]]:
    """Per path of ``paths``: the (first, last) lines of the branches that never run because the parameter that
    opens them has a falsy default and nothing in the project passes it another value (:func:`_never_set`):
    taming-transformers' ``NLayerDiscriminator(use_actnorm=False)`` builds ``ActNorm`` only under
    ``else`` of ``if not use_actnorm``, and no call or config passes ``use_actnorm``. Python binds the
    default whenever a call leaves the parameter out, so the branch stays shut in every run."""
    parse = _tree_cache(texts)
    branches: dict[str, list[tuple[str, int, int]]] = {}
    for path in sorted(paths):
        tree = parse(path) if path.endswith(".py") else None
        if tree is not None:
            branches[path] = [(flag, a, b) for flag, _, a, b in _shut_branches(tree)]
    verdict: dict[str, bool] = {}
    out: dict[str, list[tuple[int, int]]] = {}
    for path, found in branches.items():
        for flag, a, b in found:
            if flag not in verdict:
                verdict[flag] = _never_set(flag, texts, parse)
            if verdict[flag]:
                out.setdefault(path, []).append((a, b))
    return out


# --- flags nothing sets, as literals: what the torch adapter's branch decisions read -----------------


def unset_flags(paths: Sequence[str], root: str | None = None, only: Sequence[str] | None = None,
                cache: ResultCache | None = None) -> dict[str, dict[str, dict[str, object]]]:
    """Per path of the run's torch ``.py`` files (of ``only``, when given): {qualname: {name: literal}} for the
    parameters with a falsy literal default (``False``, ``None``, ``0``) that no file of the project can set
    (:func:`_never_set`: no call, keyword, config, script or string names it but to pass it on or pass a falsy
    literal), keyed as :func:`xlacheck.analysis.calls.closed_call_literals` reads the run's call literals
    (``"f"``, ``"Cls.method"``), and, for each method of a class whose ``__init__`` keeps such a parameter as
    ``self.flag = flag``, ``"self.flag"``: the copy is that literal in every instance (generative-models'
    ``scale_input_to_tgt_size=False``, stored by the loss and tested in its forward, which no config sets).
    Python binds the default whenever a call leaves a parameter out, so :func:`~xlacheck.analysis.calls.
    literal_test` decides the branches they open as it decides those every call rules out. What the
    project's tests pass does not count (a branch only they open runs only under them). Cached as
    :func:`unreached_modules` is."""
    return _cached_torch_scan(paths, root, only, cache, "unset-flags", _unset, dict)


def _unset(root: str, found: Sequence[str], candidates: Sequence[str]) -> dict[str, dict[str, dict[str, object]]]:
    """:func:`unset_flags` over the files :func:`_reach_files` found under ``root``."""
    from xlacheck.engine import is_test_file

    texts = [(os.path.abspath(p), t) for p, t in _reach_texts(found)
             if not is_test_file(os.path.relpath(os.path.abspath(p), root))]
    parse = _tree_cache(texts)
    verdict: dict[str, bool] = {}

    def unset(flag: str) -> bool:
        if flag not in verdict:
            verdict[flag] = _never_set(flag, texts, parse)
        return verdict[flag]

    tested: set[str] = set()  # the names `if` tests of the file read (`flag`, `self.flag`): only those matter
    held: dict[int, str] = {}  # id of a `self.net.flag` an `if` test of the file reads -> "self.net.flag"
    defaults: dict[str, tuple[bool, object]] = {}

    classes: frozenset[str] | None = None

    def project_classes() -> frozenset[str]:
        nonlocal classes
        if classes is None:
            classes = _project_classes(texts)
        return classes

    foreign: dict[tuple[int, str], bool] = {}  # (id of a class, holder) -> _holds_foreign, each scanned once

    def holds_foreign(cls: ast.ClassDef, holder: str) -> bool:
        key = (id(cls), holder)
        if key not in foreign:
            foreign[key] = _holds_foreign(cls, holder, texts, parse, project_classes())
        return foreign[key]

    def held_flags(cls: ast.ClassDef, f: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, object]:
        out: dict[str, object] = {}
        for n in ast.walk(f):
            if id(n) in held and isinstance(n, ast.Attribute) and unset(n.attr) \
                    and not holds_foreign(cls, held[id(n)].split(".")[1]):
                if n.attr not in defaults:
                    defaults[n.attr] = _kept_default(n.attr, texts, parse)
                if defaults[n.attr][0]:
                    out[held[id(n)]] = defaults[n.attr][1]
        return out

    def falsy_params(f: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, object]:
        return {n: d.value for n, d in _defaults(f).items() if n in tested and _falsy(d)
                and isinstance(d, ast.Constant) and unset(n)}

    out: dict[str, dict[str, dict[str, object]]] = {}
    for path in candidates:
        tree = parse(os.path.abspath(path))
        if tree is None:
            continue
        # (literal_test decides tests only: of `if` statements, `x if test else y`, and the operands of `and`/`or`,
        # after which the rest never runs; asking _never_set about no other parameter keeps a large module with many
        # keyword defaults cheap)
        tests = [t for i in ast.walk(tree) for t in (
            [i.test] if isinstance(i, (ast.If, ast.IfExp)) else i.values if isinstance(i, ast.BoolOp) else [])]
        tested = {n.id if isinstance(n, ast.Name) else n.attr for t in tests
                  for n in ast.walk(t) if isinstance(n, ast.Name) or isinstance(n, ast.Attribute)
                  and isinstance(n.value, ast.Name) and n.value.id == "self"}
        # `if self.net.looped:`, a flag another instance keeps (its class's copy of a parameter nothing sets)
        held = {id(n): f"{holder}.{n.attr}" for t in tests for n in ast.walk(t)
                if isinstance(n, ast.Attribute) and (holder := _held_by_self(n))}
        found_here: dict[str, dict[str, object]] = {}
        for s in tree.body:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and (known := falsy_params(s)):
                found_here[s.name] = known
            if not isinstance(s, ast.ClassDef):
                continue
            methods = [f for f in s.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
            init = next((f for f in methods if f.name == "__init__"), None)
            copies = {}
            if init is not None:
                for flag, value in falsy_params(init).items():
                    if _self_copies(s, flag):
                        copies[f"self.{flag}"] = value
                for a in ast.walk(init):  # `self.flag = net.flag`: the copy the instance handed in keeps
                    if isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.value, ast.Attribute) \
                            and _self_attr_named(a.targets[0], flag := a.value.attr) \
                            and id(a.targets[0]) in _self_copies(s, flag) and unset(flag) \
                            and not (isinstance(a.value.value, ast.Name) and holds_foreign(s, a.value.value.id)):
                        if flag not in defaults:
                            defaults[flag] = _kept_default(flag, texts, parse)
                        if defaults[flag][0]:
                            copies[f"self.{flag}"] = defaults[flag][1]
            for f in methods:
                known = {**copies, **held_flags(s, f), **falsy_params(f)}
                if known:
                    found_here[f"{s.name}.{f.name}"] = known
        if found_here:
            out[path] = found_here
    return out


def merge_literals(calls: Mapping[str, Mapping[str, Mapping[str, object]]],
                   flags: Mapping[str, Mapping[str, Mapping[str, object]]]) -> dict[str, dict[str, dict[str, object]]]:
    """The run's call literals (:func:`call_literals`) with the literals of :func:`unset_flags` added, per path
    and qualname (where both name one parameter they agree: a parameter nothing sets is its default at every
    call)."""
    out = {path: {q: dict(v) for q, v in by.items()} for path, by in calls.items()}
    for path, by in flags.items():
        for q, v in by.items():
            out.setdefault(path, {}).setdefault(q, {}).update({k: x for k, x in v.items()
                                                               if k not in out[path][q]})
    return out
