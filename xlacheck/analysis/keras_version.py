"""Which Keras a TensorFlow project runs, and whether its ``fit`` is an XLA entry.

Keras 3's ``Model.compile()`` defaults to ``jit_compile="auto"`` (keras/src/trainers/trainer.py,
``Trainer.compile`` and ``_resolve_auto_jit_compile``, Keras 3.12): with the TensorFlow backend,
"auto" is **False** when ``run_eagerly=True``, on a machine with no device but CPUs, when the model
was built under a ``tf.distribute`` strategy scope (``tf.distribute.has_strategy()`` in the
trainer's ``__init__``), when a layer of the model has ``supports_jit = False`` (the lookup,
hashing, ``TextVectorization`` and several random image preprocessing layers), when op
determinism is enabled, and on a macOS arm GPU; else **True**: ``fit``, ``evaluate`` and
``predict`` run their step through ``tf.function(jit_compile=True)``. With the JAX backend the step
is always ``jax.jit``-ed. Under TensorFlow >= 2.16 ``tf.keras`` is Keras 3 (TensorFlow's lazy
loader routes it to ``keras._tf_keras.keras`` when the installed ``keras`` is 3.x), unless
``TF_USE_LEGACY_KERAS`` is true and ``tf_keras`` is installed. Keras 2 (``tf.keras`` of TensorFlow
< 2.16, ``tf_keras``, standalone ``keras`` 2.x) runs ``fit`` under XLA only with
``jit_compile=True``.

:func:`keras_generation` answers from what a project declares (requirements*.txt, setup.py and
setup.cfg ``install_requires`` and extras, pyproject ``[project]`` dependencies and extras, poetry, conda
environment files, Dockerfile base images and ``pip install`` lines) and from its code (an import
of ``tf_keras``, ``TF_USE_LEGACY_KERAS``, APIs only one generation has), with a third answer,
unknown. Versions are read by ``packaging`` (PEP 440/508); nothing imports TensorFlow.
"""

from __future__ import annotations

import ast
import configparser
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version


class KerasGeneration(str, Enum):
    KERAS_2 = "Keras 2"
    KERAS_3 = "Keras 3"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class KerasAnswer:
    generation: KerasGeneration
    why: str


@dataclass(frozen=True)
class Declared:
    """One package a project declares it installs, with its version specifier ("" for any)."""

    package: str  # canonical name
    specifier: str
    source: str  # the file (root-relative) that declares it

    def to_json(self) -> list[str]:
        return [self.package, self.specifier, self.source]


# TensorFlow distributions whose tf.keras is Keras 3 from 2.16 on (tf-nightly has been past 2.16 since 2024)
_TF_PACKAGES = frozenset({"tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-macos", "tensorflow-intel",
                          "tensorflow-tpu", "tensorflow-aarch64", "intel-tensorflow"})
_TF_KERAS3_FROM = Version("2.16")
_KERAS3_FROM = Version("3")
# the releases a version range is tested against, with the versions it names itself
# (a patch release or two of each minor: ``>2.15`` allows 2.15.1)
_TF_RELEASES = tuple(Version(f"{major}.{minor}.{patch}") for major, minors in ((1, 16), (2, 22))
                     for minor in range(minors) for patch in (0, 1, 9))
_KERAS_RELEASES = tuple(Version(f"{major}.{minor}.{patch}") for major, minors in ((2, 16), (3, 13))
                        for minor in range(minors) for patch in (0, 1, 9))
# the last tensorflow-gpu release is 2.12 (December 2022; a stub): a project that installs it runs Keras 2
_LEGACY_ONLY = {"tensorflow-gpu": "tensorflow-gpu (its last release is 2.12)",
                "tf-keras": "tf-keras (legacy Keras 2)", "tf-keras-nightly": "tf-keras-nightly (legacy Keras 2)"}
_NIGHTLY_KERAS3 = frozenset({"tf-nightly", "tf-nightly-cpu", "tf-nightly-gpu", "keras-nightly", "keras-core"})

