"""Generate xlacheck/data/autograph_do_not_convert.json: the modules AutoGraph never converts, asked of TensorFlow.

One command (needs TensorFlow; xlacheck itself never imports it):

    python tools/generate_autograph_table.py          # writes xlacheck/data/autograph_do_not_convert.json
    python tools/generate_autograph_table.py --check  # reads the rules again, compares with the file (exit 1: stale)

AutoGraph decides per function, from the module the function is defined in, whether to convert
it: ``tensorflow.python.autograph.core.config.CONVERSION_RULES`` is an ordered list of
``DoNotConvert(prefix)`` / ``Convert(prefix)`` rules, the first matching one wins. Functions of a
``DoNotConvert`` module (``tensorflow``, ``keras``, ``tf_keras``, ``numpy``, ...) run as plain
Python inside a ``tf.function``: their ``if``/``while`` on a tensor is never staged as
``tf.cond``/``tf.while_loop``. The table keeps the rules in order; :mod:`xlacheck.analysis.tables`
reads it (``autograph_skip_modules``) and :mod:`xlacheck.analysis.contexts` marks the functions of
such modules as not converted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "autograph_do_not_convert.json"
COMMAND = "python tools/generate_autograph_table.py"
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _table_check  # noqa: E402  (tools/ is not a package)


def rules() -> list[tuple[str, str]]:
    """(action, module prefix) in AutoGraph's order: action is "do_not_convert" or "convert"."""
    from tensorflow.python.autograph.core import config, config_lib

    out: list[tuple[str, str]] = []
    for rule in config.CONVERSION_RULES:
        action = "do_not_convert" if isinstance(rule, config_lib.DoNotConvert) else "convert"
        out.append((action, rule._prefix))  # noqa: SLF001 - the rule's only field
    return out


def table(tf: object) -> dict:
    """The table as the installed TensorFlow's AutoGraph has it."""
    ordered = rules()
    return {
        "command": COMMAND,
        "tensorflow_version": tf.__version__,  # type: ignore[attr-defined]
        "rules": [{"action": a, "module": m} for a, m in ordered],
        # the first matching rule wins; these are the prefixes whose first match is DoNotConvert
        "modules": [m for a, m in ordered if a == "do_not_convert"],
    }


def check_table(tf: object, path: Path) -> int:
    """Every fact of the file, read again (a list of rules: no sample needed); exit status 1 when stale."""
    recorded = json.loads(path.read_text(encoding="utf-8"))
    measured = table(tf)
    differences = [line for key in ("tensorflow_version", "rules", "modules")
                   if (line := _table_check.difference(key, recorded.get(key), measured[key]))]
    return _table_check.report("generate_autograph_table", len(measured["rules"]) + 1, differences,
                               f"TensorFlow {measured['tensorflow_version']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="read AutoGraph's rules again and compare with --out")
    args = ap.parse_args(argv)
    try:
        import tensorflow as tf
    except ImportError:
        if args.check:
            return _table_check.skipped("generate_autograph_table", "TensorFlow is not installed")
        raise
    if args.check:
        return check_table(tf, args.out)
    written = table(tf)
    args.out.write_text(json.dumps(written, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(written['modules'])} do-not-convert modules, TF {tf.__version__})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
