"""Compiled functions of one module called from another (xlacheck.analysis.compiled_exports,
xlacheck.analysis.project.compiled_imports): the recompile rules see ``from pkg.steps import score``
then ``score(params, data[i:i + bs])`` as a call of the jitted ``score``. Two-file projects linted
through the library as the CLI does; the truth tests run the same projects under JAX and TensorFlow
and count what they compile."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from xlacheck.analysis.compiled_exports import CompiledCallable
from xlacheck.analysis.project import ProjectFile, compiled_imports
from xlacheck.api import check_paths
from xlacheck.config import Settings
from xlacheck.diagnostics import RunResult
from xlacheck.engine import check_file

Lint = Callable[..., RunResult]

STEPS = """\
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def score(params, batch):
    return jnp.sum(params * batch)


@partial(jax.jit, static_argnums=(1,))
def pad_to(x, n):
    return jnp.pad(x, (0, n - x.shape[0]))


def _loss(w, x):
    return jnp.mean(w * x)


loss = jax.jit(_loss)


def plain(params, batch):
    return jnp.sum(params * batch)
"""
DRIVER = """\
from {pkg}.steps import score


def evaluate(params, data, bs):
    out = []
    for i in range(0, len(data), bs):
        out.append(score(params, data[i:i + bs]))
    return out
"""
XLA416_WINDOW = (
    "argument `batch` of jitted `score` is the slice `data[i:i + bs]` of a loop over `range(0, len(data), bs)`: "
    "the last batch is shorter whenever len(data) is not a multiple of bs, so jax.jit compiles again for its "
    "shape (once per distinct remainder, e.g. each data set); drop the remainder or pad the last batch to the full "
    "size with a mask")
TF_STEPS = """\
import tensorflow as tf


@tf.function(jit_compile=True)
def predict(x):
    return tf.reduce_sum(x)


@tf.function
def traced_only(x):
    return tf.reduce_sum(x)
"""
TF_DRIVER = """\
from {pkg} import steps


def evaluate(data, bs):
    return [steps.predict(data[i:i + bs]) for i in range(0, len(data), bs)]
