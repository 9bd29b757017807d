"""A runnable masked-language-model pipeline that proves the path to XLA/TPU works.

Stages (``python -m reference_trainer prepare|train|evaluate|fill-mask|run``) share one frozen
:class:`~reference_trainer.config.TrainerConfig` recorded in ``manifest.json``; each stage checks
the manifest the previous one wrote.

transformers' TF models need the legacy Keras 2 (tf-keras): the variable must be set before
TensorFlow is first imported, so it is set here, before any submodule can import TensorFlow.
"""

from __future__ import annotations

import os

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
# Quiets TensorFlow's C++ runtime log where it honours this (its import-time lines it does not).
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
