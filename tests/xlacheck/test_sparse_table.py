"""The sparse table: the lookups XLA309's sparse-argument check relies on, read without TensorFlow."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from xlacheck import sparse_table
from xlacheck.analysis.sparse import is_sparse

ROOT = Path(__file__).resolve().parents[2]


def test_loader_does_not_import_tensorflow_or_numpy() -> None:
    code = (
        "import sys\n"
        "from xlacheck import sparse_table\n"
        "sparse_table.missing_kernels('tf.nn.ctc_loss'); sparse_table.returns_sparse(); sparse_table.table_info()\n"
        "print(','.join(sorted(m for m in ('tensorflow', 'numpy') if m in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == ""


def test_header_names_tensorflow_backend_and_command() -> None:
    info = sparse_table.table_info()
    assert info["tensorflow"].startswith("2.")
    assert info["generated_by"] == "python tools/generate_sparse_table.py"
    assert "XLA_CPU_JIT" in info["backend"]


def test_measured_facts_xla309_reads() -> None:
    assert sparse_table.missing_kernels("tf.nn.ctc_loss") == ("CTCLoss",)
    assert sparse_table.missing_kernels("tf.sparse.sparse_dense_matmul") == ("SparseTensorDenseMatMul",)
    for compiles in ("tf.sparse.to_dense", "tf.sparse.retain", "tf.sparse.expand_dims", "SparseTensor.values",
                     "tf.cast"):
        assert compiles in sparse_table.probed() and sparse_table.missing_kernels(compiles) == (), compiles
    assert sparse_table.constructors() == {"tf.sparse.from_dense", "tf.SparseTensor",
                                           "tf.keras.backend.ctc_label_dense_to_sparse"}
    made = sparse_table.returns_sparse()
    assert {"tf.sparse.reorder", "tf.sparse.retain", "tf.sparse.reshape"} <= made
    assert "tf.sparse.to_dense" not in made and "tf.sparse.fill_empty_rows" not in made  # dense / a tuple


def _sparse_names(src: str) -> dict[str, bool]:
    function = ast.parse(src).body[0]
    names = {n.id: n for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return {k: is_sparse(v, function, lambda e: ast.unparse(e)) for k, v in sorted(names.items())}


def test_sparse_values_follow_assignments() -> None:
    src = ("def f(x, arg):\n"
           "    s = tf.sparse.from_dense(x)\n"
           "    r = tf.sparse.reorder(s)\n"
           "    c = tf.cast(r, tf.int32)\n"
           "    d = tf.sparse.to_dense(c)\n"
           "    m = s if x else d\n"
           "    return c, d, m, arg\n")
    got = _sparse_names(src)
    assert got["s"] and got["r"] and got["c"]
    assert not got["d"] and not got["m"] and not got["arg"] and not got["x"]
