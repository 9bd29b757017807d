"""Defects an end-of-session review found in the seventeenth session's changes, pinned (each snippet is
written here, not copied from a case)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from xlacheck.api import check_paths
from xlacheck.config import Settings
from xlacheck.engine import check_source


def _codes(src: str, preview: bool = False, select: str | None = None) -> list[tuple[str, int]]:
    result = check_source(textwrap.dedent(src), "snippet.py", preview=preview)
    assert result.error is None
    return sorted((d.code, d.line) for d in result.diagnostics if select is None or d.code == select)


def test_xla322_not_on_objects_tf_function_does_not_compare() -> None:
    # a tracker's update/add and a tf.lookup MutableHashTable's insert/remove are methods of objects
    # tf.function does not compare (TF 2.21 measured: both trace and run); only a dict or list argument
    # is refused
    src = """
    import tensorflow as tf

    @tf.function
    def step(x, tracker):
        tracker.update(x)
        tracker.add(x)
        return x * 2.0

    @tf.function
    def put(table, k, v):
        table.insert(k, v)
        table.remove(k)
        return table.size()
    """
    assert _codes(src, select="XLA322") == []


def test_xla322_still_on_dicts_and_lists() -> None:
    src = """
    import tensorflow as tf

    @tf.function
    def a(batch):
        y = batch.pop("label")
        return y

    @tf.function
    def b(batch, x):
        batch.update(x=x)
        return x

    @tf.function
    def c(outs, x):
        outs.append(x)
        return outs[0]

    @tf.function
    def d(batch, extra):
        batch.update(extra)
        return batch["x"]
    """
    assert _codes(src, select="XLA322") == [("XLA322", 6), ("XLA322", 11), ("XLA322", 16), ("XLA322", 21)]


def _torch_codes(src: str, path: str = "sampler.py") -> list[tuple[str, int]]:
    result = check_source(textwrap.dedent(src), path, torch_xla=True)
    assert result.error is None
    return sorted((d.code, d.line) for d in result.diagnostics)


def test_no_grad_sampler_running_a_model_handed_in_stays_a_step() -> None:
    # a parameter named *weight* made the function "work on weights", and a model handed in as a parameter and
    # called with inputs was no model run: the sampler became set-up and its per-step read was lost
    src = """
    import torch
    import torch.nn.functional as F
    import torch_xla

    @torch.no_grad()
    def sample(denoiser, z, guidance_weight):
        for t in range(10):
            z = F.relu(denoiser(z, t))
            if z.abs().max() > 10:
                break
        return z
    """
    assert _torch_codes(src) == [("XLA350", 10)]


def test_no_grad_weight_merge_stays_set_up() -> None:
    # the near miss: merging a delta into a layer's weight runs no model
    src = """
    import torch
    import torch_xla

    @torch.no_grad()
    def merge(layer, delta, scale):
        w = layer.weight.data
        w.add_(delta * scale)
        if w.abs().max() > 10:
            w.clamp_(-10, 10)
    """
    assert _torch_codes(src) == []


def test_callee_proofs_read_each_helper_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # a chain of helpers, each calling the next four times with its parameter: reading each callee again at
    # every call site was 4**depth readings (minutes at depth 12)
    from xlacheck.analysis import torch_model

    calls: list[str] = []
    original = torch_model._Builder._used_as_tensor

    def counted(self: torch_model._Builder, owner: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, int]:
        calls.append(owner.name)
        return original(self, owner)

    monkeypatch.setattr(torch_model._Builder, "_used_as_tensor", counted)
    depth = 10
    parts = ["import torch", "import torch_xla", f"def f{depth}(x):", "    return torch.relu(x)"]
    for i in range(depth - 1, -1, -1):
        parts += [f"def f{i}(x):", *[f"    y = f{i + 1}(x)"] * 4, "    return y"]
    parts += ["def train(loader):", "    for x in loader:", "        y = f0(x)", "        torch_xla.sync()"]
    result = check_source("\n".join(parts) + "\n", "chain.py", torch_xla=True)
    assert result.error is None
    assert len(calls) < 500


def test_noqa_of_a_set_aside_finding_is_used(tmp_path: Path) -> None:
    # XLA001 called a noqa comment for XLA350 that hides a set-aside finding unused ("remove it"), though the fact that
    # sets the finding aside can change (the block stops ending the run, another file imports the module)
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        import sys
        import torch
        import torch_xla


        def train(model, loader, opt):
            for x, y in loader:
                loss = torch.nn.functional.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
                bad = torch.isnan(loss)
                if bad:  # noqa: XLA350
                    print(loss.item())  # noqa: XLA350
                    sys.exit(1)
                torch_xla.sync()
        """))
    result = check_paths([str(tmp_path)], Settings(cache=False, root=tmp_path, extend_select=("XLA001",)))
    assert [d.code for d in result.diagnostics] == []
    assert result.set_aside == ()


