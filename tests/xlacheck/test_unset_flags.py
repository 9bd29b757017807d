"""Parameters nothing in the project sets (:func:`xlacheck.analysis.project.unset_flags`): a parameter with a
falsy literal default that no call, config, script or string of the project passes another value keeps the
branches it opens shut in every run, and so does the instance's copy of it (``self.flag = flag``).

Measured on real code (docs/torchprec30.md, rows judged false): generative-models' losses keep
``scale_input_to_tgt_size=False`` as ``self.scale_input_to_tgt_size`` and interpolate only under it (XLA351);
rectified-flow's ``immiscible=False`` guards ``torch.cdist`` and SciPy's assignment (XLA351, XLA350);
tortoise-tts' ``synced_gpus=False`` (documented in a docstring only) guards an ``.item()`` (XLA350). Each
snippet is written here.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from xlacheck.analysis.calls import literal_test
from xlacheck.analysis.project import merge_literals, unset_flags
from xlacheck.api import check_paths
from xlacheck.config import Settings

LOSS = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class Loss(nn.Module):
    def __init__(self, weight=1.0, rescale=False):
        """rescale: resize the input to the target's size first."""
        super().__init__()
        self.weight = weight
        self.rescale = rescale

    def forward(self, x, y, synced=False):
        if self.rescale:
            x = F.interpolate(x, size=(int(y.sum().item()), 4))
        if synced:
            if x.sum().item() > 0:
                return x
        return self.weight * (x - y).abs().mean()
'''
TRAIN = """
import torch
import torch_xla
from pkg.loss import Loss


def train(loader, opt):
    device = torch_xla.device()
    loss_fn = Loss(weight=0.5)
    for x, y in loader:
        loss = loss_fn(x.to(device), y.to(device))
        loss.backward()
        opt.step()
        torch_xla.sync()


if __name__ == "__main__":
    train([], None)
"""
PROJECT = {"setup.py": "", "pkg/__init__.py": "", "pkg/loss.py": LOSS, "pkg/train.py": TRAIN}


def _write(root: Path, files: dict[str, str]) -> None:
    for name, src in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(src).lstrip("\n"))


def _lines(root: Path) -> list[int]:
    result = check_paths([str(root)], Settings(torch_xla=True, cache=False))
    return sorted({d.line for f in result.files for d in f.diagnostics if f.path.endswith("loss.py")})


def test_flags_nothing_sets_are_literals_of_the_defs_and_of_the_instance(tmp_path: Path) -> None:
    _write(tmp_path, PROJECT)
    facts = unset_flags(sorted(str(p) for p in tmp_path.rglob("*.py")))
    assert facts == {str(tmp_path / "pkg/loss.py"): {
        "Loss.__init__": {"self.rescale": False, "rescale": False},
        "Loss.forward": {"self.rescale": False, "synced": False}}}


def test_the_branches_they_keep_shut_have_no_findings(tmp_path: Path) -> None:
    _write(tmp_path / "alone", {"loss.py": LOSS})
    assert _lines(tmp_path / "alone") == [15, 17]  # one file: no project, every branch may run
    _write(tmp_path / "project", PROJECT)
    assert _lines(tmp_path / "project") == []


def test_a_flag_something_may_set_opens_its_branch(tmp_path: Path) -> None:
    cases = {
        "keyword": ({"pkg/build.py": "from pkg.loss import Loss\nLOSS = Loss(rescale=True)\n"}, [15]),
        "positional": ({"pkg/build.py": "from pkg.loss import Loss\nLOSS = Loss(1.0, True)\n"}, [15]),
        "call keyword": ({"pkg/run.py": "def go(loss, x, y):\n    return loss.forward(x, y, synced=True)\n"}, [17]),
        "config": ({"configs/run.yaml": "loss:\n  rescale: true\n"}, [15]),
        "string": ({"pkg/build.py": "KWARGS = {'rescale': True}\n"}, [15]),
        "another store": ({"pkg/build.py": "def on(loss):\n    loss.rescale = True\n"}, [15]),
        "a property": ({"pkg/more.py": "from pkg.loss import Loss\nclass Big(Loss):\n    @property\n"
                                       "    def rescale(self):\n        return True\n"}, [15]),
    }
    for name, (extra, lines) in cases.items():
        _write(tmp_path / name, PROJECT | extra)
        assert _lines(tmp_path / name) == lines, name


def test_the_run_s_call_literals_win_where_both_name_a_parameter() -> None:
    merged = merge_literals({"a.py": {"f": {"p": "cpu"}}}, {"a.py": {"f": {"p": None, "q": False}, "g": {"r": 0}}})
    assert merged == {"a.py": {"f": {"p": "cpu", "q": False}, "g": {"r": 0}}}


def test_literal_test_reads_the_instance_copy() -> None:
    def test(src: str) -> bool | None:
        node = ast.parse(src).body[0]
        assert isinstance(node, ast.Expr)
        return literal_test(node.value, {"self.rescale": False, "synced": None})

    assert test("self.rescale") is False
    assert test("not self.rescale and synced is None") is True
    assert test("self.rescale or other") is None
    assert test("other.rescale") is None



# x-transformers' UniversalPretrainWrapper (batch 23, judged false): `reset_every=0` is kept as `self.reset_every`,
# and the step's `.item()` sits after `self.reset_every > 0 and`: Python never evaluates it (written here)
COUNTER = '''
import torch
import torch.nn as nn


