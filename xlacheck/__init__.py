"""xlacheck: find what breaks or slows XLA in TensorFlow/Keras code, before it reaches a TPU.

This package never imports TensorFlow, numpy or transformers: it must start fast enough for a
pre-commit hook.
"""

from __future__ import annotations

__version__ = "0.1.0"
