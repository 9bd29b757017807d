"""Score xlacheck against the compiler-labelled corpora, train and validation figures apart.

For every corpus the cases are stripped as ``oracle.py strip DIR TMP --anonymize`` does (the
linter sees no names, no ``# XLA:`` annotations and no oracle section; line numbers are kept),
every stripped file is linted with
:func:`xlacheck.engine.check_source`, and "has at least one finding" is compared with the oracle's
``xla_fail``. A finding in a case that compiles is a false positive. Figures are file level, per
category (cond/shape/host/op, their union, and retrace), per corpus and per split.

Corpora (each one is scored when it is present):

========== ==================================================== =====================================
name       cases                                                split
========== ==================================================== =====================================
shared     ../shared/eval/xla_cases/tf + labels.json            its ``dev`` half is ``train`` (rules
                                                                were written reading it); the
                                                                heldout half is not available here
shared-jax ../shared/eval/xla_cases/jax + labels_jax.json       same
real       ../shared/eval/real_cases/tf + labels.json           ``dev`` -> ``train``
repo       eval_cases/tf + eval_cases/labels.json               eval_cases/split.json (by a hash of
                                                                the file name, see eval_cases/README)
repo-jax   eval_cases/jax + eval_cases/labels_jax.json          eval_cases/split.json
repo-      eval_cases/tf_retrace + its labels.json              eval_cases/tf_retrace/split.json
retrace                                                         (``dev`` -> ``train``)
========== ==================================================== =====================================

A figure on ``train`` cases is not evidence of recall: rule authors read those cases. Only the
``validation`` rows are.

The oracle compiles every case's ``ENTRY`` (``tf.function(jit_compile=True)`` / ``jax.jit``), so the
cases are linted with the jit-compiled declaration (``--jit-compiled``: the file's functions and
model/layer methods run under XLA unless the code shows they run on the host), as a user declares
for model code a trainer in another package compiles. ``--no-declare`` lints them as plain files
(only what a file proves compiled itself counts). The header says which.

    python benchmarks/xla_cases_score.py                      # every corpus, plain table
    python benchmarks/xla_cases_score.py --markdown           # the table in docs/known-results.md
    python benchmarks/xla_cases_score.py --corpus repo -v     # one corpus, list the misses
    python benchmarks/xla_cases_score.py --corpus repo --split train -v   # never -v on validation
                                                              # while writing rules
    python benchmarks/xla_cases_score.py --exclude-from eval_cases/authored_with_rules.txt
                                                              # without cases their rules' author wrote
    python benchmarks/xla_cases_score.py --no-declare         # without the jit-compiled declaration
    python benchmarks/xla_cases_score.py --only-from FILE     # only the cases named in FILE (e.g. one
                                                              # batch of new cases, scored on its own)
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import re
import sys
import tokenize
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xlacheck.engine import check_source  # noqa: E402

SHARED_EVAL = Path(os.environ.get("XLACHECK_SHARED_EVAL", "/work/shared/eval"))
ORACLE_MARKER = "# --- oracle ---"
ANNOTATION = re.compile(r"#\s*XLA:\s*(\w+)")
MAIN_CATEGORIES = ("cond", "shape", "host", "op")
MAIN_GROUP = "cond/shape/host/op"
ORDER = (*MAIN_CATEGORIES, MAIN_GROUP, "retrace")
SPLIT_NAMES = {"dev": "train", "heldout": "validation"}  # the shared corpora's names for the same idea


@dataclass(frozen=True)
class Corpus:
    name: str
    cases_dir: Path        # folder of case files
    labels: Path           # oracle output
    split_file: Path | None = None  # {"tf/name.py": "train" | "validation"}; None: use labels' split


def corpora() -> list[Corpus]:
    repo = ROOT / "eval_cases"
    return [
        Corpus("shared", SHARED_EVAL / "xla_cases" / "tf", SHARED_EVAL / "xla_cases" / "labels.json"),
        Corpus("shared-jax", SHARED_EVAL / "xla_cases" / "jax", SHARED_EVAL / "xla_cases" / "labels_jax.json"),
        Corpus("real", SHARED_EVAL / "real_cases" / "tf", SHARED_EVAL / "real_cases" / "labels.json"),
        Corpus("repo", repo / "tf", repo / "labels.json", repo / "split.json"),
        Corpus("repo-jax", repo / "jax", repo / "labels_jax.json", repo / "split.json"),
        Corpus("repo-retrace", repo / "tf_retrace", repo / "tf_retrace" / "labels.json",
               repo / "tf_retrace" / "split.json"),
    ]


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r


def strip_case_source(src: str) -> str:
    """The linter's input: the oracle section dropped and the ``# XLA:`` comments removed in place
    (the same text as ``oracle.py strip``; line numbers of the user code are unchanged)."""
    kept = []
    for line in src.splitlines(keepends=True):
        if line.rstrip() == ORACLE_MARKER:
            break
        kept.append(line)
    text = "".join(kept)
    starts = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT and ANNOTATION.search(tok.string):
                starts.add(tok.start)
    except (tokenize.TokenError, SyntaxError):
        pass
    lines = text.splitlines(keepends=True)
    for line_no, col in starts:
        line = lines[line_no - 1]
        lines[line_no - 1] = line[:col].rstrip() + ("\n" if line.endswith("\n") else "")
    return "".join(lines).rstrip("\n") + "\n"


def lint_corpus(corpus: Corpus, preview: bool = False, declare: bool = True,
                names: frozenset[str] | None = None) -> dict[str, list[str]]:
    """Case name -> ``["line:CODE", ...]`` for every case file of the corpus (only those in ``names``
    when given), linted under an anonymous name (``case_<sha1>.py``, as ``oracle.py strip --anonymize``
    names them)."""
    findings: dict[str, list[str]] = {}
    for path in sorted(corpus.cases_dir.glob("*.py")):
        if path.name.startswith("_") or (names is not None and path.stem not in names):
            continue
        case = path.stem
        hashed = "case_" + hashlib.sha1(case.encode()).hexdigest()[:10] + ".py"
        result = check_source(strip_case_source(path.read_text(encoding="utf-8")), hashed, preview=preview,
                              jit_compiled=declare)
        if result.error is not None:
            print(f"ERROR {corpus.name} {case}: {result.error.message}", file=sys.stderr)
        findings[case] = [f"{d.line}:{d.code}" for d in result.diagnostics]
    return findings


def split_of(corpus: Corpus, rec: dict, split_map: dict[str, str] | None) -> str:
    if split_map is not None:
        # eval_cases/split.json keys "tf/name.py"; eval_cases/tf_retrace/split.json keys the case name
        key = f"{corpus.cases_dir.name}/{Path(rec['file']).name}"
        split = split_map.get(key, split_map.get(rec["case"]))
        if split is None:
            raise SystemExit(f"{corpus.split_file}: no split for {key}; run `python eval_cases/split.py --write`")
        return SPLIT_NAMES.get(split, split)
    return SPLIT_NAMES.get(rec.get("split") or "dev", rec.get("split") or "dev")


def score(corpus: Corpus, only_split: str | None = None, preview: bool = False,
          exclude: frozenset[str] = frozenset(), declare: bool = True, only: frozenset[str] | None = None):
    """Return ({(split, category): [tp, fp, fn, tn]}, [misclassified lines]); cases named in
    ``exclude`` are left out, and when ``only`` is given every case it does not name;
    ``declare``: lint with the jit-compiled declaration."""
    labels = [r for r in json.loads(corpus.labels.read_text())["cases"]
              if r["case"] not in exclude and (only is None or r["case"] in only)]
    split_map = json.loads(corpus.split_file.read_text()) if corpus.split_file else None
    findings = lint_corpus(corpus, preview, declare, None if only is None else frozenset(r["case"] for r in labels))
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    wrong: list[str] = []
    for rec in sorted(labels, key=lambda r: r["case"]):
        if rec.get("xla_fail") is None:  # eager_error / harness_error: the case itself is broken
            continue
        found = findings.get(rec["case"])
        if found is None:
            raise SystemExit(f"{corpus.labels}: case {rec['case']} has a label but no file in {corpus.cases_dir}")
        split = split_of(corpus, rec, split_map)
        if only_split and split != only_split:
            continue
        positive, flagged = bool(rec["xla_fail"]), bool(found)
        slot = 0 if positive and flagged else 1 if flagged else 2 if positive else 3
        group = "retrace" if rec["category"] == "retrace" else MAIN_GROUP
        for key in {(split, rec["category"]), (split, group)}:  # retrace is both
            counts[key][slot] += 1
        if slot in (1, 2):
            wrong.append(f"  {'FP' if slot == 1 else 'FN'} {corpus.name:10} {split:10} {rec['case']:50} "
                         f"{rec['label']:17} {found}")
    return counts, wrong


def read_case_list(path: Path | None, flag: str = "--exclude-from") -> frozenset[str]:
    """Case names listed in ``path`` (one a line, ``#`` comments, ``.py`` optional); empty for None.
    Shared with fix_score.py (``--exclude-from``); ``flag`` names the option in the error."""
    if path is None:
        return frozenset()
    if not path.is_file():
        raise SystemExit(f"{flag}: {path} is not a file")
    return frozenset(line.split("#", 1)[0].strip().removesuffix(".py") for line in path.read_text().splitlines()) - {""}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", action="append", choices=[c.name for c in corpora()],
                    help="score only this corpus (repeatable; default: every corpus present)")
    ap.add_argument("--split", choices=("train", "validation"), default=None, help="only this split")
    ap.add_argument("--markdown", action="store_true", help="print a markdown table (docs/known-results.md)")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="list every misclassified case with its findings (do not read validation misses "
                         "while writing rules: add --split train)")
    ap.add_argument("--preview", action="store_true", help="also run the rules and levels behind --preview")
    ap.add_argument("--no-declare", action="store_true",
                    help="lint without the jit-compiled declaration (--jit-compiled): only what a case proves "
                         "compiled itself counts")
    ap.add_argument("--exclude-from", type=Path, default=None, metavar="FILE",
                    help="leave out the cases named in FILE (one case name a line, # comments), e.g. "
                         "eval_cases/authored_with_rules.txt: the validation figure without cases written by "
                         "the author of the rules they test")
    ap.add_argument("--only-from", type=Path, default=None, metavar="FILE",
                    help="score only the cases named in FILE (same format as --exclude-from), e.g. one batch of new "
                         "cases measured on its own; names that no selected corpus labels are reported on stderr")
    args = ap.parse_args(argv)
    exclude = read_case_list(args.exclude_from)
    only = read_case_list(args.only_from, "--only-from") if args.only_from is not None else None
    if only is not None and not only:
        raise SystemExit(f"--only-from: {args.only_from} names no case")
    seen: set[str] = set()

    selected = [c for c in corpora() if (args.corpus is None or c.name in args.corpus)]
    rows: list[tuple] = []
    wrong_all: list[str] = []
    for corpus in selected:
        if not corpus.labels.exists() or not corpus.cases_dir.is_dir():
            if args.corpus:
                raise SystemExit(f"corpus {corpus.name}: {corpus.labels} or {corpus.cases_dir} is missing")
            continue
        counts, wrong = score(corpus, args.split, args.preview, exclude, declare=not args.no_declare, only=only)
        if only is not None:
            seen |= {r["case"] for r in json.loads(corpus.labels.read_text())["cases"]} & only
        wrong_all += wrong
        for split in sorted({k[0] for k in counts}):
            for cat in ORDER:
                if (split, cat) in counts:
                    tp, fp, fn, tn = counts[(split, cat)]
                    rows.append((corpus.name, split, cat, tp + fp + fn + tn, tp, fp, fn, *_prf(tp, fp, fn)))

    mode = "not declared (--no-declare)" if args.no_declare else "declared --jit-compiled"
    if args.markdown:
        print(f"Linted {mode}{', --preview' if args.preview else ''}.\n")
        print("| corpus | split | category | n | tp | fp | fn | precision | recall |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name, split, cat, n, tp, fp, fn, p, r in rows:
            bold = "**" if cat in (MAIN_GROUP, "retrace") else ""
            print(f"| {name} | {split} | {bold}{cat}{bold} | {n} | {tp} | {fp} | {fn} | {bold}{p:.3f}{bold} "
                  f"| {bold}{r:.3f}{bold} |")
    else:
        print(f"== {mode}{', --preview' if args.preview else ''}")
        print(f"{'corpus':14}{'split':11}{'category':20}{'n':>4}{'tp':>4}{'fp':>4}{'fn':>4}{'prec':>7}{'recall':>7}")
        for name, split, cat, n, tp, fp, fn, p, r in rows:
            print(f"{name:14}{split:11}{cat:20}{n:>4}{tp:>4}{fp:>4}{fn:>4}{p:>7.3f}{r:>7.3f}")
    if only is not None and only - seen:
        print(f"--only-from: {len(only - seen)} named case(s) not labelled in the selected corpora: "
              f"{', '.join(sorted(only - seen))}", file=sys.stderr)
    if args.verbose and wrong_all:
        print("misclassified:")
        print("\n".join(wrong_all))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
