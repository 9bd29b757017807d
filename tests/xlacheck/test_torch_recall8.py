"""What torch-recall8 added: XLA350 reads the host table's measured Tensor-method sweep, its Python and
torch functions (``any``/``all``/``sorted``/``max``, ``x in t``, ``torch.allclose``) and its ``sizes``
rows (a device integer tensor where torch takes a Python int: a slice bound, a factory's size, a
view's shape), pinned on small programs; the rows themselves are pinned where the rule depends on
them (``tools/generate_torch_host_table.py --check`` re-measures them on torch_xla).
"""

from __future__ import annotations

import json
import textwrap
from importlib import resources

import pytest

from xlacheck.engine import check_source
from xlacheck.rules.torch_host_sync_in_step import method_reads


def _host() -> dict:
    return json.loads(resources.files("xlacheck.data").joinpath("torch_xla_host.json").read_text())


def _found(src: str) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in check_source(textwrap.dedent(src), "t.py", torch_xla=True).diagnostics]


def test_the_sweep_keeps_host_values_and_leaves_device_fallbacks_to_other_rules() -> None:
    rows = _host()["methods"]
    assert rows["is_nonzero:f"]["reads"] is True and rows["is_nonzero:f"]["returns"] == "bool"
    assert rows["cpu:f"]["reads"] is True and rows["cpu:f"]["device"] == "cpu"
    assert rows["sum:f"]["reads"] is False  # a lazy result: nothing read
    # median reads (it falls back to the CPU) but returns a device tensor: XLA351's, not a host value
    assert rows["median:f"]["reads"] is True and rows["median:f"]["device"] == "xla"
    reading = method_reads(rows)
    assert {"is_nonzero", "allclose", "equal", "to"} <= set(reading)
    assert "median" not in reading and "nonzero" not in reading and "sum" not in reading
    assert reading["allclose"] is True and reading["is_nonzero"] is False  # with / without an argument


def test_the_functions_and_sizes_rows_say_what_reads() -> None:
    table = _host()
    functions, sizes = table["functions"], table["sizes"]
    assert functions["builtins.any"]["reads"] and functions["builtins.sorted"]["reads"]
    assert functions["torch.allclose"]["reads"] and functions["operator.contains"]["reads"]
    assert not functions["builtins.sum"]["reads"] and not functions["builtins.list"]["reads"]
    assert not functions["builtins.len"]["reads"]
    assert sizes["Tensor.__getitem__(slice)"]["reads"] and sizes["torch.zeros"]["reads"]
    assert sizes["Tensor.view"]["reads"] and sizes["torch.nn.functional.pad"]["reads"]


LOSS = """
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla


class Loss(nn.Module):
    def forward(self, logits, y):
        mask = y > 0
        loss = F.cross_entropy(logits, y)
        {form}
        return loss


def train(model, loader, opt):
    crit = Loss()
    for x, y in loader:
        crit(model(x), y).backward()
        opt.step()
        torch_xla.sync()
"""


@pytest.mark.parametrize("form", [
    "ok = torch.allclose(logits, logits * 2)",
    "ok = loss.is_nonzero()",
    "c = logits.detach().to('cpu')",
    "c = logits.to(device=torch.device('cpu'))",
    "ok = all(mask)",
    "s = sorted(y)",
    "m = max(loss, loss * 2)",
    "n = mask.sum()\n        h = logits[:n]",
    "n = mask.sum()\n        h = torch.zeros(n, 4)",
    "n = mask.sum()\n        h = logits.view(n, -1)",
    "n = mask.sum()\n        h = F.pad(logits, (0, n))",
    "n = mask.sum()\n        h = logits.new_zeros(n)",
])
def test_measured_reads_in_a_loss_module_called_from_the_step(form: str) -> None:
    line = 12 + form.count("\n")
    assert _found(LOSS.format(form=form)) == [(line, "XLA350")], form


