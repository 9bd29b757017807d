"""What a training loop reports as it runs, shared by the TensorFlow and the torch_xla loops: the
start (strategy, replicas, XLA set-up, batch shapes), each progress point (the CLI's observer
renders them: a live bar on a terminal, plain lines in a pipe) and the run's history file."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from reference_trainer import storage

HISTORY_FILE = "train_history.jsonl"


@dataclass(frozen=True)
class TrainStart:
    start_step: int
    total_steps: int
    strategy: str
    replicas: int
    jit_compile: bool
    jit_reason: str
    dry_run_seconds: float
    batch_shapes: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Progress:
    step: int
    total_steps: int
    loss: float
    masked_accuracy: float
    tokens_per_second: float
    learning_rate: float


class TrainObserver(Protocol):
    def on_start(self, start: TrainStart) -> None: ...
    def on_progress(self, progress: Progress) -> None: ...


def history_path(out: str) -> str:
    return storage.join(out, HISTORY_FILE)


def read_history(out: str, up_to_step: int) -> list[dict[str, Any]]:
    path = history_path(out)
    if not storage.exists(path):
        return []
    rows = [json.loads(line) for line in storage.read_text(path).splitlines() if line.strip()]
    # Executions after the last checkpoint are trained again on resume: drop their rows.
    return [row for row in rows if row["step"] <= up_to_step]


def write_history(out: str, rows: list[dict[str, Any]]) -> None:
    storage.write_text_atomic(history_path(out), "".join(json.dumps(row) + "\n" for row in rows))
