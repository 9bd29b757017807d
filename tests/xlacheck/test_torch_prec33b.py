"""torchprec33b: flags nothing sets, read where main could not decide them, and XLA351's set-up phase.

Measured on real code (docs/torchprec33b.md, rows judged false):
- x-transformers' ``TransformerWrapper(*, ..., looped=False)`` takes the flag keyword-only, names it in an assert
  message, keeps it as ``self.looped``, and ``AutoregressiveWrapper`` reads it as ``self.net.looped``; no script
  sets it. The looped exit loss's ``x[mask]`` (XLA250) and ``looped_inference and ...`` (XLA350) never run.
- taming-transformers' Streamlit demo resizes its one example with a bicubic ``F.interpolate`` before the
  sampling loop of the declared no_grad ``run_conditional`` (XLA351): once per call, not once per step.
Each snippet is written here.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from xlacheck.analysis.calls import literal_test
from xlacheck.analysis.project import _never_set, unset_flags
from xlacheck.api import check_paths
from xlacheck.config import Settings

NET = '''
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, *, dim, looped=False):
        super().__init__()
        assert not (looped and dim < 2), "looped needs dim >= 2"
        self.looped = looped
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return self.proj(x)
'''
WRAP = '''
import torch.nn as nn


class Wrapper(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        out = self.net(x)
        if self.net.looped:
            out = out[x > 0].mean()
        return out
'''
TRAIN = """
import torch_xla
from pkg.net import Net
from pkg.wrap import Wrapper


def train(loader, opt):
    device = torch_xla.device()
    model = Wrapper(Net(dim=8)).to(device)
    for batch in loader:
        opt.zero_grad()
        model(batch.to(device)).backward()
        opt.step()
        torch_xla.sync()


if __name__ == "__main__":
    train([], None)
"""
PROJECT = {"setup.py": "", "pkg/__init__.py": "", "pkg/net.py": NET, "pkg/wrap.py": WRAP, "pkg/train.py": TRAIN}


def _write(root: Path, files: dict[str, str]) -> None:
    for name, src in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(src).lstrip("\n"))


def _findings(root: Path, name: str) -> list[tuple[int, str]]:
    result = check_paths([str(root)], Settings(torch_xla=True, cache=False))
    return sorted({(d.line, d.code) for f in result.files for d in f.diagnostics if f.path.endswith(name)})


def test_a_keyword_only_flag_nothing_passes_is_never_set() -> None:
    texts = [("net.py", NET), ("wrap.py", WRAP), ("train.py", TRAIN)]
    assert _never_set("looped", texts)
    assert not _never_set("looped", [*texts, ("run.py", "from net import Net\nNET = Net(dim=4, looped=True)\n")])
    # (no def takes it at all: not a parameter of the project)
    assert not _never_set("looped", [("wrap.py", WRAP)])


def test_an_assert_message_does_not_set_the_flag_but_another_string_does() -> None:
    texts = [("net.py", NET)]
    assert _never_set("looped", texts)
    assert not _never_set("looped", [*texts, ("run.py", "OPTIONS = ['looped']\n")])


def test_another_instance_s_copy_is_the_flag_s_literal(tmp_path: Path) -> None:
    _write(tmp_path, PROJECT)
    facts = unset_flags(sorted(str(p) for p in tmp_path.rglob("*.py")))
    assert facts[str(tmp_path / "pkg/wrap.py")] == {"Wrapper.forward": {"self.net.looped": False}}


def test_the_branch_it_keeps_shut_has_no_finding(tmp_path: Path) -> None:
    _write(tmp_path / "alone", {"wrap.py": WRAP})
    assert _findings(tmp_path / "alone", "wrap.py") == [(12, "XLA250")]  # one file: the branch may run
    _write(tmp_path / "project", PROJECT)
    assert _findings(tmp_path / "project", "wrap.py") == []
    on = TRAIN.replace("Net(dim=8)", "Net(dim=8, looped=True)")
    _write(tmp_path / "on", PROJECT | {"pkg/train.py": on})
    assert _findings(tmp_path / "on", "wrap.py") == [(12, "XLA250")]


def test_a_foreign_attribute_of_that_name_is_not_decided(tmp_path: Path) -> None:
    # no class of the project keeps `looped` as `self.looped = looped`: `self.net.looped` is not known
    net = NET.replace("        self.looped = looped\n", "")
    _write(tmp_path, PROJECT | {"pkg/net.py": net})
    facts = unset_flags(sorted(str(p) for p in tmp_path.rglob("*.py")))
    assert str(tmp_path / "pkg/wrap.py") not in facts


def test_literal_test_reads_another_instance_s_copy() -> None:
    def test(src: str) -> bool | None:
        node = ast.parse(src).body[0]
        assert isinstance(node, ast.Expr)
        return literal_test(node.value, {"self.net.looped": False})

    assert test("self.net.looped") is False
    assert test("not self.net.looped") is True
    assert test("self.other.looped") is None
    assert test("net.looped") is None


SAMPLER = """
import torch
import torch.nn.functional as F
import torch_xla


