"""How fast xlacheck lints real TF model code, against ``ast.parse`` of the same files in the same run.

Corpus: the TF modeling files of the installed transformers 4.x
(``transformers/models/*/modeling_tf_*.py``, ~100k lines), found without importing transformers.

Figures (CPU time from ``time.process_time`` plus reaped worker processes, so ``--jobs N`` is
charged for all its processes):
- anchor: ``ast.parse`` of every file (read included), lines per CPU-second;
- cold: ``check_paths`` with an empty cache; target: at least 25% of the anchor's lines/CPU-s;
- warm: the same run again on the filled cache; target: at most 10% of the cold CPU time;
- cold through the command: ``python -m xlacheck --no-cache FILES`` as users run it (interpreter
  start-up, imports, the default process pool and the report included, all processes charged);
  target: at least 25% of the anchor's lines/CPU-s;
- ``--one-file``: wall time of ``python -m xlacheck <file>`` as a subprocess (target < 0.3 s,
  cold cache and warm cache), and ``python -X importtime -c "import xlacheck.cli"`` must import
  no tensorflow, numpy or transformers.

Usage: ``python benchmarks/lint_speed.py [--jobs N] [--one-file]``; exit 0 when every target passes.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # lint this checkout's xlacheck, installed or not

from xlacheck.api import check_paths  # noqa: E402
from xlacheck.config import Settings  # noqa: E402
from xlacheck.diagnostics import RunResult  # noqa: E402

T = TypeVar("T")
COLD_MIN_RATIO = 0.25  # cold lines/CPU-s over ast.parse lines/CPU-s
WARM_MAX_RATIO = 0.10  # warm CPU time over cold CPU time
ONE_FILE_MAX_S = 0.3
HEAVY = ("tensorflow", "numpy", "transformers")


def tf_modeling_files() -> list[Path]:
    spec = importlib.util.find_spec("transformers")  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("lint_speed: transformers is not installed; pip install '.[trainer]'")
    package = Path(next(iter(spec.submodule_search_locations)))
    files = sorted(package.glob("models/*/modeling_tf_*.py"))
    if not files:
        raise SystemExit(f"lint_speed: no models/*/modeling_tf_*.py under {package}; transformers>=4.44,<5 has them")
    return files


def cpu_seconds() -> float:
    times = os.times()
    return time.process_time() + times.children_user + times.children_system


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    start = cpu_seconds()
    value = fn()
    return value, cpu_seconds() - start


def parse_all(files: list[Path]) -> int:
    for path in files:
        ast.parse(path.read_bytes(), filename=str(path))
    return len(files)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def describe(result: RunResult) -> str:
    files = result.files
    return (
        f"{len(files)} files, {sum(f.skipped for f in files)} skipped, {sum(f.cached for f in files)} cached, "
        f"{len(result.diagnostics)} findings, {len(result.errors)} errors"
    )


def command_env() -> dict[str, str]:
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return {**os.environ, "PYTHONPATH": path}


def command_run(files: list[Path], lines: int, anchor_rate: float) -> bool:
    """The cold lint through ``python -m xlacheck`` as a user runs it, charged all its CPU time."""
    with tempfile.TemporaryDirectory(prefix="xlacheck-cmd-") as cwd:
        done, cpu_s = timed(lambda: subprocess.run(
            [sys.executable, "-m", "xlacheck", "--no-cache", "--exit-zero", "--quiet", *map(str, files)],
            cwd=cwd, env=command_env(), capture_output=True, text=True))
    if done.returncode != 0:
        print(f"FAIL  python -m xlacheck exited {done.returncode}: {done.stderr.strip()[:300]}")
        return False
    ratio = lines / cpu_s / anchor_rate
    ok = ratio >= COLD_MIN_RATIO
    print(f"command  : {cpu_s:8.3f} CPU-s  {lines / cpu_s:10,.0f} lines/CPU-s"
          "  (python -m xlacheck --no-cache, all processes)")
    print(f"{verdict(ok)}  cold speed through the command = {ratio:.1%} of ast.parse (target >= {COLD_MIN_RATIO:.0%})")
    return ok


def corpus_run(files: list[Path], jobs: int) -> bool:
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(f"corpus: {len(files)} files, {lines} lines ({files[0].parents[2]})")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} (wall times suffer above the core count)")
    from xlacheck import engine  # noqa: F401  imported before timing: start-up is what --one-file measures

    _, anchor_s = timed(lambda: parse_all(files))
    anchor_rate = lines / anchor_s
    with tempfile.TemporaryDirectory(prefix="xlacheck-bench-") as cache:
        settings = Settings(cache_dir=Path(cache), jobs=jobs)
        cold, cold_s = timed(lambda: check_paths(files, settings))
        warm, warm_s = timed(lambda: check_paths(files, settings))
    if warm.diagnostics != cold.diagnostics:
        print("FAIL  warm run (from the cache) reports different findings than the cold run")
        return False
    cold_rate = lines / cold_s
    cold_ratio, warm_ratio = cold_rate / anchor_rate, warm_s / cold_s
    print(f"ast.parse: {anchor_s:8.3f} CPU-s  {anchor_rate:10,.0f} lines/CPU-s")
    print(f"cold     : {cold_s:8.3f} CPU-s  {cold_rate:10,.0f} lines/CPU-s  (jobs={jobs}; {describe(cold)})")
    print(f"warm     : {warm_s:8.3f} CPU-s  {lines / warm_s:10,.0f} lines/CPU-s  ({describe(warm)})")
    ok_cold, ok_warm = cold_ratio >= COLD_MIN_RATIO, warm_ratio <= WARM_MAX_RATIO
    print(f"{verdict(ok_cold)}  cold speed = {cold_ratio:.1%} of ast.parse (target >= {COLD_MIN_RATIO:.0%})")
    print(f"{verdict(ok_warm)}  warm time = {warm_ratio:.1%} of cold (target <= {WARM_MAX_RATIO:.0%})")
    ok_command = command_run(files, lines, anchor_rate)
    return ok_cold and ok_warm and ok_command


def one_file_run(path: Path, repeat: int = 5) -> bool:
    env = command_env()
    ok = True
    with tempfile.TemporaryDirectory(prefix="xlacheck-one-") as cwd:  # no config up there: cache in cwd
        for label, extra in (("no cache", ["--no-cache"]), ("warm cache", [])):
            walls, cpus = [], []
            for _ in range(repeat):
                cpu_start = os.times()
                start = time.perf_counter()
                done = subprocess.run(
                    [sys.executable, "-m", "xlacheck", str(path), "--exit-zero", "--quiet", *extra],
                    cwd=cwd, env=env, capture_output=True, text=True,
                )
                walls.append(time.perf_counter() - start)
                cpu_end = os.times()
                cpus.append(cpu_end.children_user + cpu_end.children_system - cpu_start.children_user - cpu_start.children_system)
                if done.returncode != 0:
                    print(f"FAIL  python -m xlacheck {path.name} exited {done.returncode}: {done.stderr.strip()}")
                    return False
            wall = statistics.median(walls)
            ok &= wall < ONE_FILE_MAX_S
            print(f"{verdict(wall < ONE_FILE_MAX_S)}  python -m xlacheck {path.name} ({label}): median {wall:.3f} s wall, "
                  f"{statistics.median(cpus):.3f} CPU-s, of {repeat} runs (target < {ONE_FILE_MAX_S} s wall)")
    heavy, self_ms = cli_imports(env)
    print(f"{verdict(not heavy)}  import xlacheck.cli: {self_ms:.1f} ms (cumulative, -X importtime), heavy modules: {heavy or 'none'}")
    return ok and not heavy


def cli_imports(env: dict[str, str]) -> tuple[list[str], float]:
    """Heavy top-level packages that ``import xlacheck.cli`` pulls in, and its cumulative import time."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import xlacheck.cli"], env=env, capture_output=True, text=True, check=True
    )
    raw = [line.removeprefix("import time:").split("|") for line in out.stderr.splitlines() if "|" in line]
    rows = [(int(self_us), name.strip()) for self_us, _, name in raw if self_us.strip().isdigit()]
    heavy = sorted({name.split(".")[0] for _, name in rows} & set(HEAVY))
    cumulative = [int(c) for _, c, name in raw if name.strip() == "xlacheck.cli"]
    return heavy, cumulative[0] / 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for the corpus run (default 1)")
    parser.add_argument("--one-file", action="store_true", help="also time `python -m xlacheck <file>` and the CLI imports")
    args = parser.parse_args(argv)
    try:
        import xlacheck.engine  # noqa: F401
    except ModuleNotFoundError:
        print("lint_speed: xlacheck.engine is missing in this checkout; merge the engine first", file=sys.stderr)
        return 2
    files = tf_modeling_files()
    ok = corpus_run(files, args.jobs)
    if args.one_file:
        bert = next((p for p in files if p.name == "modeling_tf_bert.py"), files[len(files) // 2])
        ok &= one_file_run(bert)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
