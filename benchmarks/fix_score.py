"""How many compiler-labelled failing cases the fixer turns into code that compiles and matches eager.

For the dev cases of the XLA corpus (categories cond and shape by default) this:

1. takes each case's user code as ``oracle.py strip`` writes it (oracle section and ``# XLA:``
   annotations removed; line numbers unchanged), finds the diagnostics, attaches fixes
   (:func:`xlacheck.rewrites.attach_fixes`) and applies them: SAFE fixes only, or SAFE and
   UNSAFE ones (``--unsafe-fixes``);
2. writes the fixed user code back in front of the case's unchanged oracle section, so that
   ``oracle.py check-fix`` can run it;
3. runs ``oracle.py check-fix ORIG FIXED --out report.json`` (the original eagerly vs the fixed
   code under ``tf.function(jit_compile=True)``, ENTRY args plus seeded random draws), and prints
   a per-case table, the share of failing cases that now compile and match eager, and the
   number of cases where a SAFE fix changed outputs (target 0).

Diagnostics come from ``xlacheck.engine.check_source`` when the engine is installed; otherwise
(``--locator annotations``) the corpus annotations stand in for them: one diagnostic per
annotated line, spanning that line's statement. The report says which was used. Fixes are
applied with ``xlacheck.fixes.fix_source`` when the CLI stream's module is present, else by a
single outermost-first pass here.

``check-fix`` labels a ``value_specialized`` original as PASS (it compiles and matches for the
values tried); the table therefore also prints ``static`` (compiles from shapes alone), and the
summary counts those cases separately.

    python benchmarks/fix_score.py                 # both modes: safe-only, then safe+unsafe
    python benchmarks/fix_score.py --mode unsafe --out /tmp/fix_score
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from xlacheck.diagnostics import Applicability, Diagnostic, Location  # noqa: E402
from xlacheck.rewrites import attach_fixes  # noqa: E402
from xlacheck.rewrites._fix import apply_edits  # noqa: E402

MARKER = "# --- oracle ---"


def find_corpus() -> Path | None:
    for base in [REPO, *REPO.parents]:
        candidate = base / "shared" / "eval" / "xla_cases"
        if (candidate / "oracle.py").exists():
            return candidate
    return None


def load_oracle(corpus: Path):
    spec = importlib.util.spec_from_file_location("xla_oracle", corpus / "oracle.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


# -- diagnostics ------------------------------------------------------------------------------------
def engine_diagnostics(text: str, path: str) -> list[Diagnostic] | None:
    try:
        from xlacheck.engine import check_source
    except ImportError:
        return None
    result = check_source(text, path)
    return list(result.diagnostics)


def annotation_diagnostics(text: str, path: str, lines: list[int]) -> list[Diagnostic]:
    """Stand-ins for the engine: the statement on each annotated line (innermost if nested)."""
    tree = ast.parse(text)
    out = []
    for line in lines:
        stmts = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno == line]
        if not stmts:
            continue
        node = stmts[-1]
        out.append(Diagnostic(path, "ANNOTATED", "annotated-line", "annotated in the corpus",
                              Location(node.lineno, node.col_offset), Location(node.end_lineno, node.end_col_offset)))
    return out


def applicable(d: Diagnostic, unsafe: bool) -> bool:
    fix = d.fix
    return fix is not None and bool(fix.edits) and (
        fix.applicability is Applicability.SAFE or (unsafe and fix.applicability is Applicability.UNSAFE))


def apply_fixes(text: str, diagnostics: list[Diagnostic], unsafe: bool,
                lint: Callable[[str], list[Diagnostic]]) -> tuple[str, list[Diagnostic]]:
    """Apply fixes as `xlacheck --fix` does: passes until nothing changes, re-linting between."""
    try:
        from xlacheck.fixes import fix_source
    except ImportError:
        fix_source = None
    if fix_source is not None:
        outcome = fix_source(text, diagnostics, lint, unsafe=unsafe)
        return outcome.text, list(outcome.fixed)
    # Until the CLI stream's applier lands: one pass, widest fix first, skipping overlaps.
    chosen: list[Diagnostic] = []
    taken: list[tuple[Location, Location]] = []
    for d in sorted((d for d in diagnostics if applicable(d, unsafe)),
                    key=lambda d: -sum(len(e.content) + 1 for e in d.fix.edits)):  # type: ignore[union-attr]
        spans = [(e.start, e.end) for e in d.fix.edits]  # type: ignore[union-attr]
        if any(s <= te and ts <= e for s, e in spans for ts, te in taken):
            continue
        taken += spans
        chosen.append(d)
    edits = [e for d in chosen for e in d.fix.edits]  # type: ignore[union-attr]
    return apply_edits(text, edits), chosen


# -- one run ----------------------------------------------------------------------------------------
@dataclass
class CaseFix:
    case: str
    label: str
    failing: bool
    diagnostics: int = 0
    applied: list[str] = field(default_factory=list)  # applicabilities of the applied fixes
    offered: list[str] = field(default_factory=list)
    changed: bool = False
    parses: bool = True


def prepare(corpus: Path, oracle, cases: list[dict], out: Path, unsafe: bool, locator: str) -> list[CaseFix]:
    out.mkdir(parents=True, exist_ok=True)
    records = []
    for case in cases:
        original = (corpus / case["file"]).read_text(encoding="utf-8")
        user = oracle.strip_case_source(original)
        section = original[original.index(MARKER):]
        path = case["case"] + ".py"
        def lint(text: str, lines: list[int] = case["expected_lines"], path: str = path) -> list[Diagnostic]:
            found = engine_diagnostics(text, path) if locator == "engine" else None
            if found is None:  # annotations stand in for the engine: only on the original text
                found = annotation_diagnostics(text, path, lines) if text == user else []
            return list(attach_fixes(text, ast.parse(text), found))

        diags = lint(user)
        fixed, applied = apply_fixes(user, diags, unsafe, lint)
        record = CaseFix(case["case"], case["label"], case["xla_fail"], len(diags),
                         [d.fix.applicability.value for d in applied],  # type: ignore[union-attr]
                         [d.fix.applicability.value for d in diags if d.fix is not None], fixed != user)
        try:
            ast.parse(fixed)
        except SyntaxError:
            record.parses, fixed = False, user
        (out / path).write_text(fixed.rstrip("\n") + "\n\n\n" + section, encoding="utf-8")
        records.append(record)
    return records


def check_fix(corpus: Path, fixed_dir: Path, report: Path, jobs: int) -> dict:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TF_USE_LEGACY_KERAS="1")
    cmd = ["nice", "-n", "5", sys.executable, str(corpus / "oracle.py"), "check-fix", str(corpus / "tf"),
           str(fixed_dir), "--out", str(report), "--jobs", str(jobs)]
    print("$", " ".join(cmd), flush=True)
    subprocess.run(cmd, env=env, check=False, stdout=subprocess.DEVNULL)
    return json.loads(report.read_text())


def summarize(mode: str, records: list[CaseFix], report: dict) -> dict:
    by_case = {r["case"]: r for r in report["cases"]}
    print(f"\n== mode: {mode} ==")
    print(f"{'case':40s} {'label':17s} {'fixes applied':22s} {'check-fix':9s} {'static':6s} reason")
    failing = [r for r in records if r.failing]
    passed = safe_changed = specialized_pass = 0
    for r in records:
        c = by_case.get(r.case, {})
        status = c.get("status", "n/a")
        static = c.get("fixed_static_ok")
        applied = ",".join(r.applied) or ("display-only" if "display-only" in r.offered else "-")
        print(f"{r.case:40s} {r.label:17s} {applied:22s} {status:9s} {static!s:6s} {(c.get('reason') or '')[:70]}")
        if r.failing and status == "PASS":
            passed += 1
            specialized_pass += static is False
        mismatch = c.get("xla_ok") and c.get("n_match") != c.get("n_checked")
        if r.changed and r.applied and set(r.applied) == {"safe"} and mismatch:
            safe_changed += 1
    share = passed / len(failing) if failing else 0.0
    print(f"\n[{mode}] failing cases that compile and match eager after the fixer: {passed}/{len(failing)} "
          f"= {share:.0%} (of which {specialized_pass} pass only because check-fix accepts value-specialized "
          f"code: static=False)")
    print(f"[{mode}] cases where a SAFE fix changed outputs: {safe_changed}")
    return {"mode": mode, "failing": len(failing), "pass": passed, "share": share,
            "value_specialized_pass": specialized_pass, "safe_fix_changed_outputs": safe_changed,
            "cases": [vars(r) | {"check_fix": by_case.get(r.case)} for r in records]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=find_corpus(), help="the xla_cases folder")
    ap.add_argument("--categories", default="cond,shape")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--mode", choices=["safe", "unsafe", "both"], default="both")
    ap.add_argument("--locator", choices=["engine", "annotations"], default="engine",
                    help="engine: xlacheck.engine.check_source (falls back to annotations when absent)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None, help="folder for fixed copies and reports (default: temp)")
    ap.add_argument("-k", default=None, help="only cases whose name contains this")
    ap.add_argument("--changed-only", action="store_true",
                    help="run the compiler only on cases the fixer changed (a safety check on other categories)")
    a = ap.parse_args(argv)
    if a.corpus is None or not (a.corpus / "labels.json").exists():
        print("fix_score: no corpus found; pass --corpus PATH/TO/xla_cases", file=sys.stderr)
        return 2
    oracle = load_oracle(a.corpus)
    labels = json.loads((a.corpus / "labels.json").read_text())["cases"]
    labels = list(labels.values()) if isinstance(labels, dict) else labels
    cats = set(a.categories.split(","))
    cases = [c for c in labels if c["category"] in cats and c["split"] == a.split and (a.k is None or a.k in c["case"])]
    locator = a.locator
    if locator == "engine" and importlib.util.find_spec("xlacheck.engine") is None:
        print("fix_score: xlacheck.engine is not installed yet: using the corpus annotations as diagnostics")
        locator = "annotations"
    out = a.out or Path(tempfile.mkdtemp(prefix="fix_score_"))
    summaries = []
    for mode in (["safe", "unsafe"] if a.mode == "both" else [a.mode]):
        t0 = time.time()
        records = prepare(a.corpus, oracle, cases, out / f"fixed_{mode}", mode == "unsafe", locator)
        # Negatives the fixer left untouched need no compiler run: their originals compile.
        run = [r for r in records if r.changed or (r.failing and not a.changed_only)]
        for r in records:
            if r not in run:
                (out / f"fixed_{mode}" / f"{r.case}.py").unlink()
        report = check_fix(a.corpus, out / f"fixed_{mode}", out / f"report_{mode}.json", a.jobs)
        summary = summarize(mode, run, report)
        summary.update(locator=locator, seconds=round(time.time() - t0, 1))
        summaries.append(summary)
    (out / "fix_score.json").write_text(json.dumps(summaries, indent=1))
    print(f"\nwrote {out / 'fix_score.json'} (locator: {locator})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
