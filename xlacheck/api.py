"""The library entry points: lint (and fix) paths, return frozen results, never print.

Per file: read bytes -> pre-filter (no ML framework named: skipped unparsed) -> cache lookup by
content hash -> engine -> rewrites attach fixes -> per-file-ignores -> inline suppressions ->
(fix passes, re-linting the same way between them). Files are
spread over worker processes in chunks when there are many of them.

Two passes (:mod:`xlacheck.analysis.project`): every file is linted on its own first, which also
gives its summary (cached with its result); the summaries are joined into facts per file
("focal_loss is called from train_step in pkg/model.py:42"), and only the files that get facts
are linted again, with them (their cache key includes the facts). Fixes are applied in the
second pass, so they see the project's facts.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import repeat
from typing import TYPE_CHECKING, Any

from xlacheck.cache import CachedLint, ResultCache, analyzer_fingerprint, make_salt
from xlacheck.config import Settings
from xlacheck.diagnostics import Diagnostic, FileError, FileResult, Location, RunResult, SetAside
from xlacheck.discovery import SourceFile, discover, mentions_ml_framework
from xlacheck.fixes import DecodedSource, decode_source, encode_source, fix_source, is_applicable, write_atomic
from xlacheck.suppression import SUPPRESSION_RULES, check_suppressions, filter_suppressed

if TYPE_CHECKING:
    from xlacheck.analysis.compiled_exports import Imported
    from xlacheck.analysis.contexts import ProjectFact
    from xlacheck.analysis.project import Summary
    from xlacheck.notebook import Notebook

log = logging.getLogger(__name__)

# Files needing analysis (cache misses) below which one process beats a pool. A miss costs
# ~20 ms CPU on the transformers corpus (benchmarks/lint_speed.py); forking workers and shipping
# results back costs a few of those, so a pool pays off from a dozen or two misses.
PARALLEL_MIN_FILES = 16
# ...and the source bytes below which one process beats a pool whatever the file count: a pool
# costs ~0.2-0.5 s to start and import the engine in every worker on a 2-core machine, about
# what one process needs for ~25k lines (at ~65k lines per CPU-second). A small package's 25
# short files (reference_trainer/: 0.5 s with a pool, 0.3 s without) stay in one process.
PARALLEL_MIN_BYTES = 1_000_000
# FileError messages of problems in the user's files rather than in xlacheck (exit 1, not 2).
USER_ERROR_PREFIXES = (
    "syntax error", "cannot parse", "cannot read", "cannot decode", "no such file", "cannot analyze",
)


def is_internal_error(error: FileError) -> bool:
    """A rule crash or other failure of xlacheck itself (the CLI exits 2 for these)."""
    return not error.message.lower().startswith(USER_ERROR_PREFIXES)


@dataclass(frozen=True)
class FileFix:
    """What fixing one file did (or, with ``write=False``, would do)."""

    path: str
    original: str
    text: str
    fixed: tuple[Diagnostic, ...]
    error: str | None = None  # the fixed text did not parse or could not be written
    written: bool = False

    @property
    def changed(self) -> bool:
        return self.text != self.original


@dataclass(frozen=True)
class FixRun:
    result: RunResult  # findings that remain after fixing
    fixes: tuple[FileFix, ...] = ()  # one per file where a fix was applicable


@dataclass(frozen=True)
class _FixMode:
    unsafe: bool
    write: bool


@dataclass(frozen=True)
class _Plan:
    """What a worker process needs; picklable."""

    settings: Settings
    cache: ResultCache | None
    fix: _FixMode | None = None
    # file path -> what the other files of the run say about its functions (second pass)
    project: dict[str, dict[str, ProjectFact]] | None = None
    # file path -> {qualname: {parameter: literal}} every call of the run passes (second pass)
    literals: dict[str, dict[str, dict[str, object]]] | None = None
    # file path -> why nothing in the project runs it (second pass; analysis.project.unreached_modules)
    unreached: dict[str, str] | None = None
    # file path -> why no compiled entry of its project reaches its TensorFlow code (second pass;
    # analysis.project.uncompiled_modules)
    uncompiled: dict[str, str] | None = None
    # file path -> {class: why} for its classes nothing in the project names (second pass;
    # analysis.project.unused_classes)
    unused: dict[str, dict[str, str]] | None = None
    # file path -> the compiled functions and plain Enum classes of other files it imports, by the name its
    # code uses (second pass; analysis.project.imports)
    compiled: dict[str, Imported] | None = None
    # file path -> {function: {position or keyword: (line, "path:line", follows a step counter)}} that other
    # files' loops pass a new value on every iteration (second pass; analysis.project.caller_loops)
    loops: dict[str, dict[str, dict[str, tuple[int, str, bool]]]] | None = None


def check_paths(paths: Sequence[str | os.PathLike[str]], settings: Settings | None = None) -> RunResult:
    """Lint every Python file under ``paths`` (files or folders; default ``.``)."""
    return _run(paths, settings, None).result


def fix_paths(
    paths: Sequence[str | os.PathLike[str]],
    settings: Settings | None = None,
    *,
    unsafe: bool = False,
    write: bool = True,
) -> FixRun:
    """Apply safe fixes (and unsafe ones when ``unsafe``); ``write=False`` only computes them (``--diff``)."""
    return _run(paths, settings, _FixMode(unsafe, write))


def lint_stdin(
    data: bytes, filename: str, settings: Settings | None = None, *, fix: bool = False, unsafe: bool = False
) -> FixRun:
    """Lint ``data`` (read from stdin) as if it were ``filename`` (which need not exist): its
    config, per-file-ignores and kind (``.ipynb``) apply. Fixes are computed, never written."""
    from pathlib import Path

    if settings is None:
        settings = Settings.from_pyproject(".")
    path = Path(os.path.abspath(filename))
    try:
        rel = path.relative_to(settings.root.resolve()).as_posix()
    except ValueError:
        rel = path.as_posix().lstrip("/")
    file = SourceFile(path, filename, rel, stdin=data)
    plan = _Plan(settings, None, _FixMode(unsafe, write=False) if fix else None)
    result, file_fix, _ = _analyzed(plan, file)
    return FixRun(RunResult((result,)), (file_fix,) if file_fix is not None else ())


def _run(paths: Sequence[str | os.PathLike[str]], settings: Settings | None, fix: _FixMode | None) -> FixRun:
    paths = list(paths) or ["."]
    if settings is None:
        settings = Settings.from_pyproject(paths[0])
    found = discover(paths, settings)
    cache = None
    if settings.cache:
        modes = ("+preview" if settings.preview else "") + ("+torch-xla" if settings.torch_xla else "")
        modes += "+py{}.{}".format(*settings.target_python)  # what the rules assume of the language
        cache = ResultCache(settings.resolved_cache_dir, make_salt(settings.layers, analyzer_fingerprint() + modes))
    files = list(found.files)
    outcomes = _project_pass(_Plan(settings, cache, fix), files)
    missing: list[_Outcome] = [
        (FileResult(p, error=FileError(p, "no such file or directory; check the path")), None, None)
        for p in found.missing
    ]
    missing += [(FileResult(p, error=FileError(p, message)), None, None) for p, message in found.unreadable]
    results = sorted([*outcomes, *missing], key=lambda o: o[0].path)
    return FixRun(RunResult(tuple(r for r, _, _ in results)), tuple(f for _, f, _ in results if f is not None))


def _project_pass(plan: _Plan, files: list[SourceFile]) -> list[_Outcome]:
    """Lint every file alone (no fixes yet), join the summaries, and lint again the files that the
    other files give facts (with them), and the files with fixes to apply."""
    first = _map_files(replace(plan, fix=None), files)
    project: list[Any] = []
    if len(files) > 1:
        from xlacheck.analysis.project import (
            ProjectFile,
            call_literals,
            caller_loops,
            imports,
            merge_literals,
            resolve,
            uncompiled_modules,
            unreached_modules,
            unset_flags,
            unused_classes,
        )

        project = [ProjectFile(str(f.path), f.display, o[2], _cell_lines(f) if f.display.endswith(".ipynb") else None)
                   for f, o in zip(files, first) if o[2] is not None and f.stdin is None]
    facts = resolve(project) if len(project) > 1 else {}
    literals = call_literals(project) if len(project) > 1 else {}
    # compiled functions a file imports from another: its calls of them are calls of compiled code, which
    # may give it findings, so it is linted again; plain Enum classes only take findings away
    compiled = imports(project) if len(project) > 1 else {}
    # what other files' loops pass to a file's functions: it may give findings (XLA4xx) to a file that compiles
    # something or calls what another file compiles, so only such a file gets them and is linted again
    loops = caller_loops(project, set(compiled)) if len(project) > 1 else {}
    # modules nothing in the project runs: only the torch adapter reads it (no step there), so only files with
    # findings need it
    found = [str(f.path) for f, o in zip(files, first) if f.stdin is None and o[0].diagnostics]
    unreached = unreached_modules([str(f.path) for f in files if f.stdin is None], only=found, cache=plan.cache) if (
        len(project) > 1 and found) else {}
    # classes nothing in the project names: no step runs their methods (the torch adapter reads it too)
    unused = unused_classes([str(f.path) for f in files if f.stdin is None], only=found, cache=plan.cache) if (
        len(project) > 1 and found) else {}
    # parameters with a falsy default that nothing in the project sets: literals too, for the same branch decisions
    if len(project) > 1 and found:
        literals = merge_literals(literals, unset_flags([str(f.path) for f in files if f.stdin is None], only=found,
                                                        cache=plan.cache))
    # TensorFlow files with findings (or facts that may give them some) whose project holds no compiled entry:
    # a fact that only sets findings aside
    tf_found = [str(f.path) for f, o in zip(files, first) if f.stdin is None and not plan.settings.declares_jit(f.rel)
                and (o[0].diagnostics or str(f.path) in facts)]
    uncompiled = uncompiled_modules([str(f.path) for f in files if f.stdin is None], only=tf_found,
                                    cache=plan.cache) if (
        len(project) > 1 and tf_found) else {}
    # call literals only decide branches that never run (analysis.calls): they can take findings
    # away, never add one, so a file they reach is linted again only when it has findings
    again = [i for i, (f, o) in enumerate(zip(files, first)) if str(f.path) in facts or (
        str(f.path) in compiled and o[0].error is None and (
            bool(compiled[str(f.path)].compiled) or bool(o[0].diagnostics))) or (
        str(f.path) in loops and o[0].error is None and not o[0].skipped) or (
        (str(f.path) in literals or str(f.path) in unreached or str(f.path) in uncompiled or str(f.path) in unused)
        and o[0].error is None
        and not o[0].skipped
        and o[0].diagnostics) or (
        plan.fix is not None and any(is_applicable(d, unsafe=plan.fix.unsafe) for d in o[0].diagnostics))]
    if not again:
        return first
    second = _map_files(replace(plan, project=facts or None, literals=literals or None, unreached=unreached or None,
                                uncompiled=uncompiled or None, unused=unused or None, compiled=compiled or None,
                                loops=loops or None),
                        [files[i] for i in again])
    out = list(first)
    for i, outcome in zip(again, second):
        out[i] = outcome
    return out


def _cell_lines(file: SourceFile) -> Callable[[int], str] | None:
    """How messages name a line of a notebook's joined cells ("cell 3:5", as its findings show)."""
    from xlacheck.notebook import NotebookError, read

    try:
        notebook = read(file.path.read_bytes())
    except (OSError, NotebookError):
        return None
    if notebook is None:
        return None
    position = notebook.position
    return lambda line: "cell {}:{}".format(*position(line))


