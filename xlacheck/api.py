"""The library entry points: lint (and fix) paths, return frozen results, never print.

Per file: read bytes -> pre-filter (no ML framework named: skipped unparsed) -> cache lookup by
content hash -> engine -> rewrites attach fixes -> per-file-ignores -> inline suppressions ->
(fix passes, re-linting the same way between them). Files are
spread over worker processes in chunks when there are many of them.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat

from xlacheck.cache import CachedLint, ResultCache, analyzer_fingerprint, make_salt
from xlacheck.config import Settings
from xlacheck.diagnostics import Diagnostic, FileError, FileResult, RunResult
from xlacheck.discovery import SourceFile, discover, mentions_ml_framework
from xlacheck.fixes import DecodedSource, decode_source, encode_source, fix_source, is_applicable, write_atomic
from xlacheck.suppression import filter_suppressed

log = logging.getLogger(__name__)

# Files needing analysis (cache misses) below which one process beats a pool. A miss costs
# ~20 ms CPU on the transformers corpus (benchmarks/lint_speed.py); forking workers and shipping
# results back costs a few of those, so a pool pays off from a dozen or two misses.
PARALLEL_MIN_FILES = 16
# FileError messages of problems in the user's files rather than in xlacheck (exit 1, not 2).
USER_ERROR_PREFIXES = ("syntax error", "cannot parse", "cannot read", "cannot decode", "no such file")


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


def _run(paths: Sequence[str | os.PathLike[str]], settings: Settings | None, fix: _FixMode | None) -> FixRun:
    paths = list(paths) or ["."]
    if settings is None:
        settings = Settings.from_pyproject(paths[0])
    found = discover(paths, settings)
    cache = None
    if settings.cache:
        cache = ResultCache(settings.resolved_cache_dir, make_salt(settings.layers, analyzer_fingerprint()
                                                                           + ("+torch-xla" if settings.torch_xla else "")))
    plan = _Plan(settings, cache, fix)
    outcomes = _map_files(plan, list(found.files))
    missing = [
        (FileResult(p, error=FileError(p, "no such file or directory; check the path")), None) for p in found.missing
    ]
    results = sorted([*outcomes, *missing], key=lambda o: o[0].path)
    return FixRun(RunResult(tuple(r for r, _ in results)), tuple(f for _, f in results if f is not None))


def resolve_jobs(jobs: int | None, files: int) -> int:
    if jobs is not None:
        return jobs
    return 1 if files < PARALLEL_MIN_FILES else (os.cpu_count() or 1)


def _map_files(plan: _Plan, files: list[SourceFile]) -> list[tuple[FileResult, FileFix | None]]:
    # Skipped, unreadable and cached files are finished here, cheaply; only the rest may go to a
    # pool, so a warm run never pays for starting one.
    quick = [_process(plan, f, analyze=False) for f in files]
    misses = [f for f, outcome in zip(files, quick) if outcome is None]
    done = [outcome for outcome in quick if outcome is not None]
    jobs = min(resolve_jobs(plan.settings.jobs, len(misses)), max(len(misses), 1))
    if jobs <= 1:
        return done + [_analyzed(plan, f) for f in misses]  # the engine is imported on the first miss only
    _engine()  # import once here, so forked workers inherit it instead of each importing it
    # Several chunks per worker balance uneven file sizes; chunks amortize pickling per task.
    from concurrent.futures import ProcessPoolExecutor  # multiprocessing costs ~12 ms to import

    size = max(1, len(misses) // (jobs * 4))
    chunks = [misses[i : i + size] for i in range(0, len(misses), size)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return done + [outcome for chunk in pool.map(_process_chunk, repeat(plan), chunks) for outcome in chunk]


def _process_chunk(plan: _Plan, files: list[SourceFile]) -> list[tuple[FileResult, FileFix | None]]:
    return [_analyzed(plan, f) for f in files]


def _analyzed(plan: _Plan, file: SourceFile) -> tuple[FileResult, FileFix | None]:
    outcome = _process(plan, file, analyze=True)
    assert outcome is not None
    return outcome


def _engine():  # type: ignore[no-untyped-def]
    from xlacheck import engine

    return engine


def _count_lines(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _engine_lint(plan: _Plan, text: str, path: str, lines: int) -> CachedLint:
    """Engine findings with the rewrites' fixes attached (CONTRACTS.md: after check_source, before
    suppression); what the cache stores, so a warm run keeps the fixes."""
    # torch_xla only when declared: engines (and test fakes) without the keyword keep working
    declared = {"torch_xla": True} if plan.settings.torch_xla else {}
    result, tree = _engine().check_source_and_tree(text, path, select=plan.settings.is_selected, **declared)
    diagnostics = tuple(result.diagnostics)
    if diagnostics and tree is not None and result.error is None and any(d.fix is None for d in diagnostics):
        from xlacheck import rewrites  # imports libcst only when some finding has a candidate rewrite

        diagnostics = rewrites.attach_fixes(text, tree, diagnostics)
    return CachedLint(diagnostics, result.error, lines)


def _postprocess(plan: _Plan, file: SourceFile, text: str, diagnostics: Sequence[Diagnostic]) -> tuple[Diagnostic, ...]:
    ignored = plan.settings.ignored_for(file.rel)
    kept = [
        d
        for d in diagnostics
        if plan.settings.is_selected(d.code)
        if not any(d.code.startswith(s) or s == "ALL" for s in ignored)
    ]
    return filter_suppressed(text, kept)


def _process(plan: _Plan, file: SourceFile, *, analyze: bool) -> tuple[FileResult, FileFix | None] | None:
    """Lint one file; with ``analyze=False``, None when that needs the engine (a miss or a fix)."""
    path = file.display
    try:
        data = file.path.read_bytes()
    except OSError as e:
        return FileResult(path, error=FileError(path, f"cannot read file: {e.strerror}")), None
    lines = _count_lines(data)
    if not mentions_ml_framework(data):
        return FileResult(path, skipped=True, lines=lines), None

    key = plan.cache.key(data) if plan.cache is not None else ""
    lint = plan.cache.load(key, path) if plan.cache is not None else None
    cached = lint is not None
    decoded: DecodedSource | None = None
    if lint is None:
        if not analyze:
            return None
        try:
            decoded = decode_source(data)
        except (SyntaxError, UnicodeDecodeError) as e:
            return FileResult(path, error=FileError(path, f"cannot decode file: {e}"), lines=lines), None
        lint = _engine_lint(plan, decoded.text, path, lines)
        if plan.cache is not None and (lint.error is None or not is_internal_error(lint.error)):
            plan.cache.store(key, lint)
    if not lint.diagnostics:
        return FileResult(path, (), lint.error, cached=cached, lines=lines), None

    if decoded is None:
        decoded = decode_source(data)  # a cache hit with findings: suppressions need the text
    diagnostics = _postprocess(plan, file, decoded.text, lint.diagnostics)
    file_fix = None
    if plan.fix is not None and any(is_applicable(d, unsafe=plan.fix.unsafe) for d in diagnostics):
        if not analyze:
            return None
        diagnostics, file_fix = _fix(plan, file, decoded, diagnostics)
    return FileResult(path, diagnostics, lint.error, cached=cached, lines=lines), file_fix


def _fix(
    plan: _Plan, file: SourceFile, decoded: DecodedSource, diagnostics: tuple[Diagnostic, ...]
) -> tuple[tuple[Diagnostic, ...], FileFix]:
    assert plan.fix is not None

    def relint(text: str) -> tuple[Diagnostic, ...]:
        return _postprocess(plan, file, text, _engine_lint(plan, text, file.display, 0).diagnostics)

    outcome = fix_source(decoded.text, diagnostics, relint, unsafe=plan.fix.unsafe, newline=decoded.newline)
    error, written = outcome.error, False
    if outcome.changed and plan.fix.write and error is None:
        try:
            write_atomic(file.path, encode_source(decoded, outcome.text))
            written = True
        except (OSError, UnicodeEncodeError) as e:
            error = f"cannot write fixed file: {e}"
    remaining = outcome.remaining if error is None else diagnostics
    return remaining, FileFix(file.display, outcome.original, outcome.text, outcome.fixed, error, written)


__all__ = ["FileFix", "FixRun", "Settings", "check_paths", "fix_paths", "is_internal_error"]

