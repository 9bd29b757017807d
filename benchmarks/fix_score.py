"""How many compiler-labelled failing cases the fixer turns into code that compiles and matches eager.

For the dev cases of the XLA corpus (categories cond and shape by default) this:

1. writes each case's user code as ``oracle.py strip`` gives it (oracle section and ``# XLA:``
   annotations removed; line numbers unchanged) into a folder, and runs the real CLI on it:
   ``python -m xlacheck --fix`` (SAFE fixes only) or ``--fix --unsafe-fixes``, exactly as a user
   would, re-linting between passes as the CLI does. A first ``--format json`` run without
   ``--fix`` records which fixes were offered (and of which applicability);
2. writes the fixed user code back in front of the case's unchanged oracle section, so that
   ``oracle.py check-fix`` can run it;
3. runs ``oracle.py check-fix ORIG FIXED --out report.json`` (the original eagerly vs the fixed
   code under ``tf.function(jit_compile=True)``, ENTRY args plus seeded random draws), and prints
   per case PASS/FAIL and whether the fixed code compiles from shapes alone (``static``), then
   the share of failing cases that are really fixed: the fixer CHANGED the file, and the changed
   file compiles and matches eager (an unchanged file that passes check-fix because check-fix
   feeds concrete values is not run and never counted), split into static passes and
   value-specialized passes, and the number of cases where a SAFE fix changed outputs (target 0).

The measured ``check-fix`` runs through ``benchmarks/oracle_seeded.py``: the shared oracle, seeding
the random state before it imports each module, so that a model built at module level gets the
same weights in the original and the fixed module. The shared oracle as it is seeds only after both
imports, so such a case differs whatever the fix does. ``--harness both`` (the default) also runs the
shared oracle on the same fixed files and prints its headline figures after the measured ones.

``check-fix`` labels a ``value_specialized`` original as PASS (it compiles and matches for the
values tried, recompiling per value); such a pass is not a fix, so the summary counts it apart.

    python benchmarks/fix_score.py --corpus ../shared/eval/xla_cases        # both modes
    python benchmarks/fix_score.py --mode unsafe --out /tmp/fix_score
    python benchmarks/fix_score.py --corpus ../shared/eval/real_cases --categories cond,shape,host,op --mode unsafe

The repository corpus (``--corpus repo``: ``eval_cases/``, split in ``eval_cases/split.json``)
is scored per split, train and validation apart, as ``xla_cases_score.py`` does (and, like it, with
the ``--jit-compiled`` declaration unless ``--no-declare``: the oracle compiles every ENTRY):

    python benchmarks/fix_score.py --corpus repo --split train            # per-case table
    python benchmarks/fix_score.py --corpus repo --split train,validation # validation: totals only
    python benchmarks/fix_score.py --corpus repo-jax --split train,validation  # the JAX cases (jax.jit)
    python benchmarks/fix_score.py --corpus repo --only-from eval_cases/forms_fix.txt  # only the named cases

``--only-from FILE`` scores only the cases FILE names (``tools/generate_fix_forms.py`` writes
``eval_cases/forms_fix.txt``: every form a fixable rule's detection covers), whatever their split,
as one group ``listed``; its per-case lines are printed only when every named case is in
``eval_cases/authored_with_rules.txt`` (cases written with the rules are no held-out evidence).

Validation is held out (``eval_cases/README.md``): its per-case lines are never printed, only
its totals (failing / changed / compiles / equal outputs / SAFE fixes that changed outputs).

Every split, held out or not, also gets the STAGE breakdown of its failing cases, counts only:
where each stops on the way to a real fix: (a) no finding, (b) a finding but no fix offered,
(c) a fix offered but the file not changed (no fix of an applicability the mode applies, or the
applicable fixes not written: conflicts, re-parse refusals), (d) changed but does not compile under
XLA (counted by error class), (e) compiles but outputs differ, (f) really fixed. (a) is detection's
to mend, (b)-(e) the fixer's. The per-case table of a split that is not held out names each
case's stage.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MARKER = "# --- oracle ---"


HIDDEN_SPLITS = frozenset({"validation"})  # per-case lines are not printed for these
AUTHORED = REPO / "eval_cases" / "authored_with_rules.txt"


def find_corpus() -> Path | None:
    for base in [REPO, *REPO.parents]:
        candidate = base / "shared" / "eval" / "xla_cases"
        if (candidate / "oracle.py").exists():
            return candidate
    return None


def oracle_path(corpus: Path) -> Path:
    """The corpus's own oracle, else the shared one (``real_cases`` uses the xla_cases oracle)."""
    own = corpus / "oracle.py"
    shared = find_corpus()
    return own if own.exists() or shared is None else shared / "oracle.py"


