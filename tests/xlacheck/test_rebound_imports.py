"""Names a module binds again after importing them resolve to the module's own object inside its
functions (prec24; x-transformers' `from math import log` then `def log(t, eps)`, batch 23): checked
against Python itself, by running each module and asking a function what the name is."""

from __future__ import annotations

import ast
import math

import pytest

from xlacheck.analysis.contexts import analyze_module
from xlacheck.analysis.imports import rebound_imports

_ASK = "\ndef which():\n    return log\n"

# module source -> whether a function of the module sees math.log under `log`
MODULES: dict[str, tuple[str, bool]] = {
    "def_after_import": ("from math import log\ndef log(t, eps=1e-20):\n    return t\n", False),
    "import_after_def": ("def log(t):\n    return t\nfrom math import log\n", True),
    "class_after_import": ("from math import log\nclass log:\n    pass\n", False),
    "assignment_after_import": ("from math import log\nlog = abs\n", False),
    "annotated_after_import": ("from math import log\nlog: object = abs\n", False),
    "import_in_if_then_def": ("import sys\nif sys:\n    from math import log\ndef log(t):\n    return t\n", False),
    # a fallback under `except` runs only when the import failed: the import's object
    "fallback_under_except": ("try:\n    from math import log\nexcept ImportError:\n    def log(t):\n"
                              "        return t\n", True),
    "conditional_def": ("import sys\nfrom math import log\nif not sys:\n    def log(t):\n        return t\n", True),
    "import_as": ("from math import log as ln\ndef ln(t):\n    return t\nlog = ln\n", False),  # `ln` rebound
    "only_import": ("from math import log\n", True),
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_rebound_imports_follow_python(name: str) -> None:
    src, is_import = MODULES[name]
    namespace: dict = {}
    exec(compile(src + _ASK, f"{name}.py", "exec"), namespace)  # noqa: S102 - our own snippet
    assert (namespace["which"]() is math.log) is is_import, name
    rebound = rebound_imports(ast.parse(src))
    imported = "ln" if name == "import_as" else "log"
    assert (imported in rebound) is (namespace["which"]() is not math.log), name
    assert rebound <= {imported}, name


def test_the_alias_table_leaves_a_rebound_name_unresolved() -> None:
    tree = ast.parse("import torch\nfrom math import ceil, log\n\ndef log(t, eps=1e-20):\n"
                     "    return t.clamp(min=eps).log()\n")
    names = analyze_module(tree, "m.py").aliases.names
    assert "log" not in names and names["ceil"] == "math.ceil" and names["torch"] == "torch"