# code that only one generation runs (import lines and attribute paths)
_KERAS2_CODE = re.compile(
    r"^[ \t]*(?:import|from)[ \t]+tf_keras\b"  # the legacy package itself
    r"|\btensorflow\.python\.keras\b|\b(?:tf|tensorflow)\.contrib\b"  # TF 1 / private Keras 2 paths
    r"|\bkeras\.engine\b|\bkeras\.wrappers\.scikit_learn\b|\blayers\.experimental\.preprocessing\b"
    r"|\b(?:tf|tensorflow)\.compat\.v1\.keras\b|\bkeras\.utils\.multi_gpu_model\b", re.M)
_KERAS3_CODE = re.compile(r"\bkeras\.ops\b|^[ \t]*from[ \t]+keras[ \t]+import[ \t]+[^\n]*\bops\b|\bkeras_core\b"
                          r"|\bkeras\.config\.set_backend\b"
                          # a backend only Keras 3 has (Keras 2.0-2.3 read KERAS_BACKEND too: tensorflow, theano, cntk)
                          r"|\bKERAS_BACKEND\W{0,6}(?:jax|torch|numpy|openvino)\b", re.M)
# TF_USE_LEGACY_KERAS set true: in Python through os.environ, in a script, Dockerfile or config at a line's
# start (``export``, ``ENV``, a YAML key, ``TF_USE_LEGACY_KERAS=1 python train.py``); not a message that
# advises it ("set the environment variable TF_USE_LEGACY_KERAS=1 to fix")
_LEGACY_ENV = re.compile(r"\benviron\b[^\n]*\bTF_USE_LEGACY_KERAS\W{0,6}(?:1|[Tt]rue)\b"
                         r"|^[ \t]*(?:export[ \t]+|ENV[ \t]+|-[ \t]+)?[\"']?TF_USE_LEGACY_KERAS[\"']?[ \t]*[=: ][ \t]*"
                         r"[\"']?(?:1|[Tt]rue)\b", re.M)

# a file that trains a Keras model with ``fit`` (any Keras: ``import keras``, ``tf.keras``)
_FIT_CALL = re.compile(r"\.fit\(")
_KERAS_NAME = re.compile(r"\bkeras\b")
_KERAS3_IMPORT = re.compile(r"^[ \t]*(?:import[ \t]+keras\b|from[ \t]+keras\b)", re.M)
_TF_KERAS = re.compile(r"\b(?:tf|tensorflow)\.keras\b|^[ \t]*from[ \t]+tensorflow[ \t]+import[^\n]*\bkeras\b", re.M)
# what makes Keras 3's jit_compile="auto" resolve to False for the models a file builds and fits
_AUTO_OFF = re.compile(r"\brun_eagerly\s*=\s*True\b|\bjit_compile\s*=\s*False\b|\benable_op_determinism\b"
                       r"|\b(?:MultiWorkerMirrored|Mirrored|CentralStorage|ParameterServer|OneDevice)Strategy\b"
                       r"|\.scope\(\)")

_DOCKER_TF = re.compile(r"\btensorflow/tensorflow:(\d+\.\d+(?:\.\d+)?)")
_DOCKER_NGC = re.compile(r"\bnvcr\.io/nvidia/tensorflow:(\d+)\.(\d+)-tf(\d)")
_PIP_INSTALL = re.compile(r"\bpip3?[ \t]+install[ \t]+((?:[^\n&;|\\]|\\\n)+)")


def is_declaration_file(path: str) -> bool:
    """Requirements (``requirements*.txt``, or any ``.txt`` in a ``requirements/`` folder, where pip's ``-r``
    includes usually live), setup files, ``pyproject.toml``, conda environments and Dockerfiles
    (``Dockerfile``, ``Dockerfile.gpu``, ``tpu.Dockerfile``)."""
    base = os.path.basename(path)
    in_requirements = os.path.basename(os.path.dirname(path)) == "requirements"
    return ((base.startswith("requirements") or in_requirements) and base.endswith(".txt")
            or base in ("setup.py", "setup.cfg", "pyproject.toml")
            or base.startswith("environment") and base.endswith((".yml", ".yaml")) or "Dockerfile" in base)


