"""Score xlacheck on real code against the judgments committed in eval_cases/real_code/.

    python benchmarks/judged_real_code.py --root DIR [--batch N ...] [--preview] [--json] [--corpus NAME ...]

Reads ``eval_cases/real_code/manifest-N*.json`` (the corpora of batch N: owner/name, commit, kind,
sub-folders, lines) and ``judgments-N*.jsonl`` (one judged finding a line: corpus, path, line, code,
text, verdict ``true``/``false``/``true°``/``true*``, reason, checked, judged_at, preview), lints every
corpus present under ``DIR/N/KIND/owner+name`` (as tools/export_corpora.py exports them; an absent one
is named in one line and skipped) with this checkout's xlacheck, and matches each finding to a
judgment of the same batch: same corpus, path (relative to the corpus), code and stripped source line;
of several, the one on the finding's line, else the nearest; with no such text, the same corpus, path,
code and line (the line's text changed). Each judgment is of one finding: once taken, it matches no other
(a second finding of a judged text is unjudged). Every corpus is linted by the CLI, as a user runs it
(``python -m xlacheck --no-cache --no-respect-gitignore --output-format json [--preview] DIR``, this
checkout's package, with ``--torch-xla`` for the PyTorch corpora: their code is declared to run on XLA);
files in folders the CLI excludes by default, ``build/`` say, are listed not linted. ``--preview`` also
runs the rules behind ``--preview``.

Prints, per kind (TF/JAX, PyTorch), a table per corpus and per rule: findings, judged true (``true``,
``true°`` and ``true*`` apart), false, unjudged, true % of the judged findings (all three true marks),
false per 10k lines (the manifest's ``lines``); then every UNJUDGED finding
(``unjudged: BATCH corpus path:line:col: CODE message`` and the stripped line, for a judge to add) and
every judgment no finding matched (``stale: ...``; judgments marked ``"preview": true`` only count as
stale with ``--preview``), after the files that could not be linted (``not linted: ...``: a syntax error
under this Python, say). ``--json`` prints the same as one JSON object instead.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from export_corpora import MANIFESTS, Corpus, batch_files, batches, load_manifest  # noqa: E402

from xlacheck.config import DEFAULT_EXCLUDE  # noqa: E402

VERDICTS = ("true", "true°", "true*", "false")
KIND_NAMES = {"tf": "TensorFlow / JAX", "torch": "PyTorch"}


@dataclass(frozen=True)
class Judgment:
    batch: int
    corpus: str
    path: str
    line: int
    code: str
    text: str
    verdict: str
    reason: str
    checked: str = ""
    judged_at: str = ""
    preview: bool = False


@dataclass(frozen=True)
class Finding:
    batch: int
    corpus: str
    kind: str
    path: str
    line: int
    col: int
    code: str
    message: str
    text: str


@dataclass
class Tally:
    """Findings of one corpus or one rule and what the judgments say of them."""

    findings: int = 0
    verdicts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))
    unjudged: int = 0
    lines: int = 0

    def add(self, verdict: str | None) -> None:
        self.findings += 1
        if verdict is None:
            self.unjudged += 1
        else:
            self.verdicts[verdict] += 1

    @property
    def true(self) -> int:
        return self.verdicts["true"] + self.verdicts["true°"] + self.verdicts["true*"]

    @property
    def judged(self) -> int:
        return self.findings - self.unjudged

    def row(self) -> dict[str, object]:
        out: dict[str, object] = {"findings": self.findings, **self.verdicts, "unjudged": self.unjudged,
                                  "lines": self.lines}
        out["true_pct"] = round(100 * self.true / self.judged, 1) if self.judged else None
        out["false_per_10k"] = round(self.verdicts["false"] / self.lines * 1e4, 2) if self.lines else None
        return out


def load_judgments(batch: int, directory: Path = MANIFESTS) -> list[Judgment]:
    """Every row of ``judgments-N*.jsonl`` (ValueError on a row without the keys or with a bad verdict)."""
    rows = []
    for path in batch_files(directory, "judgments", ".jsonl", batch):
        for number, text in enumerate(path.read_text().splitlines(), 1):
            if not text.strip():
                continue
            raw = json.loads(text)
            if raw.get("verdict") not in VERDICTS or not {"corpus", "path", "line", "code", "text"} <= set(raw):
                raise ValueError(f"{path}:{number}: bad judgment {raw!r}")
            rows.append(Judgment(batch, raw["corpus"], raw["path"], int(raw["line"]), raw["code"], raw["text"],
                                 raw["verdict"], raw.get("reason", ""), raw.get("checked", ""),
                                 raw.get("judged_at", ""), bool(raw.get("preview", False))))
    return rows


def _line_text(source_lines: list[str], line: int) -> str:
    return source_lines[line - 1].strip() if 0 < line <= len(source_lines) else ""


def lint(corpus: Corpus, directory: Path, preview: bool) -> tuple[list[Finding], list[str]]:
    """The CLI's findings on one corpus (this checkout's xlacheck, run from ROOT; ``--torch-xla`` for a
    PyTorch corpus), and the files it could not lint (``path: message``)."""
    # every file of the export is tracked in the corpus's repository: a .gitignore there says nothing about it
    cmd = [sys.executable, "-m", "xlacheck", "--no-cache", "--exit-zero", "--no-respect-gitignore", "--output-format",
           "json", *(["--preview"] if preview else []), *(["--torch-xla"] if corpus.kind == "torch" else []),
           str(directory)]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"xlacheck failed on {directory} ({done.returncode}): {done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    sources: dict[str, list[str]] = {}
    out = []
    for d in report["diagnostics"]:
        absolute = Path(d["path"]) if Path(d["path"]).is_absolute() else ROOT / d["path"]
        rel = absolute.resolve().relative_to(directory.resolve()).as_posix()
        if rel not in sources:
            sources[rel] = absolute.read_text(errors="replace").splitlines()
        out.append(Finding(corpus.batch, corpus.corpus, corpus.kind, rel, d["line"], d["column"], d["code"],
                           d["message"], _line_text(sources[rel], d["line"])))
    errors = [f"{Path(e['path']).resolve().relative_to(directory.resolve()).as_posix()}: {e['message']}"
              for e in report["errors"]]
    # the CLI skips folders it excludes by default (build/, dist/, venv/ ...), which the manifest's lines count:
    # name them rather than drop them silently
    for path in sorted(directory.rglob("*.py")):
        rel = path.relative_to(directory)
        skipped = next((part for part in rel.parts[:-1] if part in DEFAULT_EXCLUDE), None)
        if skipped is not None:
            errors.append(f"{rel.as_posix()}: in a {skipped}/ folder, which the CLI excludes by default")
    return out, errors


def match(findings: list[Finding], judgments: list[Judgment]) -> tuple[list[Judgment | None], list[Judgment]]:
    """The judgment of each finding (None: unjudged) and the judgments no finding matched."""
    by_text: dict[tuple[str, str, str, str], list[Judgment]] = defaultdict(list)
    by_line: dict[tuple[str, str, str, int], list[Judgment]] = defaultdict(list)
    for j in judgments:
        by_text[(j.corpus, j.path, j.code, j.text)].append(j)
        by_line[(j.corpus, j.path, j.code, j.line)].append(j)
    out: list[Judgment | None] = []
    used: set[int] = set()
    for f in findings:
        # a judgment is of one finding: two findings of one code on one line (two columns) take two judgments,
        # and a finding whose text repeats a judged line elsewhere in the file (a new finding, or a second
        # one) is unjudged once the judgments of that text are taken
        candidates = [j for j in by_text.get((f.corpus, f.path, f.code, f.text), []) if id(j) not in used] or [
            j for j in by_line.get((f.corpus, f.path, f.code, f.line), []) if id(j) not in used]
        if not candidates:
            out.append(None)
            continue
        best = min(candidates, key=lambda j: abs(j.line - f.line))
        used.add(id(best))
        out.append(best)
    return out, [j for j in judgments if id(j) not in used]


def score(root: Path, batch_numbers: list[int], preview: bool, corpora: list[str] | None = None,
          directory: Path = MANIFESTS) -> dict[str, object]:
    """Lint, match and count; the report as one JSON-ready object."""
    absent: list[str] = []
    errors: list[str] = []
    per_corpus: dict[tuple[int, str], Tally] = {}
    per_rule: dict[tuple[str, str], Tally] = defaultdict(Tally)
    per_kind: dict[str, Tally] = defaultdict(Tally)
    unjudged: list[dict[str, object]] = []
    stale: list[dict[str, object]] = []
    kinds: dict[tuple[int, str], str] = {}
    for batch in batch_numbers:
        judgments = load_judgments(batch, directory)
        for corpus in load_manifest(batch, directory):
            if corpora and corpus.corpus not in corpora:
                continue
            where = corpus.path(root)
            if not where.is_dir():
                absent.append(f"absent: batch {batch} {corpus.corpus} (no {where}; tools/export_corpora.py)")
                continue
            findings, failed = lint(corpus, where, preview)
            errors += [f"not linted: {batch} {corpus.corpus} {e}" for e in failed]
            mine = [j for j in judgments if j.corpus == corpus.corpus]
            verdicts, unmatched = match(findings, mine)
            tally = per_corpus[(batch, corpus.corpus)] = Tally(lines=corpus.lines)
            kinds[(batch, corpus.corpus)] = corpus.kind
            per_kind[corpus.kind].lines += corpus.lines
            for f, j in zip(findings, verdicts):
                verdict = None if j is None else j.verdict
                tally.add(verdict)
                per_rule[(corpus.kind, f.code)].add(verdict)
                per_kind[corpus.kind].add(verdict)
                if j is None:
                    unjudged.append(asdict(f))
            stale += [asdict(j) for j in unmatched if preview or not j.preview]
    for (kind, _), tally in per_rule.items():
        tally.lines = per_kind[kind].lines
    return {
        "batches": batch_numbers, "preview": preview, "absent": absent, "errors": errors,
        "kinds": {kind: per_kind[kind].row() for kind in sorted(per_kind)},
        "corpora": [{"batch": b, "corpus": c, "kind": kinds[(b, c)], **t.row()} for (b, c), t in per_corpus.items()],
        "rules": [{"kind": k, "code": c, **t.row()} for (k, c), t in sorted(per_rule.items())],
        "unjudged": unjudged, "stale": stale,
    }


def _cells(row: dict[str, object]) -> str:
    pct = "-" if row["true_pct"] is None else f"{row['true_pct']:.1f}%"
    per10k = "-" if row["false_per_10k"] is None else f"{row['false_per_10k']:.2f}"
    return (f"{row['findings']} | {row['true']} | {row['true°']} | {row['true*']} | {row['false']} | "
            f"{row['unjudged']} | {pct} | {per10k} |")


def render(report: dict[str, object]) -> str:
    """The report as markdown tables and one line per unjudged finding / stale judgment."""
    head = "| findings | true | true° | true* | false | unjudged | true % | false per 10k lines |"
    rule = "|---|---|---|---|---|---|---|---|"
    out = [f"batches {report['batches']}, {'--preview (every rule)' if report['preview'] else 'default rules'}"]
    out += list(report["absent"]) + list(report["errors"])  # type: ignore[call-overload]
    kinds: dict[str, dict[str, object]] = report["kinds"]  # type: ignore[assignment]
    for kind, total in kinds.items():
        out += ["", f"### {KIND_NAMES[kind]}: {total['lines']:,} lines", "", f"| corpus | lines {head}",
                f"|---|---{rule}"]
        for row in report["corpora"]:  # type: ignore[attr-defined]
            if row["kind"] == kind:
                out.append(f"| {row['corpus']} | {row['lines']:,} | {_cells(row)}")
        out.append(f"| **all** | {total['lines']:,} | {_cells(total)}")
        out += ["", f"| rule {head}", rule + "---|"]
        for row in report["rules"]:  # type: ignore[attr-defined]
            if row["kind"] == kind:
                out.append(f"| {row['code']} | {_cells(row)}")
    out.append("")
    for f in report["unjudged"]:  # type: ignore[attr-defined]
        out.append(f"unjudged: {f['batch']} {f['corpus']} {f['path']}:{f['line']}:{f['col']}: {f['code']} "
                   f"{f['message']}\n    {f['text']}")
    for j in report["stale"]:  # type: ignore[attr-defined]
        out.append(f"stale: {j['batch']} {j['corpus']} {j['path']}:{j['line']}: {j['code']} ({j['verdict']}) "
                   f"{j['text']}")
    out.append(f"{len(report['unjudged'])} unjudged, {len(report['stale'])} stale")  # type: ignore[arg-type]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, required=True, help="the corpora, as DIR/N/KIND/owner+name")
    ap.add_argument("--batch", type=int, action="append", help="batch number (repeatable; default: every manifest)")
    ap.add_argument("--corpus", action="append", help="only this owner/name (repeatable)")
    ap.add_argument("--preview", action="store_true", help="also run the rules behind --preview")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--manifests", type=Path, default=MANIFESTS, help="the folder of manifest-N*.json, judgments-N*")
    args = ap.parse_args(argv)
    report = score(args.root, args.batch or batches(args.manifests), args.preview, args.corpus, args.manifests)
    print(json.dumps(report, indent=1, ensure_ascii=False) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