def load_oracle(corpus: Path):
    spec = importlib.util.spec_from_file_location("xla_oracle", oracle_path(corpus))
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def xlacheck(folder: Path, *flags: str) -> dict:
    """Run the CLI from this checkout on a folder; its JSON report (findings after any fixing)."""
    cmd = [sys.executable, "-m", "xlacheck", "--no-cache", "--exit-zero", "--format", "json", *flags, str(folder)]
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"fix_score: {' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


# -- one run ----------------------------------------------------------------------------------------
@dataclass
class CaseFix:
    case: str
    label: str
    failing: bool
    diagnostics: int = 0
    offered: list[str] = field(default_factory=list)  # applicabilities of the fixes offered on the original
    applied: list[str] = field(default_factory=list)  # of those, the ones this mode applies
    changed: bool = False
    codes: list[str] = field(default_factory=list)  # rule codes found on the original, with a declared fix


def prepare(corpus: Path, oracle, cases: list[dict], out: Path, unsafe: bool,
            declare: tuple[str, ...] = ()) -> list[CaseFix]:
    """Fixed copies of the cases in ``out``, made by ``python -m xlacheck --fix`` (with the
    declaration flags ``declare``)."""
    if out.exists():
        shutil.rmtree(out)
    user_dir = out / "user"
    user_dir.mkdir(parents=True)
    originals, sections = {}, {}
    for case in cases:
        text = (corpus / case["file"]).read_text(encoding="utf-8")
        originals[case["case"]] = oracle.strip_case_source(text)
        sections[case["case"]] = text[text.index(MARKER):]
        (user_dir / f"{case['case']}.py").write_text(originals[case["case"]], encoding="utf-8")
    offered: dict[str, list[str]] = {}
    found: dict[str, int] = {}
    codes: dict[str, list[str]] = {}
    fixable = declared_fix_codes()
    for d in xlacheck(user_dir, *declare)["diagnostics"]:
        name = Path(d["path"]).stem
        found[name] = found.get(name, 0) + 1
        if d["code"] in fixable:
            codes.setdefault(name, []).append(d["code"])
        if d.get("fix"):
            offered.setdefault(name, []).append(d["fix"]["applicability"])
    xlacheck(user_dir, *declare, "--fix", *(["--unsafe-fixes"] if unsafe else []))
    applies = {"safe", "unsafe"} if unsafe else {"safe"}
    records = []
    for case in cases:
        name = case["case"]
        fixed = (user_dir / f"{name}.py").read_text(encoding="utf-8")
        record = CaseFix(name, case["label"], case["xla_fail"], found.get(name, 0), offered.get(name, []),
                         [a for a in offered.get(name, []) if a in applies], fixed != originals[name],
                         sorted(set(codes.get(name, []))))
        (out / f"{name}.py").write_text(fixed.rstrip("\n") + "\n\n\n" + sections[name], encoding="utf-8")
        records.append(record)
    shutil.rmtree(user_dir)
    return records


def declared_fix_codes() -> frozenset[str]:
    """The codes of the rules that declare a fix (``Rule.fix``): a finding of one is a place a user
    would press --fix."""
    sys.path.insert(0, str(REPO))
    from xlacheck.rules import ALL_RULES

    return frozenset(rule.code for rule in ALL_RULES if rule.fix)


