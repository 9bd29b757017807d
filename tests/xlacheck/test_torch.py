"""PyTorch/XLA support: the torch adapter of the value/context model, the generated op table, and
the compiler's word on a sample of the case corpus.

The tests that need torch_xla run it in a subprocess: the interpreter of this test run when it
has torch_xla (the ``[torch-xla]`` extra), else the one named by ``XLACHECK_TORCH_XLA_PYTHON``
(for example ``/work/.venv-xla/bin/python``); without either they are skipped with the reason.
xlacheck itself never imports torch.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from xlacheck.analysis.contexts import analyze_module
from xlacheck.analysis.torch_model import TENSOR, build_torch_facts, op_table
from xlacheck.engine import check_source

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "eval_cases" / "torch_xla"


def _codes(src: str, *, declared: bool = False, preview: bool = False) -> list[str]:
    found = check_source(textwrap.dedent(src), "t.py", torch_xla=declared, preview=preview).diagnostics
    return [d.code for d in found]


XLA_LOOP = """
import torch
import torch_xla
import torch_xla.core.xla_model as xm
import torch.nn.functional as F

def train(model, loader, opt, log):
    device = torch_xla.device()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        {line}
        loss.backward()
        opt.step()
        xm.mark_step()
"""


@pytest.mark.parametrize(("line", "code"), [
    ("log(loss.item())", "XLA350"),
    ("print(loss)", "XLA350"),
    ("log(float(loss))", "XLA350"),
    ("log(loss.detach().cpu().tolist())", "XLA350"),
    ("log(loss.detach().cpu().numpy())", "XLA350"),
    ("logp = F.log_softmax(model(x), -1); keep = logp.argmax(-1) != 0; loss = loss + logp[keep].sum()", "XLA250"),
    ("loss = loss + torch.median(loss)", "XLA351"),
    ("loss = loss + torch.unique(y).float().sum()", "XLA250"),
])
def test_findings_in_a_proven_step(line: str, code: str) -> None:
    assert code in _codes(XLA_LOOP.replace("{line}", line))


@pytest.mark.parametrize("line", [
    "xm.add_step_closure(log, args=(loss,))",  # the recommended fix: runs after the step's graph
    "log(loss)",  # an unknown function of a tensor: no read proven
    "log(x.shape[0])",  # a static fact
    "log(torch.randn(4, device='cpu').numpy())",  # built on the CPU: no XLA graph to run
    "log(torch.from_numpy(log.buffer).sum().item())",  # host memory
    "loss = loss + torch.kthvalue(loss.reshape(1), 1).values.sum()",  # lowered per the table
    "loss = torch.where(torch.isnan(loss), torch.zeros_like(loss), loss)",  # three-argument where
])
def test_no_finding_for_what_lowers_or_stays_on_the_device(line: str) -> None:
    assert _codes(XLA_LOOP.replace("{line}", line)) == []


def test_a_read_after_the_sync_waits_for_the_device_unless_every_n() -> None:
    """Not a cut (the graph already ran), but the oracle measures a transfer in every step
    (eval_cases/torch_xla host_item_after_sync_micro_steps, host_loss_item_after_mark_step_each_step):
    flagged with its own message and no closure fix; every N steps it is the documented pattern."""
    src = XLA_LOOP.replace("        xm.mark_step()\n", "        xm.mark_step()\n        log(loss.item())\n")
    found = check_source(textwrap.dedent(src.replace("{line}", "pass")), "t.py").diagnostics
    assert [d.code for d in found] == ["XLA350"] and "after the sync" in found[0].message and found[0].fix is None
    every_n = src.replace("    for x, y in loader:", "    for step, (x, y) in enumerate(loader):").replace(
        "        log(loss.item())", "        if step % 50 == 0:\n            log(loss.item())")
    assert _codes(every_n.replace("{line}", "pass")) == []


def test_a_helper_called_only_every_n_steps_reads_every_n_steps() -> None:
    """A function the step calls only under ``if step % n == 0:`` (directly or through another such
    helper) runs every n-th step: its reads are the documented pattern. One call outside such a
    block (here: after the loop's every-n block, in every step) makes it step code again."""
    helpers = """
    def save(model):
        torch.save({"w": model.weight.detach().cpu()}, "w.pt")
    def checkpoint(model):
        save(model)
    """
    src = textwrap.dedent(helpers) + textwrap.dedent(XLA_LOOP).replace(
        "    for x, y in loader:", "    for step, (x, y) in enumerate(loader):")
    every_n = src.replace("{line}", "if step % 500 == 0:\n            checkpoint(model)")
    assert _codes(every_n) == []
    every_step = src.replace("{line}", "if step % 500 == 0:\n            checkpoint(model)\n        save(model)")
    assert _codes(every_step) == ["XLA350"]


def test_a_declared_no_grad_function_sets_up_and_reads_its_output_once_per_call() -> None:
    """A declared @torch.no_grad()/inference_mode() function whose torch work runs in a loop (a decode
    loop, a denoising loop, an evaluation over a loader) allocates before the loop and reads its
    output after it once per call: no XLA553 ("every step") there, no XLA350 after the loop or in a
    helper only the output phase calls. Reads inside the loop, and in a function without a loop,
    are still reads in the step."""
    src = """
    import torch

    def finish(tokens):
        return tokens.cpu().numpy()

    @torch.no_grad()
    def generate(model, prompt, steps, device):
        tokens = torch.tensor(prompt, device=device)
        done = torch.zeros(tokens.shape[0]).to(device)
        for pos in range(1, steps):
            logits = model(tokens[:, :pos])
            tokens[:, pos] = torch.argmax(logits[:, -1], dim=-1)
            {line}
        return finish(tokens), tokens.tolist()
    """
    assert _codes(src.replace("{line}", "pass"), declared=True) == []
    stop = "if (tokens[:, pos] == 2).all():\n                break"
    assert _codes(src.replace("{line}", stop), declared=True) == ["XLA350"]
    no_loop = """
    import torch

    @torch.no_grad()
    def score(model, x):
        out = model(x)
        if out.max() > 1:
            out = out / out.max()
        return out
    """
    assert _codes(no_loop, declared=True) == ["XLA350"]


def test_no_step_without_proof() -> None:
    """A torch training step in a file that never names torch_xla is not a torch_xla step, unless declared."""
    src = """
    import torch
    import torch.nn.functional as F
    def train_step(model, opt, x, y):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss.item()
    """
    assert _codes(src) == []
    assert _codes(src, declared=True) == ["XLA350"]


def test_unknown_values_are_not_tensors() -> None:
    src = textwrap.dedent("""
    import torch
    import torch_xla
    def train(model, loader, opt, stats):
        for batch in loader:
            n = stats.item()
            if batch:
                pass
            loss = model(batch).sum()
            loss.backward()
            opt.step()
            torch_xla.sync()
    """)
    tree = ast.parse(src)
    facts = build_torch_facts(tree, analyze_module(tree))
    assert facts.steps, "the loop that syncs is a step"
    names = {n.id: facts.of(n) for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in ("stats", "batch")}
    assert not any(v & TENSOR for v in names.values())
    assert _codes(src) == []


def test_operands_of_tensor_only_operators_are_tensors() -> None:
    """A module's output or a batch item under `-`, `/`, `**` or `@` is a tensor (no tuple, dict or
    ModelOutput has them); under `+` or `*` it may be a tuple being joined, so it stays unproven."""
    def loop(expr: str) -> str:
        return ("import torch_xla\ndef train(model, loader, opt, device, log):\n    for x, y in loader:\n"
                "        x, y = x.to(device), y.to(device)\n"
                f"        loss = {expr}\n        log.append(loss.item())\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n")
    assert _codes(loop("((model(x) - y) ** 2).mean()")) == ["XLA350"]
    assert _codes(loop("(model(x) / 2).sum()")) == ["XLA350"]
    assert _codes(loop("(model(x) + y).mean()")) == []


def test_items_of_a_plain_dataloader_stay_on_the_cpu_until_moved() -> None:
    src = textwrap.dedent("""
    import torch_xla
    from torch.utils.data import DataLoader
    def train(model, opt, ds, device):
        for x, lengths in DataLoader(ds, batch_size=4, drop_last=True):
            n = int(lengths.max())
            x = x.to(device)
            loss = model(x[:, :n]).sum()
            loss.backward()
            opt.step()
            torch_xla.sync()
    """)
    # no host read (lengths stays on the CPU); the slice of the moved batch at a per-batch length
    # recompiles for each value (XLA450: x[:, :n] is a multi-axis index, so x is a tensor)
    # (preview: XLA450 is behind --preview, below 90% true on real code)
    assert _codes(src, preview=True) == ["XLA450"]
    moved = src.replace("x = x.to(device)", "x, lengths = x.to(device), lengths.to(device)")
    moved = moved.replace("        n = int(lengths.max())\n", "").replace(
        "        loss = model", "        n = int(lengths.max())\n        loss = model")
    assert [c for c in _codes(moved) if c != "XLA450"] == ["XLA350"]
    collate = src.replace("drop_last=True)", "drop_last=True, collate_fn=to_device)")
    # a collate_fn may move the batch: no CPU claim
    assert [c for c in _codes(collate) if c != "XLA450"] == ["XLA350"]


STEP_FUNCTION = """
import torch
import torch.nn.functional as F
def train_step(model, opt, ids, labels, lengths):
    {line}
    loss = F.cross_entropy(model(ids), labels)
    loss.backward()
    opt.step()
"""


@pytest.mark.parametrize(("line", "code"), [
    ("n = int(lengths.max())", "XLA350"),  # an array method proves the parameter (no list/int has .max())
    ("n = ids[:, :2].sum().item()", "XLA350"),  # several axes and a slice: an array
    ("keep = labels != -100; loss0 = model(ids)[keep]", "XLA250"),  # a comparison indexing a proven tensor: a mask
    ("pos = (labels != -100).nonzero()", "XLA250"),  # .nonzero() settles that the comparison was a tensor
    ("m = lengths.bool(); h = model(ids)[m]", "XLA250"),
])
def test_what_a_step_does_with_a_parameter_proves_it(line: str, code: str) -> None:
    assert code in _codes(STEP_FUNCTION.replace("{line}", line), declared=True)


@pytest.mark.parametrize("line", [
    "n = len(lengths)",  # len() of anything: no proof
    "lengths = [1, 2]; n = max(lengths)",  # rebound to a list: no proof from the parameter
    "flag = ids == 0",  # a comparison nobody uses as an index stays unknown
    "i = lengths[~0]",  # `~` on an int is an index idiom, not a mask
])
def test_no_proof_from_what_anything_could_do(line: str) -> None:
    assert _codes(STEP_FUNCTION.replace("{line}", line), declared=True) == []


CLOSURE_STEP = """
import torch
import torch.nn as nn
import torch.nn.functional as F
class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(4, 4)
        self.out = nn.Linear(4, 9)
        self.width = 4
def make_step(model, q, opt, bank):
    def train_step(s, a, h):
        {line}
        loss = F.mse_loss(q(s).gather(1, a), s)
        loss.backward()
        opt.step()
    return train_step
"""


@pytest.mark.parametrize(("line", "code"), [
    # a closure's free name proven by the closure's code: q(s).gather(...) makes q a tensor-returning callable
    ("best = q(s).argmax().item()", "XLA350"),
    # model.cell: the name the file's nn.Module classes give a submodule; its output is a tensor
    ("if model.out(model.cell(s, h)).argmax(-1)[0] == 2: pass", "XLA350"),
    # .cpu() on a module's output: no tuple, dict or ModelOutput has it, so it is a tensor's copy
    ("bank.append(q(s).cpu())", "XLA350"),
])
def test_closures_and_submodules_prove_tensors(line: str, code: str) -> None:
    assert code in _codes(CLOSURE_STEP.replace("{line}", line), declared=True)


@pytest.mark.parametrize("line", [
    "w = model.width",  # a plain attribute, not a submodule
    "n = q.count(1)",  # a method of the callable itself proves nothing about it
    "if model.width > 2: pass",
    "if model.encode(s) == 2: pass",  # not a submodule name any class builds: unknown
])
def test_no_proof_from_closures_without_evidence(line: str) -> None:
    assert _codes(CLOSURE_STEP.replace("{line}", line), declared=True) == []


def test_module_forward_is_a_step_only_when_declared() -> None:
    src = """
    import torch
    from torch import nn
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)
        def forward(self, x):
            h = self.fc(x)
            if h.sum() > 0:
                h = -h
            return h
    """
    assert _codes(src) == []
    assert _codes(src, declared=True) == ["XLA350"]


def test_a_finding_deep_in_step_code_names_the_root_step_once() -> None:
    """Step code three calls below a declared forward: the message says so in one parenthesis,
    not one "called from step code (...)" per call."""
    src = """
    import torch
    from torch import nn
    def clip(h):
        if h.sum() > 0:
            h = -h
        return h
    def norm(h):
        return clip(h)
    def mix(h):
        return norm(h)
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)
        def forward(self, x):
            return mix(self.fc(x))
    """
    (finding,) = check_source(textwrap.dedent(src), "t.py", torch_xla=True).diagnostics
    assert finding.code == "XLA350" and finding.line == 5
    assert "inside a torch_xla step (called from step code, 3 calls deep: Net.forward, torch code declared to run " \
        "on XLA)" in finding.message, finding.message


def test_torch_compile_openxla_is_a_step() -> None:
    src = """
    import torch
    @torch.compile(backend="openxla")
    def step(x):
        y = torch.relu(x)
        return y[y > 0].sum()
    """
    assert _codes(src) == ["XLA250"]


# -- the generated table -------------------------------------------------------------------------
def test_table_header_and_measured_facts() -> None:
    table = op_table()
    assert table["torch_version"].startswith("2.9.0") and table["torch_xla_version"] == "2.9.0"
    ops = table["ops"]
    assert len(ops) > 900
    for name in ("torch.median", "torch.histc", "torch.bucketize", "torch.isin", "torch.linalg.det",
                 "torch.nonzero", "torch.masked_select", "torch.unique", "torch.bincount"):
        assert ops[name]["status"] == "fallback", name
    for name in ("torch.kthvalue", "torch.cumsum", "torch.topk", "torch.sort", "torch.matmul"):
        assert ops[name]["status"] == "lowered", name
    rows = {json.dumps(r["when"], sort_keys=True): r["status"] for r in table["argument_dependent"]["torch.multinomial"]}
    assert rows['{"num_samples": 1}'] == "lowered" and rows['{"num_samples": 2}'] == "fallback"
    # backward probes: the forward lowers, the backward kernel runs on the CPU (or lowers too)
    assert ops["torch.nn.functional.glu"]["backward"] == "fallback"
    assert ops["torch.nn.functional.glu"]["backward_aten"] == ["aten::glu_backward"]
    for name in ("torch.relu", "torch.matmul", "torch.nn.functional.softmax", "torch.nn.functional.layer_norm"):
        assert ops[name].get("backward") == "lowered", name
    # a backward that raises on the XLA device (its forward lowers, the CPU runs both) is recorded, not dropped
    for name in ("torch.logdet", "torch.slogdet", "torch.linalg.slogdet"):
        assert ops[name]["backward"] == "xla_error", name
        assert ops[name]["backward_error"].startswith("RuntimeError: Expected a proper Tensor but got None"), name
    assert ops["torch.abs_"]["backward"] == "not_exercised" and ops["torch.abs_"]["backward_reason"]
    # modules: the functional op each forward calls, and the constructor argument that sets each parameter
    modules = table["modules"]
    assert modules["torch.nn.EmbeddingBag"]["function"] == "torch.nn.functional.embedding_bag"
    assert modules["torch.nn.EmbeddingBag"]["arguments"]["mode"] == "mode"
    assert modules["torch.nn.UpsamplingBilinear2d"]["fixed"]["mode"] == "bilinear"
    assert "torch.nn.Sequential" not in modules  # no functional op of its own


def _torch_xla_python() -> str:
    if importlib.util.find_spec("torch_xla") is not None:
        return sys.executable
    other = os.environ.get("XLACHECK_TORCH_XLA_PYTHON")
    if other and Path(other).exists():
        return other
    pytest.skip("torch_xla is not installed here: install the [torch-xla] extra or set XLACHECK_TORCH_XLA_PYTHON "
                "to a Python that has torch==2.9.0 and torch_xla==2.9.0")


SAMPLE_OPS = ("torch.median", "torch.histc", "torch.isin", "torch.nonzero", "torch.unique", "torch.cumsum",
              "torch.kthvalue", "Tensor.masked_fill", "torch.nn.functional.grid_sample", "torch.topk",
              "probe:torch.multinomial#0", "probe:torch.multinomial#1", "probe:torch.nn.functional.interpolate#2",
              "probe:torch.nn.functional.interpolate#6", "backward:torch.nn.functional.glu", "backward:torch.relu",
              # adaptive pools: the same output size lowers on an input it divides and falls back on one it does not
              "probe:torch.nn.functional.adaptive_avg_pool2d#2", "probe:torch.nn.functional.adaptive_avg_pool2d#3",
              "probe:torch.nn.functional.adaptive_max_pool2d#2", "probe:torch.nn.functional.adaptive_max_pool2d#3",
              # the rest of the family: a 3-d max pool falls back even to 1, a 3-d average pool to 3 on 8
              "probe:torch.nn.functional.adaptive_max_pool3d#0", "probe:torch.nn.functional.adaptive_avg_pool3d#2")


def test_table_sample_rerun_on_torch_xla(tmp_path: Path) -> None:
    python = _torch_xla_python()
    names = tmp_path / "names.json"
    names.write_text(json.dumps(SAMPLE_OPS))
    out = tmp_path / "out.jsonl"
    env = {**os.environ, "PJRT_DEVICE": "CPU"}
    subprocess.run([python, str(ROOT / "tools" / "generate_torch_table.py"), "--worker", str(names), str(out)],
                   check=True, env=env, timeout=900, capture_output=True)
    table = op_table()
    got = {r["name"]: r for r in map(json.loads, out.read_text().splitlines()) if "name" in r}
    for name in SAMPLE_OPS:
        if name.startswith("probe:"):
            op, i = name[6:].rsplit("#", 1)
            expected = table["argument_dependent"][op][int(i)]["status"]
        elif name.startswith("backward:"):
            expected = table["ops"][name[9:]]["backward"]
        else:
            expected = table["ops"][name]["status"]
        assert got[name]["status"] == expected, (name, got[name])


# -- the compiler labels a sample of the corpus (an independent harness, not the shared oracle) ------
_HARNESS = r'''
import importlib.util, json, sys
import torch, torch_xla
import torch_xla.debug.metrics as met
device = torch_xla.device()  # before any CPU autograd
spec = importlib.util.spec_from_file_location("case", sys.argv[1])
case = importlib.util.module_from_spec(spec); spec.loader.exec_module(case)
torch.manual_seed(0)
fn, args = case.ENTRY(device)
steps = [args] * getattr(case, "REPEAT", 3) + list(case.ALT_ARGS(device) if hasattr(case, "ALT_ARGS") else [])
sync = getattr(case, "MARK_STEP", True)
torch_xla.sync(); met.clear_all()
def count(name):
    data = met.metric_data(name)
    return data[0] if data else 0
def aten():
    return {n: met.counter_value(n) for n in met.counter_names() if n.startswith("aten::") and n != "aten::_local_scalar_dense"}
fail = []
for i, a in enumerate(steps):
    c0, t0, a0 = count("CompileTime"), count("TransferFromDeviceTime"), aten()
    fn(*a)
    t1 = count("TransferFromDeviceTime")
    if sync:
        torch_xla.sync()
    if i >= 2:
        if count("CompileTime") > c0: fail.append("recompile")
        if t1 > t0: fail.append("host_sync")
    if aten() != a0: fail.append("fallback")
print(json.dumps(sorted(set(fail))))
'''

SAMPLE_CASES = ("host_tqdm_postfix_loss_item.py", "neg_host_accumulate_loss_on_device.py",
                "op_median_robust_loss.py", "neg_op_mean_robust_loss.py", "shape_masked_select_confident.py",
                "neg_shape_masked_sum_confident.py", "recompile_warmup_factor_reaches_one.py",
                "neg_recompile_scale_schedule_no_special_value.py",
                # issue 12, third pass: a callable object's torch.isin, an adaptive pool to 5x5 on 16x16 maps,
                # a read after the step's own sync
                "op_suppress_tokens_processor_isin.py", "op_adaptive_avg_pool_5x5_spp_head.py",
                "host_loss_item_after_mark_step_each_step.py", "neg_host_loss_item_after_mark_step_every_n.py",
                # torch-variants: a literal variant that falls back and its lowered near miss; a mask proven
                # by masked_fill and an integer index that stays a gather
                "op_scatter_reduce_graph_max_pool_include_self_false.py",
                "neg_op_scatter_reduce_graph_max_pool_neg_inf_init.py",
                "shape_mlm_select_mask_param_masked_fill.py", "neg_shape_token_ids_index_select_param.py",
                # data lengths reaching the step: a packing collate, and the same stream padded to a budget
                "recompile_collate_packs_documents_cat.py", "neg_recompile_collate_packs_to_token_budget.py",
                # torch-recall5: a size drawn per step resizes the batch; a random factor only multiplied in
                "recompile_multiscale_resize_random_size.py", "neg_recompile_random_brightness_fixed_zoom.py")


@pytest.mark.parametrize("name", SAMPLE_CASES)
def test_compiler_agrees_with_labels_and_xlacheck(name: str, tmp_path: Path) -> None:
    python = _torch_xla_python()
    harness = tmp_path / "harness.py"
    harness.write_text(_HARNESS)
    env = {**os.environ, "PJRT_DEVICE": "CPU", "USE_TORCH_XLA": "1"}
    proc = subprocess.run([python, str(harness), str(CASES / "cases" / name)], env=env,
                          capture_output=True, text=True, timeout=900, check=True)
    flags = json.loads(proc.stdout.strip().splitlines()[-1])
    label = json.loads((CASES / "labels.json").read_text())[name]
    assert bool(flags) == bool(label["xla_fail"]), (flags, label["label"])
    source = (CASES / "cases" / name).read_text().split("# --- oracle ---")[0]
    # every claim xlacheck can make, those behind --preview too (XLA352 on an adaptive pool), against the compiler
    assert bool(check_source(source, name, torch_xla=True, preview=True).diagnostics) == bool(flags)


def test_prefilter_and_frameworks_let_torch_xla_only_files_through() -> None:
    from xlacheck.discovery import ML_MENTION

    src = b"import torch_xla.core.xla_model as xm\n"
    assert ML_MENTION.search(src)
    assert "torch" in analyze_module(ast.parse(src.decode())).aliases.frameworks


def test_repeat_interleave_with_a_python_repeats_keyword_is_static() -> None:
    """transformers' DiTCodecEmbedding: repeats=self.repeats (an int from __init__) is not the one-argument form."""
    src = XLA_LOOP.replace("{line}", "h = torch.repeat_interleave(torch.relu(x), repeats=3, dim=1)")
    assert _codes(src) == []
    src = XLA_LOOP.replace("{line}", "h = torch.repeat_interleave(torch.relu(x), y.long(), dim=0)")
    assert _codes(src) == ["XLA250"]


def test_own_cases_are_labelled_and_split_by_name_hash() -> None:
    """eval_cases/torch_xla: every case labelled by the oracle, the split fixed by sha1(name) before labelling."""
    import hashlib

    names = sorted(p.name for p in (CASES / "cases").glob("*.py"))
    labels = json.loads((CASES / "labels.json").read_text())
    split = json.loads((CASES / "split.json").read_text())
    assert len(names) >= 40 and set(labels) == set(names) == set(split)
    for name in names:
        assert split[name] == ("validation" if int(hashlib.sha1(name.encode()).hexdigest(), 16) % 3 == 0 else "train")
        assert labels[name]["xla_fail"] != name.startswith("neg_"), (name, labels[name]["label"])
        assert "Source: " in (CASES / "cases" / name).read_text().split('"""')[1], name


def test_a_function_that_loops_over_steps_is_not_itself_a_step() -> None:
    """accelerate's examples read `total_loss.item()` once per epoch, after the step loop: not in a step."""
    src = """
    import torch
    def training_function(model, optimizer, loader, epochs, log):
        for epoch in range(epochs):
            total_loss = 0
            for batch in loader:
                outputs = model(**batch)
                loss = outputs.loss
                total_loss += loss.detach().float()
                loss.backward()
                optimizer.step()
                log(loss.item())
            log(total_loss.item())
    """
    diags = check_source(textwrap.dedent(src), "t.py", torch_xla=True).diagnostics
    assert [(d.code, d.line) for d in diags] == [("XLA350", 12)]


def test_cli_torch_xla_flag(tmp_path: Path) -> None:
    from xlacheck.cli import main

    step = tmp_path / "step.py"
    step.write_text(textwrap.dedent("""
    import torch
    def train_step(model, opt, x):
        loss = torch.relu(model(x)).sum()
        loss.backward()
        opt.step()
        return loss.item()
    """))
    assert main([str(step), "--no-cache", "-q"]) == 0
    assert main([str(step), "--no-cache", "-q", "--torch-xla"]) == 1


TRAINED_MODULE = """
import torch
import torch.nn as nn
import torch.nn.functional as F
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        {init}
        self.fc = nn.Linear(4, 4)
    def forward(self, x, y=None):
        x = self.fc(x)  # a layer's output: autograd records what follows
        {forward}
        return self.fc(x)
def make_train_step(model, opt):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    return train_step
"""


@pytest.mark.parametrize(("init", "forward", "where"), [
    # the forward of F.glu lowers, its backward (aten::glu_backward) does not: a training file runs it
    ("pass", "x = F.glu(torch.cat([x, x], 1), dim=1)", "forward"),
    ("pass", "x = F.interpolate(x[:, :, None, None], size=(2, 2), mode='bilinear').mean((2, 3))", "forward"),
    # modules are their forward's functional op with the constructor's arguments (table: modules)
    ("self.bag = nn.EmbeddingBag(10, 4, mode='mean')", "x = x + self.bag(x.long())", "init"),
    ("self.bag = nn.EmbeddingBag(10, 4)", "x = x + self.bag(x.long())", "init"),  # mean is the default
    # mode='sum' lowers without grad; a training step's weight requires grad, and autograd dispatches
    # aten::_embedding_bag, which runs on the CPU (the table's variant `grad` rows; the oracle agrees on
    # eval_cases/torch_xla/cases/op_embedding_bag_sum_bag_of_words.py)
    ("self.bag = nn.EmbeddingBag(10, 4, mode='sum')", "x = x + self.bag(x.long())", "init"),
    ("self.glu = nn.GLU(1)", "x = self.glu(torch.cat([x, x], 1))", "init"),
    ("self.up = nn.Upsample(scale_factor=2, mode='bilinear')", "x = self.up(x[:, :, None, None]).mean((2, 3))", "init"),
])
def test_backward_and_module_fallbacks_in_a_training_file(init: str, forward: str, where: str) -> None:
    src = TRAINED_MODULE.replace("{init}", init).replace("{forward}", forward)
    line = next(i for i, text in enumerate(src.splitlines(), 1) if (init if where == "init" else forward) in text)
    found = [(d.line, d.code) for d in check_source(src, "t.py", torch_xla=True).diagnostics]
    assert (line, "XLA351") in found


@pytest.mark.parametrize(("init", "forward"), [
    ("pass", "x = torch.relu(x)"),  # forward and backward lower
    ("self.up = nn.Upsample(scale_factor=2)", "x = self.up(y[:, :, None, None]).mean((2, 3))"),  # on the input
    ("pass", "with torch.no_grad():\n            x = F.glu(torch.cat([x, x], 1), dim=1)"),  # no backward there
    # the input batch itself: autograd records nothing before the op, so no backward kernel runs for it
    ("pass", "x = F.interpolate(y[:, :, None, None], size=(2, 2), mode='bilinear').mean((2, 3))"),
])
def test_no_backward_or_module_finding_where_everything_lowers(init: str, forward: str) -> None:
    src = TRAINED_MODULE.replace("{init}", init).replace("{forward}", forward)
    assert [d.code for d in check_source(src, "t.py", torch_xla=True).diagnostics] == []


def test_backward_fallbacks_need_a_training_step() -> None:
    src = TRAINED_MODULE.replace("{init}", "pass").replace("{forward}", "x = F.glu(torch.cat([x, x], 1), dim=1)")
    inference = src.replace("loss.backward()", "pass")
    assert [d.code for d in check_source(inference, "t.py", torch_xla=True).diagnostics] == []


def test_tpu_only_backward_lowering_is_named_in_the_message() -> None:
    # torch_xla lowers the nearest/bilinear 2-D upsampling backward on TPU only (aten_xla_type.cpp)
    src = TRAINED_MODULE.replace("{init}", "pass").replace(
        "{forward}", "x = F.interpolate(x[:, :, None, None], size=(2, 2)).mean((2, 3))")
    messages = [d.message for d in check_source(src, "t.py", torch_xla=True).diagnostics]
    assert len(messages) == 1
    assert "aten::upsample_nearest2d_backward" in messages[0] and "lowers it on TPU" in messages[0]


def test_a_module_built_by_another_module_gets_its_callers_arguments() -> None:
    # Generator.forward feeds Block.forward a trainable tensor: Block's upsampling has a backward
    src = """
import torch
import torch.nn as nn
import torch.nn.functional as F
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="bilinear")
    def forward(self, x):
        return self.up(x)
class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.const = nn.Parameter(torch.randn(1, 2, 4, 4))
        self.block = Block()
    def forward(self, w):
        return self.block(self.const.expand(w.size(0), -1, -1, -1)) * w[:, None, None, None]
def train_step(gen, opt, w):
    loss = gen(w).mean()
    loss.backward()
    opt.step()
"""
    assert [(d.line, d.code) for d in check_source(src, "t.py", torch_xla=True).diagnostics] == [(8, "XLA351")]
    fed_input = src.replace("self.block(self.const.expand(w.size(0), -1, -1, -1))", "self.block(w)")
    assert check_source(fed_input, "t.py", torch_xla=True).diagnostics == ()


METRIC_STEP = """
import torch
class Counts:
    def __init__(self, n):
        self.n = n
        self.total = torch.zeros(n * n, dtype=torch.long)
    def update(self, preds, target):
        self.total += torch.bincount(target * self.n + preds, minlength=self.n * self.n)
def make_eval_step(model, metric, stats):
    @torch.no_grad()
    def eval_step(x, y):
        preds = model(x).argmax(-1)
        {line}
        return preds
    return eval_step
"""


def test_a_method_handed_tensors_on_an_object_of_unknown_type_runs_in_the_step() -> None:
    # metric.update(preds, y): no dict, optimizer or container method takes a tensor there; the one
    # same-file class with an `update` method runs in the step (bincount falls back: aten::bincount)
    src = METRIC_STEP.replace("{line}", "metric.update(preds, y)")
    assert [(d.line, d.code) for d in check_source(src, "t.py", torch_xla=True).diagnostics] == [(8, "XLA351")]


@pytest.mark.parametrize("line", [
    "stats.update({'n': 1})",  # a dict's update: no tensor passed
    "stats.update(n=1)",
    "metric.update(preds.sum().item(), 1)",  # a Python number: not a tensor hand-off (the .item() is found)
])
def test_no_loose_method_without_a_tensor_argument(line: str) -> None:
    src = METRIC_STEP.replace("{line}", line)
    assert "XLA351" not in [d.code for d in check_source(src, "t.py", torch_xla=True).diagnostics]


WRAPPED = """
import torch
import torch.nn as nn
from torch.nn.utils import weight_norm, remove_weight_norm
class Vocoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = {wrap}(nn.Conv1d(4, 4, 3, padding=1))
    def forward(self, x):
        return self.conv(x)
    {extra}
"""


@pytest.mark.parametrize(("wrap", "extra", "found"), [
    # weight_norm recomputes the weight with torch._weight_norm each forward (aten::_weight_norm_interface)
    ("weight_norm", "", True),
    ("torch.nn.utils.parametrizations.weight_norm", "", True),
    ("torch.nn.utils.spectral_norm", "", False),  # the table's probe: it lowers
    # removed before inference (a vocoder's remove_weight_norm) in a file that does not train: no cost
    ("weight_norm", "def remove(self):\n        remove_weight_norm(self.conv)", False),
])
def test_module_wrappers_from_the_table(wrap: str, extra: str, found: bool) -> None:
    src = WRAPPED.replace("{wrap}", wrap).replace("{extra}", extra)
    codes = [(d.line, d.code) for d in check_source(src, "t.py", torch_xla=True).diagnostics]
    assert codes == ([(8, "XLA351")] if found else [])


def test_a_wrapper_picked_through_a_local_name_and_wrapped_on_two_paths_is_one_finding() -> None:
    # transformers' wav2vec2 positional convolution: the wrapper through a local name, applied on a
    # DeepSpeed path and on the general one; one finding, on the last (the path an XLA run takes)
    src = """
import torch.nn as nn
class PosConv(nn.Module):
    def __init__(self, zero3):
        super().__init__()
        self.conv = nn.Conv1d(4, 4, 3, padding=1)
        weight_norm = nn.utils.weight_norm
        if hasattr(nn.utils.parametrizations, "weight_norm"):
            weight_norm = nn.utils.parametrizations.weight_norm
        if zero3:
            self.conv = weight_norm(self.conv, name="weight", dim=2)
        else:
            self.conv = weight_norm(self.conv, name="weight", dim=2)
    def forward(self, x):
        return self.conv(x)
"""
    assert [(d.line, d.code) for d in check_source(src, "t.py", torch_xla=True).diagnostics] == [(13, "XLA351")]


@pytest.mark.parametrize(("mode", "found"), [("linear", True), ("nearest", False), ("bilinear", False)])
def test_interpolate_modes_that_fall_back_in_the_forward(mode: str, found: bool) -> None:
    # mode="linear" (1-D) has no lowering (aten::upsample_linear1d); the 2-D forwards lower
    src = f"""
import torch
import torch.nn.functional as F
@torch.no_grad()
def upsample(model, x):
    return F.interpolate(model(x), scale_factor=2, mode="{mode}")
"""
    assert [d.code for d in check_source(src, "t.py", torch_xla=True).diagnostics] == (["XLA351"] if found else [])


# -- XLA554: torch_xla itself raises on a join of a CPU-built tensor with XLA tensors ----------------------
_JOIN = """
import torch
import torch_xla


@torch_xla.compile
def step(model, x):
    h = model(x)
    return torch.{join}([h, torch.arange(h.shape[1]).float().expand(h.shape[0], -1)]{dim})
"""
_JOIN_RUN = r"""
import sys, torch, torch_xla
d = torch_xla.device()
src = sys.stdin.read().replace("@torch_xla.compile\n", "")  # the same lazy trace, callable on the CPU too
ns = {}
exec(compile(src, "case.py", "exec"), ns)
torch.manual_seed(0)
model, x = torch.nn.Linear(4, 3), torch.randn(2, 4)
cpu = ns["step"](model, x)
try:
    out = ns["step"](model.to(d), x.to(d))
    torch_xla.sync()
    print("ok", bool(torch.allclose(out.cpu(), cpu, atol=1e-5)))
except RuntimeError as exc:
    print("RuntimeError", str(exc).splitlines()[0])
"""


@pytest.mark.parametrize("join, dim", [("cat", ", 1"), ("stack", "")])
def test_xla554_join_of_a_cpu_built_tensor_raises_on_torch_xla_and_the_fix_is_equal(join: str, dim: str) -> None:
    from xlacheck.rewrites._fix import apply_edits

    python = _torch_xla_python()
    env = {**os.environ, "PJRT_DEVICE": "CPU"}
    src = textwrap.dedent(_JOIN.format(join=join, dim=dim))
    found = [d for d in check_source(src, "t.py").diagnostics if d.code == "XLA554"]
    assert len(found) == 1 and found[0].fix is not None and found[0].fix.applicability.value == "safe"
    fixed = apply_edits(src, found[0].fix.edits)
    assert "torch.arange(h.shape[1], device=h.device)" in fixed and _codes(fixed) == []
    results = {}
    for name, code in (("original", src), ("fixed", fixed)):
        proc = subprocess.run([python, "-c", _JOIN_RUN], input=code, env=env, capture_output=True, text=True,
                              timeout=600, check=True)
        results[name] = proc.stdout.strip().splitlines()[-1]
    assert results["original"].startswith("RuntimeError") and "XLA tensor" in results["original"], results
    assert results["fixed"] == "ok True", results  # on the device, equal to the original on the CPU


_FACTORY_PROBE = r"""
import torch, numpy as np
from xlacheck.analysis.torch_model import FACTORIES_DETERMINISTIC, FACTORIES_NO_DEVICE, FACTORIES_RANDOM
args = {"full": ((2,), 1.0), "arange": (3,), "eye": (2,), "linspace": (0, 1, 3), "logspace": (0, 1, 3),
        "randint": (0, 5, (2,)), "randperm": (3,), "tril_indices": (3, 3), "triu_indices": (3, 3),
        "normal": (0.0, 1.0, (2,)), "from_numpy": (np.ones(2),)}
for op in sorted(FACTORIES_DETERMINISTIC | FACTORIES_RANDOM | FACTORIES_NO_DEVICE):
    try:
        getattr(torch, op)(*args.get(op, ((2,),)), device="cpu")
        print(op, "device")
    except TypeError:
        print(op, "none")
"""


def test_factory_table_matches_torch() -> None:
    """The one factory table (XLA553, XLA554) against torch itself: which factories take ``device=``."""
    python = _torch_xla_python()
    proc = subprocess.run([python, "-c", _FACTORY_PROBE], env={**os.environ, "PJRT_DEVICE": "CPU",
                          "PYTHONPATH": os.getcwd()}, capture_output=True, text=True, timeout=600, check=True)
    from xlacheck.analysis.torch_model import FACTORIES_NO_DEVICE
    seen = dict(line.split() for line in proc.stdout.split("\n") if line.strip())
    assert seen and all((kind == "none") == (op in FACTORIES_NO_DEVICE) for op, kind in seen.items()), seen


@pytest.mark.parametrize(("factory", "safety", "same"), [
    ("torch.from_numpy(np.ones((h.shape[0], 1), dtype=np.float32))", "safe", True),
    ("torch.randn(h.shape[0], 1)", "unsafe", False),
])
def test_xla554_factories_without_device_or_with_random_values(factory: str, safety: str, same: bool) -> None:
    """``from_numpy`` takes no ``device=``: the fix moves it with ``.to`` (equal); ``randn`` with ``device=``
    draws from the device's generator: an unsafe fix that says the values change. Run on torch_xla."""
    from xlacheck.rewrites._fix import apply_edits

    python = _torch_xla_python()
    env = {**os.environ, "PJRT_DEVICE": "CPU"}
    src = ("import numpy as np\nimport torch\nimport torch_xla\n\n\n@torch_xla.compile\ndef step(model, x):\n"
           f"    h = model(x)\n    return torch.cat([h, {factory}], 1)\n")
    found = [d for d in check_source(src, "t.py").diagnostics if d.code == "XLA554"]
    assert len(found) == 1 and found[0].fix is not None and found[0].fix.applicability.value == safety
    assert ("same values" in found[0].fix.message) == same and ("other values" in found[0].fix.message) != same
    assert ("build it with `device=`" in found[0].message) != factory.startswith("torch.from_numpy")
    fixed = apply_edits(src, found[0].fix.edits)
    results = {}
    for name, code in (("original", src), ("fixed", fixed)):
        proc = subprocess.run([python, "-c", _JOIN_RUN], input=code, env=env, capture_output=True, text=True,
                              timeout=600, check=True)
        results[name] = proc.stdout.strip().splitlines()[-1]
    assert results["original"].startswith("RuntimeError") and "XLA tensor" in results["original"], results
    assert results["fixed"] == f"ok {same}", results  # randn: runs, but other values than on the CPU


def test_xla554_dtype_casts_and_cpu_device_names_stay_on_the_cpu() -> None:
    src = """
        import torch
        import torch_xla

        @torch_xla.compile
        def step(model, x):
            h = model(x)
            out = h.detach().cpu()
            a = torch.cat([out.to(torch.float16), torch.zeros(2, 1, dtype=torch.float16)], 1)
            cpu = torch.device("cpu")
            b = torch.cat([h.to(device=cpu), torch.zeros(2, 1)], 1)
            dev = "cpu"
            c = torch.cat([h.to(dev), torch.ones(2, 1)], 1)
            return a, b, c
    """
    assert "XLA554" not in _codes(src)
    # a cast of a CPU-built tensor is still on the CPU
    cast = src.replace("[out.to(torch.float16), ", "[h, torch.arange(2).to(torch.float16)[:, None], ")
    assert _codes(cast).count("XLA554") == 1


def test_xla554_follows_buffers_meshgrid_and_method_chains() -> None:
    """torchvision's DefaultBoxes pattern (tenstorrent/tt-xla #3335): shifts from CPU aranges through
    meshgrid/stack/reshape, joined with a registered buffer; `.to(device)` after the join is too late."""
    src = """
        import torch
        import torch.nn as nn

        class Boxes(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("wh", torch.ones(2, 2))

            def forward(self, fmap):
                f_k = fmap.size(-1)
                ys, xs = torch.meshgrid(torch.arange(f_k), torch.arange(f_k), indexing="ij")
                shifts = torch.stack([xs, ys], -1).reshape(-1, 2).float().repeat_interleave(len(self.wh), 0)
                wh = self.wh.repeat(f_k * f_k, 1)
                return torch.cat((shifts, wh), dim=1).to(fmap.device)
    """
    assert _codes(src, declared=True) == ["XLA554"]
    assert _codes(src.replace("torch.arange(f_k)", "torch.arange(f_k, device=fmap.device)"), declared=True) == []
    # all on the CPU, moved after the join: nothing to join across devices
    assert _codes(src.replace("wh = self.wh.repeat(f_k * f_k, 1)", "wh = torch.ones(f_k * f_k * 2, 2)"),
                  declared=True) == []


def test_callable_object_called_in_the_step_runs_in_the_step() -> None:
    """A stopping criterion / logits processor object: its __call__ runs in the step (XLA351 on torch.isin)."""
    src = """
        import torch
        import torch_xla

        class Eos:
            def __init__(self, ids):
                self.ids = torch.tensor(ids)

            def __call__(self, input_ids):
                return torch.isin(input_ids[:, -1], self.ids.to(input_ids.device))

        @torch_xla.compile
        def decode_step(model, criteria, ids):
            nxt = model(ids).argmax(-1)
            return criteria(torch.cat([ids, nxt[:, None]], 1))
    """
    assert _codes(src) == ["XLA351"]
    # a plain function of that name in the file is that function, not the class's __call__
    assert _codes(src + "\n        def criteria(x):\n            return x\n") == []


def test_adaptive_pool_output_sizes() -> None:
    """XLA351 claims no adaptive-pool fallback from the output size alone (the input's size decides:
    AlexNet's (6, 6) on 6x6 maps lowers); XLA352, behind --preview, guesses from it."""
    from xlacheck.rules.torch_adaptive_pool_size_may_not_divide import uncommon_divisor

    assert [n for n in range(1, 16) if uncommon_divisor(n)] == [3, 5, 6, 9, 10, 11, 12, 13, 15]
    src = textwrap.dedent(XLA_LOOP.replace("{line}", "h = torch.nn.functional.adaptive_avg_pool2d(torch.relu(x), {size})"))

    def codes(size: str, preview: bool) -> list[str]:
        return [d.code for d in check_source(src.replace("{size}", size), "t.py", preview=preview).diagnostics]

    for size in ("(3, 3)", "(6, 6)", "5"):
        assert codes(size, preview=False) == [], size
        assert codes(size, preview=True) == ["XLA352"], size
    for size in ("1", "(1, 1)", "(4, 4)", "7", "(2, None)", "n"):
        assert codes(size, preview=True) == [], size


def test_adaptive_pool_module_is_preview_only() -> None:
    src = textwrap.dedent("""
        import torch
        import torch.nn as nn
        import torch_xla

        class AlexNetHead(nn.Module):
            def __init__(self):
                super().__init__()
                self.avgpool = nn.AdaptiveAvgPool2d((6, 6))

            def forward(self, x):
                return torch.flatten(self.avgpool(x), 1)

        def evaluate(model, loader):
            for x in loader:
                model(x)
                torch_xla.sync()
    """)
    assert check_source(src, "t.py").diagnostics == ()
    assert [d.code for d in check_source(src, "t.py", preview=True).diagnostics] == ["XLA352"]
    assert check_source(src.replace("(6, 6)", "1"), "t.py", preview=True).diagnostics == ()


_STEP_ARG = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 4, 3, padding=1)

    def forward(self, x, trim):
        h = F.relu(self.conv(x))
        return torch.stack([h[b, :, beg:beg + 8] for b, (beg, _) in enumerate(trim)])


