"""The measured recompile table (xlacheck/data/torch_xla_recompile.json) and the rules that cite it.

The table is written by tools/generate_torch_recompile_table.py from torch_xla's own CompileTime
counts; its ``--check`` reruns a sample of the probes on torch_xla (tests/xlacheck/test_table_checks.py).
The tests here pin what the rules claim from it: the data-length forms that recompile are flagged,
the fixed ones are not.
"""

from __future__ import annotations

import json
import sys
import textwrap
from importlib import resources
from pathlib import Path

import pytest

from xlacheck.engine import check_source

ROOT = Path(__file__).resolve().parents[2]


def _table() -> dict:
    return json.loads(resources.files("xlacheck.data").joinpath("torch_xla_recompile.json").read_text())


def _codes(src: str, declared: bool = True) -> list[str]:
    # (preview: XLA451 is a preview rule)
    return [d.code for d in check_source(textwrap.dedent(src), "t.py", torch_xla=declared, preview=True).diagnostics]


def test_table_header_and_facts() -> None:
    t = _table()
    assert t["torch"].startswith("2.9") and t["torch_xla"].startswith("2.9") and t["device"] == "PJRT_DEVICE=CPU"
    probes = t["probes"]
    sys.path.insert(0, str(ROOT / "tools"))
    from generate_torch_recompile_table import PROBES

    assert set(probes) == set(PROBES)  # the table is current with its generator: same probes, same code
    for name, (varies, body, values, kind) in json.loads(json.dumps(PROBES)).items():
        assert (probes[name]["varies"], probes[name]["step"], probes[name]["values"], probes[name]["input"]) == \
            (varies, body, values, kind), f"{name}: regenerate with tools/generate_torch_recompile_table.py"
    assert all(p["error"] is None for p in probes.values())
    # what the issue and the rules state, as measured
    recompile = {n for n, p in probes.items() if p["recompiles"]}
    assert {"batch_dim", "sequence_length", "int_slice_offset", "int_split_sections", "int_split_size",
            "int_chunk_count", "int_in_pad", "cat_varying_count", "tensor_from_list_new_length", "loop_count",
            "float_scalar_reaches_one", "float_scalar_reaches_zero"} <= recompile
    assert not {"same_shape_new_values", "float_scalar", "int_fill_value", "device_index_tensor",
                "size_from_fixed_input", "tensor_from_list_same_length", "cat_fixed_count"} & recompile


LOADER_LOOP = """
import torch
import torch_xla
from torch.utils.data import DataLoader
{collate}
def train(model, ds, opt):
    loader = DataLoader(ds, batch_size=8, collate_fn=collate, drop_last=True)
    for x in loader:
        model(x).sum().backward()
        opt.step()
        torch_xla.sync()
"""


PROCESSED = ("def preprocess(ex, processor):\n"
             "    return {'input_ids': processor(text=ex['text'], return_tensors='pt')['input_ids']}\n")


@pytest.mark.parametrize(("collate", "flagged"), [
    # packs the examples end to end: the stream's length is the batch's token total
    ("def collate(batch):\n    return torch.cat([ex['ids'] for ex in batch])\n", True),
    ("def collate(batch):\n    ids = torch.cat([torch.tensor(ex['ids']) for ex in batch])\n    return {'ids': ids}\n",
     True),
    ("def collate(batch):\n    flat = []\n    for ex in batch:\n        flat.extend(ex['ids'])\n"
     "    return torch.tensor(flat)\n", True),
    # truncated and padded to a fixed budget, a batch axis per example, another dim: one shape
    ("def collate(batch):\n    ids = torch.cat([ex['ids'] for ex in batch])[:64]\n"
     "    return torch.cat([ids, ids.new_zeros(64 - ids.numel())])\n", False),
    ("def collate(batch):\n    return torch.cat([ex['img'][None] for ex in batch])\n", False),
    ("def collate(batch):\n    return torch.cat([ex['ids'] for ex in batch], dim=1)\n", False),
    ("def collate(batch):\n    return torch.stack([ex['ids'] for ex in batch])\n", False),
    # examples made by a processor with return_tensors="pt" have a batch axis of 1 each: cat stacks a batch
    # (accelerate's examples/inference/distributed/florence2.py); squeezed, they are packed again
    (PROCESSED + "def collate(batch):\n    return torch.cat([ex['input_ids'] for ex in batch])\n", False),
    (PROCESSED + "def collate(batch):\n    return torch.cat([ex['input_ids'].squeeze(0) for ex in batch])\n",
     True),
    # every example tokenized to one fixed length: the stream's length is fixed
    (PROCESSED.replace("return_tensors='pt'", "padding='max_length', max_length=64")
     + "def collate(batch):\n    return torch.cat([torch.tensor(ex['input_ids']) for ex in batch])\n", False),
    ("def collate(batch):\n    flat = []\n    for ex in batch:\n        flat.extend(ex['ids'])\n"
     "    flat = flat[:64] + [0] * (64 - len(flat[:64]))\n    return torch.tensor(flat)\n", False),
])
def test_packing_collate(collate: str, flagged: bool) -> None:
    assert ("XLA561" in _codes(LOADER_LOOP.format(collate=collate))) is flagged