def by_rule(mode: str, records: list[CaseFix], report: dict) -> None:
    """Per rule with a declared fix, over the failing cases where it fires: how many the fixer did
    not change (no fix applied), changed into code that does not compile, changed with outputs that
    differ, and really fixed (a case with findings of two rules counts for both)."""
    by_case = {r["case"]: r for r in report["cases"]}
    rows: dict[str, list[int]] = {}
    for r in records:
        if not r.failing:
            continue
        c = by_case.get(r.case, {})
        outcome = (0 if not r.changed else 1 if not c.get("xla_ok") else
                   2 if c.get("status") != "PASS" else 3)
        for code in r.codes:
            rows.setdefault(code, [0, 0, 0, 0])[outcome] += 1
    print(f"\n[{mode}] by rule (failing cases where the rule fires): "
          f"{'rule':8s} {'cases':>5s} {'no fix':>6s} {'no compile':>10s} {'differs':>7s} {'fixed':>5s}")
    for code in sorted(rows):
        n = rows[code]
        print(f"[{mode}] by rule {'':43s}{code:8s} {sum(n):5d} {n[0]:6d} {n[1]:10d} {n[2]:7d} {n[3]:5d}")


STAGES = (
    ("a", "no finding"),
    ("b", "a finding, no fix offered"),
    ("c", "a fix offered, file not changed"),
    ("d", "changed, does not compile under XLA"),
    ("e", "compiles, outputs differ"),
    ("f", "really fixed"),
)


def error_class(check: dict) -> str:
    """The class of a fixed case's failure under XLA, in a few words: the exception type of the
    first failing input (``compile-time constant`` for a shape computed from a value), or the phase
    where the oracle's worker died (a fixed file that does not import dies in ``import``)."""
    reason = check.get("reason") or ""
    if reason.startswith(("worker died", "timeout")) and " in phase " in reason:
        return reason.split(" ", 1)[0] + " in phase " + reason.rsplit(" in phase ", 1)[-1]
    for item in check.get("per_input") or []:
        if item.get("status") == "xla_error":
            error = item.get("error") or {}
            if "compile-time constant" in error.get("key", ""):
                return "compile-time constant"
            return error.get("type") or "other error"
    return "no XLA compilation" if check.get("xla_compiles") == 0 else "other"


def stage_of(record: CaseFix, check: dict, unsafe: bool) -> tuple[str, str]:
    """Where a failing case stops on its way to a real fix: (stage letter, detail). The detail
    says for (b) whether a rule that declares a fix fired (its rewriters declined the code) or only
    rules without one, for (c) why nothing was written (no fix of an applicability this mode applies, or the
    fixer did not write the applicable ones: conflicts, re-parse refusals, a fix that replaces a
    text with itself), for (d) the error class, for (e) whether outputs differ or too few inputs
    were checked."""
    applies = {"safe", "unsafe"} if unsafe else {"safe"}
    if not record.changed:
        if record.diagnostics == 0:
            return "a", ""
        if not record.offered:
            return "b", "rewriters declined" if record.codes else "no rule with a declared fix fired"
        if not set(record.offered) & applies:
            return "c", "only " + "/".join(sorted(set(record.offered))) + " fixes"
        return "c", "applicable fix not written"
    if not check.get("xla_ok"):
        return "d", error_class(check)
    if check.get("status") == "PASS":
        return "f", ""
    if check.get("n_match") != check.get("n_checked"):
        return "e", "outputs differ"
    return "e", "too few inputs checked"


