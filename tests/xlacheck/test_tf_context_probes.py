"""The TF context probes (tools/probe_tf_contexts.py): table facts placed in the contexts model code puts
them in, labelled by the compiler (benchmarks/results/tf_context_probes.json, TF 2.21 XLA:CPU)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import probe_tf_contexts as probes  # noqa: E402


def test_every_family_draws_its_sinks_from_the_tables_and_every_probe_parses() -> None:
    sinks, _ = probes.sinks()
    assert {s.family for s in sinks} >= {"op", "op_api", "opdtype", "const", "shape", "divergence", "nan_candidate"}
    every = probes.probes()
    for name, (_, _, text) in every.items():
        ast.parse(text, name)
    # each context has its neutral probe (a broken context is dropped by it)
    assert {n.split("|")[0] for n in every} == {n.split("|")[0] for n in every if n.endswith("|neutral")}


# Labelled failures no table records (tfrecall32): the generic call writer's float profile of
# tf.compat.v1.setdiff1d fails on ListDiff, whose XLA kernel takes int32/int64 only; the op table lists
# ListDiff as having a kernel and its dtype probe (generate_op_table.py --dtypes-only) finds no failing dtype.
KNOWN_MISSES = {"direct|shape:tf.compat.v1.setdiff1d:gen-float324"}
# A size from a Keras `call()` argument (tfrecall33's parameter family): the compiler fails when a tensor is passed,
# but Keras hands a Python number to `call()` unchanged, and nothing in the probe says which: unknown is not a tensor
# (XLA205 flags a jit entry's arguments only; the lead's review of the thirty-third session).
UNKNOWN_ARGUMENT_FAMILIES = ("param_layer_arg|", "param_model_call|")


@pytest.mark.slow
def test_every_labelled_failure_is_flagged_and_only_input_dependent_divergences_are_false_alarms() -> None:
    _, fams, wrong = probes.tally()
    assert fams["all"][0] > 300  # the labels cover the probes
    misses = {w.split()[1] for w in wrong if w.startswith("MISS")}
    assert {m for m in misses if not m.startswith(UNKNOWN_ARGUMENT_FAMILIES)} == KNOWN_MISSES
    # XLA318 flags a NaN reaching an op whose NaN result XLA computes differently; whether the result
    # differs depends on where the NaN lands and on the sign a fused 0/0 gets (the rule's _SIGN_DEPENDENT)
    assert all(("|divergence:" in w or "|nan_candidate:" in w) and "XLA318" in w
               for w in wrong if w.startswith("FALSE"))
