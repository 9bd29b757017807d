"""Static preflight: lint the code the run will compile with xlacheck before the long job.

Checks reference_trainer's own compiled modules (model, loss and steps) and any module the user
names with ``--check-module``. xlacheck's API is imported lazily: an install without it gets a
one-line error that names ``--skip-preflight``. The other half of the preflight, the one-step
XLA dry run, lives in :func:`reference_trainer.train.dry_run` because it needs the built model.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass

from reference_trainer.manifest import StageError

log = logging.getLogger(__name__)

_OWN_COMPILED_MODULES = ("model.py", "steps.py")


class PreflightUnavailable(StageError):
    pass


class PreflightFindings(StageError):
    def __init__(self, message: str, findings: tuple[str, ...]) -> None:
        super().__init__(message)
        self.findings = findings


@dataclass(frozen=True)
class PreflightResult:
    checked: tuple[str, ...]
    findings: tuple[str, ...]


def compiled_module_paths(extra: Sequence[str] = ()) -> tuple[str, ...]:
    here = os.path.dirname(os.path.abspath(__file__))
    own = tuple(os.path.join(here, name) for name in _OWN_COMPILED_MODULES)
    for path in extra:
        if not os.path.exists(path):
            raise StageError(f"--check-module {path}: no such file or directory")
    return own + tuple(extra)


def static_check(extra_modules: Sequence[str] = ()) -> PreflightResult:
    paths = compiled_module_paths(extra_modules)
    try:
        from xlacheck.api import check_paths
    except ImportError as error:
        raise PreflightUnavailable(
            f"preflight: xlacheck's API is not available ({error}); install the project with xlacheck "
            "or rerun with --skip-preflight to train without the static check"
        ) from error
    run = check_paths(list(paths))
    findings: list[str] = []
    for file in run.files:
        if file.error is not None:
            findings.append(f"{file.error.path}:{file.error.line}: {file.error.message}")
        for d in file.diagnostics:
            findings.append(f"{d.path}:{d.start.line}:{d.start.col + 1}: {d.code} {d.name}: {d.message}")
    result = PreflightResult(paths, tuple(findings))
    if findings:
        raise PreflightFindings(
            f"preflight: xlacheck found {len(findings)} problem(s) in the code this run compiles "
            f"(first: {findings[0]}); fix them, or rerun with --skip-preflight",
            tuple(findings),
        )
    log.info("preflight: xlacheck found nothing in %d module(s)", len(paths))
    return result
