"""[tool.xlacheck]: every key changes behaviour; bad keys and values fail with one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_fakes import TF_HEADER, fake_engine  # noqa: F401  (fixture)

from xlacheck.api import check_paths
from xlacheck.config import (
    CONFIG_KEYS,
    DEFAULT_EXCLUDE,
    ConfigError,
    RuleSelection,
    Settings,
    find_config,
    requires_python_floor,
)
from xlacheck.globs import Glob

BODY = TF_HEADER + "y = x.numpy()\nif tf.reduce_any(m):\n    pass\nz = tf.boolean_mask(x, m)\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_engine) -> Path:  # noqa: F811
    monkeypatch.chdir(tmp_path)
    for rel in ("src/model.py", "tests/test_model.py", "legacy/old.py", "src/gen/auto.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(BODY)
    return tmp_path


def run(project: Path, toml: str) -> set[tuple[str, str]]:
    (project / "pyproject.toml").write_text("[tool.xlacheck]\n" + toml)
    settings = Settings.from_pyproject(project).with_overrides(cache=False)
    return {(d.path, d.code) for d in check_paths(["."], settings).diagnostics}


ALL_FILES = {"src/model.py", "tests/test_model.py", "legacy/old.py", "src/gen/auto.py"}
ALL_CODES = {"XLA101", "XLA201", "XLA301"}


def test_no_config_checks_everything(project: Path) -> None:
    assert run(project, "") == {(f, c) for f in ALL_FILES for c in ALL_CODES}


def test_select(project: Path) -> None:
    assert {c for _, c in run(project, 'select = ["XLA1", "XLA301"]\n')} == {"XLA101", "XLA301"}


def test_ignore(project: Path) -> None:
    assert {c for _, c in run(project, 'ignore = ["XLA3"]\n')} == {"XLA101", "XLA201"}


def test_extend_select(project: Path) -> None:
    assert {c for _, c in run(project, 'select = ["XLA1"]\nextend-select = ["XLA201"]\n')} == {"XLA101", "XLA201"}


def test_per_file_ignores(project: Path) -> None:
    found = run(project, '[tool.xlacheck.per-file-ignores]\n"tests/**" = ["ALL"]\n"src/gen" = ["XLA1", "XLA2"]\n"old.py" = ["XLA301"]\n')
    assert not any(p.startswith("tests/") for p, _ in found)
    assert {c for p, c in found if p == "src/gen/auto.py"} == {"XLA301"}
    assert {c for p, c in found if p == "legacy/old.py"} == {"XLA101", "XLA201"}
    assert {c for p, c in found if p == "src/model.py"} == ALL_CODES


def test_exclude_replaces_the_defaults(project: Path) -> None:
    (project / "build").mkdir()
    (project / "build" / "gen.py").write_text(BODY)
    found = {p for p, _ in run(project, 'exclude = ["legacy", "src/gen/*.py"]\n')}
    assert found == {"src/model.py", "tests/test_model.py", "build/gen.py"}


def test_extend_exclude_keeps_the_defaults(project: Path) -> None:
    (project / "build").mkdir()
    (project / "build" / "gen.py").write_text(BODY)
    found = {p for p, _ in run(project, 'extend-exclude = ["tests"]\n')}
    assert found == {"src/model.py", "legacy/old.py", "src/gen/auto.py"}


def test_cache_dir(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.xlacheck]\ncache-dir = "var/lint-cache"\n')
    check_paths(["."], Settings.from_pyproject(project))
    assert list((project / "var" / "lint-cache").rglob("*.json"))
    assert not (project / ".xlacheck_cache").exists()


TORCH_STEP = (
    "import torch\nimport torch.nn.functional as F\n"
    "def train_step(model, opt, x, y):\n    loss = F.cross_entropy(model(x), y)\n    loss.backward()\n"
    "    opt.step()\n    print(loss.item())\n"
)


def test_torch_xla(tmp_path: Path) -> None:
    """A plain torch training step is a torch_xla step only when the project says it runs on XLA."""
    (tmp_path / "step.py").write_text(TORCH_STEP)
    (tmp_path / "pyproject.toml").write_text("[tool.xlacheck]\n")
    plain = check_paths([tmp_path], Settings.from_pyproject(tmp_path))
    (tmp_path / "pyproject.toml").write_text("[tool.xlacheck]\ntorch-xla = true\n")
    declared = check_paths([tmp_path], Settings.from_pyproject(tmp_path))
    codes = lambda run: [d.code for d in run.diagnostics]  # noqa: E731
    assert codes(plain) == [] and codes(declared) == ["XLA350"]
    with pytest.raises(ConfigError, match="torch-xla: expected true or false"):
        Settings.from_mapping({"torch-xla": "yes"}, root=tmp_path)


# a module-level tensor function nothing here compiles: tf.print fails only once something compiles it
TF_HELPER = "import tensorflow as tf\ndef log_scale(x):\n    tf.print(x)\n    return x * 2.0\n"


def test_jit_compiled(tmp_path: Path) -> None:
    """The functions of the files `jit-compiled` covers are compiled roots; true covers every file,
    a list of globs the files it matches (root-relative, as per-file-ignores)."""
    for rel in ("models/net.py", "tools/stats.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(TF_HELPER)

    def found(toml: str) -> set[tuple[str, str]]:
        (tmp_path / "pyproject.toml").write_text("[tool.xlacheck]\n" + toml)
        settings = Settings.from_pyproject(tmp_path).with_overrides(cache=False)
        return {(Path(d.path).relative_to(tmp_path).as_posix(), d.code)
                for d in check_paths([tmp_path], settings).diagnostics}

    assert found("") == found("jit-compiled = false\n") == set()
    assert found("jit-compiled = true\n") == {("models/net.py", "XLA307"), ("tools/stats.py", "XLA307")}
    assert found('jit-compiled = ["models/**"]\n') == {("models/net.py", "XLA307")}
    for bad in ("yes", ["models/**", 3], [""]):
        with pytest.raises(ConfigError, match=r"jit-compiled: expected true, false or a list of globs"):
            Settings.from_mapping({"jit-compiled": bad}, root=tmp_path)


JAX_SLICE_STATIC = """import jax
from functools import partial