def resolve_jobs(jobs: int | None, files: int) -> int:
    if jobs is not None:
        return jobs
    return 1 if files < PARALLEL_MIN_FILES else (os.cpu_count() or 1)


_Outcome = tuple[FileResult, "FileFix | None", "Summary | None"]


def _map_files(plan: _Plan, files: list[SourceFile]) -> list[_Outcome]:
    """Outcomes in the order of ``files``."""
    # Skipped, unreadable and cached files are finished here, cheaply; only the rest may go to a
    # pool, so a warm run never pays for starting one.
    quick = [_process(plan, f, analyze=False) for f in files]
    misses = [f for f, outcome in zip(files, quick) if outcome is None]
    jobs = min(resolve_jobs(plan.settings.jobs, len(misses)), max(len(misses), 1))
    if plan.settings.jobs is None and jobs > 1 and _source_bytes(misses) < PARALLEL_MIN_BYTES:
        jobs = 1
    if jobs <= 1:
        analyzed = iter([_analyzed(plan, f) for f in misses])  # the engine is imported on the first miss only
        return [outcome if outcome is not None else next(analyzed) for outcome in quick]
    _engine()  # import once here, so forked workers inherit it instead of each importing it
    # Several chunks per worker balance uneven file sizes; chunks amortize pickling per task.
    from concurrent.futures import ProcessPoolExecutor  # multiprocessing costs ~12 ms to import

    size = max(1, len(misses) // (jobs * 4))
    chunks = [misses[i : i + size] for i in range(0, len(misses), size)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pooled = iter([outcome for chunk in pool.map(_process_chunk, repeat(plan), chunks) for outcome in chunk])
    return [outcome if outcome is not None else next(pooled) for outcome in quick]


def _source_bytes(files: list[SourceFile]) -> int:
    total = 0
    for f in files:
        if f.stdin is not None:
            total += len(f.stdin)
            continue
        try:
            total += f.path.stat().st_size
        except OSError:
            pass  # reported when the file is read
        if total >= PARALLEL_MIN_BYTES:
            break
    return total


def _process_chunk(plan: _Plan, files: list[SourceFile]) -> list[_Outcome]:
    return [_analyzed(plan, f) for f in files]


def _analyzed(plan: _Plan, file: SourceFile) -> _Outcome:
    outcome = _process(plan, file, analyze=True)
    assert outcome is not None
    return outcome


def _engine():
    from xlacheck import engine

    return engine


def _count_lines(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _engine_lint(plan: _Plan, text: str, path: str, lines: int,
                 project: dict[str, ProjectFact] | None = None, jit_compiled: bool = False,
                 rel: str | None = None, literals: dict[str, dict[str, object]] | None = None,
                 unreached: str | None = None, uncompiled: str | None = None,
                 unused: dict[str, str] | None = None,
                 compiled: Imported | None = None,
                 loops: dict[str, dict[str, tuple[int, str, bool]]] | None = None) -> CachedLint:
    """Engine findings with the rewrites' fixes attached (docs/cli.md, ## Fixes: after check_source, before
    suppression); what the cache stores, so a warm run keeps the fixes."""
    # keywords only when set: engines (and test fakes) without them keep working
    extra: dict[str, Any] = {}
    if plan.settings.preview:
        extra["preview"] = True  # --preview: rules/levels below 90% on real code
    if plan.settings.torch_xla:
        extra["torch_xla"] = True  # declared: torch code runs on XLA devices
    if jit_compiled:
        extra["jit_compiled"] = True  # declared: this file's TF/JAX code runs under XLA (jit-compiled globs)
    if literals:
        extra["literals"] = literals  # what every call of the run passes to its functions
    if unreached:
        extra["unreached"] = unreached  # nothing in the project runs this module
    if unused:
        extra["unused_classes"] = unused  # classes of this module nothing in the project names
    if compiled:
        extra["imported"] = compiled  # compiled functions and plain Enum classes of other modules it imports
    if loops:
        extra["caller_loops"] = loops  # what other modules' loops pass to its functions
    if plan.settings.target_version is not None:
        extra["target_python"] = plan.settings.target_version  # the oldest Python the project runs on
    if uncompiled:
        extra["uncompiled"] = uncompiled  # no compiled entry of the project reaches its TensorFlow code
    if rel is not None and (plan.settings.torch_xla or jit_compiled):
        from xlacheck.engine import is_test_file

        # declarations never reach the project's tests, judged on the root-relative path (a project
        # that lives under a folder named test/ is not a test)
        extra["test_file"] = is_test_file(rel)
    engine = _engine()
    summary = None
    if hasattr(engine, "check_file"):
        checked = engine.check_file(text, path, select=plan.settings.is_selected, project=project, **extra)
        result, tree, summary = checked.result, checked.tree, checked.summary
    else:  # an engine without the project pass (test fakes)
        result, tree = engine.check_source_and_tree(text, path, select=plan.settings.is_selected, **extra)
    diagnostics = tuple(result.diagnostics)
    if diagnostics and tree is not None and result.error is None and any(d.fix is None for d in diagnostics):
        from xlacheck import rewrites  # imported only when some finding may get a fix

        diagnostics = rewrites.attach_fixes(text, tree, diagnostics)
    return CachedLint(diagnostics, result.error, lines, result.incomplete, summary, result.set_aside)


def _reported(plan: _Plan, ignored: Sequence[str]) -> Callable[[str], bool]:
    """Whether a finding of this code is reported in a file: the selection, less the file's
    per-file-ignores ``ignored`` (shared by the findings and the set-aside findings)."""
    return lambda code: plan.settings.is_selected(code) and not any(code.startswith(s) or s == "ALL" for s in ignored)


def _postprocess(plan: _Plan, file: SourceFile, text: str, diagnostics: Sequence[Diagnostic],
                 set_aside: Sequence[SetAside] = ()) -> tuple[Diagnostic, ...]:
    ignored = plan.settings.ignored_for(file.rel)
    reported = _reported(plan, ignored)
    return check_suppressions(
        text, file.display, [d for d in diagnostics if reported(d.code)], is_selected=plan.settings.is_selected,
        known_codes=_known_codes, ignored=ignored,
        set_aside=[s.diagnostic for s in set_aside if reported(s.diagnostic.code)],
    )


def _postprocess_set_aside(plan: _Plan, file: SourceFile, text: str, set_aside: Sequence[SetAside]
                           ) -> tuple[SetAside, ...]:
    """The set-aside findings the selection, per-file-ignores and inline suppressions keep, as for the
    findings (:func:`_postprocess`, which counts a directive that suppresses one as used)."""
    if not set_aside:
        return ()
    reported = _reported(plan, plan.settings.ignored_for(file.rel))
    kept = [s for s in set_aside if reported(s.diagnostic.code)]
    shown = {id(d) for d in filter_suppressed(text, [s.diagnostic for s in kept])}
    return tuple(s for s in kept if id(s.diagnostic) in shown)


def _known_codes() -> frozenset[str]:
    from xlacheck import rules

    return frozenset(r.code for r in rules.ALL_RULES) | {r.code for r in SUPPRESSION_RULES}


# A comment XLA001/XLA002 could report: a noqa directive naming XLA codes, or `xlacheck: ignore`
# (a bare noqa can give neither), so a file that only mentions xlacheck is not tokenized for nothing.
_DIRECTIVE = re.compile(rb"#[ \t]*(?:noqa[ \t]*:[^\n]*XLA|xlacheck[ \t]*:[ \t]*ignore)", re.I)


def _checks_directives(plan: _Plan, data: bytes) -> bool:
    """Might XLA001/XLA002 report something in a file with no other finding? (cheap byte scan)"""
    return any(plan.settings.is_selected(r.code) for r in SUPPRESSION_RULES) and _DIRECTIVE.search(data) is not None


def _process(plan: _Plan, file: SourceFile, *, analyze: bool) -> _Outcome | None:
    """Lint one file; with ``analyze=False``, None when that needs the engine (a miss or a fix)."""
    path = file.display
    try:
        data = file.stdin if file.stdin is not None else file.path.read_bytes()
    except OSError as e:
        return FileResult(path, error=FileError(path, f"cannot read file: {e.strerror}")), None, None
    lines = _count_lines(data)
    # a file that imports a compiled function of another module calls compiled code, whether or not it
    # names a framework (a driver script that imports `step` and loops over NumPy batches)
    if not mentions_ml_framework(data) and (plan.compiled is None or str(file.path) not in plan.compiled
                                            or not plan.compiled[str(file.path)].compiled):
        return FileResult(path, skipped=True, lines=lines), None, _cached_reexports(plan, path, data, lines)
    notebook: Notebook | None = None
    if path.endswith(".ipynb"):
        from xlacheck.notebook import NotebookError, read  # only runs that meet a notebook import it

        try:
            notebook = read(data)
        except NotebookError as e:
            return FileResult(path, error=FileError(path, f"cannot read notebook: {e}"), lines=lines), None, None
        if notebook is None:  # an R or Julia notebook
            return FileResult(path, skipped=True, lines=lines), None, None
    processed = _process_source(plan, file, data, lines, notebook, analyze=analyze)
    if processed is None:
        return None
    result, file_fix, summary = processed
    if notebook is not None:
        result = _to_cells(notebook, result)
        if file_fix is not None:
            file_fix = replace(file_fix, fixed=tuple(_diagnostic_to_cells(notebook, d) for d in file_fix.fixed))
    return result, file_fix, summary


def _cached_reexports(plan: _Plan, path: str, data: bytes, lines: int) -> Summary | None:
    """:func:`_reexports` through the result cache: parsing and indexing every file that names no
    framework was most of a warm run's time (1.8 of 3.2 s on this repository)."""
    if plan.cache is None or not path.endswith(".py"):
        return _reexports(path, data)
    key = plan.cache.key(data + b"\0imports", path)
    entry = plan.cache.load(key, path)
    if entry is not None:
        return entry.summary
    summary = _reexports(path, data)
    plan.cache.store(key, CachedLint((), None, lines, (), summary))
    return summary


def _reexports(path: str, data: bytes) -> Summary | None:
    """A file that names no framework may still call the project's functions (their call literals,
    :func:`xlacheck.analysis.project.call_literals`), a package ``__init__`` re-export them
    (``from .losses import focal_loss``), and any file import compiled functions of other modules
    (:func:`xlacheck.analysis.project.compiled_imports`): a summary with those calls and names alone,
    for the project pass."""
    if not path.endswith(".py") or b"(" not in data and b"import" not in data:
        return None
    import ast

    from xlacheck.analysis.calls import index_calls
    from xlacheck.analysis.compiled_exports import nonnumeric_enums, plain_enums
    from xlacheck.analysis.project import Summary, module_imports, reexports

    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    names = reexports(tree)
    modules = module_imports(tree)
    calls = index_calls(tree)  # its calls still count for the call literals of the run
    enums = plain_enums(tree)
    nonnumeric = nonnumeric_enums(tree)
    return Summary((), (), (), names, calls, (), modules, enums, nonnumeric) if (
        names or modules or nonnumeric or calls.calls or calls.other) else None


def _decode(data: bytes, notebook: Notebook | None) -> DecodedSource:
    if notebook is not None:
        return DecodedSource(notebook.source, "utf-8", "\n")
    return decode_source(data)


def _process_source(
    plan: _Plan, file: SourceFile, data: bytes, lines: int, notebook: Notebook | None, *, analyze: bool
) -> _Outcome | None:
    path = file.display
    facts = plan.project.get(str(file.path)) if plan.project is not None else None
    literals = plan.literals.get(str(file.path)) if plan.literals is not None else None
    unreached = plan.unreached.get(str(file.path)) if plan.unreached is not None else None
    uncompiled = plan.uncompiled.get(str(file.path)) if plan.uncompiled is not None else None
    unused = plan.unused.get(str(file.path)) if plan.unused is not None else None
    compiled = plan.compiled.get(str(file.path)) if plan.compiled is not None else None
    loops = plan.loops.get(str(file.path)) if plan.loops is not None else None
    declared = plan.settings.declares_jit(file.rel)
    key = ""
    if plan.cache is not None:
        from xlacheck.analysis.compiled_exports import compiled_key
        from xlacheck.analysis.project import facts_key, literals_key, loops_key  # on the other files too

        # the result depends on the other files' facts and on whether jit-compiled covers this file
        key = plan.cache.key((data + facts_key(facts) if facts else data) + literals_key(literals) + loops_key(loops)
                             + (b"\0jit-compiled" if declared else b"")
                             + (b"\0unreached:" + unreached.encode() if unreached else b"")
                             + (b"\0uncompiled:" + uncompiled.encode() if uncompiled else b"")
                             + (b"\0unused:" + json.dumps(unused, sort_keys=True).encode() if unused else b"")
                             + compiled_key(compiled), path)
    lint = plan.cache.load(key, path) if plan.cache is not None else None
    cached = lint is not None
    decoded: DecodedSource | None = None
    if lint is None:
        if not analyze:
            return None
        try:
            decoded = _decode(data, notebook)
        except (SyntaxError, UnicodeDecodeError) as e:
            return FileResult(path, error=FileError(path, f"cannot decode file: {e}"), lines=lines), None, None
        lint = _engine_lint(plan, decoded.text, path, lines, facts, declared, file.rel, literals, unreached,
                            uncompiled, unused, compiled, loops)
        if plan.cache is not None and (lint.error is None or not is_internal_error(lint.error)):
            plan.cache.store(key, lint)
    if not lint.diagnostics and not lint.set_aside and not _checks_directives(plan, data):
        return (FileResult(path, (), lint.error, cached=cached, lines=lines, incomplete=lint.incomplete), None,
                lint.summary)

    if decoded is None:
        decoded = _decode(data, notebook)  # a cache hit with findings: suppressions need the text
    diagnostics = _postprocess(plan, file, decoded.text, lint.diagnostics, lint.set_aside)
    set_aside = _postprocess_set_aside(plan, file, decoded.text, lint.set_aside)
    file_fix = None
    if plan.fix is not None and any(is_applicable(d, unsafe=plan.fix.unsafe) for d in diagnostics):
        if not analyze:
            return None
        diagnostics, file_fix, fixed_aside = _fix(plan, file, decoded, diagnostics, notebook, facts)
        set_aside = set_aside if fixed_aside is None else fixed_aside
    return (FileResult(path, diagnostics, lint.error, cached=cached, lines=lines, incomplete=lint.incomplete,
                       set_aside=set_aside), file_fix, lint.summary)


def _fix(
    plan: _Plan,
    file: SourceFile,
    decoded: DecodedSource,
    diagnostics: tuple[Diagnostic, ...],
    notebook: Notebook | None = None,
    facts: dict[str, ProjectFact] | None = None,
) -> tuple[tuple[Diagnostic, ...], FileFix, tuple[SetAside, ...] | None]:
    """The findings left after fixing, what fixing did, and the set-aside findings of the fixed text
    (None when no fix changed it: those of the original stand). Set-aside findings are never fixed."""
    assert plan.fix is not None
    last_aside: list[tuple[SetAside, ...]] = []  # of the last text linted: the fixed one

    def relint(text: str) -> tuple[Diagnostic, ...]:
        literals = plan.literals.get(str(file.path)) if plan.literals is not None else None
        unreached = plan.unreached.get(str(file.path)) if plan.unreached is not None else None
        uncompiled = plan.uncompiled.get(str(file.path)) if plan.uncompiled is not None else None
        unused = plan.unused.get(str(file.path)) if plan.unused is not None else None
        compiled = plan.compiled.get(str(file.path)) if plan.compiled is not None else None
        loops = plan.loops.get(str(file.path)) if plan.loops is not None else None
        lint = _engine_lint(plan, text, file.display, 0, facts, plan.settings.declares_jit(file.rel), file.rel,
                            literals, unreached, uncompiled, unused, compiled, loops)
        last_aside[:] = [_postprocess_set_aside(plan, file, text, lint.set_aside)]
        return _postprocess(plan, file, text, lint.diagnostics, lint.set_aside)

    outcome = fix_source(decoded.text, diagnostics, relint, unsafe=plan.fix.unsafe, newline=decoded.newline)
    error, written = outcome.error, False
    original, text = outcome.original, outcome.text
    if notebook is not None and outcome.changed and error is None:
        from xlacheck.notebook import NotebookError

        try:  # the diff and the file show the notebook's JSON, only the fixed cells' source changed
            original, text = notebook.raw, notebook.with_source(outcome.text)
        except NotebookError as e:
            error = f"cannot write the fixes into the notebook: {e}"
    if outcome.changed and plan.fix.write and error is None and (mode := _read_only_mode(file.path)) is not None:
        # A read-only file is a statement (generated code, a vendored copy): refuse, as editors do,
        # rather than replace it behind the user's back (write_atomic renames, which would succeed).
        error = f"the file is read-only (mode {mode:o}); make it writable (chmod u+w) to let --fix change it"
    if outcome.changed and plan.fix.write and error is None:
        try:
            data = text.encode("utf-8") if notebook is not None else encode_source(decoded, text)
            write_atomic(file.path, data)
            written = True
        except (OSError, UnicodeEncodeError) as e:
            error = f"cannot write fixed file: {e}"
    remaining = outcome.remaining if error is None else diagnostics
    aside = last_aside[0] if error is None and outcome.changed and last_aside else None
    return remaining, FileFix(file.display, original, text, outcome.fixed, error, written), aside


def _read_only_mode(path: os.PathLike[str]) -> int | None:
    """The permission bits of a file nobody may write (or this user may not), else None."""
    import stat

    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return None  # the write reports it
    if mode & 0o222 == 0 or not os.access(path, os.W_OK):
        return mode
    return None


def _to_cells(notebook: Notebook, result: FileResult) -> FileResult:
    """Positions in the joined cells -> (cell, line in cell); columns are the same."""
    def error_to_cells(error: FileError) -> FileError:
        cell, line = notebook.position(error.line)
        return replace(error, line=line, col=error.col + notebook.column_shift(error.line), cell=cell)

    return replace(
        result,
        diagnostics=tuple(_diagnostic_to_cells(notebook, d) for d in result.diagnostics),
        error=None if result.error is None else error_to_cells(result.error),
        incomplete=tuple(error_to_cells(e) for e in result.incomplete),
        set_aside=tuple(replace(s, diagnostic=_diagnostic_to_cells(notebook, s.diagnostic)) for s in result.set_aside),
    )


def _diagnostic_to_cells(notebook: Notebook, d: Diagnostic) -> Diagnostic:
    cell, line = notebook.position(d.start.line)
    shift = line - d.start.line

    def moved(loc: Location) -> Location:
        return Location(loc.line + shift, loc.col + notebook.column_shift(loc.line))

    fix = d.fix
    if fix is not None:
        fix = replace(fix, edits=tuple(replace(e, start=moved(e.start), end=moved(e.end)) for e in fix.edits))
    return replace(d, start=moved(d.start), end=moved(d.end), fix=fix, cell=cell)


__all__ = ["FileFix", "FixRun", "SetAside", "Settings", "check_paths", "fix_paths", "is_internal_error"]