class Wrapper(nn.Module):
    def __init__(self, net, reset_every=0, clip=None):
        super().__init__()
        self.net = net
        self.reset_every = reset_every
        self.clip = clip
        self.register_buffer("step", torch.tensor(0))

    def forward(self, x):
        loss = self.net(x).sum()
        if self.reset_every > 0 and self.step.item() % self.reset_every == 0:
            loss = loss * 0
        scale = loss.max().item() if self.clip is not None else 1.0
        return loss * scale
'''
COUNTER_TRAIN = """
import torch
import torch_xla
from pkg.wrap import Wrapper


def train(net, loader, opt):
    device = torch_xla.device()
    model = Wrapper(net)
    for x in loader:
        loss = model(x.to(device))
        loss.backward()
        opt.step()
        torch_xla.sync()


if __name__ == "__main__":
    train(None, [], None)
"""


def test_operands_after_a_decided_one_never_run(tmp_path: Path) -> None:
    files = {"setup.py": "", "pkg/__init__.py": "", "pkg/wrap.py": COUNTER, "pkg/train.py": COUNTER_TRAIN}
    _write(tmp_path / "project", files)
    result = check_paths([str(tmp_path / "project")], Settings(torch_xla=True, cache=False))
    assert [d for f in result.files for d in f.diagnostics if f.path.endswith("wrap.py")] == []
    _write(tmp_path / "set", files | {"pkg/run.py": "from pkg.wrap import Wrapper\nW = Wrapper(None, 100, 1.0)\n"})
    result = check_paths([str(tmp_path / "set")], Settings(torch_xla=True, cache=False))
    assert sorted({(d.line, d.code) for f in result.files for d in f.diagnostics if f.path.endswith("wrap.py")}) == [
        (15, "XLA350"), (17, "XLA350")]


def test_literal_test_orders_numbers() -> None:
    def test(src: str) -> bool | None:
        node = ast.parse(src).body[0]
        assert isinstance(node, ast.Expr)
        return literal_test(node.value, {"every": 0, "rate": 0.5, "mode": None, "on": False})

    assert test("every > 0") is False
    assert test("0 < every") is False
    assert test("every >= 0 and rate < 1") is True
    assert test("mode > 0") is None  # (None > 0 raises: not decided)
    assert test("on > 0") is None  # (a bool is no number here)


# x-transformers (batch 23, judged false): the wrappers' `generate(self, prompts, seq_len, eos_token=None)` tests
# `exists(eos_token)` (the module's own `def exists(v): return v is not None`) before an `.item()`-like read, and
# the one three-positional `model.generate(src, start, n)` call is XTransformer's own `generate`, built in that file
WRAPPER = '''
import torch
import torch.nn as nn


def exists(val):
    return val is not None


class Wrapper(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    @torch.no_grad()
    def generate(self, prompts, seq_len, eos_token=None):
        out = prompts
        for _ in range(seq_len):
            logits = self.net(out)[:, -1]
            out = torch.cat((out, logits.argmax(-1, keepdim=True)), dim=-1)
            if not exists(eos_token):
                continue
            if (out == eos_token).any(dim=-1).all():
                break
        return out


class EncDec(nn.Module):
    def __init__(self, enc, dec):
        super().__init__()
        self.enc = enc
        self.dec = Wrapper(dec)

    def generate(self, seq_in, seq_out_start, seq_len, mask=None):
        return self.dec.generate(seq_out_start + self.enc(seq_in, mask), seq_len)
'''
WRAPPER_RUN = """
import torch
import torch_xla
from pkg.wrap import EncDec


def run(enc, dec, src, start):
    device = torch_xla.device()
    model = EncDec(enc, dec).to(device)
    return model.generate(src.to(device), start.to(device), 16, mask=None)


if __name__ == "__main__":
    run(None, None, None, None)
"""


def test_a_none_test_helper_of_a_flag_nothing_sets(tmp_path: Path) -> None:
    files = {"setup.py": "", "pkg/__init__.py": "", "pkg/wrap.py": WRAPPER, "pkg/run.py": WRAPPER_RUN}
    _write(tmp_path / "project", files)
    result = check_paths([str(tmp_path / "project")], Settings(torch_xla=True, cache=False))
    assert [d for f in result.files for d in f.diagnostics if f.path.endswith("wrap.py")] == []
    # the same call on a receiver the file does not build from EncDec may be Wrapper.generate(prompts, seq_len, eos)
    rebound = WRAPPER_RUN.replace("model = EncDec(enc, dec).to(device)", "model = EncDec(enc, dec).to(device)\n"
                                  "    model = torch.compile(model)")
    _write(tmp_path / "rebound", files | {"pkg/run.py": rebound})
    result = check_paths([str(tmp_path / "rebound")], Settings(torch_xla=True, cache=False))
    assert sorted({(d.line, d.code) for f in result.files for d in f.diagnostics if f.path.endswith("wrap.py")}) == [
        (22, "XLA350")]


def test_none_test_helpers() -> None:
    from xlacheck.analysis.calls import none_test_helpers

    tree = ast.parse("def exists(v):\n    return v is not None\n\n"
                     "def missing(v):\n    '''doc'''\n    return v is None\n"
                     "\ndef default(v, d):\n    return v if v is not None else d\n"
                     "\ndef twice(v):\n    return v is not None\ntwice = None\n")
    assert none_test_helpers(tree) == {"exists": True, "missing": False}
    node = ast.parse("exists(p) and not missing(q)").body[0]
    assert isinstance(node, ast.Expr)
    assert literal_test(node.value, {"p": None, "q": 1}, {"exists": True, "missing": False}) is False
    assert literal_test(node.value, {"p": 2, "q": 1}, {"exists": True, "missing": False}) is True
