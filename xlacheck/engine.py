"""Check one source text: parse, infer contexts and values, run the rules, sort the findings.

Pipeline: ``ast.parse`` -> one scan of the module (imports, classes, functions, call edges) ->
context inference (which functions XLA compiles) -> one walk per compiled function that keeps
value facts and dispatches nodes to the rules subscribed to their type -> columns converted from
``ast``'s UTF-8 bytes to characters (:mod:`xlacheck.positions`) -> sorted diagnostics.
Never raises: parse failures and rule crashes become a :class:`FileError`.
"""

from __future__ import annotations

import ast
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from xlacheck.analysis import is_main_guard
from xlacheck.analysis.compiled_exports import Imported
from xlacheck.analysis.contexts import Certainty, FunctionInfo, Level, ModuleFacts, ProjectFact, analyze_module
from xlacheck.analysis.flow import RuleCrash, walk_function
from xlacheck.analysis.project import Summary, summarize
from xlacheck.analysis.values import ValueEnv
from xlacheck.diagnostics import Diagnostic, FileError, FileResult, SetAside, SetAsideReason
from xlacheck.positions import diagnostics_in_characters
from xlacheck.rules import ALL_RULES
from xlacheck.rules.base import Rule
from xlacheck.rules.module_base import ModuleRule, run_module_rules

logger = logging.getLogger(__name__)
SKIPPED_FUNCTION = "cannot analyze function"  # FileError prefix: a user-side limit, exit 1 (api.USER_ERROR_PREFIXES)

_INSTANCES: tuple[Rule, ...] = tuple(cls() for cls in ALL_RULES if not issubclass(cls, ModuleRule))
_MODULE_RULES: tuple[ModuleRule, ...] = tuple(cls() for cls in ALL_RULES if issubclass(cls, ModuleRule))
# rules whose pattern fails in every graph (tracing rejects it with or without XLA): a Keras 2 fit or a
# plain tf.function traces the code too, so the no-compiled-entry fact does not set their findings aside
_FAILS_IN_ANY_GRAPH = frozenset(cls.code for cls in ALL_RULES if getattr(cls, "fails_in_any_graph", False))


def _dispatch_tables(select: Callable[[str], bool] | None, preview: bool = False
                     ) -> dict[Level, dict[type, list[Rule]]]:
    """Per evidence level, node type -> the selected rules that fire at that level (``preview``:
    also the rules and levels behind --preview)."""
    tables: dict[Level, dict[type, list[Rule]]] = {level: {} for level in Level}
    for rule in _INSTANCES:
        if select is not None and not select(rule.code):
            continue
        if rule.preview and not preview:
            continue
        for level in rule.fire_levels() | (rule.preview_fire_levels() if preview else frozenset()):
            for t in rule.node_types:
                tables[level].setdefault(t, []).append(rule)
    return tables


def _count_lines(source: str) -> int:
    if not source:
        return 0
    return source.count("\n") + (0 if source.endswith("\n") else 1)


def check_source(source: str, path: str, *, select: Callable[[str], bool] | None = None,
                 preview: bool = False, torch_xla: bool = False, jit_compiled: bool = False,
                 target_python: tuple[int, int] | None = None) -> FileResult:
    """Lint one file's source. Diagnostics are sorted by (line, col, code); nothing is filtered.
    ``preview`` also runs the rules and evidence levels behind ``--preview``. ``torch_xla``: the
    caller declares that this file's torch code runs on an XLA device (training steps and module
    forwards count as torch_xla steps without a torch_xla import). ``jit_compiled``: the caller
    declares that this file's TensorFlow/JAX functions and model/layer methods run under XLA
    (compiled roots unless the code shows they run on the host: docs/configuration.md).
    ``target_python``: the oldest Python the code runs on (``None``: the running interpreter's)."""
    return check_source_and_tree(source, path, select=select, preview=preview, torch_xla=torch_xla,
                                 jit_compiled=jit_compiled, target_python=target_python)[0]


def check_source_and_tree(
    source: str, path: str, *, select: Callable[[str], bool] | None = None, preview: bool = False,
    torch_xla: bool = False, jit_compiled: bool = False, target_python: tuple[int, int] | None = None,
) -> tuple[FileResult, ast.Module | None]:
    """:func:`check_source`, plus the parsed tree (None when it does not parse), so a caller that
    attaches fixes does not parse the file a second time."""
    checked = check_file(source, path, select=select, preview=preview, torch_xla=torch_xla,
                         jit_compiled=jit_compiled, target_python=target_python)
    return checked.result, checked.tree


@dataclass(frozen=True)
class CheckedFile:
    result: FileResult
    tree: ast.Module | None  # None when the file does not parse
    summary: Summary | None  # what other files of the run learn from this one (None: no parse)


