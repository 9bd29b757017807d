"""Settings: the ``[tool.xlacheck]`` table of pyproject.toml, layered with command-line overrides.

Rule selection follows ruff's resolution: each layer (defaults, config file, command line) may
``select`` (start over from these), ``extend-select`` (add) and ``ignore`` (remove); within one
layer the more specific selector wins (``XLA101`` beats ``XLA1`` beats ``ALL``) and, at equal
specificity, ``ignore`` wins over ``select``.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from xlacheck.globs import Glob
from xlacheck.suppression import DEFAULT_OFF

DEFAULT_EXCLUDE: tuple[str, ...] = (
    ".git",
    ".hg",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    ".eggs",
    "build",
    "dist",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".xlacheck_cache",
)
DEFAULT_CACHE_DIR = ".xlacheck_cache"
ALL_FILES = "**"  # jit-compiled = true / --jit-compiled: the declaration covers every file
SELECTOR_RE = re.compile(r"ALL|XLA[0-9]{0,3}")

# Every key of [tool.xlacheck]; docs/configuration.md documents each, tests/xlacheck/test_config.py
# proves each changes behaviour.
CONFIG_KEYS: tuple[str, ...] = (
    "select",
    "ignore",
    "extend-select",
    "per-file-ignores",
    "exclude",
    "extend-exclude",
    "cache-dir",
    "respect-gitignore",
    "torch-xla",
    "jit-compiled",
    "target-version",
)
TARGET_VERSION_RE = re.compile(r"py3(\d{1,2})")  # "py311", as ruff spells it
# requires-python's lower bound: ">=3.10", "~=3.11", "==3.12.*", ">3.9" (the first such clause)
_REQUIRES_PYTHON_FLOOR = re.compile(r"(?:>=|~=|==|>)\s*3\.(\d{1,2})")


def parse_target_version(value: object, source: str) -> tuple[int, int]:
    """``"py311"`` -> ``(3, 11)``; anything else is a one-line error naming ``source`` and the form."""
    match = TARGET_VERSION_RE.fullmatch(value) if isinstance(value, str) else None
    if match is None or int(match.group(1)) < 8:
        raise ConfigError(f'{source}: expected a Python version like "py311" (py38 or later), got {value!r}')
    return 3, int(match.group(1))


def requires_python_floor(spec: object) -> tuple[int, int] | None:
    """The oldest Python a ``[project] requires-python`` specifier admits (None: no lower bound read)."""
    match = _REQUIRES_PYTHON_FLOOR.search(spec) if isinstance(spec, str) else None
    return (3, int(match.group(1))) if match else None


class ConfigError(ValueError):
    """Bad configuration or option: the message is one line naming the source and the fix."""


def check_selector(selector: str, source: str) -> str:
    """Return ``selector`` normalized, or raise naming ``source`` (a flag or a config file key)."""
    normalized = selector.strip().upper()
    if not SELECTOR_RE.fullmatch(normalized):
        raise ConfigError(
            f"{source}: {selector!r} is not a rule selector; use a code like XLA101, "
            "a prefix like XLA1 or XLA20, or ALL"
        )
    return normalized


def _specificity(selector: str) -> int:
    return 0 if selector == "ALL" else len(selector)


def selector_matches(selector: str, code: str) -> bool:
    return selector == "ALL" or code.startswith(selector)


@dataclass(frozen=True)
class RuleSelection:
    """One layer of selection; ``select=None`` keeps what earlier layers chose."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()

    def decide(self, code: str, previous: bool) -> bool:
        best: tuple[int, bool] | None = None  # (specificity, enabled); ignore wins ties
        enabling = (*(self.select or ()), *self.extend_select)
        for selectors, enabled in ((enabling, True), (self.ignore, False)):
            for selector in selectors:
                if selector_matches(selector, code):
                    candidate = (_specificity(selector), enabled)
                    if best is None or candidate[0] > best[0] or (candidate[0] == best[0] and not enabled):
                        best = candidate
        if best is not None:
            return best[1]
        return False if self.select is not None else previous


