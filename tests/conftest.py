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

import pytest

_FLAG = "--xla_cpu_enable_fast_min_max=false"
# XLA:CPU's LLVM code generation at -O0: every test asks what XLA accepts (the tf2xla bridge and
# the HLO passes, which run the same at any level), how often it compiles, or whether the compiled
# result equals eager (closer, if anything, without LLVM's optimizations), never how fast the
# generated code runs; -O0 compiles ~20% faster (tests/xlacheck/test_fix_equivalence.py: 95 ->
# 77 user CPU-s, same 337 passes). The torch trainer's subprocesses get the same flag
# (tests/trainer_torch/conftest.py); the benchmarks, which time the generated code, do not.
_FAST_CODEGEN = "--xla_backend_optimization_level=0"
for _flag in (_FLAG, _FAST_CODEGEN):
    if _flag not in os.environ.get("XLA_FLAGS", ""):
        os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {_flag}".strip()

# Keras 2 (tf_keras) behind tf.keras, as the project's code and the tables assume: a test that
# imports TensorFlow first would otherwise fix tf.keras to Keras 3 for the whole process, and a
# walk of tf.keras' lazy modules (tools/generate_op_table.py) then fails on keras._tf_keras.
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

# transformers imports torch_xla whenever it is installed (the [torch-xla] extra is in [all]), and
# torch_xla aborts a process that has TensorFlow loaded ("LLVM ERROR: inconsistency in registered
# CommandLine options"). Tests that use torch_xla run it in a child interpreter with
# USE_TORCH_XLA=1; in this process transformers must not look for it.
os.environ.setdefault("USE_TORCH_XLA", "0")

# pytest-xdist (`-n auto` in addopts): TensorFlow, XLA:CPU, torch and BLAS each start a thread
# pool as wide as the machine, in every worker and in every subprocess a test starts; two workers
# on two cores then run four busy-waiting pools. Each worker gets its share of the cores instead
# (set before any of them is imported; subprocesses inherit it). Inter-op stays at TF's default:
# collective ops of the multi-worker tests block inter-op threads and need more than one.
_WORKERS = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0") or 0)
if _WORKERS > 1:
    _cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    _threads = str(max(1, _cores // _WORKERS))
    for _var in ("TF_NUM_INTRAOP_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(_var, _threads)


# Tests that share an expensive session-scoped fixture run on one worker, so it is built once and
# not once per worker: the folder that holds the fixture (its conftest.py) is one unit of work.
# Every other test is scheduled on its own (xdist's `load`). Under pytest 9, xdist's `loadgroup`
# does not group (it renames item._nodeid, which pytest 9 no longer reads), hence the scheduler.
SHARED_FIXTURE_FOLDERS = (
    "tests/reference_trainer/",  # prepared_dir, trained: the tiny corpus and the trained TF model
    "tests/trainer_torch/",  # prepared, full_run (and two_devices): torch_xla trainer runs
)


def _unit_of_work(nodeid: str) -> str:
    return next((folder for folder in SHARED_FIXTURE_FOLDERS if nodeid.startswith(folder)), nodeid)


@pytest.hookimpl(optionalhook=True)  # an xdist hook: unknown where xdist is absent or -p no:xdist
def pytest_xdist_make_scheduler(config, log):  # noqa: ANN001, ANN201
    if config.getvalue("dist") != "load":  # an explicit --dist loadfile/loadscope/... is kept
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedFixtureScheduling(LoadScopeScheduling):
        """xdist's `load`, but the tests of a SHARED_FIXTURE_FOLDERS folder go to one worker
        (the largest units first: they are the long poles)."""

        def _split_scope(self, nodeid: str) -> str:
            return _unit_of_work(nodeid)

    return SharedFixtureScheduling(config, log)
