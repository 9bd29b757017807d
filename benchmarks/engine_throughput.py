"""Engine robustness and cold throughput on a tree of real Python files.

For every ``*.py`` under ROOT (default: this interpreter's site-packages) this reads the file,
times bare ``ast.parse`` and then :func:`xlacheck.engine.check_file` (which parses again,
analyzes and writes the file's project summary) in the same process, then the project pass as the
CLI runs it on a folder (:func:`xlacheck.analysis.project.resolve` over every summary, and the
files that get facts linted again), and counts results. Prints files, lines, findings, FileErrors
by kind (syntax errors are expected in test data; "internal error" means an engine bug), the
lines per CPU-second of each and the ratios (target: the whole lint, project pass included, >= 25%
of bare ast.parse).

    python benchmarks/engine_throughput.py [ROOT] [--pattern GLOB] [--only-frameworks] [--show-errors N]
"""

from __future__ import annotations

import argparse
import ast
import sys
import sysconfig
import time
import warnings
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xlacheck.analysis.project import ProjectFile, resolve  # noqa: E402
from xlacheck.diagnostics import FileResult  # noqa: E402
from xlacheck.engine import check_file  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", nargs="?", default=sysconfig.get_paths()["purelib"])
    ap.add_argument("--pattern", default="*.py", help="file name pattern, searched recursively (e.g. 'modeling_tf_*.py')")
    ap.add_argument("--only-frameworks", action="store_true",
                    help="only files mentioning tensorflow/keras/jax/torch (what the CLI pre-filter keeps)")
    ap.add_argument("--show-errors", type=int, default=10, help="print the first N internal errors")
    args = ap.parse_args(argv)

    files = sorted(Path(args.root).rglob(args.pattern))
    sources: list[tuple[str, str]] = []
    for f in files:
        try:
            text = f.read_bytes().decode("utf-8", errors="replace")
        except OSError:
            continue
        if args.only_frameworks and not any(w in text for w in ("tensorflow", "keras", "jax", "torch")):
            continue
        sources.append((str(f), text))

    warnings.simplefilter("ignore")  # SyntaxWarnings of third-party code are not ours
    parse_time = 0.0
    for path, text in sources:
        t = time.process_time()
        try:
            ast.parse(text, filename=path)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            pass
        parse_time += time.process_time() - t

    check_time = 0.0
    lines = findings = 0
    errors: Counter[str] = Counter()
    internal: list[str] = []
    codes: Counter[str] = Counter()
    summaries: list[ProjectFile] = []
    found: dict[str, int] = {}  # findings per file, replaced for the files linted again

    def count(path: str, result: FileResult) -> None:
        nonlocal findings
        findings += len(result.diagnostics) - found.get(path, 0)
        found[path] = len(result.diagnostics)
        codes.update(d.code for d in result.diagnostics)
        if result.error is not None:
            kind = result.error.message.split(":", 1)[0]
            errors[kind] += 1
            if kind.startswith("internal") and len(internal) < args.show_errors:
                internal.append(f"  {path}: {result.error.message}")

    for path, text in sources:
        t = time.process_time()
        checked = check_file(text, path)
        check_time += time.process_time() - t
        lines += checked.result.lines
        count(path, checked.result)
        if checked.summary is not None:
            summaries.append(ProjectFile(path, path, checked.summary))
    t = time.process_time()
    facts = resolve(summaries)
    resolve_time = time.process_time() - t
    texts = dict(sources)
    relint_time = 0.0
    for path in sorted(facts):
        t = time.process_time()
        result = check_file(texts[path], path, project=facts[path]).result
        relint_time += time.process_time() - t
        count(path, result)  # (codes and errors of a file linted twice count twice)

    print(f"root: {args.root}")
    print(f"files: {len(sources)}  lines: {lines}  findings: {findings}")
    print(f"file errors: {dict(errors) or 0}  (internal errors = engine bugs: {sum(v for k, v in errors.items() if k.startswith('internal'))})")
    if internal:
        print("\n".join(internal))
    print(f"ast.parse only : {lines / parse_time:10.0f} lines/CPU-s ({parse_time:.2f} s)")
    print(f"check_file     : {lines / check_time:10.0f} lines/CPU-s ({check_time:.2f} s)")
    print(f"project pass   : resolve {resolve_time:.2f} s, {len(facts)} files linted again with facts "
          f"{relint_time:.2f} s ({(resolve_time + relint_time) / check_time:.1%} of the first pass)")
    total = check_time + resolve_time + relint_time
    print(f"ratio check/parse throughput: {parse_time / check_time:.2f} per file, {parse_time / total:.2f} "
          "with the project pass (target >= 0.25)")
    print(f"findings by code: {dict(sorted(codes.items()))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
