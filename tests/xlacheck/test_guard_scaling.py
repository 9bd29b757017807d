"""XLA405's singleton-guard check grows linearly with the findings of a file.

For a method that creates a variable, ``_guarded`` asks whether every ``self.method(...)`` call of
the class sits under a creation guard. It used to collect those call sites by walking every call
of the module once per finding (quadratic: N findings in a module of N calls). The call sites now
come from one index built per module (``ModuleIndex.self_method_calls``). CPU time for N and 4N
findings, best of three: linear growth gives a ratio of ~4, quadratic ~16; the bound (8) is
test_fix_scaling's.
"""

from __future__ import annotations

import time

from xlacheck.engine import check_source


def _module(n: int) -> str:
    lines = ["import tensorflow as tf", "", "", "class Model(tf.keras.Model):"]
    for i in range(n):
        lines += ["    @tf.function", f"    def make_{i}(self, x):", "        v = tf.Variable(x)", "        return v",
                  ""]
    lines += ["    def call(self, x):"]
    lines += [f"        x = x + self.make_{i}(x)" for i in range(n)]
    lines += ["        return x", ""]
    return "\n".join(lines)


def _best_cpu(source: str, findings: int) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        result = check_source(source, "model.py", select=lambda code: code == "XLA405")
        best = min(best, time.process_time() - t)
    assert sum(d.code == "XLA405" for d in result.diagnostics) == findings
    return best


def test_four_times_the_findings_take_at_most_eight_times_as_long() -> None:
    _best_cpu(_module(20), 20)  # imports and first-call costs are not the check
    small, large = _best_cpu(_module(150), 150), _best_cpu(_module(600), 600)
    assert large < 8 * small, (small, large)