@partial(jax.jit, static_argnums=1)
def window(x, s):
    return x[:, s]

def run(x):
    return window(x, slice(1, 4))
"""


def test_target_version(tmp_path: Path) -> None:
    """A slice is a hashable static argument from Python 3.12 on: XLA410 flags it only for a project whose
    oldest Python is older (target-version, else requires-python's lower bound); the cache keeps them apart."""
    (tmp_path / "window.py").write_text(JAX_SLICE_STATIC)
    codes = []
    for toml in ('[tool.xlacheck]\ntarget-version = "py311"\n', '[tool.xlacheck]\ntarget-version = "py312"\n',
                 '[project]\nrequires-python = ">=3.10,<3.14"\n[tool.xlacheck]\n',
                 '[project]\nrequires-python = ">=3.12"\n[tool.xlacheck]\n'):
        (tmp_path / "pyproject.toml").write_text(toml)
        codes.append([d.code for d in check_paths([tmp_path], Settings.from_pyproject(tmp_path)).diagnostics])
    assert codes == [["XLA410"], [], ["XLA410"], []]
    settings = Settings.from_pyproject(tmp_path)
    assert settings.target_version == (3, 12) == settings.target_python
    (tmp_path / "pyproject.toml").write_text('[project]\nrequires-python = ">=3.12"\n[tool.xlacheck]\n'
                                             'target-version = "py310"\n')  # the explicit key wins
    assert Settings.from_pyproject(tmp_path).target_version == (3, 10)
    for bad in ("3.11", "py27", 311):
        with pytest.raises(ConfigError, match='target-version: expected a Python version like "py311"'):
            Settings.from_mapping({"target-version": bad}, root=tmp_path)


def test_requires_python_without_xlacheck_table(tmp_path: Path) -> None:
    """A project with a pyproject.toml but no [tool.xlacheck] table still declares its oldest Python: the nearest
    pyproject.toml's requires-python decides (review18: it was read only beside a [tool.xlacheck] table, so a
    py3.12+ project got this interpreter's answer); a pyproject.toml that is not valid TOML is not xlacheck's
    config and is no error; the nearest file decides even when it has no requires-python."""
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    (project / "src" / "window.py").write_text(JAX_SLICE_STATIC)
    codes = []
    for toml in ('[project]\nname = "p"\nrequires-python = ">=3.12"\n', '[project]\nrequires-python = ">=3.10"\n'):
        (project / "pyproject.toml").write_text(toml)
        settings = Settings.from_pyproject(project / "src")
        codes.append([d.code for d in check_paths([project / "src"], settings).diagnostics])
    assert codes == [[], ["XLA410"]]
    assert Settings.from_pyproject(project / "src" / "window.py").target_version == (3, 10)
    (project / "pyproject.toml").write_text('[project\nrequires-python = ">=3.12"\n')  # broken TOML
    assert Settings.from_pyproject(project).target_version is None
    (project / "pyproject.toml").write_text('[project]\nname = "p"\n')
    (tmp_path / "pyproject.toml").write_text('[project]\nrequires-python = ">=3.12"\n')  # an outer project's
    assert Settings.from_pyproject(project).target_version is None


@pytest.mark.parametrize(("spec", "floor"), [
    (">=3.10", (3, 10)), ("~=3.11", (3, 11)), ("==3.12.*", (3, 12)), (">= 3.9, <4", (3, 9)), ("<3.13", None),
    ("", None), (None, None),
])
def test_requires_python_floor(spec: object, floor: tuple[int, int] | None) -> None:
    assert requires_python_floor(spec) == floor


def test_jit_compiled_is_part_of_the_cache_key(tmp_path: Path) -> None:
    """A cached plain result is not reused once the file is declared compiled (and back)."""
    (tmp_path / "net.py").write_text(TF_HELPER)
    codes = []
    for toml in ("", "jit-compiled = true\n", ""):
        (tmp_path / "pyproject.toml").write_text("[tool.xlacheck]\n" + toml)
        codes.append([d.code for d in check_paths([tmp_path], Settings.from_pyproject(tmp_path)).diagnostics])
    assert codes == [[], ["XLA307"], []]


def test_every_documented_key_is_tested_here_and_in_the_docs() -> None:
    text = Path(__file__).read_text()
    docs = (Path(__file__).resolve().parents[2] / "docs" / "configuration.md").read_text()
    for key in CONFIG_KEYS:
        assert f"def test_{key.replace('-', '_')}" in text, key
        assert f"`{key}`" in docs, key


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ('selct = ["XLA1"]\n', "unknown key 'selct'; did you mean 'select'?"),
        ('per-file-ignore = {}\n', "did you mean 'per-file-ignores'?"),
        ('zzz = 1\n', "known keys: select"),
        ('select = "XLA1"\n', "select: expected a list of strings"),
        ('select = ["E501"]\n', "'E501' is not a rule selector"),
        ('per-file-ignores = ["x"]\n', "per-file-ignores: expected a table"),
        ('cache-dir = 3\n', "cache-dir: expected a path string"),
        ('respect-gitignore = "yes"\n', "respect-gitignore: expected true or false"),
        ("select = [\n", "invalid TOML"),
    ],
)
def test_bad_config_is_one_line_naming_file_and_fix(tmp_path: Path, toml: str, needle: str) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.xlacheck]\n" + toml)
    with pytest.raises(ConfigError) as info:
        Settings.from_file(tmp_path / "pyproject.toml")
    message = str(info.value)
    assert needle in message and "pyproject.toml" in message and "\n" not in message


