"""TensorFlow's start-up lines on stderr, filtered: no CUDA probing noise on a machine without a GPU.

TensorFlow writes its C++ log lines before its logging is initialised ("All log messages before
absl::InitializeLog() is called are written to STDERR"), so ``TF_CPP_MIN_LOG_LEVEL`` does not
reach them, and on a machine without a GPU its CUDA probe logs an *error*::

    E0000 00:00:1795619674.742118    9535 cuda_platform.cc:52] failed call to cuInit: INTERNAL: CUDA error: ...

No environment variable silences that one line without silencing every error
(``TF_CPP_MIN_LOG_LEVEL=3``). So while TensorFlow is imported and lists its GPUs, file
descriptor 2 goes to a temporary file; afterwards the lines are written to the real stderr,
except:

- the CUDA probe's lines (``cuda_platform.cc``, ``cudart_stub.cc``, ``cuda_driver.cc``, ...),
  only when no GPU was found: with a GPU they are kept, since they then describe the GPU;
- info (``I``) and warning (``W``) lines below ``TF_CPP_MIN_LOG_LEVEL`` (what that variable
  means, applied to the lines TensorFlow writes before it honours it), and absl's notice above.

Every other line, errors and fatal lines included, is written as it came, in order. A process
that crashes inside that window loses its lines; ``REFERENCE_TRAINER_RAW_TF_STDERR=1`` turns
the filter off.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

RAW_ENV = "REFERENCE_TRAINER_RAW_TF_STDERR"
# absl's prefix: severity letter, MMDD, time, thread id, file:line]
_ABSL_LINE = re.compile(r"^(?P<severity>[IWEF])\d{4} [\d:.]+\s+\d+ (?P<file>[\w.]+):\d+\] ")
_CUDA_PROBE_FILES = re.compile(r"^(cuda_\w+|cudart_stub|dso_loader|gpu_\w+|cuda)\.cc$")
_ABSL_NOTICE = "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR"
_LEVELS = {"I": 0, "W": 1, "E": 2, "F": 3}


def filter_startup_lines(lines: list[str], *, gpus: int, min_log_level: int) -> list[str]:
    """The lines to show of what TensorFlow wrote to stderr while it started."""
    kept = []
    for line in lines:
        if line.rstrip("\n") == _ABSL_NOTICE and min_log_level >= 1:
            continue
        match = _ABSL_LINE.match(line)
        if match:
            severity = match["severity"]
            if severity != "F" and _LEVELS[severity] < min_log_level:
                continue
            if gpus == 0 and severity != "F" and _CUDA_PROBE_FILES.match(match["file"]):
                continue
        kept.append(line)
    return kept


@dataclass
class StartupWindow:
    gpus: int = 0  # set by the code inside the window once it has listed the GPUs


@contextmanager
def filtered_startup_stderr() -> Iterator[StartupWindow]:
    """Hold fd 2 while the body runs; then write what came, filtered, to the real stderr."""
    window = StartupWindow()
    if os.environ.get(RAW_ENV, "") not in ("", "0"):
        yield window
        return
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield window
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            held.seek(0)
            lines = held.read().decode("utf-8", "replace").splitlines(keepends=True)
            try:
                level = int(os.environ.get("TF_CPP_MIN_LOG_LEVEL", "0"))
            except ValueError:
                level = 0
            shown = filter_startup_lines(lines, gpus=window.gpus, min_log_level=level)
            if shown:
                sys.stderr.write("".join(shown))
                sys.stderr.flush()


def import_tensorflow(list_gpus: bool = True) -> int:
    """Import TensorFlow (and list its GPUs, which runs the CUDA probe) with the start-up lines
    filtered; the number of GPUs found. ``list_gpus=False`` for a TPU run, whose cluster must
    be connected before the runtime looks at devices."""
    with filtered_startup_stderr() as window:
        import tensorflow as tf

        if list_gpus:
            window.gpus = len(tf.config.list_physical_devices("GPU"))
        else:
            window.gpus = -1  # unknown: keep the CUDA lines
    return window.gpus
