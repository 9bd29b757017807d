"""The dataset cardinality fact (xlacheck.analysis.datasets) against TensorFlow's own
``dataset.cardinality()``, as measured in xlacheck/data/tf_dataset_cardinality.json
(tools/generate_tf_dataset_table.py). No TensorFlow needed: the table holds the measurements."""

from __future__ import annotations

import ast

import pytest

from xlacheck._data import load_json
from xlacheck.analysis.contexts import analyze_module
from xlacheck.analysis.datasets import INFINITE, DatasetFacts
from xlacheck.analysis.module_index import ModuleIndex

TABLE = load_json("tf_dataset_cardinality.json")
# Pipelines whose count depends on a function the analyzer does not read (it says "unknown").
NOT_FOLLOWED = frozenset({"tf.data.Dataset.range(10).apply(lambda d: d)"})


def _facts(source: str) -> tuple[DatasetFacts, ast.Module]:
    tree = ast.parse(source)
    index = ModuleIndex(tree, analyze_module(tree))
    return DatasetFacts(index, index.aliases.resolve), tree


@pytest.mark.parametrize("row", TABLE["rows"], ids=lambda r: r["pipeline"][:60])
def test_cardinality_matches_tensorflow(row: dict) -> None:
    facts, tree = _facts(f"import numpy as np\nimport tensorflow as tf\nDS = {row['pipeline']}\n")
    got = facts.cardinality(tree.body[-1].value)
    measured = row["cardinality"]
    expected = None if measured == TABLE["unknown"] else INFINITE if measured == TABLE["infinite"] else measured
    if row["pipeline"] in NOT_FOLLOWED:
        assert got is None
    else:
        assert got == expected


def test_follows_names_and_module_constants() -> None:
    facts, tree = _facts("import tensorflow as tf\nimport numpy as np\nN = 12\nROWS = np.zeros((N, 3))\n"
                         "def make():\n    ds = tf.data.Dataset.from_tensor_slices(ROWS)\n    ds = ds.shuffle(N)\n"
                         "    return ds.batch(4)\n")
    ret = tree.body[-1].body[-1].value
    assert facts.cardinality(ret.func.value) == 12
    assert facts.cardinality(ret) == 3


def test_unknown_source_is_unknown() -> None:
    facts, tree = _facts("import tensorflow as tf\ndef make(ds):\n    return ds.map(lambda x: x).batch(4)\n")
    assert facts.cardinality(tree.body[-1].body[-1].value) is None


def test_static_elements() -> None:
    facts, tree = _facts("import tensorflow as tf\nA = tf.data.Dataset.range(6).shuffle(6)\n"
                         "B = tf.data.Dataset.range(1, 7).map(lambda n: tf.range(n))\n")
    assert facts.static_elements(tree.body[1].value)
    assert not facts.static_elements(tree.body[2].value)