def stages(mode: str, split: str, records: list[CaseFix], report: dict) -> dict:
    """Counts of failing cases per stage (see ``STAGES``), with the details of (c)-(e) counted;
    only counts, so it is printed for held-out splits too."""
    by_case = {r["case"]: r for r in report["cases"]}
    counts: dict[str, int] = {letter: 0 for letter, _ in STAGES}
    details: dict[str, dict[str, int]] = {}
    for r in records:
        if not r.failing:
            continue
        letter, detail = stage_of(r, by_case.get(r.case, {}), mode == "unsafe")
        counts[letter] += 1
        if detail:
            details.setdefault(letter, {}).setdefault(detail, 0)
            details[letter][detail] += 1
    print(f"[{mode}/{split}] stages of the failing cases:")
    for letter, what in STAGES:
        more = "; ".join(f"{k} {v}" for k, v in sorted(details.get(letter, {}).items(), key=lambda kv: (-kv[1], kv[0])))
        print(f"[{mode}/{split}]   ({letter}) {what:38s} {counts[letter]:3d}" + (f"  ({more})" if more else ""))
    return {"counts": counts, "details": details}


SEEDED_ORACLE = REPO / "benchmarks" / "oracle_seeded.py"
HARNESSES = {"seeded": "seeded imports (benchmarks/oracle_seeded.py)", "shared": "the shared oracle as it is"}


def harness_script(corpus: Path, harness: str) -> Path:
    """The oracle ``check-fix`` runs through: the seeded wrapper (measured) or the shared oracle. The
    wrapper loads the shared oracle, so it stands in only where the corpus uses that one."""
    oracle = oracle_path(corpus)
    shared = find_corpus()
    return SEEDED_ORACLE if harness == "seeded" and shared is not None and oracle == shared / "oracle.py" else oracle


def check_fix(corpus: Path, fixed_dir: Path, report: Path, jobs: int, cases_dir: str = "tf",
              harness: str = "shared") -> dict:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TF_USE_LEGACY_KERAS="1")
    cmd = ["nice", "-n", "5", sys.executable, str(harness_script(corpus, harness)), "check-fix",
           str(corpus / cases_dir), str(fixed_dir), "--out", str(report), "--jobs", str(jobs)]
    print("$", " ".join(cmd), flush=True)
    subprocess.run(cmd, env=env, check=False, stdout=subprocess.DEVNULL)
    return json.loads(report.read_text())


def figures(records: list[CaseFix], report: dict) -> dict[str, int]:
    """The counts a summary prints, from the fixer's records and one check-fix report: failing
    cases changed that compile, that also pass (static or value-specialized), and the cases where a
    SAFE fix changed outputs."""
    by_case = {r["case"]: r for r in report["cases"]}
    counts = dict.fromkeys(("compiled", "passed", "static_pass", "specialized_pass", "safe_changed"), 0)
    for r in records:
        c = by_case.get(r.case, {})
        static = c.get("fixed_static_ok")  # True: compiles from shapes alone; False: needs argument values
        if r.failing and r.changed and c.get("xla_ok"):
            counts["compiled"] += 1
        if r.failing and r.changed and c.get("status") == "PASS":
            counts["passed"] += 1
            counts["static_pass"] += static is True
            counts["specialized_pass"] += static is False
        mismatch = c.get("xla_ok") and c.get("n_match") != c.get("n_checked")
        if r.changed and r.applied and set(r.applied) == {"safe"} and mismatch:
            counts["safe_changed"] += 1
    return counts