def test_packing_collate_not_flagged_off_xla() -> None:
    """The same packing collate in a file that never runs on XLA (no torch_xla, not declared)."""
    src = LOADER_LOOP.format(collate="def collate(batch):\n    return torch.cat([ex['ids'] for ex in batch])\n")
    src = src.replace("import torch_xla\n", "").replace("        torch_xla.sync()\n", "")
    assert "XLA561" not in _codes(src, declared=False)


def test_packing_collate_of_a_loader_no_step_iterates() -> None:
    """An evaluation loader iterated once outside any step: not flagged."""
    src = """
    import torch
    import torch_xla
    from torch.utils.data import DataLoader
    def collate(batch):
        return torch.cat([ex['ids'] for ex in batch])
    def count_tokens(ds):
        return sum(x.numel() for x in DataLoader(ds, batch_size=8, collate_fn=collate))
    """
    assert "XLA561" not in _codes(src)


STEP = """
import torch
import torch_xla
from torch.utils.data import DataLoader
def train(model, ds, opt):
    loader = DataLoader(ds, batch_size=4, drop_last=True)
    for x, counts in loader:
        h = torch.tanh(model(x))
        {line}
        loss = torch.stack([p.mean() for p in parts]).sum()
        loss.backward()
        opt.step()
        torch_xla.sync()
"""


@pytest.mark.parametrize(("line", "flagged"), [
    ("parts = torch.split(h, counts.tolist())", True),           # int_split_sections
    ("parts = h.split(counts.tolist())", True),
    ("parts = torch.chunk(h, len(counts.tolist()))", True),      # int_chunk_count
    ("parts = torch.split(h, 3)", False),                        # a constant of the program
    ("parts = h.chunk(4)", False),
    ("parts = [torch.nn.functional.pad(h, (0, sum(counts.tolist())))]", True),  # int_in_pad
])
def test_split_by_batch_values(line: str, flagged: bool) -> None:
    assert ("XLA450" in _codes(STEP.format(line=line))) is flagged


@pytest.mark.parametrize(("sampler", "flagged"), [
    ("batch_sampler=BatchSampler(RandomSampler(ds), 8, drop_last=False)", True),
    ("batch_sampler=BatchSampler(RandomSampler(ds), batch_size=8)", True),
    ("batch_sampler=BatchSampler(RandomSampler(ds), 8, True)", False),
    ("batch_sampler=BatchSampler(RandomSampler(ds), 8, drop_last=True)", False),
    ("batch_sampler=FixedTokenSampler(ds)", False),  # a sampler that may yield fixed-size batches
])
def test_batch_sampler_last_batch(sampler: str, flagged: bool) -> None:
    src = f"""
import torch
import torch_xla
from torch.utils.data import BatchSampler, DataLoader, RandomSampler
def train(model, ds, opt):
    loader = DataLoader(ds, {sampler})
    for x in loader:
        model(x).sum().backward()
        opt.step()
        torch_xla.sync()
"""
    assert ("XLA451" in _codes(src, declared=False)) is flagged


RNN_LOOP = """
import torch
import torch_xla
from torch.utils.data import DataLoader
def train(cell, head, ds, opt):
    loader = DataLoader(ds, batch_size=4, drop_last=True)
    for x, lengths in loader:
        h = torch.zeros(4, 8, device=x.device)
        {count}
        for t in range(n):
            h = cell(x[:, t], h)
        loss = head(h).sum()
        loss.backward()
        opt.step()
        torch_xla.sync()
"""


