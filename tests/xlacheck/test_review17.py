"""Defects an end-of-session review found in the seventeenth session's changes, pinned (each snippet is
written here, not copied from a case)."""

from __future__ import annotations

import textwrap

from xlacheck.engine import check_source


def _codes(src: str, preview: bool = False, select: str | None = None) -> list[tuple[str, int]]:
    result = check_source(textwrap.dedent(src), "snippet.py", preview=preview)
    assert result.error is None
    return sorted((d.code, d.line) for d in result.diagnostics if select is None or d.code == select)


def test_xla322_not_on_objects_tf_function_does_not_compare() -> None:
    # a tracker's update/add and a tf.lookup MutableHashTable's insert/remove are methods of objects
    # tf.function does not compare (TF 2.21 measured: both trace and run); only a dict or list argument
    # is refused
    src = """
    import tensorflow as tf

    @tf.function
    def step(x, tracker):
        tracker.update(x)
        tracker.add(x)
        return x * 2.0

    @tf.function
    def put(table, k, v):
        table.insert(k, v)
        table.remove(k)
        return table.size()
    """
    assert _codes(src, select="XLA322") == []


def test_xla322_still_on_dicts_and_lists() -> None:
    src = """
    import tensorflow as tf

    @tf.function
    def a(batch):
        y = batch.pop("label")
        return y

    @tf.function
    def b(batch, x):
        batch.update(x=x)
        return x

    @tf.function
    def c(outs, x):
        outs.append(x)
        return outs[0]

    @tf.function
    def d(batch, extra):
        batch.update(extra)
        return batch["x"]
    """
    assert _codes(src, select="XLA322") == [("XLA322", 6), ("XLA322", 11), ("XLA322", 16), ("XLA322", 21)]
