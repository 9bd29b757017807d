"""A jax.jit parameter whose default is a str or a member of an Enum whose members are no number is a
Python value, checked against jax itself (prec24; the fact behind octo's `sample_actions`, batch 23).

jax.jit refuses a str, an Enum/Flag/StrEnum member and a `(str, Enum)` member as a non-static argument
(TypeError: "Error interpreting argument ... as an abstract array"), and traces IntEnum, IntFlag,
`(int, Enum)` and `(float, Enum)` members as arrays. So in a program that runs, a non-static parameter
defaulting to such a member is never passed and holds its default. The classes are read by
:func:`xlacheck.analysis.compiled_exports.nonnumeric_enums` and resolved across the project's modules;
an Enum class the run does not define stays unknown (flagged as before). Skipped without JAX.
"""

from __future__ import annotations

import ast
import enum
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
jax = pytest.importorskip("jax")

from xlacheck.analysis.compiled_exports import nonnumeric_enums  # noqa: E402
from xlacheck.api import check_paths  # noqa: E402
from xlacheck.config import Settings  # noqa: E402

# class source -> its members are accepted by jax.jit as a traced argument
KINDS: dict[str, str] = {
    "plain": "class Kind(enum.Enum):\n    A = 'a'\n    B = 'b'\n",
    "flag": "class Kind(enum.Flag):\n    A = 1\n    B = 2\n",
    "str_mixin": "class Kind(str, enum.Enum):\n    A = 'a'\n    B = 'b'\n",
    "str_mixin_by_name": "from enum import Enum\nclass Kind(str, Enum):\n    A = 'a'\n    B = 'b'\n",
    "derived": "class Base(str, enum.Enum):\n    pass\nclass Kind(Base):\n    A = 'a'\n    B = 'b'\n",
    "int_enum": "class Kind(enum.IntEnum):\n    A = 1\n    B = 2\n",
    "int_flag": "class Kind(enum.IntFlag):\n    A = 1\n    B = 2\n",
    "int_mixin": "class Kind(int, enum.Enum):\n    A = 1\n    B = 2\n",
    "float_mixin": "class Kind(float, enum.Enum):\n    A = 1.0\n    B = 2.0\n",
}
if sys.version_info >= (3, 11):
    KINDS["str_enum"] = "class Kind(enum.StrEnum):\n    A = 'a'\n    B = 'b'\n"


def _jit_accepts(member: object) -> bool:
    try:
        jax.jit(lambda x, m: x * 2.0)(jax.numpy.ones(2), member)
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_nonnumeric_enums_are_the_classes_jit_refuses(kind: str) -> None:
    src = "import enum\n" + KINDS[kind]
    namespace: dict = {}
    exec(compile(src, "kinds.py", "exec"), namespace)  # noqa: S102 - our own snippet
    refused = not _jit_accepts(namespace["Kind"].A)
    assert ("Kind" in nonnumeric_enums(ast.parse(src))) is refused, kind


def test_jit_refuses_a_str() -> None:
    assert not _jit_accepts("normal")
    assert _jit_accepts(1) and _jit_accepts(1.0) and _jit_accepts(enum.IntEnum("K", "A").A)


NORMS = "import enum\n\n\nclass Norm(str, enum.Enum):\n    NORMAL = 'normal'\n    BOUNDS = 'bounds'\n"
POLICY = """\
from functools import partial

import jax
import jax.numpy as jnp

from {pkg}.norms import Norm


class Policy:
    def __init__(self, scale):
        self.scale = scale

    @partial(jax.jit, static_argnames=("self", "train"))
    def act(self, obs, stats, norm: Norm = Norm.NORMAL, train: bool = False):
        action = jnp.tanh(obs * self.scale)
        if norm == Norm.NORMAL:
            action = action * stats["std"] + stats["mean"]
        elif norm == Norm.BOUNDS:
            action = (action + 1.0) * 0.5 * (stats["high"] - stats["low"]) + stats["low"]
        return action


@jax.jit
def unnormalize(action, stats, norm=Norm.BOUNDS):
    if norm == Norm.BOUNDS:
        return (action + 1.0) * 0.5 * (stats["high"] - stats["low"]) + stats["low"]
    return action
"""


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        (path.parent / "__init__.py").touch()


def _codes(root: Path, *paths: str) -> list[tuple[str, int, str]]:
    result = check_paths(list(paths) or ["."], Settings(cache=False, root=root, cache_dir=root / ".cache"))
    return [(d.path, d.line, d.code) for d in result.diagnostics]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    sys.path.insert(0, str(tmp_path))
    yield tmp_path
    sys.path.remove(str(tmp_path))
    for name in [m for m in sys.modules if m.split(".")[0] in ("strpkg", "intpkg")]:
        del sys.modules[name]


def _run(pkg: str, passed: bool = False) -> None:
    """Call both jitted functions, leaving the Enum argument out or (``passed``) passing its second member."""
    import importlib

    policy = importlib.import_module(f"{pkg}.policy")
    norm = importlib.import_module(f"{pkg}.norms").Norm
    stats = {k: jax.numpy.full(3, v) for k, v in (("std", 2.0), ("mean", 1.0), ("high", 1.0), ("low", -1.0))}
    obs = jax.numpy.arange(3.0)
    extra = (norm.BOUNDS,) if passed else ()
    jax.block_until_ready(policy.Policy(0.5).act(obs, stats, *extra))
    jax.block_until_ready(policy.unnormalize(obs, stats, *extra))


def test_a_str_enum_default_of_another_module_is_python(project: Path) -> None:
    _write(project, {"strpkg/norms.py": NORMS, "strpkg/policy.py": POLICY.format(pkg="strpkg")})
    assert _codes(project) == []
    _run("strpkg")  # traces: the defaults are Python values, the `if`s Python comparisons
    with pytest.raises(TypeError, match="abstract array"):
        _run("strpkg", passed=True)  # no call can pass a member: the parameter always holds its default
    # one file alone: nothing says what Norm is, so the parameters are traced arguments as before
    assert [c for *_, c in _codes(project, "strpkg/policy.py")] == ["XLA101", "XLA101", "XLA101"]


def test_an_int_enum_default_is_traced_when_passed(project: Path) -> None:
    # an IntEnum member is a valid argument: a caller may pass one, and then the `if` fails while tracing
    # (left out, a default is never traced: the parameter is known only from the callers)
    norms = NORMS.replace("(str, enum.Enum)", "(enum.IntEnum)").replace("'normal'", "1").replace("'bounds'", "2")
    _write(project, {"intpkg/norms.py": norms, "intpkg/policy.py": POLICY.format(pkg="intpkg")})
    assert [c for *_, c in _codes(project)] == ["XLA101", "XLA101", "XLA101"]
    _run("intpkg")
    with pytest.raises(jax.errors.TracerBoolConversionError):
        _run("intpkg", passed=True)
