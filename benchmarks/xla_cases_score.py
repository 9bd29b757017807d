"""Score xlacheck against the compiler-labelled corpus (file level, per category).

Runs ``oracle.py strip tf TMP --anonymize`` (the linter sees no names, annotations or oracle
section), lints every stripped file with :func:`xlacheck.engine.check_source`, maps the hashed
names back and compares "has at least one finding" with ``labels.json``'s ``xla_fail``. A finding
in a case that compiles is a false positive. Prints precision/recall/F1 for the cond/shape/host/op
categories together and separately for retrace, per split present locally.

    python benchmarks/xla_cases_score.py [--cases DIR] [--framework tf|jax] [--split dev] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xlacheck.engine import check_source  # noqa: E402

DEFAULT_CASES = Path("/work/shared/eval/xla_cases")
MAIN_CATEGORIES = ("cond", "shape", "host", "op")


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=Path, default=DEFAULT_CASES, help="xla_cases folder (with oracle.py, tf/, labels.json)")
    ap.add_argument("--split", default=None, help="only this split (default: every split present)")
    ap.add_argument("--framework", choices=("tf", "jax"), default="tf",
                    help="which corpus: tf/ + labels.json (default) or jax/ + labels_jax.json")
    ap.add_argument("--verbose", "-v", action="store_true", help="list every misclassified case with its findings")
    ap.add_argument("--preview", action="store_true", help="also run the rules and levels behind --preview")
    args = ap.parse_args(argv)

    label_file = "labels.json" if args.framework == "tf" else "labels_jax.json"
    labels = json.loads((args.cases / label_file).read_text())["cases"]
    by_case = {c["case"]: c for c in labels}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "stripped"
        # real_cases shares xla_cases' oracle (same conventions); use the one next to the cases if any
        oracle = args.cases / "oracle.py" if (args.cases / "oracle.py").exists() else DEFAULT_CASES / "oracle.py"
        subprocess.run([sys.executable, str(oracle), "strip", str(args.cases / args.framework), str(out),
                        "--anonymize"], check=True, capture_output=True)
        mapping = json.loads((out / "_mapping.json").read_text())
        findings: dict[str, list[str]] = {}
        for hashed, case in mapping.items():
            path = out / f"{hashed}.py"
            result = check_source(path.read_text(), str(path), preview=args.preview)
            if result.error is not None:
                print(f"ERROR {case}: {result.error.message}")
            findings[case] = [f"{d.line}:{d.code}" for d in result.diagnostics]

    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # tp fp fn tn
    wrong: list[str] = []
    for case, found in sorted(findings.items()):
        rec = by_case.get(case)
        if rec is None or (args.split and rec["split"] != args.split):
            continue
        positive, flagged = bool(rec["xla_fail"]), bool(found)
        slot = 0 if positive and flagged else 1 if flagged else 2 if positive else 3
        group = "retrace" if rec["category"] == "retrace" else "cond/shape/host/op"
        for key in {(rec["split"], rec["category"]), (rec["split"], group)}:  # retrace is both
            counts[key][slot] += 1
        if slot in (1, 2):
            wrong.append(f"  {'FP' if slot == 1 else 'FN'} {rec['split']:7} {case:45} {rec['label']:17} {found}")

    print(f"{'split':8}{'category':20}{'n':>4}{'tp':>4}{'fp':>4}{'fn':>4}{'prec':>7}{'recall':>7}{'F1':>7}")
    order = list(MAIN_CATEGORIES) + ["cond/shape/host/op", "retrace"]
    for split in sorted({k[0] for k in counts}):
        for cat in order:
            if (split, cat) not in counts:
                continue
            tp, fp, fn, tn = counts[(split, cat)]
            p, r, f = _prf(tp, fp, fn)
            print(f"{split:8}{cat:20}{tp + fp + fn + tn:>4}{tp:>4}{fp:>4}{fn:>4}{p:>7.3f}{r:>7.3f}{f:>7.3f}")
    if args.verbose and wrong:
        print("misclassified:")
        print("\n".join(wrong))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
