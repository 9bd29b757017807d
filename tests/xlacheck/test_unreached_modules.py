"""Modules that nothing in the project runs (issue 12, precision, session 12).

:func:`xlacheck.analysis.project.unreached_modules`: a ``.py`` file of the run that no other file of
the project (under :func:`~xlacheck.analysis.project.project_root`: code, configs, launch scripts,
docs) imports or names (a dotted class path, a console script, ``python -m``, ``python x.py``), that
does not run as a script itself and that no folder-scanning import can load, is no step of any run:
the torch adapter finds no step there (``ModuleFacts.unreached``). A stale ``ddpm copy.py`` is the
shape met on real code. Each snippet is written here (not copied from a case).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from xlacheck.analysis.project import project_root, unreached_modules
from xlacheck.api import check_paths
from xlacheck.config import Settings

NET = """
import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x):
        if x.sum().item() > 0:
            return x * 2
        return x
"""
TRAIN = """
import torch
from models.net import Net


def main():
    Net()(torch.ones(3))


if __name__ == "__main__":
    main()
"""


def _write(tmp_path: Path, files: dict[str, str]) -> None:
    for name, src in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(src))


def _lint(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, str, int]]:
    _write(tmp_path, files)
    result = check_paths([str(tmp_path)], Settings(cache=False, root=tmp_path, torch_xla=True))
    return sorted((Path(f.path).relative_to(tmp_path).as_posix(), d.code, d.line)
                  for f in result.files for d in f.diagnostics)


def test_a_stale_copy_nothing_imports_has_no_step(tmp_path: Path) -> None:
    files = {"models/__init__.py": "", "models/net.py": NET, "models/net copy.py": NET, "train.py": TRAIN}
    assert _lint(tmp_path, files) == [("models/net.py", "XLA350", 8)]


def test_one_file_alone_keeps_its_findings(tmp_path: Path) -> None:
    assert _lint(tmp_path, {"net.py": NET}) == [("net.py", "XLA350", 8)]


def test_a_module_a_config_names_by_class_path_runs(tmp_path: Path) -> None:
    files = {"models/__init__.py": "", "models/net.py": NET, "models/vq.py": NET, "train.py": TRAIN,
             "configs/vq.yaml": "model:\n  target: models.vq.Net\n"}
    assert _lint(tmp_path, files) == [("models/net.py", "XLA350", 8), ("models/vq.py", "XLA350", 8)]


def test_a_script_a_launcher_runs_by_file_name_runs(tmp_path: Path) -> None:
    files = {"models/__init__.py": "", "models/net.py": NET, "tools/probe.py": NET, "train.py": TRAIN,
             "run.sh": "python tools/probe.py --steps 10\n"}
    assert _lint(tmp_path, files) == [("models/net.py", "XLA350", 8), ("tools/probe.py", "XLA350", 8)]


def test_modules_a_folder_scanning_registry_imports_run(tmp_path: Path) -> None:
    registry = """
    import importlib
    import os

    for name in os.listdir(os.path.dirname(__file__)):
        importlib.import_module("." + name[:-3], __name__)
    """
    files = {"models/__init__.py": registry, "models/net.py": NET, "models/other.py": NET, "train.py": TRAIN}
    assert _lint(tmp_path, files) == [("models/net.py", "XLA350", 8), ("models/other.py", "XLA350", 8)]


def test_scripts_package_inits_and_tests_are_never_unreached(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "from .a import f\n", "pkg/a.py": "import torch\ndef f(): pass\n",
             "pkg/b.py": "import torch\ndef g(): pass\n", "pkg/c.py": "def h(): pass\n",  # c: no torch code
             "run.py": "import torch\nprint(1)\n", "tools/go.py": "import torch\nmain(torch.ones(2))\n",
             "tests/test_b.py": "import torch\ndef test(): pass\n", "setup.py": "import torch\nx = 1\n"}
    _write(tmp_path, files)
    paths = [str(tmp_path / n) for n in files]
    why = unreached_modules(paths)
    assert sorted(Path(p).relative_to(tmp_path).as_posix() for p in why) == ["pkg/b.py"]
    assert "no file of the project imports or names this module" in why[str(tmp_path / "pkg/b.py")]
    assert unreached_modules(paths, only=[str(tmp_path / "pkg/a.py")]) == {}
    assert project_root([str(tmp_path / "pkg/a.py"), str(tmp_path / "pkg/b.py")]) == str(tmp_path)


def test_a_published_library_keeps_modules_nothing_imports_but_not_a_stale_copy(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[project]\nname = "lib"\nreadme = "README.md"\n',
             "lib/__init__.py": "from .core import Net\n", "lib/core.py": NET,
             "lib/extra.py": NET, "lib/extra copy.py": NET, "scripts/probe.py": NET}
    _write(tmp_path, files)
    why = unreached_modules([str(tmp_path / n) for n in files if n.endswith(".py")])
    assert sorted(Path(p).relative_to(tmp_path).as_posix() for p in why) == ["lib/extra copy.py", "scripts/probe.py"]


def test_a_folder_of_standalone_files_has_no_import_graph_so_nothing_is_unreached(tmp_path: Path) -> None:
    # (a folder of cases or snippets linted together: none imports another, so imports say nothing
    # about what runs)
    files = {"a.py": NET, "b.py": NET, "c.py": NET}
    _write(tmp_path, files)
    assert unreached_modules([str(tmp_path / n) for n in files]) == {}


def test_private_modules_of_a_library_that_only_tests_import_are_unreached(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[project]\nname = "lib"\nkeywords = ["x"]\n', "lib/__init__.py": "",
             "lib/_export/__init__.py": "", "lib/_export/rope.py": NET, "lib/_export/used.py": NET,
             "lib/model.py": "from lib._export.used import Net\n",
             "tests/test_rope.py": "from lib._export.rope import Net\n"}
    _write(tmp_path, files)
    why = unreached_modules([str(tmp_path / n) for n in files if n.endswith(".py")])
    assert sorted(Path(p).relative_to(tmp_path).as_posix() for p in why) == ["lib/_export/rope.py"]


def test_the_root_comes_from_every_file_of_the_run_not_only_those_asked_about(tmp_path: Path) -> None:
    files = {"task/__init__.py": "", "task/model/reward.py": NET, "task/reward.py": "from .model.reward import Net\n",
             "train.py": "from task import nsmc, \\\n    reward\n\nif __name__ == '__main__':\n    pass\n",
             "task/nsmc.py": NET}
    _write(tmp_path, files)
    paths = [str(tmp_path / n) for n in files]
    assert unreached_modules(paths, only=[str(tmp_path / "task/model/reward.py")]) == {}
    assert unreached_modules(paths) == {}  # reward and nsmc: imported on a backslash-continued line


def test_an_installed_package_is_its_own_root(tmp_path: Path) -> None:
    files = {"site-packages/lib/__init__.py": "", "site-packages/lib/models/__init__.py": "",
             "site-packages/lib/models/a.py": NET, "site-packages/lib/models/b.py": NET}
    _write(tmp_path, files)
    paths = [str(tmp_path / n) for n in files]
    assert project_root(paths[2:]) == str(tmp_path / "site-packages" / "lib")


def test_the_project_scan_is_cached_on_what_it_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A warm run reads no file of the project for the fact: the answer is kept under a key of each
    scanned file's path, size and modification time (and xlacheck's version and code, the cache's
    salt); an edit, a new file or a removed one is a new key, so the fact is computed again."""
    import os

    from xlacheck import analysis
    from xlacheck.cache import ResultCache

    project = analysis.project
    files = {"models/__init__.py": "", "models/net.py": NET, "models/net copy.py": NET, "train.py": TRAIN}
    _write(tmp_path / "src", files)
    paths = [str(tmp_path / "src" / name) for name in files]
    cache = ResultCache(tmp_path / "cache", "salt")
    cold = unreached_modules(paths, cache=cache)
    assert list(cold) == [str(tmp_path / "src/models/net copy.py")]

    def no_read(found):  # type: ignore[no-untyped-def]
        raise AssertionError("a warm run read the project's files")

    monkeypatch.setattr(project, "_reach_texts", no_read)
    assert unreached_modules(paths, cache=cache) == cold
    monkeypatch.undo()
    # an edited file names the stale copy now (a launch line): a new key, a new answer
    train = tmp_path / "src/train.py"
    train.write_text(train.read_text() + "# python 'models/net copy.py'\n")
    assert unreached_modules(paths, cache=cache) == {}
    train.write_text(train.read_text().replace("# python 'models/net copy.py'\n", ""))
    os.utime(train, ns=(1, 1))  # as before the edit, but not the same time: computed again
    assert unreached_modules(paths, cache=cache) == cold
    (tmp_path / "src/run.sh").write_text("python 'models/net copy.py'\n")  # a new file
    assert unreached_modules(paths, cache=cache) == {}


