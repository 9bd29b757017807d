"""Process-wide settings that must be in place before the first XLA compilation.

XLA:CPU computes ``max``/``min`` (``tf.reduce_max``, ``tf.maximum``, ...) without propagating
NaN unless told otherwise (``--xla_cpu_enable_fast_min_max`` defaults to true in TF 2.21):
``tf.reduce_max([3., nan])`` is nan eagerly and 3.0 under ``jit_compile``. That is the backend
changing the meaning of an op the original code uses as much as the fixed code, so the fix
equivalence tests (eager original vs XLA-compiled fix) run XLA with TensorFlow's NaN semantics.
XLA reads XLA_FLAGS at its first compilation, which comes after collection, so setting it here
is early enough even when TensorFlow is already imported.
"""

from __future__ import annotations

import os

_FLAG = "--xla_cpu_enable_fast_min_max=false"
if _FLAG not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {_FLAG}".strip()

# transformers imports torch_xla whenever it is installed (the [torch-xla] extra is in [all]), and
# torch_xla aborts a process that has TensorFlow loaded ("LLVM ERROR: inconsistency in registered
# CommandLine options"). Tests that use torch_xla run it in a child interpreter with
# USE_TORCH_XLA=1; in this process transformers must not look for it.
os.environ.setdefault("USE_TORCH_XLA", "0")
