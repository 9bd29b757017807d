"""The ragged table: the lookups XLA204's ragged check relies on, read without TensorFlow."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from xlacheck import ragged_table

ROOT = Path(__file__).resolve().parents[2]


def test_loader_does_not_import_tensorflow_or_numpy() -> None:
    code = (
        "import sys\n"
        "from xlacheck import ragged_table\n"
        "ragged_table.failing_probes('tf.map_fn', 'from_row_lengths'); ragged_table.table_info()\n"
        "print(','.join(sorted(m for m in ('tensorflow', 'numpy') if m in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == ""


def test_header_names_tensorflow_backend_and_command() -> None:
    info = ragged_table.table_info()
    assert info["tensorflow"].startswith("2.")
    assert info["generated_by"] == "python tools/generate_ragged_table.py"
    assert "XLA_CPU_JIT" in info["backend"]


def test_measured_facts_xla204_reads() -> None:
    for form in ("from_row_lengths", "from_row_splits", "from_value_rowids", "from_tensor_padding",
                 "from_tensor_lengths", "argument"):
        to_tensor = ragged_table.failing_probes("RaggedTensor.to_tensor", form)
        assert to_tensor and all(p.outcome == "xla_error" for p in to_tensor), form
    assert ragged_table.failing_probes("tf.map_fn", "from_row_lengths")
    reduce_rows = ragged_table.failing_probes("tf.reduce_mean", "from_row_lengths", "axis1")
    assert reduce_rows and {p.outcome for p in reduce_rows} == {"xla_error"}
    assert {p.outcome for p in ragged_table.failing_probes("tf.reduce_sum", "from_row_splits", "axis1")} == {
        "value_specialized"}
    assert ragged_table.failing_probes("tf.reduce_sum", "argument", "axis1") == ()  # splits passed in: compiles
    assert ragged_table.failing_probes("tf.reduce_sum", "from_row_lengths", "axis0")  # across rows: fails
    # over all axes: compiles (XLA204 does not flag it)
    assert ragged_table.measured("tf.reduce_sum", "from_row_lengths", "no_axis")
    assert ragged_table.failing_probes("tf.reduce_sum", "from_row_lengths", "no_axis") == ()
    assert ragged_table.failing_probes("RaggedTensor.flat_values", "from_row_lengths") == ()
    assert ragged_table.failing_probes("RaggedTensor.row_lengths", "from_row_lengths") == ()
    assert "tf.reduce_max" in ragged_table.probed()
    assert "argument" in ragged_table.forms()