"""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        init = path.parent / "__init__.py"
        if not init.exists():
            init.write_text("")


def findings(result: RunResult) -> list[tuple[str, int, str, str]]:
    return [(d.path, d.line, d.code, d.message) for d in result.diagnostics]


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Lint:
    monkeypatch.chdir(tmp_path)

    def lint(*paths: str, cache: bool = False, preview: bool = False) -> RunResult:
        return check_paths(list(paths) or ["."], Settings(cache=cache, root=tmp_path, preview=preview,
                                                         cache_dir=tmp_path / ".cache"))

    return lint


@pytest.fixture
def importable(tmp_path: Path) -> Iterator[Callable[[str], object]]:
    """Import a module of the project written under ``tmp_path`` (each test uses its own package name)."""
    sys.path.insert(0, str(tmp_path))
    added: list[str] = []

    def load(name: str) -> object:
        added.append(name)
        return importlib.import_module(name)

    yield load
    sys.path.remove(str(tmp_path))
    for name in list(sys.modules):
        if any(name == a or name.startswith(a.split(".")[0] + ".") or name == a.split(".")[0] for a in added):
            del sys.modules[name]


def test_window_loop_over_a_function_jitted_in_another_module(tmp_path: Path, run: Lint) -> None:
    write(tmp_path, {"pkg/steps.py": STEPS, "pkg/driver.py": DRIVER.format(pkg="pkg")})
    assert findings(run()) == [("pkg/driver.py", 7, "XLA416", XLA416_WINDOW)]
    # one file alone: nothing says `score` is compiled
    assert findings(run("pkg/driver.py")) == []


def test_module_imported_whole_static_argument_and_wrapped_name(tmp_path: Path, run: Lint) -> None:
    driver = ("import pkg.steps as s\n\n\ndef grow(params, x):\n    for n in range(1, 10):\n"
              "        s.pad_to(x, n)\n        s.loss(params, x[:n])\n        s.plain(params, x[:n])\n")
    write(tmp_path, {"pkg/steps.py": STEPS, "pkg/driver.py": driver})
    assert [(p, line, code) for p, line, code, _ in findings(run(preview=True))] == [
        ("pkg/driver.py", 6, "XLA411"),  # static `n` of jitted pad_to per iteration (XLA411: --preview)
        ("pkg/driver.py", 7, "XLA416"),  # `x[:n]` a new shape per iteration to the jitted `loss`
    ]  # `plain` is not compiled: nothing


def test_a_local_binding_hides_the_imported_name(tmp_path: Path, run: Lint) -> None:
    driver = ("from pkg.steps import score\n\n\ndef evaluate(params, data, bs, score=None):\n"
              "    return [score(params, data[i:i + bs]) for i in range(0, len(data), bs)]\n")
    write(tmp_path, {"pkg/steps.py": STEPS, "pkg/driver.py": driver})
    assert findings(run()) == []


def test_windows_without_a_shorter_last_are_not_flagged(tmp_path: Path, run: Lint) -> None:
    driver = DRIVER.format(pkg="pkg").replace("range(0, len(data), bs)", "range(0, len(data) - bs + 1, bs)")
    write(tmp_path, {"pkg/steps.py": STEPS, "pkg/driver.py": driver})
    assert findings(run()) == []


def test_the_cache_key_follows_the_defining_module(tmp_path: Path, run: Lint) -> None:
    write(tmp_path, {"pkg/steps.py": STEPS, "pkg/driver.py": DRIVER.format(pkg="pkg")})
    assert [code for *_, code, _ in findings(run(cache=True))] == ["XLA416"]
    # `score` is no longer jitted: the driver, unchanged, must not keep its cached finding
    (tmp_path / "pkg/steps.py").write_text(STEPS.replace("@jax.jit\ndef score", "def score"))
    assert findings(run(cache=True)) == []


def test_tf_function_with_jit_compile_in_another_module(tmp_path: Path, run: Lint) -> None:
    write(tmp_path, {"pkg/steps.py": TF_STEPS, "pkg/driver.py": TF_DRIVER.format(pkg="pkg")})
    got = findings(run())
    assert [(p, line, code) for p, line, code, _ in got] == [("pkg/driver.py", 5, "XLA412")]
    assert "of tf.function `predict`" in got[0][3] and "traces and XLA compiles again" in got[0][3]
    # without jit_compile one more trace per process is bounded (as in one file): not flagged
    write(tmp_path, {"pkg/driver.py": TF_DRIVER.format(pkg="pkg").replace("steps.predict", "steps.traced_only")})
    assert findings(run()) == []


def test_compiled_imports_names_and_places() -> None:
    files = {"/p/pkg/__init__.py": "from .steps import score\n", "/p/pkg/steps.py": STEPS,
             "/p/pkg/a.py": "from pkg import score, steps\nimport pkg.steps\n"}
    project = []
    for path, text in files.items():
        summary = check_file(text, path).summary
        assert summary is not None
        project.append(ProjectFile(path, path[3:], summary))
    # module names come from __init__.py files on disk: none here, so only scripts' neighbours resolve
    assert compiled_imports(project) == {}
    summary = check_file(STEPS, "steps.py").summary
    assert summary is not None
    assert [c.name for c in summary.compiled] == ["score", "pad_to", "loss"]
    assert summary.compiled[1] == CompiledCallable("pad_to", True, True, ("x", "n"), (), ("n",), False, (), 13)


def test_scripts_beside_each_other(tmp_path: Path, run: Lint) -> None:
    # no package: `from steps import score` in a script finds the neighbour steps.py
    (tmp_path / "steps.py").write_text(STEPS)
    (tmp_path / "driver.py").write_text(DRIVER.format(pkg="pkg").replace("from pkg.steps", "from steps"))
    assert findings(run()) == [("driver.py", 7, "XLA416", XLA416_WINDOW)]


def test_jax_truth_window_loop_compiles_twice_unless_the_remainder_is_dropped(
        tmp_path: Path, run: Lint, importable: Callable[[str], object]) -> None:
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    jnp = pytest.importorskip("jax.numpy")
    write(tmp_path, {"jwin/steps.py": STEPS, "jwin/driver.py": DRIVER.format(pkg="jwin"),
                     "jwin/dropped.py": DRIVER.format(pkg="jwin").replace("range(0, len(data), bs)",
                                                                           "range(0, len(data) - bs + 1, bs)")})
    assert [(p, code) for p, _, code, _ in findings(run())] == [("jwin/driver.py", "XLA416")]
    steps: object = importable("jwin.steps")
    driver: object = importable("jwin.driver")
    dropped: object = importable("jwin.dropped")
    params = jnp.float32(2.0)
    dropped.evaluate(params, jnp.arange(10.0), 4)  # type: ignore[attr-defined]
    assert steps.score._cache_size() == 1  # type: ignore[attr-defined]
    driver.evaluate(params, jnp.arange(10.0), 4)  # type: ignore[attr-defined]
    assert steps.score._cache_size() == 2  # type: ignore[attr-defined]  # the last window, 2 rows: again


def test_tf_truth_window_loop_traces_twice_under_jit_compile(
        tmp_path: Path, run: Lint, importable: Callable[[str], object]) -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    tf = pytest.importorskip("tensorflow")
    write(tmp_path, {"twin/steps.py": TF_STEPS, "twin/driver.py": TF_DRIVER.format(pkg="twin")})
    assert [(p, code) for p, _, code, _ in findings(run())] == [("twin/driver.py", "XLA412")]
    steps: object = importable("twin.steps")
    driver: object = importable("twin.driver")
    driver.evaluate(tf.range(10.0), 4)  # type: ignore[attr-defined]
    assert steps.predict.experimental_get_tracing_count() == 2  # type: ignore[attr-defined]


def test_python_number_per_iteration_to_a_tf_function_of_another_module(tmp_path: Path, run: Lint) -> None:
    steps = ("import tensorflow as tf\n\n\n@tf.function\ndef step(x, lr):\n    return x * lr\n\n\n"
             "@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.float32)])\n"
             "def sig_step(x, lr):\n    return x * lr\n")
    driver = ("from pkg.steps import sig_step, step\n\n\ndef train(x):\n    for epoch in range(10):\n"
              "        lr = 0.1 / (epoch + 1)\n        step(x, lr)\n        sig_step(x, lr)\n")
    write(tmp_path, {"pkg/steps.py": steps, "pkg/run.py": driver})
    # the input signature converts `lr` to a tensor: one trace, not flagged
    assert [(p, line, code) for p, line, code, _ in findings(run())] == [("pkg/run.py", 7, "XLA403")]


MODEL = """\
import jax
import jax.numpy as jnp
import tensorflow as tf


