"""What every generator shares: the ``generated`` date (:func:`generated_date`), and for
``--check [--sample N]`` a deterministic sample and the report.

A check re-measures a sample of the checked-in table with the installed framework (the same probe
the generator ran to write the entry) and compares; it writes nothing. The sample is drawn per
group (a generator groups its entries by verdict: lowered / falls back, compiles / has no kernel
...) so that every kind of verdict is measured again, with a fixed seed so that two runs of one
table check the same entries. Exit status: 0 when the sample agrees, 1 when an entry differs
(the table is stale: regenerate it), 0 with a printed ``skipped:`` line when the framework the
generator needs is not installed.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

SEED = 11


def generated_date() -> str:
    """Today's date (UTC, ISO), or the date of ``SOURCE_DATE_EPOCH`` when set, which pins a table's
    ``generated`` field so that a regenerated table differs only where a measured fact does."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc) if epoch else dt.datetime.now(dt.timezone.utc)
    return moment.date().isoformat()


def spread_sample(groups: Mapping[str, Iterable[str]], n: int, seed: int = SEED) -> list[str]:
    """``n`` names (fewer where the groups hold fewer), taken in turn from each group: each group
    sorted, then shuffled with ``seed``, so the sample depends only on the table."""
    pools = []
    for key in sorted(groups):
        pool = sorted(set(groups[key]))
        random.Random(f"{seed}:{key}").shuffle(pool)
        pools.append(pool)
    out: list[str] = []
    while len(out) < n and any(pools):
        for pool in pools:
            if pool and len(out) < n:
                out.append(pool.pop(0))
    return sorted(out)


def difference(name: str, table: Any, measured: Any) -> str | None:
    """A line naming the entry and both values, or None when they agree."""
    if table == measured:
        return None
    return f"{name}: table {json.dumps(table, sort_keys=True)} != measured {json.dumps(measured, sort_keys=True)}"


def report(tool: str, checked: int, differences: list[str], versions: str) -> int:
    """Print the outcome of a check; its exit status."""
    for line in differences:
        print(f"  {line}")
    if differences:
        print(f"{tool} --check: {len(differences)} of {checked} re-measured facts differ from the installed "
              f"framework ({versions}): regenerate the table")
        return 1
    print(f"{tool} --check: {checked} re-measured facts agree with the installed framework ({versions})")
    return 0


def skipped(tool: str, reason: str) -> int:
    """The framework the check needs is absent: say so (exit 0, nothing was compared)."""
    print(f"{tool} --check: skipped: {reason}")
    return 0


def missing(module: str, python: str | None = None) -> str | None:
    """Why ``python`` (default: this interpreter) cannot import ``module``, or None when it can."""
    python = python or sys.executable
    try:
        proc = subprocess.run([python, "-c", f"import {module}"], capture_output=True, text=True, timeout=300)
    except OSError as error:
        return f"{python} does not run ({error.strerror})"
    if proc.returncode:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return f"{module} is not importable in {python} ({last[:120]}): run the check with a Python that has it"
    return None


def gate(tool: str, module: str, python: str, check: bool, run_check: Callable[[], int]) -> int | None:
    """The start of a generator that probes ``module`` in ``python``: with ``--check``, the check's
    exit status (or a printed skip when ``module`` is absent); without, exit status 2 and a one-line
    reason on stderr when ``module`` is absent, else None: go on and generate."""
    reason = missing(module, python)
    if check:
        return skipped(tool, reason) if reason else run_check()
    if reason:
        print(f"{tool}: {reason}", file=sys.stderr)
        return 2
    return None


def entries_table_main(argv: list[str] | None, *, tool: str, description: str, default_out: Any,
                       measure: Callable[[], dict[str, Any]], framework: str = "tensorflow") -> int:
    """``main`` of a generator whose table maps each API to rows of ``{"input": ..., "outcome": ...}``
    (``generate_bounded_dynamic_table``, ``generate_ragged_table``): write the table measured now,
    or with ``--check`` re-measure every probe and compare outcomes with the checked-in file."""
    import argparse
    from pathlib import Path

    def facts(table: dict[str, Any]) -> dict[str, str]:
        return {f"{api} {e['input']}": e["outcome"] for api, rows in table["entries"].items() for e in rows}

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=default_out)
    parser.add_argument("--check", action="store_true", help="re-measure every probe and compare with --out")
    args = parser.parse_args(argv)
    if args.check:
        reason = missing(framework)
        if reason:
            return skipped(tool, reason)
        table = json.loads(args.out.read_text())
        fresh = measure()
        old, new = facts(table), facts(fresh)
        differences = [f"{k}: table {old.get(k)}, measured {new.get(k)}" for k in sorted(set(old) | set(new))
                       if old.get(k) != new.get(k)]
        return report(tool, len(new), differences, f"{framework} {fresh[framework]}")
    table = measure()
    args.out.write_text(json.dumps(table, indent=1, sort_keys=False) + "\n")
    counts: dict[str, int] = {}
    for rows in table["entries"].values():
        for e in rows:
            counts[e["outcome"]] = counts.get(e["outcome"], 0) + 1
    print(f"wrote {args.out}: {sum(counts.values())} probes {dict(sorted(counts.items()))}")
    return 0


def rows_table_main(argv: list[str] | None, tool: str, doc: str, default_out: Any, command: str,
                    measure_rows: Callable[[], dict[str, Any]]) -> int:
    """``main`` of a generator whose table maps each function to one row under ``rows``, measured in this
    Python with NumPy (``generate_random_draw_table``, ``generate_number_function_table``): write the table
    measured now, or with ``--check`` measure every committed row again and compare."""
    import argparse
    from pathlib import Path

    def measure() -> dict[str, Any]:
        import numpy as np

        return {"command": command, "python": sys.version.split()[0], "numpy": np.__version__, "schema": 1,
                "rows": measure_rows()}

    description = doc.splitlines()[0]

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=default_out)
    parser.add_argument("--check", action="store_true", help="re-measure every row against the committed table "
                                                             "(exit 1: stale)")
    args = parser.parse_args(argv)
    if args.check and (reason := missing("numpy")):
        return skipped(tool, reason)
    table = measure()
    if args.check:
        old = json.loads(args.out.read_text())["rows"]
        names = sorted(old)  # (a function a newer Python or NumPy adds is no stale fact of this table)
        differences = [d for n in names if (d := difference(n, old.get(n), table["rows"].get(n)))]
        return report(tool, len(names), differences, f"Python {table['python']}, NumPy {table['numpy']}")
    args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.out} ({len(table['rows'])} functions)")
    return 0
