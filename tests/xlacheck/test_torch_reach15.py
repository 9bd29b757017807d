"""Reads once after the work loop of a declared @torch.no_grad() function, where the loop sits in a
``with`` block (issue 12, precision, session 12): the statements after the loop inside the block run
once per call, as those after the block do (``_after_last`` in xlacheck.analysis.torch_model). The
snippet is written here (not copied from a case); findings are pinned by code and line."""

from __future__ import annotations

import textwrap

from xlacheck.engine import check_source

REFERENCE_PASS = """
import torch
import torch_xla.core.xla_model as xm


class Trainer:
    @torch.no_grad()
    def reference(self, model, loader):
        kept = []
        with torch.no_grad():
            for batch in loader:
                out = torch.log_softmax(model(batch), -1)
                kept.append(out.sum().item())
            xm.mark_step()
            total = torch.stack(self.logps).tolist()
        return kept, total
"""


def _codes(src: str) -> list[tuple[str, int]]:
    return sorted((d.code, d.line) for d in check_source(textwrap.dedent(src), "ref.py", torch_xla=True).diagnostics)


def test_a_read_after_the_loop_inside_the_with_block_runs_once() -> None:
    assert _codes(REFERENCE_PASS) == [("XLA350", 13)]  # the per-batch read stays; the final one is gone


def test_the_same_read_inside_the_loop_stays() -> None:
    inside = REFERENCE_PASS.replace("                kept.append(out.sum().item())\n",
                                    "                kept.append(out.sum().item())\n"
                                    "                total = torch.stack(self.logps).tolist()\n")
    assert _codes(inside) == [("XLA350", 13), ("XLA350", 14)]
