"""Issue 15, items 2-4: nothing skipped silently, user errors named as such, read-only files refused."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from xlacheck import api
from xlacheck.cli import main

ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0
FLAT_SUM = (
    "import tensorflow as tf\n\n"
    "@tf.function(jit_compile=True)\n"
    "def f(x):\n"
    "    return " + " + ".join(f"x[{i}]" for i in range(500)) + "\n\n"
    "@tf.function(jit_compile=True)\n"
    "def g(x):\n"
    "    return x.numpy()\n"
)
NUMPY_IN_JIT = "import tensorflow as tf\n\n@tf.function(jit_compile=True)\ndef g(x):\n    return x.numpy()\n"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_function_too_deep_to_analyze_is_an_error_in_every_format(here: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (here / "flat.py").write_text(FLAT_SUM)
    code, out, err = run(capsys, "flat.py")
    assert code == 1 and err == ""  # no stray warning on stderr: it is in the report
    assert "flat.py:4:1: error: cannot analyze function f(): an expression is nested too deep" in out
    assert "flat.py:9:12: XLA301" in out  # the rest of the file is still checked
    assert "1 file checked only in part: 1 function not analyzed" in out
    code, out, _ = run(capsys, "flat.py", "--output-format", "json")  # from the cache this time
    errors = json.loads(out)["errors"]
    assert code == 1 and [(e["line"], e["message"][:28]) for e in errors] == [(4, "cannot analyze function f():")]
    _, out, _ = run(capsys, "flat.py", "--output-format", "sarif", "--no-cache")
    notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert len(notes) == 1 and notes[0]["message"]["text"].startswith("cannot analyze function f()")
    _, out, _ = run(capsys, "flat.py", "--output-format", "github", "--no-cache")
    assert "::error file=flat.py,line=4,col=1,title=xlacheck::cannot analyze function f()" in out
    assert not api.is_internal_error(api.check_paths(["flat.py"]).errors[0])  # exit 1, not "report it"


def test_unreadable_directory_met_while_walking_is_an_error(here: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    (here / "pkg" / "locked").mkdir(parents=True)
    (here / "pkg" / "model.py").write_text(NUMPY_IN_JIT)
    locked = here / "pkg" / "locked"
    if ROOT_USER:  # root reads through chmod 000: make scandir fail as it does for other users
        real = os.scandir

        def scandir(path):  # type: ignore[no-untyped-def]
            if Path(path) == locked:
                raise PermissionError(13, "Permission denied", str(path))
            return real(path)

        monkeypatch.setattr(os, "scandir", scandir)
    else:
        locked.chmod(0)
    try:
        code, out, err = run(capsys, "--no-cache", "pkg")
    finally:
        locked.chmod(0o755)
    assert code == 1 and err == ""
    assert "pkg/locked:1:1: error: cannot read directory: Permission denied" in out
    assert "pkg/model.py:5:12: XLA301" in out


def test_symlink_loop_named_on_the_command_line(here: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    os.symlink("b", here / "a")
    os.symlink("a", here / "b")
    for path in ("a", "a/model.py"):
        code, out, err = run(capsys, "--no-cache", path)
        assert code == 1 and err == "" and "internal error" not in out
        assert out.splitlines()[0] == f"{path}:1:1: error: cannot read path: Too many levels of symbolic links"


def test_dangling_link_in_a_tree_is_reported_but_editor_locks_are_not(here: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (here / "src").mkdir()
    os.symlink("gone.py", here / "src" / "dead.py")
    os.symlink("user@host.1234", here / "src" / ".#model.py")  # Emacs' lock file
    code, out, _ = run(capsys, "--no-cache", "src")
    assert code == 1 and "src/dead.py:1:1: error: cannot read file: No such file or directory" in out
    assert ".#model.py" not in out


@pytest.mark.skipif(ROOT_USER, reason="runs as root, which reads through chmod 000; "
                    "test_unreadable_folder_on_the_way_to_the_config covers the config search")
def test_file_inside_an_unreadable_directory(here: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (here / "locked").mkdir()
    (here / "locked" / "model.py").write_text(NUMPY_IN_JIT)
    (here / "locked").chmod(0)
    try:
        code, out, err = run(capsys, "--no-cache", "locked/model.py")
    finally:
        (here / "locked").chmod(0o755)
    assert code == 1 and "locked/model.py:1:1: error: cannot read path: Permission denied" in out and err == ""


def test_unreadable_folder_on_the_way_to_the_config(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from xlacheck.config import find_config

    def denied(self: Path) -> bool:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "is_file", denied)
    monkeypatch.setattr(Path, "is_dir", denied)
    assert find_config(here / "locked" / "model.py") is None  # the run reports the path; no crash here


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b'[tool.xlacheck]\n# caf\xe9\nselect = ["XLA1"]\n', "pyproject.toml: not UTF-8 (byte 21: b'\\xe9'); TOML files are UTF-8"),
        (b'[tool]\nxlacheck = "on"\n', "pyproject.toml [tool.xlacheck]: expected a table of settings, got 'on'; write `[tool.xlacheck]`"),
        (b'tool = "xlacheck"\n', "pyproject.toml: `tool` must be a table"),
        (b"[tool.xlacheck]\nexclude = 3\n", 'exclude: expected a list of strings like ["build", "src/legacy/**"], got 3'),
        (b"[tool.xlacheck]\nextend-exclude = [3]\n", 'extend-exclude: expected a list of strings like ["build", "src/legacy/**"]'),
    ],
)
def test_bad_pyproject_is_one_user_error_naming_the_file(here: Path, capsys, content: bytes, needle: str) -> None:  # type: ignore[no-untyped-def]
    (here / "pyproject.toml").write_bytes(content)
    (here / "model.py").write_text(NUMPY_IN_JIT)
    code, out, err = run(capsys, "--no-cache", "--config", "pyproject.toml") if b"tool =" in content else run(capsys, "--no-cache")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("xlacheck: error: ") and needle in err and "internal error" not in err, err


def test_fix_refuses_a_read_only_file_and_says_so(here: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = here / "model.py"
    path.write_text(NUMPY_IN_JIT)
    path.chmod(0o444)
    try:
        code, out, _ = run(capsys, "--no-cache", "--fix", "--unsafe-fixes", "model.py")
        assert path.read_text() == NUMPY_IN_JIT and stat.S_IMODE(path.stat().st_mode) == 0o444
    finally:
        path.chmod(0o644)
    assert code == 1
    assert "model.py: fix not applied: the file is read-only (mode 444); make it writable (chmod u+w)" in out
    assert "(0 fixed, 1 remaining)" in out and "1 file could not be fixed" in out
    assert "fixable" not in out  # rerunning --fix would not help: the summary must not offer it
    code, out, _ = run(capsys, "--no-cache", "--fix", "--unsafe-fixes", "model.py")  # writable again: fixed
    assert code == 0 and "x.numpy()" not in path.read_text()
