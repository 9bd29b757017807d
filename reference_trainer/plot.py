"""The run's curves as a PNG, when matplotlib is installed (the ``plot`` extra).

Two panels: masked-LM loss (train per host call, eval points) and masked accuracy (train, eval
points, and the frequency baseline an eval must beat: always predicting the most frequent
masked token).
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from collections.abc import Sequence
from typing import Any

from reference_trainer import storage

log = logging.getLogger(__name__)


def _read_rows(path: str) -> list[dict[str, Any]]:
    if not storage.exists(path):
        return []
    return [json.loads(line) for line in storage.read_text(path).splitlines() if line.strip()]


def loss_figure(
    history: Sequence[tuple[int, float]], title: str, *, accuracy: Sequence[tuple[int, float]] = (),
    evals: Sequence[dict[str, float]] = (),
) -> Any:
    """The matplotlib figure: ``history`` (step, train loss), ``accuracy`` (step, train masked
    accuracy), ``evals`` rows with step, loss, masked_accuracy and frequency_baseline."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = 2 if accuracy or evals else 1
    figure, axes = plt.subplots(1, panels, figsize=(6 * panels, 3.5), dpi=120, squeeze=False)
    loss_axis = axes[0][0]
    steps, losses = zip(*history)
    loss_axis.plot(steps, losses, marker=".", linewidth=1, label="train")
    if evals:
        loss_axis.plot([e["step"] for e in evals], [e["loss"] for e in evals], "o", color="C3", label="eval")
    loss_axis.set_xlabel("step")
    loss_axis.set_ylabel("masked-LM loss")
    loss_axis.set_title(title)
    loss_axis.grid(alpha=0.3)
    loss_axis.legend()
    if panels == 2:
        acc_axis = axes[0][1]
        if accuracy:
            acc_steps, accs = zip(*accuracy)
            acc_axis.plot(acc_steps, accs, marker=".", linewidth=1, label="train")
        if evals:
            acc_axis.plot([e["step"] for e in evals], [e["masked_accuracy"] for e in evals], "o", color="C3",
                          label="eval")
            acc_axis.axhline(evals[-1]["frequency_baseline"], color="grey", linestyle="--",
                             label="baseline: most frequent token")
        acc_axis.set_xlabel("step")
        acc_axis.set_ylabel("masked accuracy")
        acc_axis.grid(alpha=0.3)
        acc_axis.legend()
    figure.tight_layout()
    return figure


def plot_loss(
    history: Sequence[tuple[int, float]], path: str, title: str, *, accuracy: Sequence[tuple[int, float]] = (),
    evals: Sequence[dict[str, float]] = (),
) -> str | None:
    """Write the curves to ``path`` (local or URL); ``None`` without matplotlib or history."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        log.info("matplotlib is not installed: no loss curve (pip install matplotlib)")
        return None
    if not history:
        return None
    import matplotlib.pyplot as plt

    figure = loss_figure(history, title, accuracy=accuracy, evals=evals)
    with tempfile.TemporaryDirectory() as tmp:
        local = os.path.join(tmp, "loss.png")
        figure.savefig(local)
        plt.close(figure)
        storage.gfile().copy(local, path, overwrite=True)
    return path


def plot_run(output_dir: str, title: str) -> str | None:
    """``RUN/loss.png`` from the run's train and eval histories."""
    from reference_trainer.evaluate import EVAL_HISTORY_FILE
    from reference_trainer.progress import history_path

    rows = _read_rows(history_path(output_dir))
    evals = _read_rows(storage.join(output_dir, EVAL_HISTORY_FILE))
    history = [(int(r["step"]), float(r["loss"])) for r in rows]
    accuracy = [(int(r["step"]), float(r["masked_accuracy"])) for r in rows]
    return plot_loss(history, storage.join(output_dir, "loss.png"), title, accuracy=accuracy, evals=evals)
