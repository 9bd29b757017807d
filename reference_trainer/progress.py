"""What a training loop reports as it runs, shared by the TensorFlow and the torch_xla loops: the
start (strategy, replicas, XLA set-up, batch shapes), each progress point (the CLI's observer
renders them: a live bar on a terminal, plain lines in a pipe) and the run's history file."""

from __future__ import annotations

import json
import os
import signal
from dataclasses import dataclass
from typing import Any, Protocol

from reference_trainer import storage

HISTORY_FILE = "train_history.jsonl"
# Test hook: SIGKILL this process right after the checkpoint at or beyond this step is written.
KILL_AFTER_CHECKPOINT_ENV = "REFERENCE_TRAINER_KILL_AFTER_CHECKPOINT"


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


def checkpoint_written(step: int) -> None:
    """Both loops call this after each checkpoint: the crash test's hook (it kills this process
    when :data:`KILL_AFTER_CHECKPOINT_ENV` names a step at or below ``step``)."""
    kill_after = os.environ.get(KILL_AFTER_CHECKPOINT_ENV)
    if kill_after and step >= int(kill_after):
        os.kill(os.getpid(), signal.SIGKILL)


@dataclass
class Throughput:
    """Real tokens and seconds over every host read of a loop, and over those after the first
    (which includes compilation)."""

    tokens: float = 0.0
    seconds: float = 0.0
    steady_tokens: float = 0.0
    steady_seconds: float = 0.0
    reads: int = 0

    def add(self, tokens: float, seconds: float) -> None:
        self.tokens += tokens
        self.seconds += seconds
        if self.reads:
            self.steady_tokens += tokens
            self.steady_seconds += seconds
        self.reads += 1

    @property
    def steady_rate(self) -> float:
        return self.steady_tokens / self.steady_seconds if self.steady_seconds else 0.0

    @property
    def rate_with_compile(self) -> float:
        return self.tokens / self.seconds if self.seconds else 0.0
