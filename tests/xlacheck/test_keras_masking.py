"""The Keras implicit-mask table (XLA313): the lookups the rule relies on, and (with TensorFlow and
Keras) a new measurement compared with the checked-in file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from xlacheck import keras_masking

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "xlacheck" / "data" / "keras_masking.json"


def test_loader_does_not_import_tensorflow_or_keras() -> None:
    code = ("import sys\nfrom xlacheck import keras_masking\n"
            "keras_masking.consumer('tf.keras.layers.LSTM'); keras_masking.producer('keras.layers.Embedding')\n"
            "print(','.join(sorted(m for m in ('tensorflow', 'keras', 'tf_keras', 'numpy') if m in sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == ""


def test_facts_the_rule_relies_on() -> None:
    # read through call(mask=) or from the tensor's _keras_mask, in both Keras front ends
    for front in ("tf.keras.layers.", "keras.layers."):
        assert keras_masking.consumer(front + "LSTM") == "call(mask=)"
        assert keras_masking.consumer(front + "GlobalAveragePooling1D") == "call(mask=)"
        assert keras_masking.consumer(front + "MultiHeadAttention") == "reads _keras_mask"
        assert keras_masking.consumer(front + "Dense") is None
        assert keras_masking.producer(front + "Embedding") == {"mask_zero": True}
        assert keras_masking.producer(front + "Masking") == {"mask_value": 0.0}
        assert keras_masking.producer(front + "Dense") is None
    assert keras_masking.consumer("tf.keras.layers.LSTM.call") is None  # a class name only
    assert keras_masking.consumer("torch.nn.LSTM") is None
    # every consumer measured through a tf.function-decorated call lost its mask
    lost = keras_masking.measured_lost()
    assert set(lost) >= {"MultiHeadAttention", "LSTM", "GlobalAveragePooling1D"} and all(lost.values())


@pytest.mark.tf
@pytest.mark.slow
def test_the_table_agrees_with_keras() -> None:
    """Re-run the generator (it imports TensorFlow, tf-keras and Keras 3 and measures the sample)
    and compare with the checked-in file."""
    pytest.importorskip("tensorflow")
    out = subprocess.run([sys.executable, "tools/generate_keras_mask_table.py", "--check"], capture_output=True,
                         text=True, cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert json.loads(TABLE.read_text())["command"] == "python tools/generate_keras_mask_table.py"