_TEST_DIRS = frozenset({"test", "tests", "testing"})


def is_test_file(path: str) -> bool:
    """A test of the project (pytest/unittest layout): under a ``test``/``tests``/``testing`` folder, or
    named ``test_*.py``, ``*_test.py``, ``*_tests.py`` or ``conftest.py``. ``--torch-xla`` and
    ``--jit-compiled`` declare model and training code; a test runs that code on the host and reads
    its results on purpose (assertions, ``torch.testing.assert_close``), so the declaration does not
    reach it. What a test file itself compiles (``torch_xla`` imports, ``jit_compile=True``) is
    still checked, except by the rules that skip tests (``checks_test_files = False``: set-up rules, and
    XLA350's host reads, which a test makes on purpose); those check a file named like a test that holds
    no test and runs as a script (:func:`_script_named_like_a_test`). The CLI passes the path relative
    to the project root (the folder of the config file, else the current directory). On untuned
    PyTorch code, 43 of 51 false first-sight findings were in tests and one-off scripts
    (docs/real-code-judgments-8-final.md)."""
    parts = path.replace("\\", "/").split("/")
    name = parts[-1]
    return (any(part in _TEST_DIRS for part in parts[:-1]) or name.startswith("test_") or name == "conftest.py"
            or name.endswith(("_test.py", "_tests.py")))


def _script_named_like_a_test(tree: ast.Module, path: str) -> bool:
    """A file named like a test (``test_train.py``), outside any test folder, that holds no test (no
    ``test*`` function, no ``Test*`` class, no pytest/unittest import) and runs as a script (``if __name__
    == "__main__":``): a training or evaluation script, so the module rules that skip tests check it."""
    parts = path.replace("\\", "/").split("/")
    if any(part in _TEST_DIRS for part in parts[:-1]) or parts[-1] == "conftest.py":
        return False
    main = False
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test"):
            return False
        if isinstance(n, ast.ClassDef) and (n.name.startswith("Test") or any(
                (b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "")) == "TestCase" for b in n.bases)):
            return False
        if isinstance(n, ast.Import) and any(a.name.split(".")[0] in ("pytest", "unittest") for a in n.names) \
                or isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] in ("pytest", "unittest"):
            return False
        if is_main_guard(n):
            main = True
    return main


def check_file(
    source: str, path: str, *, select: Callable[[str], bool] | None = None, preview: bool = False,
    torch_xla: bool = False, project: Mapping[str, ProjectFact] | None = None, jit_compiled: bool = False,
    test_file: bool | None = None, literals: Mapping[str, Mapping[str, object]] | None = None,
    unreached: str | None = None, uncompiled: str | None = None, target_python: tuple[int, int] | None = None,
    unused_classes: Mapping[str, str] | None = None,
    imported: Imported | None = None,
    caller_loops: Mapping[str, Mapping[str, tuple[int, str, bool]]] | None = None,
) -> CheckedFile:
    """:func:`check_source_and_tree`, with the file's :class:`~xlacheck.analysis.project.Summary`
    for the project pass; ``project``: what the other files of the run say about this one's
    functions (:func:`xlacheck.analysis.project.resolve`); ``test_file``: whether the file is one of
    the project's tests (:func:`is_test_file` of its root-relative path; ``None``: of ``path``);
    ``literals``: what every call of the project passes to this file's functions
    (:func:`xlacheck.analysis.project.call_literals`); ``unreached``: why nothing in the project runs
    this module (:func:`xlacheck.analysis.project.unreached_modules`); ``uncompiled``: why no compiled
    entry of the project reaches this module's TensorFlow code
    (:func:`xlacheck.analysis.project.uncompiled_modules`); ``target_python``: the oldest Python the
    project runs on (``None``: the running interpreter's); ``unused_classes``: this module's classes that
    nothing in the project names, and why (:func:`xlacheck.analysis.project.unused_classes`);
    ``imported``: the compiled functions and plain Enum classes of other modules it imports
    (:func:`xlacheck.analysis.project.imports`); ``caller_loops``: what other modules' loops pass to this
    file's functions (:func:`xlacheck.analysis.project.caller_loops`)."""
    lines = _count_lines(source)
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        return CheckedFile(FileResult(path, error=FileError(path, f"syntax error: {exc.msg}", exc.lineno or 1,
                                                            max((exc.offset or 1) - 1, 0)), lines=lines), None, None)
    except (ValueError, RecursionError, MemoryError) as exc:  # null bytes, absurd nesting
        error = FileError(path, f"cannot parse: {type(exc).__name__}: {exc}")
        return CheckedFile(FileResult(path, error=error, lines=lines), None, None)
    skipped: list[FileError] = []
    summary: list[Summary] = []
    try:
        diagnostics, set_aside = _check_tree(tree, path, select, skipped, preview, torch_xla, project, summary,
                                             jit_compiled, test_file, literals, unreached, uncompiled,
                                             target_python=target_python, unused_classes=unused_classes,
                                             imported=imported, caller_loops=caller_loops)
        if unreached is not None:
            set_aside += _set_aside_as_unreached(tree, path, select, preview, torch_xla, project, jit_compiled,
                                                 test_file, literals, unreached, diagnostics, set_aside,
                                                 target_python, imported=imported)
        elif unused_classes:
            set_aside += _set_aside_as_unreached(tree, path, select, preview, torch_xla, project, jit_compiled,
                                                 test_file, literals, None, diagnostics, set_aside,
                                                 target_python, unused_classes, imported)
    except RuleCrash as crash:
        logger.exception("rule %s crashed on %s", crash.code, path)
        return CheckedFile(FileResult(path, error=FileError(path, f"internal error in rule {crash.code}: "
                                                            f"{crash.error!r}"), lines=lines), tree, None)
    # Rules report ast's UTF-8 byte columns; from here on every column counts characters.
    diagnostics = diagnostics_in_characters(source, diagnostics)
    diagnostics.sort(key=lambda d: (d.start.line, d.start.col, d.code))
    moved = diagnostics_in_characters(source, [s.diagnostic for s in set_aside])
    aside = sorted((replace(s, diagnostic=d) for s, d in zip(set_aside, moved)),
                   key=lambda s: (s.diagnostic.start.line, s.diagnostic.start.col, s.diagnostic.code))
    return CheckedFile(FileResult(path, tuple(diagnostics), lines=lines, incomplete=tuple(skipped),
                                  set_aside=tuple(aside)), tree, summary[0] if summary else None)