class Trainer:
    def __init__(self, lr):
        self.lr = lr
        self.step = jax.jit(self._step)

    def _step(self, params, batch):
        return params - self.lr * jnp.mean(batch)


class Server(tf.Module):
    @tf.function(jit_compile=True)
    def predict(self, x):
        return tf.reduce_sum(x)
"""
RUN = """\
from {pkg}.model import Server, Trainer


def train(params, data, bs):
    trainer = Trainer(0.1)
    for i in range(0, len(data), bs):
        params = trainer.step(params, data[i:i + bs])
    return params


def serve(data, bs, server):
    s = Server()
    out = [s.predict(data[i:i + bs]) for i in range(0, len(data), bs)]
    if server is not None:  # a parameter: what it is, is unknown here
        out += [server.predict(data[i:i + bs]) for i in range(0, len(data), bs)]
    return out, s
"""


def test_compiled_methods_of_a_class_of_another_module(tmp_path: Path, run: Lint) -> None:
    write(tmp_path, {"pkg/model.py": MODEL, "pkg/run.py": RUN.format(pkg="pkg")})
    got = findings(run())
    assert [(p, line, code) for p, line, code, _ in got] == [("pkg/run.py", 7, "XLA416"),
                                                        ("pkg/run.py", 13, "XLA412")]
    assert "of jitted `trainer.step` is the slice `data[i:i + bs]`" in got[0][3]


def test_truth_compiled_methods_of_a_class_of_another_module(
        tmp_path: Path, run: Lint, importable: Callable[[str], object]) -> None:
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    jnp = pytest.importorskip("jax.numpy")
    tf = pytest.importorskip("tensorflow")
    write(tmp_path, {"mcls/model.py": MODEL, "mcls/run.py": RUN.format(pkg="mcls")})
    assert len(findings(run())) == 2
    run_module: object = importable("mcls.run")
    run_module.train(jnp.float32(1.0), jnp.arange(10.0), 4)  # type: ignore[attr-defined]
    out, server = run_module.serve(tf.range(10.0), 4, None)  # type: ignore[attr-defined]
    assert server.predict.experimental_get_tracing_count() == 2
    trainer = importable("mcls.model").Trainer(0.1)  # type: ignore[attr-defined]
    trainer.step(jnp.float32(1.0), jnp.arange(4.0))
    trainer.step(jnp.float32(1.0), jnp.arange(2.0))
    assert trainer.step._cache_size() == 2


ENUMS = "import enum\n\n\nclass BCType(enum.Enum):\n    NEUMANN = 1\n    DIRICHLET = 2\n"
HALO = """\
import tensorflow as tf