def test_find_config_walks_up_to_the_first_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.xlacheck]\nselect = ["XLA1"]\n')
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # no [tool.xlacheck]: skipped
    deep = tmp_path / "sub" / "a" / "b.py"
    deep.parent.mkdir()
    deep.write_text("")
    assert find_config(deep) == tmp_path / "pyproject.toml"
    settings = Settings.from_pyproject(deep)
    assert settings.root == tmp_path.resolve() and settings.select == ("XLA1",)


def test_other_toml_files_use_top_level_keys(tmp_path: Path) -> None:
    (tmp_path / "xlacheck.toml").write_text('ignore = ["XLA2"]\n')
    assert Settings.from_file(tmp_path / "xlacheck.toml").ignore == ("XLA2",)


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        Settings.from_file(tmp_path / "none.toml")


@pytest.mark.parametrize(
    ("layers", "code", "expected"),
    [
        ((), "XLA101", True),  # default: everything
        ((RuleSelection(select=("XLA1",)),), "XLA201", False),
        ((RuleSelection(select=("XLA1",), ignore=("XLA101",)),), "XLA101", False),  # more specific ignore wins
        ((RuleSelection(select=("XLA101",), ignore=("XLA1",)),), "XLA101", True),  # more specific select wins
        ((RuleSelection(select=("XLA1",), ignore=("XLA1",)),), "XLA101", False),  # tie: ignore wins
        ((RuleSelection(ignore=("XLA1",)), RuleSelection(select=("ALL",))), "XLA101", True),  # later select resets
        ((RuleSelection(ignore=("XLA1",)), RuleSelection(extend_select=("XLA101",))), "XLA101", True),
        ((RuleSelection(select=("XLA2",)), RuleSelection(ignore=("XLA201",))), "XLA202", True),
    ],
)
def test_rule_selection_layers_like_ruff(layers: tuple[RuleSelection, ...], code: str, expected: bool) -> None:
    assert Settings(overrides=layers).is_selected(code) is expected


