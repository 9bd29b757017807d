"""What torch-recall6 added to the PyTorch/XLA model and rules, pinned on small programs: a closure's
``model(x)`` proves the module (``model.emb.weight.data.renorm_``) and the batch it indexes; a
same-file helper returning host random draws gives per-step ints (XLA450 on a slice store too);
``F.embedding``/``nn.Embedding`` with a numeric ``max_norm`` falls back (the op table's probe);
library sinks and optimizer steps that torch_xla_host.json measured reading values back (XLA350).
"""

from __future__ import annotations

import json
import textwrap
from importlib import resources

from xlacheck.engine import check_source


def _found(src: str) -> list[tuple[int, str]]:
    # preview: XLA450 is behind --preview (below 90% true on real code); its facts are still tested
    found = check_source(textwrap.dedent(src), "t.py", torch_xla=True, preview=True).diagnostics
    return [(d.line, d.code) for d in found]


CLOSURE = """
import torch
import torch.nn.functional as F


def make_step(model, opt):
    def train_step(e1, rel, e2):
        opt.zero_grad()
        loss = F.cross_entropy(model(e1, rel), e2)
        loss.backward()
        opt.step()
        with torch.no_grad():
            model.emb.weight.data.{op}
        return loss.detach()
    return train_step
"""


def test_closure_model_call_proves_the_module_and_its_weight() -> None:
    assert _found(CLOSURE.format(op="renorm_(2, 0, 1)")) == [(13, "XLA351")]
    assert _found(CLOSURE.format(op="clamp_(-1, 1)")) == []  # lowers: nothing to report


def test_closure_model_call_on_an_indexed_batch_proves_the_mask() -> None:
    src = """
    import torch.nn.functional as F

    def make_step(model, opt):
        def train_step(images, labels):
            keep = labels >= 0
            opt.zero_grad()
            loss = F.cross_entropy(model(images[keep]), labels[keep])
            loss.backward()
            opt.step()
            return loss.detach()
        return train_step
    """
    assert _found(src) == [(8, "XLA250")]
    # a Python int index of the batch is no mask
    assert _found(src.replace("keep = labels >= 0", "keep = 0").replace("labels[keep]", "labels")) == []


HELPER = """
import random
import torch.nn.functional as F


def window(total, rng):
    start = {start}
    return start, start + 8


def make_step(model, opt, seed=0):
    rng = random.Random(seed)

    def train_step(x, y):
        beg, end = window(x.shape[-1], rng)
        x2 = x.clone()
        x2[:, beg:end] = 0.0
        loss = F.cross_entropy(model(x2), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step
"""


def test_helper_returning_a_random_draw_gives_step_ints_for_slice_stores() -> None:
    assert _found(HELPER.format(start="rng.randrange(0, total - 8)")) == [(17, "XLA450")]
    assert _found(HELPER.format(start="(total - 8) // 2")) == []  # the same ints every step


EMBEDDING = """
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 8{args})

    def forward(self, ids):
        return self.emb(ids).sum(1)


def train(model, loader, opt):
    for ids, y in loader:
        loss = F.mse_loss(model(ids), y)
        loss.backward()
        opt.step()
"""


def test_embedding_max_norm_reads_the_op_tables_probe() -> None:
    table = json.loads(resources.files("xlacheck.data").joinpath("torch_xla_ops.json").read_text())
    rows = {r["when"]["max_norm"]: r for r in table["argument_dependent"]["torch.nn.functional.embedding"]}
    assert rows["given"]["status"] == "fallback" and rows["given"]["aten"] == ["aten::embedding_renorm_"]
    assert rows["absent"]["status"] == "lowered"
    assert _found(EMBEDDING.format(args=", max_norm=3.0")) == [(9, "XLA351")]
    assert _found(EMBEDDING.format(args=", max_norm=None")) == []
    assert _found(EMBEDDING.format(args="")) == []
    assert _found(EMBEDDING.format(args=", max_norm=cfg.max_norm")) == []  # None or a number: unknown


def _host() -> dict:
    return json.loads(resources.files("xlacheck.data").joinpath("torch_xla_host.json").read_text())


WRITER = """
import torch.nn.functional as F
from torch.utils.tensorboard import SummaryWriter


class Runner:
    def __init__(self, model, opt):
        self.model, self.opt = model, opt
        self.tb = SummaryWriter("runs")

    def step(self, x, y, lr):
        self.opt.zero_grad()
        loss = F.mse_loss(self.model(x), y)
        loss.backward()
        self.opt.step()
        self.tb.add_scalar("loss", {value}, 0)
        return loss.detach()
"""


def test_summary_writer_sink_is_a_measured_host_read() -> None:
    row = _host()["sinks"]["torch.utils.tensorboard.SummaryWriter.add_scalar"]
    assert row["reads"] is True and row["error"] is None
    assert _found(WRITER.format(value="loss")) == [(16, "XLA350")]
    assert _found(WRITER.format(value="lr")) == []  # a Python number: nothing to read back
    # an object the file does not build from SummaryWriter: unknown
    assert _found(WRITER.format(value="loss").replace('SummaryWriter("runs")', "make_logger()")) == []


OPTIMIZER = """
import torch
import torch_xla


def train(model, loader):
    opt = torch.optim.{cls}(model.parameters(), lr=1e-2)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0{clip})
        opt.step()
        torch_xla.sync()
"""


def test_optimizer_steps_and_clipping_that_read_back_are_flagged_from_the_table() -> None:
    rows = _host()["optimizers"]
    assert rows["torch.optim.Adafactor"]["reads"] is True and rows["torch.optim.AdamW"]["reads"] is False
    assert rows["torch.nn.utils.clip_grad_norm_"]["reads"] is False
    assert rows["torch.nn.utils.clip_grad_norm_(error_if_nonfinite=True)"]["reads"] is True
    assert _found(OPTIMIZER.format(cls="Adafactor", clip="")) == [(12, "XLA350")]
    assert _found(OPTIMIZER.format(cls="AdamW", clip="")) == []
    assert _found(OPTIMIZER.format(cls="AdamW", clip=", error_if_nonfinite=True")) == [(11, "XLA350")]
