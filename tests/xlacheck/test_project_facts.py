"""Project-level call facts (xlacheck.analysis.project): what other files of a run say about a
module's functions. Two- and three-file projects linted through the library as the CLI does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from xlacheck.analysis.contexts import Level, ProjectFact
from xlacheck.analysis.project import ProjectFile, Summary, caller_loops, resolve
from xlacheck.api import check_paths
from xlacheck.config import Settings
from xlacheck.diagnostics import RunResult
from xlacheck.engine import check_file

Lint = Callable[..., RunResult]

# A size computed from tensor values: XLA205 fires in compiled code, in an uncompiled
# module-level helper only with --preview (there it was tf.data code on real projects).
LOSSES = """\
import tensorflow as tf


def focal_loss(labels, logits):  # not Keras' (y_true, y_pred) signature: no evidence of its own
    n = tf.reduce_sum(tf.cast(labels > 0, tf.int32))
    return logits + tf.reduce_sum(tf.zeros([n]))  # per-example values: a helper, not a loss by its shape
"""
XLA205_MESSAGE = (
    "`shape` of tf.zeros is computed from tensor values: XLA needs it at compile time, so this fails to compile "
    "or recompiles for every value; use a static size (config constant, x.shape) or pad to a fixed bound "
    "(compiled: {evidence})")
MODEL = """\
import tensorflow as tf
from pkg.losses import focal_loss