def test_command_line_select_overrides_config_select() -> None:
    settings = Settings(select=("XLA1",), ignore=("XLA101",)).with_overrides(select=["XLA3"])
    assert not settings.is_selected("XLA102") and settings.is_selected("XLA301")
    assert settings.with_overrides(ignore=["XLA301"]).is_selected("XLA301") is False


def test_default_excludes_are_documented() -> None:
    assert {".git", ".venv", "venv", "build", "dist", "node_modules", "__pycache__"} <= set(DEFAULT_EXCLUDE)


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("build", "a/build/x.py", True),
        ("build", "a/builder/x.py", False),
        ("*.pyi", "pkg/a.pyi", True),
        ("tests/*.py", "tests/a.py", True),
        ("tests/*.py", "tests/sub/a.py", False),
        ("tests/**/*.py", "tests/sub/deep/a.py", True),
        ("tests/**/*.py", "tests/a.py", True),
        ("src/gen", "src/gen/x/y.py", True),
        ("src/gen/", "src/gen/x.py", True),
        ("./src/gen", "src/gen/x.py", True),
        ("test_[ab].py", "t/test_a.py", True),
        ("test_[!ab].py", "t/test_a.py", False),
        ("?.py", "pkg/ab.py", False),
    ],
)
def test_globs(pattern: str, path: str, expected: bool) -> None:
    assert Glob(pattern).matches(path) is expected


def test_jobs_must_be_positive() -> None:
    with pytest.raises(ConfigError, match="--jobs"):
        Settings(jobs=0)


def test_respect_gitignore(project: Path) -> None:
    (project / ".git").mkdir()
    (project / ".gitignore").write_text("legacy/\n*.py\n!model.py\n!test_*.py\n")
    (project / "src" / ".gitignore").write_text("model.py\n")  # the deeper file wins
    assert {p for p, _ in run(project, "")} == {"tests/test_model.py"}
    assert {p for p, _ in run(project, "respect-gitignore = false\n")} == ALL_FILES
