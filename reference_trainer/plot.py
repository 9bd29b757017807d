"""The loss curve as a PNG, when matplotlib is installed (the ``plot`` extra)."""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Sequence

from reference_trainer import storage

log = logging.getLogger(__name__)


def plot_loss(history: Sequence[tuple[int, float]], path: str, title: str) -> str | None:
    """Write the (step, loss) curve to ``path`` (local or URL); ``None`` without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log.info("matplotlib is not installed: no loss curve (pip install matplotlib)")
        return None
    if not history:
        return None
    steps, losses = zip(*history)
    figure, axis = plt.subplots(figsize=(6, 3.5), dpi=120)
    axis.plot(steps, losses, marker=".", linewidth=1)
    axis.set_xlabel("step")
    axis.set_ylabel("masked-LM loss (train)")
    axis.set_title(title)
    axis.grid(alpha=0.3)
    figure.tight_layout()
    with tempfile.TemporaryDirectory() as tmp:
        local = os.path.join(tmp, "loss.png")
        figure.savefig(local)
        plt.close(figure)
        storage.gfile().copy(local, path, overwrite=True)
    return path
