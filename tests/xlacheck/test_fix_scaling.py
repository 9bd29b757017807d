"""The fix path grows linearly with the findings of a file (issue 15: it was quadratic).

CPU time of the whole ``--diff`` path for N and 4N findings, best of three, in both shapes of
benchmarks/fix_scaling.py: linear growth gives a ratio of ~4 (4.4-4.8 measured), quadratic ~16
(the code before the fix measured 9.9 and 17); the bound (8) leaves room for noise in CPU time
and still fails a quadratic step with a visible share of the time. Speed targets themselves
live in the benchmark.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import pytest

_path = Path(__file__).resolve().parents[2] / "benchmarks" / "fix_scaling.py"
_spec = importlib.util.spec_from_file_location("fix_scaling", _path)
fix_scaling = sys.modules.setdefault("fix_scaling", importlib.util.module_from_spec(_spec))  # type: ignore[arg-type]
_spec.loader.exec_module(fix_scaling)  # type: ignore[union-attr]


def _best_cpu(path: Path, findings: int) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        _, found, fixed = fix_scaling.time_diff(path)
        best = min(best, time.process_time() - t)
    assert found == findings and fixed >= findings * 4 // 5, (found, fixed)
    return best


@pytest.mark.parametrize("shape", fix_scaling.SHAPES)
def test_four_times_the_findings_take_at_most_eight_times_as_long(tmp_path: Path, shape: str) -> None:
    generate = fix_scaling.GENERATORS[shape]
    warm = tmp_path / "warm.py"
    warm.write_text(generate(50))
    fix_scaling.time_diff(warm)  # imports and first-call costs are not the fix path
    times = []
    for n in (100, 400):
        path = tmp_path / f"{shape}_{n}.py"
        path.write_text(generate(n))
        times.append(_best_cpu(path, n))
    assert times[1] < 8 * times[0], times


def test_the_attach_benchmark_files_fix_what_they_say() -> None:
    """benchmarks/fix_scaling.py --attach times attach_fixes on these two files (the speed figures
    live there); here only what they fix: nothing in one, every one of the 100 findings in the other."""
    assert fix_scaling.time_attach("nothing-fixable")[:2] == (20, 0)
    assert fix_scaling.time_attach("many-fixes")[:2] == (100, 100)