@pytest.mark.parametrize(("count", "flagged"), [
    ("n = int(lengths.max())", True),          # the batch's longest: table loop_count
    ("n = max(lengths.tolist())", True),
    ("n = x.shape[1]", False),                 # the padded length of a fixed-shape batch
    ("n = 16", False),
])
def test_loop_count_from_batch_values(count: str, flagged: bool) -> None:
    assert ("XLA450" in _codes(RNN_LOOP.format(count=count))) is flagged


def test_last_partial_batch_in_a_declared_project() -> None:
    """No torch_xla import: the --torch-xla declaration makes the training loop a step."""
    src = """
    import torch
    from torch.utils.data import DataLoader
    def train(model, ds, opt):
        loader = DataLoader(ds, batch_size=16, shuffle=True)
        for x, y in loader:
            loss = model(x).sum()
            loss.backward()
            opt.step()
    """
    assert "XLA451" in _codes(src)
    assert "XLA451" not in _codes(src, declared=False)
    assert "XLA451" not in _codes(src.replace("shuffle=True", "shuffle=True, drop_last=True"))


def test_loader_prepared_by_accelerate_is_not_flagged() -> None:
    """accelerate's BatchSamplerShard (several processes, even_batches=True) completes the last batch."""
    src = """
    from accelerate import Accelerator, DistributedType
    from torch.utils.data import DataLoader
    def main(model, ds, opt):
        accelerator = Accelerator()
        train_dataloader = DataLoader(ds, batch_size=16, shuffle=True)
        model, opt, train_dataloader = accelerator.prepare(model, opt, train_dataloader)
        for batch in train_dataloader:
            loss = model(**batch).loss
            accelerator.backward(loss)
            opt.step()
    """
    assert "XLA451" not in _codes(src)


@pytest.mark.parametrize(("count", "flagged"), [
    ("n = math.ceil(sum(lengths.tolist()) / 4)", True),   # a chunk count from the batch's token total
    ("n = int(lengths.sum().item()) // 4", True),
    ("n = math.ceil(x.shape[1] / 4)", False),             # from the fixed padded length
])
def test_chunk_count_from_batch_values(count: str, flagged: bool) -> None:
    src = "import math\n" + RNN_LOOP.format(count=count)
    assert ("XLA450" in _codes(src)) is flagged


def test_len_of_a_list_the_step_builds_afresh_is_fixed() -> None:
    """transformers' UperNet/BEiT FPN head: ``laterals = [...]; laterals.append(p); len(laterals)`` has one
    value at every call (the list is rebuilt), so its loop count is not a per-step int."""
    src = """
    import torch.nn as nn
    import torch.nn.functional as F
    class FPN(nn.Module):
        def __init__(self):
            super().__init__()
            self.convs = nn.ModuleList([nn.Conv2d(4, 4, 1) for _ in range(3)])
        def forward(self, feats):
            laterals = [conv(feats[i]) for i, conv in enumerate(self.convs)]
            laterals.append(feats[-1])
            for i in range(len(laterals) - 1, 0, -1):
                laterals[i - 1] = laterals[i - 1] + F.interpolate(laterals[i], size=laterals[i - 1].shape[2:])
            return laterals[0]
    """
    assert _codes(src) == []


def test_evaluation_loader_with_a_last_partial_batch_is_not_flagged() -> None:
    """An evaluation loop (no backward) over a loader without drop_last: that shape compiles once."""
    src = """
    import torch
    import torch_xla
    import torch_xla.distributed.parallel_loader as pl
    from torch.utils.data import DataLoader
    def evaluate(model, ds, device):
        loader = DataLoader(ds, batch_size=32)
        correct = torch.zeros((), device=device)
        for x, y in pl.MpDeviceLoader(loader, device):
            correct += (model(x).argmax(-1) == y).sum()
        return correct
    def train(model, ds, opt, device):
        loader = DataLoader(ds, batch_size=32, shuffle=True)
        for x, y in pl.MpDeviceLoader(loader, device):
            loss = model(x).sum()
            loss.backward()
            opt.step()
    """
    found = [(d.code, d.line) for d in check_source(textwrap.dedent(src), "t.py", preview=True).diagnostics]
    assert ("XLA451", 13) in found and ("XLA451", 7) not in found