def _assumed_compiled_tf(info: FunctionInfo, facts: ModuleFacts) -> bool:
    """TensorFlow code taken for compiled without a compiled entry of its own (below ``CERTAIN``: a
    Keras method, a plain ``tf.function``, a tensor helper): JAX code is traced by ``jax.jit`` wherever
    it runs, and a file that imports JAX is left as it is."""
    return info.level < Level.CERTAIN and not info.jax and "jax" not in facts.aliases.frameworks


def _set_aside_as_unreached(
    tree: ast.Module, path: str, select: Callable[[str], bool] | None, preview: bool, torch_xla: bool,
    project: Mapping[str, ProjectFact] | None, jit_compiled: bool, test_file: bool | None,
    literals: Mapping[str, Mapping[str, object]] | None, unreached: str | None, diagnostics: list[Diagnostic],
    set_aside: list[SetAside], target_python: tuple[int, int] | None,
    unused_classes: Mapping[str, str] | None = None, imported: Imported | None = None,
) -> list[SetAside]:
    """What the unreached-module fact (or, without it, the unused-class fact) took away: the file checked
    again as if the project ran it, less what the run reports or set aside already. Only files the project
    pass found unreached or holding unused classes (torch files with findings) pay for the second check;
    a finding the class fact took away is named by the class whose body holds it (else the first class's
    reason: a helper only that class called)."""
    seen = {(d.code, d.start.line, d.start.col) for d in diagnostics}
    seen |= {(s.diagnostic.code, s.diagnostic.start.line, s.diagnostic.start.col) for s in set_aside}
    reached, reached_aside = _check_tree(tree, path, select, [], preview, torch_xla, project, None, jit_compiled,
                                         test_file, literals, None, target_python=target_python,
                                         imported=imported)
    if unreached is not None:
        out = [SetAside(replace(d, fix=None), SetAsideReason.UNREACHED_MODULE, unreached)
               for d in reached if (d.code, d.start.line, d.start.col) not in seen]
    else:
        spans = [(s.lineno, s.end_lineno or s.lineno, (unused_classes or {})[s.name]) for s in tree.body
                 if isinstance(s, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                 and s.name in (unused_classes or {})]
        spans += [(f.lineno, f.end_lineno or f.lineno, (unused_classes or {})[f"{c.name}.{f.name}"])
                  for c in tree.body if isinstance(c, ast.ClassDef) for f in c.body
                  if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and f"{c.name}.{f.name}" in (unused_classes or {})]
        out = [SetAside(replace(d, fix=None), SetAsideReason.UNUSED_CLASS,
                        next((why for a, b, why in spans if a <= d.start.line <= b), spans[0][2] if spans else ""))
               for d in reached if (d.code, d.start.line, d.start.col) not in seen]
    return out + [s for s in reached_aside if (s.diagnostic.code, s.diagnostic.start.line, s.diagnostic.start.col)
                  not in seen]


def _check_tree(
    tree: ast.Module, path: str, select: Callable[[str], bool] | None, skipped: list[FileError],
    preview: bool = False, torch_xla: bool = False, project: Mapping[str, ProjectFact] | None = None,
    summary: list[Summary] | None = None, jit_compiled: bool = False, test_file: bool | None = None,
    literals: Mapping[str, Mapping[str, object]] | None = None, unreached: str | None = None,
    uncompiled: str | None = None, target_python: tuple[int, int] | None = None,
    unused_classes: Mapping[str, str] | None = None, imported: Imported | None = None,
    caller_loops: Mapping[str, Mapping[str, tuple[int, str, bool]]] | None = None,
) -> tuple[list[Diagnostic], list[SetAside]]:
    # a declaration covers model and training code, never its tests; the CLI decides that on the
    # root-relative path (``test_file``), a direct caller on ``path`` as given
    test_file = is_test_file(path) if test_file is None else test_file
    if (torch_xla or jit_compiled) and test_file:
        torch_xla = jit_compiled = False
    facts = analyze_module(tree, path, project, declared=jit_compiled)
    if literals:
        facts.call_literals = literals
    if caller_loops:
        facts.caller_loops = caller_loops
    facts.unreached = unreached
    if unused_classes:
        facts.unused_classes = unused_classes
    if target_python is not None:
        facts.target_python = target_python
    if imported is not None:
        facts.imported_compiled = imported.compiled
        facts.imported_enums = imported.enums
        facts.imported_nonnumeric_enums = imported.nonnumeric_enums
        facts.imported_cuda_queries = imported.cuda_queries
    if not facts.aliases.frameworks and not facts.imported_compiled:
        if summary is not None:
            summary.append(summarize(facts, tree))
        return [], []  # no tensorflow/jax/torch/keras import: nothing here can be compiled
    tables = _dispatch_tables(select, preview)
    envs: dict[int, dict[str, int]] = {}  # each walked function's final names, the closure of nested ones
    walked: dict[int, ValueEnv] = {}  # each walked function's values (the dtypes of nested ones' closure)
    out: list[Diagnostic] = []
    aside: list[SetAside] = []
    # callers before callees (so callees know what they are passed), parents before nested functions
    for info in facts.walk_order:
        if info.host or info.certainty is Certainty.NONE:
            continue
        dispatch = tables[info.level]
        outer = envs.get(id(info.parent)) if info.parent is not None else None
        outer_values = walked.get(id(info.parent)) if info.parent is not None else None
        try:
            ctx = walk_function(path, info, facts, dispatch, outer, outer_values)
        except RecursionError:
            # an expression nested ~1000 deep (generated code, a sum of hundreds of terms): skip
            # this function, keep the rest, and say so in the run's errors
            line = getattr(info.node, "lineno", 1)
            logger.debug("%s:%s: expression nesting too deep to analyze %s()", path, line, info.name)
            skipped.append(FileError(path, f"{SKIPPED_FUNCTION} {info.name}(): an expression is nested too deep "
                                     "(e.g. a sum of hundreds of terms), so its findings are missing; split the "
                                     "expression or exclude the file", line, getattr(info.node, "col_offset", 0)))
            continue
        envs[id(info)] = ctx.values.env
        walked[id(info)] = ctx.values
        if uncompiled is not None and not jit_compiled and _assumed_compiled_tf(info, facts):
            # no compiled entry of the project reaches it: what fails only under XLA fails only if XLA ran
            # it; what fails in every graph still fails where Keras 2 fit or a plain tf.function traces it
            aside.extend(SetAside(replace(d, fix=None), SetAsideReason.NO_COMPILED_ENTRY, uncompiled)
                         for d in ctx.diagnostics if d.code not in _FAILS_IN_ANY_GRAPH)
            out.extend(d for d in ctx.diagnostics if d.code in _FAILS_IN_ANY_GRAPH)
        else:
            out.extend(ctx.diagnostics)
        aside.extend(ctx.set_aside)
    index = None
    if summary is not None:  # after the walk, which records what calls into other modules pass
        loop_calls: tuple[tuple[str, int, tuple[tuple[str, bool], ...]], ...] = ()
        if facts.external_calls:  # what its loops pass them (rules._recompile_scope, shared with the XLA4xx rules)
            from xlacheck.analysis.module_index import ModuleIndex
            from xlacheck.rules._recompile_scope import loops_into_other_modules

            index = ModuleIndex(tree, facts)
            loop_calls = loops_into_other_modules(index, path)
        summary.append(summarize(facts, tree, loop_calls))
    # XLA4xx/5xx: code around compiled functions
    found, found_aside = run_module_rules(_MODULE_RULES, tree, facts, path, select, torch_xla=torch_xla,
                                          preview=preview,
                                          test_file=test_file and not _script_named_like_a_test(tree, path),
                                          index=index)
    return out + found, aside + found_aside
