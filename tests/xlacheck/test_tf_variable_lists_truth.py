"""TensorFlow's variable-collection getters return Python lists, checked against TensorFlow (prec24; the
fact behind tf-gan's `assert variables_to_train`, batch 23).

``tf.compat.v1.trainable_variables()`` (and the other collection getters) return a Python list, in eager
mode, in a TF1 graph and in a tf.function, where the probe of the API table saw an empty one (the
generator's ``structure: "list"``). Its truth is Python's: ``assert variables`` is no tensor condition.
A membership test of a variable in such a list asks the truth of ``v == item`` for each item before it:
in a tf.function (TF2) that is a symbolic tensor and tracing fails (OperatorNotAllowedInGraphError),
while a TF1 graph compares variables by identity. XLA102 keeps flagging the membership test.
"""

from __future__ import annotations

import os
import textwrap

import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
tf = pytest.importorskip("tensorflow")

from xlacheck import api_table  # noqa: E402
from xlacheck.engine import check_source  # noqa: E402

pytestmark = pytest.mark.tf

GETTERS = ("tf.compat.v1.trainable_variables", "tf.compat.v1.global_variables", "tf.compat.v1.local_variables",
           "tf.compat.v1.model_variables", "tf.compat.v1.moving_average_variables", "tf.compat.v1.all_variables")


def _getter(name: str):  # noqa: ANN202
    obj = tf
    for part in name.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("name", GETTERS)
def test_the_getters_return_python_lists(name: str) -> None:
    fact = api_table.fact_for(name)
    assert fact is not None and fact.structure == "list"
    seen = []
    tf.function(lambda: seen.append(type(_getter(name)())) or tf.constant(0.0))()
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.get_variable("a", shape=[])
        seen.append(type(_getter(name)()))
    assert seen == [list, list]


SRC = textwrap.dedent("""\
    import tensorflow as tf


    def train_op(loss, optimizer, variables_to_train=None):
        loss = tf.reduce_mean(loss)
        if variables_to_train is None:
            variables_to_train = tf.compat.v1.trainable_variables()
        else:
            for v in variables_to_train:
                assert v in tf.compat.v1.trainable_variables()
        assert variables_to_train
        return optimizer.minimize(loss, var_list=variables_to_train)
    """)


def test_membership_is_flagged_the_list_truth_is_not() -> None:
    result = check_source(SRC, "train.py")
    assert result.error is None
    assert [(d.line, d.code) for d in result.diagnostics] == [(10, "XLA102")]


def test_truth_membership_of_a_tensor_in_a_list_of_tensors() -> None:
    v, w = tf.Variable(1.0), tf.Variable(2.0)

    @tf.function(jit_compile=True)
    def member(x):
        assert w in [v, w]  # `w == v` first: a symbolic tensor in a tf.function
        return x * w

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        member(tf.constant(3.0))

    @tf.function(jit_compile=True)
    def listed(x):
        variables = tf.compat.v1.trainable_variables()
        assert not variables  # a Python list (empty in a tf.function's graph): Python's truth, no tensor
        return x * len(variables)

    assert float(listed(tf.constant(3.0))) == 0.0
    graph = tf.Graph()
    with graph.as_default():
        a = tf.compat.v1.get_variable("a", shape=[])
        b = tf.compat.v1.get_variable("b", shape=[])
        variables = tf.compat.v1.trainable_variables()
        assert variables == [a, b] and b in variables  # TF1: variables compare by identity