def summarize(mode: str, records: list[CaseFix], report: dict, split: str = "dev") -> dict:
    by_case = {r["case"]: r for r in report["cases"]}
    hidden = split in HIDDEN_SPLITS
    print(f"\n== mode: {mode}, split: {split} ==")
    if hidden:
        print("(held-out split: per-case lines are not printed)")
    else:
        print(f"{'case':40s} {'label':17s} {'found':5s} {'fixes applied':22s} {'result':6s} {'static':6s} stage reason")
        for r in records:
            c = by_case.get(r.case, {})
            applied = ",".join(r.applied) or ("display-only" if "display-only" in r.offered else "-")
            stage = stage_of(r, c, mode == "unsafe")[0] if r.failing else "-"
            print(f"{r.case:40s} {r.label:17s} {r.diagnostics:<5d} {applied:22s} {c.get('status', 'n/a'):6s} "
                  f"{c.get('fixed_static_ok')!s:6s} {stage:5s} {(c.get('reason') or '')[:70]}")
    failing = [r for r in records if r.failing]
    counts = figures(records, report)
    passed, compiled, safe_changed = counts["passed"], counts["compiled"], counts["safe_changed"]
    static_pass, specialized_pass = counts["static_pass"], counts["specialized_pass"]
    share = passed / len(failing) if failing else 0.0
    changed = sum(r.changed for r in failing)
    found = sum(r.diagnostics > 0 for r in failing)
    print(f"\n[{mode}/{split}] failing cases: {len(failing)}; with a finding: {found}; "
          f"file changed by the fixer: {changed}; changed and compiles under XLA: {compiled}; "
          f"changed, compiles and equal outputs: {passed}")
    print(f"[{mode}/{split}] failing cases really fixed (file changed by `xlacheck --fix"
          f"{' --unsafe-fixes' if mode == 'unsafe' else ''}`, compiles and matches eager): "
          f"{passed}/{len(failing)} = {share:.0%}")
    print(f"[{mode}/{split}]   compile from shapes alone (static, real fixes): {static_pass}/{len(failing)}; "
          f"pass only as value-specialized code (static=False, recompiles per value): {specialized_pass}")
    print(f"[{mode}/{split}] cases where a SAFE fix changed outputs: {safe_changed}")
    stage_counts = stages(mode, split, records, report)
    return {"mode": mode, "split": split, "stages": stage_counts, "failing": len(failing), "pass": passed,
            "changed": changed,
            "compiles": compiled, "share": share, "static_pass": static_pass,
            "value_specialized_pass": specialized_pass, "safe_fix_changed_outputs": safe_changed,
            "cases": [] if hidden else [vars(r) | {"check_fix": by_case.get(r.case)} for r in records]}