def declaring_folder(path: str) -> str:
    """The folder a declaration file speaks for: its own, or the project's above a ``requirements/`` folder
    (``requirements/tpu.txt`` declares what the code beside that folder runs)."""
    folder = os.path.dirname(path)
    return os.path.dirname(folder) if os.path.basename(folder) == "requirements" else folder


def declarations(path: str, text: str, source: str) -> tuple[Declared, ...]:
    """The TensorFlow and Keras packages one declaration file installs, or offers as an extra (a library's
    ``pip install pkg[tensorflow]``: the versions it supports)."""
    base = os.path.basename(path)
    reqs: Iterable[tuple[str, str]]
    if base.endswith(".txt"):
        reqs = _requirement_lines(text.splitlines())
    elif base == "setup.py":
        reqs = _setup_py(text)
    elif base == "setup.cfg":
        reqs = _setup_cfg(text)
    elif base == "pyproject.toml":
        reqs = _pyproject(text)
    elif base.endswith((".yml", ".yaml")):
        reqs = _conda_env(text)
    else:
        reqs = _dockerfile(text)
    out = []
    for name, spec in reqs:
        name = canonicalize_name(name)
        if name in _TF_PACKAGES or name in _LEGACY_ONLY or name in _NIGHTLY_KERAS3 or name == "keras":
            out.append(Declared(name, spec, source))
    return tuple(out)


def _requirement(line: str) -> tuple[str, str] | None:
    try:
        req = Requirement(line)
    except InvalidRequirement:
        return None
    return req.name, str(req.specifier)


_COMMENT = re.compile(r"(?:^|\s)#")
_OPTIONS = re.compile(r"\s--?[A-Za-z]")  # per-requirement options: `pkg==1.0 --hash=sha256:...`


