"""Sequence packing: several short examples per fixed-length row, each kept apart by segment ids.

A packed row of ``max_length`` tokens holds whole examples one after another; ``segment_ids``
number them 1, 2, ... within the row (0 is padding), ``position_ids`` restart at 0 for each
example, and an attention mask built from ``segment_ids`` (:mod:`bucketing.packing_masks`) keeps
attention inside each example, so a model computes on every example what it would compute on
that example alone (``tests/bucketing/test_packing_equivalence_*.py`` prove it for BERT and
RoBERTa) while seeing one input shape and almost no padding.

The placement is **best-fit decreasing** (BFD): examples longest first, each into the open row
whose free space is the smallest that still holds it, else a new row. BFD and first-fit
decreasing share the worst-case bound (11/9 OPT + 6/9 rows) and both are near the lower bound
on real length distributions; BFD leaves the tightest rows and, keyed by free space, costs
O(log max_length) per example: open rows are grouped by their free space, and the distinct
free-space values (at most ``max_length`` of them, whatever the number of rows) are kept in a
sorted list searched with ``bisect``. Every plan reports the bin-packing lower bound
``ceil(real tokens / max_length)`` rows beside its own row count.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left, insort
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bucketing.spec import BucketSpec, Overlong, check_overlong

IGNORE_INDEX = -100


@dataclass(frozen=True)
class PackingPlan:
    """Where each example goes: ``row[i]``, ``segment[i]`` (1-based within the row) and
    ``offset[i]`` (first token) of example ``i``; ``row[i] == -1`` for a dropped example.

    ``lengths`` are the tokens each example contributes (after truncation; 0 when dropped).
    """

    max_length: int
    lengths: np.ndarray
    row: np.ndarray
    segment: np.ndarray
    offset: np.ndarray
    num_rows: int
    row_widths: np.ndarray | None = None  # width of each row; None: every row is max_length

    @property
    def real_tokens(self) -> int:
        return int(self.lengths.sum())

    def widths(self) -> np.ndarray:
        """The width of every row (``max_length`` for all unless planned with ``row_lengths``)."""
        if self.row_widths is None:
            return np.full(self.num_rows, self.max_length, dtype=np.int64)
        return self.row_widths

    @property
    def slots(self) -> int:
        """Token positions in the plan's rows, padding included."""
        return int(self.widths().sum())

    @property
    def lower_bound_rows(self) -> int:
        """No packing fits the tokens in fewer rows: ``ceil(real_tokens / max_length)``."""
        return -(-self.real_tokens // self.max_length)

    @property
    def padding_fraction(self) -> float:
        """Pad tokens over all tokens in the packed rows."""
        return 1.0 - self.real_tokens / self.slots if self.num_rows else 0.0

    @property
    def lower_bound_padding_fraction(self) -> float:
        """The padding fraction a packing with ``lower_bound_rows`` rows would have."""
        rows = self.lower_bound_rows
        return 1.0 - self.real_tokens / (rows * self.max_length) if rows else 0.0

    @property
    def max_segments_used(self) -> int:
        return int(self.segment.max(initial=0))

    @property
    def dropped(self) -> tuple[int, ...]:
        return tuple(int(i) for i in np.flatnonzero(self.row < 0))

    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The example indices of every row, in segment order."""
        kept = np.flatnonzero(self.row >= 0)
        order = kept[np.lexsort((self.segment[kept], self.row[kept]))]
        bounds = np.searchsorted(self.row[order], np.arange(self.num_rows + 1))
        return tuple(tuple(int(i) for i in order[a:b]) for a, b in itertools.pairwise(bounds))


def plan_packing(
    lengths: Iterable[int] | np.ndarray,
    max_length: int,
    *,
    max_segments: int | None = None,
    seed: int | None = None,
    overlong: Overlong = "error",
    row_lengths: Sequence[int] | None = None,
) -> PackingPlan:
    """Pack examples of ``lengths`` tokens into rows of ``max_length`` by best-fit decreasing.

    ``row_lengths`` (ascending, the last ``max_length``) lets rows be narrower: an example that
    fits no open row opens a row of the narrowest of these widths that holds it, so examples
    longer than every narrower width open ``max_length`` rows first (longest first), shorter
    ones fill those rows' free space (already paid for) and then open narrow rows. Fewer
    positions per row cost less attention (``L**2`` per row); :func:`fit_packing_spec`
    chooses the widths by a cost model.

    ``max_segments`` caps the examples per row (a static per-segment dimension, e.g. for one
    classification label per segment). With ``seed``, examples of equal length are placed in
    a random order and the rows are shuffled; the same seed gives the same plan. Without a
    seed, ties keep input order and rows come in the order they were opened (longest first).
    ``overlong``: "error" (default), "truncate" (to ``max_length``) or "drop".
    """
    array = np.asarray(lengths if isinstance(lengths, np.ndarray) else list(lengths))
    if array.ndim != 1:
        raise ValueError(f"plan_packing: lengths must be 1-D, got shape {array.shape}")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"plan_packing: lengths must be integers, got dtype {array.dtype}")
    array = array.astype(np.int64)
    if isinstance(max_length, bool) or not isinstance(max_length, (int, np.integer)) or max_length < 1:
        raise ValueError(f"plan_packing: max_length must be a positive integer, got {max_length!r}")
    if max_segments is not None and (isinstance(max_segments, bool) or max_segments < 1):
        raise ValueError(f"plan_packing: max_segments must be >= 1 or None, got {max_segments!r}")
    check_overlong(overlong, "plan_packing")
    widths = _row_lengths(row_lengths, max_length, "plan_packing")
    if array.size and array.min() < 1:
        raise ValueError(
            f"plan_packing: every length must be >= 1, got {int(array.min())} at index "
            f"{int(array.argmin())}; filter out empty examples first"
        )
    max_length = int(max_length)
    too_long = array > max_length
    if too_long.any():
        if overlong == "error":
            index = int(np.flatnonzero(too_long)[0])
            raise ValueError(
                f"plan_packing: example {index} has {int(array[index])} tokens, more than "
                f"max_length={max_length}; pass overlong='truncate' or overlong='drop'"
            )
        array = np.minimum(array, max_length) if overlong == "truncate" else np.where(too_long, 0, array)

    n = array.size
    rng = np.random.default_rng(seed) if seed is not None else None
    tie_break = rng.permutation(n) if rng is not None else np.arange(n)
    order = np.lexsort((tie_break, -array))
    row = np.full(n, -1, dtype=np.int64)
    segment = np.zeros(n, dtype=np.int64)
    offset = np.zeros(n, dtype=np.int64)
    cap = max_segments if max_segments is not None else max_length  # a row never holds more

    free_values: list[int] = []  # distinct free space of open rows, ascending
    rows_by_free: dict[int, list[int]] = {}  # free space -> open rows with exactly that much
    fill: list[int] = []  # tokens placed per row
    count: list[int] = []  # segments per row
    width_of: list[int] = []  # width of each row
    for index, length in zip(order.tolist(), array[order].tolist()):
        if length == 0:  # dropped
            break  # sorted decreasing: every later one is dropped too
        at = bisect_left(free_values, length)
        if at == len(free_values):
            target = len(fill)
            fill.append(0)
            count.append(0)
            width_of.append(widths[bisect_left(widths, length)])
        else:
            free = free_values[at]
            bucket = rows_by_free[free]
            target = bucket.pop()
            if not bucket:
                del rows_by_free[free]
                del free_values[at]
        row[index] = target
        offset[index] = fill[target]
        count[target] += 1
        segment[index] = count[target]
        fill[target] += length
        left = width_of[target] - fill[target]
        if left and count[target] < cap:
            if left not in rows_by_free:
                rows_by_free[left] = []
                insort(free_values, left)
            rows_by_free[left].append(target)

    num_rows = len(fill)
    row_widths = np.asarray(width_of, dtype=np.int64)
    if rng is not None and num_rows:
        relabel = rng.permutation(num_rows)
        row = np.where(row >= 0, relabel[np.maximum(row, 0)], -1)
        row_widths[relabel] = row_widths.copy()
    return PackingPlan(max_length, array, row, segment, offset, num_rows,
                       None if len(widths) == 1 else row_widths)


def _row_lengths(row_lengths: Sequence[int] | None, max_length: int, where: str) -> list[int]:
    if row_lengths is None:
        return [int(max_length)]
    widths = [int(w) for w in row_lengths]
    if not widths or widths != sorted(set(widths)) or widths[0] < 1 or widths[-1] != max_length:
        raise ValueError(
            f"{where}: row_lengths must be ascending distinct positive widths ending at "
            f"max_length={max_length}, got {tuple(row_lengths)!r}"
        )
    return widths


def plan_next_fit(
    lengths: Iterable[int] | np.ndarray, max_length: int, *, max_segments: int | None = None
) -> PackingPlan:
    """Pack in the given order, opening a new row when the next example does not fit.

    For a fixed order, no contiguous grouping uses fewer rows, so examples listed row by row
    from any plan (as :func:`pack_batches` yields them) never need more rows than that plan
    gave them: the collator's fallback when best-fit decreasing on a batch needs more rows.
    """
    plan = plan_packing(lengths, max_length, max_segments=max_segments)  # validates the input
    n = plan.lengths.size
    row = np.empty(n, dtype=np.int64)
    segment = np.empty(n, dtype=np.int64)
    offset = np.empty(n, dtype=np.int64)
    cap = max_segments if max_segments is not None else max_length
    current, fill, count = -1, max_length, cap
    for index, length in enumerate(plan.lengths.tolist()):
        if fill + length > max_length or count >= cap:
            current, fill, count = current + 1, 0, 0
        row[index], offset[index] = current, fill
        count += 1
        segment[index] = count
        fill += length
    return PackingPlan(max_length, plan.lengths, row, segment, offset, current + 1)


def pack_batches(
    lengths: Iterable[int] | np.ndarray,
    spec: BucketSpec,
    *,
    max_segments: int | None = None,
    seed: int | None = None,
    overlong: Overlong = "error",
    num_replicas: int = 1,
    rank: int = 0,
) -> list[list[int]]:
    """Example indices of each batch: the dataset packed into rows of ``spec.max_length`` by
    best-fit decreasing, rows grouped ``spec.batch_sizes[-1]`` at a time, examples listed row
    by row. With a spec of several buckets, rows are of the spec's widths
    (:func:`plan_packing` with ``row_lengths=spec.boundaries``: an example opens a row of the
    narrowest width that holds it) and rows of width ``boundaries[i]`` are grouped
    ``batch_sizes[i]`` at a time, so every batch is one of ``spec.shapes()``; with ``seed`` the
    batches of all widths come in a shuffled order, without it narrowest first. Feed each list to :class:`PackingCollator` (it re-packs them into at most that many
    rows, or fewer, narrower ones where a smaller bucket holds them). It is a valid
    ``batch_sampler`` for a PyTorch ``DataLoader``; vary ``seed`` per epoch for new batches.
    Dropped examples (``overlong="drop"``) are left out.

    Replicas: every replica computes the same plan (same lengths and seed) and takes rows
    ``rank, rank + num_replicas, ...`` of each global batch of ``batch_sizes[-1] *
    num_replicas`` rows, so all replicas have the same number of steps. Only a one-bucket spec
    is allowed then: with several, replicas could pick different buckets at the same step. A
    replica's share of the last global batch may be empty: the collator makes it dummy rows.
    """
    if num_replicas < 1 or not 0 <= rank < num_replicas:
        raise ValueError(f"pack_batches: need num_replicas >= 1 and 0 <= rank < num_replicas, got {num_replicas}, {rank}")
    if num_replicas > 1 and spec.num_buckets > 1:
        raise ValueError(
            f"pack_batches: with num_replicas={num_replicas} give a one-bucket spec (got {spec.num_buckets} "
            "buckets), so every replica is on the same shape at every step"
        )
    plan = plan_packing(lengths, spec.max_length, max_segments=max_segments, seed=seed, overlong=overlong,
                        row_lengths=spec.boundaries)
    rows = plan.rows()
    widths = plan.widths()
    batches: list[list[int]] = []
    for width, batch_size in zip(spec.boundaries, spec.batch_sizes):
        of_width = [rows[r] for r in np.flatnonzero(widths == width).tolist()]
        per_batch = batch_size * num_replicas
        batches.extend(
            [index for row in of_width[start:start + per_batch][rank::num_replicas] for index in row]
            for start in range(0, len(of_width), per_batch)
        )
    if seed is not None and spec.num_buckets > 1:
        order = np.random.default_rng(seed).permutation(len(batches))
        batches = [batches[i] for i in order.tolist()]
    return batches


def row_cost(width: int, attention_length: float | None) -> float:
    """Cost of one row of ``width`` positions in units of one position's non-attention work:
    ``width * (1 + width / attention_length)``. Dense attention over a row does work
    proportional to ``width`` per position (scores, softmax, mask, dropout, the weighted sum),
    the rest of the model a constant per position; ``attention_length`` is the row length at
    which the two are equal (None: attention is free, cost = positions)."""
    return float(width) * (1.0 + (width / attention_length if attention_length else 0.0))


def packing_cost(
    lengths: Iterable[int] | np.ndarray,
    spec: BucketSpec,
    attention_length: float | None,
    *,
    max_segments: int | None = None,
) -> float:
    """The cost model of an epoch of :func:`pack_batches` on ``spec`` (dummy rows included):
    the sum of :func:`row_cost` over every row of every batch."""
    plan = plan_packing(lengths, spec.max_length, max_segments=max_segments, row_lengths=spec.boundaries)
    widths = plan.widths()
    total = 0.0
    for width, batch_size in zip(spec.boundaries, spec.batch_sizes):
        batches = -(-int((widths == width).sum()) // batch_size)
        total += batches * batch_size * row_cost(width, attention_length)
    return total


def fit_packing_spec(
    lengths: Iterable[int] | np.ndarray,
    max_length: int,
    tokens_per_batch: int,
    *,
    attention_length: float | None = None,
    max_shapes: int = 2,
    pad_to_multiple_of: int = 64,
    max_segments: int | None = None,
) -> BucketSpec:
    """The packing spec of at most ``max_shapes`` (1 or 2) row widths that minimises
    :func:`packing_cost`: one shape ``(tokens_per_batch // max_length, max_length)``, or two,
    rows of ``R`` (every multiple of ``pad_to_multiple_of`` below ``max_length`` is tried, each
    by planning the whole dataset) beside rows of ``max_length``, each batch holding about
    ``tokens_per_batch`` positions. With ``attention_length=None`` the cost is positions
    (padding) alone and one shape of ``max_length`` nearly always wins; with attention's cost
    (see :func:`row_cost`: ``~6 * hidden`` by FLOPs for an encoder layer, or measured from two
    steps of equal positions at two row lengths, ``L0 = (t1 * L2 - t2 * L1) / (t2 - t1)``)
    narrow rows for the many short examples pay less attention per token."""
    if max_shapes not in (1, 2):
        raise ValueError(f"fit_packing_spec: max_shapes must be 1 or 2, got {max_shapes!r}")
    if tokens_per_batch < max_length:
        raise ValueError(
            f"fit_packing_spec: tokens_per_batch={tokens_per_batch} is less than one row of max_length={max_length}"
        )
    if attention_length is not None and attention_length <= 0:
        raise ValueError(f"fit_packing_spec: attention_length must be > 0 or None, got {attention_length!r}")
    array = np.asarray(lengths if isinstance(lengths, np.ndarray) else list(lengths))
    candidates = [BucketSpec((max_length,), (tokens_per_batch // max_length,))]
    if max_shapes == 2:
        candidates += [
            BucketSpec((width, max_length), (tokens_per_batch // width, tokens_per_batch // max_length))
            for width in range(pad_to_multiple_of, max_length, pad_to_multiple_of)
        ]
    costs = [packing_cost(array, spec, attention_length, max_segments=max_segments) for spec in candidates]
    return candidates[int(np.argmin(costs))]  # ties: the first, fewer shapes


class PackedBatchSampler:
    """:func:`pack_batches` per epoch, for a PyTorch ``DataLoader(batch_sampler=...)`` or any loop:
    call :meth:`set_epoch` each epoch (as with ``DistributedSampler``) for a new packing; the
    same ``seed`` and epoch give the same batches; ``num_replicas``/``rank`` as in
    :func:`pack_batches`."""

    def __init__(
        self,
        lengths: Iterable[int] | np.ndarray,
        spec: BucketSpec,
        *,
        max_segments: int | None = None,
        seed: int = 0,
        overlong: Overlong = "error",
        num_replicas: int = 1,
        rank: int = 0,
    ) -> None:
        self.num_replicas = num_replicas
        self.rank = rank
        self.lengths = np.asarray(lengths if isinstance(lengths, np.ndarray) else list(lengths))
        self.spec = spec
        self.max_segments = max_segments
        self.seed = seed
        self.overlong = overlong
        self.epoch = 0
        self._cache: tuple[int, list[list[int]]] | None = None

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch

    def batches(self) -> list[list[int]]:
        if self._cache is None or self._cache[0] != self.epoch:
            batches = pack_batches(
                self.lengths, self.spec, max_segments=self.max_segments,
                seed=self.seed * 1_000_003 + self.epoch, overlong=self.overlong,
                num_replicas=self.num_replicas, rank=self.rank,
            )
            self._cache = (self.epoch, batches)
        return self._cache[1]

    def __iter__(self) -> Iterator[list[int]]:
        return iter(self.batches())

    def __len__(self) -> int:
        return len(self.batches())


# ---- building the packed arrays -----------------------------------------------------------

_SEQUENCE_PAD = {"attention_mask": 0, "token_type_ids": 0, "special_tokens_mask": 1}
_LABEL_KEYS = frozenset({"labels", "label", "label_ids"})


def pack_features(
    features: Sequence[Mapping[str, Any]],
    plan: PackingPlan,
    *,
    pad_token_id: int = 0,
    label_pad_id: int = IGNORE_INDEX,
    causal_lm: bool = False,
    num_rows: int | None = None,
    max_segments: int | None = None,
    pad_position_id: int = 0,
    dtype: Any = np.int64,
) -> dict[str, np.ndarray]:
    """The packed batch of ``features`` (dicts with ``input_ids``) laid out as ``plan`` says.

    Returns ``input_ids``, ``segment_ids`` (0 = padding), ``position_ids`` (0, 1, ... per
    segment; ``pad_position_id`` at padding), ``segment_starts`` (rows x max_segments: the first token of each segment, 0 where none,
    for segment-indexed pooling), every other per-token key packed the same way (labels padded
    with ``label_pad_id``), and every scalar key (one per example, e.g. a class label) as a
    rows x max_segments array, column ``s - 1`` for segment ``s`` (``label_pad_id`` for labels
    and 0 for other keys where a row has fewer segments). No ``attention_mask`` comes out and
    an input one is not packed: a 2-D padding mask lets every token see its row's other
    examples; build the mask from ``segment_ids`` (:mod:`bucketing.packing_masks`). With ``causal_lm`` and no ``labels``
    key, ``labels`` are the input ids with ``label_pad_id`` at padding and at the first token
    of every segment: HF causal LMs shift labels left, so that position would otherwise ask
    the last token of one example to predict the first token of the next.

    ``num_rows`` fixes the row count (padding rows added; static batch dimension) and
    ``max_segments`` the per-segment dimension; both default to what the plan uses.
    """
    if len(features) != plan.lengths.size:
        raise ValueError(
            f"pack_features: {len(features)} features for a plan of {plan.lengths.size} examples"
        )
    rows = plan.num_rows if num_rows is None else int(num_rows)
    if rows < plan.num_rows:
        raise ValueError(f"pack_features: num_rows={rows} is fewer than the plan's {plan.num_rows} rows")
    segments = plan.max_segments_used if max_segments is None else int(max_segments)
    if segments < plan.max_segments_used:
        raise ValueError(
            f"pack_features: max_segments={segments} is fewer than the plan's "
            f"{plan.max_segments_used} segments in a row; plan with max_segments={segments}"
        )
    width = plan.max_length
    kept = np.flatnonzero(plan.row >= 0)
    kept_lengths = plan.lengths[kept]
    total = int(kept_lengths.sum())
    # flat destination of every kept token: row * width + offset + position in the example
    starts = np.cumsum(kept_lengths) - kept_lengths
    within = np.arange(total, dtype=np.int64) - np.repeat(starts, kept_lengths)
    destination = np.repeat(plan.row[kept] * width + plan.offset[kept], kept_lengths) + within

    def scatter(values: np.ndarray, fill: Any, array_dtype: Any) -> np.ndarray:
        out = np.full(rows * width, fill, dtype=array_dtype)
        out[destination] = values
        return out.reshape(rows, width)

    batch: dict[str, np.ndarray] = {}
    first = features[int(kept[0])] if kept.size else features[0] if features else {"input_ids": []}
    per_segment: dict[str, np.ndarray] = {}
    for key in first:
        if key == "attention_mask":
            continue
        value = first[key]
        if _is_sequence(value):
            pieces = [np.asarray(features[i][key]) for i in kept.tolist()]
            if any(len(p) != len(features[i]["input_ids"]) for p, i in zip(pieces, kept.tolist())):
                raise ValueError(f"pack_features: {key!r} and 'input_ids' differ in length in some example")
            if any(len(p) != n for p, n in zip(pieces, kept_lengths.tolist())):
                truncated = all(
                    len(p) == n or len(p) > n == width for p, n in zip(pieces, kept_lengths.tolist())
                )
                if not truncated:
                    raise ValueError(
                        "pack_features: an example's input_ids do not match the length the plan "
                        "was made with; plan with the same features' lengths"
                    )
                pieces = [p[:n] for p, n in zip(pieces, kept_lengths.tolist())]
            flat = np.concatenate(pieces) if pieces else np.empty(0)
            kind = flat.dtype.kind
            array_dtype = dtype if kind in "iub" or not flat.size else flat.dtype
            if key == "input_ids":
                fill = pad_token_id
            else:
                fill = label_pad_id if key in _LABEL_KEYS else _SEQUENCE_PAD.get(key, 0)
            batch["labels" if key in _LABEL_KEYS else key] = scatter(flat.astype(array_dtype), fill, array_dtype)
        else:
            values = np.asarray([features[i][key] for i in kept.tolist()])
            fill = label_pad_id if key in _LABEL_KEYS else 0
            column = np.full((rows, segments), fill, dtype=values.dtype if values.size else dtype)
            column[plan.row[kept], plan.segment[kept] - 1] = values
            per_segment["labels" if key in _LABEL_KEYS else key] = column
    if "input_ids" not in batch:
        raise ValueError("pack_features: every feature needs a sequence 'input_ids'")
    segment_ids = scatter(np.repeat(plan.segment[kept], kept_lengths), 0, dtype)
    batch["segment_ids"] = segment_ids
    batch["position_ids"] = scatter(within, pad_position_id, dtype)
    segment_starts = np.zeros((rows, segments), dtype=dtype)
    segment_starts[plan.row[kept], plan.segment[kept] - 1] = plan.offset[kept]
    batch["segment_starts"] = segment_starts
    if causal_lm and "labels" not in batch and "labels" not in per_segment:
        labels = batch["input_ids"].copy()
        labels[(segment_ids == 0) | (batch["position_ids"] == 0)] = label_pad_id
        batch["labels"] = labels
    batch.update(per_segment)
    return batch


def _is_sequence(value: Any) -> bool:
    return isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim == 1)
