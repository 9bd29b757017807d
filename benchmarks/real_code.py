"""xlacheck on real code it was not tuned on: findings per rule and per 10k lines, against a judged list.

Corpora (local copies; nothing here is committed to the repository):

- ``tensorflow/models``: ``official/`` and ``orbit/`` of the ``tf-models-official==2.20.0`` wheel;
- ``tensorflow/addons``: the ``tensorflow-addons==0.23.0`` wheel;
- ``keras-team/keras-hub``, ``tensorflow/examples``, ``google/flax`` (``examples/`` only): HEAD
  snapshots fetched as bare git mirrors under ``/work/.mirror/<owner>+<name>/repo``;
- ``tensorflow/recommenders``, ``google-research/big_vision``: added later as code the rules
  were not written on (HEAD snapshots, as above).

``--prepare`` builds the cache (``pip download --no-deps`` + unzip for the wheels, ``git
archive`` out of the mirrors; fetch the mirrors first). Each corpus is linted in-process as the
CLI lints a folder: :func:`xlacheck.engine.check_file` on every file (the rules the CLI runs by
default, or every rule with ``--preview``), then again, with the project's facts, on the files
that the other files' summaries give facts (:mod:`xlacheck.analysis.project`; ``--no-project``
lints each file alone), and each finding is looked up in the judged list, the tables of
``docs/known-results.md`` and ``docs/real-code-judgments-*.md`` whose rows start with
``| corpus:path:line | CODE | true/false |``.

    python benchmarks/real_code.py [--root DIR] [--prepare] [--preview] [--extra] [--corpus NAME] [--list]
                                   [--unjudged] [--fixes] [--jit-compiled]

``--extra`` adds nineteen more corpora (``EXTRA_CORPORA``: google-research bert, electra, t5x, scenic;
tensorflow tensor2tensor, probability; keras-team/keras-cv; google-deepmind/dm-haiku; google trax,
maxtext), HEAD snapshots of mirrors fetched under ``/work/.mirror``, 1,192,401 lines, judged once
(branch tf-real5); and nine more judged once at first sight (branch tf-real7: tensorflow/lingvo,
google/automl, praxis, paxml; google-deepmind/sonnet, alphafold; google-research/pix2seq, simclr,
vision_transformer; 494,640 lines); and seven more judged once at first sight (branch tf-real8:
tensorflow/tpu, google-deepmind/gemma, google/init2winit, google/flaxformer, tensorflow/agents,
google/uncertainty-baselines, google-deepmind/deepmind-research; 649,071 lines; their judged rows
are in ``docs/real-code-judgments-8.md``, which this script reads as it reads known-results.md);
each is skipped with a line when absent.

``--fixes`` also counts the fixes offered on the findings (SAFE / UNSAFE, with edits) and applies
each one alone to its file's text: the fixed file must still compile to bytecode (``compile()``;
a fix that breaks the syntax or the indentation of real code is listed and counted as broken).
It does not run the code (the corpora's dependencies are not installed).

Prints, per corpus: files, lines, findings, judged true, judged false, unjudged, true/false per
10k lines, seconds and the files linted again with facts from the others; then findings per rule
(all corpora) with their judged precision.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xlacheck.analysis.project import ProjectFile, resolve  # noqa: E402
from xlacheck.engine import check_file  # noqa: E402
from xlacheck.rewrites import attach_fixes  # noqa: E402
from xlacheck.rewrites._fix import apply_edits  # noqa: E402
from xlacheck.rules import ALL_RULES  # noqa: E402

DEFAULT_ROOT = Path(os.environ.get("XLACHECK_REAL_CODE", "/work/scratch_precision/corpora"))
MIRRORS = Path("/work/.mirror")
KNOWN = ROOT / "docs" / "known-results.md"
# judged lists kept beside known-results.md, one file per measurement lane (same table rows)
JUDGMENTS = sorted((ROOT / "docs").glob("real-code-judgments-*.md"))

# name -> (how to get it, folder under the root, sub-folders that are the corpus)
CORPORA: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "tensorflow/models": ("pip:tf-models-official==2.20.0", "wheels/tfmodels", ("official", "orbit")),
    "keras-team/keras-hub": ("git:keras-team+keras-hub", "keras-team+keras-hub", ("",)),
    "tensorflow/addons": ("pip:tensorflow-addons==0.23.0", "wheels/addons", ("tensorflow_addons",)),
    "tensorflow/examples": ("git:tensorflow+examples", "tensorflow+examples", ("",)),
    "google/flax": ("git:google+flax:examples", "google+flax", ("examples",)),
    # added after the rules were changed, run once as code nobody tuned on (docs/known-results.md)
    "tensorflow/recommenders": ("git:tensorflow+recommenders", "tensorflow+recommenders", ("",)),
    "google-research/big_vision": ("git:google-research+big_vision", "google-research+big_vision", ("",)),
}

# ``--extra``: code nobody tuned the rules on, judged once (branch tf-real5, 2026-11-26; HEAD
# snapshots of the mirrors, only their .py files: some mirrors lack large data blobs). Skipped with
# a printed line when absent, so CI and the default figures are unaffected.
EXTRA_CORPORA: dict[str, tuple[str, str, tuple[str, ...]]] = {
    name.replace("+", "/"): (f"git:{name}", f"extra/{name}", ("",)) for name in (
        "google-research+bert", "google-research+electra", "tensorflow+tensor2tensor", "tensorflow+probability",
        "keras-team+keras-cv", "google-deepmind+dm-haiku", "google+trax", "google-research+t5x", "google+maxtext",
        "google-research+scenic",
        # judged once at first sight (branch tf-real7, 2026-11-26): TF/JAX model and training code with TPU paths
        "tensorflow+lingvo", "google+automl", "google-deepmind+sonnet", "google+praxis", "google+paxml",
        "google-deepmind+alphafold", "google-research+pix2seq", "google-research+simclr",
        "google-research+vision_transformer",
        # judged once at first sight (branch tf-real8, 2026-11-26; docs/real-code-judgments-8.md)
        "tensorflow+tpu", "google-deepmind+gemma", "google+init2winit", "google+flaxformer", "tensorflow+agents",
        "google+uncertainty-baselines", "google-deepmind+deepmind-research")
}

_ROW = re.compile(r"^\|\s*`?([\w./+-]+:[^|`]+?):(\d+)`?\s*\|\s*(XLA\d+)\s*\|\s*(true|false)\s*\|")


def prepare(root: Path, corpora: dict[str, tuple[str, str, tuple[str, ...]]] = CORPORA) -> None:
    """Download the wheels and export the git snapshots into ``root`` (idempotent)."""
    for source, folder, _ in corpora.values():
        dest = root / folder
        if dest.exists():
            continue
        kind, _, what = source.partition(":")
        if kind == "pip":
            cache = root / "wheels"
            cache.mkdir(parents=True, exist_ok=True)
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", what, "-d", str(cache)],
                           check=True)
            dist = what.split("==")[0].replace("-", "_")
            wheel = next(cache.glob(f"{dist}-*.whl"))
            with zipfile.ZipFile(wheel) as z:
                z.extractall(dest)
        else:
            repo, _, sub = what.partition(":")
            git_dir = MIRRORS / repo / "repo"
            if not git_dir.exists():
                raise SystemExit(f"{git_dir}: no mirror; fetch github:{repo.replace('+', '/')} first")
            dest.mkdir(parents=True)
            # only the Python files: a mirror may lack the blobs of large data files
            paths = [sub] if sub else ["--", "*.py"]
            archive = subprocess.run(["git", "--git-dir", str(git_dir), "archive", "HEAD", *paths],
                                     check=not folder.startswith("extra/"), capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)


def load_judged(*paths: Path) -> dict[tuple[str, int, str], tuple[bool, str]]:
    """(corpus:path, line, code) -> (true?, the row's text) from docs/known-results.md and the
    docs/real-code-judgments-*.md files (or the files given)."""
    judged: dict[tuple[str, int, str], tuple[bool, str]] = {}
    for path in paths or (KNOWN, *JUDGMENTS):
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            m = _ROW.match(line)
            if m:
                judged[(m.group(1), int(m.group(2)), m.group(3))] = (m.group(4) == "true", line)
    return judged


def _files(base: Path, subs: tuple[str, ...]) -> list[Path]:
    out: list[Path] = []
    for sub in subs:
        out.extend(sorted((base / sub).rglob("*.py")))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT, help="corpus cache folder (env XLACHECK_REAL_CODE)")
    ap.add_argument("--prepare", action="store_true", help="download/export the corpora into --root first")
    ap.add_argument("--preview", action="store_true", help="also run the rules behind --preview")
    ap.add_argument("--corpus", action="append", help="only this corpus (repeatable)")
    ap.add_argument("--list", action="store_true", help="print every finding with its verdict")
    ap.add_argument("--unjudged", action="store_true", help="print only findings not in the judged list")
    ap.add_argument("--no-project", action="store_true", help="lint each file alone (no cross-file facts)")
    ap.add_argument("--jit-compiled", action="store_true",
                    help="lint with the jit-compiled declaration (every file's functions and model/layer methods "
                         "run under XLA unless the code shows they run on the host), as a user who sets it would")
    ap.add_argument("--extra", action="store_true",
                    help="also the corpora of EXTRA_CORPORA (fetched mirrors, exported by --prepare), each skipped "
                         "with a line when absent")
    ap.add_argument("--fixes", action="store_true",
                    help="count the fixes offered and check each one, applied alone, leaves code that compiles")
    args = ap.parse_args(argv)
    corpora = {**CORPORA, **EXTRA_CORPORA} if args.extra else CORPORA
    if args.prepare:
        prepare(args.root, {name: c for name, c in corpora.items()
                            if (not args.corpus or name in args.corpus)
                            and (name in CORPORA or (MIRRORS / c[0][4:] / "repo").exists())})
    preview_codes = {r.code for r in ALL_RULES if getattr(r, "preview", False)}
    select = None if args.preview else (lambda code: code not in preview_codes)
    judged = load_judged()

    per_rule: dict[str, Counter[str]] = defaultdict(Counter)
    header = f"{'corpus':24}{'files':>7}{'lines':>9}{'found':>7}{'true':>6}{'false':>7}{'unjdg':>7}" \
             f"{'true/10k':>10}{'false/10k':>11}{'s':>7}{'facts':>7}"
    rows: list[str] = []
    totals = Counter()
    listing: list[str] = []
    fixes: Counter[str] = Counter()
    for name, (_, folder, subs) in corpora.items():
        if args.corpus and name not in args.corpus:
            continue
        base = args.root / folder
        if not base.exists():
            print(f"{name}: {base} missing; run with --prepare", file=sys.stderr)
            continue
        counts = Counter()
        t0 = time.perf_counter()
        texts = {path: path.read_text(encoding="utf-8", errors="replace") for path in _files(base, subs)}
        checked = {path: check_file(text, str(path), select=select, preview=args.preview,
                                    jit_compiled=args.jit_compiled)
                   for path, text in texts.items()}
        if not args.no_project:
            facts = resolve([ProjectFile(str(p), str(p.relative_to(base)), c.summary)
                             for p, c in checked.items() if c.summary is not None])
            for path in texts:
                if str(path) in facts:
                    counts["with facts"] += 1
                    checked[path] = check_file(texts[path], str(path), select=select, preview=args.preview,
                                               jit_compiled=args.jit_compiled,
                                               project=facts[str(path)])
        for path, text in texts.items():
            counts["files"] += 1
            counts["lines"] += text.count("\n")
            result = checked[path].result
            rel = f"{name}:{path.relative_to(base)}"
            diagnostics = result.diagnostics
            if args.fixes and diagnostics and checked[path].tree is not None:
                diagnostics = attach_fixes(text, checked[path].tree, diagnostics)
            for d in diagnostics:
                verdict = judged.get((rel, d.start.line, d.code))
                counts["found"] += 1
                key = "unjudged" if verdict is None else ("true" if verdict[0] else "false")
                counts[key] += 1
                per_rule[d.code][key] += 1
                if args.list or (args.unjudged and verdict is None):
                    listing.append(f"{rel}:{d.start.line}:{d.start.col + 1}: {d.code} [{key}] {d.message[:110]}")
                if args.fixes and d.fix is not None and d.fix.edits:
                    kind = d.fix.applicability.value
                    fixes[kind] += 1
                    try:
                        compile(apply_edits(text, d.fix.edits), str(path), "exec")
                    except SyntaxError as e:
                        fixes["broken"] += 1
                        listing.append(f"{rel}:{d.start.line}: {d.code} {kind} fix leaves code that does not "
                                       f"compile: {e}")
        secs = time.perf_counter() - t0
        totals.update(counts)
        per10k = 1e4 / max(counts["lines"], 1)
        rows.append(f"{name:24}{counts['files']:>7}{counts['lines']:>9}{counts['found']:>7}{counts['true']:>6}"
                    f"{counts['false']:>7}{counts['unjudged']:>7}{counts['true'] * per10k:>10.2f}"
                    f"{counts['false'] * per10k:>11.2f}{secs:>7.1f}{counts['with facts']:>7}")
    per10k = 1e4 / max(totals["lines"], 1)
    rows.append(f"{'all':24}{totals['files']:>7}{totals['lines']:>9}{totals['found']:>7}{totals['true']:>6}"
                f"{totals['false']:>7}{totals['unjudged']:>7}{totals['true'] * per10k:>10.2f}"
                f"{totals['false'] * per10k:>11.2f}")
    if listing:
        print("\n".join(listing))
    print(header)
    print("\n".join(rows))
    if args.fixes:
        print(f"\nfixes with edits: {fixes['safe']} safe, {fixes['unsafe']} unsafe; "
              f"applied alone, leave code that does not compile: {fixes['broken']}")
    print(f"\n{'rule':8}{'found':>7}{'true':>6}{'false':>7}{'unjdg':>7}{'precision':>11}")
    for code in sorted(per_rule):
        c = per_rule[code]
        decided = c["true"] + c["false"]
        prec = f"{c['true'] / decided:.2f}" if decided else "-"
        found = c["true"] + c["false"] + c["unjudged"]
        print(f"{code:8}{found:>7}{c['true']:>6}{c['false']:>7}{c['unjudged']:>7}{prec:>11}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
