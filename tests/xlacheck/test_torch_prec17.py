"""Code that is no torch_xla step (issue 12, precision, session 13), each fact with its near miss:

* a declared ``@torch.no_grad()`` function that runs no model (it only transforms weights it is handed
  or holds: merge a LoRA delta, extract a rank from an SVD) is set-up, not an inference step of its own
  (``_Builder.runs_a_model``); one that calls a model, itself or through a same-file helper, stays one;
* ``t.cpu()`` of a proven tensor is a tensor on the host: reads of it run no graph (as ``t.to("cpu")``);
* a branch selected by a flag that elsewhere selects a non-torch inference runtime
  (``elif onnx: import onnxruntime``) never runs a torch_xla graph (``NON_TORCH_RUNTIMES``);
* XLA350 does not run on a project's tests (``engine.is_test_file``), which read on purpose.

The snippets are written here (not copied from a case); findings are pinned by code and line."""

from __future__ import annotations

import textwrap

from xlacheck.engine import check_source


def _codes(src: str, path: str = "lib.py") -> list[tuple[str, int]]:
    # preview: XLA450 is behind --preview (below 90% true on real code); its facts are still tested
    found = check_source(textwrap.dedent(src), path, torch_xla=True, preview=True).diagnostics
    return sorted((d.code, d.line) for d in found)


MERGE = """
import torch


class LoraModule(torch.nn.Module):
    def __init__(self, org, rank):
        super().__init__()
        self.org = org
        self.diff = torch.nn.Parameter(torch.zeros_like(org.weight))

    @torch.no_grad()
    def merge_in(self, weight=1.0):
        delta = self.diff.float()
        if not delta.any():
            return
        self.org.weight.data += weight * delta
"""


def test_a_no_grad_function_that_runs_no_model_is_set_up() -> None:
    assert _codes(MERGE) == []


def test_the_same_function_that_runs_a_model_is_an_inference_step() -> None:
    runs = MERGE.replace("        delta = self.diff.float()\n",
                         "        self.org(self.diff)\n        delta = self.diff.float()\n")
    assert _codes(runs) == [("XLA350", 15)]


RANK = """
import torch


def extract(weight, threshold):
    U, S, Vh = torch.linalg.svd(weight)
    rank = torch.sum(S > threshold).item()
    return U[:, :rank], Vh[:rank]


@torch.no_grad()
def convert(layers, threshold):
    return [extract(layer.weight, threshold) for layer in layers]
"""


def test_a_helper_of_a_no_grad_function_that_runs_no_model_is_set_up() -> None:
    assert _codes(RANK) == []


def test_a_helper_that_runs_the_model_makes_the_caller_an_inference_step() -> None:
    runs = RANK.replace("    return [extract(layer.weight, threshold) for layer in layers]\n",
                        "    return [extract(probe(layer, layer.weight), threshold) for layer in layers]\n\n\n"
                        "def probe(layer, x):\n    return layer.forward(x)\n")
    assert _codes(runs) == [("XLA350", 7), ("XLA450", 8), ("XLA450", 8)]  # (the rank as slice bounds)


HOST_COPY = """
import torch


class Rollout:
    @torch.no_grad()
    def get_inputs(self, model, batch):
        out = model.generate(**batch)
        query = batch["input_ids"].detach().cpu()
        lengths = []
        for i in range(len(query)):
            lengths.append((query[i] != 0).nonzero()[0].item())
        return out, lengths
"""


def test_a_read_of_a_cpu_copy_runs_no_graph() -> None:
    assert _codes(HOST_COPY) == [("XLA350", 9)]  # the copy itself is the one read


def test_the_same_read_of_the_device_tensor_stays() -> None:
    device = HOST_COPY.replace("        query = batch[\"input_ids\"].detach().cpu()\n",
                               "        query = batch[\"input_ids\"].detach()\n")
    assert _codes(device) == [("XLA250", 12), ("XLA350", 12)]


BACKENDS = """
import torch


class MultiBackend(torch.nn.Module):
    def __init__(self, w, pt, onnx):
        super().__init__()
        if pt:
            self.model = torch.jit.load(w)
        elif onnx:
            import onnxruntime
            self.session = onnxruntime.InferenceSession(w)
        self.pt, self.onnx = pt, onnx

    def forward(self, im):
        im = im.permute(0, 2, 3, 1)
        if self.pt:
            y = self.model(im)
        elif self.onnx:
            y = self.session.run(None, {"images": im.cpu().numpy()})
        else:
            y = im.cpu().numpy()
        return y
"""


def test_a_branch_of_a_non_torch_runtime_runs_no_graph() -> None:
    assert _codes(BACKENDS) == [("XLA350", 22)]  # the plain else stays


def test_a_flag_that_selects_no_other_runtime_stays() -> None:
    runtime = "            import onnxruntime\n            self.session = onnxruntime.InferenceSession(w)\n"
    plain = BACKENDS.replace(runtime, "            self.session = torch.jit.load(w)\n")
    assert _codes(plain) == [("XLA350", 19), ("XLA350", 21)]


TEST = """
import torch
import torch_xla.core.xla_model as xm


def run(model, opt, batches):
    norms = []
    for x in batches:
        model(x).sum().backward()
        opt.step()
        xm.mark_step()
        norms.append(model.weight.norm().item())
    return norms
"""


def test_a_test_reads_on_purpose() -> None:
    assert _codes(TEST, "tests/test_zero1.py") == []
    assert _codes(TEST, "train.py") == [("XLA350", 12)]


POST = """
import torch


@torch.no_grad()
def postprocess(logits, threshold):
    scores = torch.sigmoid(logits)
    if not (scores > threshold).any():
        return None
    return scores
"""


def test_a_no_grad_function_on_data_not_weights_stays_a_step() -> None:
    assert _codes(POST) == [("XLA350", 8)]  # post-processing of outputs: no weights, every batch


OPTIMIZER = """
import torch


class Lion(torch.optim.Optimizer):
    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                update = torch.sign(p.grad)
                p.data.add_(update, alpha=-group["lr"])
                if not torch.isfinite(update).all():
                    raise ValueError("non-finite update")
"""


def test_an_optimizer_step_on_weights_stays_a_step() -> None:
    assert _codes(OPTIMIZER) == [("XLA350", 12)]  # it updates the weights at every step
    plain = OPTIMIZER.replace("class Lion(torch.optim.Optimizer):", "class Lion:").replace(
        "self.param_groups", "self.groups")
    assert _codes(plain) == []  # the same weight update with no optimizer: set-up
