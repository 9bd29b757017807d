"""What the form-matrix generators share (generate_form_cases_tf.py, generate_retrace_cases_tf.py):
writing the cases and their list or checking that the kept ones are current (:func:`sync`), and
linting the labelled cases as ``benchmarks/xla_cases_score.py`` does, one mark per case
(:func:`lint_marks`, for ``--matrix``)."""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKS = "F flagged, . missed, o quiet, x false alarm, E no eager reference"


def sync(want: Mapping[str, str], out: Path, listing: Path, generated: Iterable[Path], tool: str, *,
         check: bool) -> int:
    """Write ``want`` (file name -> text) into ``out`` and the case names into ``listing``, deleting
    the files this generator wrote earlier (``generated``) that it no longer writes; with ``check``,
    write nothing and return 1 when a file or the list is stale."""
    text = "".join(f"{n.removesuffix('.py')}\n" for n in sorted(want))
    old = list(generated)
    stale = [n for n, t in want.items() if not (out / n).exists() or (out / n).read_text() != t]
    stale += sorted(p.name for p in old if p.name not in want)
    list_stale = not listing.exists() or listing.read_text() != text
    if check:
        if stale or list_stale:
            print(f"stale form cases: {', '.join(stale) or listing.name}; run python tools/{tool}", file=sys.stderr)
            return 1
        return 0
    for path in sorted(old):
        if path.name not in want:
            path.unlink()
    for n in stale:
        if n in want:
            (out / n).write_text(want[n])
    listing.write_text(text)
    print(f"{len(want)} form cases ({len(stale)} written) in {out}")
    return 0


def lint_marks(names: Iterable[str], out: Path, *, preview: bool = False) -> dict[str, str]:
    """Lint every labelled case (stripped, declared jit-compiled, as xla_cases_score.py does): case
    name -> "F" (a failure flagged), "." (missed), "o" (quiet on a case that compiles), "x" (a
    finding on one), "E" (broken: no eager reference). Unlabelled cases are left out."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.xla_cases_score import strip_case_source
    from xlacheck.engine import check_source

    labels = {r["case"]: r for r in json.loads((ROOT / "eval_cases" / "labels.json").read_text())["cases"]}
    marks: dict[str, str] = {}
    for name in sorted(names):
        case = name.removesuffix(".py")
        rec = labels.get(case)
        if rec is None:
            continue
        src = strip_case_source((out / name).read_text())
        found = check_source(src, "case_" + hashlib.sha1(case.encode()).hexdigest()[:10] + ".py", jit_compiled=True,
                             preview=preview)
        flagged = bool(found.diagnostics)
        fail = rec.get("xla_fail")
        marks[case] = "E" if fail is None else ("F" if flagged else ".") if fail else ("x" if flagged else "o")
    return marks
