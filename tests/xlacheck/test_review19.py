"""Defects found by review19 in this session's merges (keras_version, project._own_root)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from xlacheck.analysis.keras_version import KerasGeneration, declarations, keras_generation
from xlacheck.analysis.project import _own_root


@pytest.mark.parametrize("text", ["tool = 1\n", '[tool]\npoetry = "x"\n', "[tool.poetry]\ndependencies = 3\n",
                                  "[project]\ndependencies = 5\n", "project = 1\n"])
def test_malformed_pyproject_tool_table_does_not_crash(text: str) -> None:
    # valid TOML whose tool / tool.poetry is not a table crashed the whole run (AttributeError)
    assert declarations("pyproject.toml", text, "pyproject.toml") == ()


@pytest.mark.parametrize("text", ["dependencies:\n  - pip: 3\n", "dependencies:\n  - pip: tensorflow\n"])
def test_conda_pip_entry_not_a_list(text: str) -> None:
    # an int crashed (TypeError); a string was read letter by letter
    assert declarations("environment.yml", text, "environment.yml") == ()


def test_conda_pip_list_still_read() -> None:
    found = declarations("environment.yml", "dependencies:\n  - pip:\n    - tensorflow==2.10\n", "e")
    assert [(d.package, d.specifier) for d in found] == [("tensorflow", "==2.10")]


@pytest.mark.parametrize("backend", ["tensorflow", "theano", "cntk"])
def test_keras_backend_of_keras2_is_not_keras3_evidence(backend: str) -> None:
    # standalone Keras 2.0-2.3 read KERAS_BACKEND too: setting it to tensorflow/theano proves nothing
    code = f"import os\nos.environ['KERAS_BACKEND'] = '{backend}'\nimport keras\nmodel.fit(x, y)\n"
    answer = keras_generation("/p/train.py", code, "/p", {}, None)
    assert answer.generation is KerasGeneration.UNKNOWN


@pytest.mark.parametrize("backend", ["jax", "torch"])
def test_keras_backend_of_keras3_only_is_keras3(backend: str) -> None:
    code = f'import os\nos.environ["KERAS_BACKEND"] = "{backend}"\nimport keras\n'
    assert keras_generation("/p/train.py", code, "/p", {}, None).generation is KerasGeneration.KERAS_3


def test_own_root_does_not_climb_to_a_home_folder_under_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a dotfiles repository at ~/.git made every unmarked run folder under home "the project": the whole
    # home directory walked and scanned
    home = tmp_path / "home"
    run = home / "scratch" / "exp"
    run.mkdir(parents=True)
    (home / ".git").mkdir()
    (run / "a.py").write_text("import tensorflow as tf\n")
    monkeypatch.setenv("HOME", str(home))
    assert _own_root(str(run / "a.py"), str(run)) == str(run)
    # a repository below home is still found above a deep sub-folder
    (home / "scratch" / ".git").mkdir()
    assert _own_root(str(run / "a.py"), str(run)) == os.path.join(str(home), "scratch")


_ENC = """
import torch
from torch import nn


class Encoder(nn.Module):
    def forward(self, x, lengths=None):
        if lengths is not None:
            x = x[:, :int(lengths.max().item())]
        return x

    def encode(self, x, n):
        return {call}
"""
_NET = """
from torch import nn
from models.enc import Encoder


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()

    def forward(self, x):
        return self.encoder(x)
"""


@pytest.mark.parametrize("call", ["self(x, n)", "self(x, lengths=n)", "self.__call__(x, n)"])
def test_forward_called_by_the_module_itself_is_a_call_site(call: str) -> None:
    # `self(x, n)` runs forward with lengths: the fact "lengths is always None" dropped the findings of that branch
    import ast

    from xlacheck.analysis.calls import index_calls, project_literals
    from xlacheck.analysis.contexts import analyze_module

    def index(src: str):  # type: ignore[no-untyped-def]
        tree = ast.parse(src)
        return index_calls(tree, analyze_module(tree).functions)

    facts = project_literals({"enc.py": index(_ENC.format(call=call)), "net.py": index(_NET)})
    assert "Encoder.forward" not in facts.get("enc.py", {})
    # without the self call the fact still holds
    facts = project_literals({"enc.py": index(_ENC.format(call="x")), "net.py": index(_NET)})
    assert facts["enc.py"]["Encoder.forward"] == {"lengths": None}


@pytest.mark.parametrize("text", [
    # pip-compile
    "tensorflow==2.15.0 \\\n    --hash=sha256:abc \\\n    --hash=sha256:def\n    # via -r requirements.in\n",
    "tensorflow==2.15.0 --hash=sha256:abc\n",
    "tensorflow==2.15.0\t# pinned\n",
    "tensorflow==2.15.0  # pinned\n",
])
def test_requirements_in_pip_compile_form_are_read(text: str) -> None:
    found = declarations("requirements.txt", text, "requirements.txt")
    assert [(d.package, d.specifier) for d in found] == [("tensorflow", "==2.15.0")]


def test_requirements_continuation_and_urls_kept() -> None:
    text = "numpy \\\n  ==1.26\npkg @ https://x.org/p.zip#egg=pkg\n-r base.txt\nkeras<3\n"
    found = declarations("requirements.txt", text, "requirements.txt")
    assert [(d.package, d.specifier) for d in found] == [("keras", "<3")]


def test_a_static_dataclass_field_fix_says_it_changes_every_use_of_the_class() -> None:
    import ast
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_rewrites import diagnostic_at

    from xlacheck.rewrites import attach_fixes

    source = ("import dataclasses\nimport jax\nimport jax.numpy as jnp\n\n\n@jax.tree_util.register_dataclass\n"
              "@dataclasses.dataclass\nclass Params:\n    scale: float\n    window: int\n\n\n"
              "@jax.jit\ndef smooth(x, p: Params):\n    kernel = jnp.ones((p.window,)) / p.window\n"
              "    return jnp.convolve(x, kernel, mode='same') * p.scale\n")
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "jnp.ones")
    (result,) = attach_fixes(source, tree, [diagnostic_at(node, "XLA207")])
    assert result.fix is not None and "static=True" in "".join(e.content for e in result.fix.edits)
    assert "every use of the class" in result.fix.message


def test_legacy_keras_env_does_not_make_standalone_keras_keras2() -> None:
    # TF_USE_LEGACY_KERAS=1 routes tf.keras to tf_keras; `import keras` still imports Keras 3 (its fit an XLA entry)
    from xlacheck.analysis.keras_version import fit_is_xla_entry

    code = "import keras\nmodel = keras.Sequential([])\nmodel.compile('adam', 'mse')\nmodel.fit(x, y)\n"
    answer = keras_generation("/p/train.py", code, "/p", {}, "Dockerfile")
    assert answer.generation is not KerasGeneration.KERAS_2
    assert fit_is_xla_entry(code, answer)
    for tf_code in ("import tensorflow as tf\nmodel = tf.keras.Sequential([])\nmodel.fit(x, y)\n",
                    "from tensorflow import keras\nmodel = keras.Sequential([])\nmodel.fit(x, y)\n"):
        assert keras_generation("/p/t.py", tf_code, "/p", {}, "Dockerfile").generation is KerasGeneration.KERAS_2