@dataclass(frozen=True)
class Settings:
    """Everything a run needs. Paths in globs are relative to ``root`` (the config's folder)."""

    select: tuple[str, ...] | None = None  # None: every rule (ruff's default is a subset; ours is all)
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    overrides: tuple[RuleSelection, ...] = ()  # later layers, e.g. the command line
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    force_exclude: bool = False  # apply exclude to paths named explicitly (pre-commit passes files)
    respect_gitignore: bool = True  # skip what .gitignore files name, as ruff does
    cache: bool = True
    cache_dir: Path | None = None  # None: <root>/.xlacheck_cache
    torch_xla: bool = False  # the project's torch code runs on XLA devices (docs/torch.md)
    # globs (root-relative, as per-file-ignores) of the files whose TF/JAX functions and model/layer
    # methods run under XLA (jit-compiled = true: every file, "**"); docs/configuration.md
    jit_compiled: tuple[str, ...] = ()
    jobs: int | None = None  # None: 1 for a few files, else every core
    root: Path = field(default_factory=Path.cwd)
    config_file: Path | None = None
    preview: bool = False  # also run the rules and evidence levels behind --preview
    # the oldest Python the project runs on: target-version, else [project] requires-python of the same
    # pyproject.toml; None: the running interpreter's (what the language allows: a slice hashes from 3.12)
    target_version: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.jobs is not None and self.jobs < 1:
            raise ConfigError(f"--jobs: must be at least 1, got {self.jobs}")

    # -- loading ---------------------------------------------------------------------------
    @classmethod
    def from_pyproject(cls, start: str | os.PathLike[str] | None = None) -> Settings:
        """Settings from the nearest pyproject.toml with a [tool.xlacheck] table at or above ``start``; with
        none, the defaults and the oldest Python that the nearest pyproject.toml's ``requires-python`` admits."""
        start_path = Path(start) if start is not None else Path.cwd()
        found = find_config(start_path)
        if found is None:
            return cls(target_version=nearest_requires_python(start_path))
        return cls.from_file(found)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Settings:
        """Read ``path``: a pyproject.toml ([tool.xlacheck]) or any other TOML file (top-level keys)."""
        path = Path(path)
        data = _read_toml(path)
        if path.name == "pyproject.toml":
            tool = data.get("tool", {})
            if not isinstance(tool, Mapping):
                raise ConfigError(f"{path}: `tool` must be a table (`[tool.xlacheck]` holds xlacheck's settings), got {tool!r}")
            table = tool.get("xlacheck", {})
            where = f"{path} [tool.xlacheck]"
        else:
            table, where = data, str(path)
        if not isinstance(table, Mapping):
            raise ConfigError(
                f'{where}: expected a table of settings, got {table!r}; write `[tool.xlacheck]` on its own line '
                'with keys below it, e.g. select = ["XLA1"] (an empty table turns xlacheck on with defaults)'
            )
        settings = cls.from_mapping(table, root=path.resolve().parent, source=where, config_file=path)
        project = data.get("project") if path.name == "pyproject.toml" else None
        if settings.target_version is None and isinstance(project, Mapping):
            floor = requires_python_floor(project.get("requires-python"))
            if floor is not None:
                settings = replace(settings, target_version=floor)
        return settings

    @classmethod
    def from_mapping(
        cls,
        table: Mapping[str, Any],
        *,
        root: Path,
        source: str = "[tool.xlacheck]",
        config_file: Path | None = None,
    ) -> Settings:
        for key in table:
            if key not in CONFIG_KEYS:
                import difflib

                close = difflib.get_close_matches(key, CONFIG_KEYS, n=1)
                hint = f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(CONFIG_KEYS)}"
                raise ConfigError(f"{source}: unknown key {key!r}; {hint}")

        def codes(key: str) -> tuple[str, ...]:
            value = _string_list(table[key], f"{source} {key}")
            return tuple(check_selector(v, f"{source} {key}") for v in value)

        kwargs: dict[str, Any] = {"root": root, "config_file": config_file}
        if "select" in table:
            kwargs["select"] = codes("select")
        if "ignore" in table:
            kwargs["ignore"] = codes("ignore")
        if "extend-select" in table:
            kwargs["extend_select"] = codes("extend-select")
        if "exclude" in table:
            kwargs["exclude"] = _string_list(table["exclude"], f"{source} exclude", PATH_EXAMPLE)
        if "extend-exclude" in table:
            kwargs["extend_exclude"] = _string_list(table["extend-exclude"], f"{source} extend-exclude", PATH_EXAMPLE)
        if "cache-dir" in table:
            value = table["cache-dir"]
            if not isinstance(value, str) or not value:
                raise ConfigError(f'{source} cache-dir: expected a path string like ".xlacheck_cache", got {value!r}')
            kwargs["cache_dir"] = (root / os.path.expanduser(value)).resolve()
        if "respect-gitignore" in table:
            value = table["respect-gitignore"]
            if not isinstance(value, bool):
                raise ConfigError(f"{source} respect-gitignore: expected true or false, got {value!r}")
            kwargs["respect_gitignore"] = value
        if "torch-xla" in table:
            value = table["torch-xla"]
            if not isinstance(value, bool):
                raise ConfigError(f"{source} torch-xla: expected true or false, got {value!r}")
            kwargs["torch_xla"] = value
        if "jit-compiled" in table:
            value = table["jit-compiled"]
            if isinstance(value, bool):
                kwargs["jit_compiled"] = (ALL_FILES,) if value else ()
            elif isinstance(value, list) and all(isinstance(v, str) and v for v in value):
                kwargs["jit_compiled"] = tuple(value)
            else:
                raise ConfigError(f'{source} jit-compiled: expected true, false or a list of globs like '
                                  f'["src/models/**"], got {value!r}')
        if "target-version" in table:
            kwargs["target_version"] = parse_target_version(table["target-version"], f"{source} target-version")
        if "per-file-ignores" in table:
            value = table["per-file-ignores"]
            if not isinstance(value, Mapping):
                raise ConfigError(
                    f'{source} per-file-ignores: expected a table like {{"tests/**" = ["XLA3"]}}, got {value!r}'
                )
            kwargs["per_file_ignores"] = tuple(
                (
                    str(glob),
                    tuple(
                        check_selector(c, f"{source} per-file-ignores {glob!r}")
                        for c in _string_list(selectors, f"{source} per-file-ignores {glob!r}")
                    ),
                )
                for glob, selectors in value.items()
            )
        return cls(**kwargs)

    # -- overriding ------------------------------------------------------------------------
    def with_overrides(
        self,
        *,
        select: Sequence[str] | None = None,
        ignore: Sequence[str] = (),
        extend_select: Sequence[str] = (),
        **fields: Any,
    ) -> Settings:
        """Layer command-line selection over this one and replace any other fields given."""
        layer = RuleSelection(
            select=tuple(select) if select is not None else None,
            ignore=tuple(ignore),
            extend_select=tuple(extend_select),
        )
        overrides = self.overrides + ((layer,) if layer != RuleSelection() else ())
        return replace(self, overrides=overrides, **fields)

    # -- queries ---------------------------------------------------------------------------
    @property
    def layers(self) -> tuple[RuleSelection, ...]:
        config = RuleSelection(select=self.select, ignore=self.ignore, extend_select=self.extend_select)
        # Every rule but the default-off ones (XLA001, as ruff's RUF100); `select = ["ALL"]` enables it.
        return (RuleSelection(select=("ALL",), ignore=DEFAULT_OFF), config, *self.overrides)

    def is_selected(self, code: str) -> bool:
        return _is_selected(self.layers, code)

    @property
    def all_excludes(self) -> tuple[Glob, ...]:
        return tuple(Glob(p) for p in (*self.exclude, *self.extend_exclude))

    def ignored_for(self, rel_path: str) -> tuple[str, ...]:
        """Selectors that ``per-file-ignores`` turns off for this root-relative POSIX path."""
        return tuple(
            code for pattern, codes in self.per_file_ignores if Glob(pattern).matches(rel_path) for code in codes
        )

    @property
    def target_python(self) -> tuple[int, int]:
        """The Python the rules assume: ``target_version``, else the running interpreter's."""
        return self.target_version or (sys.version_info[0], sys.version_info[1])

    def declares_jit(self, rel_path: str) -> bool:
        """``jit-compiled`` covers this root-relative POSIX path: its TF/JAX functions and model/layer
        methods are compiled roots unless the code shows they run on the host."""
        return any(pattern == ALL_FILES or Glob(pattern).matches(rel_path) for pattern in self.jit_compiled)

    @property
    def resolved_cache_dir(self) -> Path:
        return self.cache_dir if self.cache_dir is not None else self.root / DEFAULT_CACHE_DIR


