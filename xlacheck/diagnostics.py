"""The results the library returns: frozen dataclasses, never printed here.

A rule reports a :class:`Diagnostic`; a diagnostic may carry a :class:`Fix`, which is a
set of text :class:`Edit`\\ s on the original source. Reporters and the fix applier read
these objects; nothing in this module imports anything heavy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Applicability(str, Enum):
    """How far a fix can be trusted (ruff's terms)."""

    SAFE = "safe"  # equal wherever the original returns (docs/fixes.md); applied by --fix
    UNSAFE = "unsafe"  # may change behaviour; applied only with --unsafe-fixes
    DISPLAY_ONLY = "display-only"  # shown as a suggestion, never applied


class Severity(str, Enum):
    """What the compiler does with the flagged code."""

    ERROR = "error"  # fails to compile or crashes
    WRONG_RESULT = "wrong-result"  # compiles, silently differs from eager
    RECOMPILE = "recompile"  # compiles once per value/shape
    WARNING = "warning"  # slow or fragile, but correct


@dataclass(frozen=True, order=True)
class Location:
    """A 1-based line and a 0-based column counted in characters (code points) of that line.

    Lines are Python's (they end at ``\\r\\n``, ``\\r`` or ``\\n``, never at a form feed);
    every reporter shows the column 1-based, as ruff does, so ``col=0`` is shown as column 1.
    ``ast`` counts columns in UTF-8 bytes: rules report ``ast`` positions, and the engine converts
    every diagnostic (and the edits of fixes rules build) once, through
    :class:`xlacheck.positions.LineTable`, before anything else sees it.
    """

    line: int
    col: int


@dataclass(frozen=True)
class Edit:
    """Replace source[start:end) (line/character-column positions) with ``content``."""

    start: Location
    end: Location
    content: str


@dataclass(frozen=True)
class Fix:
    message: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE


@dataclass(frozen=True)
class Diagnostic:
    path: str
    code: str  # stable, e.g. "XLA101"
    name: str  # kebab-case pattern name, e.g. "tensor-if-without-autograph"
    message: str
    start: Location
    end: Location
    severity: Severity = Severity.ERROR
    fix: Fix | None = None
    cell: int | None = None  # a notebook's cell (1-based, as ruff counts); lines are then the cell's

    @property
    def line(self) -> int:
        return self.start.line

    @property
    def col(self) -> int:
        return self.start.col


@dataclass(frozen=True)
class FileError:
    """A file that could not be read or parsed: reported, never raised."""

    path: str
    message: str
    line: int = 1
    col: int = 0  # 0-based characters, as Location.col (SyntaxError.offset - 1 for str sources)
    cell: int | None = None  # a notebook's cell, as in Diagnostic


class SetAsideReason(str, Enum):
    """A fact about what the project runs that takes a finding out of the run's findings."""

    UNREACHED_MODULE = "unreached-module"  # nothing in the project imports or runs the module
    ONCE_PER_RUN = "once-per-run"  # the code runs at most once: its block ends the run
    NO_COMPILED_ENTRY = "no-compiled-entry"  # nothing in the project runs this TensorFlow code under XLA
    UNUSED_CLASS = "unused-class"  # nothing in the project names the class: none of its methods runs


@dataclass(frozen=True)
class SetAside:
    """A finding a project fact set aside: never counted, never fixed, never fails the run; shown
    with ``--show-set-aside`` (and apart in JSON/SARIF) so a user can see, and dispute, the fact."""

    diagnostic: Diagnostic  # as the rule reported it, without its fix
    reason: SetAsideReason
    why: str  # one line naming the fact ("runs once: the block ends the run (sys.exit at line 12)")


@dataclass(frozen=True)
class FileResult:
    path: str
    diagnostics: tuple[Diagnostic, ...] = ()
    error: FileError | None = None
    skipped: bool = False  # pre-filter: the file never touches tensorflow/keras/jax/torch
    cached: bool = False
    lines: int = 0
    # Parts of a checked file that were not analyzed (a function nested too deep): its findings
    # there are missing, so each is reported as an error too (issue 15: nothing skipped silently).
    incomplete: tuple[FileError, ...] = ()
    set_aside: tuple[SetAside, ...] = ()  # findings a project fact set aside (not in ``diagnostics``)


@dataclass(frozen=True)
class RunResult:
    files: tuple[FileResult, ...] = field(default_factory=tuple)

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return tuple(d for f in self.files for d in f.diagnostics)

    @property
    def set_aside(self) -> tuple[SetAside, ...]:
        return tuple(s for f in self.files for s in f.set_aside)

    @property
    def errors(self) -> tuple[FileError, ...]:
        """Files that could not be checked, and parts of files that could not be analyzed."""
        return tuple(e for f in self.files for e in ((f.error,) if f.error is not None else ()) + f.incomplete)
