"""Facts of the sixteenth session's second torch precision lane (issue 12), with snippets written here.

- A NumPy array is not a torch tensor (xlacheck.analysis.torch_model.NUMPY): what ``t.numpy()`` and a
  ``numpy`` function return, and what arithmetic, comparison, indexing and array methods compute from
  such values, through same-file helpers too. A comparison of one is a NumPy bool array: indexing a
  tensor with it is no device ``nonzero`` (XLA250 stays quiet); a torch comparison still is.
"""

from __future__ import annotations

import textwrap

import pytest

from xlacheck.engine import check_file

FILTER = """
import numpy as np
import torch


def head(x, w, b):
    logits = x @ w.T + b
    return np.where(logits >= 0, 1 / (1 + np.exp(-logits)), np.exp(logits) / (1 + np.exp(logits))).T


@torch.inference_mode()
def filter_images(clip, images: torch.Tensor, w, b):
    feats = clip.encode_image(images).cpu().numpy().astype(np.float16)
    query = MASK
    if query.sum() > 0:
        images[query] = images[query] * 0
    return images
"""


def _codes(source: str) -> list[tuple[int, str]]:
    checked = check_file(textwrap.dedent(source), "snippet.py", torch_xla=True, preview=False)
    return [(d.line, d.code) for d in checked.result.diagnostics if d.code == "XLA250"]


@pytest.mark.parametrize("mask", [
    "head(feats, w, b) > 0.5",  # through a same-file NumPy helper
    "np.tanh(feats) > 0.5",  # a numpy function
    "feats > 0.5",  # the array itself
    "feats[:, 0] > 0.5",  # an index of it
    "(feats.sum(axis=1) > 0) & (feats[:, 1] < 2)",  # NumPy methods, combined
])
def test_numpy_mask_is_not_a_device_nonzero(mask: str) -> None:
    assert _codes(FILTER.replace("MASK", mask)) == []


@pytest.mark.parametrize("mask", [
    "clip.encode_image(images) > 0.5",  # a torch comparison: still a bool tensor
    "torch.from_numpy(feats).to(images.device) > 0.5",  # NumPy made a tensor again
])
def test_torch_mask_still_flagged(mask: str) -> None:
    assert _codes(FILTER.replace("MASK", mask)) == [(16, "XLA250"), (16, "XLA250")]


# - A host read after which its step runs nothing more on the device (analysis.torch_model.ends_device_work):
#   the step's graph ends there anyway, so XLA350 does not report a cut; device work after it, a read in a
#   callee of step code (the caller goes on) or in a loop body still is one.
DECODE = """
import torch


@torch.no_grad()
def decode(model, features):
    audio = model(features)
    READ
    TAIL
"""


def _host(source: str) -> list[tuple[int, str]]:
    checked = check_file(textwrap.dedent(source), "snippet.py", torch_xla=True, preview=False)
    return [(d.line, d.code) for d in checked.result.diagnostics if d.code == "XLA350"]


@pytest.mark.parametrize("read, tail", [
    ("audio, n = audio.cpu(), audio.shape[0]", "return [a.numpy() for a in audio[:n]]"),
    ("audio = audio.cpu()", "return audio"),
    ("return audio.cpu().numpy()", ""),
])
def test_final_read_of_a_function_step_is_not_a_cut(read: str, tail: str) -> None:
    assert _host(DECODE.replace("READ", read).replace("TAIL", tail)) == []


@pytest.mark.parametrize("read, tail", [
    ("audio = audio.cpu()", "return model.post(audio)"),  # an unknown call after the read may run anything
    ("n = audio.sum().item()", "return audio[:, :n] * 2"),  # device work after it
    ("return model(audio.cpu())", ""),  # device work on the read's result in the same statement
])
def test_read_before_device_work_still_flagged(read: str, tail: str) -> None:
    assert [code for _, code in _host(DECODE.replace("READ", read).replace("TAIL", tail))] == ["XLA350"]


def test_read_in_a_callee_or_loop_still_flagged() -> None:
    callee = """
import torch


def decode(model, features):
    audio = model(features)
    return audio.cpu().numpy()


@torch.no_grad()
def run(model, loader):
    out = []
    for x in loader:
        out.append(decode(model, x))
        model(x)
    return out
"""
    loop = """
import torch


@torch.no_grad()
def run(model, loader):
    for x in loader:
        audio = model(x)
        print(audio.cpu())
"""
    assert _host(callee) == [(7, "XLA350")]
    assert _host(loop) == [(9, "XLA350")]