@lru_cache(maxsize=4096)
def _is_selected(layers: tuple[RuleSelection, ...], code: str) -> bool:
    enabled = False
    for layer in layers:
        enabled = layer.decide(code, enabled)
    return enabled


def find_config(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above ``start`` that has a [tool.xlacheck] table."""
    start = start.resolve()
    directory = start if _is(start, Path.is_dir) else start.parent
    for candidate_dir in (directory, *directory.parents):
        candidate = candidate_dir / "pyproject.toml"
        # An unreadable folder cannot be searched; the paths below it are reported by the run itself.
        if _is(candidate, Path.is_file):
            if not _may_hold_table(candidate):
                continue  # no "xlacheck" in it at all: skip parsing (and importing tomllib)
            tool = _read_toml(candidate).get("tool", {})
            if isinstance(tool, Mapping) and "xlacheck" in tool:
                return candidate
    return None


def nearest_requires_python(start: Path) -> tuple[int, int] | None:
    """The lower bound of ``[project] requires-python`` in the nearest pyproject.toml at or above ``start``
    (any pyproject.toml: the project's metadata, not xlacheck's table). None when that file has none, is not
    valid TOML (packaging tools report that; it is not xlacheck's config), or there is no pyproject.toml."""
    start = start.resolve()
    directory = start if _is(start, Path.is_dir) else start.parent
    for candidate_dir in (directory, *directory.parents):
        candidate = candidate_dir / "pyproject.toml"
        if _is(candidate, Path.is_file):
            try:
                if b"requires-python" not in candidate.read_bytes():
                    return None
                project = _read_toml(candidate).get("project")
            except (OSError, ConfigError):
                return None
            return requires_python_floor(project.get("requires-python")) if isinstance(project, Mapping) else None
    return None


def _is(path: Path, test: Any) -> bool:
    try:
        return bool(test(path))
    except OSError:  # PermissionError on Python < 3.12 for a path inside an unreadable folder
        return False


def _may_hold_table(path: Path) -> bool:
    try:
        return b"xlacheck" in path.read_bytes()
    except OSError:
        return True  # let _read_toml report it


def _read_toml(path: Path) -> dict[str, Any]:
    # imported here: a run without a config file never pays for it (and datetime)
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10 needs the tomli backport
        try:
            import tomli as tomllib
        except ModuleNotFoundError:
            raise ConfigError(f"{path}: reading TOML on Python 3.10 needs tomli; run `pip install tomli`") from None
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file; pass an existing pyproject.toml to --config") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read config file ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: invalid TOML ({e}); fix the syntax") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 (byte {e.start}: {e.object[e.start:e.start + 1]!r}); TOML files are "
                          "UTF-8: re-save it as UTF-8") from None


PATH_EXAMPLE = '["build", "src/legacy/**"]'
CODE_EXAMPLE = '["XLA1"]'


def _string_list(value: Any, source: str, example: str = CODE_EXAMPLE) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{source}: expected a list of strings like {example}, got {value!r}")
    return tuple(value)
