"""Keras ``fit`` is a compiled entry when the project runs Keras 3, and a run over a deep sub-folder
sees the entries of its whole repository.

Keras 3's ``compile()`` defaults to ``jit_compile="auto"`` (XLA on a GPU without a distribution
strategy); under TensorFlow >= 2.16 ``tf.keras`` is Keras 3. Which Keras a project runs is read from
what it declares (:mod:`xlacheck.analysis.keras_version`). Each project is written here, and each is
checked both ways: the same code with a declaration that proves the other generation.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from xlacheck.analysis.keras_version import (
    Declared,
    KerasGeneration,
    _generation_of,
    declarations,
    keras_generation,
)
from xlacheck.analysis.project import uncompiled_modules
from xlacheck.api import check_paths
from xlacheck.config import Settings

LAYER = """
import tensorflow as tf


class CountNoise(tf.keras.layers.Layer):
    def call(self, ids):
        counts = tf.math.bincount(ids)
        return tf.cast(tf.reduce_sum(counts), tf.float32)
"""
# a tf.keras model trained with fit: no jit_compile anywhere
TF_KERAS_FIT = """
import tensorflow as tf
from pkg.layers import CountNoise


def main():
    model = tf.keras.Sequential([CountNoise()])
    model.compile(optimizer="adam", loss="mse")
    model.fit(tf.constant([[1, 2, 2]]), tf.constant([1.0]))


if __name__ == "__main__":
    main()
