"""The bounded-dynamic table: the lookups XLA119 relies on, read without TensorFlow."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from xlacheck import bounded_dynamic_table

ROOT = Path(__file__).resolve().parents[2]


def test_loader_does_not_import_tensorflow_or_numpy() -> None:
    code = (
        "import sys\n"
        "from xlacheck import bounded_dynamic_table\n"
        "bounded_dynamic_table.failing_probes('tf.squeeze', 'no_axis'); bounded_dynamic_table.table_info()\n"
        "print(','.join(sorted(m for m in ('tensorflow', 'numpy') if m in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == ""


def test_header_names_tensorflow_backend_and_command() -> None:
    info = bounded_dynamic_table.table_info()
    assert info["tensorflow"].startswith("2.")
    assert info["generated_by"] == "python tools/generate_bounded_dynamic_table.py"
    assert "XLA_CPU_JIT" in info["backend"]


def test_measured_facts_xla119_reports() -> None:
    squeeze = bounded_dynamic_table.failing_probes("tf.squeeze", "no_axis")
    assert squeeze and all(p.outcome == "xla_error" for p in squeeze)
    assert bounded_dynamic_table.failing_probes("tf.squeeze", "axis") == ()  # a named axis compiles
    assert {p.outcome for p in bounded_dynamic_table.failing_probes("tf.ones_like", "any")} == {"wrong_shape",
                                                                                                  "differs"}
    assert bounded_dynamic_table.failing_probes("tf.zeros_like", "any") == ()
    assert bounded_dynamic_table.failing_probes("tf.reshape", "any") == ()
    assert "tf.sort" in bounded_dynamic_table.probed()
