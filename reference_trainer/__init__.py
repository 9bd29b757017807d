"""A runnable masked-language-model pipeline that proves the path to XLA/TPU works."""

from __future__ import annotations