def _requirement_lines(lines: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Requirements of pip's format: a comment after whitespace, a backslash that continues the line and the
    per-requirement options after it (pip-compile's ``tensorflow==2.15.0 \\`` then ``--hash=...`` lines)."""
    pending = ""
    for raw in [*lines, ""]:
        line = _COMMENT.split(raw, 1)[0].rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = _OPTIONS.split(pending + line, 1)[0].strip(), ""
        if line and not line.startswith(("#", "-")):
            found = _requirement(line)
            if found is not None:
                yield found


def _setup_py(text: str) -> list[tuple[str, str]]:
    """``install_requires`` of a ``setup()`` call: a list of strings, or a module-level name bound to one."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    lists: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, (ast.List, ast.Tuple)):
            strings = [e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            for target in node.targets:
                if isinstance(target, ast.Name):
                    lists[target.id] = strings
    def literal(value: ast.expr) -> list[str]:
        if isinstance(value, (ast.List, ast.Tuple)):
            return [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return lists.get(value.id, []) if isinstance(value, ast.Name) else []

    found: list[str] = []
    for call in ast.walk(tree):
        if isinstance(call, ast.Call):
            for kw in call.keywords:
                if kw.arg == "install_requires":
                    found += literal(kw.value)
                elif kw.arg == "extras_require" and isinstance(kw.value, ast.Dict):
                    found += [r for v in kw.value.values for r in literal(v)]  # `pip install pkg[tensorflow]`
    return list(_requirement_lines(found))


def _setup_cfg(text: str) -> list[tuple[str, str]]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return []
    lines = parser.get("options", "install_requires", fallback="").splitlines()
    if parser.has_section("options.extras_require"):
        lines += [line for _, value in parser.items("options.extras_require") for line in value.splitlines()]
    return list(_requirement_lines(lines))


def _pyproject(text: str) -> list[tuple[str, str]]:
    try:
        import tomllib
    except ImportError:  # pragma: no cover - Python 3.10 without the backport: nothing declared
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError:
            return []
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, UnicodeError):
        return []
    project = data.get("project", {})
    project = project if isinstance(project, dict) else {}
    deps = project.get("dependencies", [])
    out = list(_requirement_lines(r for r in deps if isinstance(r, str))) if isinstance(deps, list) else []
    extras = project.get("optional-dependencies", {})
    for reqs in extras.values() if isinstance(extras, dict) else ():
        out += _requirement_lines(r for r in reqs if isinstance(r, str)) if isinstance(reqs, list) else []
    tool = data.get("tool", {})
    poetry = tool.get("poetry", {}) if isinstance(tool, dict) else {}
    poetry = poetry.get("dependencies", {}) if isinstance(poetry, dict) else {}
    for name, value in poetry.items() if isinstance(poetry, dict) else ():
        spec = value.get("version", "") if isinstance(value, dict) else value
        out.append((name, _poetry_spec(spec) if isinstance(spec, str) else ""))
    return out


def _poetry_spec(spec: str) -> str:
    """A poetry constraint as a PEP 440 specifier where it is one (a bare version pins it); "" (any)
    for poetry's own operators (``^``, ``~``), which packaging does not read."""
    spec = spec.strip()
    if spec in ("", "*"):
        return ""
    try:
        return str(SpecifierSet(spec))
    except InvalidSpecifier:
        pass
    try:
        return f"=={Version(spec)}"
    except InvalidVersion:
        return ""


def _conda_env(text: str) -> list[tuple[str, str]]:
    """A conda environment file's dependencies: pip's (PEP 508) and conda's (``name=2.4`` is 2.4.*)."""
    import yaml  # a dependency of the linter; imported only when a project declares a conda environment

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return []
    deps = data.get("dependencies", []) if isinstance(data, dict) else []
    out: list[tuple[str, str]] = []
    for dep in deps if isinstance(deps, list) else ():
        if isinstance(dep, dict):
            pip = dep.get("pip")
            out += _requirement_lines(p for p in pip if isinstance(p, str)) if isinstance(pip, list) else []
        elif isinstance(dep, str):
            name, _, rest = dep.partition("=")
            if rest and not rest.startswith("="):  # conda's fuzzy ``=``: a version prefix
                found = _requirement(f"{name.strip()}=={rest.split('=')[0].strip()}.*")
            else:
                found = _requirement(dep.split("::")[-1])
            if found is not None:
                out.append(found)
    return out


def _dockerfile(text: str) -> list[tuple[str, str]]:
    """A Dockerfile's TensorFlow: its base image's tag (tensorflow/tensorflow:2.4.1-gpu; NVIDIA's NGC
    nvcr.io/nvidia/tensorflow:YY.MM-tfN, whose TF 2 images of 2020-2023 carry TensorFlow 2.2-2.13) and
    what its ``pip install`` lines name."""
    out: list[tuple[str, str]] = []
    for m in _DOCKER_TF.finditer(text):
        out.append(("tensorflow", f"=={m.group(1)}"))
    for m in _DOCKER_NGC.finditer(text):
        if m.group(3) == "1" or int(m.group(1)) <= 23:
            out.append(("tensorflow", "<2.16"))
    for m in _PIP_INSTALL.finditer(text):
        words = m.group(1).replace("\\\n", " ").split()
        out += _requirement_lines(w.strip("'\"") for w in words if not w.startswith("-"))
    return out


def _generation_of(decl: Declared) -> KerasGeneration:
    """What one declaration says: Keras 2 or 3 when every version it allows gives the same, else unknown."""
    if decl.package in _LEGACY_ONLY:
        return KerasGeneration.KERAS_2
    if decl.package in _NIGHTLY_KERAS3:
        return KerasGeneration.KERAS_3
    cut, releases = (_KERAS3_FROM, _KERAS_RELEASES) if decl.package == "keras" else (_TF_KERAS3_FROM, _TF_RELEASES)
    try:
        spec = SpecifierSet(decl.specifier)
    except InvalidSpecifier:
        return KerasGeneration.UNKNOWN
    named: set[Version] = set()
    for s in spec:
        try:
            named.add(Version(s.version.removesuffix(".*")))
        except InvalidVersion:
            continue
    allowed = [v for v in set(releases) | named if spec.contains(v, prereleases=True)]
    old = any(Version(v.base_version) < cut for v in allowed)  # 2.16.0rc0 is a 2.16
    new = any(Version(v.base_version) >= cut for v in allowed)
    if old and not new:
        return KerasGeneration.KERAS_2
    if new and not old:
        return KerasGeneration.KERAS_3
    return KerasGeneration.UNKNOWN


def keras_generation(path: str, text: str, root: str, declared: Mapping[str, Sequence[Declared]],
                     legacy_env: str | None) -> KerasAnswer:
    """Which Keras the file at ``path`` (its ``text``) runs: its own code first (``tf_keras``, an API only
    one generation has), then ``TF_USE_LEGACY_KERAS`` set anywhere in the project (``legacy_env``: where;
    for tf.keras code only, not a file of standalone ``import keras``), then the declarations of the nearest
    folder from the file's up to ``root`` that declares TensorFlow or Keras (``declared``: folder -> its
    declarations); unknown when they disagree or allow both."""
    m2 = _KERAS2_CODE.search(text)
    if m2:
        return KerasAnswer(KerasGeneration.KERAS_2, f"its code uses `{m2.group(0).strip()}`, which only Keras 2 has")
    m3 = _KERAS3_CODE.search(text)
    if m3:
        return KerasAnswer(KerasGeneration.KERAS_3, f"its code uses `{m3.group(0).strip()}`, which only Keras 3 has")
    # TF_USE_LEGACY_KERAS routes tf.keras only: `import keras` is still the installed keras package
    standalone = _KERAS3_IMPORT.search(text) is not None and _TF_KERAS.search(text) is None
    if legacy_env is not None and not standalone:
        return KerasAnswer(KerasGeneration.KERAS_2, f"{legacy_env} sets TF_USE_LEGACY_KERAS (tf.keras is tf_keras)")
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        decls = declared.get(folder, ())
        if standalone:  # tf-keras serves tf.keras only: `import keras` is the keras package (review19)
            decls = [d for d in decls if not d.package.startswith("tf-keras")]
        if decls:
            gens = {_generation_of(d) for d in decls}
            named = ", ".join(sorted({f"{d.package}{d.specifier} ({d.source})" for d in decls}))
            if any(d.package.startswith("tf-keras") for d in decls) or (
                    KerasGeneration.KERAS_2 in gens and KerasGeneration.KERAS_3 not in gens):
                # tf-keras beside tensorflow>=2.16: the project installs legacy Keras to run tf.keras on it
                return KerasAnswer(KerasGeneration.KERAS_2, f"the project declares {named}")
            if gens == {KerasGeneration.KERAS_3}:
                return KerasAnswer(KerasGeneration.KERAS_3, f"the project declares {named}")
            return KerasAnswer(KerasGeneration.UNKNOWN, f"the project declares {named}: either Keras")
        if folder == root or not folder.startswith(root + os.sep):
            return KerasAnswer(KerasGeneration.UNKNOWN, "the project declares no TensorFlow or Keras version")
        folder = os.path.dirname(folder)


def trains_with_fit(text: str) -> bool:
    """Whether a file's code trains a Keras model with ``fit`` (``import keras`` or ``tf.keras``)."""
    return bool(_FIT_CALL.search(text) and _KERAS_NAME.search(text))


def fit_is_xla_entry(text: str, answer: KerasAnswer) -> bool:
    """Whether a file's Keras ``fit`` runs its train step under XLA (on a GPU, with no distribution
    strategy: Keras 3's ``jit_compile="auto"``). Keras 3 proven: yes, unless the file turns "auto" off
    (``run_eagerly=True``, ``jit_compile=False``, op determinism, a ``tf.distribute`` strategy scope);
    Keras 2 proven: no. Unknown: yes for standalone ``import keras`` (a project that imports the keras
    package and pins no TensorFlow runs today's Keras 3), no for ``tf.keras`` alone (code that spells
    ``tf.keras`` and pins nothing was written for Keras 2: measured on the judged batches)."""
    if not trains_with_fit(text) or _AUTO_OFF.search(text):
        return False
    if answer.generation is KerasGeneration.KERAS_3:
        return True
    return answer.generation is KerasGeneration.UNKNOWN and bool(_KERAS3_IMPORT.search(text))


def legacy_env(texts: Iterable[tuple[str, str]]) -> str | None:
    """The first of (name, text) pairs that sets ``TF_USE_LEGACY_KERAS`` true, or None."""
    for name, text in texts:
        if _LEGACY_ENV.search(text):
            return name
    return None
