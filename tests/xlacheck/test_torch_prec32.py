"""Facts of the thirty-second session's torch precision lane (issue 12), each with snippets written here.

- A project's own CUDA autocast query (openfold's ``is_fp16_enabled()``: ``torch.get_autocast_gpu_dtype() ==
  torch.float16 and torch.is_autocast_enabled()``) is False on the XLA device, as ``torch.is_autocast_enabled()``
  itself is (measured: ``xlacheck.analysis.torch_model._cuda_autocast_query``), in its own module and in the
  modules that import it (:func:`xlacheck.analysis.torch_model.cuda_autocast_helpers`, ``analysis.project.imports``).
- An operand after one that decides an ``and``/``or`` chain on XLA never runs, also in the middle of a chain of
  three (``is_fp16_enabled() and a_std != 0. and b_std != 0.``): XLA350 read ``a_std != 0.`` as a host read.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from xlacheck.analysis.imports import AliasTable
from xlacheck.analysis.torch_model import canonical, cuda_autocast_helpers
from xlacheck.api import check_paths
from xlacheck.config import Settings
from xlacheck.engine import check_source

QUERY = """
import torch


def is_fp16_enabled():
    # Autocast world
    fp16_enabled = torch.get_autocast_gpu_dtype() == torch.float16
    fp16_enabled = fp16_enabled and torch.is_autocast_enabled()

    return fp16_enabled
"""

BLOCK = """
class Tri(nn.Module):
    def forward(self, a, b):
        a_std = a.std()
        b_std = b.std()
        if is_fp16_enabled() and a_std != 0. and b_std != 0.:
            a = a / a_std
        return a + b
"""


def _found(src: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in check_source(textwrap.dedent(src), "t.py", torch_xla=True).diagnostics]


def _helpers(src: str) -> tuple[str, ...]:
    tree = ast.parse(textwrap.dedent(src))
    aliases = AliasTable()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            aliases.add(n)
    return cuda_autocast_helpers(tree, lambda e: canonical(aliases.resolve(e)))


def test_a_module_s_own_autocast_query_decides_its_guard() -> None:
    src = QUERY + "import torch.nn as nn\n" + BLOCK
    assert _found(src) == []
    # a query of another state (a CUDA device present) decides nothing on XLA: the read is there
    other = src.replace("fp16_enabled and torch.is_autocast_enabled()", "fp16_enabled and torch.cuda.is_available()")
    assert _found(other) == [("XLA350", 17)]


@pytest.mark.parametrize("body, helper", [
    ("    return torch.is_autocast_enabled()\n", True),
    ("    return torch.is_autocast_enabled('cuda')\n", True),
    ("    '''doc'''\n    return torch.cuda.is_available() and torch.is_autocast_enabled()\n", True),
    ("    return torch.is_autocast_enabled('xla')\n", False),  # True under torch.autocast("xla")
    ("    return torch.is_autocast_enabled() or flag\n", False),  # `or`: decided by the other operand
    ("    return not torch.is_autocast_enabled()\n", False),  # True on XLA, not False
    ("    x = torch.is_autocast_enabled()\n    x = other()\n    return x\n", False),  # rebound
    ("    if flag:\n        return True\n    return torch.is_autocast_enabled()\n", False),  # not straight-line
])
def test_which_defs_are_autocast_queries(body: str, helper: bool) -> None:
    assert _helpers("import torch\nflag = 1\n\n\ndef query():\n" + body) == (("query",) if helper else ())


def test_a_def_with_parameters_or_bound_twice_is_no_query() -> None:
    assert _helpers("import torch\n\n\ndef query(x):\n    return torch.is_autocast_enabled()\n") == ()
    twice = "import torch\n\n\ndef query():\n    return torch.is_autocast_enabled()\n\n\nquery = None\n"
    assert _helpers(twice) == ()


def _write(tmp_path: Path, util: str) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/util.py": util,
        "pkg/mod.py": "import torch\nimport torch.nn as nn\n"
                      "from pkg.util import is_fp16_enabled\nfrom pkg import util\n"
                      + BLOCK.replace("        return a + b\n", "        if util.is_fp16_enabled() and a_std != 0.:\n"
                                      "            a = a / a_std\n        return a + b\n")
                      + "\n\ndef build():\n    return Tri()\n",
        "train.py": "from pkg.mod import build\nbuild()\n",
    }
    for name, src in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(src))


def _lint(tmp_path: Path, util: str) -> list[tuple[str, str, int]]:
    _write(tmp_path, util)
    result = check_paths([str(tmp_path)], Settings(cache=False, root=tmp_path, torch_xla=True))
    return sorted((Path(f.path).name, d.code, d.line) for f in result.files for d in f.diagnostics)


def test_an_imported_autocast_query_decides_the_importer_s_guards(tmp_path: Path) -> None:
    assert _lint(tmp_path, QUERY) == []
    other = QUERY.replace("fp16_enabled and torch.is_autocast_enabled()", "fp16_enabled and torch.cuda.is_available()")
    assert _lint(tmp_path, other) == [("mod.py", "XLA350", 10), ("mod.py", "XLA350", 12)]


def test_an_operand_after_the_deciding_one_is_not_read() -> None:
    src = "import torch\nimport torch.nn as nn\n" + BLOCK.replace("is_fp16_enabled()", "torch.is_autocast_enabled()")
    assert _found(src) == []
    assert _found(src.replace("torch.is_autocast_enabled()", "torch.cuda.is_available()")) == [("XLA350", 8)]
