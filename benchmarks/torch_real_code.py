"""Lint real PyTorch code and list every finding, to judge by hand (docs/known-results.md, PyTorch).

    python benchmarks/torch_real_code.py GLOB... [--torch-xla] [--preview]

The files are linted together as the CLI lints them (:func:`xlacheck.api.check_paths`, with the project
pass; ``--torch-xla``: the project declares its torch code runs on XLA; ``--preview`` also runs the rules
behind ``--preview``). Prints ``path:line:col: CODE
message`` per finding, then the number of lines and findings, findings per rule and per 10k lines;
``--fixes`` also prints, under each finding that has a fix, the fixed line(s) and its applicability,
and counts the fixes per rule; ``--show-set-aside`` lists the findings project facts set aside
(``set aside (reason): path:line:col: CODE message [the fact]``) and counts them per reason.
The globs used for known-results: transformers' ``models/*/modeling_[!tf]*.py`` (in an environment
with transformers 4.57), and snapshots of pytorch/xla (``examples/**``, ``test/test_train_*.py``),
huggingface/accelerate (``examples/**``) and huggingface/optimum-tpu (``**/*.py``).
"""

from __future__ import annotations

import argparse
import glob
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xlacheck.api import check_paths  # noqa: E402
from xlacheck.config import Settings  # noqa: E402
from xlacheck.diagnostics import FileResult  # noqa: E402
from xlacheck.fixes import decode_source  # noqa: E402
from xlacheck.rewrites._fix import apply_edits  # noqa: E402


def _read(path: str) -> str:
    """The file's text as the CLI decodes it (BOM, coding cookie), else UTF-8 with replacements."""
    data = Path(path).read_bytes()
    try:
        return decode_source(data).text
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return data.decode("utf-8", errors="replace")


def lint_paths(paths: list[str], *, torch_xla: bool, preview: bool) -> list[tuple[str, str, FileResult]]:
    """Lint ``paths`` with the library the CLI runs (:func:`xlacheck.api.check_paths`: every file, then the
    project pass over all of them), no cache, no .gitignore; returns (path, source, result) in the order of
    ``paths``."""
    settings = Settings(cache=False, respect_gitignore=False, torch_xla=torch_xla, preview=preview)
    # the library names files relative to the working folder: match them by their resolved path
    by_path = {Path(f.path).resolve(): f for f in check_paths(paths, settings).files}
    return [(path, _read(path), by_path.get(Path(path).resolve(), FileResult(path))) for path in paths]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("globs", nargs="+")
    ap.add_argument("--torch-xla", action="store_true", help="declare that the torch code runs on XLA")
    ap.add_argument("--preview", action="store_true", help="also run the rules behind --preview")
    ap.add_argument("--fixes", action="store_true", help="show each fix (the rewritten lines) and count them")
    ap.add_argument("--show-set-aside", action="store_true",
                    help="also list the findings project facts set aside, prefixed `set aside (reason): `")
    args = ap.parse_args(argv)
    lines = 0
    per_rule: Counter[str] = Counter()
    fixes: Counter[str] = Counter()
    aside: Counter[str] = Counter()
    paths = [path for pattern in args.globs for path in sorted(glob.glob(pattern, recursive=True))]
    for path, source, result in lint_paths(paths, torch_xla=args.torch_xla, preview=args.preview):
        lines += source.count("\n")
        if result.error is not None:
            print(f"{path}: error: {result.error.message}")
        for d in result.diagnostics:
            per_rule[d.code] += 1
            print(f"{path}:{d.line}:{d.col + 1}: {d.code} {d.message}")
            if args.fixes and d.fix is not None and d.fix.edits:
                fixes[d.code] += 1
                before = set(source.splitlines())  # the lines the fix writes anew
                new = [line.strip() for line in apply_edits(source, d.fix.edits).splitlines() if line not in before]
                print(f"    fix ({d.fix.applicability.value}): " + "\n        ".join(new))
        if args.show_set_aside:
            for a in result.set_aside:
                aside[a.reason.value] += 1
                print(f"set aside ({a.reason.value}): {path}:{a.diagnostic.line}:{a.diagnostic.col + 1}: "
                      f"{a.diagnostic.code} {a.diagnostic.message} [{a.why}]")
    total = sum(per_rule.values())
    print(f"{lines} lines, {total} findings ({total / max(lines, 1) * 1e4:.2f} per 10k lines): "
          + ", ".join(f"{code} {n}" for code, n in sorted(per_rule.items())))
    if args.show_set_aside:
        print(f"set aside: {sum(aside.values())}" + "".join(f", {r} {n}" for r, n in sorted(aside.items())))
    if args.fixes:
        print(f"fixes: {sum(fixes.values())}" + "".join(f", {code} {n}" for code, n in sorted(fixes.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