@pytest.mark.parametrize(("line", "probe"), [
    ("parts = torch.split(h, counts.tolist())", "int_split_sections"),
    ("parts = torch.chunk(h, len(counts.tolist()))", "int_chunk_count"),
    ("parts = [torch.nn.functional.pad(h, (0, sum(counts.tolist())))]", "int_in_pad"),
    ("parts = [h[:, t] for t in range(int(counts.max()))]\n        for t in range(int(counts.max())):\n"
     "            h = h * 2", "loop_count"),
    # sizes set by other arguments (multi-scale resizing, random zoom, pooling grids, shifts, bands)
    ("s = random.randrange(8, 17, 4)\n        parts = [F.interpolate(h[None], size=(s, s))]",
     "int_in_interpolate_size"),
    ("sz = random.randrange(8, 17, 4)\n        ns = [math.ceil(d * sz / 16) for d in h.shape[1:]]\n"
     "        parts = [F.interpolate(h[None], size=ns)]", "int_in_interpolate_size"),
    ("parts = [F.interpolate(h[None], scale_factor=random.uniform(0.5, 1.5))]", "float_interpolate_scale_factor"),
    ("parts = [F.adaptive_avg_pool2d(h[None], random.choice([1, 2, 4]))]", "int_in_adaptive_pool_output_size"),
    ("parts = [torch.roll(h, random.randint(-3, 3), -1)]", "int_roll_shift"),
    ("parts = [torch.tril(h, random.randint(0, 3))]", "int_tril_diagonal"),
    ("parts = [h[:, torch.randperm(int(counts.max()), device=h.device)]]", "int_in_randperm"),
    ("parts = [h.topk(int(counts.max()), 1).values]", "int_topk_k"),
])
def test_the_rules_read_the_recompile_table(line: str, probe: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """XLA450 asks the table (torch_model.recompiles): a probe measured as not recompiling silences the
    finding it backs; the table as generated keeps it."""
    from xlacheck.analysis import torch_model

    src = "import math\nimport random\nimport torch.nn.functional as F\n" + STEP.format(line=line)
    assert "XLA450" in _codes(src)
    table = _table()
    table["probes"] = {**table["probes"], probe: {**table["probes"][probe], "recompiles": False}}
    if probe in ("int_in_interpolate_size", "float_interpolate_scale_factor"):  # F.interpolate's size and
        for both in ("int_in_interpolate_size", "float_interpolate_scale_factor"):  # scale share the check
            table["probes"][both] = {**table["probes"][both], "recompiles": False}
    if probe == "int_split_sections":  # torch.split's size and sections forms share the rule's check
        table["probes"]["int_split_size"] = {**table["probes"]["int_split_size"], "recompiles": False}
    monkeypatch.setattr(torch_model, "recompile_table", lambda: table)
    assert "XLA450" not in _codes(src)


def test_xla451_and_xla561_read_the_recompile_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from xlacheck.analysis import torch_model

    src = LOADER_LOOP.format(collate="def collate(batch):\n    return torch.cat([ex['ids'] for ex in batch])\n")
    src = src.replace(", drop_last=True", "")
    assert {"XLA451", "XLA561"} <= set(_codes(src))
    table = _table()
    table["probes"] = {n: {**p, "recompiles": False} if n in ("batch_dim", "cat_varying_count", "sequence_length")
                       else p for n, p in table["probes"].items()}
    monkeypatch.setattr(torch_model, "recompile_table", lambda: table)
    assert not {"XLA451", "XLA561"} & set(_codes(src))


def test_packing_collate_of_an_evaluation_loop() -> None:
    """An evaluation loop over a packing loader compiles at each new stream length too (unlike a last
    partial batch, a shape seen once): flagged, and the message does not call it a training loop."""
    src = LOADER_LOOP.format(collate="def collate(batch):\n    return torch.cat([ex['ids'] for ex in batch])\n")
    src = src.replace("        model(x).sum().backward()\n        opt.step()\n",
                      "        with torch.no_grad():\n            model(x)\n")
    found = [d.message for d in check_source(src, "t.py").diagnostics if d.code == "XLA561"]
    assert len(found) == 1 and "training" not in found[0], found
