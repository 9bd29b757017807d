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
