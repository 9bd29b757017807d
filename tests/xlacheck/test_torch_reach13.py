"""Code a torch_xla step never runs, or runs once per pass over the data (issue 12, precision, 13th pass).

- A branch that every call of a file-private function rules out (``tol=None`` that no call passes, then
  ``if tol is not None:``): :mod:`xlacheck.analysis.calls`.
- A step function that holds a whole training loop (``torch_xla.compile(train_loop_fn)`` over a loader):
  what it does after the loop runs once per call, not per step.

Each snippet is written here (not copied from a case); findings are pinned by code and line.
"""

from __future__ import annotations

import ast
import textwrap

from xlacheck.analysis.calls import closed_call_literals, literal_test
from xlacheck.analysis.contexts import analyze_module
from xlacheck.engine import check_source


def _found(src: str, *, declared: bool = True) -> list[tuple[str, int]]:
    diags = check_source(textwrap.dedent(src), "t.py", torch_xla=declared).diagnostics
    return [(d.code, d.line) for d in diags]


def _literals(src: str) -> dict[str, dict[str, object]]:
    tree = ast.parse(textwrap.dedent(src))
    facts = analyze_module(tree)
    found = closed_call_literals(tree, facts.functions)
    return {f.name: found[id(f.node)] for f in facts.functions if id(f.node) in found}


ROUTER = """
import torch
import torch.nn as nn

class Router(nn.Module):
    def forward(self, x):
        return self._sinkhorn(x * 2, 3{tol})

    @staticmethod
    def _sinkhorn(cost, num_iters, tol=None):
        error = cost.sum()
        if tol is not None:
            assert float(error) < tol
        return cost
"""


def test_a_check_no_call_turns_on_is_not_step_code() -> None:
    assert _found(ROUTER.format(tol="")) == []


def test_a_check_a_call_turns_on_is_step_code() -> None:
    assert _found(ROUTER.format(tol=", tol=1e-3")) == [("XLA350", 13)]
    assert _found(ROUTER.format(tol=", 1e-3")) == [("XLA350", 13)]


def test_a_public_function_may_have_callers_elsewhere() -> None:
    src = ROUTER.format(tol="").replace("_sinkhorn", "sinkhorn")
    assert _found(src) == [("XLA350", 13)]


def test_a_private_function_handed_on_as_a_value_keeps_its_branches() -> None:
    src = ROUTER.format(tol="") + "\nROUTE = Router._sinkhorn\n"
    assert _found(src) == [("XLA350", 13)]


def test_the_literals_every_call_leaves() -> None:
    src = """
    def _pad(x, n, mode="constant", value=None, strict=False):
        return x

    def main(x, k):
        _pad(x, 3)
        _pad(x, 4, "constant", strict=False)
        _pad(x, k, value=k)
    """
    assert _literals(src) == {"_pad": {"mode": "constant", "strict": False}}


def test_no_literals_through_star_arguments_or_a_rebound_parameter() -> None:
    src = """
    def _pad(x, mode="constant"):
        return x

    def _cut(x, mode=None):
        mode = mode or "left"
        return x

    def main(x, kw):
        _pad(x, **kw)
        _cut(x)
    """
    assert _literals(src) == {}


def test_a_method_called_through_its_class_takes_the_receiver_first() -> None:
    src = """
    class A:
        def _f(self, x, mode=None):
            return x

    def main(a):
        A._f(a, 1)
    """
    assert _literals(src) == {}


def test_literal_tests() -> None:
    lits = {"tol": None, "mode": "cpu", "flag": False}

    def truth(test: str) -> bool | None:
        return literal_test(ast.parse(test, mode="eval").body, lits)

    assert truth("tol is not None") is False
    assert truth("tol is None") is True
    assert truth("not flag") is True
    assert truth("mode == 'cpu'") is True
    assert truth("'xla' == mode") is False
    assert truth("flag and other") is False
    assert truth("flag or other") is None
    assert truth("other") is None
    assert truth("mode == 0") is None


LOOP_FN = """
import torch
import torch_xla
import torch_xla.core.xla_model as xm

def train_loop_fn(model, optimizer, loader):
    for i, (x, y) in enumerate(loader):
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        xm.mark_step()
{after}
train_loop_fn = torch_xla.compile(train_loop_fn)
"""


def test_a_read_after_a_compiled_functions_own_training_loop_runs_once_per_call() -> None:
    assert _found(LOOP_FN.format(after="    return loss.item()\n")) == []


def test_a_read_inside_the_training_loop_is_still_a_per_step_read() -> None:
    read = "        print(loss.item())\n        xm.mark_step()\n"
    src = LOOP_FN.format(after="").replace("        xm.mark_step()\n", read)
    assert _found(src) == [("XLA350", 11)]


ASSIGN = """
import torch
import torch.nn as nn

def _assign(scores, strict=True):
    labels = torch.zeros_like(scores)
    twice = scores.sum(dim=0) > 1
    if strict:
        labels[twice] = 0
    else:
        labels[twice] = -1
    return labels

class Head(nn.Module):
    def forward(self, scores):
        return _assign(scores{strict})
"""


def test_only_the_branch_the_calls_select_is_step_code() -> None:
    assert _found(ASSIGN.format(strict="")) == [("XLA250", 9)]
    assert _found(ASSIGN.format(strict=", strict=False")) == [("XLA250", 11)]
    assert _found(ASSIGN.format(strict=", strict=flag")) == [("XLA250", 9), ("XLA250", 11)]
