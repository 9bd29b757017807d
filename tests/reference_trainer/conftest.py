"""Shared tiny runs: one prepared corpus and one trained model for the whole session.

Everything is sized for a 2-core CPU: ~400 documents, a 300-token vocabulary, 32-token blocks,
the `micro` model and 20 steps.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
pytest.importorskip("tensorflow")
pytest.importorskip("transformers")

from reference_trainer.config import TrainerConfig  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TINY = dict(
    max_documents=400, vocab_size=300, block_length=32, records_per_shard=40, model_preset="micro",
    batch_size=8, train_steps=20, warmup_steps=2, steps_per_execution=5, checkpoint_every=10,
    learning_rate=2e-3, shuffle_buffer=200, skip_preflight=True,
)
TINY_FLAGS = [
    "--max-documents", "400", "--vocab-size", "300", "--block-length", "32", "--records-per-shard", "40",
    "--model-preset", "micro", "--batch-size", "8", "--train-steps", "20", "--warmup-steps", "2",
    "--steps-per-execution", "5", "--checkpoint-every", "10", "--learning-rate", "2e-3",
    "--shuffle-buffer", "200", "--skip-preflight", "--no-progress",
    # 20 steps of the micro model land at about the frequency baseline (XLA ignores dropout
    # seeds, so either side of it): these runs test the stages, not what the model learns
    "--allow-failed-checks",
]


def tiny_config(output_dir: str | Path, **changes: object) -> TrainerConfig:
    return TrainerConfig(output_dir=str(output_dir), **{**TINY, **changes})


def copy_prepared(source: Path, target: Path) -> Path:
    """A private copy of a prepared run (data, tokenizer, manifest's `prepare` record only)."""
    import json

    shutil.copytree(source / "data", target / "data")
    shutil.copytree(source / "tokenizer", target / "tokenizer")
    manifest = json.loads((source / "manifest.json").read_text())
    (target / "manifest.json").write_text(json.dumps({"format": manifest["format"], "prepare": manifest["prepare"]}))
    return target


def run_cli(args: list[str], env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "reference_trainer", *args], cwd=REPO, env=full_env, capture_output=True,
        text=True, timeout=timeout,
    )


@pytest.fixture(scope="session")
def prepared_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from reference_trainer.shards import prepare

    out = tmp_path_factory.mktemp("prepared")
    prepare(tiny_config(out))
    return out


@pytest.fixture(scope="session")
def runtime():  # noqa: ANN201
    from reference_trainer.strategy import resolve_strategy

    return resolve_strategy(None, "auto")


@pytest.fixture(scope="session")
def trained(prepared_dir: Path, runtime, tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN001, ANN201
    """(output_dir, TrainResult) of one tiny in-process training run."""
    from reference_trainer.train import train

    out = copy_prepared(prepared_dir, tmp_path_factory.mktemp("trained"))
    return out, train(tiny_config(out), runtime)
