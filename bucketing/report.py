"""``report()``: what a spec costs on a set of lengths, as a frozen dataclass.

``render()`` gives a terminal view (rich), ``plot(path)`` a PNG (matplotlib, the [plot]
extra). The library never prints: callers decide where the text goes.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bucketing.boundaries import as_lengths
from bucketing.spec import BucketSpec

_HISTOGRAM_BINS = 24


@dataclass(frozen=True)
class BucketStats:
    boundary: int
    batch_size: int
    sequences: int
    batches: int
    real_tokens: int
    slot_tokens: int  # tokens in this bucket's batches, pad and dummy rows included

    @property
    def padding_fraction(self) -> float:
        return 1.0 - self.real_tokens / self.slot_tokens if self.slot_tokens else 0.0


@dataclass(frozen=True)
class BucketReport:
    """Padding and shapes of ``spec`` over a set of lengths (overlong ones counted truncated)."""

    boundaries: tuple[int, ...]
    shapes: tuple[tuple[int, int], ...]
    buckets: tuple[BucketStats, ...]
    num_sequences: int
    num_overlong: int
    real_tokens: int
    sequence_padding_fraction: float  # each sequence padded to its boundary, no dummy rows
    padding_fraction: float  # pad tokens over all batch tokens, dummy rows included
    pad_to_max_fraction: float  # the anchor: every sequence padded to the largest boundary
    expected_compiles: int  # shapes that at least one batch uses (<= len(shapes))
    histogram_edges: tuple[int, ...]
    histogram_counts: tuple[int, ...]

    def to_rich(self) -> Any:
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        summary = Text(
            f"{self.num_sequences} sequences, {self.real_tokens} real tokens, "
            f"{len(self.shapes)} shapes ({self.expected_compiles} used): padding "
            f"{self.padding_fraction:.1%} with dummy rows, {self.sequence_padding_fraction:.1%} "
            f"per sequence; pad-to-max {self.pad_to_max_fraction:.1%}"
            + (f"; {self.num_overlong} overlong (truncated)" if self.num_overlong else "")
        )
        buckets = Table(title="buckets")
        for column in ("length <=", "batch", "sequences", "batches", "padding"):
            buckets.add_column(column, justify="right")
        for b in self.buckets:
            buckets.add_row(
                str(b.boundary), str(b.batch_size), str(b.sequences), str(b.batches),
                f"{b.padding_fraction:.1%}",
            )
        histogram = Table(title="length histogram")
        histogram.add_column("lengths", justify="right")
        histogram.add_column("count", justify="right")
        histogram.add_column("")
        peak = max(self.histogram_counts) or 1
        edges = self.histogram_edges
        for low, high, count in zip(edges, edges[1:], self.histogram_counts):
            inside = [b for b in self.boundaries if low < b <= high]
            bar = "█" * round(30 * count / peak)
            marks = "  ◀ " + ", ".join(str(b) for b in inside) if inside else ""
            histogram.add_row(f"({low}, {high}]", str(count), bar + marks)
        return Group(summary, buckets, histogram)

    def render(self, width: int = 100) -> str:
        """The terminal view as text (ANSI-free)."""
        from rich.console import Console

        buffer = io.StringIO()
        Console(file=buffer, width=width, color_system=None, legacy_windows=False).print(self.to_rich())
        return buffer.getvalue()

    def plot(self, path: str | Path) -> Path:
        """Save the length histogram with the boundaries marked as a PNG; returns the path."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError("BucketReport.plot needs matplotlib: pip install 'xlacheck[plot]'") from error
        figure, axis = plt.subplots(figsize=(8, 4))
        edges = np.asarray(self.histogram_edges)
        axis.bar(edges[:-1], self.histogram_counts, width=np.diff(edges), align="edge", color="#4c72b0")
        for boundary in self.boundaries:
            axis.axvline(boundary, color="#c44e52", linewidth=1)
        axis.set_xlabel("sequence length (tokens); red lines: bucket boundaries")
        axis.set_ylabel("sequences")
        axis.set_title(
            f"{len(self.shapes)} shapes, padding {self.padding_fraction:.1%} "
            f"(pad-to-max {self.pad_to_max_fraction:.1%})"
        )
        figure.tight_layout()
        out = Path(path)
        figure.savefig(out, dpi=100)
        plt.close(figure)
        return out


def report(lengths: Iterable[int] | np.ndarray, spec: BucketSpec, num_replicas: int = 1) -> BucketReport:
    """Padding fraction, shapes, expected compiles and a histogram of ``spec`` on ``lengths``.

    Batches are counted as a BatchFormer forms them: per bucket ``ceil(n / (batch * replicas))``
    global batches, the last filled with dummy rows.
    """
    array = as_lengths(lengths)
    capped = np.minimum(array, spec.max_length)
    index = spec.bucket_indices(capped)
    boundaries = np.asarray(spec.boundaries)
    stats = []
    for i, (boundary, size) in enumerate(zip(spec.boundaries, spec.batch_sizes)):
        members = capped[index == i]
        batches = -(-len(members) // (size * num_replicas))
        stats.append(
            BucketStats(
                boundary, size, len(members), batches, int(members.sum()),
                batches * size * num_replicas * boundary,
            )
        )
    real = int(capped.sum())
    sequence_slots = int(boundaries[index].sum())
    slots = sum(s.slot_tokens for s in stats)
    edges = np.unique(np.linspace(0, spec.max_length, _HISTOGRAM_BINS + 1).round().astype(int))
    # integer lengths: shifting the edges by 0.5 makes each bin (low, high] as labelled
    counts, _ = np.histogram(capped, bins=edges + 0.5)
    return BucketReport(
        boundaries=spec.boundaries,
        shapes=spec.shapes(),
        buckets=tuple(stats),
        num_sequences=len(array),
        num_overlong=int((array > spec.max_length).sum()),
        real_tokens=real,
        sequence_padding_fraction=1.0 - real / sequence_slots,
        padding_fraction=1.0 - real / slots,
        pad_to_max_fraction=1.0 - real / (len(array) * spec.max_length),
        expected_compiles=sum(s.batches > 0 for s in stats),
        histogram_edges=tuple(int(e) for e in edges),
        histogram_counts=tuple(int(c) for c in counts),
    )
