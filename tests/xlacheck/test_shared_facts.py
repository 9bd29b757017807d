"""Syntactic facts that several rules share, each with one home: the ``__main__`` block
(``analysis.is_main_guard``), a singleton creation guard (``analysis.objects.under_creation_guard``,
XLA405 and XLA426), and ``self.<attr>`` bound to a torch function (``torch_model`` resolve)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from xlacheck.analysis import is_main_guard
from xlacheck.analysis.objects import under_creation_guard
from xlacheck.engine import check_source


def _codes(src: str, torch_xla: bool = False) -> list[tuple[str, int]]:
    result = check_source(textwrap.dedent(src), "snippet.py", torch_xla=torch_xla)
    assert result.error is None
    return sorted((d.code, d.line) for d in result.diagnostics)


@pytest.mark.parametrize(("test", "main"), [
    ('__name__ == "__main__"', True),
    ("'__main__' == __name__", True),
    ('__name__ != "__main__"', False),
    ('__name__ == "train"', False),
    ('name == "__main__"', False),
    ('__name__ == "__main__" == other', False),
])
def test_main_guard_one_reading(test: str, main: bool) -> None:
    stmt = ast.parse(f"if {test}:\n    run()\n").body[0]
    assert is_main_guard(stmt) is main


def test_creation_guard_either_branch() -> None:
    # `if self.v is not None: ... else: create`: the else branch runs once too
    func = ast.parse(textwrap.dedent("""
    def call(self, x):
        if self.v is not None:
            y = x
        else:
            self.v = make(x)
        w = make(x)
    """)).body[0]
    assert isinstance(func, ast.FunctionDef)
    guarded = func.body[0].orelse[0].value  # type: ignore[attr-defined]
    unguarded = func.body[1].value  # type: ignore[attr-defined]
    assert under_creation_guard(guarded, func)
    assert not under_creation_guard(unguarded, func)


@pytest.mark.parametrize(("test", "guard"), [
    ("self.v is None", True), ("not hasattr(self, 'v')", True), ("not self.built", True),
    ("self._cache.get(key) is None", True),
    ("state[0] is None", True),  # a closure cell of the enclosing function (seed_rl's ops_test.py)
    ("_CACHE.get('v') is None", True),  # a module-level cache the function reads and never binds
    ("weights is not None", False),  # a parameter: a new value every call (review18: any `is` counted)
    ("local is None", False),  # bound in the function: None again on every call
    ("self.v is other", False),  # no None test
    ("weights is None", True),  # fills an argument the caller left out: the caller decides (tf-addons crf)
    ("tf.get_static_value(x) is None", False),  # a module's function, nothing the branch writes (review19)
])
def test_creation_guard_is_on_state_that_outlives_the_call(test: str, guard: bool) -> None:
    func = ast.parse(textwrap.dedent(f"""
    def step(self, x, weights=None):
        local = None
        if {test}:
            made = make(x)
            self.v = state[0] = _CACHE["v"] = made
    """)).body[0]
    assert isinstance(func, ast.FunctionDef)
    made = func.body[1].body[0].value  # type: ignore[attr-defined]
    assert under_creation_guard(made, func) is guard


def test_xla426_variable_from_data_in_else_of_singleton_guard() -> None:
    # measured on TF 2.21 (this exact class, called on tf.ones((4, 3))): UnimplementedError "We failed to
    # lift variable creations out of this tf.function, so this tf.function cannot be run on XLA"
    src = """
    import tensorflow as tf

    class Norm:
        def __init__(self):
            self.mean = None

        @tf.function(jit_compile=True)
        def __call__(self, x):
            if self.mean is not None:
                pass
            else:
                self.mean = tf.Variable(tf.reduce_mean(x, axis=0), trainable=False)
            return x - self.mean
    """
    assert ("XLA426", 13) in _codes(src)


def test_self_function_attribute_bound_otherwise_in_a_tuple_is_unknown() -> None:
    # `self.better` is torch.lt in one place and an unknown value in a tuple assignment elsewhere in the
    # file: calling it is not known to build a tensor, so `if self.better(...)` is no host read
    src = """
    import torch
    import torch_xla

    class Decoder:
        def __init__(self, model, better=None):
            self.model = model
            self.better = torch.lt
            if better is not None:
                self.better, self.name = better, "custom"

        @torch.no_grad()
        def step(self, ids, best):
            score = self.model(ids).float().mean()
            if self.better(score.item(), best):
                best = score
            return best

    def generate(model, ids, best):
        dec = Decoder(model)
        for _ in range(8):
            best = dec.step(ids, best)
            torch_xla.sync()
        return best
    """
    codes = [c for c in _codes(src, torch_xla=True) if c[1] == 15]
    assert ("XLA350", 15) in codes  # the .item() read stays
    assert len(codes) == 1  # no second finding for `if self.better(...)`


def test_self_function_attribute_paired_in_a_tuple() -> None:
    src = """
    import torch
    import torch_xla

    class Decoder:
        def __init__(self, model):
            self.model = model
            self.better, self.name = torch.lt, "lt"

        @torch.no_grad()
        def step(self, ids, best):
            score = self.model(ids).float().mean()
            if self.better(score, best):
                best = score
            return best

    def generate(model, ids, best):
        dec = Decoder(model)
        for _ in range(8):
            best = dec.step(ids, best)
            torch_xla.sync()
        return best
    """
    assert ("XLA350", 13) in _codes(src, torch_xla=True)


def test_target_python_decides_slice_static_arguments() -> None:
    # XLA410: a slice passed as a jax.jit static argument is unhashable before Python 3.12 (jax 0.10.2 on
    # 3.11 measured: ValueError: Non-hashable static arguments are not supported), hashable from 3.12
    src = """
    import jax
    from functools import partial

    @partial(jax.jit, static_argnums=1)
    def window(x, s):
        return x[:, s]

    def run(x):
        return window(x, slice(1, 4))
    """
    def codes(target: tuple[int, int]) -> list[str]:
        result = check_source(textwrap.dedent(src), "snippet.py", target_python=target)
        return [d.code for d in result.diagnostics]

    assert codes((3, 11)) == ["XLA410"]
    assert codes((3, 12)) == []


def test_no_private_copy_of_the_shared_ast_walkers() -> None:
    """review20: two rules written this session (XLA325, XLA206's JAX carries) each defined their own
    ``_own_nodes``, a copy of analysis.scopes.own_nodes; mend20 had just removed copies of ``is_none`` and
    ``chain_root``. One home each: no module of the package defines another under a private name."""
    import re
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "xlacheck"
    copies = re.compile(r"^\s*def _(own_nodes|is_none|root_name|chain_root|max_of_lengths|longest_length_of)\(", re.M)
    found = [f"{p.relative_to(package)}: {m.group(0).strip()}" for p in sorted(package.rglob("*.py"))
             for m in copies.finditer(p.read_text())]
    assert found == []