class Model(tf.keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = focal_loss(y, self(x))
        return {"loss": loss}
"""
# max() over a tensor (XLA103, behind --preview) fires in helpers: tracing fails in any graph
PREP = """\
import tensorflow as tf


def clip_total(x):
    total = tf.reduce_sum(x)
    return max(total, 0.0)
"""
PIPELINE = """\
import tensorflow as tf
from pkg.prep import clip_total


def make(files):
    return tf.data.TFRecordDataset(files).map(clip_total)
"""


def write(root: Path, files: dict[str, str]) -> None:
    """The project's files, and a config that compiles it with XLA: a Keras train step of a project
    that nothing compiles is traced at most, and its findings are set aside (test_no_compiled_entry.py);
    here the facts follow calls in a project that XLA compiles."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        init = path.parent / "__init__.py"
        if not init.exists():
            init.write_text("")
    (root / "xla.yaml").write_text("jit_compile: true\n")


def project_file(root: Path, name: str) -> ProjectFile:
    summary = check_file((root / name).read_text(), str(root / name)).summary
    assert summary is not None
    return ProjectFile(str(root / name), name, summary)


def findings(result: RunResult) -> list[tuple[str, int, str, str]]:
    return [(d.path, d.line, d.code, d.message) for d in result.diagnostics]


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Lint:
    monkeypatch.chdir(tmp_path)

    def lint(*paths: str, cache: bool = False, preview: bool = False) -> RunResult:
        return check_paths(list(paths) or ["."], Settings(cache=cache, root=tmp_path, preview=preview))

    return lint


def test_helper_called_from_a_train_step_in_another_file_is_compiled(tmp_path: Path, run: Lint) -> None:
    write(tmp_path, {"pkg/losses.py": LOSSES, "pkg/model.py": MODEL})
    assert findings(run()) == [
        ("pkg/losses.py", 6, "XLA205",
         XLA205_MESSAGE.format(evidence="called from Model.train_step() in pkg/model.py:9")),
    ]
    # one file alone: today's behaviour (an uncompiled helper: XLA205 only with --preview)
    assert findings(run("pkg/losses.py")) == []


def test_helper_passed_to_compile_in_another_file_is_compiled(tmp_path: Path, run: Lint) -> None:
    train = ("import tensorflow as tf\nfrom pkg import losses\n\n\ndef build(model):\n"
             "    model.compile(optimizer='adam', loss=losses.focal_loss, jit_compile=True)\n")
    write(tmp_path, {"pkg/losses.py": LOSSES, "pkg/train.py": train})
    assert findings(run()) == [
        ("pkg/losses.py", 6, "XLA205",
         XLA205_MESSAGE.format(evidence="passed to compile()/strategy.run in pkg/train.py:6")),
    ]


def test_relative_import_and_a_chain_through_three_files(tmp_path: Path, run: Lint) -> None:
    # model.train_step -> ops.combined (relative import) -> losses.focal_loss (module alias)
    ops = ("import tensorflow as tf\nimport pkg.losses as L\n\n\ndef combined(y, p):\n"
           "    return L.focal_loss(y, p) + tf.reduce_mean(p)\n")
    model = MODEL.replace("from pkg.losses import focal_loss", "from .ops import combined").replace(
        "focal_loss(y, self(x))", "combined(y, self(x))")
    write(tmp_path, {"pkg/losses.py": LOSSES, "pkg/ops.py": ops, "pkg/model.py": model})
    assert findings(run()) == [
        ("pkg/losses.py", 6, "XLA205", XLA205_MESSAGE.format(evidence="called from combined() in pkg/ops.py:6")),
    ]


def test_a_chain_through_a_thin_wrapper_that_computes_nothing(tmp_path: Path, run: Lint) -> None:
    # model.train_step -> ops.total_loss (no tensor op of its own: EAGER in its file alone) ->
    # losses.focal_loss: the wrapper's call passes on the level other files give it. (What the
    # wrapper passes is unknown, as it is not walked, so only findings that need no argument
    # facts follow: tf.timestamp has no XLA kernel whatever it is given.)
    losses = "import tensorflow as tf\n\n\ndef focal_loss(labels, logits):\n    return logits + tf.timestamp()\n"
    ops = ("import tensorflow as tf\nfrom pkg.losses import focal_loss\n\n\ndef total_loss(y, p):\n"
           "    return focal_loss(y, p)\n")
    model = MODEL.replace("from pkg.losses import focal_loss", "from pkg.ops import total_loss").replace(
        "focal_loss(y, self(x))", "total_loss(y, self(x))")
    write(tmp_path, {"pkg/losses.py": losses, "pkg/ops.py": ops, "pkg/model.py": model})
    result = run()
    assert [(p, line, code) for p, line, code, _ in findings(result)] == [("pkg/losses.py", 5, "XLA309")]
    assert result.diagnostics[0].message.endswith("(compiled: called from total_loss() in pkg/ops.py:6)")


def test_helper_only_host_code_elsewhere_calls_is_host(tmp_path: Path, run: Lint) -> None:
    write(tmp_path, {"pkg/prep.py": PREP, "pkg/pipeline.py": PIPELINE})
    alone = findings(run("pkg/prep.py", preview=True))
    assert [(p, line, code) for p, line, code, _ in alone] == [("pkg/prep.py", 6, "XLA103")]
    assert findings(run(preview=True)) == []  # a tf.data map function: never compiled by XLA
    assert resolve([project_file(tmp_path, name) for name in ("pkg/prep.py", "pkg/pipeline.py")]) == {str(tmp_path / "pkg" / "prep.py"): {"clip_total": ProjectFact(
        Level.HOST, "called only from host code (mapped over a tf.data pipeline in pkg/pipeline.py:6)")}}
    # a compiled caller anywhere wins over host callers
    step = ("import tensorflow as tf\nfrom pkg.prep import clip_total\n\n\n@tf.function(jit_compile=True)\n"
            "def step(x):\n    return clip_total(x)\n")
    write(tmp_path, {"pkg/step.py": step})
    assert [(p, line, code) for p, line, code, _ in findings(run(preview=True))] == [("pkg/prep.py", 6, "XLA103")]


def test_cache_follows_the_caller_file(tmp_path: Path, run: Lint) -> None:
    write(tmp_path, {"pkg/losses.py": LOSSES, "pkg/model.py": MODEL})
    first = run(cache=True)
    assert [(p, line, code) for p, line, code, _ in findings(first)] == [("pkg/losses.py", 6, "XLA205")]
    again = run(cache=True)
    assert findings(again) == findings(first) and all(f.cached for f in again.files if not f.skipped)
    # the caller stops calling the helper: the helper's cached result must not be reused
    (tmp_path / "pkg" / "model.py").write_text(MODEL.replace("focal_loss(y, self(x))", "tf.reduce_sum(y)"))
    assert findings(run(cache=True)) == []
    # and back: the entry with the facts is found again
    (tmp_path / "pkg" / "model.py").write_text(MODEL)
    back = run(cache=True)
    assert findings(back) == findings(first)
    assert {f.path: f.cached for f in back.files} == {"pkg/__init__.py": False, "pkg/losses.py": True,
                                                      "pkg/model.py": True}


def test_caller_line_moves_and_the_message_follows(tmp_path: Path, run: Lint) -> None:
    write(tmp_path, {"pkg/losses.py": LOSSES, "pkg/model.py": MODEL})
    run(cache=True)
    (tmp_path / "pkg" / "model.py").write_text("# moved\n" + MODEL)
    assert [m for _, _, _, m in findings(run(cache=True))] == [
        XLA205_MESSAGE.format(evidence="called from Model.train_step() in pkg/model.py:10")]


def test_a_call_with_an_ellipsis_or_complex_literal_is_cached(tmp_path: Path, run: Lint) -> None:
    # `x[...]`-style helpers called as `pick(x, ...)`, `scale(x, 1j)`: literals JSON cannot hold (the call
    # index of the project pass is cached as JSON; an Ellipsis there stopped the whole run)
    helpers = ("import jax.numpy as jnp\n\n\ndef pick(x, index):\n    return jnp.asarray(x)[index]\n\n\n"
               "def scale(x, k):\n    return jnp.asarray(x) * k\n")
    caller = ("import jax\nfrom pkg.helpers import pick, scale\n\n\n@jax.jit\ndef run(x):\n"
              "    return pick(x, ...) + scale(x, 1j) + scale(x, b'raw')\n")
    write(tmp_path, {"pkg/helpers.py": helpers, "pkg/main.py": caller})
    first = run(cache=True)
    again = run(cache=True)
    assert not first.errors and findings(again) == findings(first)
    assert {f.path: f.cached for f in again.files if not f.skipped} == {"pkg/helpers.py": True, "pkg/main.py": True}


def test_resolve_is_deterministic_and_keeps_the_strongest_evidence(tmp_path: Path) -> None:
    graph_caller = ("import tensorflow as tf\nfrom pkg.losses import focal_loss\n\n\n@tf.function\n"
                    "def evaluate(y, p):\n    return focal_loss(y, p)\n")
    write(tmp_path, {"pkg/losses.py": LOSSES, "pkg/model.py": MODEL, "pkg/eval.py": graph_caller})
    files = [project_file(tmp_path, name) for name in ("pkg/model.py", "pkg/losses.py", "pkg/eval.py")]
    assert all(Summary.from_json(f.summary.to_json()) == f.summary for f in files)  # the cache round trip
    facts = resolve(files)
    assert resolve(list(reversed(files))) == facts
    fact = facts[str(tmp_path / "pkg" / "losses.py")]["focal_loss"]
    assert (fact.level, fact.why) == (Level.LIKELY, "called from Model.train_step() in pkg/model.py:9")
    assert set(facts) == {str(tmp_path / "pkg" / "losses.py")}


def test_a_literal_mode_argument_selects_the_branch_that_runs(tmp_path: Path, run: Lint) -> None:
    # get_count(state, jittable=True) from a jitted step: the int() branch never runs there
    counts = ("import jax\nimport jax.numpy as jnp\n\n\ndef get_count(state, jittable=False):\n"
              "    c = jnp.sum(state)\n    if jittable:\n        return c\n    return int(c)\n")
    step = ("import jax\nfrom pkg.counts import get_count\n\n\n@jax.jit\ndef step(state):\n"
            "    return get_count(state, jittable={flag})\n")
    write(tmp_path, {"pkg/counts.py": counts, "pkg/step.py": step.format(flag="True")})
    assert findings(run()) == []
    write(tmp_path, {"pkg/step.py": step.format(flag="False")})
    assert [(p, line, code) for p, line, code, _ in findings(run())] == [("pkg/counts.py", 9, "XLA302")]


def test_a_function_written_for_eager_mode_is_not_raised(tmp_path: Path, run: Lint) -> None:
    # a conversion utility calling .numpy(): a compiled caller elsewhere is the caller's problem
    utils = ("import numpy as np\nimport tensorflow as tf\n\n\ndef to_numpy(x):\n"
             "    if isinstance(x, tf.RaggedTensor):\n        return x.numpy()\n    return np.asarray(x)\n")
    metric = ("import tensorflow as tf\nfrom pkg.utils import to_numpy\n\n\nclass Count(tf.keras.metrics.Metric):\n"
              "    def update_state(self, y_true, y_pred, sample_weight=None):\n"
              "        self.total.assign_add(to_numpy(tf.size(y_true)))\n")
    write(tmp_path, {"pkg/utils.py": utils, "pkg/metric.py": metric})
    assert [(p, line, code) for p, line, code, _ in findings(run())] == []


def test_a_layer_only_a_preprocessing_layer_builds_runs_on_the_host(tmp_path: Path, run: Lint) -> None:
    # bicubic+antialias resize has no XLA kernel (XLA310), but only an image converter runs this layer
    converter = (
        "import tensorflow as tf\nfrom keras_hub.layers import ImageConverter\n\n\n"
        "class Resizing(tf.keras.layers.Layer):\n    def call(self, x):\n"
        "        return tf.image.resize(x, (224, 224), method='bicubic', antialias=True)\n\n\n"
        "class MyImageConverter(ImageConverter):\n    def __init__(self):\n        super().__init__()\n"
        "        self.resizing = Resizing()\n\n    def call(self, x):\n        return self.resizing.call(x)\n")
    write(tmp_path, {"conv.py": converter})
    assert findings(run("conv.py")) == []
    # the same layer built by a model too: compiled code
    write(tmp_path, {"conv.py": converter + "\n\nclass Model(tf.keras.Model):\n    def __init__(self):\n"
                                            "        super().__init__()\n        self.resize = Resizing()\n"})
    assert [(p, line, code) for p, line, code, _ in findings(run("conv.py"))] == [("conv.py", 7, "XLA310")]


def test_pmap_static_broadcasted_arguments_are_python_values(tmp_path: Path, run: Lint) -> None:
    decode = ("import jax.numpy as jnp\n\n\ndef init(batch, max_len):\n"
              "    return jnp.zeros((batch.shape[0], max_len), jnp.int32)\n")
    train = ("import functools\nimport jax\nfrom pkg import decode\n\n\ndef predict(x, max_len, config):\n"
             "    return decode.init(x, max_len)\n\n\n"
             "p_predict = jax.pmap(functools.partial(predict, config=None), axis_name='b', "
             "static_broadcasted_argnums=(1,))\n")
    write(tmp_path, {"pkg/decode.py": decode, "pkg/train.py": train})
    assert findings(run(preview=True)) == []
    write(tmp_path, {"pkg/train.py": train.replace("static_broadcasted_argnums=(1,)", "donate_argnums=(0,)")})
    assert [(p, line, code) for p, line, code, _ in findings(run(preview=True))] == [("pkg/decode.py", 5, "XLA207")]


def test_a_function_reexported_by_the_package_init(tmp_path: Path, run: Lint) -> None:
    model = MODEL.replace("from pkg.losses import focal_loss", "from pkg import focal_loss")
    write(tmp_path, {"pkg/losses.py": LOSSES, "pkg/model.py": model})
    (tmp_path / "pkg" / "__init__.py").write_text("from .losses import focal_loss\n")
    assert findings(run()) == [
        ("pkg/losses.py", 6, "XLA205",
         XLA205_MESSAGE.format(evidence="called from Model.train_step() in pkg/model.py:9")),
    ]


def test_a_warm_cache_keeps_the_reexport_without_parsing_the_init_again(
        tmp_path: Path, run: Lint, monkeypatch: pytest.MonkeyPatch) -> None:
    """The package __init__ names no framework: its re-exports come from the cache on a warm run
    (parsing every such file was most of a warm run's time), and the finding stays."""
    from xlacheck import api

    model = MODEL.replace("from pkg.losses import focal_loss", "from pkg import focal_loss")
    write(tmp_path, {"pkg/losses.py": LOSSES, "pkg/model.py": model})
    (tmp_path / "pkg" / "__init__.py").write_text("from .losses import focal_loss\n")
    cold = findings(run(cache=True))
    parsed: list[str] = []
    real = api._reexports
    monkeypatch.setattr(api, "_reexports", lambda path, data: parsed.append(path) or real(path, data))
    assert findings(run(cache=True)) == cold and [code for _, _, code, _ in cold] == ["XLA205"]
    assert parsed == []
    (tmp_path / "pkg" / "__init__.py").write_text("from .losses import focal_loss  # edited\n")
    assert findings(run(cache=True)) == cold and [Path(p).name for p in parsed] == ["__init__.py"]


def test_evidence_in_a_notebook_names_its_cell_and_line(tmp_path: Path, run: Lint) -> None:
    # a notebook's train_step calls a package helper: the evidence names the notebook's cell and
    # the line in that cell, as the notebook's own findings do, not a line of the joined cells
    import json

    losses = "import tensorflow as tf\n\n\ndef focal_loss(labels, logits):\n    return logits + tf.timestamp()\n"
    write(tmp_path, {"pkg/losses.py": losses})
    cells = [["# Training\n"], ["import tensorflow as tf\n", "from pkg.losses import focal_loss\n"],
             ["x = 1\n", "\n", "class M(tf.keras.Model):\n", "    def train_step(self, data):\n",
              "        return focal_loss(data, data)\n"]]
    notebook = {"cells": [{"cell_type": "markdown" if i == 0 else "code", "metadata": {}, "source": source,
                           **({} if i == 0 else {"execution_count": None, "outputs": []})}
                          for i, source in enumerate(cells)],
                "metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "train.ipynb").write_text(json.dumps(notebook))
    result = run()
    assert [(p, line, code) for p, line, code, _ in findings(result)] == [("pkg/losses.py", 5, "XLA309")]
    assert result.diagnostics[0].message.endswith("(compiled: called from M.train_step() in train.ipynb:cell 3:5)")


# A loss-shaped helper (a scalar reduction of two inputs) is LIKELY compiled in its own file;
# evidence from other files still decides: a train step names itself, tf.data alone makes it host.
LOSS_SHAPED = LOSSES.replace("return logits + tf.reduce_sum(tf.zeros([n]))",
                             "return tf.reduce_sum(logits) + tf.reduce_sum(tf.zeros([n]))")


def test_a_loss_shaped_helper_fires_alone_and_takes_its_callers_evidence(tmp_path: Path, run: Lint) -> None:
    write(tmp_path, {"pkg/losses.py": LOSS_SHAPED})
    alone = findings(run("pkg/losses.py"))
    assert [(p, line, code) for p, line, code, _ in alone] == [("pkg/losses.py", 6, "XLA205")]
    assert "focal_loss() is a loss: it returns a scalar reduction of its inputs" in alone[0][3]
    write(tmp_path, {"pkg/model.py": MODEL})
    assert findings(run()) == [
        ("pkg/losses.py", 6, "XLA205",
         XLA205_MESSAGE.format(evidence="called from Model.train_step() in pkg/model.py:9")),
    ]


def test_a_loss_shaped_helper_only_tf_data_calls_is_host(tmp_path: Path, run: Lint) -> None:
    pipeline = PIPELINE.replace("pkg.prep import clip_total", "pkg.losses import focal_loss").replace(
        ".map(clip_total)", ".map(focal_loss)")
    write(tmp_path, {"pkg/losses.py": LOSS_SHAPED, "pkg/pipeline.py": pipeline})
    assert findings(run()) == []


def test_a_function_raised_by_jax_evidence_passes_jax_on_to_what_it_calls(tmp_path: Path) -> None:
    """dm-haiku: ``update`` (jax.jit, train.py) -> ``transform`` -> ``transform_with_state`` (same
    file, raised with it) -> ``base.new_context``. The last use is recorded in an uncompiled
    function, whose own default is AutoGraph; the fact must say JAX, as its caller's does (it
    said converted TF, and TF rules then fired in JAX code)."""
    files = {
        "pkg/base.py": "import jax.numpy as jnp\n\n\ndef new_context(x):\n    return jnp.sum(x)\n",
        "pkg/transform.py": ("from pkg import base\n\n\ndef transform(f):\n    return transform_with_state(f)\n\n\n"
                             "def transform_with_state(f):\n    def init_fn(x):\n"
                             "        return base.new_context(f(x))\n    return init_fn\n"),
        "pkg/train.py": ("import jax\nfrom pkg import transform as T\n\n\n@jax.jit\ndef update(x):\n"
                         "    return T.transform(lambda v: v)(x)\n"),
    }
    write(tmp_path, files)
    facts = resolve([project_file(tmp_path, name) for name in files])
    fact = facts[str(tmp_path / "pkg/base.py")]["new_context"]
    assert fact.level >= Level.GRAPH
    assert (fact.converted, fact.jax) == (False, True)


# retrace30: what a loop of one module passes to a function of another (analysis.project.caller_loops):
# a static argument of a jitted function that follows the loop's step counter compiles on every step.
OPS = """\
import jax
from functools import partial


@partial(jax.jit, static_argnums=1)
def sample(key, n):
    return jax.random.normal(key, (n,)).mean()


def draw(key, n):
    return sample(key, n)
"""
XLA411_FROM_TRAIN = (
    "static argument `n` of jitted `sample` comes from `n`, which `draw()` receives with a new value on every "
    "iteration of the loop at pkg/train.py:{line}: jax.jit compiles once per distinct static value, so every "
    "iteration compiles again; pass it traced (with a static bound and a mask)")


def test_a_loop_in_another_module_varies_a_static_argument(tmp_path: Path, run: Lint) -> None:
    train = ("import jax\nfrom pkg.ops import draw\n\n\ndef main(steps):\n    key = jax.random.PRNGKey(0)\n"
             "    for i in range(steps):\n        draw(key, i)\n")
    write(tmp_path, {"pkg/ops.py": OPS, "pkg/train.py": train})
    assert findings(run()) == [("pkg/ops.py", 11, "XLA411", XLA411_FROM_TRAIN.format(line=8))]
    # the file alone shows no caller; a warm cache keeps the finding, and drops it when the caller changes
    assert findings(run("pkg/ops.py")) == []
    assert findings(run(cache=True)) == findings(run(cache=True)) == [
        ("pkg/ops.py", 11, "XLA411", XLA411_FROM_TRAIN.format(line=8))]
    (tmp_path / "pkg/train.py").write_text(train.replace("draw(key, i)", "draw(key, 16)"))
    assert findings(run(cache=True)) == []


def test_a_loop_over_a_table_in_another_module_is_preview_and_through_a_forwarder(tmp_path: Path,
                                                                                  run: Lint) -> None:
    # a fixed set of sizes compiles once each: only --preview reads it (as XLA411 does in one file); the
    # value reaches `draw` through the caller module's own forwarder `run_one`
    train = ("import jax\nfrom pkg import ops\n\n\ndef run_one(key, size):\n    return ops.draw(key, size)\n\n\n"
             "def main():\n    key = jax.random.PRNGKey(0)\n    for n in (8, 16):\n        run_one(key, n)\n")
    write(tmp_path, {"pkg/ops.py": OPS, "pkg/train.py": train})
    assert findings(run()) == []
    assert findings(run(preview=True)) == [("pkg/ops.py", 11, "XLA411", XLA411_FROM_TRAIN.format(line=12))]


def test_caller_loops_go_only_to_files_that_compile_something(tmp_path: Path) -> None:
    # the loop's value reaches `draw` in ops.py (it jits), not `scale` in helpers.py (plain Python): a file
    # that compiles nothing and calls nothing compiled cannot get an XLA4xx finding from it
    files = {"pkg/ops.py": OPS, "pkg/helpers.py": "def scale(x, n):\n    return x * n\n",
             "pkg/train.py": ("import jax\nfrom pkg.ops import draw\nfrom pkg.helpers import scale\n\n\n"
                              "def main(steps):\n    key = jax.random.PRNGKey(0)\n    for i in range(steps):\n"
                              "        draw(key, scale(1, i))\n        scale(key, i)\n")}
    write(tmp_path, files)
    loops = caller_loops([project_file(tmp_path, name) for name in files])
    assert loops == {str(tmp_path / "pkg/ops.py"): {"draw": {"1": (9, "pkg/train.py:9", True)}}}


def test_a_tests_keras_model_is_no_evidence_that_the_library_is_compiled(tmp_path: Path, run: Lint) -> None:
    # tensorflow/gnn graph_tensor_ops_test.py: a test's Layer.call runs a preprocessing op for a tf.lite export;
    # the same train step in a test file says nothing of how a program compiles focal_loss
    write(tmp_path, {"pkg/losses.py": LOSSES, "pkg/model_test.py": MODEL})
    assert findings(run()) == []
    # a test that compiles the helper explicitly does say it
    jitted = ("import tensorflow as tf\nfrom pkg.losses import focal_loss\n\n"
              "run = tf.function(focal_loss, jit_compile=True)\n")
    write(tmp_path, {"pkg/losses.py": LOSSES, "pkg/model_test.py": jitted})
    assert [(p, line, code) for p, line, code, _ in findings(run())] == [("pkg/losses.py", 6, "XLA205")]
