"""Content-hash cache of engine results, one small JSON file per source text.

The key is sha256 over the file's path, its source bytes and a *salt* that changes whenever the
answer could:
xlacheck's version, the rule selection (the select/ignore layers, which with the rule set
determine the selected codes, and need no rule import to compute: a warm run never imports the
engine) and a fingerprint of the package's own code (so an edited rule never serves stale
results). What is stored is the engine's output before
suppressions and per-file-ignores (both cheap). The path is in the key because the engine's
answer depends on it (test modules, module names), so a renamed file is analyzed again. Writes go to a temporary file in the same folder
and are renamed into place, so concurrent runs never see a half-written entry.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import xlacheck
from xlacheck.config import RuleSelection
from xlacheck.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    FileError,
    Fix,
    Location,
    SetAside,
    SetAsideReason,
    Severity,
)

if TYPE_CHECKING:
    from xlacheck.analysis.project import Summary

log = logging.getLogger(__name__)
FORMAT = "4"  # bump when the stored layout changes (2: "incomplete", the functions not analyzed; 3: "summary";
# 4: "set_aside", the findings a project fact set aside)


@dataclass(frozen=True)
class CachedLint:
    diagnostics: tuple[Diagnostic, ...]
    error: FileError | None
    lines: int
    incomplete: tuple[FileError, ...] = ()  # functions not analyzed (engine limits)
    summary: Summary | None = None  # what the project pass learns from this file (analysis.project)
    set_aside: tuple[SetAside, ...] = ()  # findings a project fact set aside (never fixed, never counted)


def analyzer_fingerprint() -> str:
    """sha256 over every .py and .json file of the package (rules, engine, op table data)."""
    package = Path(xlacheck.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.suffix in {".py", ".json"} and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def make_salt(selection: Iterable[RuleSelection], fingerprint: str) -> str:
    layers = json.dumps([[layer.select, layer.ignore, layer.extend_select] for layer in selection])
    return "\0".join((FORMAT, xlacheck.__version__, layers, fingerprint))


@dataclass(frozen=True)
class ResultCache:
    directory: Path
    salt: str

    def key(self, source: bytes, path: str) -> str:
        """The entry of ``source`` at ``path``: the engine's answer depends on the path too (a test
        module's test functions run eagerly; AutoGraph's do-not-convert list and the project's
        facts go by module name), so the same bytes at two paths are two entries."""
        return hashlib.sha256(self.salt.encode() + b"\0" + path.encode("utf-8", "surrogateescape") + b"\0"
                              + source).hexdigest()

    def _entry(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def load(self, key: str, path: str) -> CachedLint | None:
        data = self.load_json(key)
        if data is None:
            return None
        try:
            return _decode(data, path)
        except (ValueError, KeyError, TypeError) as e:
            log.debug("ignoring unreadable cache entry %s: %s", key, e)
            return None

    def store(self, key: str, lint: CachedLint) -> None:
        self.store_json(key, _encode(lint))

    def load_json(self, key: str) -> Any:
        """The JSON value stored under ``key`` (a project fact, :meth:`store_json`), or None."""
        try:
            return json.loads(self._entry(key).read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            log.debug("ignoring unreadable cache entry %s: %s", key, e)
            return None

    def store_json(self, key: str, data: Any) -> None:
        import tempfile  # only runs that write pay for importing it

        entry = self._entry(key)
        try:
            self._prepare(entry.parent)
            fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(data, f, separators=(",", ":"))
                os.replace(tmp, entry)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as e:  # a read-only checkout still lints, just without a cache
            log.debug("cannot write cache entry %s: %s", entry, e)

    def _prepare(self, folder: Path) -> None:
        if folder.is_dir():
            return
        fresh = not self.directory.exists()
        folder.mkdir(parents=True, exist_ok=True)
        if fresh:
            # Keep the cache out of version control and backups, as ruff and pytest do.
            (self.directory / ".gitignore").write_text("# Created by xlacheck\n*\n")
            (self.directory / "CACHEDIR.TAG").write_text(
                "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by xlacheck.\n"
            )


def _loc(loc: Location) -> list[int]:
    return [loc.line, loc.col]


def _encode_diagnostic(d: Diagnostic) -> dict[str, Any]:
    return {
        "c": d.code,
        "n": d.name,
        "m": d.message,
        "s": _loc(d.start),
        "e": _loc(d.end),
        "v": d.severity.value,
        "f": None
        if d.fix is None
        else {
            "m": d.fix.message,
            "a": d.fix.applicability.value,
            "e": [[*_loc(e.start), *_loc(e.end), e.content] for e in d.fix.edits],
        },
    }


def _encode(lint: CachedLint) -> dict[str, Any]:
    return {
        "lines": lint.lines,
        "error": None if lint.error is None else [lint.error.message, lint.error.line, lint.error.col],
        "incomplete": [[e.message, e.line, e.col] for e in lint.incomplete],
        "summary": None if lint.summary is None else lint.summary.to_json(),
        "diagnostics": [_encode_diagnostic(d) for d in lint.diagnostics],
        "set_aside": [{"d": _encode_diagnostic(s.diagnostic), "r": s.reason.value, "w": s.why}
                      for s in lint.set_aside],
    }


def _decode_diagnostic(d: dict[str, Any], path: str) -> Diagnostic:
    fix = None
    if d["f"] is not None:
        fix = Fix(
            d["f"]["m"],
            tuple(Edit(Location(a, b), Location(c, e), content) for a, b, c, e, content in d["f"]["e"]),
            Applicability(d["f"]["a"]),
        )
    return Diagnostic(path, d["c"], d["n"], d["m"], Location(*d["s"]), Location(*d["e"]), Severity(d["v"]), fix)


def _decode(data: dict[str, Any], path: str) -> CachedLint:
    diagnostics = [_decode_diagnostic(d, path) for d in data["diagnostics"]]
    error = None if data["error"] is None else FileError(path, *data["error"])
    incomplete = tuple(FileError(path, *e) for e in data.get("incomplete", ()))
    summary = None
    if data.get("summary") is not None:
        from xlacheck.analysis.project import Summary

        summary = Summary.from_json(data["summary"])
    set_aside = tuple(SetAside(_decode_diagnostic(s["d"], path), SetAsideReason(s["r"]), s["w"])
                      for s in data.get("set_aside", ()))
    return CachedLint(tuple(diagnostics), error, data["lines"], incomplete, summary, set_aside)
