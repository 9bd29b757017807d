"""What a training loop reports as it runs, shared by the TensorFlow and the torch_xla loops: the
start (strategy, replicas, XLA set-up, batch shapes) and each progress point. The CLI's observer
renders them (a live bar on a terminal, plain lines in a pipe)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


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
