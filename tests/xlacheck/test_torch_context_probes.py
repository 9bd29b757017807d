"""The context probes of tools/probe_torch_contexts.py: one hazard of each family (a host read, a data-dependent
shape, an op without a lowering) is found in every context the probes place it in, and its fixed form in none.
torch_xla labelled these cells (docs/torchrec31.md); the test lints the generated code only."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from xlacheck.engine import check_source

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import probe_torch_contexts as probes  # noqa: E402

_MARKER = "# --- oracle ---"
_SINKS = {s.name: s for s in probes.facts()}


def _codes(sink: str, ctx: probes.Context, positive: bool) -> list[str]:
    _, text = probes.probe(_SINKS[sink], ctx, positive)
    return [d.code for d in check_source(text.split(_MARKER)[0], "probe.py", torch_xla=True).diagnostics]


@pytest.mark.parametrize("ctx", probes.CONTEXTS, ids=lambda c: c.name)
@pytest.mark.parametrize(("sink", "code"), [("item", "XLA350"), ("mask", "XLA250"), ("median", "XLA351")])
def test_each_context_reaches_the_sink(ctx: probes.Context, sink: str, code: str) -> None:
    assert code in _codes(sink, ctx, True)
    assert _codes(sink, ctx, False) == []


def test_the_probes_are_one_file_a_cell() -> None:
    files = probes.generate(3)
    assert len(files) == 3 * len(probes.CONTEXTS) * 2
    for text in files.values():
        compile(text, "probe.py", "exec")