@torch.no_grad()
def sample(model, image, steps, scale):
    if scale != 1.0:
        image = F.interpolate(image, scale_factor=scale, mode="bicubic")
    ids = model.encode(image)
    for _ in range(steps):
        image = F.interpolate(image, scale_factor=scale, mode="bicubic")
        ids = torch.cat([ids, model(ids, image)[:, -1:].argmax(-1)], 1)
        torch_xla.sync()
    return ids
"""


def test_xla351_leaves_the_set_up_of_a_no_grad_work_loop_alone(tmp_path: Path) -> None:
    _write(tmp_path, {"sample.py": SAMPLER})
    assert _findings(tmp_path, "sample.py") == [(12, "XLA351")]  # the resize in the loop, every step


# x-transformers' AutoregressiveWrapper keeps `self.add_continuous_pred_head = net.add_continuous_pred_head`
# and its forward unpacks it into a local (`seq, add_next_embed_loss = x.shape[1], self.add_...`) before
# `if add_next_embed_loss:` opens the continuous loss's `x[mask]` (XLA250, judged false: nothing sets the flag)
HANDED = '''
import torch.nn as nn


class Wrapper(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.looped = net.looped

    def forward(self, x):
        n, use = x.shape[1], self.looped
        out = self.net(x)
        if use:
            out = out[x > 0].mean()
        return out / n
'''


def test_a_copy_of_a_handed_in_instance_s_copy_and_a_local_bound_to_it(tmp_path: Path) -> None:
    _write(tmp_path / "alone", {"wrap.py": HANDED})
    assert _findings(tmp_path / "alone", "wrap.py") == [(14, "XLA250")]
    _write(tmp_path / "project", PROJECT | {"pkg/wrap.py": HANDED})
    facts = unset_flags(sorted(str(p) for p in (tmp_path / "project").rglob("*.py")))
    assert facts[str(tmp_path / "project/pkg/wrap.py")]["Wrapper.forward"] == {"self.looped": False}
    assert _findings(tmp_path / "project", "wrap.py") == []
    on = TRAIN.replace("Net(dim=8)", "Net(dim=8, looped=True)")
    _write(tmp_path / "on", PROJECT | {"pkg/wrap.py": HANDED, "pkg/train.py": on})
    assert _findings(tmp_path / "on", "wrap.py") == [(14, "XLA250")]


def test_a_local_bound_twice_is_not_the_literal() -> None:
    from xlacheck.analysis.calls import _bound_once_to

    def bound(src: str) -> dict[str, object]:
        fn = ast.parse(textwrap.dedent(src)).body[0]
        assert isinstance(fn, ast.FunctionDef)
        return _bound_once_to(fn, {"self.flag": False, "p": None})

    assert bound("def f(self, x):\n    n, use = x.shape[1], self.flag\n    q = p\n") == {"use": False, "q": None}
    assert bound("def f(self, x):\n    use = self.flag\n    use = use or x\n") == {}
    assert bound("def f(self, x):\n    use = self.flag\n    for use in x:\n        pass\n") == {}
    assert bound("def f(self, x):\n    use = self.flag\n    def g():\n        nonlocal use\n") == {}
    assert bound("def f(self, use):\n    use = self.flag\n") == {}
    assert bound("def f(self, x):\n    use = self.other\n") == {}


def test_an_instance_of_a_class_the_project_does_not_define_keeps_no_project_flag(tmp_path: Path) -> None:
    """A flag is matched across classes by name: an object built by a call of no project class (a Hugging Face
    config, ``AutoConfig.from_pretrained``) may hold any value under that name (lead review of this session)."""
    held = TRAIN.replace("Wrapper(Net(dim=8))", "Wrapper(AutoConfig.from_pretrained('bert'))").replace(
        "import torch_xla\n", "import torch_xla\nfrom transformers import AutoConfig\n")
    _write(tmp_path / "passed", PROJECT | {"pkg/train.py": held})
    assert _findings(tmp_path / "passed", "wrap.py") == [(12, "XLA250")]
    stored = WRAP.replace("self.net = net", "self.net = AutoConfig.from_pretrained(net)").replace(
        "import torch.nn as nn\n", "import torch.nn as nn\nfrom transformers import AutoConfig\n")
    _write(tmp_path / "stored", PROJECT | {"pkg/wrap.py": stored})
    assert _findings(tmp_path / "stored", "wrap.py") == [(13, "XLA250")]
    # the copy form, `self.looped = net.looped`, with the instance handed in from a call of no project class
    copy = WRAP.replace("self.net = net", "self.net = net\n        self.looped = net.looped").replace(
        "if self.net.looped:", "if self.looped:")
    _write(tmp_path / "copy", PROJECT | {"pkg/wrap.py": copy})
    assert _findings(tmp_path / "copy", "wrap.py") == []
    _write(tmp_path / "copy_foreign", PROJECT | {"pkg/wrap.py": copy, "pkg/train.py": held})
    assert _findings(tmp_path / "copy_foreign", "wrap.py") == [(13, "XLA250")]
