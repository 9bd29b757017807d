"""Every rule, one class per file. ``ALL_RULES`` is the one explicit list; all else derives from it.

Contract used by the CLI, docs generator and tests (the engine may add to it, not change it):
each rule class has ``code`` ("XLA101"), ``name`` (kebab-case pattern name), a docstring with
the sections What it does / Why is this bad? / Example / Use instead / Fix safety, and
``VALID`` / ``INVALID`` tuples of :class:`xlacheck.rules.base.Example`.
"""

from __future__ import annotations

from xlacheck.rules.base import Example, Rule

ALL_RULES: tuple[type[Rule], ...] = ()

__all__ = ["ALL_RULES", "Example", "Rule"]
