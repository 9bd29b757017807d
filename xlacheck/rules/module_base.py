"""Rules that look at a whole file at once: set-up, input pipelines, training loops.

The engine walks compiled functions node by node for XLA1xx-3xx. Recompile hazards and TPU
set-up are about the code *around* compiled functions (how a ``tf.function`` is called, where
the model is created, what feeds ``fit``), so these rules run once per file over the tree, with
a shared :class:`xlacheck.analysis.module_index.ModuleIndex` built lazily for the first rule that
asks for it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from xlacheck.diagnostics import Diagnostic, SetAside
from xlacheck.rules.base import FindingCollector, Rule

if TYPE_CHECKING:
    from xlacheck.analysis.contexts import ModuleFacts
    from xlacheck.analysis.module_index import ModuleIndex
    from xlacheck.analysis.torch_model import TorchFacts


class ModuleContext(FindingCollector):
    """What a module rule sees: the tree, the file's facts and index; reports as every rule does."""

    def __init__(self, path: str, tree: ast.Module, facts: ModuleFacts, *, torch_xla: bool = False,
                 preview: bool = False) -> None:
        super().__init__(path)
        self.preview = preview  # --preview: also report the findings a rule keeps behind it
        self.tree = tree
        self.facts = facts
        self.torch_xla = torch_xla  # the caller declared that this project's torch code runs on XLA
        self._index: ModuleIndex | None = None
        self._torch: TorchFacts | None = None

    @property
    def torch(self) -> TorchFacts:
        """PyTorch/XLA steps and proven torch values (xlacheck.analysis.torch_model), built once."""
        if self._torch is None:
            from xlacheck.analysis.torch_model import build_torch_facts

            self._torch = build_torch_facts(self.tree, self.facts, self.torch_xla)
        return self._torch

    @property
    def index(self) -> ModuleIndex:
        if self._index is None:
            from xlacheck.analysis.module_index import ModuleIndex

            self._index = ModuleIndex(self.tree, self.facts)
        return self._index


class ModuleRule(Rule):
    """A rule that checks the whole module once, after the compiled functions were walked; the
    engine keeps these out of its per-node dispatch and calls :func:`run_module_rules`."""

    # False for set-up rules (TPU strategy and input pipeline, the torch_xla training loop): a
    # test's set-up is a toy on purpose (a three-element generator, a plain optimizer, a CPU
    # batch), so they do not run on the project's test files (engine.is_test_file). On code nobody
    # tuned on, all eleven such findings in test files were false (docs/real-code-judgments-11.md,
    # seed_rl tests/utils_test.py; prec9's XLA553 rows).
    checks_test_files: ClassVar[bool] = True

    def check_module(self, ctx: ModuleContext) -> None:  # pragma: no cover - interface
        raise NotImplementedError


def run_module_rules(rules: Sequence[ModuleRule], tree: ast.Module, facts: ModuleFacts, path: str,
                     select: Callable[[str], bool] | None, *, torch_xla: bool = False,
                     preview: bool = False, test_file: bool = False, index: ModuleIndex | None = None
                     ) -> tuple[list[Diagnostic], list[SetAside]]:
    """Run every selected module rule once (those behind ``--preview`` only with ``preview``; on a
    test file only those that check test files): their findings, and those a project fact set
    aside; a crash becomes the engine's RuleCrash. ``index``: the file's index when the caller built it
    already."""
    from xlacheck.analysis.flow import RuleCrash

    ctx = ModuleContext(path, tree, facts, torch_xla=torch_xla, preview=preview)
    ctx._index = index
    for rule in rules:
        if select is not None and not select(rule.code) or rule.preview and not preview \
                or test_file and not rule.checks_test_files:
            continue
        try:
            rule.check_module(ctx)
        except RecursionError:
            raise
        except Exception as exc:  # noqa: BLE001 - any rule bug becomes a FileError naming the rule
            raise RuleCrash(rule.code, exc) from exc
    return ctx.diagnostics, ctx.set_aside