@pytest.mark.parametrize("form", [
    "s = sum(logits)",  # iterating and adding: lazy (the sum row reads nothing)
    "n = len(logits)",
    "items = list(logits)",
    "h = logits[:4]",  # a Python bound
    "h = logits.view(torch.div(logits.size(0), 2, rounding_mode='trunc'), -1)",  # a CPU scalar tensor
    "n = torch.tensor(3)\n        h = logits[:n]",  # built on the CPU
    "c = logits.to(logits.device)",  # a move to the device, not to the host
    "ok = torch.is_same_size(logits, logits)",  # the row reads nothing
    "h = logits.median()",  # falls back (XLA351's, not a host value)
])
def test_forms_the_table_says_do_not_read_are_not_flagged(form: str) -> None:
    assert [code for _, code in _found(LOSS.format(form=form)) if code == "XLA350"] == [], form


def test_any_over_a_generator_of_tensors_and_none_in_a_raise() -> None:
    src = """
    import torch
    import torch_xla


    def train(model, loader, opt):
        for x, y in loader:
            loss = model(x).sum()
            loss.backward()
            if any(torch.isinf(p.grad).any() for p in model.parameters()):
                continue
            opt.step()
            torch_xla.sync()
    """
    assert _found(src) == [(10, "XLA350")]
    raising = src.replace("            if any(torch.isinf(p.grad).any() for p in model.parameters()):\n"
                          "                continue\n",
                          "            n = loss.long()\n            h = torch.zeros(3)\n")
    assert _found(raising) == []  # (n is never used as a size)


def test_the_pool_table_lowers_exactly_where_the_output_side_divides_the_input_side() -> None:
    """tools/generate_torch_pool_table.py: 756 (pool, input, output) probes, forward and backward."""
    from xlacheck.analysis.torch_model import pool_table
    from xlacheck.rules.torch_adaptive_pool_size_may_not_divide import falls_back_on_usual_sides, usual_sides

    table = pool_table()
    assert len(table["rows"]) == 756 and all(r["error"] is None for r in table["rows"].values())
    for key, row in table["rows"].items():
        n, m = map(int, key.split(":")[1].split("->"))
        assert row["status"] == ("lowered" if n % m == 0 else "fallback"), key
    assert usual_sides(table) == [2, 4, 7, 8, 14, 16, 28, 32, 56, 64]
    assert falls_back_on_usual_sides("adaptive_avg_pool2d", 3) is True
    assert falls_back_on_usual_sides("adaptive_max_pool1d", 6) is True
    assert falls_back_on_usual_sides("adaptive_avg_pool2d", 7) is False  # 7, 14, 28, 56 lower
    assert falls_back_on_usual_sides("adaptive_avg_pool2d", 4) is False
    assert falls_back_on_usual_sides("adaptive_avg_pool3d", 3) is None  # not gridded: no guess


def test_membership_is_a_preview_form() -> None:
    src = textwrap.dedent(LOSS.format(form="ok = 3 in y"))
    assert [d.code for d in check_source(src, "t.py", torch_xla=True).diagnostics] == []
    assert [(d.line, d.code) for d in check_source(src, "t.py", torch_xla=True, preview=True).diagnostics] == [
        (12, "XLA350")]


def test_sum_of_device_tensors_is_a_device_tensor() -> None:
    """builtins.sum over tensors reads nothing (the host table) and adds them lazily: comparing the sum is
    a truth test on a tensor."""
    assert _host()["functions"]["builtins.sum"]["reads"] is False
    src = """
    import torch
    import torch_xla


    def train(model, loader, opt):
        device = torch_xla.device()
        for x, y in loader:
            x = x.to(device)
            norms = sum(torch.norm(p.grad) for p in model.parameters())
            if norms > 10:
                continue
            opt.step()
            torch_xla.sync()
    """
    assert _found(src) == [(11, "XLA350")]
    assert _found(src.replace("torch.norm(p.grad)", "p.numel()")) == []  # Python ints
