"""Generate xlacheck/data/autograph_do_not_convert.json: the modules AutoGraph never converts, asked of TensorFlow.

One command (needs TensorFlow; xlacheck itself never imports it):

    python tools/generate_autograph_table.py      # writes xlacheck/data/autograph_do_not_convert.json

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
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "autograph_do_not_convert.json"
COMMAND = "python tools/generate_autograph_table.py"


def rules() -> list[tuple[str, str]]:
    """(action, module prefix) in AutoGraph's order: action is "do_not_convert" or "convert"."""
    from tensorflow.python.autograph.core import config, config_lib

    out: list[tuple[str, str]] = []
    for rule in config.CONVERSION_RULES:
        action = "do_not_convert" if isinstance(rule, config_lib.DoNotConvert) else "convert"
        out.append((action, rule._prefix))  # noqa: SLF001 - the rule's only field
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    import tensorflow as tf

    ordered = rules()
    table = {
        "command": COMMAND,
        "tensorflow_version": tf.__version__,
        "rules": [{"action": a, "module": m} for a, m in ordered],
        # the first matching rule wins; these are the prefixes whose first match is DoNotConvert
        "modules": [m for a, m in ordered if a == "do_not_convert"],
    }
    args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(table['modules'])} do-not-convert modules, TF {tf.__version__})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
