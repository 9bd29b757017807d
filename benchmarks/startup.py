"""Where a small run's time goes: ``xlacheck --no-cache reference_trainer/`` (issue 14, item 4).

Prints medians over N runs (interleaved, so machine load hits each command alike) of the wall
time and of the CPU time (user+sys of the child process: on a shared, loaded machine the wall
time is mostly waiting for a core, the CPU time is what xlacheck costs) for:
- ``python -c pass``: the interpreter's own start, the floor for any Python tool;
- xlacheck without cache, with bytecode caches (``__pycache__``) as an installed package has;
- the same with ``PYTHONDONTWRITEBYTECODE=1`` and no ``__pycache__`` (every module compiled on
  every run: what this workspace's environment does, and the main cause of the 0.55 s figure);
- xlacheck on a warm result cache;
- ``ruff check --no-cache`` when ruff is installed (the anchor of the issue);
then an in-process breakdown (CPU): importing the CLI, importing the engine and rules, the run.

Usage: ``python benchmarks/startup.py [-n 9] [PATH]`` from the repository root.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PHASES = """
import io, contextlib, sys, time
t0 = time.process_time()
import xlacheck.cli as cli
t1 = time.process_time()
import xlacheck.engine
t2 = time.process_time()
with contextlib.redirect_stdout(io.StringIO()):
    cli.main(["--no-cache", sys.argv[1]])
t3 = time.process_time()
print(f"{(t1 - t0) * 1000:.0f} {(t2 - t1) * 1000:.0f} {(t3 - t2) * 1000:.0f}")
"""


def _measure(cmd: list[str], env: dict[str, str], cwd: Path, results: dict[str, tuple[list[float], list[float]]], label: str) -> None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    walls, cpus = results.setdefault(label, ([], []))
    walls.append(wall)
    cpus.append(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=9, help="runs per command (default 9)")
    parser.add_argument("path", nargs="?", default="reference_trainer/")
    args = parser.parse_args()
    py = sys.executable
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # A copy of the package without __pycache__, run with PYTHONDONTWRITEBYTECODE=1: xlacheck's
    # modules are compiled on every run (the standard library's and site-packages' bytecode is kept).
    copy = Path(tempfile.mkdtemp())
    shutil.copytree(ROOT / "xlacheck", copy / "xlacheck", ignore=shutil.ignore_patterns("__pycache__"))
    nobytecode = {**base, "PYTHONDONTWRITEBYTECODE": "1"}
    target = str((ROOT / args.path).resolve())
    lint = [py, "-m", "xlacheck", "--no-cache", target]
    commands = {
        "python -c pass": ([py, "-c", "pass"], base, ROOT),
        "xlacheck --no-cache (bytecode cached)": (lint, base, ROOT),
        "xlacheck --no-cache (no bytecode: compiles xlacheck)": (lint, nobytecode, copy),
        "xlacheck (warm result cache)": ([py, "-m", "xlacheck", target], base, ROOT),
    }
    ruff = shutil.which("ruff") or shutil.which("ruff", path=os.path.dirname(py))
    if ruff:
        commands["ruff check --no-cache"] = ([ruff, "check", "--no-cache", "-q", target], base, ROOT)
    for cmd, env, cwd in commands.values():  # fill __pycache__ and the result cache
        subprocess.run(cmd, cwd=cwd, env=env, capture_output=True)
    results: dict[str, tuple[list[float], list[float]]] = {}
    for _ in range(args.n):
        for label, (cmd, env, cwd) in commands.items():
            _measure(cmd, env, cwd, results, label)
    shutil.rmtree(copy)
    print(f"{'command':58s} {'wall (median)':>14s} {'CPU (median)':>13s}")
    for label, (walls, cpus) in results.items():
        print(f"{label:58s} {statistics.median(walls) * 1000:11.0f} ms {statistics.median(cpus) * 1000:10.0f} ms")
    phases = [
        [int(x) for x in subprocess.run([py, "-c", PHASES, args.path], cwd=ROOT, env=base, capture_output=True,
                                        text=True, check=True).stdout.split()]
        for _ in range(args.n)
    ]
    cli, engine, run = (statistics.median(p[k] for p in phases) for k in range(3))
    print(f"in-process CPU: import xlacheck.cli {cli:.0f} ms, import engine+rules {engine:.0f} ms, run {run:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