def compare_harness(mode: str, split: str, records: list[CaseFix], report: dict, harness: str) -> dict:
    """The headline figures of the same fixed files under another check-fix harness, so that what
    the harness alone changes is visible (counts only, for every split)."""
    failing = sum(r.failing for r in records)
    counts = figures(records, report)
    print(f"[{mode}/{split}] under {HARNESSES[harness]}: really fixed {counts['passed']}/{failing} "
          f"(static {counts['static_pass']}); changed and compiles: {counts['compiled']}; "
          f"SAFE fixes that changed outputs: {counts['safe_changed']}")
    return counts | {"failing": failing}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=None,
                    help="the xla_cases folder (default), a folder with labels.json and tf/, `repo` for eval_cases/ "
                         "or `repo-jax` for eval_cases/jax (labels_jax.json)")
    ap.add_argument("--categories", default="cond,shape")
    ap.add_argument("--split", default=None,
                    help="comma-separated splits, scored apart (default: dev; train for --corpus repo)")
    ap.add_argument("--mode", choices=["safe", "unsafe", "both"], default="both")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None, help="folder for fixed copies and reports (default: temp)")
    ap.add_argument("-k", default=None, help="only cases whose name contains this")
    ap.add_argument("--exclude-from", type=Path, default=None, metavar="FILE",
                    help="leave out the cases named in FILE, e.g. eval_cases/authored_with_rules.txt (cases "
                         "written by the author of the rules they test)")
    ap.add_argument("--only-from", type=Path, default=None, metavar="FILE",
                    help="score only the cases named in FILE (any split, as one group), e.g. "
                         "eval_cases/forms_fix.txt")
    ap.add_argument("--no-declare", action="store_true",
                    help="run the fixer without --jit-compiled (by default the cases are declared compiled, as "
                         "xla_cases_score.py does: the oracle compiles every ENTRY)")
    ap.add_argument("--harness", choices=["both", *HARNESSES], default="both",
                    help="the check-fix run that is measured: `seeded` (benchmarks/oracle_seeded.py: the shared "
                         "oracle seeding before each module import, so weights drawn at import agree), `shared` "
                         "(the shared oracle as it is) or `both` (default: seeded measured, the shared figures "
                         "printed after it)")
    a = ap.parse_args(argv)
    harnesses = ["seeded", "shared"] if a.harness == "both" else [a.harness]
    declare = () if a.no_declare else ("--jit-compiled",)
    print(f"== {'declared --jit-compiled' if declare else 'not declared'}")
    from xla_cases_score import read_case_list  # the same list format as xla_cases_score.py --exclude-from

    exclude = read_case_list(a.exclude_from)
    only = read_case_list(a.only_from, "--only-from") if a.only_from is not None else None
    jax_corpus = a.corpus == "repo-jax"  # eval_cases/jax, labels_jax.json: the oracle runs jax.jit there
    repo_corpus = a.corpus in ("repo", "repo-jax")
    labels_file, cases_dir = ("labels_jax.json", "jax") if jax_corpus else ("labels.json", "tf")
    a.corpus = REPO / "eval_cases" if repo_corpus else Path(a.corpus) if a.corpus else find_corpus()
    a.split = a.split or ("train" if repo_corpus else "dev")
    if a.corpus is None or not (a.corpus / labels_file).exists():
        print("fix_score: no corpus found; pass --corpus PATH/TO/xla_cases", file=sys.stderr)
        return 2
    oracle = load_oracle(a.corpus)
    labels = json.loads((a.corpus / labels_file).read_text())["cases"]
    labels = list(labels.values()) if isinstance(labels, dict) else labels
    cats = set(a.categories.split(","))
    splits = a.split.split(",")
    if only is not None:
        # the named cases, whatever their split, as one group; shown case by case only when none
        # of them is held out (every one was written with the rules: authored_with_rules.txt)
        for c in labels:
            if c["case"] in only:
                c["split"] = "listed" if only <= read_case_list(AUTHORED) else "validation"
        splits = sorted({c["split"] for c in labels if c["case"] in only}) or ["listed"]
    cases = [c for c in labels if c["category"] in cats and c["split"] in splits and (a.k is None or a.k in c["case"])
             and c["case"] not in exclude and (only is None or c["case"] in only)]
    out = a.out or Path(tempfile.mkdtemp(prefix="fix_score_"))
    summaries = []
    for mode in (["safe", "unsafe"] if a.mode == "both" else [a.mode]):
        t0 = time.time()
        records = prepare(a.corpus, oracle, cases, out / f"fixed_{mode}", mode == "unsafe", declare)
        # Only changed files are run: an unchanged failing file is not fixed, whatever check-fix
        # says about it (it feeds concrete values, so value-specialized originals "pass"), and an
        # unchanged negative compiles as it did.
        for r in records:
            if not r.changed:
                (out / f"fixed_{mode}" / f"{r.case}.py").unlink()
        reports = {}
        for harness in harnesses:
            if any(r.changed for r in records):
                reports[harness] = check_fix(a.corpus, out / f"fixed_{mode}", out / f"report_{mode}_{harness}.json",
                                             a.jobs, cases_dir, harness)
            else:
                reports[harness] = {"cases": []}
        split_of = {c["case"]: c["split"] for c in cases}
        for split in splits:
            in_split = [r for r in records if split_of[r.case] == split]
            measured = reports[harnesses[0]]
            print(f"\n(check-fix harness: {HARNESSES[harnesses[0]]})")
            summary = summarize(mode, in_split, measured, split)
            if split not in HIDDEN_SPLITS:
                by_rule(mode, in_split, measured)
            summary.update(fixer=" ".join([sys.executable, "-m", "xlacheck", *declare, "--fix"]),
                           seconds=round(time.time() - t0, 1), harness=harnesses[0])
            for other in harnesses[1:]:
                summary[f"harness_{other}"] = compare_harness(mode, split, in_split, reports[other], other)
            summaries.append(summary)
    (out / "fix_score.json").write_text(json.dumps(summaries, indent=1))
    print(f"\nwrote {out / 'fix_score.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
