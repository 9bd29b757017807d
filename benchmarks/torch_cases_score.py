"""Score xlacheck's PyTorch/XLA rules against compiler-labelled cases (file level, per category).

Each case is stripped with the shared oracle's ``strip`` (oracle section and ``# XLA:`` notes
removed, line numbers kept), linted with :func:`xlacheck.engine.check_source`, and "has at least
one finding" is compared with ``labels.json``'s ``xla_fail`` (torch_xla's own verdict: fallback,
host_sync, recompile, compile_error ...). A finding in a case labelled ``ok`` is a false positive.

The cases run on an XLA device by construction (the oracle calls the step), but most of them do
not import torch_xla: they are linted with ``torch_xla=True`` (the ``--torch-xla`` declaration).
``--no-declare`` lints them as plain files (only files that prove an XLA step themselves count).

    python benchmarks/torch_cases_score.py                       # shared dev cases + eval_cases/torch_xla splits
    python benchmarks/torch_cases_score.py --verbose             # list every misclassified case
    python benchmarks/torch_cases_score.py --preview             # also the rules behind --preview
    python benchmarks/torch_cases_score.py --only-from eval_cases/forms_torch.txt -v   # one batch of own cases
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

SHARED = Path("/work/shared/eval/torch_xla_cases")
OWN = ROOT / "eval_cases" / "torch_xla"
CATEGORIES = ("host", "shape", "op", "recompile", "loop")


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float]:
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0)


def _score(name: str, cases_dir: Path, labels: dict, oracle: Path, declare: bool, splits: dict[str, str] | None,
           verbose: bool, show_validation: bool = False, preview: bool = False,
           exclude: frozenset[str] = frozenset(), only: frozenset[str] | None = None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, str(oracle), "strip", str(cases_dir), tmp], check=True, capture_output=True)
        counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        wrong = []
        for f in sorted(Path(tmp).glob("*.py")):
            rec = labels.get(f.name)
            if rec is None or f.stem in exclude or only is not None and f.stem not in only:
                continue
            split = splits.get(f.name, "?") if splits is not None else rec.get("split", "dev")
            result = check_source(f.read_text(), str(f), torch_xla=declare, preview=preview)
            # every finding counts (TF/JAX rules included): a false one in a torch file is a false positive
            found = [f"{d.line}:{d.code}" for d in result.diagnostics]
            positive, flagged = bool(rec["xla_fail"]), bool(found)
            slot = 0 if positive and flagged else 1 if flagged else 2 if positive else 3
            cat = rec.get("category") or f.name.removeprefix("neg_").split("_")[0]
            for key in ((split, cat), (split, "all")):
                counts[key][slot] += 1
            if slot in (1, 2) and (split != "validation" or show_validation):
                wrong.append(f"  {'FP' if slot == 1 else 'FN'} {split:6} {f.name:50} {rec['label']:12} {found}")
    print(f"== {name} ({'declared --torch-xla' if declare else 'not declared'}{', --preview' if preview else ''})")
    print(f"{'split':12}{'category':12}{'n':>4}{'tp':>4}{'fp':>4}{'fn':>4}{'prec':>7}{'recall':>7}")
    for split in sorted({k[0] for k in counts}):
        for cat in CATEGORIES + ("all",):
            if (split, cat) not in counts:
                continue
            tp, fp, fn, tn = counts[(split, cat)]
            p, r = _prf(tp, fp, fn)
            print(f"{split:12}{cat:12}{tp + fp + fn + tn:>4}{tp:>4}{fp:>4}{fn:>4}{p:>7.3f}{r:>7.3f}")
    if verbose and wrong:
        print("\n".join(wrong))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=SHARED)
    ap.add_argument("--own", type=Path, default=OWN)
    ap.add_argument("--no-declare", action="store_true", help="lint without the --torch-xla declaration")
    ap.add_argument("--preview", action="store_true", help="also run the rules behind --preview")
    ap.add_argument("--verbose", "-v", action="store_true", help="list misclassified cases (validation ones hidden)")
    ap.add_argument("--show-validation", action="store_true",
                    help="also list misclassified validation cases (not while writing rules)")
    ap.add_argument("--exclude-from", type=Path, default=None, metavar="FILE",
                    help="leave out the own cases named in FILE, e.g. eval_cases/authored_with_rules.txt (cases "
                         "written by the author of the rules they test)")
    ap.add_argument("--only-from", type=Path, default=None, metavar="FILE",
                    help="score only the own cases named in FILE (same format), e.g. eval_cases/forms_torch.txt (the "
                         "generated form matrix); the shared dev cases are left out")
    args = ap.parse_args(argv)
    from xla_cases_score import read_case_list  # the same list format as xla_cases_score.py --exclude-from

    exclude = read_case_list(args.exclude_from)
    only = read_case_list(args.only_from, "--only-from") if args.only_from is not None else None
    if only is not None and not only:
        raise SystemExit(f"--only-from: {args.only_from} names no case")
    oracle = args.shared / "oracle_torch.py"
    declare = not args.no_declare
    if only is None and (args.shared / "labels.json").exists():
        _score("shared dev cases", args.shared / "cases", json.loads((args.shared / "labels.json").read_text()),
               oracle, declare, None, args.verbose, preview=args.preview)
    if (args.own / "labels.json").exists():
        splits = json.loads((args.own / "split.json").read_text())
        _score("own cases (eval_cases/torch_xla)", args.own / "cases", json.loads((args.own / "labels.json").read_text()),
               oracle, declare, splits, args.verbose, args.show_validation, args.preview, exclude, only)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