EXPORT = """
import torch
from models.stft import Net

model = Net()
torch.onnx.export(model, torch.ones(3), "net.onnx")
"""
EXPORT_AND_TRAIN = """
import torch
from models.stft import Net

model = Net()
opt = torch.optim.SGD(model.parameters(), 0.1)
model(torch.ones(3)).sum().backward()
opt.step()
torch.onnx.export(model, torch.ones(3), "net.onnx")
"""


def test_a_module_only_an_export_script_imports_runs_once_at_export(tmp_path: Path) -> None:
    # F5-TTS's export_vocoder_to_onnx.py alone imports its STFT module: traced once by torch.onnx.export,
    # the ONNX graph runs elsewhere (docs/real-code-judgments-14.md, conv_stft.py:187, judged false)
    files = {"models/__init__.py": "", "models/net.py": NET, "models/stft.py": NET, "train.py": TRAIN,
             "export_onnx.py": EXPORT}
    assert _lint(tmp_path, files) == [("models/net.py", "XLA350", 8)]
    why = unreached_modules([str(tmp_path / n) for n in files])
    assert "only scripts that trace or export a model" in why[str(tmp_path / "models/stft.py")]
    # a script that also trains runs the module per step: reached
    files["export_onnx.py"] = EXPORT_AND_TRAIN
    assert _lint(tmp_path, files) == [("models/net.py", "XLA350", 8), ("models/stft.py", "XLA350", 8)]
    # a library module that only mentions an export API is no export script: what it imports is reached
    files["export_onnx.py"] = "import torch\nfrom models.stft import Net\ndef export(m):\n    torch.onnx.export(m)\n"
    files["train.py"] = TRAIN + "\nimport export_onnx\n"
    assert _lint(tmp_path, files) == [("models/net.py", "XLA350", 8), ("models/stft.py", "XLA350", 8)]


