"""Branches that every call of the project rules out (issue 12, precision, 14th pass).

:func:`xlacheck.analysis.calls.project_literals`: a public function or method whose every call the
run's files show (the name is spelled only as a callee, never a value, an attribute read or a string;
a method's class derives only from ``object``, ``nn.Module`` or such classes of the project; not one of
``nn.Module``'s own method names) leaves a parameter with a literal default at one literal when no call
passes it, or every call passes the same literal; the branches that literal rules out are not step
code. The CLI's project pass and ``benchmarks/torch_real_code.py`` hand the facts to each file.

Each snippet is written here (not copied from a case); findings are pinned by code and line.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from xlacheck.analysis.calls import CallIndex, index_calls, project_literals
from xlacheck.analysis.contexts import analyze_module
from xlacheck.analysis.project import Summary
from xlacheck.api import check_paths
from xlacheck.config import Settings

EMBED = """
import torch
import torch.nn as nn

def rope(x, theta=10000.0, use_real=False):
    freqs = torch.outer(x, x)
    if use_real:
        return freqs.cos()
    return torch.polar(torch.ones_like(freqs), freqs)

class Embed(nn.Module):
    def forward(self, x):
        return self.helper(rope(x, use_real=True))

    def helper(self, x, debug=False):
        if debug:
            print(x.sum().item())
        return x
"""


def _index(src: str) -> CallIndex:
    tree = ast.parse(textwrap.dedent(src))
    return index_calls(tree, analyze_module(tree).functions)


def _facts(*files: str) -> dict[str, dict[str, dict[str, object]]]:
    return project_literals({f"f{i}.py": _index(src) for i, src in enumerate(files)})


def test_a_literal_every_call_of_the_project_passes() -> None:
    assert _facts(EMBED, "import torch\n") == {"f0.py": {"rope": {"theta": 10000.0, "use_real": True},
                                                          "Embed.helper": {"debug": False}}}


def test_calls_that_differ_or_pass_a_value_fix_nothing() -> None:
    two = "def go(x, flag):\n    rope(x, use_real=True)\n    rope(x, 2.0, flag)\n"
    assert _facts(EMBED, two)["f0.py"].get("rope") is None
    splat = "def go(x, kw):\n    return rope(x, **kw)\n"
    assert _facts(EMBED, "def a(x):\n    rope(x, use_real=True)\n", splat)["f0.py"].get("rope") is None


def test_a_name_used_as_a_value_or_string_anywhere_fixes_nothing() -> None:
    calls = "def go(x):\n    rope(x, use_real=True)\n"
    assert _facts(EMBED, calls, "TABLE = {'r': rope}\n")["f0.py"].get("rope") is None
    assert _facts(EMBED, calls, "NAME = 'rope'\n")["f0.py"].get("rope") is None
    uncalled = EMBED.replace("rope(x, use_real=True)", "x")
    assert "rope" not in _facts(uncalled).get("f0.py", {})  # no call at all: nothing is known


def test_a_method_a_framework_base_may_call_fixes_nothing() -> None:
    hf = EMBED.replace("class Embed(nn.Module):", "class Embed(PreTrainedModel):")
    assert list(_facts(hf)["f0.py"]) == ["rope"]
    train = EMBED.replace("helper", "train")  # nn.Module.eval() calls self.train(False)
    assert list(_facts(train)["f0.py"]) == ["rope"]
    sub = EMBED + ("\nclass Sub(Embed):\n    def scale(self, x, k=2):\n        return x * k\n"
                   "    def forward(self, x):\n        return self.scale(x)\n")
    assert _facts(sub)["f0.py"]["Sub.scale"] == {"k": 2}


def test_the_summary_carries_the_index_through_the_cache() -> None:
    summary = Summary((), (), (), (), _index(EMBED))
    assert Summary.from_json(summary.to_json()) == summary


def _write(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int]]:
    for name, src in files.items():
        (tmp_path / name).write_text(textwrap.dedent(src))
    result = check_paths([str(tmp_path)], Settings(cache=False, root=tmp_path, torch_xla=True))
    return sorted((d.code, d.line) for r in result.files for d in r.diagnostics)


def test_the_cli_drops_the_branches_every_call_of_the_run_rules_out(tmp_path: Path) -> None:
    assert _write(tmp_path, {"emb.py": EMBED}) == [("XLA350", 17), ("XLA351", 9)]  # one file: no project pass
    assert _write(tmp_path, {"emb.py": EMBED, "use.py": "import torch\n"}) == []


def test_a_call_elsewhere_that_passes_another_literal_keeps_the_branch(tmp_path: Path) -> None:
    user = "from emb import rope, Embed\n\ndef go(x):\n    Embed().helper(x, debug=True)\n    return rope(x)\n"
    # (use.py imports no framework: its calls count all the same)
    assert _write(tmp_path, {"emb.py": EMBED, "use.py": user}) == [("XLA350", 17), ("XLA351", 9)]


def _one(src: str) -> list[tuple[str, int]]:
    from xlacheck.engine import check_source

    return [(d.code, d.line) for d in check_source(textwrap.dedent(src), "t.py", torch_xla=True).diagnostics]


LENGTHS = """
import torch
import torch.nn as nn

class TextEmbed(nn.Module):
    def forward(self, text, seq_len):
        if {test}:
            n = int(seq_len.max().item())
        else:
            n = int(seq_len)
        return text[:, :1] * 0 + n

class Model(nn.Module):
    def forward(self, x, text, mask):
        a = self.embed(text, x.shape[1])
        return self.embed(text, mask.sum(dim=1)) + a

    def __init__(self):
        super().__init__()
        self.embed = TextEmbed()
"""


def test_the_else_of_a_tensor_test_holds_no_tensor() -> None:
    assert _one(LENGTHS.format(test="torch.is_tensor(seq_len)")) == [("XLA350", 8)]
    assert _one(LENGTHS.format(test="isinstance(seq_len, torch.Tensor)")) == [("XLA350", 8)]
    negated = LENGTHS.format(test="not torch.is_tensor(seq_len)").replace("int(seq_len.max().item())", "int(seq_len)")
    negated = negated.replace("n = int(seq_len)\n        return", "n = int(seq_len.amax())\n        return")
    assert _one(negated) == [("XLA350", 10)]  # `not`: the body holds the Python number, the else the tensor
    assert _one(LENGTHS.format(test="seq_len is None")) == [("XLA350", 8), ("XLA350", 10)]