from {pkg} import utils

BCType = utils.BCType


def _replace(tensor, bc):
    bc_type, bc_value = bc
    if bc_type == BCType.NEUMANN:
        return tensor + bc_value
    elif bc_type == utils.BCType.DIRICHLET:
        return tensor - bc_value


@tf.function(jit_compile=True)
def exchange(tensor, bc):
    return _replace(tensor, bc)
"""


def test_a_comparison_with_a_member_of_an_enum_of_another_module_is_python(tmp_path: Path, run: Lint) -> None:
    # swirl-lm halo_exchange.py: `BCType = halo_exchange_utils.BCType`, then `if bc_type == BCType.NEUMANN:`;
    # the Enum's module names no framework (it is summarized, not analyzed)
    write(tmp_path, {"pkg/utils.py": ENUMS, "pkg/halo.py": HALO.format(pkg="pkg")})
    assert findings(run()) == []
    # one file alone: nothing says BCType is an Enum, and `bc` is a parameter of compiled code
    assert [code for _, _, code, _ in findings(run("pkg/halo.py"))] == ["XLA108"]
    # a member of `class BCType(int, enum.Enum)` is an int, which converts to a tensor: no such fact
    write(tmp_path, {"pkg/utils.py": ENUMS.replace("(enum.Enum)", "(int, enum.Enum)")})
    assert [code for _, _, code, _ in findings(run())] == ["XLA108"]


def test_truth_an_enum_member_is_no_tensor() -> None:
    # TensorFlow rejects a plain Enum member as a tensor (in a graph and eagerly); JAX compares it as a
    # Python object: either way a comparison with one is no tensor condition in code that runs
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    tf = pytest.importorskip("tensorflow")
    jax = pytest.importorskip("jax")
    import enum

    class Mode(enum.Enum):
        A = 1

    with pytest.raises(TypeError):
        tf.function(lambda x: x == Mode.A)(tf.constant(1))
    with pytest.raises(ValueError):
        tf.constant(1) == Mode.A  # noqa: B015 - the comparison is what is measured
    seen: list[object] = []

    def traced(x):  # noqa: ANN001, ANN202
        seen.append(x == Mode.A)
        return x

    jax.jit(traced)(jax.numpy.ones(2))
    assert seen == [False] and type(seen[0]) is bool
