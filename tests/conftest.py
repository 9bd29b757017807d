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
if _FLAG not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {_FLAG}".strip()

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


# Shared fixtures too cheap to be worth serializing their users on one worker (an import, a
# distribution strategy): every worker builds its own.
_CHEAP_SHARED = {"runtime", "tf", "generator"}


def _shared_fixtures(item) -> list[str]:  # noqa: ANN001
    """This suite's module- and session-scoped fixtures that ``item`` uses (pytest's own, such as
    tmp_path_factory, are left out): names qualified by where one instance lives."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    shared = []
    for name, defs in info.name2fixturedefs.items():
        fixture = defs[-1]
        if (fixture.scope in ("module", "package", "session") and fixture.baseid.startswith("tests")
                and name not in _CHEAP_SHARED):
            owner = item.module.__name__ if fixture.scope == "module" else fixture.baseid
            shared.append(f"{owner}::{name}")
    return sorted(shared)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the marks
def pytest_collection_modifyitems(config, items) -> None:  # noqa: ANN001
    """Under xdist's loadgroup, tests linked by the expensive shared fixtures they use (the tiny
    trained model, the prepared shards, one torch_xla trainer run) form one group, run on one
    worker, so each fixture is built once, not once per worker; every other test is scheduled
    alone. Linked: two tests sharing any such fixture, transitively (connected components)."""
    if not config.pluginmanager.hasplugin("xdist") or getattr(config.option, "dist", "no") != "loadgroup":
        return
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    uses = [(item, _shared_fixtures(item)) for item in items]
    for _, shared in uses:
        for key in shared:
            parent[find(key)] = find(shared[0])
    members: dict[str, list[str]] = {}
    for key in list(parent):
        members.setdefault(find(key), []).append(key)
    names = {root: min(keys) for root, keys in members.items()}  # stable, readable group names
    for item, shared in uses:
        if shared:
            item.add_marker(pytest.mark.xdist_group(names[find(shared[0])]))
