"""How the fix path grows with the number of findings in one file (it must grow linearly).

Generates files with 250, 500, 1,000, 2,000 and 4,000 findings in two shapes:

- ``functions``: many small ``jit_compile=True`` functions, each with two tensor ``if``\\ s, a
  tensor ``assert`` and a comprehension over a tensor (five findings, four of them fixable,
  four different rewriters);
- ``one-function``: a single compiled function holding every finding, each a fixable tensor
  ``if`` (the shape of issue 15: 300 findings took 1.7 s, 1,200 took 32.8 s).

For each file it runs what ``xlacheck --diff FILE`` runs, in this process and without a cache:
:func:`xlacheck.api.fix_paths` with ``write=False`` (lint, attach fixes, apply them pass by pass,
re-lint after each pass). It prints the findings, how many were fixed, the CPU seconds, the
milliseconds per finding and the growth ratio against the size before (time(2n) / time(n):
linear growth gives ~2.0, quadratic ~4.0). With ``--phases`` it also times lint, attaching
fixes and applying them on their own (the last includes the re-lints).

With ``--attach`` it times :func:`xlacheck.rewrites.attach_fixes` alone on two long files (the
speed guards that used to sit in tests/xlacheck/test_rewrites.py): ``nothing-fixable``, 20
findings on a ``tf.strings.format`` call below 400 statements that no rewriter can fix (each
rewriter must give up without rescanning the function), and ``many-fixes``, 100 fixable
``min(tensor, x)`` findings in a 2,000-statement function. Each is printed in CPU seconds and as
a ratio to an anchor measured in the same run: ``ast.parse`` of the same file, best of five
(the ratio says how many parses of the file attaching the fixes costs, whatever the machine).

    python benchmarks/fix_scaling.py                       # both shapes, all sizes
    python benchmarks/fix_scaling.py --shape one-function --sizes 250 500 --phases
    python benchmarks/fix_scaling.py --budget 60           # skip sizes once one took over 60 s
    python benchmarks/fix_scaling.py --attach --shape one-function --sizes 250   # + attach_fixes alone

CPU time (``time.process_time``) is reported, so other load on the machine matters less; a
size is skipped (and said so) once the size before it took longer than ``--budget`` seconds.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xlacheck.api import fix_paths  # noqa: E402
from xlacheck.config import Settings  # noqa: E402

SIZES = (250, 500, 1000, 2000, 4000)
SHAPES = ("functions", "one-function")
FINDINGS_PER_FUNCTION = 5

_HEADER = "import tensorflow as tf\n\n"


def small_functions(findings: int) -> str:
    """``findings / 5`` compiled functions with five findings each."""
    parts = [_HEADER]
    for i in range(max(findings // FINDINGS_PER_FUNCTION, 1)):
        parts.append(
            f"\n@tf.function(jit_compile=True, autograph=False)\n"
            f"def step_{i}(x):\n"
            f"    y = tf.zeros_like(x)\n"
            f"    if tf.reduce_sum(x) > {i}.0:\n"
            f"        y = y + 1.0\n"
            f"    if tf.reduce_max(x) > 1.0:\n"
            f"        y = y * 2.0\n"
            f"    assert tf.reduce_min(x) > -{i}.0\n"
            f"    n = len([a for a in x if a > 0])\n"
            f"    return y, n\n\n"
        )
    return "".join(parts)


def one_function(findings: int) -> str:
    """One compiled function with ``findings`` fixable tensor ``if``\\ s."""
    body = "".join(
        f"    if tf.reduce_sum(x) > {i}.0:\n        y = y + {i % 7 + 1}.0\n" for i in range(findings)
    )
    return (f"{_HEADER}\n@tf.function(jit_compile=True, autograph=False)\ndef step(x):\n"
            f"    y = tf.zeros_like(x)\n{body}    return y\n")


GENERATORS = {"functions": small_functions, "one-function": one_function}


def _settings(root: Path) -> Settings:
    return Settings(cache=False, jobs=1, root=root)


def time_diff(path: Path) -> tuple[float, int, int]:
    """CPU seconds of ``xlacheck --diff path`` in-process, findings before fixing, findings fixed."""
    settings = _settings(path.parent)
    t = time.process_time()
    run = fix_paths([path], settings, write=False)
    elapsed = time.process_time() - t
    fixed = sum(len(f.fixed) for f in run.fixes)
    errors = [f.error for f in run.fixes if f.error] + [e.message for e in run.result.errors]
    if errors:
        raise SystemExit(f"{path}: {errors[0]}")
    return elapsed, fixed + len(run.result.diagnostics), fixed


def time_phases(path: Path) -> tuple[float, float, float]:
    """CPU seconds of lint, attaching fixes, and applying them (re-lints included)."""
    from xlacheck import rewrites
    from xlacheck.engine import check_source_and_tree
    from xlacheck.fixes import fix_source

    text = path.read_text()
    t0 = time.process_time()
    result, tree = check_source_and_tree(text, str(path))
    t1 = time.process_time()
    assert tree is not None
    diagnostics = rewrites.attach_fixes(text, tree, result.diagnostics)
    t2 = time.process_time()

    def relint(new: str):  # type: ignore[no-untyped-def]
        res, new_tree = check_source_and_tree(new, str(path))
        return rewrites.attach_fixes(new, new_tree, res.diagnostics) if new_tree is not None else res.diagnostics

    fix_source(text, diagnostics, relint)
    t3 = time.process_time()
    return t1 - t0, t2 - t1, t3 - t2


def nothing_fixable() -> tuple[str, list[tuple[int, int, int, int]]]:
    """A 400-statement function whose 20 findings (all on its last line) no rewriter fixes."""
    body = "".join(f"    y{i} = tf.reduce_sum(x) * {i}.0\n" for i in range(400))
    source = "import tensorflow as tf\n\ndef f(x):\n" + body + "    return tf.strings.format('{}', x)\n"
    line = source.count("\n")
    return source, [(line, 11, line, 37)] * 20


def many_fixes() -> tuple[str, list[tuple[int, int, int, int]]]:
    """A 2,000-statement function with 100 fixable ``min(tensor, x)`` findings."""
    import ast

    body = "".join(f"    y{i} = min(tf.reduce_sum(x), {i}.0)\n" for i in range(2000))
    source = "import tensorflow as tf\n\ndef f(x):\n" + body
    calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    return source, [(n.lineno, n.col_offset, n.end_lineno or n.lineno, n.end_col_offset or 0)
                    for n in calls if n.lineno % 20 == 0]


ATTACH_CASES = {"nothing-fixable": nothing_fixable, "many-fixes": many_fixes}


def time_attach(name: str) -> tuple[int, int, float, float]:
    """Findings, findings fixed, CPU seconds of attach_fixes and of the anchor (``ast.parse`` of
    the same source, best of five)."""
    import ast

    from xlacheck.diagnostics import Diagnostic, Location
    from xlacheck.rewrites import attach_fixes

    source, spans = ATTACH_CASES[name]()
    tree = ast.parse(source)
    diagnostics = [Diagnostic("a.py", "XLA000", "n", "m", Location(a, b), Location(c, d)) for a, b, c, d in spans]
    anchor = float("inf")
    for _ in range(5):
        t = time.process_time()
        ast.parse(source)
        anchor = min(anchor, time.process_time() - t)
    t = time.process_time()
    out = attach_fixes(source, tree, diagnostics)
    elapsed = time.process_time() - t
    return len(out), sum(d.fix is not None for d in out), elapsed, anchor


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shape", choices=(*SHAPES, "both"), default="both")
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="findings per file")
    ap.add_argument("--budget", type=float, default=120.0,
                    help="skip the larger sizes of a shape once one took longer than this (CPU seconds)")
    ap.add_argument("--phases", action="store_true", help="also time lint / attach fixes / apply fixes apart")
    ap.add_argument("--attach", action="store_true",
                    help="also time attach_fixes alone on two long files, against ast.parse of each (an anchor)")
    args = ap.parse_args(argv)

    shapes = SHAPES if args.shape == "both" else (args.shape,)
    print(f"{'shape':<13} {'target':>6} {'lines':>7} {'findings':>8} {'fixed':>6} {'CPU s':>8} "
          f"{'ms/finding':>10} {'x per 2x':>8}" + ("   lint s  attach s   apply s" if args.phases else ""))
    with tempfile.TemporaryDirectory(prefix="xlacheck-fix-scaling-") as tmp:
        warm = Path(tmp) / "warm_up.py"  # imports (engine, rewriters, libcst) are not the fix path
        warm.write_text(small_functions(10) + one_function(5).replace("def step(", "def other("))
        time_diff(warm)
        for shape in shapes:
            previous: tuple[int, float] | None = None
            for size in sorted(args.sizes):
                if previous is not None and previous[1] > args.budget:
                    print(f"{shape:<13} {size:>6}  skipped: {previous[0]} findings took {previous[1]:.1f} s "
                          f"(> --budget {args.budget:g})")
                    continue
                path = Path(tmp) / f"{shape}_{size}.py"
                path.write_text(GENERATORS[shape](size))
                lines = path.read_text().count("\n")
                seconds, findings, fixed = time_diff(path)
                growth = ""
                if previous is not None:
                    # time per doubling of findings, whatever the step between the sizes was
                    import math

                    steps = math.log2(findings / previous[0])
                    growth = f"{(seconds / previous[1]) ** (1 / steps):.2f}" if steps > 0 and previous[1] > 0 else ""
                row = (f"{shape:<13} {size:>6} {lines:>7} {findings:>8} {fixed:>6} {seconds:>8.2f} "
                       f"{1000 * seconds / max(findings, 1):>10.2f} {growth:>8}")
                if args.phases:
                    lint, attach, apply = time_phases(path)
                    row += f" {lint:>8.2f} {attach:>9.2f} {apply:>9.2f}"
                print(row, flush=True)
                previous = (findings, seconds)
    if args.attach:
        time_attach("nothing-fixable")  # warm-up: imports and first calls are not the fix path
        print(f"\n{'attach_fixes':<16} {'findings':>8} {'fixed':>6} {'CPU s':>8} {'parse s':>8} {'x parse':>8}")
        for name in ATTACH_CASES:
            findings, fixed, seconds, anchor = time_attach(name)
            print(f"{name:<16} {findings:>8} {fixed:>6} {seconds:>8.3f} {anchor:>8.4f} {seconds / anchor:>8.1f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
