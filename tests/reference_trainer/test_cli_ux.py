"""The CLI as a user meets it: progress in a pipe, early flag errors, Ctrl-C, exit codes, logs."""

from __future__ import annotations

import io
import logging

import pytest
from rich.console import Console

from reference_trainer.cli import _RichObserver
from reference_trainer.train import Progress, TrainStart

pytestmark = pytest.mark.tf


def _start(start_step: int = 0, total: int = 600) -> TrainStart:
    return TrainStart(start_step, total, "default", 1, True, "auto: on for CPU", 1.0, ((32, 64),))


def _feed(observer: _RichObserver, start: TrainStart, every: int) -> None:
    observer.on_start(start)
    for step in range(start.start_step + every, start.total_steps + 1, every):
        observer.on_progress(Progress(step, start.total_steps, 5.0, 0.1, 1000.0, 1e-3))
    observer.close()


def _logged_steps(caplog: pytest.LogCaptureFixture) -> list[int]:
    return [int(r.getMessage().split()[1].split("/")[0]) for r in caplog.records if r.getMessage().startswith("step ")]


def test_without_a_terminal_a_plain_line_every_n_steps(caplog: pytest.LogCaptureFixture) -> None:
    piped = Console(file=io.StringIO(), force_terminal=False)
    assert not piped.is_terminal
    with caplog.at_level(logging.INFO, logger="reference_trainer"):
        _feed(_RichObserver(piped, enabled=True), _start(), every=20)
    # ~20 lines for the run: every 30 steps (rounded to the 20-step host calls), the first and the last
    assert _logged_steps(caplog) == [20, 40, 60, 100, 120, 160, 180, 220, 240, 280, 300, 340, 360, 400, 420,
                                     460, 480, 520, 540, 580, 600]
    assert "loss 5.0000 masked acc 0.100" in caplog.records[-1].getMessage()


def test_log_every_and_a_resumed_start(caplog: pytest.LogCaptureFixture) -> None:
    piped = Console(file=io.StringIO(), force_terminal=False)
    with caplog.at_level(logging.INFO, logger="reference_trainer"):
        _feed(_RichObserver(piped, enabled=True, log_every=100), _start(start_step=200), every=20)
    assert _logged_steps(caplog) == [220, 300, 400, 500, 600]


def test_no_progress_logs_every_host_call_and_a_terminal_gets_the_bar(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="reference_trainer"):
        _feed(_RichObserver(Console(file=io.StringIO(), force_terminal=False), enabled=False), _start(total=100), 20)
    assert _logged_steps(caplog) == [20, 40, 60, 80, 100]
    caplog.clear()
    terminal = Console(file=io.StringIO(), force_terminal=True)
    with caplog.at_level(logging.INFO, logger="reference_trainer"):
        _feed(_RichObserver(terminal, enabled=True), _start(total=100), 20)
    assert _logged_steps(caplog) == [] and "100/100" in terminal.file.getvalue()
