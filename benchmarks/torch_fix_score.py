"""How many torch_xla cases the torch rules' fixes change, and whether torch_xla then passes them.

For each failing case of a category (``host`` by default) of the shared dev cases and of
``eval_cases/torch_xla`` (its ``train`` split unless ``--split`` says otherwise):

1. the case's user code as ``oracle_torch.py strip`` gives it is fixed by the real CLI, as a user
   would: ``python -m xlacheck --torch-xla --select CODES --fix --unsafe-fixes`` (re-linting between
   passes as the CLI does); a first ``--format json`` run records which fixes were offered;
2. the fixed user code is written back in front of the case's unchanged oracle section;
3. ``oracle_torch.py run`` relabels the fixed file on torch_xla (PJRT CPU): the case is fixed when
   the label is now ``ok`` (no in-step host transfer, no recompile, no fallback) and the XLA outputs
   still match eager. A changed file that is not ``ok`` is listed with its new flags.

Needs an interpreter with torch_xla (``--python``, default ``/work/.venv-xla/bin/python``).

    python benchmarks/torch_fix_score.py                       # host cases, dev + train
    python benchmarks/torch_fix_score.py --split validation    # the held-out half (report only)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path("/work/shared/eval/torch_xla_cases")
OWN = ROOT / "eval_cases" / "torch_xla"
MARK = "# --- oracle ---"


def _cases(split: str, categories: set[str]) -> list[tuple[str, Path, dict]]:
    """(corpus, case path, label record) of every failing case in the categories and split."""
    out = []
    shared = json.loads((SHARED / "labels.json").read_text())
    own = json.loads((OWN / "labels.json").read_text())
    splits = json.loads((OWN / "split.json").read_text())
    if split in ("dev", "train", "all"):
        out += [("shared", SHARED / "cases" / name, rec) for name, rec in sorted(shared.items())]
    out += [("own", OWN / "cases" / name, rec) for name, rec in sorted(own.items())
            if split == "all" or splits.get(name) == split or split == "dev" and splits.get(name) == "train"]
    return [(c, p, r) for c, p, r in out if r.get("xla_fail") and r.get("category") in categories and p.exists()]


def _lint(folder: Path, select: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xlacheck", "--torch-xla", "--no-cache", "--select", select,
                           "--exit-zero", *extra, str(folder)], cwd=ROOT, capture_output=True, text=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default="dev", choices=("dev", "validation", "all"),
                    help="dev: the shared dev cases plus eval_cases' train split (default)")
    ap.add_argument("--categories", default="host")
    ap.add_argument("--select", default="XLA350", help="the rules whose fixes are applied")
    ap.add_argument("--python", default="/work/.venv-xla/bin/python", help="an interpreter with torch_xla")
    ap.add_argument("--out", type=Path, help="keep the fixed case files here")
    args = ap.parse_args(argv)
    cases = _cases(args.split, set(args.categories.split(",")))
    oracle = SHARED / "oracle_torch.py"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        stripped = work / "user"
        for corpus in ("shared", "own"):
            src = SHARED / "cases" if corpus == "shared" else OWN / "cases"
            subprocess.run([sys.executable, str(oracle), "strip", str(src), str(stripped / corpus)], check=True,
                           capture_output=True)
        before = {p.relative_to(stripped): p.read_text() for p in stripped.rglob("*.py")}
        report = json.loads(_lint(stripped, args.select, "--format", "json").stdout or "[]")
        offered: dict[str, list[str]] = {}
        for d in report if isinstance(report, list) else report.get("diagnostics", []):
            fix = d.get("fix")
            if fix:
                offered.setdefault(Path(d["path"]).name, []).append(fix.get("applicability", "?"))
        _lint(stripped, args.select, "--fix", "--unsafe-fixes")
        fixed_dir = args.out or work / "fixed"
        fixed_dir.mkdir(parents=True, exist_ok=True)
        rows = []
        for corpus, path, rec in cases:
            key = Path(corpus) / path.name
            new = (stripped / key).read_text()
            changed = new != before[key]
            row = {"case": path.name, "corpus": corpus, "label": rec["label"], "offered": offered.get(path.name, []),
                   "changed": changed}
            if changed:
                oracle_part = path.read_text().split(MARK, 1)[1]
                target = fixed_dir / path.name
                target.write_text(new.rstrip("\n") + "\n\n\n" + MARK + oracle_part)
                env = dict(os.environ, PJRT_DEVICE="CPU", TF_CPP_MIN_LOG_LEVEL="3", PYTHONWARNINGS="ignore")
                proc = subprocess.run([args.python, str(oracle), "run", str(target)], capture_output=True, text=True,
                                      env=env, timeout=900)
                try:  # the oracle's record follows its marker on the last such line
                    got = json.loads(proc.stdout.rsplit("@@JSON@@", 1)[1].strip().splitlines()[0])
                except (IndexError, json.JSONDecodeError):
                    got = {"label": "harness_error", "flags": [proc.stderr.strip().splitlines()[-1:]]}
                row.update(fixed_label=got.get("label"), flags=got.get("flags"),
                           matches_eager=got.get("xla_matches_eager"), transfers_steady=got.get("transfers_steady"),
                           compiles_total=(rec.get("compiles_total"), got.get("compiles_total")))
            rows.append(row)
    print(f"{'case':50}{'corpus':8}{'label':11}{'offered':18}{'fixed label':13}{'eager':7}{'compiles (orig->fixed)'}")
    for r in rows:
        offered_text = ",".join(sorted(set(r["offered"]))) or "-"
        if r["changed"]:
            print(f"{r['case']:50}{r['corpus']:8}{r['label']:11}{offered_text:18}{str(r['fixed_label']):13}"
                  f"{str(r['matches_eager']):7}{r['compiles_total'][0]} -> {r['compiles_total'][1]}")
        else:
            print(f"{r['case']:50}{r['corpus']:8}{r['label']:11}{offered_text:18}{'(unchanged)':13}")
    changed = [r for r in rows if r["changed"]]
    passed = [r for r in changed if r["fixed_label"] == "ok" and r["matches_eager"] is not False]
    print(f"\nfailing {args.categories} cases ({args.split}): {len(rows)}; changed by the fix: {len(changed)}; "
          f"now ok under the oracle (and equal to eager): {len(passed)}/{len(changed)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