def test_a_module_only_unreached_modules_import_is_unreached_too(tmp_path: Path) -> None:
    # (a vendored package's trainers: a builder nothing imports loads `pkg.trainers.{name}_trainer` by computed
    # name, and only those trainers import the loss; the package's model is imported by the project's script)
    builder = "from importlib import import_module\ndef get(name):\n" \
              "    return import_module(f'pkg.trainers.{name}_trainer')\n"
    files = {"pkg/__init__.py": "", "pkg/trainers/__init__.py": "", "pkg/trainers/builder.py": builder,
             "pkg/trainers/depth_trainer.py": "import torch\nfrom pkg.trainers.loss import Net\n",
             "pkg/trainers/loss.py": NET, "pkg/model.py": NET, "run.py": "import torch\nfrom pkg.model import Net\n"
             "Net()(torch.ones(3))\n", "pkg/a.py": "import torch\nfrom pkg.b import Net\n", "pkg/b.py": NET}
    _write(tmp_path, files)
    why = unreached_modules([str(tmp_path / n) for n in files])
    assert sorted(Path(p).relative_to(tmp_path).as_posix() for p in why) == [
        "pkg/a.py", "pkg/b.py", "pkg/trainers/depth_trainer.py", "pkg/trainers/loss.py"]
    assert "only modules that nothing in the project runs import or name this module (pkg/trainers/builder.py, " \
        "pkg/trainers/depth_trainer.py;" in why[str(tmp_path / "pkg/trainers/loss.py")]
    # once a script runs the builder, its trainers and their loss run too
    files["train.py"] = "import torch\nfrom pkg.trainers.builder import get\nget('depth')\n"
    _write(tmp_path, files)
    why = unreached_modules([str(tmp_path / n) for n in files])
    assert sorted(Path(p).relative_to(tmp_path).as_posix() for p in why) == ["pkg/a.py", "pkg/b.py"]
