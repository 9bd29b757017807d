"""PyTorch/XLA tests: skipped unless torch_xla (the [torch-xla] extra) is installed.

Everything that touches an XLA device runs in a subprocess with ``PJRT_DEVICE=CPU``: torch_xla's
runtime is per process (and must exist before any CPU backward), and TensorFlow, which other
test folders import, never shares a process with it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# Found, never imported here: importing torch_xla in a process that has loaded TensorFlow aborts
# it (measured with TF 2.21 + torch_xla 2.9.0), and other test folders import TensorFlow. A skip
# raised while a conftest loads is an error when this folder is the one pytest was given, so a
# missing dependency leaves the folder's test files uncollected and says why in the header.
MISSING = [name for name in ("torch", "torch_xla", "transformers", "safetensors")
           if importlib.util.find_spec(name) is None]
if MISSING:
    collect_ignore_glob = ["test_*.py"]


def pytest_report_header() -> str | None:
    if MISSING:
        return f"tests/trainer_torch not collected: {', '.join(MISSING)} not installed (pip install \".[torch-xla]\")"
    return None

REPO = Path(__file__).resolve().parents[2]
TINY_FLAGS = [
    "--framework", "torch", "--max-documents", "400", "--vocab-size", "300", "--block-length", "32",
    "--records-per-shard", "40", "--model-preset", "micro", "--batch-size", "8", "--train-steps", "20",
    "--warmup-steps", "2", "--steps-per-execution", "5", "--checkpoint-every", "10", "--learning-rate", "2e-3",
    "--shuffle-buffer", "200", "--skip-preflight", "--no-progress",
    # as the TF tests: 20 steps of the micro model land near the frequency baseline, so these runs
    # test the stages (their accounting is asserted from the manifest), not what the model learns
    "--allow-failed-checks",
]


# These runs test the trainer (stages, compile accounting, resume, devices), not XLA's code
# generation: LLVM at -O0 compiles each step program faster and leaves the HLO, the number of
# compilations and the fallbacks as they are. Every run here, references included, gets the same
# flags, so the loss comparisons between runs still compare like with like. (A tiny `run`: 19.0 ->
# 15.2 CPU-s on the 2-core machine, two runs side by side.) tests/conftest.py sets the same flag
# for the test processes themselves.
_FAST_CODEGEN = "--xla_backend_optimization_level=0"


def xla_env(**extra: str) -> dict[str, str]:
    flags = os.environ.get("XLA_FLAGS", "")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PJRT_DEVICE": "CPU", "TF_CPP_MIN_LOG_LEVEL": "2",
           "TRANSFORMERS_VERBOSITY": "error",
           "XLA_FLAGS": flags if _FAST_CODEGEN in flags else f"{flags} {_FAST_CODEGEN}".strip(),
           "USE_TORCH_XLA": "1", **extra}  # tests/conftest.py turns it off for the TF process
    env.pop("CPU_NUM_DEVICES", None) if "CPU_NUM_DEVICES" not in extra else None
    return env


def run_cli(args: list[str], timeout: float = 600, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reference_trainer", *args], cwd=REPO, env=xla_env(**env), capture_output=True,
        text=True, timeout=timeout,
    )


def run_snippet(code: str, timeout: float = 600, **env: str) -> dict:
    """Run ``code`` in a fresh torch_xla process; it prints one JSON line last."""
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=REPO, env=xla_env(**env), capture_output=True,
        text=True, timeout=timeout,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


@pytest.fixture(scope="session")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Shards and tokenizer prepared once (`prepare --framework torch`): the runs that compare
    their losses (one vs two devices, fp32 vs bf16, killed and resumed vs uninterrupted) must read
    the same data (the BPE tokenizer's training is not bitwise repeatable), and a prepare costs a
    torch start-up."""
    out = tmp_path_factory.mktemp("prepared") / "run"
    proc = run_cli(["prepare", "--output-dir", str(out), *TINY_FLAGS])
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return out


def copy_of(prepared: Path, target: Path) -> Path:
    shutil.copytree(prepared, target)
    return target


@pytest.fixture(scope="session")
def full_run(prepared: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """One uninterrupted tiny fp32 run on one device of every stage after prepare (train,
    evaluate, fill-mask) on the prepared shards: the run the trainer tests read, and the one-device
    and fp32 references of the parallel and precision tests."""
    out = copy_of(prepared, tmp_path_factory.mktemp("torch_run") / "run")
    proc = run_cli(["run", "--output-dir", str(out), *TINY_FLAGS])
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return out, proc.stdout