def make_train_step(model, opt):
    def train_step(x, target, trim{default}):
        opt.zero_grad()
        loss = F.mse_loss(model(x, trim), target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step
"""


def test_step_function_argument_reaching_a_slice_bound_is_a_recompile() -> None:
    """pytorch/xla #1368: per-sample offsets handed to the training step, iterated in the model's forward."""
    # (preview: XLA450 is behind --preview, below 90% true on real code)
    assert _codes(_STEP_ARG.format(default=""), declared=True, preview=True) == ["XLA450"]
    # a default value: a setting of the run, not a value of each call
    assert _codes(_STEP_ARG.format(default="=((0, 4), (1, 3))"), declared=True, preview=True) == []
    # an argument the forward uses as a tensor is a batch, not a Python value
    tensor_use = _STEP_ARG.format(default="").replace("return torch.stack([h[b, :, beg:beg + 8] for b, (beg, _) in "
                                                      "enumerate(trim)])", "return h * trim")
    assert _codes(tensor_use, declared=True, preview=True) == []


def test_step_function_argument_used_as_an_index_is_not_claimed() -> None:
    """`logits[:, idx]`: idx may be an index tensor the loop hands in; only slice bounds and sizes count."""
    src = """
        import torch
        import torch_xla

        @torch_xla.compile
        def step(model, opt, ids, idx, n):
            logits = torch.log_softmax(model(ids), -1)
            loss = logits[:, idx + 1].sum() + logits[:, :n].sum()
            loss.backward()
            opt.step()
    """
    found = check_source(textwrap.dedent(src), "t.py", preview=True).diagnostics  # XLA450 is behind --preview
    assert [(d.code, d.line) for d in found] == [("XLA450", 8)] and "`n`" in found[0].message


# -- variants: string/bool arguments that select a kernel torch_xla does not lower ---------------------------
_VARIANT = """
import torch
import torch_xla
import torch.nn.functional as F
def train(model, loader, opt, table):
    for ids, x, index in loader:
        h = torch.relu(model(x))
        {line}
        loss = h.sum()
        loss.backward()
        opt.step()
        torch_xla.sync()
"""


@pytest.mark.parametrize(("line", "found"), [
    ("e = F.embedding_bag(ids, table)", "`torch.nn.functional.embedding_bag` has no XLA lowering"),  # mode='mean'
    ("e = F.embedding_bag(ids, table, mode='mean')", "with `mode='sum'` it lowers"),
    ("e = F.embedding_bag(ids, table, mode='sum')", ""),
    ("e = F.embedding_bag(ids, table, mode='max')", ""),
    ("e = F.embedding_bag(ids, table, mode='sum', scale_grad_by_freq=True)",
     "embedding_bag(mode='sum', scale_grad_by_freq=True)` has no XLA lowering"),
    ("e = torch.scatter_reduce(h, 0, index, h, 'amax', include_self=False)",
     "scatter_reduce(include_self=False, reduce='amax')` has no XLA lowering"),
    ("e = torch.scatter_reduce(h, 0, index, h, reduce='mean')", "with `reduce='sum'` it lowers"),
    ("e = torch.scatter_reduce(h, 0, index, h, 'amax')", ""),
    ("e = h.scatter_reduce_(0, index, h, 'amax', include_self=False)",
     "tensor.scatter_reduce_(include_self=False, reduce='amax')"),
    ("e = F.interpolate(h, size=(5, 5), mode='bicubic', align_corners=False)", "mode='bicubic'"),
    ("e = F.interpolate(h, size=(5, 5), mode='bilinear', align_corners=True)", ""),
    # mode='area' is adaptive average pooling: it lowers where the output size divides the input's
    ("e = F.interpolate(h, scale_factor=0.5, mode='area')", ""),
])
def test_literal_variants_from_the_table(line: str, found: str) -> None:
    msgs = [d.message for d in check_source(_VARIANT.format(line=line), "t.py", torch_xla=True).diagnostics
            if d.code == "XLA351" and "lowers but its backward" not in d.message]  # (bilinear's backward: TPU only)
    assert (found in msgs[0] if msgs else False) if found else msgs == [], msgs


@pytest.mark.parametrize("line", [
    "e = F.embedding_bag(ids, table, mode=model.mode)",  # not a literal: unknown, not flagged
    "e = torch.scatter_reduce(h, 0, index, h, 'amax', include_self=model.keep)",
    "e = F.embedding_bag(ids, table, **model.bag_kwargs)",
])
def test_variants_with_unknown_arguments_are_not_flagged(line: str) -> None:
    assert "XLA351" not in _codes(_VARIANT.format(line=line), declared=True)


def test_variant_table_rows_are_argument_dependent_and_spelled_by_parameter() -> None:
    table = op_table()
    assert table["variants_probed"]["ops"] >= 100 and table["seconds_variants"] > 0
    for op, spec in table["variants"].items():
        assert len({r["status"] for r in spec["rows"]}) == 2, op  # only ops whose variants differ are kept
        assert all(set(r["when"]) == set(spec["parameters"]) >= set(spec["defaults"]) for r in spec["rows"]), op
    assert {"torch.nn.functional.embedding_bag", "torch.scatter_reduce"} <= set(table["variants"])
    bools = table["bool_arguments"]
    assert bools["torch.where"] == [{**bools["torch.where"][0], "name": "condition", "position": 0, "min_args": 3}]
    assert {r["name"] for r in bools["Tensor.masked_fill"]} == {"mask"}
    # torch accepts float operands for the logical ops and integers for `~`: they prove no mask
    assert not {"torch.logical_and", "torch.logical_not", "Tensor.logical_or", "torch.bitwise_not"} & set(bools)


# -- boolean masks proven by what torch accepts ------------------------------------------------------------
_MASK = """
import torch
import torch_xla
def select(hidden, predict):
    hidden = hidden.masked_fill(~predict[..., None], 0.0)
    return {use}

def train(model, loader, opt):
    for x, m in loader:
        h = model(x)
        loss = select(h, m).sum()
        loss.backward()
        opt.step()
        torch_xla.sync()
"""


@pytest.mark.parametrize(("use", "flagged"), [
    ("hidden[predict]", True),  # a bool tensor by masked_fill: boolean indexing
    ("hidden[predict.long()]", False),  # an integer index lowers to a gather
    ("hidden.sum(-1)", False),
])
def test_a_parameter_passed_as_masked_fill_mask_is_a_bool_mask(use: str, flagged: bool) -> None:
    assert ("XLA250" in _codes(_MASK.format(use=use), declared=True)) is flagged


@pytest.mark.parametrize(("body", "flagged"), [
    ("keep = batch['keep']\n        y = torch.where(keep, h, 0.0)\n        y[keep] = 1.0", True),
    ("keep = batch['keep']\n        y = h.masked_fill(keep & (h > 0), 0.0)\n        z = h[keep]", True),
    # one-argument where takes a float: it proves nothing (and is XLA250's own finding, not checked here)
    ("keep = batch['keep']\n        z = h[keep]", False),
    # integer index tensors stay unflagged: a gather with a static shape
    ("idx = batch['idx']\n        y = h.index_select(0, idx)\n        z = h[idx]", False),
    # bound twice: which value reaches the index is not proven
    ("keep = batch['keep']\n        y = torch.where(keep, h, 0.0)\n"
     "        keep = batch['idx']\n        z = h[keep]", False),
])
def test_a_local_name_passed_where_torch_takes_only_bool_is_a_mask(body: str, flagged: bool) -> None:
    src = f"""
import torch
import torch_xla
def train(model, loader, opt):
    for batch in loader:
        h = model(batch['x'])
        {body}
        loss = h.sum()
        loss.backward()
        opt.step()
        torch_xla.sync()
"""
    assert (_codes(src, declared=True).count("XLA250") > 0) is flagged


def test_variant_and_bool_argument_sample_rerun_on_torch_xla(tmp_path: Path) -> None:
    """A sample of the table's variant rows (lowered and fallback) and its bool-argument list,
    measured again on torch_xla."""
    python = _torch_xla_python()
    table = op_table()
    names = []
    for op in ("torch.nn.functional.embedding_bag", "torch.scatter_reduce", "torch.nn.functional.interpolate"):
        rows = table["variants"][op]["rows"]
        names += [f"variant:{op}@{json.dumps(next(r for r in rows if r['status'] == s)['when'])}"
                  for s in ("lowered", "fallback")]
    (tmp_path / "names.json").write_text(json.dumps(names))
    out = tmp_path / "out.jsonl"
    env = {**os.environ, "PJRT_DEVICE": "CPU"}
    subprocess.run([python, str(ROOT / "tools" / "generate_torch_table.py"), "--worker", str(tmp_path / "names.json"),
                    str(out)], check=True, env=env, timeout=900, capture_output=True)
    got = {r["name"]: r["status"] for r in map(json.loads, out.read_text().splitlines()) if "name" in r}
    for name in names:
        op, when = name[8:].split("@", 1)
        expected = next(r["status"] for r in table["variants"][op]["rows"] if r["when"] == json.loads(when))
        assert got[name] == expected, (name, got[name])
    script = ("import json, sys; sys.path.insert(0, sys.argv[1]); import torch, generate_torch_table as g; "
              "print(json.dumps(g.bool_arguments(torch, ['torch.where', 'Tensor.masked_fill', 'torch.logical_and', "
              "'Tensor.__invert__', 'torch.masked_select'])))")
    proc = subprocess.run([python, "-c", script, str(ROOT / "tools")], check=True, env=env, timeout=300,
                          capture_output=True, text=True)
    measured = json.loads(proc.stdout.strip().splitlines()[-1])
    for op, rows in measured.items():
        assert [(r["name"], r["position"]) for r in rows] == [(r["name"], r["position"]) for r in
                                                                table["bool_arguments"][op]], op
    assert set(measured) == {"torch.where", "Tensor.masked_fill", "torch.masked_select"}


@pytest.mark.parametrize(("arg", "flagged"), [
    ("y > 0", True), ("(y != -100).bool()", True), ("mask.bool()", True),
    ("idx", False),  # an integer index (or anything unproven): a gather, not a mask
])
def test_a_parameter_that_step_callers_pass_a_comparison_is_a_mask(arg: str, flagged: bool) -> None:
    src = f"""
import torch
import torch_xla
def pick(h, m):
    return h[m].sum()
def train(model, loader, opt):
    for x, y, mask, idx in loader:
        h = torch.relu(model(x))
        loss = pick(h, {arg})
        loss.backward()
        opt.step()
        torch_xla.sync()
"""
    assert ("XLA250" in _codes(src)) is flagged


@pytest.mark.parametrize(("body", "flagged"), [
    # handed to where/masked_fill and read as it came in: a bool mask at h[keep]
    ("    h = torch.where(keep[..., None], h, 0)\n    return h[keep]\n", True),
    # rebound to nonzero's integer indices before h[keep]: a gather (nonzero itself is the finding)
    ("    h = torch.where(keep[..., None], h, 0)\n    keep = keep.nonzero()\n    return h[keep]\n", False),
])
def test_a_bool_argument_proves_a_mask_only_while_the_name_holds_it(body: str, flagged: bool) -> None:
    src = ("import torch\nimport torch_xla\ndef pick(h, keep):\n" + body
           + "def train(model, loader, opt):\n    for x, m in loader:\n        loss = pick(model(x), m).sum()\n"
             "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n")
    lines = [d.line for d in check_source(src, "t.py").diagnostics if d.code == "XLA250" and "`x[mask]`" in d.message]
    assert bool(lines) is flagged, lines


CPU_LOADER = """
import torch
import torch_xla
from torch.utils.data import DataLoader, TensorDataset
def train(model, opt, x, lengths, device, xla_device, PairDataset):
{dataset}
    for ids, lens in DataLoader(ds, batch_size=8, drop_last=True):
{move}
        n = int(lens.max())
        loss = model(ids.to(device)).sum()
        loss.backward()
        opt.step()
        torch_xla.sync()
"""


@pytest.mark.parametrize(("dataset", "move", "flagged"), [
    # a plain DataLoader over CPU tensors: its items stay on the CPU, reading them runs no graph
    ("    ds = TensorDataset(x, lengths)", "        pass", False),
    ("    ds = TensorDataset(x, lengths)", "        lens = lens.to(torch.float32)", False),  # a dtype, not a device
    ("    ds = TensorDataset(x, lengths)", "        lens = lens.to(device, non_blocking=True)", True),
    ("    ds = TensorDataset(x, lengths)", "        lens = lens + ids.to(device).sum()", True),
    # a torch function of CPU tensors alone stays on the CPU; one that mixes in a device tensor does not
    ("    ds = TensorDataset(x, lengths)", "        lens = torch.maximum(lens, torch.ones_like(lens))", False),
    ("    ds = TensorDataset(x, lengths)", "        lens = torch.maximum(lens, ids.to(device).sum())", True),
    ("    ds = TensorDataset(x, lengths)", "        lens = torch.as_tensor(lens, device=device)", True),
    # a dataset of device tensors, bound to a name first: its items are device tensors
    ("    ds = TensorDataset(x.to(device), lengths.to(device))", "        pass", True),
    # a dataset handed a device (torch_model._names_a_device: a name that holds or spells a device)
    ("    ds = PairDataset(x, lengths)", "        pass", False),
    ("    ds = PairDataset(x, lengths, device=device)", "        pass", True),
    ("    ds = PairDataset(x, lengths, device=xla_device)", "        pass", True),
    ("    ds = PairDataset(x, lengths, device=torch_xla.device())", "        pass", True),
])
def test_items_of_a_plain_dataloader_stay_on_the_cpu(dataset: str, move: str, flagged: bool) -> None:
    src = CPU_LOADER.format(dataset=dataset, move=move)
    assert ("XLA350" in _codes(src)) is flagged


def test_one_definition_of_a_name_that_holds_a_device() -> None:
    """DataLoader arguments and torch-function operands share it: a name bound to a device, or one
    spelled as a device (an unknown value there is taken to be one)."""
    import ast

    from xlacheck.analysis.torch_model import DEVICE, _names_a_device

    def names(spelling: str, flags: int = 0) -> bool:
        return _names_a_device(ast.parse(spelling, mode="eval").body, lambda _: flags)

    assert names("device") and names("xla_device") and names("target_device") and names("dev", DEVICE)
    assert not names("dev") and not names("lengths") and not names("x.device") and not names("'cpu'")


def test_cpu_loader_item_read_transfers_nothing_on_torch_xla(tmp_path: Path) -> None:
    """The measurement behind the CPU flag: int(lens.max()) of a plain DataLoader's item takes no
    TransferFromDeviceTime sample; the same read of a moved item, or of a dataset of device tensors, does."""
    python = _torch_xla_python()
    script = tmp_path / "probe.py"
    script.write_text(textwrap.dedent("""
        import json, torch, torch_xla
        import torch_xla.debug.metrics as met
        from torch.utils.data import DataLoader, TensorDataset
        dev = torch_xla.device()
        ids, lens = torch.randint(0, 9, (16, 4)), torch.randint(1, 4, (16,))
        def reads(ds, move):
            out = []
            for i, n in DataLoader(ds, batch_size=8, drop_last=True):
                y = (i.to(dev) * 2).sum()
                torch_xla.sync()
                before = (met.metric_data("TransferFromDeviceTime") or [0])[0]
                int((n.to(dev) if move else n).max())
                if not move:
                    int(torch.sum(n > 1))  # a torch function of the item: on the CPU too
                out.append((met.metric_data("TransferFromDeviceTime") or [0])[0] - before)
                torch_xla.sync()
            return out
        print(json.dumps({"cpu": reads(TensorDataset(ids, lens), False),
                          "moved": reads(TensorDataset(ids, lens), True),
                          "device_dataset": reads(TensorDataset(ids.to(dev), lens.to(dev)), False)}))
    """))
    proc = subprocess.run([python, str(script)], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PJRT_DEVICE": "CPU"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["cpu"] == [0, 0] and all(got["moved"]) and all(got["device_dataset"]), got


@pytest.mark.parametrize("wrap", ["", "with torch.no_grad():\n            "])
def test_embedding_bag_with_a_trained_weight_falls_back_under_no_grad_too(wrap: str) -> None:
    """mode='sum' lowers only when no input requires grad: the table's variant row (status lowered,
    grad fallback, aten::_embedding_bag); under torch.no_grad() the weight still requires grad and
    torch_xla 2.9 still runs aten::_embedding_bag on the CPU (measured by hand, PJRT CPU)."""
    src = ("import torch\nimport torch.nn.functional as F\nimport torch_xla\n"
           "def train(model, loader, opt):\n    table = torch.nn.Parameter(torch.randn(20, 4))\n"
           "    for ids, y in loader:\n"
           f"        {wrap}e = F.embedding_bag(ids, table, mode='sum')\n"
           "        loss = model(e, y)\n        loss.backward()\n        opt.step()\n        torch_xla.sync()\n")
    found = [d.message for d in check_source(src, "t.py").diagnostics if d.code == "XLA351"]
    assert len(found) == 1 and "aten::_embedding_bag" in found[0] and "also under torch.no_grad()" in found[0], found


def test_a_suggested_interpolate_mode_names_its_backward_fallback() -> None:
    """bicubic's nearest lowered variant is bilinear, whose backward the table's backward probe saw fall
    back (aten::upsample_bilinear2d_backward, PJRT CPU): the suggestion says so instead of promising a
    lowered step."""
    line = "e = F.interpolate(h, size=(5, 5), mode='bicubic', align_corners=False)"
    msgs = [d.message for d in check_source(_VARIANT.format(line=line), "t.py", torch_xla=True).diagnostics
            if d.code == "XLA351"]
    assert len(msgs) == 1 and "with `mode='bilinear'` it lowers (its backward, aten::upsample_bilinear2d_backward, " \
        "still falls back on the CPU backend" in msgs[0], msgs


def test_helpers_only_the_set_up_phase_calls_are_set_up() -> None:
    """A helper that only the set-up phase of a declared @torch.no_grad() function calls (before its
    work loop), directly or through another such helper, runs once per call: its input checks
    (XLA350), mask binarising (XLA250) and CPU-built tensors (XLA553) are not step code (diffusers'
    inpainting pipelines' prepare_mask_and_masked_image). The same helper called inside the loop too
    is step code again, and so is a helper the set-up calls in a loop (once per frame, not per call) or from
    a nested function (it may run any number of times)."""
    src = """
    import torch

    def check(image):
        if image.min() < -1 or image.max() > 1:
            raise ValueError("image should be in [-1, 1]")

    def prepare(image, mask, device):
        check(image)
        mask = torch.nn.functional.interpolate(mask, size=(64, 64))
        mask[mask < 0.5] = 0
        mask[mask >= 0.5] = 1
        noise = torch.randn(image.shape).to(device)
        return image * (mask < 0.5), mask, noise

    class Pipeline:
        @torch.no_grad()
        def __call__(self, image, mask, steps):
            image, mask, latents = prepare(image, mask, self.device)
            for t in self.scheduler.timesteps[:steps]:
                latents = self.unet(latents, t, image, mask)
                {line}
            return latents
    """
    assert _codes(src.replace("{line}", "pass"), declared=True) == []
    again = _codes(src.replace("{line}", "check(latents)"), declared=True)
    assert again == ["XLA350"]  # the helper runs in every denoising step now
    per_frame = src.replace("{line}", "pass").replace(
        "            image, mask, latents = prepare(image, mask, self.device)",
        "            image, mask, latents = prepare(image, mask, self.device)\n"
        "            for frame in image:\n                check(frame)")
    assert _codes(per_frame, declared=True) == ["XLA350"]  # once per frame, not once per call
    closure = src.replace("{line}", "pass").replace(
        "            image, mask, latents = prepare(image, mask, self.device)",
        "            image, mask, latents = prepare(image, mask, self.device)\n"
        "            def checked(frame):\n                check(frame)")
    assert _codes(closure, declared=True) == ["XLA350"]  # a nested function may run any number of times
    assert _codes(src.replace("{line}", "pass")) == []  # (not declared: no step at all)


def test_the_else_branch_does_not_see_what_the_if_branch_bound() -> None:
    """The walker runs an `if`'s else branch from the names before the `if`: a name the body binds to
    a tensor is still the caller's string in the else branch (diffusers' composable pipeline:
    `weights = torch.tensor(...)` in one branch, `weights.split("|")` on the str in the other)."""
    src = """
    import torch

    @torch.no_grad()
    def weigh(model, x, weights=""):
        if not weights:
            weights = torch.ones(1, device=x.device)
        else:
            weights = torch.tensor([float(w) for w in weights.split("|")], device=x.device)
        out = model(x) * weights
        return {line}
    """
    assert _codes(src.replace("{line}", "out"), declared=True) == []
    assert _codes(src.replace("{line}", "float(weights.sum())"), declared=True) == ["XLA350"]  # a tensor after both


def test_self_is_a_module_only_in_a_class_that_uses_it_as_one() -> None:
    """Another class's `self.parameters()` does not make every `self` of the file a module: a pipeline's
    `self.trans_pipe(...)` (a translation pipeline returning strings) is no module call there
    (diffusers' AnyText: `print(f"... {prompt}")` on its translated prompt)."""
    src = """
    import torch

    class Encoder(torch.nn.Module):
        def freeze(self):
            for p in self.parameters():
                p.requires_grad = False

    class Pipeline:
        def modify_prompt(self, prompt):
            prompt = self.trans_pipe(input=prompt)["translation"][:-1]
            print(f"Translate: {prompt}")
            return prompt

        @torch.no_grad()
        def __call__(self, prompt, latents):
            for t in range(10):
                latents = torch.tanh(latents)
                prompt = self.modify_prompt(prompt)
            return latents
    """
    assert _codes(src, declared=True) == []
    # (stored on self: a name the file never stores there is a method, see test_a_method_of_self_is_no_submodule)
    module = src.replace("class Pipeline:", "class Pipeline(torch.nn.Module):\n        def __init__(self, t):\n"
                                            "            self.trans_pipe = t\n")
    assert _codes(module, declared=True) == ["XLA350"]  # self.trans_pipe is a submodule there


# --- torch-real7: what the device, the CPU and Python sizes settle (false findings on untuned real code) ---

def test_a_branch_the_xla_device_rules_out_is_not_step_code() -> None:
    """`tokens.device.type == "xla"` and `is_torch_xla_available()` are True in code that runs on XLA: the
    operands after a decided `and`/`or`, and the branch they rule out, never run there (fairseq's sentence
    encoder, transformers' Trainer NaN filter); the branch they keep still does."""
    src = textwrap.dedent("""
    import torch
    from transformers.utils import is_torch_xla_available
    class Encoder(torch.nn.Module):
        def forward(self, tokens: torch.Tensor):
            is_tpu = tokens.device.type == "xla"
            mask = tokens.eq(0)
            if not is_tpu and not mask.any():
                print("no padding")
            if tokens.device.type != "xla":
                if mask.any():
                    print("cuda only")
            else:
                if mask.all():
                    print("kept")
            return tokens * mask
    def train(model, loader, opt):
        for x, y in loader:
            loss = model(x, y)
            loss.backward()
            opt.step()
            if not is_torch_xla_available() and (torch.isnan(loss) or torch.isinf(loss)):
                print("nan")
            if is_torch_xla_available() and loss.item() > 3:
                print("big")
    """)
    result = check_source(src, "m.py", torch_xla=True)
    assert [(d.code, d.line) for d in result.diagnostics] == [("XLA350", 14), ("XLA350", 24)]
    # the same tests on a name the model does not know to be on the device settle nothing
    unknown = src.replace("tokens.device.type", "other.device.type")
    assert [d.line for d in check_source(unknown, "m.py", torch_xla=True).diagnostics] == [8, 11, 14, 24]


def test_python_sizes_build_cpu_scalars() -> None:
    """`torch.div(h, 2)` with `h` from `x.shape` is a CPU scalar: `int()` of it reads no XLA tensor; the same
    call on a tensor still does."""
    src = textwrap.dedent("""
    import torch
    def _padding(filt):
        _, _, h, w = filt.shape
        n = filt.size(1) * 2 + len(filt)
        return int(torch.div(h, 2)), int(torch.div(w, 2, rounding_mode="floor")), int(torch.tensor(n))
    class Blur(torch.nn.Module):
        def forward(self, x):
            ph, pw, n = _padding(x)
            m = int(torch.div(x.sum(), 2))
            return torch.nn.functional.pad(x, (pw, pw, ph, ph)) * m
    """)
    assert [(d.code, d.line) for d in check_source(src, "m.py", torch_xla=True).diagnostics] == [("XLA350", 10)]


def test_plain_tensor_attributes_stay_on_the_cpu() -> None:
    """`self.p = torch.tensor(p)` in `__init__` is neither a parameter nor a buffer: `module.to(device)` leaves
    it on the CPU, so a draw from it is read without an XLA graph; one the class moves is not claimed."""
    src = textwrap.dedent("""
    import torch
    class Drop(torch.nn.Module):
        def __init__(self, main, p=0.2):
            super().__init__()
            self.main = main
            self.p = torch.tensor(p)
        def forward(self, x):
            if bool(torch.bernoulli(1 - self.p)):
                return self.main(x)
            return x
    """)
    assert _codes(src, declared=True) == []
    moved = src.replace("        if bool(", "        self.p = self.p.to(x.device)\n        if bool(")
    assert _codes(moved, declared=True) == ["XLA350"]


def test_a_module_nothing_moves_runs_on_the_cpu() -> None:
    """A module built in the function and never moved, called on host tensors, gives CPU tensors: reading its
    loss reads no XLA tensor. Moved (`.to(device)`), handed to another call, or fed a device tensor: claimed."""
    src = textwrap.dedent("""
    import numpy as np
    import torch
    from torch import nn
    def train(data):
        x = torch.from_numpy(data)
        model = nn.Linear(4, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(10):
            loss = model(x).pow(2).mean()
            loss.backward()
            opt.step()
            print("loss", loss.item())
    """)
    assert _codes(src, declared=True) == []
    moved = src.replace("    opt = torch", "    model.to('xla')\n    opt = torch")
    assert _codes(moved, declared=True) == ["XLA350"]
    handed = src.replace("    opt = torch", "    model = wrap(model)\n    opt = torch")
    assert _codes(handed, declared=True) == ["XLA350"]
    on_device = src.replace("x = torch.from_numpy(data)", "x = torch.from_numpy(data).to('xla')")
    assert _codes(on_device, declared=True) == ["XLA350"]


def test_a_boolean_index_of_a_cpu_tensor_runs_on_the_cpu() -> None:
    """torch_xla raises on a CPU tensor indexed with an XLA mask, so a mask index of a CPU tensor is a CPU op
    (fairseq's wav2vec negatives, drawn by `torch.randint` without `device=`)."""
    src = textwrap.dedent("""
    import torch
    def buffered(n):
        return torch.arange(n)
    def train(model, loader, opt):
        for x, y in loader:
            neg = torch.randint(0, 9, (4, 8))
            neg[neg >= buffered(8).unsqueeze(0)] += 1
            loss = model(x, neg.to(x.device)).sum()
            loss.backward()
            opt.step()
    """)
    assert _codes(src, declared=True) == []
    on_device = src.replace("(4, 8))", "(4, 8), device=x.device)")
    assert _codes(on_device, declared=True) == ["XLA250"]


def test_set_up_before_a_declared_function_hands_its_work_to_a_decode_method() -> None:
    """A declared no_grad function whose decode loop lives in a method of its own class (called directly, or
    looked up by name as transformers' generate does: `getattr(type(self), mode)`) runs the statements
    before that call once per call: their reads are set-up. Without the hand-off the read is in the step."""
    src = textwrap.dedent("""
    import torch
    from torch import nn
    class Generator(nn.Module):
        def _prepare(self, ids):
            if (ids[:, 0] != 0).all().item():
                ids = torch.cat([torch.zeros_like(ids[:, :1]), ids], -1)
            return ids
        def _sample(self, ids, steps):
            while ids.shape[1] < steps:
                ids = torch.cat([ids, self(ids).argmax(-1)[:, -1:]], -1)
            return ids
        @torch.no_grad()
        def generate(self, ids, mode="_sample"):
            ids = self._prepare(ids)
            decode = getattr(type(self), mode)
            return decode(self, ids, 8)
    """)
    assert _codes(src, declared=True) == []
    direct = src.replace("return decode(self, ids, 8)", "return self._sample(ids, 8)")
    assert _codes(direct, declared=True) == []
    no_handoff = src.replace("return decode(self, ids, 8)", "return ids")
    assert _codes(no_handoff, declared=True) == ["XLA350"]


def test_the_decode_method_a_declared_function_hands_off_to_has_its_own_set_up() -> None:
    """`generate` (declared no_grad) returns `self._generate(...)`, whose loop decodes: the statements of
    `_generate` before its loop run once per call (a read there is set-up), the reads in its loop stay
    reads, and a size set from the set-up read still recompiles per value (XLA450)."""
    src = textwrap.dedent("""
    import torch
    from torch import nn
    class Generator(nn.Module):
        @torch.no_grad()
        def generate(self, src_lengths: torch.Tensor, **kwargs):
            return self._generate(src_lengths, **kwargs)
        def _generate(self, src_lengths: torch.Tensor, steps=8):
            max_len = src_lengths.max().item()
            tokens = torch.zeros(4, max_len + 1, dtype=torch.long)
            for step in range(steps):
                logits = self.model(tokens)
                if logits.max().item() > 3:
                    break
            return tokens
    """)
    found = [(d.code, d.line) for d in check_source(src, "m.py", torch_xla=True, preview=True).diagnostics]
    assert found == [("XLA450", 10), ("XLA350", 13)]  # (XLA450 is behind --preview)
    # a module's forward is a step in itself (no set-up phase): the same read there is one in every step
    forward = src.replace("    @torch.no_grad()\n    def generate(", "    def forward(")
    assert ("XLA350", 8) in [(d.code, d.line) for d in check_source(forward, "m.py", torch_xla=True).diagnostics]


def test_a_script_entry_runs_once_per_process() -> None:
    """Functions that a script's ``if __name__ == "__main__":`` block calls outside any loop (and
    what only they call so) run once per process: a host read in their straight-line code reads a
    result once (a parity check, a conversion), not in every step. Their loops still run per
    iteration, and a function the file also names elsewhere (a second call, handed on as a value) is
    no such entry."""
    src = """
    import torch

    def compare(ref, out):
        return (ref - out).abs().max().item()

    @torch.no_grad()
    def main(model, x, ref):
        out = model(x)
        print(compare(ref, out), out.cpu())
        {loop}

    if __name__ == "__main__":
        main(None, None, None)
    """
    assert _codes(src.replace("{loop}", "pass"), declared=True) == []
    loop = "for _ in range(3):\n            out = model(out)\n            print(out.sum().item())"
    assert _codes(src.replace("{loop}", loop), declared=True) == ["XLA350"]
    # no __main__ block: a library function, called from anywhere (every step, maybe)
    library = src.replace("{loop}", "pass").split("if __name__")[0]
    assert _codes(library, declared=True) == ["XLA350", "XLA350"]
    # also called in a loop: not once per process
    looped = src.replace("{loop}", "pass").replace("main(None, None, None)",
                                                   "main(None, None, None)\n        for b in range(3):\n"
                                                   "            main(None, b, None)")
    assert _codes(looped, declared=True) == ["XLA350", "XLA350"]


def test_a_method_of_self_is_no_submodule() -> None:
    """``self.<name>`` that the file never stores on ``self`` (a method of the class or of a mixin) is
    not a submodule: calling it gives no module output, so a Python int it returns
    (``S = self.get_sequence_length(x)``) or a dict it hands back is no tensor."""
    src = """
    import torch
    from somewhere import Store

    class Block(torch.nn.Module, Store):
        def __init__(self):
            super().__init__()
            self.proj = torch.nn.Linear(4, 4)

        def get_sequence_length(self, x) -> int:
            return x.size(1)

        def forward(self, x):
            S = self.get_sequence_length(x)
            assert S <= 512
            store = self.get_local_store()
            if store["past_length"] == 0:
                x = x + 1
            h = self.proj(x)
            {line}
            return h
    """
    assert _codes(src.replace("{line}", "pass"), declared=True) == []
    assert _codes(src.replace("{line}", "assert h.sum() > 0"), declared=True) == ["XLA350"]


def test_a_tensor_of_static_sizes_stays_on_the_cpu() -> None:
    """``torch.tensor([m.shape[-1] for m in masks])`` builds a CPU tensor of Python sizes: ``unique``,
    ``tolist`` and one-argument ``where`` on it run on the CPU, no XLA fallback or device read."""
    src = """
    import torch

    class Head(torch.nn.Module):
        def forward(self, masks, boxes):
            sizes = torch.tensor([m.shape[-1] for m in masks])
            for s in torch.unique(sizes).tolist():
                idx = torch.where(sizes == s)[0]
                boxes = boxes + len(idx)
            {line}
            return boxes
    """
    assert _codes(src.replace("{line}", "pass"), declared=True) == []
    assert _codes(src.replace("{line}", "sizes = torch.tensor([b.sum() for b in boxes])\n            "
                              "print(torch.unique(sizes).tolist())"), declared=True) != []


def test_where_a_tensor_lives_follows_how_it_was_made() -> None:
    """``torch.tensor(data)`` without ``device=`` and ``t.to("cpu")`` are CPU tensors: reading them runs no
    graph. A file that sets the default device builds its factories there, and ``torch.tensor`` of a
    device tensor copies it on that device: those reads stay findings."""
    src = """
    import torch
    {setup}
    class Wrapper(torch.nn.Module):
        def forward(self, x, sizes):
            buckets = {made}
            if buckets[0] > 4:
                x = x[:, :4]
            return self.model(x)
    """
    cpu = src.replace("{setup}", "")
    assert _codes(cpu.replace("{made}", "torch.tensor(sizes, dtype=torch.int32)"), declared=True) == []
    # (the copy to the host is the one read; the test of the copy is none)
    assert _codes(cpu.replace("{made}", "torch.relu(x).to('cpu')"), declared=True) == ["XLA350"]
    assert "XLA350" in _codes(cpu.replace("{made}", "torch.tensor(torch.relu(x))"), declared=True)
    assert "XLA350" in _codes(src.replace("{setup}", "torch.set_default_device('xla')").replace(
        "{made}", "torch.tensor(sizes, dtype=torch.int32)"), declared=True)


def test_a_lazy_cache_on_self_runs_once() -> None:
    """``if self.x is None: self.x = build()`` runs on the first call: its reads, and those of the
    functions only it calls, are no per-step reads; a class that resets ``self.x = None`` rebuilds it."""
    src = """
    import torch
    class Rope(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.table = None
        def build(self, x):
            t = torch.relu(x)
            return t if t.max() > 0 else -t
        def forward(self, x):
            if self.table is None:
                self.table = self.build(x)
            return x * self.table
        {reset}
    """
    assert _codes(src.replace("{reset}", ""), declared=True) == []
    assert "XLA350" in _codes(src.replace("{reset}", "def reset(self):\n            self.table = None"),
                              declared=True)
