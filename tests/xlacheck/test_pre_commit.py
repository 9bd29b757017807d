"""The hooks file as a user pastes it: `pre-commit try-repo` on a scratch repository, and the
README's `rev:` in step with the package version (the tag v<version> is what users pin)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FINDING = "import tensorflow as tf\n\n@tf.function(jit_compile=True)\ndef f(x):\n    return x.numpy()\n"


def _version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_readme_and_docs_pin_the_tag_of_this_version() -> None:
    for doc in ("README.md", "docs/cli.md"):
        revs = re.findall(r"^\s*rev:\s*(\S+)", (ROOT / doc).read_text(), re.M)
        assert revs == [f"v{_version()}"], f"{doc}: rev {revs} is not v{_version()} (pyproject's version)"


@pytest.mark.slow
def test_hooks_run_through_pre_commit_try_repo(tmp_path: Path) -> None:
    pre_commit = shutil.which("pre-commit", path=os.path.dirname(sys.executable)) or shutil.which("pre-commit")
    if pre_commit is None:
        pytest.skip("pre-commit is not installed (it is in the [dev] extra)")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "scratch"
    repo.mkdir()
    (repo / "model.py").write_text(FINDING)
    (repo / "plain.py").write_text("print('no framework')\n")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_CONFIG_GLOBAL": os.devnull}
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run([*git, "add", "."], cwd=repo, check=True, env=env)
    # try-repo installs this checkout from its local path into a fresh virtualenv (pip fetches
    # rich and pathspec from the index pip is configured with: a mirror or a wheel folder offline).
    out = subprocess.run(
        [pre_commit, "try-repo", str(ROOT), "--all-files", "--color", "never"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=900,
    )
    text = out.stdout + out.stderr
    if "Installing environment" in text and "An unexpected error has occurred" in text:
        pytest.skip(f"pre-commit could not install the hook's environment (pip has no index here?): {text[-400:]}")
    assert out.returncode == 1, text
    assert re.search(r"^xlacheck\.+Failed$", text, re.M), text  # the report hook
    assert re.search(r"^xlacheck \(apply safe fixes\)\.+Failed$", text, re.M), text
    assert "model.py:5:12: XLA301" in text and "plain.py" not in text
