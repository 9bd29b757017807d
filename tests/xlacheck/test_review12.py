"""Defects an end-of-session review found in the twelfth session's changes, pinned (each snippet is
written here, not copied from a case)."""

from __future__ import annotations

import textwrap

from xlacheck.engine import check_source


def _codes(src: str, preview: bool = False) -> list[tuple[str, int]]:
    result = check_source(textwrap.dedent(src), "snippet.py", preview=preview)
    assert result.error is None
    return sorted((d.code, d.line) for d in result.diagnostics)


def test_partial_checkpoint_decorator_traces_like_bare_one() -> None:
    # `@functools.partial(jax.checkpoint, prevent_cse=False)` traces every argument just as
    # `@jax.checkpoint` does: partial's first argument is the transformation, not an extra argument
    src = """
    import functools
    import jax

    @jax.checkpoint
    def f(x):
        if x.sum() > 0:
            return x
        return -x

    @functools.partial(jax.checkpoint, prevent_cse=False)
    def g(x):
        if x.sum() > 0:
            return x
        return -x
    """
    assert _codes(src) == [("XLA101", 7), ("XLA101", 13)]


def test_partial_vmap_with_in_axes_stays_quiet() -> None:
    src = """
    from functools import partial
    import jax

    @partial(jax.vmap, in_axes=(0, None))
    def f(x, n):
        if n > 2:
            return x * 2
        return x
    """
    assert _codes(src) == []


_TRAIN = """
import sys
import torch
import torch_xla


def train(model, loader, opt):
    for x, y in loader:
        loss = model(x).mean()
        print(loss.item())
        loss.backward()
        opt.step()
        torch_xla.sync()
"""


def test_script_ending_in_sys_exit_main_keeps_step_reads() -> None:
    # `sys.exit(main())` ends the module's block, but the functions it defines run when called, every step
    src = _TRAIN + "\n\ndef main():\n    train(None, [], None)\n    return 0\n\n\nsys.exit(main())\n"
    assert ("XLA350", 10) in _codes(src)


def test_loop_before_exit_in_a_block_keeps_step_reads() -> None:
    # a training loop followed by `sys.exit(0)`: the exit runs once, the loop's body every step
    src = """
    import sys
    import torch
    import torch_xla

    def train(model, loader, opt):
        for x, y in loader:
            loss = model(x).mean()
            print(loss.item())
            loss.backward()
            opt.step()
            torch_xla.sync()
        sys.exit(0)
    """
    assert ("XLA350", 9) in _codes(src)


def test_block_that_ends_the_run_still_quiet() -> None:
    src = """
    import sys
    import torch
    import torch_xla

    def train(model, loader, opt):
        for x, y in loader:
            loss = model(x).mean()
            if torch.isnan(loss):
                print(loss.item())
                sys.exit(1)
            loss.backward()
            opt.step()
            torch_xla.sync()
    """
    assert _codes(src) == [("XLA350", 9)]


def test_local_model_does_not_resolve_to_the_module_level_one() -> None:
    # a parameter, a name assigned twice and a loop target shadow the module-level `model`: what is
    # compiled there is not the module's Sequential
    src = """
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.RandomRotation(0.1), tf.keras.layers.Dense(2)])

    def train(big):
        if big:
            model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        else:
            model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
        model.compile(optimizer="adam", loss="mse", jit_compile=True)

    def train2(model):
        model.compile(optimizer="adam", loss="mse", jit_compile=True)

    def train3():
        for model in [tf.keras.Sequential([tf.keras.layers.Dense(4)])]:
            model.compile(optimizer="adam", loss="mse", jit_compile=True)

    def train4():
        model.compile(optimizer="adam", loss="mse", jit_compile=True)
    """
    assert _codes(src, preview=True) == [("XLA321", 21)]  # XLA321 is behind --preview


_LOOP_SCRIPT = """
import torch
import torch_xla.core.xla_model as xm

from util import Net

model = Net()
for x in [torch.ones(2, 2)] * 4:
    loss = model(x).mean()
    print(loss.item())
    xm.mark_step()
"""
_UTIL = """
import torch


class Net(torch.nn.Module):
    def forward(self, x):
        return x * 2
"""
_FLAG_SCRIPT = """
import sys
import torch
import torch_xla.core.xla_model as xm


def train():
    for x in [torch.ones(2, 2)] * 4:
        loss = (x * 2).mean()
        print(loss.item())
        xm.mark_step()


args = sys.argv[1:]
if args:
    train()
"""


def test_a_script_whose_work_is_a_top_level_loop_or_guarded_call_is_reached(tmp_path) -> None:
    # a tutorial-style script: its training loop at module level (no `__main__` block, no call at
    # column 0), or its call under a module-level `if`; nothing names it, yet `python train.py` runs it
    from xlacheck.analysis.project import unreached_modules

    for name, src in (("train.py", _LOOP_SCRIPT), ("run.py", _FLAG_SCRIPT)):
        (tmp_path / name).write_text(textwrap.dedent(src))
    (tmp_path / "util.py").write_text(textwrap.dedent(_UTIL))
    paths = [str(tmp_path / n) for n in ("train.py", "run.py", "util.py")]
    assert unreached_modules(paths, root=str(tmp_path)) == {}


def test_loop_inside_a_block_that_ends_the_run_stays_quiet() -> None:
    # a check that fired prints every metric (a loop, but no step) before exit(1): once per run
    src = """
    import sys
    import torch
    import torch_xla

    def train(model, loader, opt):
        for x, y in loader:
            loss = model(x).mean()
            metrics = {"loss": loss}
            if torch.isnan(loss):
                for name, value in metrics.items():
                    print(name, value.item())
                sys.exit(1)
            loss.backward()
            opt.step()
            torch_xla.sync()
    """
    assert _codes(src) == [("XLA350", 10)]