"""
KERAS_FIT = TF_KERAS_FIT.replace("import tensorflow as tf\n", "import keras\nimport tensorflow as tf\n").replace(
    "tf.keras.Sequential", "keras.Sequential")
KEPT = [("layers.py", 6, "XLA204")]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, src in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(src).lstrip("\n"))


def _found(root: Path, files: dict[str, str], run: Path | None = None) -> list[tuple[str, int, str]]:
    _write(root, {"pkg/__init__.py": "", "pkg/layers.py": LAYER, **files})
    result = check_paths([str(run or root)], Settings(cache=False, root=root))
    assert all(s.reason.value == "no-compiled-entry" for s in result.set_aside)
    return sorted((Path(d.path).name, d.line, d.code) for d in result.diagnostics)


@pytest.mark.parametrize(("declared", "entry"), [
    ({"requirements.txt": "numpy\ntensorflow>=2.16.1\n"}, True),
    ({"requirements.txt": "numpy\ntensorflow==2.12.0\n"}, False),
    ({"requirements-gpu.txt": "tensorflow[and-cuda]~=2.17.0  # GPU\n"}, True),
    ({"requirements.txt": "tensorflow<2.16\n"}, False),
    ({"pyproject.toml": '[project]\nname = "p"\ndependencies = ["tensorflow>=2.17,<3"]\n'}, True),
    ({"pyproject.toml": '[project]\nname = "p"\ndependencies = ["tensorflow>=2.17,<3", "tf-keras>=2.17"]\n'}, False),
    ({"pyproject.toml": '[tool.poetry.dependencies]\ntensorflow = "2.18.0"\n'}, True),
    ({"pyproject.toml": '[tool.poetry.dependencies]\ntensorflow = "2.11.0"\n'}, False),
    ({"setup.py": "from setuptools import setup\nREQ = ['tensorflow>=2.16']\nsetup(install_requires=REQ)\n"}, True),
    ({"setup.py": "from setuptools import setup\nsetup(install_requires=['tensorflow-gpu==2.4.1'])\n"}, False),
    ({"setup.py": "from setuptools import setup\nsetup(extras_require={'tf': ['tensorflow>=2.7,<=2.11']})\n"}, False),
    ({"pyproject.toml": '[project]\nname = "p"\n[project.optional-dependencies]\ntf = ["tensorflow>=2.18"]\n'}, True),
    ({"setup.cfg": "[options]\ninstall_requires =\n    numpy\n    tensorflow>=2.16\n"}, True),
    ({"setup.cfg": "[options]\ninstall_requires =\n    tensorflow==2.9.*\n"}, False),
    ({"environment.yml": "dependencies:\n  - python=3.11\n  - pip:\n    - tensorflow==2.19.0\n"}, True),
    ({"environment.yml": "dependencies:\n  - tensorflow-gpu=2.4\n"}, False),
    ({"Dockerfile": "FROM tensorflow/tensorflow:2.17.0-gpu\n"}, True),
    ({"Dockerfile": "FROM tensorflow/tensorflow:2.4.1-gpu\n"}, False),
    ({"Dockerfile": "ARG FROM_IMAGE_NAME=nvcr.io/nvidia/tensorflow:21.02-tf2-py3\nFROM ${FROM_IMAGE_NAME}\n"}, False),
    ({"Dockerfile": "FROM python:3.11\nRUN pip install --no-cache-dir tensorflow==2.18.0 numpy\n"}, True),
    # review19: a Dockerfile with a suffix, and requirements kept in a folder (pip's `-r requirements/tpu.txt`)
    ({"Dockerfile.tpu": "FROM python:3.11\nRUN pip install tensorflow==2.18.0\n"}, True),
    ({"requirements.txt": "-r requirements/tpu.txt\n", "requirements/tpu.txt": "tensorflow>=2.17\n"}, True),
])
def test_a_tf_keras_fit_is_an_entry_only_where_the_project_runs_keras_3(tmp_path: Path, declared: dict[str, str],
                                                                        entry: bool) -> None:
    assert _found(tmp_path, {"train.py": TF_KERAS_FIT, **declared}) == (KEPT if entry else [])


@pytest.mark.parametrize("declared", [
    {"Dockerfile.gpu": "FROM tensorflow/tensorflow:2.4.1-gpu\n"},
    {"requirements.txt": "-r requirements/base.txt\n", "requirements/base.txt": "keras<3\n"},
], ids=["Dockerfile.gpu", "requirements-folder"])
def test_keras_2_declared_in_a_suffixed_dockerfile_or_a_requirements_folder(tmp_path: Path,
                                                                            declared: dict[str, str]) -> None:
    """review19: both were not read, so standalone ``import keras`` fit stayed an entry (unknown Keras)."""
    assert _found(tmp_path / "a", {"train.py": KERAS_FIT}) == KEPT
    assert _found(tmp_path / "b", {"train.py": KERAS_FIT, **declared}) == []
    sub_folder = {"docker/Dockerfile.gpu": "FROM tensorflow/tensorflow:2.4.1-gpu\n"}
    assert _found(tmp_path / "c", {"train.py": KERAS_FIT, **sub_folder}) == KEPT  # it speaks for docker/ only


def test_declared_tf_keras_speaks_for_tf_keras_code_only(tmp_path: Path) -> None:
    """review19: tf-keras beside tensorflow>=2.16 makes ``tf.keras`` Keras 2 (with TF_USE_LEGACY_KERAS), but
    ``import keras`` is still the keras package, Keras 3 there."""
    both = {"requirements.txt": "tensorflow>=2.17\ntf-keras>=2.17\n"}
    assert _found(tmp_path / "a", {"train.py": TF_KERAS_FIT, **both}) == []
    assert _found(tmp_path / "b", {"train.py": KERAS_FIT, **both}) == KEPT
    assert _found(tmp_path / "c", {"train.py": KERAS_FIT, "requirements.txt": "tf-keras>=2.17\n",
                                   "tools/requirements.txt": "keras<3\n"}) == KEPT


def test_legacy_keras_set_anywhere_in_the_project_makes_it_keras_2(tmp_path: Path) -> None:
    keras3 = {"requirements.txt": "tensorflow>=2.16\n", "train.py": TF_KERAS_FIT}
    assert _found(tmp_path / "a", keras3) == KEPT
    assert _found(tmp_path / "b", {**keras3, "run.sh": "export TF_USE_LEGACY_KERAS=1\npython train.py\n"}) == []
    python_env = 'import os\n\nos.environ["TF_USE_LEGACY_KERAS"] = "1"\n'
    assert _found(tmp_path / "d", {**keras3, "pkg/__init__.py": python_env}) == []
    advice = 'raise ImportError("set the environment variable TF_USE_LEGACY_KERAS=1 to fix")\n'
    assert _found(tmp_path / "e", {**keras3, "pkg/compat.py": advice}) == KEPT
    legacy_import = TF_KERAS_FIT.replace("import tensorflow as tf\n", "import tensorflow as tf\nimport tf_keras\n")
    assert _found(tmp_path / "c", {**keras3, "train.py": legacy_import}) == []


def test_a_strategy_scope_or_run_eagerly_turns_keras_3s_auto_off(tmp_path: Path) -> None:
    keras3 = {"requirements.txt": "tensorflow>=2.16\n"}
    scoped = TF_KERAS_FIT.replace("    model = tf.keras", "    with tf.distribute.MirroredStrategy().scope():\n"
                                  "        model = tf.keras")
    eager = TF_KERAS_FIT.replace('loss="mse"', 'loss="mse", run_eagerly=True')
    assert _found(tmp_path / "a", {**keras3, "train.py": TF_KERAS_FIT}) == KEPT
    assert _found(tmp_path / "b", {**keras3, "train.py": scoped}) == []
    assert _found(tmp_path / "c", {**keras3, "train.py": eager}) == []


def test_unknown_keeps_import_keras_fit_an_entry_and_tf_keras_fit_not(tmp_path: Path) -> None:
    """Nothing declared: standalone ``import keras`` fit stays an entry, ``tf.keras`` fit does not; a
    declaration proving Keras 2 takes the first away, one proving Keras 3 gives the second."""
    assert _found(tmp_path / "a", {"train.py": KERAS_FIT}) == KEPT
    assert _found(tmp_path / "b", {"train.py": KERAS_FIT, "requirements.txt": "keras<3\n"}) == []
    assert _found(tmp_path / "c", {"train.py": TF_KERAS_FIT}) == []
    assert _found(tmp_path / "d", {"train.py": TF_KERAS_FIT, "requirements.txt": "keras>=3.0\n"}) == KEPT


def test_the_nearest_folder_that_declares_decides(tmp_path: Path) -> None:
    """A research sub-project with requirements of its own is read by them, not by the repository's."""
    files = {"setup.py": "from setuptools import setup\nsetup(install_requires=['tensorflow>=2.16'])\n",
             "research/exp/requirements.txt": "tensorflow==2.3.0\n", "research/exp/__init__.py": "",
             "research/exp/train.py": TF_KERAS_FIT}
    assert _found(tmp_path / "a", files) == []
    files["research/exp/requirements.txt"] = "tensorflow==2.17.0\n"
    assert _found(tmp_path / "b", files) == KEPT


