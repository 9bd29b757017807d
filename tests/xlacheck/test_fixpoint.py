"""The shared fixed-point helpers (xlacheck.analysis.fixpoint)."""

from __future__ import annotations

from xlacheck.analysis.fixpoint import grow, settle


def test_grow_closes_a_set_over_a_relation_that_reads_it() -> None:
    bases = {"E": ["D", "C"], "C": ["B"], "B": ["A"], "A": ["tf.Module"], "D": ["object"]}
    found: set[str] = set()
    got = grow(found, list(bases), lambda n: n, lambda n: any(b == "tf.Module" or b in found for b in bases[n]))
    assert got is found
    assert found == {"A", "B", "C", "E"}  # E through C, B and A, listed after it: several rounds


def test_grow_keeps_what_it_was_given_and_keys_by_the_key() -> None:
    items = [("x", 1), ("y", 2)]
    found = {"z"}
    grow(found, items, lambda it: it[0], lambda it: it[1] > 1)
    assert found == {"z", "y"}


def test_settle_repeats_a_pass_until_it_changes_nothing() -> None:
    level = {"a": 0, "b": 0, "c": 3}
    edges = [("a", "b"), ("b", "c"), ("c", "a")]  # each takes the larger level of its neighbour
    passes = []

    def one_pass() -> bool:
        passes.append(1)
        changed = False
        for u, v in edges:
            if level[v] > level[u]:
                level[u] = level[v]
                changed = True
        return changed

    settle(one_pass)
    assert level == {"a": 3, "b": 3, "c": 3}
    assert len(passes) >= 2 and not one_pass()
