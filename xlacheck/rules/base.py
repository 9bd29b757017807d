"""The base every rule derives from (the engine fills in how rules are run)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Example:
    """Source for a rule's own test. An invalid example may state the expected fixed text."""

    code: str
    fixed: str | None = None


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    VALID: ClassVar[tuple[Example, ...]] = ()
    INVALID: ClassVar[tuple[Example, ...]] = ()
