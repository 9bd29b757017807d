from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bucketing import BucketSpec, padding_fraction, report, sample_lengths

ROOT = Path(__file__).resolve().parents[2]


def test_report_counts_padding_shapes_and_compiles() -> None:
    lengths = np.array([3, 4, 5, 9, 10, 30])
    spec = BucketSpec((5, 10, 32, 64), (2, 2, 2, 2))
    result = report(lengths, spec)
    assert result.shapes == spec.shapes()
    assert result.expected_compiles == 3  # the 64 bucket holds nothing
    assert [b.sequences for b in result.buckets] == [3, 2, 1, 0]
    assert [b.batches for b in result.buckets] == [2, 1, 1, 0]
    assert result.real_tokens == 61
    slots = 2 * 2 * 5 + 2 * 10 + 2 * 32
    assert result.padding_fraction == pytest.approx(1 - 61 / slots)
    assert result.sequence_padding_fraction == pytest.approx(padding_fraction(lengths, (5, 10, 32, 64)))
    assert result.pad_to_max_fraction == pytest.approx(1 - 61 / (6 * 64))
    assert sum(result.histogram_counts) == 6
    text = result.render()
    assert "3 used" in text and "◀ 32" in text


def test_report_counts_overlong_as_truncated() -> None:
    result = report([3, 100], BucketSpec((8,), (1,)))
    assert result.num_overlong == 1 and result.real_tokens == 11


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = report(np.arange(1, 200), BucketSpec((50, 199), (4, 4))).plot(tmp_path / "h.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_sample_lengths_reservoir_is_uniform_and_bounded() -> None:
    examples = ({"input_ids": [0] * (i % 100 + 1)} for i in range(20_000))
    sample = sample_lengths(examples, 2_000, seed=0)
    assert len(sample) == 2_000 and 45 < sample.mean() < 56
    assert sample_lengths([[1, 2], [3]]).tolist() == [2, 1]


def test_import_bucketing_pulls_in_no_framework() -> None:
    code = (
        "import sys, bucketing, bucketing.tf_data;"
        "print(sorted({'tensorflow', 'torch', 'jax', 'transformers'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