def test_a_run_over_a_deep_sub_folder_sees_the_entries_of_its_repository(tmp_path: Path) -> None:
    """``xlacheck repo/src/lib/models/sub``: the marker is four folders up, where ``train.py`` compiles
    the sub-folder's layer with ``jit_compile=True``; without that script its findings are set aside."""
    sub = tmp_path / "repo/src/lib/models/sub"
    layer = LAYER.replace("import tensorflow as tf\n", "import tensorflow as tf\nfrom .util import double\n")
    files = {"pyproject.toml": '[project]\nname = "repo"\n',
             "src/lib/models/sub/__init__.py": "", "src/lib/models/sub/layers.py": layer,
             "src/lib/models/sub/util.py": "def double(x):\n    return 2 * x\n"}
    jit = ("import tensorflow as tf\nfrom src.lib.models.sub.layers import CountNoise\n\n"
           "step = tf.function(CountNoise(), jit_compile=True)\n")
    _write(tmp_path / "repo", {**files, "train.py": jit})
    assert _found(tmp_path / "repo", {}, run=sub) == [("layers.py", 7, "XLA204")]
    (tmp_path / "repo/train.py").write_text(jit.replace("jit_compile=True", "jit_compile=False"))
    assert _found(tmp_path / "repo", {}, run=sub) == []
    why = uncompiled_modules([str(sub / "layers.py"), str(sub / "util.py")])
    assert "(repo)" in why[str(sub / "layers.py")]


@pytest.mark.parametrize(("package", "specifier", "generation"), [
    ("tensorflow", ">=2.4", KerasGeneration.UNKNOWN),
    ("tensorflow", "", KerasGeneration.UNKNOWN),
    ("tensorflow", ">2.15", KerasGeneration.UNKNOWN),  # 2.15.1 is a release
    ("tensorflow", ">2.15.9", KerasGeneration.KERAS_3),
    ("tensorflow", "==2.16.0rc0", KerasGeneration.KERAS_3),
    ("tensorflow", "==2.4.*", KerasGeneration.KERAS_2),
    ("keras", ">=2.4,<4", KerasGeneration.UNKNOWN),
    ("keras", "~=3.3", KerasGeneration.KERAS_3),
    ("tf-keras", ">=2.16", KerasGeneration.KERAS_2),
    ("tf-nightly", "", KerasGeneration.KERAS_3),
])
def test_one_declaration(package: str, specifier: str, generation: KerasGeneration) -> None:
    assert _generation_of(Declared(package, specifier, "requirements.txt")) is generation


def test_declarations_keep_only_tensorflow_and_keras_and_say_why(tmp_path: Path) -> None:
    text = "tensorflow-probability==0.11\nTensorFlow_GPU==2.4.1\nkeras>=3\n-r other.txt\n"
    assert declarations("requirements.txt", text, "requirements.txt") == (
        Declared("tensorflow-gpu", "==2.4.1", "requirements.txt"), Declared("keras", ">=3", "requirements.txt"))
    folder = str(tmp_path)
    answer = keras_generation(str(tmp_path / "train.py"), "import tensorflow as tf\n", folder,
                              {folder: list(declarations("requirements.txt", text, "requirements.txt"))}, None)
    assert answer.generation is KerasGeneration.UNKNOWN
    assert "tensorflow-gpu==2.4.1 (requirements.txt)" in answer.why
    legacy = [Declared("tensorflow", ">=2.17,<3", "pyproject.toml"), Declared("tf-keras", ">=2.17", "pyproject.toml")]
    both = keras_generation(str(tmp_path / "train.py"), "import tensorflow as tf\n", folder, {folder: legacy}, None)
    assert both.generation is KerasGeneration.KERAS_2  # the project installs tf-keras to run tf.keras on TF 2.17
    ops = keras_generation(str(tmp_path / "train.py"), "from keras import ops\n", folder, {}, None)
    assert ops.generation is KerasGeneration.KERAS_3