TF_LOGGING = """
import torch
import torch_xla


class Trainer:
    def __init__(self, model, use_tf):
        self.model = model
        self.use_tf = use_tf
        if self.use_tf:
            import tensorflow as tf
            self.writer = tf.summary.create_file_writer("logs")

    def train(self, loader, opt):
        for step, (x, y) in enumerate(loader):
            loss = torch.nn.functional.cross_entropy(self.model(x), y)
            loss.backward()
            opt.step()
            if self.use_tf:
                self.log(loss.item(), step)
            torch_xla.sync()

    def log(self, v, step):
        pass
"""


def test_tensorflow_for_logging_is_no_other_runtime() -> None:
    # a flag whose branch imports TensorFlow for TensorBoard logging was taken for one that selects TF as the
    # inference runtime, so every branch it guards (the per-step logging read) was dropped as never run on XLA
    assert _torch_codes(TF_LOGGING, "trainer.py") == [("XLA350", 20)]
    # the near miss: the branch loads a TF model, the runtime the flag selects
    loads = TF_LOGGING.replace('self.writer = tf.summary.create_file_writer("logs")', 'self.tf_model = '
                               'tf.saved_model.load("w")')
    assert _torch_codes(loads, "trainer.py") == []


def test_no_grad_post_processing_with_class_weights_stays_a_step() -> None:
    # a parameter whose name weighs data (class_weights) made post-processing of outputs "work on weights", so
    # it was taken for set-up, against the fact's own rule (post-processing works on data: it stays a step)
    src = """
    import torch
    import torch_xla


    @torch.no_grad()
    def postprocess(logits, labels, class_weights):
        probs = logits.softmax(-1) * class_weights
        if probs.max() > 0.99:
            probs = probs.clamp(max=0.99)
        return probs
    """
    assert _torch_codes(src, "post.py") == [("XLA350", 9)]
    # the near miss: a layer's weight handed in (LoRA's org_weight) is set-up work on weights
    merge = """
    import torch
    import torch_xla


    @torch.no_grad()
    def merge(org_weight, down, up, scale):
        delta = (up @ down) * scale
        if delta.abs().max() > 10:
            delta = delta.clamp(-10, 10)
        return org_weight + delta
    """
    assert _torch_codes(merge, "merge.py") == []


TEST_NAMED_SCRIPT = """
import torch
import torch_xla


def main(model, loader, opt):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        print(loss.item())
        torch_xla.sync()


if __name__ == "__main__":
    main(None, [], None)
"""


def test_training_script_named_like_a_test_is_checked() -> None:
    # XLA350 skips tests (they read results on purpose); a training script named test_train.py, holding no test
    # and run as a script, lost its per-step read silently
    assert _torch_codes(TEST_NAMED_SCRIPT, "test_train.py") == [("XLA350", 11)]
    # the near misses: a file with a test function, and the same script under a tests folder, stay tests
    with_test = TEST_NAMED_SCRIPT + "\n\ndef test_main():\n    main(None, [], None)\n"
    assert _torch_codes(with_test, "test_train.py") == []
    assert _torch_codes(TEST_NAMED_SCRIPT, "tests/test_train.py") == []
